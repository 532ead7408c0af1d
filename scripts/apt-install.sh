# Sourced by the ensure-*.sh scripts: the one way they install a Debian package for a test, so that
# the checks before it (root, apt-get) and the messages stay the same for every such package.
#
# apt_install SCRIPT PACKAGE PURPOSE OVERRIDE
#   SCRIPT    the calling script's name, for its messages (ensure-redis)
#   PACKAGE   the Debian package (redis-server)
#   PURPOSE   what needs it (test/replicas/)
#   OVERRIDE  the variable that points the tests at one of the user's own instead (REDIS_SERVER)
# Exits the calling script with 1, saying what to do, when it cannot install (not root, no apt-get).
apt_install() {
  local script="$1" package="$2" purpose="$3" override="$4"
  if [ "$(id -u)" -ne 0 ]; then
    echo "$script: $package is missing and installing it needs root." >&2
    echo "  Install it with: sudo apt-get install -y --no-install-recommends $package" >&2
    echo "  or set $override to your own." >&2
    exit 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$script: $package is missing and there is no apt-get here to install it." >&2
    echo "  Install it with your package manager and set $override to it." >&2
    exit 1
  fi
  echo "$script: installing Debian's $package (for $purpose)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "$package" >/dev/null
}
