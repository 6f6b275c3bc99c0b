"""The games the rig scores: one registry that everything asks instead of naming games.

A game is a package (``rig.games.<name>``) holding one
:class:`Game` subclass that says what the rest of the rig needs to know about it: its name and
titles, how many seats and dice, its rules module, its engine fold, its dice reader, its
simulation keys. The runner, ``rig score``, ``rig read --game``, ``rig bench``, the config's
``[game] name``, ``rig history`` and the page's Game menu ask :func:`get` / :func:`games`.

Games register through the ``rig.games`` entry-point group (as gpiozero's pin factories do), so
a game in another installed package shows up without editing the rig::

    [project.entry-points."rig.games"]
    moon = "moon_game:MoonGame"

or, in a test or a script, through :func:`register`. See ``docs/games-new.md``.

>>> DEFAULT in names(), get(DEFAULT).name == DEFAULT
(True, True)
>>> get("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
rig.rules.UnknownGameError: unknown game 'chess' (games: ...)
"""

from __future__ import annotations

import importlib
import threading
from importlib.metadata import entry_points
from typing import Any, Callable, ClassVar

from rig.rules import UnknownGameError

__all__ = ["DEFAULT", "ENTRY_POINT_GROUP", "Game", "UnknownGameError", "games", "generation", "get", "describe", "names", "register", "reload", "title", "unregister"]

#: the entry-point group games register in
ENTRY_POINT_GROUP = "rig.games"
#: the game of an event, request or config that names none (the rig's first game: older logs have no ``game``)
DEFAULT = "frogs"


class Game:
    """What the rig needs to know about one game; a game package subclasses it.

    Class attributes describe the game; the methods are hooks with the common behaviour as default.
    Module paths are strings, imported on first use, so listing the games imports no rules, engine
    or vision code.
    """

    #: the name in configs, events and ``rig score`` JSON (``"game": NAME``)
    name: ClassVar[str] = ""
    #: full title (exports, the page's Game menu) and a short one (``rig history``)
    title: ClassVar[str] = ""
    short_title: ClassVar[str] = ""
    #: one line for the Game menu and ``rig read --help``
    description: ClassVar[str] = ""
    #: place in every list of games (menus, rankings): lower first
    order: ClassVar[int] = 100
    #: the rules module (standard library only) with ``score_request(data) -> dict``
    rules: ClassVar[str] = ""
    #: the engine module with the game's fold (its ``Game``, or ``"module:Class"``: a subclass of
    #: :class:`rig.engine.extra.ExtraGame`); empty for a game the engine cannot run
    engine: ClassVar[str] = ""
    #: how many dice the camera expects in the box
    dice: ClassVar[int] = 6
    #: the simulation's keys, as ``rig run`` prints them and the page shows them
    sim_keys: ClassVar[str] = "r roll"
    #: the page's key line and ``?`` list in simulation (the common keys c, n, ? are added by the page)
    key_hint: ClassVar[str] = "keys: r roll · c camera · ? help"
    keys: ClassVar[tuple[tuple[str, str], ...]] = (("r", "roll the dice"),)
    #: True: the page's card keys (b p y k g), hold and knock are this game's
    lays_cards: ClassVar[bool] = False
    #: the new-game form's hint above the players
    player_hint: ClassVar[str] = "Players in seat order, one per line. The first one rolls first."
    #: False: the players need no toss input (the camera alone plays it)
    needs_inputs: ClassVar[bool] = True
    #: the turn phases in which the roll tracker watches the box (None: every phase but the end)
    tracker_phases: ClassVar[tuple[str, ...] | None] = None
    #: True: at a restart the dice already in the box belong to the turn under way (not a new roll)
    resumes_dice: ClassVar[bool] = False
    #: True: a turn's dice are rolled a few at a time (the simulator rolls n of the dice left);
    #: False: every roll throws all the game's dice
    rolls_in_parts: ClassVar[bool] = False
    #: a module whose ``PATTERNS`` say the game's English texts (the rules' reasons) as message ids of the
    #: catalogue, for the pages in another language (:func:`rig.i18n.by_pattern`); empty: none
    text_patterns: ClassVar[str] = ""

    def __repr__(self) -> str:
        return f"<Game {self.name} {self.title!r}>"

    def patterns(self) -> tuple[tuple[str, str], ...]:
        """The game's text patterns (:attr:`text_patterns`), imported on first use."""
        return tuple(importlib.import_module(self.text_patterns).PATTERNS) if self.text_patterns else ()

    def to_dict(self) -> dict[str, Any]:
        """What the page's Game menu shows (``GET /api/games/kinds``, ``games`` of ``GET /api/display``)."""
        return {"name": self.name, "title": self.title, "short_title": self.short_title or self.title,
                "description": self.description, "seats": self.seats(), "dice": self.dice,
                "sim_keys": self.sim_keys, "needs_inputs": self.needs_inputs, "key_hint": self.key_hint,
                "keys": [list(k) for k in self.keys], "lays_cards": self.lays_cards, "player_hint": self.player_hint}

    # -- rules ----------------------------------------------------------------------------
    def score_request(self, data: Any) -> dict[str, Any]:
        """``rig score``: score one request of this game (its rules module's ``score_request``)."""
        return importlib.import_module(self.rules).score_request(data)

    def prepare_score(self, data: dict[str, Any], *, palette: str | None = None) -> dict[str, Any]:
        """``rig score --palette``: fold command-line options into the request (default: nothing)."""
        return data

    # -- engine -----------------------------------------------------------------------------
    def engine_class(self) -> Any:
        """The engine fold's class (None: the engine's built-in fold).

        :attr:`engine` names a module (its class ``Game``) or ``"module:Class"``.
        """
        if not self.engine:
            return None
        module, _, attr = self.engine.partition(":")
        return getattr(importlib.import_module(module), attr or "Game")

    def seats(self) -> int | None:
        """How many players the game seats (None: any count its rules allow)."""
        cls = self.engine_class()
        return getattr(cls, "seats", None) if cls is not None else None

    def config_options(self, game_config: Any) -> dict[str, Any]:
        """A first game's options from the config's ``[game]`` table (default: none)."""
        return {}

    def defaults(self, config: Any) -> dict[str, Any] | None:
        """Options every new game of this kind gets from the config (logged in ``game_started``)."""
        return None

    # -- camera -----------------------------------------------------------------------------
    def dice_for(self, options: dict[str, Any]) -> int:
        """How many dice a game with these options has in the box."""
        return self.dice

    #: True: ``rig read`` reads its dice with a calibration profile (``--profile``, ``--cards``)
    reads_with_profile: ClassVar[bool] = False

    def read_image(self, frame: Any, *, params: Any = None, variant: str = "standard") -> dict[str, Any]:
        """``rig read --game``: one still frame's dice as JSON (the pip-dice games)."""
        raise NotImplementedError(f"{self.name}: rig read reads it with --profile")

    def describe_reading(self, result: dict[str, Any]) -> list[str]:
        """``rig read``'s extra lines for one frame's reading (default: none)."""
        return []

    def reader(self, *, profile: Any = None, params: Any = None, kept: Any = None) -> Callable[[Any], Any]:
        """The read function for this game's dice (a frame → a reading). ``kept``: where a pip game keeps the
        dice's size learned on this table between runs (:class:`rig.vision.kept_size.KeptDieSize`)."""
        raise NotImplementedError(f"{self.name}: no dice reader")

    def virtual_dice(self) -> Any:
        """The dice the virtual table throws for this game (None: the table's own frog dice).

        An object with ``size`` (px on a 640-wide frame), ``check(options)``, ``dice_set(options)``
        (one body colour per die), ``face(rng, colour, options) -> (shown, pips, dot)`` and
        ``draw(frame, die)``; see a shipped game's ``table.py``.
        """
        return None

    # -- turn flow (the runner calls these with itself: ``table`` is a :class:`rig.app.runner.Rig`) --
    def on_camera_event(self, table: Any, event: Any) -> bool:
        """Handle a roll tracker event (True: handled; False: the runner's common handling)."""
        return False

    def on_frame(self, table: Any, t_us: int, frame: Any, state: dict) -> None:
        """Each camera frame while a game of this kind runs (timeouts, card reveals, ...)."""

    def on_answer(self, table: Any, key: str, yes: bool, was: str | None = None) -> bool:
        """The players' answer to a question the game asked on screen (a notice with ``ask``; ``was``: "no — it was
        this card", one of the notice's ``cards``); False: no such question is open."""
        return False

    # -- the page (issue 17, display side) ----------------------------------------------------
    #: the page's renderer of this game (its scoreboard, turn panel, new-game options): a script
    #: and a style sheet shipped beside the module that defines the Game (package data), served
    #: at ``/games/<name>/page.js`` and ``page.css``; empty: the page's generic renderer
    page_script: ClassVar[str] = ""
    page_style: ClassVar[str] = ""

    def page_file(self, kind: str) -> Any:
        """The ``"script"`` or ``"style"`` page asset as an importlib resource (None: this game has none)."""
        import sys
        from importlib.resources import files
        from pathlib import Path

        name = {"script": self.page_script, "style": self.page_style}.get(kind)
        if not name or "/" in name or "\\" in name or name.startswith("."):
            return None
        module = sys.modules[type(self).__module__]
        if getattr(module, "__path__", None) is not None:  # the Game is in the package's __init__
            folder = files(module.__name__)
        elif module.__spec__ is not None and module.__spec__.parent:
            folder = files(module.__spec__.parent)
        else:  # a game that is one top-level module (docs/examples/highroll)
            folder = Path(module.__file__).parent
        asset = folder / name
        return asset if asset.is_file() else None


    # -- hooks for the engine, the command line and the benchmarks (issue 17: the backend) ----------
    def event_specs(self) -> dict[str, Any]:
        """The events this game adds to the engine's (type → a :class:`rig.engine.events.Event` subclass):
        the ``EVENTS`` of its engine module (default: none)."""
        if not self.engine:
            return {}
        return dict(getattr(importlib.import_module(self.engine.partition(":")[0]), "EVENTS", {}))

    #: the game's own benchmarks: ``rig bench NAME`` → (module with ``run(args)``, one-line help)
    benchmarks: ClassVar[dict[str, tuple[str, str]]] = {}
    #: ``rig bench vision --game NAME``: "module:function" measuring this game's dice reader (empty: none)
    bench_vision: ClassVar[str] = ""
    #: "module:function" ``(frames, params) -> report lines``: this game's reader on rendered frames,
    #: printed by the shared pip-dice bench (:mod:`rig.bench.pips`) after its own figures
    bench_rendered: ClassVar[str] = ""

    #: the module whose ``options(table)`` and ``turn_inputs(table, state)`` play this game on the league's
    #: simulated table (:mod:`rig.league.simtable`; empty: it cannot)
    simulated_table: ClassVar[str] = ""

    def example_request(self) -> dict[str, Any] | None:
        """A valid ``rig score`` request of this game (the fuzzer starts from it; None: none shipped)."""
        return None

    def dice_fairness(self, faces: list[str]) -> Any:
        """The die-fairness test of logged faces (``rig history --dice``): an object with ``format()``
        and ``to_dict()``; None for a game that has none."""
        return None


_lock = threading.Lock()
_games: dict[str, Game] = {}
_loaded = False
_generation = 0  # bumped whenever the set of games changes (what callers cache per game is stale then)


def _as_game(obj: Any, where: str) -> Game:
    game = obj() if isinstance(obj, type) else obj
    if not isinstance(game, Game) or not game.name:
        raise TypeError(f"{where}: a game must be a rig.registry.Game (subclass) with a name, not {obj!r}")
    return game


def _load() -> None:
    global _loaded, _generation
    with _lock:
        if _loaded:
            return
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            game = _as_game(ep.load(), f"entry point {ep.name} = {ep.value}")
            _games.setdefault(game.name, game)
        _loaded = True
        _generation += 1


def register(game: Game | type[Game]) -> Game:
    """Add a game (a :class:`Game` subclass or instance); a game of the same name is replaced."""
    _load()
    global _generation
    game = _as_game(game, "register()")
    with _lock:
        _games[game.name] = game
        _generation += 1
    return game


def unregister(name: str) -> None:
    """Remove a registered game (tests; a game from an entry point comes back on :func:`reload`)."""
    global _generation
    with _lock:
        _games.pop(name, None)
        _generation += 1


def reload() -> None:
    """Forget the registered games and read the entry points again."""
    global _loaded
    with _lock:
        _games.clear()
        _loaded = False
    _load()


def generation() -> int:
    """A number that changes whenever the registered games do (to cache what is derived from them)."""
    _load()
    return _generation


def games() -> list[Game]:
    """Every registered game, in menu order."""
    _load()
    return sorted(_games.values(), key=lambda g: (g.order, g.name))


def describe() -> list[dict[str, Any]]:
    """Every registered game as :meth:`Game.to_dict`, in menu order."""
    return [game.to_dict() for game in games()]


def names() -> tuple[str, ...]:
    """The registered games' names, in menu order."""
    return tuple(game.name for game in games())


def title(name: Any, *, short: bool = False) -> str:
    """A game's title for a list or an export; the name itself for a game no longer installed.

    >>> title("moon"), title(None)
    ('moon', '?')
    """
    _load()
    game = _games.get(name) if isinstance(name, str) else None
    if game is None:
        return name or "?"
    return (game.short_title or game.title) if short else game.title


def get(name: str) -> Game:
    """The game called ``name``; :class:`~rig.rules.UnknownGameError` naming the games otherwise."""
    _load()
    game = _games.get(name) if isinstance(name, str) else None
    if game is None:
        raise UnknownGameError(f"unknown game {name!r} (games: {', '.join(names())})")
    return game
