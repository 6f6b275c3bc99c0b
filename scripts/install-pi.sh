#!/bin/sh
# Sets the rig up on a Raspberry Pi running Raspberry Pi OS Bookworm, Desktop or Lite
# (what `sudo make install` runs; plain `make install` as the Pi's user works too: it re-runs itself with sudo):
#   1. apt: python3-picamera2, python3-lgpio, python3-venv, curl, with --no-install-recommends
#      (picamera2's recommends pull in Qt and OpenGL); chromium for the kiosk;
#   2. the venv, made with --system-site-packages (so it sees apt's picamera2, lgpio and NumPy 1.x),
#      the rig installed in it with constraints-pi.txt (numpy<2: picamera2 breaks with NumPy 2);
#   3. the config at /etc/rig/rig.toml (the documented example, if there is none yet), checked;
#   4. rig.service (a hardened system unit) installed, enabled and started;
#   5. the kiosk on the Pi's display, opening the URL the rig really listens on:
#      Desktop: screen blanking off, a user unit started from the desktop's autostart through the
#      /usr/local/bin/rig-kiosk wrapper; Lite: no desktop, so no kiosk unless KIOSK=cage (installs
#      the cage kiosk compositor and shows the scoreboard on tty1); otherwise it says so and goes on.
#
# Environment: RIG_USER (default: the user who ran sudo; never root), RIG_CONFIG (default
# /etc/rig/rig.toml), KIOSK (auto | desktop | cage | none; default auto: desktop if there is one),
# VENV (default .venv in the source tree), ARCH (default: dpkg --print-architecture; arm64 adds the
# .[fast] extra), DESTDIR (install the files under this directory and only print the commands it
# would run — a dry run; RUN_COMMANDS=1 runs them anyway, as the tests do with stand-ins for apt-get
# and systemctl on the PATH).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=${VENV:-$ROOT/.venv}
CONFIG=${RIG_CONFIG:-/etc/rig/rig.toml}
DESTDIR=${DESTDIR:-}
PYTHON=${PYTHON:-python3}
KIOSK=${KIOSK:-auto}
# the userland's architecture (a 32-bit Raspberry Pi OS may run a 64-bit kernel: uname -m would say aarch64)
ARCH=${ARCH:-$(dpkg --print-architecture 2>/dev/null || uname -m)}
BIN=/usr/local/bin
RUN_COMMANDS=${RUN_COMMANDS:-}
[ -n "$DESTDIR" ] || RUN_COMMANDS=1

say() { printf 'install-pi: %s\n' "$*"; }
die() { printf 'install-pi: %s\n' "$*" >&2; exit 2; }

case "$KIOSK" in auto|desktop|cage|none) ;; *) die "KIOSK=$KIOSK: expected auto, desktop, cage or none" ;; esac

# Installing needs root: `make install` as the Pi's user comes back here through sudo.
if [ "$(id -u)" != "0" ] && [ -z "$DESTDIR" ]; then
    say "asking sudo to install as root (the rig itself will run as $(id -un))"
    exec sudo RIG_USER="${RIG_USER:-$(id -un)}" VENV="$VENV" RIG_CONFIG="$CONFIG" KIOSK="$KIOSK" PYTHON="$PYTHON" ARCH="$ARCH" \
        sh "$0" "$@"
fi

# Who runs the rig: the user who called sudo, never root (the rig needs no root, and its venv and
# kiosk belong to the desktop user).
if [ "$(id -u)" = "0" ]; then
    RIG_USER=${RIG_USER:-${SUDO_USER:-}}
    SUDO=""
else
    RIG_USER=${RIG_USER:-$(id -un)}
    SUDO="sudo"
fi
if [ -z "$RIG_USER" ] || [ "$RIG_USER" = "root" ]; then
    die "the rig must not run as root: run this as the Pi's user (sudo make install from their login), or set RIG_USER=pi"
fi
USER_HOME=$(getent passwd "$RIG_USER" | cut -d: -f6) || true
[ -n "$USER_HOME" ] || die "no such user: $RIG_USER (set RIG_USER to the Pi's login user)"
USER_HOME="$DESTDIR$USER_HOME"

# Run a command (as root / as the rig's user); a DESTDIR dry run only prints it.
run() {
    if [ -n "$RUN_COMMANDS" ]; then "$@"; else say "would run: $*"; fi
}
as_root() {
    if [ -n "$SUDO" ]; then run sudo "$@"; else run "$@"; fi
}
as_user() {
    if [ "$(id -un)" = "$RIG_USER" ]; then
        run "$@"
    elif [ "$(id -u)" = "0" ]; then
        run runuser -u "$RIG_USER" -- "$@"   # root: runuser (util-linux), no sudo needed
    else
        run sudo -u "$RIG_USER" "$@"
    fi
}
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
apt_install() {
    missing=""
    for pkg in "$@"; do installed "$pkg" || missing="$missing $pkg"; done
    [ -n "$missing" ] || return 0
    say "installing$missing"
    as_root apt-get update -qq
    # shellcheck disable=SC2086
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
}

# Desktop or Lite: a desktop has session files for the display manager.
has_desktop() {
    for dir in "$DESTDIR/usr/share/wayland-sessions" "$DESTDIR/usr/share/xsessions"; do
        [ -n "$(ls -A "$dir" 2>/dev/null)" ] && return 0
    done
    return 1
}
if [ "$KIOSK" = "auto" ]; then
    if has_desktop; then KIOSK=desktop; else KIOSK=lite; fi
elif [ "$KIOSK" = "desktop" ] && ! has_desktop; then
    die "KIOSK=desktop but this is Raspberry Pi OS Lite (no desktop session): use KIOSK=cage for a kiosk on tty1, or KIOSK=none"
fi

# 1. System packages.
apt_install python3-picamera2 python3-lgpio python3-venv curl
case "$KIOSK" in
desktop|cage)
    if ! installed chromium && ! installed chromium-browser; then
        apt_install chromium || apt_install chromium-browser   # older images call it chromium-browser
    fi
    ;;
esac
[ "$KIOSK" = "cage" ] && apt_install cage
for group in gpio video; do
    if getent group "$group" >/dev/null; then as_root usermod -aG "$group" "$RIG_USER"; fi
done

# 2. The venv, with the system's picamera2, lgpio and NumPy visible; NumPy kept below 2.
if [ -f "$VENV/pyvenv.cfg" ] && ! grep -q '^include-system-site-packages = true' "$VENV/pyvenv.cfg"; then
    say "re-creating $VENV with --system-site-packages (picamera2 and lgpio come from apt)"
    as_user "$PYTHON" -m venv --clear --system-site-packages "$VENV"
elif [ ! -x "$VENV/bin/python" ]; then
    as_user "$PYTHON" -m venv --system-site-packages "$VENV"
fi
as_user "$VENV/bin/python" -m pip install --quiet --upgrade pip
# ONNX Runtime runs the dice nets about 1.5x quicker than OpenCV; PyPI has its wheels for 64-bit ARM only.
case "$ARCH" in
    arm64|aarch64) EXTRAS="pi,fast" ;;
    *) EXTRAS="pi"; say "$ARCH: no ONNX Runtime wheel, the dice nets run on OpenCV (a 64-bit Raspberry Pi OS reads pip dice quicker)" ;;
esac
as_user "$VENV/bin/python" -m pip install --quiet -c "$ROOT/constraints-pi.txt" -e "$ROOT[$EXTRAS]"

# 3. The config file.
CONFIG_DEST="$DESTDIR$CONFIG"
if [ ! -f "$CONFIG_DEST" ]; then
    say "writing $CONFIG from examples/rig.toml (edit the players' pins and the camera, then: sudo systemctl restart rig)"
    mkdir -p "$(dirname "$CONFIG_DEST")"
    install -m 644 "$ROOT/examples/rig.toml" "$CONFIG_DEST"
fi
# The URL the rig really listens on ([server] listen and port), for the kiosk.
PY="$VENV/bin/python"
[ -x "$PY" ] || PY="$PYTHON"
FACTS=$(cd "$ROOT" && "$PY" -c 'import sys
from rig.config import RigConfig
from rig.app.serve import page_urls
config = RigConfig.load(sys.argv[1])
print(page_urls(config.server.listen, config.server.port)[0])
print(config.data_dir or "")' "$CONFIG_DEST") \
    || die "cannot read [server] and data_dir from $CONFIG (see above); fix it and run this again"
URL=$(printf '%s\n' "$FACTS" | sed -n 1p)
DATA_DIR=$(printf '%s\n' "$FACTS" | sed -n 2p)
if [ -x "$VENV/bin/rig" ]; then
    as_user "$VENV/bin/rig" config check "$CONFIG_DEST"
fi

# 4. The units and the kiosk wrapper, with the paths filled in.
render() {
    sed -e "s|@ROOT@|$ROOT|g" -e "s|@VENV@|$VENV|g" -e "s|@USER@|$RIG_USER|g" \
        -e "s|@CONFIG@|$CONFIG|g" -e "s|@URL@|$URL|g" -e "s|@BIN@|$BIN|g" "$1"
}
mkdir -p "$DESTDIR/etc/systemd/system" "$DESTDIR$BIN"
render "$ROOT/systemd/rig.service" > "$DESTDIR/etc/systemd/system/rig.service"
render "$ROOT/systemd/rig-kiosk" > "$DESTDIR$BIN/rig-kiosk"
# The unit is ProtectSystem=strict: a data_dir of the config's own (not /var/lib/rig) must be opened up.
DROPIN="$DESTDIR/etc/systemd/system/rig.service.d/data-dir.conf"
case "$DATA_DIR" in
""|/var/lib/rig|/var/lib/rig/*) rm -f "$DROPIN" ;;
*)
    mkdir -p "$(dirname "$DROPIN")" "$DESTDIR$DATA_DIR"
    printf '# written by install-pi.sh: the config names its own data_dir\n[Service]\nReadWritePaths=%s\n' \
        "$DATA_DIR" > "$DROPIN"
    uid_gid=$(getent passwd "$RIG_USER" | cut -d: -f3,4)
    [ "$(id -u)" != "0" ] || chown "$uid_gid" "$DESTDIR$DATA_DIR" 2>/dev/null || true
    say "data_dir $DATA_DIR: rig.service may write there (rig.service.d/data-dir.conf)"
    ;;
esac
chmod 755 "$DESTDIR$BIN/rig-kiosk"

# 5. The kiosk.
case "$KIOSK" in
desktop)
    USER_UNIT_DIR="$USER_HOME/.config/systemd/user"
    AUTOSTART_DIR="$USER_HOME/.config/autostart"
    mkdir -p "$USER_UNIT_DIR" "$AUTOSTART_DIR"
    render "$ROOT/systemd/rig-kiosk.service" > "$USER_UNIT_DIR/rig-kiosk.service"
    render "$ROOT/systemd/rig-kiosk.desktop" > "$AUTOSTART_DIR/rig-kiosk.desktop"
    uid_gid=$(getent passwd "$RIG_USER" | cut -d: -f3,4)
    [ "$(id -u)" != "0" ] || chown -R "$uid_gid" "$USER_HOME/.config/systemd" "$AUTOSTART_DIR" 2>/dev/null || true
    if command -v raspi-config >/dev/null 2>&1; then
        # 1: blanking off (raspi-config: 0 enables, 1 disables), for the desktop user's session
        as_root env SUDO_USER="$RIG_USER" raspi-config nonint do_blanking 1
    else
        say "raspi-config not found: turn screen blanking off in the desktop's Screen Configuration / Display settings"
    fi
    KIOSK_SAYS="the kiosk opens $URL at the next desktop login"
    ;;
cage)
    render "$ROOT/systemd/rig-kiosk-cage.service" > "$DESTDIR/etc/systemd/system/rig-kiosk-cage.service"
    KIOSK_SAYS="the kiosk shows $URL on tty1 (rig-kiosk-cage.service)"
    ;;
lite)
    KIOSK_SAYS="Raspberry Pi OS Lite has no desktop, so no kiosk was set up: open $URL in a browser, or for the scoreboard on this Pi's screen run: KIOSK=cage sudo make install"
    ;;
none)
    KIOSK_SAYS="no kiosk (KIOSK=none): the scoreboard is at $URL"
    ;;
esac

as_root systemctl daemon-reload
as_root systemctl enable rig.service
as_root systemctl restart rig.service
if [ "$KIOSK" = "cage" ]; then
    as_root systemctl set-default graphical.target
    as_root systemctl enable --now rig-kiosk-cage.service
fi
if [ -z "$DESTDIR" ]; then
    say "rig.service is $(systemctl is-active rig.service || true)"
else
    say "installed under $DESTDIR"
fi
say "$KIOSK_SAYS"
say "check the set-up with: $VENV/bin/rig doctor --config $CONFIG"
