#!/bin/sh
# Make the broker's password file: one account per table plus the league's.
#   sudo sh accounts.sh table-1 table-2 table-3
# prints each account's password once (put it in that rig's [league] password, and the league's
# in a file for `rig league --password-file`).
set -e
FILE=/etc/mosquitto/rig-league.passwd
umask 077
for name in league "$@"; do
    password=$(head -c 12 /dev/urandom | base64 | tr -d '/+=')
    if [ -f "$FILE" ]; then mosquitto_passwd -b "$FILE" "$name" "$password"
    else mosquitto_passwd -c -b "$FILE" "$name" "$password"; fi
    echo "$name $password"
done
chown mosquitto: "$FILE" 2>/dev/null || true
