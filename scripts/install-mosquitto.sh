#!/bin/sh
# Installs Debian's mosquitto (the MQTT broker the league tests start on 127.0.0.1), when it is missing.
# Only the binary is needed: the tests run their own instance with a temporary config.
set -e
if command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "mosquitto is missing and this user cannot install it: run 'apt-get install mosquitto' as root" >&2
    echo "(the league tests are skipped without it)" >&2
    exit 0
fi
echo "installing Debian's mosquitto for the league tests ..."
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends mosquitto >/dev/null
# (the package's own service, on localhost:1883, is left alone: the tests use free ports)
