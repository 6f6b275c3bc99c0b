"""The simulation's hands: the mock toss pins and the virtual table, driven from the page or the API."""

from __future__ import annotations

import time
from rig.errors import RunError
from rig.app.protocols import SimulatedRig

class Simulator:
    """The simulation's hands: presses the mock pins and acts on the virtual table (``/api/sim/...``).

    ``press(player, hold_ms)`` and ``hold(player)`` go through the same gpiozero stack a real button
    does; ``roll(n)`` casts dice on the virtual table (taking the last turn's dice out first);
    ``show_card(card)`` lays a card under the camera; ``drop_camera()``/``restore_camera()``.
    """

    def __init__(self, rig: SimulatedRig) -> None:
        self.rig = rig
        self.camera_dropped = False
        self._table_turn = None  # the turn whose dice lie on the virtual table

    def __repr__(self) -> str:
        return f"<Simulator of {self.rig!r}>"

    @property
    def table(self):
        if self.rig.source is None:
            raise RunError("simulation: the rig runs without a camera")
        return self.rig.source

    def press(self, player: str, hold_ms: float = 50) -> None:
        """Press ``player``'s input for ``hold_ms`` (the roller holds ≥ ``hold_confirm_s`` to confirm)."""
        self.rig.inputs.simulate_press(self.rig.input_of(player), hold_s=max(hold_ms, 1) / 1000)

    def hold(self, player: str) -> None:
        self.press(player, hold_ms=self.rig.config.tosses.hold_confirm_s * 1000 + 200)

    def roll(self, n: int) -> list[str]:
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 6:
            raise RunError(f"roll 1 to 6 dice, not {n!r}")
        self.rig.use_game(self.rig.service.state())  # a game just started: its dice, before the camera thread sees it
        if not self.rig.game.rolls_in_parts:
            return self._throw()
        state = self.rig.service.state()
        turn = state.get("turn")
        table = self.table
        key = None
        if turn and state.get("game"):  # a roll in review starts the next turn
            key = (state["game"]["id"], turn["number"] + (turn["phase"] == "review"))
        if key != self._table_turn:
            self._empty_the_box()
            self._table_turn = key
        if not table.dice_left:
            raise RunError("all six dice are out this turn: nothing left to roll")
        if n > table.dice_left:
            left = table.dice_left
            raise RunError(f"only {left} {'die' if left == 1 else 'dice'} left to roll this turn, not {n}")
        return table.roll(n)

    def _throw(self) -> list[str]:
        """The other games throw all their dice at once: the last throw is taken out first."""
        self._empty_the_box()
        return self.table.roll(0)

    def knock(self) -> tuple[str, str]:
        """Bump a settled die (a rule violation the camera should catch): ``(old_face, new_face)``."""
        return self.table.knock()

    def _empty_the_box(self) -> None:
        """The players take their cards back and the last dice out, and the camera sees the box empty
        before the next throw: else the throw lands in the same quiet spell as the clearing, and the
        roll tracker's last reading (the last turn's dice, or what it saw on the laid cards) would
        stand as the box's dice — the throw's first dice would go unseen."""
        table = self.table
        table.hide_card()
        table.clear()
        self._wait_for_empty_box()

    def _wait_for_empty_box(self) -> None:
        """Until the roll tracker has read the box quiet and empty, or the camera has delivered
        enough frames for it to have done so (a count of frames, not a time: a loaded machine only
        makes it take longer)."""
        tracker, watcher = self.rig.tracker, self.rig.watcher
        if tracker is None or watcher is None or not tracker.open:
            return
        settings = tracker.settings
        until = watcher.frames_seen + self.table.pending_frames + 2 * (settings.settle_frames + settings.vote_frames) + 4
        while ((tracker.reading.dice or tracker.moving) and watcher.frames_seen < until and watcher.running
               and not watcher.lost):
            time.sleep(0.02)

    def show_card(self, card: str, *, layout: str | None = None, linger: bool | None = None) -> None:
        """Lay the next card as players do: beside the last (``layout="row"``) or on top of it
        (``"pile"``), the hand leaving the view clear or staying in view (``linger``); None: at random."""
        table = self.table
        if table.faces:
            table.clear()  # the reveal: the dice are out of the way, the cards go down in the box one by one
        table.show_card(card, layout=layout, linger=linger)

    def hide_card(self) -> None:
        self.table.hide_card()

    def drop_camera(self) -> None:
        self.table.drop()
        self.camera_dropped = True

    def restore_camera(self) -> None:
        self.table.restore()
        self.camera_dropped = False
