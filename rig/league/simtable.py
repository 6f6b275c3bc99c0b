"""A simulated table for the league demo and benchmark: seeded games (of the rig's default game:
its package's ``sim`` module plays the turns, :attr:`rig.registry.Game.simulated_table`) played
through a real :class:`rig.engine.service.EngineService` (so its SQLite log is a real rig's log).

Players come from a shared :class:`Lobby`: a table starting a game frees its players and seats free
ones, so they move between tables as at a tournament and nobody sits at two tables at once.

>>> from rig.engine.service import EngineService
>>> service = EngineService.in_memory(clock="sim")
>>> table = SimTable(service, seed=1)
>>> while table.games_finished < 1:
...     table.step()
>>> [game["status"] for game in service.history()["games"]]  # the next game has started
['playing', 'over']
"""

from __future__ import annotations

import importlib
import random
import threading
import time

from rig import registry

POOL = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Mo", "Nia", "Oz", "Pia")


class Lobby:
    """The players not seated at a table: a table that starts a game seats free players and frees its
    last ones, so players move between tables (when too few are free, anyone from the pool sits down)."""

    def __init__(self, pool=POOL) -> None:
        self.pool = tuple(pool)
        self.free = set(self.pool)
        self._lock = threading.Lock()

    def seat(self, rng: random.Random, count: int, leaving=()) -> list[str]:
        with self._lock:
            self.free.update(leaving)
            free = sorted(self.free)
            chosen = rng.sample(free, count) if len(free) >= count else rng.sample(self.pool, count)
            self.free.difference_update(chosen)
            return chosen


class SimTable:
    """Plays games of the rig's default game on ``service`` one input at a time (:meth:`step`), for ever.

    ``t_us``: the clock to start from (a table resumed after a restart starts from now:
    ``time.monotonic_ns() // 1000``).
    """

    def __init__(self, service, *, seed: int, players: int = 4, turns_each: int = 1, t_us: int = 1_000_000,
                 lobby: Lobby | None = None) -> None:
        self.service = service
        self.lobby = lobby or Lobby()
        self.rng = random.Random(seed)
        self.players = players
        self.turns_each = turns_each
        self.t_us = t_us
        self.games_finished = 0
        self._steps = iter(())
        self._game = importlib.import_module(registry.get(registry.DEFAULT).simulated_table)

    def step(self) -> None:
        """One input (a press, a roll, a card ...): one or a few logged events."""
        for _ in range(2):
            try:
                next(self._steps)()
                return
            except StopIteration:
                self._steps = self._plan()

    def tick(self, us: int = 50_000) -> int:
        self.t_us += us
        return self.t_us

    def submit(self, event: dict) -> None:
        from rig.engine.errors import EventRefused

        try:
            self.service.submit({"t_us": self.tick(), "source": "sim", **event})
        except EventRefused:
            pass  # logged as refused, like a real rig's odd input

    def _plan(self):
        state = self.service.state()
        game = state.get("game")
        if game is None or game["status"] != "playing":
            if game is not None:
                self.games_finished += 1
            names = self.lobby.seat(self.rng, self.players, leaving=game["players"] if game else ())
            yield lambda: self.submit({"type": "game_started", "players": names,
                                       "options": self._game.options(self)})
            return
        yield from self._game.turn_inputs(self, state)

class TablePlayer(threading.Thread):
    """Plays a :class:`SimTable` on a thread: ``pace_s`` between inputs (0: full speed) until stopped."""

    def __init__(self, table: SimTable, *, pace_s: float = 0.0, name: str = "sim-table") -> None:
        super().__init__(name=name, daemon=True)
        self.table = table
        self.pace_s = pace_s
        self.steps = 0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            self.table.step()
            self.steps += 1
            if self.pace_s:
                self.halt.wait(self.pace_s * self.table.rng.uniform(0.5, 1.5))
            else:
                time.sleep(0)  # let the publisher and the league in

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=10)
