#!/bin/sh
# Installs Debian's chromium for the browser tests, when it is missing.
set -e
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "chromium is missing and this user cannot install it: run 'apt-get install chromium' as root" >&2
    echo "(the browser tests are skipped without it)" >&2
    exit 0
fi
echo "installing Debian's chromium for the browser tests ..."
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
