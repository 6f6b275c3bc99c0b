"""A real Debian mosquitto per test (127.0.0.1, a free port, a temporary config with per-table
accounts and the ACL), and helpers to compare the league with the tables' own histories."""

from __future__ import annotations

from collections import Counter

import pytest

from rig.league.broker import LocalBroker, mosquitto_binary
from tests.waiting import WAIT_S, wait_until

TABLES = ("t1", "t2", "t3")


@pytest.fixture
def broker(tmp_path):
    if mosquitto_binary() is None:
        pytest.skip("mosquitto is not installed (`make test` installs it: scripts/apt-need.sh)")
    folder = tmp_path / "broker"
    folder.mkdir()
    with LocalBroker(TABLES, folder=folder) as running:
        yield running


def wait_for(predicate, timeout: float, what: str) -> None:
    """Wait on a state (issue 28): ``timeout`` is the usual time, the bound is never below WAIT_S."""
    wait_until(predicate, what, timeout=max(timeout, WAIT_S), poll=0.05)


def summed_histories(histories) -> dict[str, dict]:
    """Per player: the sum of games, finished, wins, points over the tables' own ``rig history``."""
    total: dict[str, Counter] = {}
    best: dict[str, int] = {}
    for history in histories:
        for row in history["players"]:
            total.setdefault(row["name"], Counter()).update(
                {key: row[key] for key in ("games", "finished", "wins", "points")})
            best[row["name"]] = max(best.get(row["name"], 0), row["best"])
    return {name: {**dict(counts), "best": best[name]} for name, counts in total.items()}


def league_standings(store) -> dict[str, dict]:
    return {row["name"]: {key: row[key] for key in ("games", "finished", "wins", "points", "best")}
            for row in store.standings()}
