"""LEGO Lunar Command on the rig: the die's colour → the action, and the score track to 11.

Two space commanders take turns: the roller rolls the LEGO Dice (``roll_settled`` with the
top face's colour, ``["blue"]``), the display shows the action big (the colour → action map
is the ``faces`` option, since sets differ); the next roll (or ``turn_scored``) passes the
turn on. Points are entered as they happen: ``station_scored`` (robots, astronauts and each
player's coloured pieces in the outer wall — ``rig.games.lego.rules.station_points`` shares them
out), ``points_scored`` (an astronaut walked in later, a UFO abduction), ``piece_built``
(coloured pieces placed: the tie-break). The first to 11 (option ``target``) wins at once;
``game_ended`` with reason ``out_of_pieces`` ends it by the rulebook's tie rules.

>>> from rig.engine.log import EventLog
>>> from rig.engine.engine import Engine
>>> engine = Engine(EventLog(":memory:"))
>>> _ = engine.submit({"type": "game_started", "t_us": 0, "source": "doc", "game": "lego", "players": ["Ada", "Ben"]})
>>> state = engine.submit({"type": "roll_settled", "t_us": 5, "source": "doc", "dice": ["blue"]})
>>> state["turn"]["action"]["action"], state["turn"]["roller"]
('spacewalk', 'Ada')
>>> state = engine.submit({"type": "station_scored", "t_us": 9, "source": "doc", "robots": 1, "astronauts": 2,
...                        "pieces": {"Ada": 3, "Ben": 1}})
>>> state["totals"]
{'Ada': 5, 'Ben': 0}
"""

from __future__ import annotations

from typing import Any, ClassVar

from rig.engine.errors import EventRefused
from rig.engine.events import Event, Object, Text, Whole
from rig.engine.extra import ExtraGame, event, need
from rig.games.lego.rules import WINNING_SCORE, FaceMap, LegoError, Track, station_points


def _count(n: int, noun: str) -> str:
    """``1 robot``, ``2 robots``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


class StationScored(Event, tag="station_scored"):
    pieces: Object
    robots: Whole | None = None
    astronauts: Whole | None = None
    _objects: ClassVar[tuple[str, ...]] = ("pieces",)


class PointsScored(Event, tag="points_scored"):
    player: Text
    points: Whole
    detail: Text | None = None


class PieceBuilt(Event, tag="piece_built"):
    player: Text
    count: Whole | None = None


#: the events LEGO Lunar Command adds to the engine's
EVENTS = {"station_scored": StationScored, "points_scored": PointsScored, "piece_built": PieceBuilt}


class Game(ExtraGame):
    seats = 2
    review_phase = "action"
    name = "lego"
    OPTIONS = {"faces": "{colour: action}", "target": "points to win (11)"}

    @classmethod
    def create(cls, game_id, players, options, t_us):
        try:
            faces = FaceMap.parse(options["faces"]) if "faces" in options else FaceMap.default()
            track = Track.new(players, target=options.get("target", WINNING_SCORE))
        except LegoError as exc:
            raise EventRefused(str(exc)) from None
        options = {"faces": {c: a.value for c, a in faces.actions.items()}, "target": track.target}
        game = cls(game_id, players, options, t_us)
        game.faces = faces
        game.track = track
        game.turns: list[dict[str, Any]] = []
        game.scoring: list[dict[str, Any]] = []  # every station/points/piece entry, for the display
        game.out_of_pieces = False
        game.turn = {"number": 1, "roller": players[0], "started": False, "face": None, "corrected": False}
        return game

    @property
    def turn_number(self) -> int:
        return self.turn["number"]

    def phase(self) -> str:
        if self.is_over:
            return "over"
        return "action" if self.turn["face"] else "waiting"

    def winner(self) -> str | None:
        return self.track.winner(out_of_pieces=self.out_of_pieces)

    def totals(self) -> dict[str, int]:
        return dict(self.track.points)

    def turns_played(self) -> int:
        return len(self.turns)

    def outcome(self, reason: str) -> dict[str, Any]:
        if reason == "out_of_pieces":
            self.out_of_pieces = True
            winner = self.winner()
            track = self.track.to_dict(out_of_pieces=True)
            return {"reason": "finished" if winner else "draw", "winner": winner,
                    "outcome": {"winner": winner, "totals": self.totals(), "track": track, "out_of_pieces": True}}
        return super().outcome(reason)

    # -- events -----------------------------------------------------------------------
    def _apply_turn_started(self, ev):
        turn = self.turn
        if turn["started"]:
            raise EventRefused(f"{turn['roller']}'s turn is already under way")
        player = ev.get("player")
        if player is not None and player != turn["roller"]:
            raise EventRefused(f"it is {turn['roller']}'s turn, not {player}'s")
        turn["started"] = True

    def _face(self, face: str) -> str:
        try:
            self.faces.action(face)
        except LegoError as exc:
            raise EventRefused(str(exc)) from None
        return face.strip().lower()

    def _apply_roll_settled(self, ev):
        turn = self.turn
        if turn["face"]:
            raise EventRefused(f"{turn['roller']} has rolled this turn already")
        dice = ev["dice"]
        if len(dice) != 1:
            raise EventRefused(f"Lunar Command is played with one LEGO Dice; {len(dice)} dice read")
        turn["face"] = self._face(dice[0])
        turn["started"] = True

    def _apply_correction(self, ev):
        turn = self.turn
        if ev["what"] == "die":
            face = need(ev, "face", "die correction")
        elif ev["what"] == "dice":
            faces = need(ev, "faces", "dice correction")
            if len(faces) != 1:
                raise EventRefused("a dice correction lists the one die's face")
            face = faces[0]
        else:
            raise EventRefused(f"a {ev['what']} correction has no meaning in Lunar Command (die, dice or undo)")
        turn["face"] = self._face(face)
        turn["started"] = turn["corrected"] = True

    def _gain(self, points: dict[str, int], what: str, ev) -> None:
        try:
            self.track = self.track.scored(points)
        except LegoError as exc:
            raise EventRefused(str(exc)) from None
        self.scoring.append({"what": what, "points": points, "turn": self.turn["number"], "t_us": ev["t_us"]})

    def _apply_station_scored(self, ev):
        pieces = need(ev, "pieces", "station_scored")
        unknown = sorted(set(pieces) - set(self.players))
        if unknown:
            raise EventRefused(f"pieces for {', '.join(unknown)}, who is not playing ({', '.join(self.players)})")
        try:
            points = station_points(robots=ev.get("robots", 0), astronauts=ev.get("astronauts", 0),
                                    pieces={p: pieces.get(p, 0) for p in self.players})
        except LegoError as exc:
            raise EventRefused(str(exc)) from None
        robots, astronauts = ev.get("robots", 0), ev.get("astronauts", 0)
        self._gain(points, f"station: {_count(robots, 'robot')}, {_count(astronauts, 'astronaut')}", ev)

    def _apply_points_scored(self, ev):
        player, points = need(ev, "player", "points_scored"), need(ev, "points", "points_scored")
        self._gain({player: points}, ev.get("detail") or "points", ev)

    def _apply_piece_built(self, ev):
        player = need(ev, "player", "piece_built")
        try:
            self.track = self.track.built({player: ev.get("count", 1)})
        except LegoError as exc:
            raise EventRefused(str(exc)) from None

    def _apply_turn_scored(self, ev):
        turn = self.turn
        if not turn["face"]:
            raise EventRefused(f"{turn['roller']} has not rolled yet")
        self.turns.append({"number": turn["number"], "roller": turn["roller"], "face": turn["face"],
                           "action": self.faces.action(turn["face"]).value})
        other = self.players[1 - self.players.index(turn["roller"])]
        self.turn = {"number": turn["number"] + 1, "roller": other, "started": False, "face": None,
                     "corrected": False}

    # -- inputs -----------------------------------------------------------------------
    def press(self, player, t_us, source, clock):
        current = self.phase()
        if current == "waiting" and player == self.turn["roller"] and not self.turn["started"]:
            return [event("turn_started", t_us, source, clock, player=player)]
        if current == "action" and player != self.turn["roller"]:
            return [event("turn_scored", t_us, source, clock)]  # the next commander takes over
        return []

    # -- view -------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        turn = self.turn
        action = None
        if turn["face"]:
            act = self.faces.action(turn["face"])
            action = {"face": turn["face"], "action": act.value, "label": act.label}
        ended = self.ended
        return {
            "game": self.game_view(whose_turn=None if ended else turn["roller"], target=self.track.target),
            "turn": {"number": turn["number"], "roller": turn["roller"], "phase": self.phase(),
                     "started": turn["started"], "rolls": 1 if turn["face"] else 0,
                     "dice": [turn["face"]] if turn["face"] else [], "corrected": turn["corrected"],
                     "action": action, "problem": None},
            "totals": self.totals(),
            "track": self.track.to_dict(out_of_pieces=self.out_of_pieces),
            "scoring": list(self.scoring[-10:]),
            "turns": [dict(t) for t in self.turns],
            "last_turn": dict(self.turns[-1]) if self.turns else None,
            "outcome": ended,
            "winner": ended["winner"] if ended else None,
        }
