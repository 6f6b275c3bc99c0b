#!/bin/sh
# Sets the rig up on a Raspberry Pi (what `make install` runs):
#   - the Raspberry Pi OS packages picamera2, lgpio and chromium come from apt;
#   - a venv made with --system-site-packages (so it sees picamera2 and lgpio), the rig installed in it;
#   - the config at /etc/rig/rig.toml (the documented example, if there is none yet), checked;
#   - rig.service (system unit) installed, enabled and started;
#   - the kiosk: a user unit plus an XDG autostart entry opening the scoreboard full-screen.
#
# Environment: RIG_USER (default: the user who ran sudo/make), RIG_CONFIG (default /etc/rig/rig.toml),
# DESTDIR (install the files under this directory only: no apt, no systemctl — for a dry run or a test).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=${VENV:-$ROOT/.venv}
RIG_USER=${RIG_USER:-${SUDO_USER:-$(id -un)}}
CONFIG=${RIG_CONFIG:-/etc/rig/rig.toml}
DESTDIR=${DESTDIR:-}
PYTHON=${PYTHON:-python3}

say() { printf 'install-pi: %s\n' "$*"; }

if [ -n "$DESTDIR" ]; then
    SUDO=""
    USER_HOME="$DESTDIR/home/$RIG_USER"
elif [ "$(id -u)" = "0" ]; then
    SUDO=""
    USER_HOME=$(getent passwd "$RIG_USER" | cut -d: -f6)
else
    SUDO="sudo"
    USER_HOME=$(getent passwd "$RIG_USER" | cut -d: -f6)
fi
[ -n "$USER_HOME" ] || { echo "install-pi: no such user: $RIG_USER" >&2; exit 2; }

as_user() {
    if [ -z "$DESTDIR" ] && [ "$(id -un)" != "$RIG_USER" ]; then
        $SUDO -u "$RIG_USER" "$@"
    else
        "$@"
    fi
}

# 1. System packages (Raspberry Pi OS).
if [ -z "$DESTDIR" ]; then
    missing=""
    for pkg in python3-picamera2 python3-lgpio chromium curl; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
    done
    if [ -n "$missing" ]; then
        say "installing$missing"
        $SUDO apt-get update -qq
        # chromium is called chromium-browser on older releases
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing \
            || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
                $(echo "$missing" | sed 's/chromium/chromium-browser/')
    fi
    for group in gpio video; do
        getent group "$group" >/dev/null && $SUDO usermod -aG "$group" "$RIG_USER" || true
    done
fi

# 2. The venv, with the system's picamera2 and lgpio visible.
if [ -z "$DESTDIR" ]; then
    if [ -f "$VENV/pyvenv.cfg" ] && ! grep -q '^include-system-site-packages = true' "$VENV/pyvenv.cfg"; then
        say "re-creating $VENV with --system-site-packages (picamera2 and lgpio come from apt)"
        as_user "$PYTHON" -m venv --clear --system-site-packages "$VENV"
    elif [ ! -x "$VENV/bin/python" ]; then
        as_user "$PYTHON" -m venv --system-site-packages "$VENV"
    fi
    as_user "$VENV/bin/python" -m pip install --quiet --upgrade pip
    as_user "$VENV/bin/python" -m pip install --quiet -e "$ROOT[pi]"
fi

# 3. The config file.
CONFIG_DEST="$DESTDIR$CONFIG"
if [ ! -f "$CONFIG_DEST" ]; then
    say "writing $CONFIG from examples/rig.toml (edit the players' pins and the camera, then: sudo systemctl restart rig)"
    $SUDO mkdir -p "$(dirname "$CONFIG_DEST")"
    $SUDO install -m 644 "$ROOT/examples/rig.toml" "$CONFIG_DEST"
fi
if [ -z "$DESTDIR" ]; then
    "$VENV/bin/rig" config check "$CONFIG"
fi
PORT=$(sed -n 's/^[[:space:]]*port[[:space:]]*=[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$CONFIG_DEST" | head -n 1)
URL="http://127.0.0.1:${PORT:-8080}/"

# 4. The units, with the paths filled in.
render() {
    sed -e "s|@ROOT@|$ROOT|g" -e "s|@VENV@|$VENV|g" -e "s|@USER@|$RIG_USER|g" \
        -e "s|@CONFIG@|$CONFIG|g" -e "s|@URL@|$URL|g" "$1"
}
UNIT_DIR="$DESTDIR/etc/systemd/system"
$SUDO mkdir -p "$UNIT_DIR"
render "$ROOT/systemd/rig.service" | $SUDO tee "$UNIT_DIR/rig.service" >/dev/null

USER_UNIT_DIR="$USER_HOME/.config/systemd/user"
AUTOSTART_DIR="$USER_HOME/.config/autostart"
as_user mkdir -p "$USER_UNIT_DIR" "$AUTOSTART_DIR"
render "$ROOT/systemd/rig-kiosk.service" | as_user tee "$USER_UNIT_DIR/rig-kiosk.service" >/dev/null
render "$ROOT/systemd/rig-kiosk.desktop" | as_user tee "$AUTOSTART_DIR/rig-kiosk.desktop" >/dev/null

if [ -z "$DESTDIR" ]; then
    $SUDO systemctl daemon-reload
    $SUDO systemctl enable rig.service
    $SUDO systemctl restart rig.service
    say "rig.service is $(systemctl is-active rig.service || true); the kiosk opens $URL at the next desktop login"
    say "check the set-up with: $VENV/bin/rig doctor --config $CONFIG"
else
    say "installed under $DESTDIR (no packages, no systemctl)"
fi
