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

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from rig.errors import ConfigError
from rig.i18n import N_
from rig.config.sections import (  # noqa: F401 - moved (issue 29); the old import path works
    MIN_PLAYERS, MAX_PLAYERS, MAX_CONFIG_CHARS, INPUT_KINDS, CAMERA_KINDS, BCM_PINS, RESERVED_PINS,
    _REFUSED_PINS, DEFAULT_PINS, DEFAULT_NAMES, _PHYSICAL_TO_BCM, normalize_pin, PlayerInput, CameraConfig,
    ServerConfig, DisplayConfig, GameConfig, TossConfig, EvidenceConfig, check_crop, MIN_PRESS_MS, default_min_press_ms,
    TABLE_NAME, LeagueConfig, BUILD_CAMERAS, BUILD_MOUNTS, BUTTON_SIZES, BuildConfig, _default_players,
)
from rig.config.parser import (  # noqa: F401 - moved (issue 29); the old import path works
    _SECTIONS, _PLAYER_KEYS, _TOP_KEYS, _did_you_mean, _Parser,
)
from rig.config.lines import (  # noqa: F401 - moved (issue 29); the old import path works
    _BARE_KEY, _QUOTED_KEY, _KEY_PART, _DOTTED, _ARRAY_HEADER, _TABLE_HEADER, _KEY_LINE, _split_dotted,
    _KeyLines,
)

__all__ = [
    "BCM_PINS",
    "CAMERA_KINDS",
    "BuildConfig",
    "CameraConfig",
    "ConfigError",
    "DisplayConfig",
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
        return _Parser(text, source, base or Path.cwd()).build(data, path, cls)

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
CONFIG_DEFAULT_HELP = N_("default: $RIG_CONFIG, else /etc/rig/rig.toml if installed, else the built-in five simulated players")


def default_config_path(system: Path = SYSTEM_CONFIG) -> Path | None:
    """The config file to use when no ``--config`` is given: ``$RIG_CONFIG`` if set, else the
    installed ``/etc/rig/rig.toml`` if there is one, else None (the built-in default)."""
    value = os.environ.get("RIG_CONFIG", "").strip()
    if value:
        return Path(value)
    return system if system.is_file() else None


