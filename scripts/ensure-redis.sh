#!/usr/bin/env bash
# Installs Debian's redis-server for the replica end-to-end tests (test/replicas/), once. Idempotent:
# exits at once when it is already there, so `npm test` (pretest) and CI can call it every time.
# The tests start and stop their own Redis on a free loopback port; this only installs the binary
# (and stops the system service the package may start: nothing listens on 6379 because of us).
# REDIS_SERVER overrides the binary's path (the tests read the same variable).
set -euo pipefail

if [ -n "${REDIS_SERVER:-}" ]; then
  if [ -x "$REDIS_SERVER" ]; then
    exit 0
  fi
  echo "ensure-redis: REDIS_SERVER is $REDIS_SERVER, which is not an executable." >&2
  exit 1
fi
if command -v redis-server >/dev/null 2>&1; then
  exit 0
fi

# shellcheck source=apt-install.sh
source "$(dirname "$0")/apt-install.sh"
apt_install ensure-redis redis-server test/replicas/ REDIS_SERVER
# Where a service manager runs, the package starts a system Redis; the tests need none.
if command -v service >/dev/null 2>&1; then
  service redis-server stop >/dev/null 2>&1 || true
fi
if ! command -v redis-server >/dev/null 2>&1; then
  echo "ensure-redis: apt-get installed redis-server, but it is still not on PATH." >&2
  exit 1
fi
echo "ensure-redis: $(redis-server --version) installed." >&2
