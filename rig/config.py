"""The rig's one configuration file (TOML): players and their inputs, camera, profile, ...

Every key is documented in ``examples/rig.toml`` and ``docs/config.md``. Standard library
only, so every layer may import it. A mistake in the file is refused with the key's name
and its line, never ignored::

    >>> RigConfig.parse('[camera]\\nsource = "usb:0"\\nwidht = 640\\n', source="rig.toml")
    Traceback (most recent call last):
    ...
    rig.errors.ConfigError: rig.toml:3: camera.widht: unknown key (known: source, width, height, fps, loop, camera_num, rotation, hflip, vflip, crop, focus, flicker_hz); did you mean width?

A file without ``[[players]]`` gets the five simulated players of :meth:`RigConfig.default`::

    >>> config = RigConfig.parse('[server]\\nport = 9000\\n')
    >>> config.server.port, [p.name for p in config.players][:3]
    (9000, ['Ada', 'Ben', 'Cleo'])
"""

from __future__ import annotations

import difflib
import ipaddress
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rig import registry
from rig.errors import ConfigError
from rig.i18n import LANGUAGES

__all__ = [
    "BCM_PINS",
    "CAMERA_KINDS",
    "BuildConfig",
    "CameraConfig",
    "ConfigError",
    "DEFAULT_PINS",
    "GameConfig",
    "INPUT_KINDS",
    "LeagueConfig",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PlayerInput",
    "RESERVED_PINS",
    "RigConfig",
    "ServerConfig",
    "TossConfig",
    "SYSTEM_CONFIG",
    "default_config_path",
    "normalize_pin",
]

MIN_PLAYERS = 3
MAX_PLAYERS = 8
#: a config file is a page of text: anything far bigger is a mistake (or an attack)
MAX_CONFIG_CHARS = 1_000_000
INPUT_KINDS = ("button", "beam")
CAMERA_KINDS = ("picamera2", "usb:N", "replay:PATH", "virtual")

#: BCM GPIO number -> physical pin on the 40-pin header (J8) of every Pi since the B+.
BCM_PINS: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}

#: GPIOs with another job on a typical rig, and that job. A player input there is allowed
#: but warned about (see :meth:`RigConfig.warnings`); GPIO0/1 are refused outright.
RESERVED_PINS: dict[int, str] = {
    0: "the HAT ID EEPROM (ID_SD)",
    1: "the HAT ID EEPROM (ID_SC)",
    2: "I2C (SDA), used by touch screens and sensors",
    3: "I2C (SCL), used by touch screens and sensors",
    4: "the 1-Wire default and the Pi 4 case fan on some cases",
    7: "SPI0 (CE1), used by SPI touch displays",
    8: "SPI0 (CE0), used by SPI touch displays",
    9: "SPI0 (MISO), used by SPI touch displays",
    10: "SPI0 (MOSI), used by SPI touch displays",
    11: "SPI0 (SCLK), used by SPI touch displays",
    14: "the serial console (UART TX)",
    15: "the serial console (UART RX)",
    18: "PCM/I2S audio (and PWM)",
    19: "PCM/I2S audio (and PWM)",
    20: "PCM/I2S audio",
    21: "PCM/I2S audio",
}
_REFUSED_PINS = (0, 1)

#: The recommended pin map, player 1 first: none of them has another job, each sits
#: next to a ground pin (see docs/building.md).
DEFAULT_PINS = ("GPIO17", "GPIO27", "GPIO22", "GPIO5", "GPIO6", "GPIO26", "GPIO23", "GPIO24")
DEFAULT_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli")

_PHYSICAL_TO_BCM = {phys: bcm for bcm, phys in BCM_PINS.items()}


def normalize_pin(value: str) -> str:
    """The canonical gpiozero name (``"GPIO17"``) of a pin given as gpiozero accepts it.

    >>> normalize_pin("BCM17"), normalize_pin("BOARD11"), normalize_pin("J8:11"), normalize_pin("gpio17")
    ('GPIO17', 'GPIO17', 'GPIO17', 'GPIO17')
    >>> normalize_pin("GPIO40")
    Traceback (most recent call last):
    ...
    ValueError: GPIO40 is not a GPIO on the 40-pin header (GPIO0 to GPIO27)
    """
    text = value.strip().upper()
    match = re.fullmatch(r"(?:GPIO|BCM)?(\d{1,2})", text)
    if match:
        number = int(match.group(1))
        if number not in BCM_PINS:
            raise ValueError(f"{value} is not a GPIO on the 40-pin header (GPIO0 to GPIO27)")
        return f"GPIO{number}"
    match = re.fullmatch(r"(?:BOARD|J8:)(\d{1,2})", text)
    if match:
        physical = int(match.group(1))
        if physical not in _PHYSICAL_TO_BCM:
            raise ValueError(
                f"{value}: header pin {physical} is not a GPIO (it is power, ground, or does not exist)"
            )
        return f"GPIO{_PHYSICAL_TO_BCM[physical]}"
    raise ValueError(f"{value!r} is not a pin name (write it like \"GPIO17\")")


@dataclass(frozen=True)
class PlayerInput:
    """One player and the input they toss with: a button or an IR break-beam on a GPIO."""

    name: str
    pin: str
    kind: str = "button"

    @property
    def bcm(self) -> int:
        """The BCM GPIO number: ``PlayerInput("Ada", "GPIO17").bcm == 17``."""
        return int(self.pin[4:])

    @property
    def physical_pin(self) -> int:
        """The pin number on the 40-pin header."""
        return BCM_PINS[self.bcm]


@dataclass(frozen=True)
class CameraConfig:
    """Which camera and at what resolution. ``source`` as :func:`rig.hardware.camera.open_source` takes it."""

    source: str = "virtual"
    width: int = 1280
    height: int = 960
    fps: int = 30
    loop: bool = False  # a replay:PATH recording starts over at its end
    camera_num: int = 0  # picamera2: which camera (a Pi 5 has two connectors)
    hflip: bool = False  # mirror left-right
    vflip: bool = False  # mirror top-bottom (both flips: the camera is mounted turned by 180°)
    crop: tuple[float, float, float, float] | None = None  # (x, y, w, h) fractions: the part showing the box
    focus: float | str | None = None  # picamera2 with a focus lens: cm to the box bottom, "auto", or the profile's
    flicker_hz: int = 50  # mains frequency the room lights flicker at (0: no flicker avoidance)

    def options(self) -> dict:
        """The camera adapters' options (``open_source(source, **options)``) from this table."""
        return {"width": self.width, "height": self.height, "fps": self.fps, "loop": self.loop,
                "camera_num": self.camera_num, "hflip": self.hflip, "vflip": self.vflip, "crop": self.crop,
                "focus": self.focus, "flicker_hz": self.flicker_hz}


@dataclass(frozen=True)
class ServerConfig:
    """Where the scoreboard web app listens (``0.0.0.0`` lets phones on the network see it)."""

    listen: str = "127.0.0.1"
    port: int = 8080


@dataclass(frozen=True)
class DisplayConfig:
    """The scoreboard's language (the kiosk shows it; another viewer may pick another on the page)."""

    language: str = "en"


@dataclass(frozen=True)
class GameConfig:
    """Game options. ``turns_each=None``: 3 players 3, 4-5 players 2, 6-8 players 1."""

    name: str = registry.DEFAULT
    turns_each: int | None = None
    penalty_per_violation: int = 0


@dataclass(frozen=True)
class TossConfig:
    """Toss input timing: debounce lockout, when an input counts as stuck, the confirm hold,
    and how long an event waits for an earlier edge of another input (the ordering window)."""

    lockout_ms: float = 30.0
    stuck_after_s: float = 10.0
    hold_confirm_s: float = 1.0
    order_window_ms: float = 5.0
    tie_window_us: int = 0  # tosses this close are a dead heat (rig tosses --calibrate-jitter measures it)
    min_press_ms: float | None = None  # the glitch filter; None: 3 ms, or 60% of the order window if shorter

    @property
    def min_press(self) -> float:
        """The glitch filter's minimum press time in ms, as the toss inputs use it."""
        return default_min_press_ms(self.order_window_ms) if self.min_press_ms is None else self.min_press_ms


@dataclass(frozen=True)
class EvidenceConfig:
    """The evidence kept per turn: the settled frame of each roll as a small JPEG in ``data_dir/evidence``,
    pruned to the newest ``max_age_days`` and ``max_mb``."""

    keep: bool = True
    max_age_days: float = 30.0
    max_mb: float = 200.0
    width: int = 640  # frames wider than this are scaled down
    quality: int = 75  # JPEG quality


def check_crop(crop) -> tuple[float, float, float, float] | None:
    """A crop ``(x, y, w, h)`` in fractions of the frame, checked; :class:`ConfigError` if it leaves the frame.

    >>> check_crop([0.1, 0, 0.8, 1])
    (0.1, 0.0, 0.8, 1.0)
    >>> check_crop((0.5, 0, 0.6, 1))
    Traceback (most recent call last):
    ...
    rig.errors.ConfigError: camera.crop [0.5, 0.0, 0.6, 1.0]: x + w and y + h must stay within 0..1 (fractions of the frame)
    """
    if crop is None:
        return None
    try:
        x, y, w, h = (float(v) for v in crop)
    except (TypeError, ValueError):
        raise ConfigError(f"camera.crop {crop!r}: write [x, y, width, height] as fractions of the frame") from None
    if not (0 <= x < 1 and 0 <= y < 1 and 0 < w <= 1 and 0 < h <= 1) or x + w > 1.0001 or y + h > 1.0001:
        raise ConfigError(f"camera.crop {[x, y, w, h]}: x + w and y + h must stay within 0..1 (fractions of the frame)")
    return (x, y, w, h)


#: The glitch filter's minimum press time when none is configured (ms); never more than 60% of the order window.
MIN_PRESS_MS = 3.0


def default_min_press_ms(order_window_ms: float) -> float:
    """3 ms, or 60% of the order window if that is shorter (so 0 with the window off).

    >>> default_min_press_ms(5), default_min_press_ms(2), default_min_press_ms(0)
    (3.0, 1.2, 0.0)
    """
    return round(min(MIN_PRESS_MS, 0.6 * order_window_ms), 3)


#: a table's name as it appears in MQTT topics (``rig/<table>/events``) and as its broker account
TABLE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")


@dataclass(frozen=True)
class LeagueConfig:
    """Where the rig publishes its events for a league (``[league]``; absent: nothing is published).

    ``table`` names the table in the topics (``rig/<table>/events``) and is its broker account
    name unless ``username`` says otherwise; ``ca_file`` (with ``tls = true``) is the CA that
    signed the broker's certificate (none: the system's CAs).
    """

    table: str
    host: str = "127.0.0.1"
    port: int = 1883
    tls: bool = False
    ca_file: Path | None = None
    username: str | None = None
    password: str | None = None
    #: the table's signing secret: its events carry an HMAC the league checks (None: unsigned)
    secret: str | None = None

    @property
    def account(self) -> str:
        return self.username if self.username is not None else self.table

    def __repr__(self) -> str:  # never the password
        return (f"LeagueConfig(table={self.table!r}, host={self.host!r}, port={self.port}, tls={self.tls}, "
                f"account={self.account!r})")


#: the camera models ``rig plan`` knows (rig.plan.CAMERAS names them; kept here so the config stays light)
BUILD_CAMERAS = ("cm3", "cm3-wide", "c920", "c270", "webcam-60")
BUILD_MOUNTS = ("clamp", "frame")
BUTTON_SIZES = (24, 30)


@dataclass(frozen=True)
class BuildConfig:
    """The physical rig (``[build]``): the box, the camera model and its height, the seats and buttons.

    ``rig plan`` and ``rig build-parts`` read it; ``seats=None`` means one per configured player.
    """

    box: tuple[float, float, float] = (280.0, 200.0, 45.0)  # inner width, depth, wall height of the box (mm)
    camera: str = "cm3"
    height_cm: float = 40.0  # from the lens to the box bottom
    mount: str = "clamp"  # "clamp": an arm clamped to the table edge; "frame": a frame standing over the box
    table_edge_mm: float = 40.0  # the thickest table edge the clamp must open to
    seats: int | None = None
    button_mm: int = 30  # arcade button size: 30 or 24 mm
    wall_mm: float = 2.4  # printed wall thickness


def _default_players() -> tuple[PlayerInput, ...]:
    return tuple(PlayerInput(name, pin, "button") for name, pin in zip(DEFAULT_NAMES, DEFAULT_PINS))


@dataclass(frozen=True)
class RigConfig:
    """The whole configuration. Build it with :meth:`load`, :meth:`parse` or :meth:`default`."""

    players: tuple[PlayerInput, ...] = field(default_factory=_default_players)
    camera: CameraConfig = CameraConfig()
    profile: Path | None = None
    data_dir: Path | None = None
    server: ServerConfig = ServerConfig()
    display: DisplayConfig = DisplayConfig()
    game: GameConfig = GameConfig()
    tosses: TossConfig = TossConfig()
    evidence: EvidenceConfig = EvidenceConfig()
    league: LeagueConfig | None = None
    build: BuildConfig = BuildConfig()
    path: Path | None = None

    @classmethod
    def default(cls) -> RigConfig:
        """Five simulated players (Ada, Ben, Cleo, Dev, Eli) on the recommended pins, the virtual camera."""
        return cls()

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> RigConfig:
        """Read and check a config file; relative paths in it resolve against its folder."""
        from rig.textfile import read_text_limited

        path = Path(path)
        if not os.path.lexists(path):
            raise ConfigError(f"{path}: no such config file (`rig config example > {path}` writes one)")
        # bounded: /dev/zero, a FIFO or a huge file is refused in one line, never read into memory
        text = read_text_limited(path, what="config file", error=ConfigError)
        return cls.parse(text, source=str(path), base=path.resolve().parent, path=path)

    @classmethod
    def parse(
        cls,
        text: str,
        *,
        source: str = "<config>",
        base: Path | None = None,
        path: Path | None = None,
    ) -> RigConfig:
        """Check config text; ``source`` names it in errors, ``base`` anchors relative paths (default: cwd)."""
        if len(text) > MAX_CONFIG_CHARS:
            raise ConfigError(f"{source}: {len(text)} characters is far too long for a config file "
                              f"(at most {MAX_CONFIG_CHARS})")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{source}: not valid TOML: {exc}") from None
        except RecursionError:
            raise ConfigError(f"{source}: arrays or tables nested too deeply to be a rig config") from None
        return _Parser(text, source, base or Path.cwd()).build(data, path)

    def warnings(self) -> tuple[str, ...]:
        """Things that work but may bite: a player on a pin with another job (I2C, SPI, UART, audio)."""
        notes = []
        for index, player in enumerate(self.players):
            job = RESERVED_PINS.get(player.bcm)
            if job:
                notes.append(f"players[{index}].pin: {player.pin} ({player.name}) is also {job}; "
                             f"free pins: {', '.join(self.free_pins()[:4])}")
        return tuple(notes)

    @property
    def seats(self) -> int:
        """Seats to print button boxes and labels for: ``[build] seats``, else one per player."""
        return self.build.seats if self.build.seats is not None else len(self.players)

    def free_pins(self) -> list[str]:
        """Recommended pins no player uses yet, best first."""
        used = {p.pin for p in self.players}
        return [pin for pin in DEFAULT_PINS if pin not in used]

    @property
    def turns_each(self) -> int:
        """Turns per player: the configured number, else 3 for 3 players, 2 for 4-5, 1 for 6-8."""
        if self.game.turns_each is not None:
            return self.game.turns_each
        count = len(self.players)
        return 3 if count == 3 else 2 if count <= 5 else 1

    def describe(self) -> list[str]:
        """Human-readable summary lines (what ``rig config check`` prints)."""
        lines = [f"{len(self.players)} players:"]
        for player in self.players:
            lines.append(f"  {player.name:<12} {player.kind:<6} {player.pin:<6} (header pin {player.physical_pin})")
        cam = self.camera
        lines.append(f"camera: {cam.source} {cam.width}x{cam.height} @ {cam.fps} fps{', looped' if cam.loop else ''}")
        lines.append(f"profile: {self.profile if self.profile else '(none: built-in colours)'}")
        lines.append(f"data_dir: {self.data_dir if self.data_dir else '(default)'}")
        lines.append(f"server: http://{self.server.listen}:{self.server.port}/")
        turns = self.game.turns_each if self.game.turns_each is not None else f"auto ({self.turns_each})"
        lines.append(f"game: {self.game.name}, turns each: {turns}, "
                     f"penalty per violation: {self.game.penalty_per_violation}")
        t = self.tosses
        lines.append(f"tosses: lockout {t.lockout_ms:g} ms, stuck after {t.stuck_after_s:g} s, "
                     f"hold to confirm {t.hold_confirm_s:g} s, order window {t.order_window_ms:g} ms, "
                     f"min press {t.min_press:g} ms, tie window {t.tie_window_us} µs")
        e = self.evidence
        lines.append(f"evidence: {'kept' if e.keep else 'off'}, {e.max_age_days:g} days, {e.max_mb:g} MB, "
                     f"{e.width} px wide, JPEG quality {e.quality}")
        b = self.build
        lines.append(f"build: box {b.box[0]:g} x {b.box[1]:g} x {b.box[2]:g} mm, camera {b.camera} {b.height_cm:g} cm "
                     f"above it, {b.mount} mount" + (f" ({b.table_edge_mm:g} mm edges)" if b.mount == "clamp" else "")
                     + f", {self.seats} seats, {b.button_mm} mm buttons")
        if self.league is not None:
            lg = self.league
            lines.append(f"league: table {lg.table} publishes to {'mqtts' if lg.tls else 'mqtt'}://{lg.host}:{lg.port} "
                         f"as {lg.account}")
        return lines


#: where scripts/install-pi.sh puts the config the service runs with
SYSTEM_CONFIG = Path("/etc/rig/rig.toml")
#: how every command's ``--config`` help says which file is used without it
CONFIG_DEFAULT_HELP = "default: $RIG_CONFIG, else /etc/rig/rig.toml if installed, else the built-in five simulated players"


def default_config_path(system: Path = SYSTEM_CONFIG) -> Path | None:
    """The config file to use when no ``--config`` is given: ``$RIG_CONFIG`` if set, else the
    installed ``/etc/rig/rig.toml`` if there is one, else None (the built-in default)."""
    value = os.environ.get("RIG_CONFIG", "").strip()
    if value:
        return Path(value)
    return system if system.is_file() else None


# --------------------------------------------------------------------------- checking


_SECTIONS = {
    "camera": ("source", "width", "height", "fps", "loop", "camera_num", "rotation", "hflip", "vflip", "crop",
               "focus", "flicker_hz"),
    "server": ("listen", "port"),
    "display": ("language",),
    "game": ("name", "turns_each", "penalty_per_violation"),
    "tosses": ("lockout_ms", "stuck_after_s", "hold_confirm_s", "order_window_ms", "min_press_ms", "tie_window_us"),
    "evidence": ("keep", "max_age_days", "max_mb", "width", "quality"),
    "league": ("table", "host", "port", "tls", "ca_file", "username", "password", "secret"),
    "build": ("box", "camera", "height_cm", "mount", "table_edge_mm", "seats", "button_mm", "wall_mm"),
}
_PLAYER_KEYS = ("name", "pin", "kind")
_TOP_KEYS = ("players", "camera", "profile", "data_dir", "server", "display", "game", "tosses", "evidence", "league",
             "build")


def _did_you_mean(key: str, known: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


class _Parser:
    def __init__(self, text: str, source: str, base: Path) -> None:
        self.source = source
        self.base = base
        self.lines = _KeyLines.scan(text)

    def fail(self, key: str, message: str) -> ConfigError:
        line = self.lines.find(key)
        where = f"{self.source}:{line}" if line else self.source
        return ConfigError(f"{where}: {key}: {message}")

    # typed getters ---------------------------------------------------------------
    def _type_name(self, value: Any) -> str:
        return {bool: "true/false", int: "a whole number", float: "a number", str: "a string",
                list: "a list", dict: "a table"}.get(type(value), type(value).__name__)

    def string(self, table: dict, key: str, dotted: str, default: str | None) -> str | None:
        value = table.get(key, default)
        if value is not None and not isinstance(value, str):
            raise self.fail(dotted, f"must be a string in quotes, not {self._type_name(value)} ({value!r})")
        return value

    def integer(self, table: dict, key: str, dotted: str, default: int | None, lo: int, hi: int) -> int | None:
        value = table.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(dotted, f"must be a whole number, not {self._type_name(value)} ({value!r})")
        if not lo <= value <= hi:
            raise self.fail(dotted, f"{value} is out of range ({lo} to {hi})")
        return value

    def boolean(self, table: dict, key: str, dotted: str, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(dotted, f"must be true or false, not {self._type_name(value)} ({value!r})")
        return value

    def number(self, table: dict, key: str, dotted: str, default: float, lo: float, hi: float) -> float:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(dotted, f"must be a number, not {self._type_name(value)} ({value!r})")
        if not lo <= value <= hi or value != value:
            raise self.fail(dotted, f"{value:g} is out of range ({lo:g} to {hi:g})")
        return float(value)

    def table(self, data: dict, key: str) -> dict:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(key, f"must be a table ([{key}]), not {self._type_name(value)}")
        self._refuse_unknown(value, _SECTIONS[key], key, "[table]")
        return value

    def _refuse_unknown(self, entry: dict, known, prefix: str, table_line: str) -> None:
        for name in entry:
            if name not in known:
                hint = ""
                if name in _TOP_KEYS:
                    hint = f"; {name} is a top-level key: move it above the first {table_line} line"
                raise self.fail(f"{prefix}.{name}", f"unknown key (known: {', '.join(known)})"
                                                    f"{hint or _did_you_mean(name, known)}")

    def path_value(self, data: dict, key: str, dotted: str | None = None) -> Path | None:
        dotted = dotted or key
        value = self.string(data, key, dotted, None)
        if value is None:
            return None
        if not value.strip():
            raise self.fail(dotted, "is empty (leave the key out for the default)")
        return (self.base / Path(value).expanduser()).resolve()

    # sections ----------------------------------------------------------------------
    def build(self, data: dict, path: Path | None) -> RigConfig:
        for key in data:
            if key not in _TOP_KEYS:
                raise self.fail(key, f"unknown key (known: {', '.join(_TOP_KEYS)}){_did_you_mean(key, _TOP_KEYS)}")
        return RigConfig(
            players=self.players(data),
            camera=self.camera(self.table(data, "camera")),
            profile=self.path_value(data, "profile"),
            data_dir=self.path_value(data, "data_dir"),
            server=self.server(self.table(data, "server")),
            display=self.display(self.table(data, "display")),
            game=self.game(self.table(data, "game")),
            tosses=self.tosses(self.table(data, "tosses")),
            evidence=self.evidence(self.table(data, "evidence")),
            league=self.league(self.table(data, "league")) if "league" in data else None,
            build=self.build_section(self.table(data, "build")),
            path=path,
        )

    def players(self, data: dict) -> tuple[PlayerInput, ...]:
        if "players" not in data:
            return _default_players()
        entries = data["players"]
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise self.fail("players", "must be a list of [[players]] tables")
        if not MIN_PLAYERS <= len(entries) <= MAX_PLAYERS:
            count = f"{len(entries)} player{'' if len(entries) == 1 else 's'}"
            raise self.fail("players", f"{count} configured; the rig needs {MIN_PLAYERS} to {MAX_PLAYERS}")
        players: list[PlayerInput] = []
        by_name: dict[str, str] = {}
        by_pin: dict[str, str] = {}
        for index, entry in enumerate(entries):
            prefix = f"players[{index}]"
            self._refuse_unknown(entry, _PLAYER_KEYS, prefix, "[[players]]")
            for required in ("name", "pin"):
                if required not in entry:
                    raise self.fail(prefix, f"has no {required} (every player needs name and pin)")
            name = self.string(entry, "name", f"{prefix}.name", None).strip()
            if not name:
                raise self.fail(f"{prefix}.name", "is empty")
            if len(name) > 24:
                raise self.fail(f"{prefix}.name", f"{name!r} is too long for the scoreboard (24 characters at most)")
            folded = name.casefold()
            if folded in by_name:
                raise self.fail(f"{prefix}.name", f"{name} is already a player (players[{by_name[folded]}])")
            raw_pin = self.string(entry, "pin", f"{prefix}.pin", None)
            try:
                pin = normalize_pin(raw_pin)
            except ValueError as exc:
                raise self.fail(f"{prefix}.pin", str(exc)) from None
            if int(pin[4:]) in _REFUSED_PINS:
                raise self.fail(f"{prefix}.pin", f"{pin} is reserved for {RESERVED_PINS[int(pin[4:])]}; "
                                                 f"use one of {', '.join(DEFAULT_PINS[:4])}")
            if pin in by_pin:
                shown = raw_pin if normalize_pin(raw_pin) == raw_pin else f"{raw_pin} ({pin})"
                raise self.fail(f"{prefix}.pin", f"{shown} is already used by {by_pin[pin]}")
            kind = self.string(entry, "kind", f"{prefix}.kind", "button")
            if kind not in INPUT_KINDS:
                raise self.fail(f"{prefix}.kind", f"{kind!r} is not an input kind (one of: {', '.join(INPUT_KINDS)})")
            by_name[folded] = str(index)
            by_pin[pin] = name
            players.append(PlayerInput(name, pin, kind))
        return tuple(players)

    def camera(self, table: dict) -> CameraConfig:
        source = self.string(table, "source", "camera.source", "virtual").strip()
        if source.startswith("usb:"):
            if not re.fullmatch(r"usb:(\d{1,2}|/dev/\S+)", source):
                raise self.fail("camera.source", f"{source!r}: write the USB camera's number, like \"usb:0\" "
                                                 "(or its device, like \"usb:/dev/video0\")")
        elif source.startswith("replay:"):
            target = source[len("replay:"):].strip()
            if not target:
                raise self.fail("camera.source", "\"replay:\" needs a recording, like \"replay:recordings/game1\"")
            source = f"replay:{(self.base / Path(target).expanduser()).resolve()}"
        elif source not in ("picamera2", "virtual"):
            raise self.fail("camera.source", f"{source!r} is not a camera (one of: {', '.join(CAMERA_KINDS)})")
        loop = self.boolean(table, "loop", "camera.loop", False)
        if loop and not source.startswith("replay:"):
            raise self.fail("camera.loop", f"only a recording (\"replay:PATH\") can loop, not {source!r}")
        rotation = self.integer(table, "rotation", "camera.rotation", 0, 0, 180)
        if rotation not in (0, 180):
            raise self.fail("camera.rotation", f"{rotation}: the camera can be turned by 0 or 180 degrees "
                                               "(use hflip/vflip to mirror)")
        flip = rotation == 180
        crop = table.get("crop")
        if crop is not None:
            if not isinstance(crop, list) or len(crop) != 4:
                raise self.fail("camera.crop", "write [x, y, width, height] as fractions of the frame, "
                                               "like [0.1, 0.0, 0.8, 1.0]")
            try:
                crop = check_crop(crop)
            except ConfigError as exc:
                raise self.fail("camera.crop", str(exc).removeprefix("camera.crop ")) from None
        focus = table.get("focus")
        if focus is not None and focus != "auto":
            if isinstance(focus, bool) or not isinstance(focus, (int, float)):
                raise self.fail("camera.focus", f"cm from the lens to the box bottom (like 40), or \"auto\", "
                                                f"not {focus!r}")
            focus = self.number(table, "focus", "camera.focus", 40.0, 5.0, 1000.0)
        flicker_hz = self.integer(table, "flicker_hz", "camera.flicker_hz", 50, 0, 60)
        if flicker_hz not in (0, 50, 60):
            raise self.fail("camera.flicker_hz", f"{flicker_hz}: the mains frequency, 50 or 60 (0: none)")
        return CameraConfig(
            source=source,
            width=self.integer(table, "width", "camera.width", 1280, 160, 4608),
            height=self.integer(table, "height", "camera.height", 960, 120, 3456),
            fps=self.integer(table, "fps", "camera.fps", 30, 1, 120),
            loop=loop,
            camera_num=self.integer(table, "camera_num", "camera.camera_num", 0, 0, 7),
            hflip=self.boolean(table, "hflip", "camera.hflip", False) != flip,
            vflip=self.boolean(table, "vflip", "camera.vflip", False) != flip,
            crop=crop,
            focus=focus,
            flicker_hz=flicker_hz,
        )

    def server(self, table: dict) -> ServerConfig:
        listen = self.string(table, "listen", "server.listen", "127.0.0.1").strip()
        try:
            ipaddress.ip_address(listen)
        except ValueError:
            if not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?", listen):
                raise self.fail("server.listen", f"{listen!r} is not an address "
                                                 "(\"127.0.0.1\": this machine only, \"0.0.0.0\": the network)") from None
        return ServerConfig(listen=listen, port=self.integer(table, "port", "server.port", 8080, 1, 65535))

    def display(self, table: dict) -> DisplayConfig:
        language = self.string(table, "language", "display.language", "en")
        if language not in LANGUAGES:
            raise self.fail("display.language", f"{language!r} is not a language the rig speaks "
                                                f"(one of: {', '.join(LANGUAGES)}){_did_you_mean(language, LANGUAGES)}")
        return DisplayConfig(language=language)

    def game(self, table: dict) -> GameConfig:
        name = self.string(table, "name", "game.name", registry.DEFAULT)
        if name not in registry.names():
            raise self.fail("game.name",
                            f"{name!r} is not a game the rig scores (one of: {', '.join(registry.names())})")
        return GameConfig(
            name=name,
            turns_each=self.integer(table, "turns_each", "game.turns_each", None, 1, 20),
            penalty_per_violation=self.integer(table, "penalty_per_violation", "game.penalty_per_violation", 0, 0, 100),
        )

    def league(self, table: dict) -> LeagueConfig:
        if "table" not in table:
            raise self.fail("league", "has no table (the name this table publishes under, like \"table-3\")")
        name = self.string(table, "table", "league.table", None)
        if not TABLE_NAME.fullmatch(name):
            raise self.fail("league.table", f"{name!r} is not a table name (1-32 letters, digits, - or _, "
                                            "starting with a letter or digit)")
        host = self.string(table, "host", "league.host", "127.0.0.1").strip()
        if not host or not re.fullmatch(r"[A-Za-z0-9:.\[\]-]+", host):
            raise self.fail("league.host", f"{host!r} is not a broker address (a host name or an IP address)")
        tls = self.boolean(table, "tls", "league.tls", False)
        ca_file = self.path_value(table, "ca_file", "league.ca_file")
        if ca_file is not None and not tls:
            raise self.fail("league.ca_file", "is set but tls = false (set tls = true to use it)")
        username = self.string(table, "username", "league.username", None)
        password = self.string(table, "password", "league.password", None)
        secret = self.string(table, "secret", "league.secret", None)
        if secret is not None and len(secret) < 16:
            raise self.fail("league.secret", "must be at least 16 characters (`python3 -c 'import secrets; "
                            "print(secrets.token_hex(16))'` makes one)")
        return LeagueConfig(table=name, host=host, port=self.integer(table, "port", "league.port", 8883 if tls else 1883,
                                                                     1, 65535),
                            tls=tls, ca_file=ca_file, username=username, password=password, secret=secret)

    def tosses(self, table: dict) -> TossConfig:
        order_window_ms = self.number(table, "order_window_ms", "tosses.order_window_ms", 5.0, 0.0, 100.0)
        min_press_ms = None
        if "min_press_ms" in table:
            min_press_ms = self.number(table, "min_press_ms", "tosses.min_press_ms", 3.0, 0.0, 50.0)
            if min_press_ms and min_press_ms >= order_window_ms:
                raise self.fail("tosses.min_press_ms", f"{min_press_ms:g} ms must be shorter than the order window "
                                f"(tosses.order_window_ms = {order_window_ms:g}): a press is confirmed inside it "
                                "(0 turns the glitch filter off)")
        return TossConfig(
            lockout_ms=self.number(table, "lockout_ms", "tosses.lockout_ms", 30.0, 0.0, 1000.0),
            stuck_after_s=self.number(table, "stuck_after_s", "tosses.stuck_after_s", 10.0, 0.5, 3600.0),
            hold_confirm_s=self.number(table, "hold_confirm_s", "tosses.hold_confirm_s", 1.0, 0.2, 10.0),
            order_window_ms=order_window_ms,
            min_press_ms=min_press_ms,
            tie_window_us=self.integer(table, "tie_window_us", "tosses.tie_window_us", 0, 0, 1_000_000),
        )

    def build_section(self, table: dict) -> BuildConfig:
        box = table.get("box", list(BuildConfig.box))
        if (not isinstance(box, list) or len(box) != 3
                or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in box)):
            raise self.fail("build.box", "write the box's inner [width, depth, wall height] in mm, like [280, 200, 45]")
        width, depth, wall = (float(v) for v in box)
        if not (60 <= width <= 1500 and 60 <= depth <= 1500 and 0 <= wall <= 200):
            raise self.fail("build.box", f"{[width, depth, wall]}: width and depth 60-1500 mm, wall height 0-200 mm")
        camera = self.string(table, "camera", "build.camera", "cm3")
        if camera not in BUILD_CAMERAS:
            raise self.fail("build.camera", f"{camera!r} is not a camera model the planner knows "
                                            f"(one of: {', '.join(BUILD_CAMERAS)}){_did_you_mean(camera, BUILD_CAMERAS)}")
        height_cm = self.number(table, "height_cm", "build.height_cm", 40.0, 15.0, 150.0)
        if height_cm * 10 <= wall + 40:
            raise self.fail("build.height_cm", f"{height_cm:g} cm: the lens must be well above the box's "
                                               f"{wall:g} mm walls")
        mount = self.string(table, "mount", "build.mount", "clamp")
        if mount not in BUILD_MOUNTS:
            raise self.fail("build.mount", f"{mount!r} is not a mount (one of: {', '.join(BUILD_MOUNTS)})")
        button = self.integer(table, "button_mm", "build.button_mm", 30, 0, 100)
        if button not in BUTTON_SIZES:
            raise self.fail("build.button_mm", f"{button}: arcade buttons come in 24 or 30 mm")
        return BuildConfig(
            box=(width, depth, wall), camera=camera, height_cm=height_cm, mount=mount,
            table_edge_mm=self.number(table, "table_edge_mm", "build.table_edge_mm", 40.0, 10.0, 60.0),
            seats=self.integer(table, "seats", "build.seats", None, MIN_PLAYERS, MAX_PLAYERS),
            button_mm=button,
            wall_mm=self.number(table, "wall_mm", "build.wall_mm", 2.4, 1.2, 6.0),
        )

    def evidence(self, table: dict) -> EvidenceConfig:
        return EvidenceConfig(
            keep=self.boolean(table, "keep", "evidence.keep", True),
            max_age_days=self.number(table, "max_age_days", "evidence.max_age_days", 30.0, 0.01, 3650.0),
            max_mb=self.number(table, "max_mb", "evidence.max_mb", 200.0, 1.0, 100_000.0),
            width=self.integer(table, "width", "evidence.width", 640, 160, 4608),
            quality=self.integer(table, "quality", "evidence.quality", 75, 20, 95),
        )


# --------------------------------------------------------------------------- line numbers

_BARE_KEY = r"[A-Za-z0-9_-]+"
_QUOTED_KEY = r'"(?:[^"\\]|\\.)*"|\'[^\']*\''
_KEY_PART = rf"(?:{_BARE_KEY}|{_QUOTED_KEY})"
_DOTTED = rf"{_KEY_PART}(?:\s*\.\s*{_KEY_PART})*"
_ARRAY_HEADER = re.compile(rf"\s*\[\[\s*({_DOTTED})\s*\]\]")
_TABLE_HEADER = re.compile(rf"\s*\[\s*({_DOTTED})\s*\]")
_KEY_LINE = re.compile(rf"\s*({_DOTTED})\s*=")


def _split_dotted(text: str) -> list[str]:
    parts = re.findall(_KEY_PART, text)
    return [p[1:-1] if p[:1] in "\"'" else p for p in parts]


@dataclass
class _KeyLines:
    """Where each key path (``players[2].pin``, ``camera.source``) is written; tomllib gives no positions."""

    lines: dict[str, int]

    @classmethod
    def scan(cls, text: str) -> _KeyLines:
        found: dict[str, int] = {}
        counts: dict[str, int] = {}
        table = ""
        in_multiline: str | None = None
        for number, line in enumerate(text.splitlines(), start=1):
            if in_multiline:
                if line.count(in_multiline) % 2 == 1:
                    in_multiline = None
                continue
            if match := _ARRAY_HEADER.match(line):
                name = ".".join(_split_dotted(match.group(1)))
                index = counts.get(name, 0)
                counts[name] = index + 1
                table = f"{name}[{index}]"
                found.setdefault(name, number)
                found.setdefault(table, number)
            elif match := _TABLE_HEADER.match(line):
                table = ".".join(_split_dotted(match.group(1)))
                found.setdefault(table, number)
            elif match := _KEY_LINE.match(line):
                key = ".".join(_split_dotted(match.group(1)))
                full = f"{table}.{key}" if table else key
                found.setdefault(full, number)
                rest = line[match.end():]
                for quote in ('"""', "'''"):
                    if rest.count(quote) % 2 == 1:
                        in_multiline = quote
        return cls(found)

    def find(self, key: str) -> int | None:
        """The line of ``key``, else of the nearest enclosing table or key that is written down."""
        while key:
            if key in self.lines:
                return self.lines[key]
            if key.endswith("]"):
                key = key[: key.rindex("[")]
            elif "." in key:
                key = key[: key.rindex(".")]
            else:
                return None
        return None
