"""The Banana Moon start roll on the rig: who starts, and where the two sequences begin.

The first player rolls the die with white pips, the second the die with black pips, both at
once; the camera reads them (``roll_settled`` with ``["white:4", "black:2"]``, the colour
being the pips' colour). The higher number starts; equal numbers roll again (the next
``roll_settled``). Once decided the game ends with reason ``decided``: its outcome holds the
starter and the two values, the start points of the white and the black sequence.

>>> from rig.engine.log import EventLog
>>> from rig.engine.engine import Engine
>>> engine = Engine(EventLog(":memory:"))
>>> _ = engine.submit({"type": "game_started", "t_us": 0, "source": "doc", "game": "banana", "players": ["Ada", "Ben"]})
>>> engine.submit({"type": "roll_settled", "t_us": 5, "source": "doc", "dice": ["white:3", "black:3"]})["turn"]["phase"]
'reroll'
>>> state = engine.submit({"type": "roll_settled", "t_us": 9, "source": "doc", "dice": ["black:2", "white:5"]})
>>> state["outcome"]["outcome"]["starter"], state["turn"]["phase"]
('Ada', 'over')
"""

from __future__ import annotations

from typing import Any

from rig.engine.errors import EventRefused
from rig.engine.extra import ExtraGame, need
from rig.games.banana.rules import BananaError, StartRoll


def parse_dice(dice: list[str]) -> dict[str, int]:
    """``["white:4", "black:2"]`` → ``{"white": 4, "black": 2}`` (refuses anything else)."""
    values: dict[str, int] = {}
    for text in dice:
        colour, _, pips = str(text).partition(":")
        colour = colour.strip().lower()
        if colour not in ("white", "black") or not pips.strip().isdigit():
            raise EventRefused(f"a start-roll die is 'white:N' or 'black:N' (the pips' colour), not {text!r}")
        if colour in values:
            raise EventRefused(f"two dice with {colour} pips read; the start roll has one of each")
        values[colour] = int(pips)
    missing = [c for c in ("white", "black") if c not in values]
    if missing:
        raise EventRefused(f"the die with {' and '.join(missing)} pips was not read: correct the dice")
    return values


class Game(ExtraGame):
    seats = 2
    name = "banana"
    OPTIONS = {}

    @classmethod
    def create(cls, game_id, players, options, t_us):
        if len(players) != 2:
            raise EventRefused(f"the Banana Moon start roll is for 2 players, not {len(players)}")
        game = cls(game_id, players, {}, t_us)
        game.rolls: list[dict[str, Any]] = []
        game.corrected = False
        return game

    def _result(self):
        if not self.rolls:
            return None
        last = self.rolls[-1]
        return StartRoll(last["white"], last["black"], self.players).result()

    @property
    def turn_number(self) -> int:
        return len(self.rolls) + 1

    def phase(self) -> str:
        if self.is_over:
            return "over"
        result = self._result()
        return "waiting" if result is None else ("reroll" if result.reroll else "decided")

    def _roll(self, dice, ev, corrected: bool) -> None:
        values = parse_dice(dice)
        try:
            StartRoll(values["white"], values["black"], self.players)
        except BananaError as exc:
            raise EventRefused(str(exc)) from None
        self.rolls.append({**values, "t_us": ev["t_us"]})
        self.corrected = corrected

    def _apply_turn_started(self, ev):
        pass  # the start roll needs no start: both players roll at once

    def _apply_roll_settled(self, ev):
        self._roll(ev["dice"], ev, False)

    def _apply_correction(self, ev):
        if ev["what"] != "dice":
            raise EventRefused("the start roll is corrected as a whole: what='dice', faces=['white:N', 'black:N']")
        if not self.rolls:
            raise EventRefused("no start roll read yet")
        self.rolls.pop()
        self._roll(need(ev, "faces", "dice correction"), ev, True)

    def after(self, item, before=None):
        if item["type"] in ("roll_settled", "correction") and self.phase() == "decided":
            return item, [{"type": "game_ended", "t_us": item["t_us"], "source": "engine", "reason": "decided",
                           **({"clock": item["clock"]} if "clock" in item else {})}]
        return super().after(item, before)

    def outcome(self, reason: str) -> dict[str, Any]:
        result = self._result()
        if reason == "decided" and result is not None and not result.reroll:
            return {"reason": "decided", "winner": None,
                    "outcome": {**result.to_dict(), "white_player": self.players[0], "black_player": self.players[1],
                                "rolls": len(self.rolls)}}
        return super().outcome(reason)

    def view(self) -> dict[str, Any]:
        result = self._result()
        last = self.rolls[-1] if self.rolls else None
        ended = self.ended
        return {
            "game": self.game_view(whose_turn=None, dice_of={"white": self.players[0], "black": self.players[1]}),
            "turn": {"number": self.turn_number, "roller": None, "phase": self.phase(), "started": True,
                     "rolls": len(self.rolls), "dice": [f"white:{last['white']}", f"black:{last['black']}"] if last else [],
                     "corrected": self.corrected, "start": None if result is None else result.to_dict(),
                     "problem": None},
            "totals": self.totals(),
            "turns": [{"number": k + 1, "white": r["white"], "black": r["black"]} for k, r in enumerate(self.rolls)],
            "last_turn": None,
            "outcome": ended,
            "winner": None,
        }
