#!/usr/bin/env bash
# Installs Debian's python3-gitlab for the python-gitlab client test (test/python-gitlab/), once.
# Idempotent: exits at once when it is already there, so `npm test` (pretest) and CI can call it
# every time.
# The package installs into Debian's own Python (/usr/bin/python3), which a `python3` earlier on PATH
# (pyenv, a virtualenv) does not see, so that interpreter is the one checked and the one the test runs.
# PYTHON_GITLAB_PYTHON overrides it (the test reads the same variable): any Python that can
# `import gitlab`.
set -euo pipefail

python="${PYTHON_GITLAB_PYTHON:-/usr/bin/python3}"
if [ -x "$python" ] && "$python" -c 'import gitlab' >/dev/null 2>&1; then
  exit 0
fi
if [ -n "${PYTHON_GITLAB_PYTHON:-}" ] && [ "$PYTHON_GITLAB_PYTHON" != /usr/bin/python3 ]; then
  echo "ensure-python-gitlab: PYTHON_GITLAB_PYTHON is $PYTHON_GITLAB_PYTHON, which cannot import gitlab." >&2
  echo "  Install python-gitlab for it (pip install python-gitlab) or unset the variable." >&2
  exit 1
fi

# shellcheck source=apt-install.sh
source "$(dirname "$0")/apt-install.sh"
apt_install ensure-python-gitlab python3-gitlab test/python-gitlab/ PYTHON_GITLAB_PYTHON
if ! "$python" -c 'import gitlab' >/dev/null 2>&1; then
  echo "ensure-python-gitlab: apt-get installed python3-gitlab, but $python still cannot import gitlab." >&2
  exit 1
fi
echo "ensure-python-gitlab: python-gitlab $("$python" -c 'import gitlab; print(gitlab.__version__)') installed." >&2
