#!/bin/sh
# Installs the Debian tools the install-script tests use, when missing (make test runs this):
# systemd-analyze (package systemd) verifies the units, desktop-file-validate (desktop-file-utils)
# checks the kiosk's autostart entry. Without them those tests are skipped, saying why.
set -e
missing=""
command -v systemd-analyze >/dev/null 2>&1 || missing="$missing systemd"
command -v desktop-file-validate >/dev/null 2>&1 || missing="$missing desktop-file-utils"
[ -n "$missing" ] || exit 0
if [ "$(id -u)" = "0" ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "missing$missing and this user cannot install it: run 'apt-get install$missing' as root" >&2
    echo "(the tests that need them are skipped)" >&2
    exit 0
fi
echo "installing$missing for the install-script tests ..."
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
