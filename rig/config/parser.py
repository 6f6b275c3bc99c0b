"""Checking a config file: every section and key against what the rig knows, each mistake one
:class:`rig.errors.ConfigError` naming the key and its line (issue 29: split from :mod:`rig.config`).
"""

from __future__ import annotations

import difflib
import ipaddress
import re
from pathlib import Path
from typing import Any, Callable

from rig import registry
from rig.config.lines import _KeyLines
from rig.config.sections import (
    _REFUSED_PINS,
    BUILD_CAMERAS,
    BUILD_MOUNTS,
    BUTTON_SIZES,
    CAMERA_KINDS,
    DEFAULT_PINS,
    INPUT_KINDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RESERVED_PINS,
    TABLE_NAME,
    BuildConfig,
    CameraConfig,
    DisplayConfig,
    EvidenceConfig,
    GameConfig,
    LeagueConfig,
    PlayerInput,
    ServerConfig,
    TossConfig,
    _default_players,
    check_crop,
    normalize_pin,
)
from rig.errors import ConfigError
from rig.i18n import LANGUAGES, N_, said

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
    return said(f"; did you mean {close[0]}?") if close else ""


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
        return {bool: N_("true/false"), int: N_("a whole number"), float: N_("a number"), str: N_("a string"),
                list: N_("a list"), dict: N_("a table")}.get(type(value), type(value).__name__)

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
                    hint = said(f"; {name} is a top-level key: move it above the first {table_line} line")
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
    def build(self, data: dict, path: Path | None, make: Callable[..., Any]) -> Any:
        """The config ``make`` (:class:`rig.config.RigConfig`) builds from ``data``, every section checked."""
        for key in data:
            if key not in _TOP_KEYS:
                raise self.fail(key, f"unknown key (known: {', '.join(_TOP_KEYS)}){_did_you_mean(key, _TOP_KEYS)}")
        return make(
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
