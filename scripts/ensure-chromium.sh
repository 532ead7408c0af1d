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

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-chromium: $chromium_path is missing and installing it needs root." >&2
  echo "  Install it with: sudo apt-get install -y --no-install-recommends chromium" >&2
  echo "  or point CHROMIUM_PATH at a Chromium or Chrome binary." >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $chromium_path is missing and there is no apt-get here to install it." >&2
  echo "  Install Chromium with your package manager and set CHROMIUM_PATH to its binary." >&2
  exit 1
fi

echo "ensure-chromium: installing Debian's chromium (for test/browser/)..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
if [ ! -x "$chromium_path" ]; then
  echo "ensure-chromium: apt-get installed chromium, but $chromium_path is still missing." >&2
  exit 1
fi
echo "ensure-chromium: $("$chromium_path" --version 2>/dev/null || echo chromium) installed." >&2
