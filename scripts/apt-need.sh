#!/bin/sh
# Installs the Debian packages a make target needs, when their commands are missing (CI runs on a fresh
# machine, so `make test` installs what its tests use). Usage: apt-need.sh [--recommends] COMMAND=PACKAGE ...
#   sh scripts/apt-need.sh --recommends chromium=chromium     (the browser tests; fonts come as recommends)
#   sh scripts/apt-need.sh mosquitto=mosquitto                (the league tests start their own broker)
# Without root or sudo it says what to run and exits 0: the tests that need the package skip, saying why.
set -e
recommends="--no-install-recommends"
if [ "$1" = "--recommends" ]; then
    recommends=""
    shift
fi
missing=""
for pair in "$@"; do
    cmd=${pair%%=*}
    package=${pair#*=}
    if ! command -v "$cmd" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$cmd" ] && [ ! -x "/usr/bin/$cmd" ]; then
        missing="$missing $package"
    fi
done
[ -n "$missing" ] || exit 0
if [ "$(id -u)" = "0" ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "missing:$missing, and this user cannot install it: run 'apt-get install$missing' as root" >&2
    echo "(the tests that need it are skipped)" >&2
    exit 0
fi
echo "installing Debian's$missing for the tests ..."
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $recommends $missing >/dev/null
