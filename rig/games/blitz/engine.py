"""Würfelblitz on the rig: rounds of throw → buzz → judge, and the scoring discs.

A round: the thrower shakes the box and lifts it (``roll_settled`` with the dice as
``rig.games.blitz.rules`` reads them: ``"green:4"``, ``"orange:dot=black"``, ``"white:dot=red"``);
the first player to press their button answers (``buzz``, µs margins to later presses); the
rig cannot hear the spoken sum, so it is entered on the screen (``answer_judged`` with
``answer`` — the engine compares it with the rules' sum — or with ``correct``). A wrong answer
gives back a white disc and the next buzzer answers; a right one wins a white disc (three →
one black, or fewer with a handicap) and ends the round; ``answer_timeout`` ends a round
nobody answered. The sum is hidden until the round ends. ``turn_scored`` books the round (the
next throw does it by itself); the winner of a round throws next; three black discs win.

>>> from rig.engine.log import EventLog
>>> from rig.engine.engine import Engine
>>> engine = Engine(EventLog(":memory:"))
>>> _ = engine.submit({"type": "game_started", "t_us": 0, "source": "doc", "game": "blitz", "players": ["Ada", "Ben"]})
>>> dice = ["red:3", "yellow:4", "blue:1", "green:4", "black:4", "orange:dot=black", "white:dot=green", "white:dot=purple"]
>>> state = engine.submit({"type": "roll_settled", "t_us": 10, "source": "doc", "dice": dice})
>>> state["turn"]["phase"], state["turn"]["answer"]
('buzz', None)
>>> state = engine.submit({"type": "buzz", "t_us": 20, "source": "doc", "player": "Ben"})
>>> state = engine.submit({"type": "answer_judged", "t_us": 30, "source": "doc", "answer": 8})
>>> state["turn"]["phase"], state["turn"]["answer"]["answer"], state["discs"]["Ben"]
('done', 8, {'white': 1, 'black': 0})
"""

from __future__ import annotations

from typing import Any, Mapping

from rig.engine.errors import EventRefused
from rig.engine.events import Event, Text, Whole
from rig.engine.extra import ExtraGame, event, need
from rig.games.blitz.rules import BlitzError, Roll, Scoreboard, rules_for

class Buzz(Event, tag="buzz"):
    player: Text


class AnswerJudged(Event, tag="answer_judged"):
    player: Text | None = None
    answer: Whole | None = None
    correct: bool | None = None


class AnswerTimeout(Event, tag="answer_timeout"):
    pass


#: the events Würfelblitz adds to the engine's
EVENTS = {"buzz": Buzz, "answer_judged": AnswerJudged, "answer_timeout": AnswerTimeout}

DEFAULT_TIMEOUT_S = 30.0
COLOURED_DICE = 6


class Game(ExtraGame):
    review_phase = "done"
    name = "blitz"
    OPTIONS = {"variant": "standard or twister", "white_dice": "2 or 3", "handicap": "{player: white discs per black}",
               "answer_timeout_s": "seconds"}

    @classmethod
    def create(cls, game_id, players, options, t_us):
        if not 2 <= len(players) <= 7:
            raise EventRefused(f"Würfelblitz is for 2 to 7 players, not {len(players)}")
        variant = options.get("variant", "standard")
        white_dice = options.get("white_dice", 2)
        timeout = options.get("answer_timeout_s", DEFAULT_TIMEOUT_S)
        handicap = options.get("handicap") or {}
        if white_dice not in (2, 3) or isinstance(white_dice, bool):
            raise EventRefused(f"white_dice must be 2 or 3, not {white_dice!r}")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 1 <= timeout <= 600:
            raise EventRefused(f"answer_timeout_s must be 1 to 600 seconds, not {timeout!r}")
        if not isinstance(handicap, Mapping):
            raise EventRefused("handicap must be an object {player: white discs per black disc}")
        try:
            rules = rules_for(variant)
            board = Scoreboard.new(players, handicap=handicap)
        except BlitzError as exc:
            raise EventRefused(str(exc)) from None
        options = {"variant": variant, "white_dice": white_dice, "handicap": dict(handicap),
                   "answer_timeout_s": timeout}
        game = cls(game_id, players, options, t_us)
        game.rules = rules
        game.board = board
        game.rounds: list[dict[str, Any]] = []
        game._new_turn(1, players[0])
        return game

    def _new_turn(self, number: int, thrower: str) -> None:
        self.turn: dict[str, Any] = {"number": number, "thrower": thrower, "started": False, "dice": [],
                                     "corrected": False, "settled_t_us": None, "settled_clock": None,
                                     "buzzes": [], "judged": [], "timed_out": False}

    # -- derived ----------------------------------------------------------------------
    @property
    def turn_number(self) -> int:
        return self.turn["number"]

    def roll(self) -> Roll | None:
        return Roll.parse(self.turn["dice"]) if self.turn["dice"] else None

    def score(self):
        roll = self.roll()
        return None if roll is None else self.rules.score(roll)

    def buzz_order(self) -> list[dict[str, Any]]:
        """Buzzes in pressing order (µs; equal times in logged order), first press per player."""
        seen, out = set(), []
        for buzz in sorted(self.turn["buzzes"], key=lambda b: (b["clock"] != self.turn["settled_clock"],
                                                                  b["t_us"], b["order"])):
            if buzz["player"] not in seen:
                seen.add(buzz["player"])
                out.append(buzz)
        return out

    def answerer(self) -> str | None:
        """Who answers now: the first buzzer not judged yet (None once the round is over)."""
        if self._round_over():
            return None
        judged = {j["player"] for j in self.turn["judged"]}
        for buzz in self.buzz_order():
            if buzz["player"] not in judged:
                return buzz["player"]
        return None

    def _round_over(self) -> bool:
        return self.turn["timed_out"] or any(j["correct"] for j in self.turn["judged"])

    def phase(self) -> str:
        if self.is_over:
            return "over"
        if not self.turn["dice"]:
            return "waiting"
        if self._round_over():
            return "done"
        return "judge" if self.answerer() else "buzz"

    def winner(self) -> str | None:
        winners = self.board.winners
        return winners[0] if winners else None

    def totals(self) -> dict[str, int]:
        return {p: d.black for p, d in self.board.discs.items()}

    def turns_played(self) -> int:
        return len(self.rounds)

    def problem(self) -> str | None:
        dice = self.turn["dice"]
        if not dice:
            return None
        roll = self.roll()
        whites = sum(d.is_white for d in roll.dice)
        coloured = len(roll.dice) - whites
        want = self.options["white_dice"]
        if (coloured, whites) != (COLOURED_DICE, want):
            return (f"{coloured} coloured and {whites} white dice read, the game has {COLOURED_DICE} and {want}: "
                    "correct the dice if one was missed")
        return None

    # -- events -----------------------------------------------------------------------
    def _apply_turn_started(self, ev):
        turn = self.turn
        if turn["started"] or turn["dice"]:
            raise EventRefused(f"round {turn['number']} is under way already")
        player = ev.get("player")
        if player is not None:
            if player not in self.players:
                raise EventRefused(f"{player!r} is not playing")
            turn["thrower"] = player
        turn["started"] = True

    def _apply_roll_settled(self, ev):
        turn = self.turn
        if turn["buzzes"] or turn["judged"]:
            raise EventRefused("the dice of this round are read and someone has buzzed: correct the dice instead")
        self._set_dice(ev["dice"])
        turn["started"] = True
        turn["corrected"] = False
        turn["settled_t_us"] = ev["t_us"]
        turn["settled_clock"] = ev.get("clock")

    def _set_dice(self, dice):
        try:
            roll = Roll.parse(dice)
        except BlitzError as exc:
            raise EventRefused(str(exc)) from None
        if not roll.dice:
            raise EventRefused("no dice read: lift the box so the camera sees them")
        self.turn["dice"] = [str(d) for d in roll.dice]

    def _apply_correction(self, ev):
        turn = self.turn
        what = ev["what"]
        if turn["judged"]:
            raise EventRefused("an answer has been judged with these dice: undo the judgement first")
        if what == "dice":
            self._set_dice(need(ev, "faces", "dice correction"))
        elif what == "die":
            index, face = need(ev, "index", "die correction"), need(ev, "face", "die correction")
            if not 0 <= index < len(turn["dice"]):
                raise EventRefused(f"there is no die {index} ({len(turn['dice'])} dice read)")
            dice = list(turn["dice"])
            dice[index] = face
            self._set_dice(dice)
        else:
            raise EventRefused(f"a {what} correction has no meaning in Würfelblitz (die, dice or undo)")
        turn["corrected"] = True
        if turn["settled_t_us"] is None:
            turn["settled_t_us"], turn["settled_clock"] = ev["t_us"], ev.get("clock")

    def _apply_buzz(self, ev):
        player = ev["player"]
        if player not in self.players:
            raise EventRefused(f"a buzz by {player!r}, who is not playing ({', '.join(self.players)})")
        current = self.phase()
        if current == "waiting":
            raise EventRefused(f"{player} pressed before the box was lifted")
        if current == "done":
            raise EventRefused(f"{player} pressed after the round ended")
        turn = self.turn
        turn["buzzes"].append({"player": player, "t_us": ev["t_us"], "clock": ev.get("clock"),
                               "order": len(turn["buzzes"])})

    def _apply_answer_judged(self, ev):
        current = self.phase()
        turn = self.turn
        if current == "waiting":
            raise EventRefused("no dice yet: there is nothing to answer")
        if turn["timed_out"]:
            raise EventRefused("the round timed out: throw again")
        player = ev.get("player") or self.answerer()
        if player is None:
            raise EventRefused("nobody has pressed their button to answer")
        if player not in self.players:
            raise EventRefused(f"{player!r} is not playing")
        if any(j["player"] == player for j in turn["judged"]):
            raise EventRefused(f"{player} has answered this round already")
        answer = ev.get("answer")
        right = self.score().answer
        correct = ev.get("correct")
        if correct is None:
            if answer is None:
                raise EventRefused("an answer_judged needs 'answer' (the sum said) or 'correct' (true/false)")
            correct = answer == right
        if current == "done" and not correct:
            raise EventRefused("the round is over: only another right answer given at the same time counts now")
        turn["judged"].append({"player": player, "correct": bool(correct), "answer": answer, "t_us": ev["t_us"]})
        self.board = self.board.answered({player: bool(correct)})

    def _apply_answer_timeout(self, ev):
        if self.phase() not in ("buzz", "judge"):
            raise EventRefused("no round is waiting for an answer")
        self.turn["timed_out"] = True

    def _apply_turn_scored(self, ev):
        if self.phase() != "done":
            raise EventRefused("the round is not over yet: judge an answer or let it time out")
        turn = self.turn
        score = self.score()
        winners = [j["player"] for j in turn["judged"] if j["correct"]]
        self.rounds.append({"number": turn["number"], "thrower": turn["thrower"], "dice": list(turn["dice"]),
                            "answer": score.answer, "winners": winners,
                            "results": {j["player"]: j["correct"] for j in turn["judged"]},
                            "timed_out": turn["timed_out"]})
        self._new_turn(turn["number"] + 1, winners[0] if winners else turn["thrower"])

    # -- inputs -----------------------------------------------------------------------
    def press(self, player, t_us, source, clock):
        return [event("buzz", t_us, source, clock, player=player)]

    # -- view -------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        from rig.engine.view import format_margin

        turn = self.turn
        current = self.phase()
        shown = current in ("done", "over") and turn["dice"]
        score = self.score() if shown else None
        buzzes, previous = [], None
        for k, buzz in enumerate(self.buzz_order()):
            margin = None if previous is None else buzz["t_us"] - previous["t_us"]
            text = None
            if margin is not None:
                text = (f"dead heat: {previous['player']} and {buzz['player']} in the same µs" if margin == 0
                        else f"{previous['player']} beat {buzz['player']} by {format_margin(margin)}")
            judged = next((j for j in turn["judged"] if j["player"] == buzz["player"]), None)
            buzzes.append({"position": k + 1, "player": buzz["player"], "t_us": buzz["t_us"], "margin_us": margin,
                           "margin_text": text, "correct": None if judged is None else judged["correct"]})
            previous = buzz
        discs = self.board.to_dict()["discs"]
        turn_view = {
            "number": turn["number"], "roller": turn["thrower"], "thrower": turn["thrower"], "phase": current,
            "started": turn["started"], "rolls": 1 if turn["dice"] else 0, "dice": list(turn["dice"]),
            "corrected": turn["corrected"], "settled_t_us": turn["settled_t_us"],
            "answerer": self.answerer(), "buzzes": buzzes, "judged": list(turn["judged"]),
            "timed_out": turn["timed_out"], "answer": None if score is None else score.to_dict(),
            "problem": self.problem(),
        }
        ended = self.ended
        return {
            "game": self.game_view(whose_turn=None if ended else turn["thrower"],
                                   whites_per_black={p: self.board.whites_per_black(p) for p in self.players}),
            "turn": turn_view,
            "totals": self.totals(),
            "discs": discs,
            "turns": [dict(r) for r in self.rounds],
            "last_turn": dict(self.rounds[-1]) if self.rounds else None,
            "outcome": ended,
            "winner": ended["winner"] if ended else None,
        }
