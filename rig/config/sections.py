"""The config file's sections as frozen dataclasses (players and their inputs, camera, server, game,
tosses, evidence, league, build) and the constants they are checked against: pins, limits, kinds
(issue 29: split from :mod:`rig.config`, which re-exports every name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rig import registry
from rig.errors import ConfigError
from rig.i18n import N_

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
    0: N_("the HAT ID EEPROM (ID_SD)"),
    1: N_("the HAT ID EEPROM (ID_SC)"),
    2: N_("I2C (SDA), used by touch screens and sensors"),
    3: N_("I2C (SCL), used by touch screens and sensors"),
    4: N_("the 1-Wire default and the Pi 4 case fan on some cases"),
    7: N_("SPI0 (CE1), used by SPI touch displays"),
    8: N_("SPI0 (CE0), used by SPI touch displays"),
    9: N_("SPI0 (MISO), used by SPI touch displays"),
    10: N_("SPI0 (MOSI), used by SPI touch displays"),
    11: N_("SPI0 (SCLK), used by SPI touch displays"),
    14: N_("the serial console (UART TX)"),
    15: N_("the serial console (UART RX)"),
    18: N_("PCM/I2S audio (and PWM)"),
    19: N_("PCM/I2S audio (and PWM)"),
    20: N_("PCM/I2S audio"),
    21: N_("PCM/I2S audio"),
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
