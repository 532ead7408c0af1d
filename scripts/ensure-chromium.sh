#!/usr/bin/env bash
# Installs Debian's Chromium for the browser end-to-end test (test/browser/), once. Idempotent: exits
# at once when it is already there, so `npm test` (pretest) and CI can call it every time.
# CHROMIUM_PATH overrides where it is looked for (the test reads the same variable).
set -euo pipefail

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium_path" ]; then
  exit 0
fi
if [ -n "${CHROMIUM_PATH:-}" ] && [ "$CHROMIUM_PATH" != /usr/bin/chromium ]; then
  echo "ensure-chromium: CHROMIUM_PATH is $CHROMIUM_PATH, which is not an executable." >&2
  exit 1
fi

# shellcheck source=apt-install.sh
source "$(dirname "$0")/apt-install.sh"
apt_install ensure-chromium chromium test/browser/ CHROMIUM_PATH
if [ ! -x "$chromium_path" ]; then
  echo "ensure-chromium: apt-get installed chromium, but $chromium_path is still missing." >&2
  exit 1
fi
echo "ensure-chromium: $("$chromium_path" --version 2>/dev/null || echo chromium) installed." >&2
