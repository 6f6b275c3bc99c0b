"""High Roll: the minimal example game of ``docs/games-new.md``.

Each player throws one die, in seat order; the highest throw wins (a tie: no winner). One module
holds what a game package holds in three: the rules (standard library only), the engine fold and
the :class:`rig.registry.Game` that tells the rig about it; ``page.js`` beside it draws it on the page.
"""

from __future__ import annotations

from typing import Any, Mapping

from rig.engine.errors import EventRefused
from rig.engine.extra import ExtraGame
from rig.registry import Game
from rig.rules import UnknownGameError


# -- the rules: standard library only ------------------------------------------------------
class HighRollError(UnknownGameError):
    """A High Roll request that is not one (``rig score`` prints it as one line, exit 2)."""


def score_request(data: Mapping[str, Any]) -> dict[str, Any]:
    """``rig score`` for ``{"game": "highroll", "rolls": {"Ada": 4, "Ben": 6}}``.

    >>> score_request({"game": "highroll", "rolls": {"Ada": 4, "Ben": 6}})
    {'high': 6, 'winner': 'Ben'}
    """
    rolls = data.get("rolls")
    if not isinstance(rolls, Mapping) or not rolls:
        raise HighRollError("a High Roll request needs 'rolls': {player: pips}")
    for name, pips in rolls.items():
        if isinstance(pips, bool) or not isinstance(pips, int) or not 1 <= pips <= 6:
            raise HighRollError(f"{name}'s roll must be 1 to 6 pips, not {pips!r}")
    high = max(rolls.values())
    best = [name for name, pips in rolls.items() if pips == high]
    return {"high": high, "winner": best[0] if len(best) == 1 else None}


# -- the engine fold: the game's state from its events -------------------------------------
class HighRollFold(ExtraGame):
    name = "highroll"
    OPTIONS: dict[str, str] = {}

    @classmethod
    def create(cls, game_id, players, options, t_us):
        game = cls(game_id, players, options, t_us)
        game.rolls = {}
        return game

    @property
    def roller(self) -> str | None:
        return self.players[len(self.rolls)] if len(self.rolls) < len(self.players) else None

    @property
    def turn_number(self) -> int:
        return len(self.rolls) + 1

    def phase(self) -> str:
        return "over" if self.is_over else "waiting"

    def _apply_turn_started(self, event):
        pass  # a throw needs no start

    def _apply_roll_settled(self, event):
        if self.roller is None:
            raise EventRefused("everybody has thrown")
        dice = event["dice"]
        if len(dice) != 1 or not str(dice[0]).isdigit() or not 1 <= int(dice[0]) <= 6:
            raise EventRefused(f"High Roll throws one die (1 to 6), not {dice!r}")
        self.rolls[self.roller] = int(dice[0])

    def winner(self) -> str | None:
        if len(self.rolls) < len(self.players):
            return None
        return score_request({"rolls": self.rolls})["winner"]

    def totals(self) -> dict[str, int]:
        return {name: self.rolls.get(name, 0) for name in self.players}

    def turns_played(self) -> int:
        return len(self.rolls)

    def view(self) -> dict[str, Any]:
        return {
            "game": self.game_view(whose_turn=self.roller),
            "turn": {"number": self.turn_number, "roller": self.roller, "phase": self.phase(), "started": True,
                     "rolls": len(self.rolls), "dice": [], "problem": None},
            "totals": self.totals(),
            "turns": [{"number": k + 1, "player": name, "pips": pips} for k, (name, pips) in enumerate(self.rolls.items())],
            "last_turn": None,
            "outcome": self.ended,
            "winner": self.ended["winner"] if self.ended else None,
        }


# -- what the rig needs to know ---------------------------------------------------------------
class HighRoll(Game):
    name = "highroll"
    title = "High Roll"
    description = "any number of players: one die each, the highest throw wins"
    order = 90
    rules = __name__           # the module with score_request
    engine = f"{__name__}:HighRollFold"
    dice = 1
    sim_keys = "r roll"
    needs_inputs = False       # the camera alone plays it
    page_script = "page.js"    # its scoreboard on the page, beside this module (no page_style: none needed)
