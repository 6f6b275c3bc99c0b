"""The seats: the game's players sit at the configured toss inputs in order."""

from __future__ import annotations

from rig import registry
from rig.errors import RigError, RunError


class Seats:
    """The seats part of :class:`rig.app.runner.Rig` (its ``service``, ``config`` and ``seat_inputs``)."""

    def seats(self) -> dict[str, str]:
        """Input name (config) → the player of the current game in that seat."""
        state = self.service.state() if self.service else {"game": None}
        names = state["game"]["players"] if state.get("game") else [p.name for p in self.config.players]
        return {p.name: names[i] for i, p in enumerate(self.seat_inputs) if i < len(names)}

    def admit_game(self, event) -> None:
        """Refuse up front a new game with more players than toss inputs (the engine logs the refusal)."""
        from rig.engine import EventRefused

        try:
            needs_inputs = registry.get(event.get("game") or registry.DEFAULT).needs_inputs
        except RigError:
            return  # not a game the rig knows: the engine refuses it
        players = event.get("players") or []
        have = len(self.seat_inputs)
        if not needs_inputs or len(players) <= have:
            return
        names = ", ".join(str(p) for p in players[have:])
        raise EventRefused(
            f"{len(players)} players but only {have} toss input{'s' if have != 1 else ''}: "
            f"{names} would have no button or beam. Wire one more input per extra seat and add a "
            f"[[players]] entry with its pin to the config (rig config wiring shows the free pins), "
            f"or start with at most {have} players")

    def input_of(self, player: str) -> str:
        """The config's input for the current game's ``player`` (same seat)."""
        for input_name, seated in self.seats().items():
            if seated == player:
                return input_name
        raise RunError(f"no toss input for {player!r} (players: {', '.join(self.seats().values())})")
