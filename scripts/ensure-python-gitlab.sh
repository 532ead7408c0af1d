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

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-python-gitlab: python-gitlab is missing for $python and installing it needs root." >&2
  echo "  Install it with: sudo apt-get install -y --no-install-recommends python3-gitlab" >&2
  echo "  or point PYTHON_GITLAB_PYTHON at a Python that can import gitlab." >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-python-gitlab: python-gitlab is missing and there is no apt-get here to install it." >&2
  echo "  Install python-gitlab with pip or your package manager and set PYTHON_GITLAB_PYTHON to that Python." >&2
  exit 1
fi

echo "ensure-python-gitlab: installing Debian's python3-gitlab (for test/python-gitlab/)..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends python3-gitlab >/dev/null
if ! "$python" -c 'import gitlab' >/dev/null 2>&1; then
  echo "ensure-python-gitlab: apt-get installed python3-gitlab, but $python still cannot import gitlab." >&2
  exit 1
fi
echo "ensure-python-gitlab: python-gitlab $("$python" -c 'import gitlab; print(gitlab.__version__)') installed." >&2
