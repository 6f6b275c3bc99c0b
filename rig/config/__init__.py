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
from rig.i18n import N_, Translator, said
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
                notes.append(said(f"players[{index}].pin: {player.pin} ({player.name}) is also {job}; "
                                  f"free pins: {', '.join(self.free_pins()[:4])}"))
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

    def describe(self, _: Translator | None = None) -> list[str]:
        """Human-readable summary lines (what ``rig config check`` prints), in the language of ``_`` (English
        without it)."""
        _ = _ or Translator("en")
        lines = [_.n("{n} player:", "{n} players:", len(self.players))]
        for player in self.players:
            lines.append(f"  {player.name:<12} {player.kind:<6} {player.pin:<6} "
                         + _("(header pin {pin})", pin=player.physical_pin))
        cam = self.camera
        shown = {"source": cam.source, "width": cam.width, "height": cam.height, "fps": cam.fps}
        lines.append(_("camera: {source} {width}x{height} @ {fps} fps, looped", **shown) if cam.loop
                     else _("camera: {source} {width}x{height} @ {fps} fps", **shown))
        lines.append(_("profile: {path}", path=self.profile) if self.profile
                     else _("profile: (none: built-in colours)"))
        lines.append(_("data_dir: {path}", path=self.data_dir) if self.data_dir else _("data_dir: (default)"))
        lines.append(_("server: {url}", url=f"http://{self.server.listen}:{self.server.port}/"))
        turns = self.game.turns_each if self.game.turns_each is not None else _("auto ({n})", n=self.turns_each)
        lines.append(_("game: {name}, turns each: {turns}, penalty per violation: {penalty}", name=self.game.name,
                       turns=turns, penalty=self.game.penalty_per_violation))
        t = self.tosses
        lines.append(_("tosses: lockout {lockout} ms, stuck after {stuck} s, hold to confirm {hold} s, order window "
                       "{window} ms, min press {press} ms, tie window {tie} µs", lockout=f"{t.lockout_ms:g}",
                       stuck=f"{t.stuck_after_s:g}", hold=f"{t.hold_confirm_s:g}", window=f"{t.order_window_ms:g}",
                       press=f"{t.min_press:g}", tie=t.tie_window_us))
        e = self.evidence
        kept = {"days": f"{e.max_age_days:g}", "mb": f"{e.max_mb:g}", "width": e.width, "quality": e.quality}
        lines.append(_("evidence: kept, {days} days, {mb} MB, {width} px wide, JPEG quality {quality}", **kept) if e.keep
                     else _("evidence: off, {days} days, {mb} MB, {width} px wide, JPEG quality {quality}", **kept))
        b = self.build
        box, height = f"{b.box[0]:g} x {b.box[1]:g} x {b.box[2]:g}", f"{b.height_cm:g}"
        if b.mount == "clamp":
            lines.append(_("build: box {box} mm, camera {camera} {height} cm above it, {mount} mount ({edges} mm "
                           "edges), {seats} seats, {button} mm buttons", box=box, camera=b.camera, height=height,
                           mount=b.mount, edges=f"{b.table_edge_mm:g}", seats=self.seats, button=b.button_mm))
        else:
            lines.append(_("build: box {box} mm, camera {camera} {height} cm above it, {mount} mount, {seats} seats, "
                           "{button} mm buttons", box=box, camera=b.camera, height=height, mount=b.mount,
                           seats=self.seats, button=b.button_mm))
        if self.league is not None:
            lg = self.league
            lines.append(_("league: table {table} publishes to {url} as {account}", table=lg.table,
                           url=f"{'mqtts' if lg.tls else 'mqtt'}://{lg.host}:{lg.port}", account=lg.account))
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


