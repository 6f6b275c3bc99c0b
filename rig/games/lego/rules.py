"""LEGO Games "Lunar Command": what the LEGO Dice's face means, and the score track to 11.

The buildable die carries coloured tiles; each colour stands for one action. Sets (and
house rules) differ, so the colour → action map is configurable:

>>> faces = FaceMap.default()
>>> faces.action("white")
<Action.WALL: 'wall'>
>>> FaceMap.parse({"white": "wall", "red": "piece", "blue": "spacewalk", "black": "ufo"}).action("black").label
'UFO: move one UFO to a free movement space'

Scoring a closed space station (1 point per robot, 2 per astronaut, to the player with
more coloured pieces in its outer wall; a tie gives both half, rounded down):

>>> station_points(robots=1, astronauts=2, pieces={"Ada": 2, "Ben": 2})
{'Ada': 2, 'Ben': 2}

The track: first to 11 wins; if the pieces run out first, the higher score wins, then
the one who built more coloured pieces.

>>> track = Track.new(["Ada", "Ben"]).scored({"Ada": 5}).scored({"Ada": 6})
>>> track.winner()
'Ada'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from rig.errors import RigError

WINNING_SCORE = 11
PLAYERS = 2


class LegoError(RigError):
    """Base of every Lunar Command rules error."""


class UnknownFaceError(LegoError):
    """A die colour the configured face map does not know."""


class UnknownActionError(LegoError):
    """An action other than wall, piece, spacewalk, ufo."""


class UnknownPlayerError(LegoError):
    """A name that is not one of the two players."""


class Action(enum.Enum):
    """What a roll of the LEGO Dice lets the player do."""

    WALL = "wall"
    PIECE = "piece"
    SPACEWALK = "spacewalk"
    UFO = "ufo"

    @property
    def label(self) -> str:
        return _LABELS[self]

    @classmethod
    def parse(cls, value: Any) -> "Action":
        try:
            return cls(str(value).strip().lower())
        except ValueError:
            names = ", ".join(a.value for a in cls)
            raise UnknownActionError(f"action must be one of {names}, not {value!r}") from None


_LABELS = {
    Action.WALL: "Build a white wall",
    Action.PIECE: "Build a coloured piece: dome, airlock door or antennae",
    Action.SPACEWALK: "Spacewalk: move robots/astronauts four spaces in all",
    Action.UFO: "UFO: move one UFO to a free movement space",
}

#: The default colour of each face as built from the rulebook's picture. Two faces per
#: colour are allowed; "gray" and "black" both mean the UFO since sets print either.
DEFAULT_FACES = {
    "white": "wall",
    "red": "piece",
    "blue": "spacewalk",
    "black": "ufo",
    "gray": "ufo",
}


@dataclass(frozen=True)
class FaceMap:
    """The configured die colour → action map."""

    actions: Mapping[str, Action]

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> "FaceMap":
        """From ``{"colour": "action", ...}`` (e.g. the ``[game.faces]`` table of the config)."""
        if not isinstance(data, Mapping) or not data:
            raise LegoError(f"the face map must be an object like {{'white': 'wall'}}, not {data!r}")
        actions = {}
        for colour, action in data.items():
            if not isinstance(colour, str) or not colour.strip():
                raise LegoError(f"a face colour must be a name, not {colour!r}")
            actions[colour.strip().lower()] = Action.parse(action)
        return cls(MappingProxyType(actions))

    @classmethod
    def default(cls) -> "FaceMap":
        return cls.parse(DEFAULT_FACES)

    def action(self, colour: str) -> Action:
        key = colour.strip().lower() if isinstance(colour, str) else colour
        try:
            return self.actions[key]
        except KeyError:
            raise UnknownFaceError(
                f"the die has no {colour!r} face (known: {', '.join(self.actions)})") from None

    def __repr__(self) -> str:
        return f"FaceMap({ {c: a.value for c, a in self.actions.items()} })"


def station_points(*, robots: int, astronauts: int, pieces: Mapping[str, int]) -> dict[str, int]:
    """Points for a completely enclosed space station, per player.

    ``pieces`` counts each player's coloured pieces in the station's outer wall.

    >>> station_points(robots=2, astronauts=1, pieces={"Ada": 3, "Ben": 1})
    {'Ada': 4, 'Ben': 0}
    """
    for name, n in (("robots", robots), ("astronauts", astronauts), *pieces.items()):
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise LegoError(f"{name!r} must be a whole number ≥ 0, not {n!r}")
    if len(pieces) != PLAYERS:
        raise LegoError(f"Lunar Command is for {PLAYERS} players; 'pieces' names {len(pieces)}")
    total = robots + 2 * astronauts
    best = max(pieces.values())
    leaders = [p for p, n in pieces.items() if n == best]
    if len(leaders) > 1:
        return {p: total // 2 for p in pieces}
    return {p: total if p in leaders else 0 for p in pieces}


@dataclass(frozen=True)
class Track:
    """The score track of the two space commanders, and the coloured pieces each has built."""

    points: Mapping[str, int]
    pieces_built: Mapping[str, int]
    target: int = WINNING_SCORE

    @classmethod
    def new(cls, players: Iterable[str], *, target: int = WINNING_SCORE) -> "Track":
        players = list(players)
        if len(players) != PLAYERS or len(set(players)) != PLAYERS:
            raise LegoError(f"Lunar Command needs {PLAYERS} distinct players, not {players!r}")
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise LegoError(f"the winning score must be a whole number ≥ 1, not {target!r}")
        zero = MappingProxyType({p: 0 for p in players})
        return cls(zero, zero, target)

    def _add(self, field_name: str, gains: Mapping[str, int]) -> "Track":
        current = dict(getattr(self, field_name))
        for player, n in gains.items():
            if player not in current:
                raise UnknownPlayerError(f"{player!r} is not playing (players: {', '.join(current)})")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise LegoError(f"{player!r}: a gain must be a whole number ≥ 0, not {n!r}")
            current[player] += n
        return replace(self, **{field_name: MappingProxyType(current)})

    def scored(self, gains: Mapping[str, int]) -> "Track":
        """Advance the commanders (points never go down)."""
        return self._add("points", gains)

    def built(self, pieces: Mapping[str, int]) -> "Track":
        """Count coloured pieces placed (the tie-break at the end)."""
        return self._add("pieces_built", pieces)

    @property
    def reached(self) -> tuple[str, ...]:
        return tuple(p for p, n in self.points.items() if n >= self.target)

    def winner(self, *, out_of_pieces: bool = False) -> str | None:
        """The winner, or ``None`` while the game goes on (or in a full draw).

        The first to reach the target wins at once. When the wall pieces or one player's
        coloured pieces are all used up (``out_of_pieces``), the higher score wins, then
        the player who built more coloured pieces.
        """
        if self.reached:
            return self.reached[0] if len(self.reached) == 1 else self._leader()
        return self._leader() if out_of_pieces else None

    def _leader(self) -> str | None:
        ranked = sorted(self.points, key=lambda p: (self.points[p], self.pieces_built[p]), reverse=True)
        a, b = ranked
        if (self.points[a], self.pieces_built[a]) == (self.points[b], self.pieces_built[b]):
            return None
        return a

    def to_dict(self, *, out_of_pieces: bool = False) -> dict[str, Any]:
        return {"points": dict(self.points), "pieces_built": dict(self.pieces_built), "target": self.target,
                "winner": self.winner(out_of_pieces=out_of_pieces)}


def score_request(data: Mapping[str, Any]) -> dict[str, Any]:
    """``rig score`` for ``{"game": "lego", ...}``; any of three questions:

    - ``"face": "white"`` (with optional ``"faces": {...}`` map) → the action;
    - ``"station": {"robots": n, "astronauts": n, "pieces": {"A": n, "B": n}}`` → points;
    - ``"track": {"points": {...}, "pieces_built": {...}, "out_of_pieces": bool}`` → winner.

    >>> score_request({"game": "lego", "face": "blue"})
    {'face': 'blue', 'action': 'spacewalk', 'label': 'Spacewalk: move robots/astronauts four spaces in all'}
    """
    if not isinstance(data, Mapping):
        raise LegoError("the request must be a JSON object")
    unknown = set(data) - {"game", "face", "faces", "station", "track"}
    if unknown:
        raise LegoError(f"unknown key(s) {sorted(unknown)}; a Lunar Command request has face, faces, station, track")
    if not {"face", "station", "track"} & set(data):
        raise LegoError("give 'face' (a die colour), 'station' or 'track'")
    out: dict[str, Any] = {}
    if "face" in data:
        faces = FaceMap.parse(data["faces"]) if "faces" in data else FaceMap.default()
        action = faces.action(data["face"])
        out.update(face=str(data["face"]).strip().lower(), action=action.value, label=action.label)
    if "station" in data:
        st = data["station"]
        if not isinstance(st, Mapping) or set(st) - {"robots", "astronauts", "pieces"} or not isinstance(
                st.get("pieces"), Mapping):
            raise LegoError("'station' must be {'robots': n, 'astronauts': n, 'pieces': {player: n, ...}}")
        out["station_points"] = station_points(
            robots=st.get("robots", 0), astronauts=st.get("astronauts", 0), pieces=st["pieces"])
    if "track" in data:
        tr = data["track"]
        if not isinstance(tr, Mapping) or set(tr) - {"points", "pieces_built", "out_of_pieces", "target"} or \
                not isinstance(tr.get("points"), Mapping):
            raise LegoError("'track' must be {'points': {player: n, ...}, 'pieces_built': {...}, 'out_of_pieces': bool}")
        track = Track.new(tr["points"], target=tr.get("target", WINNING_SCORE)).scored(tr["points"])
        built = tr.get("pieces_built", {})
        if not isinstance(built, Mapping):
            raise LegoError("'pieces_built' must map each player to a number")
        track = track.built(built)
        out["track"] = track.to_dict(out_of_pieces=bool(tr.get("out_of_pieces", False)))
    return out
