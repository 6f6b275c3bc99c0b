"""The demo's simulated tables: players move between tables, never sit at two at once."""

from rig.engine.service import EngineService
from rig.league.simtable import POOL, Lobby, SimTable


def test_players_rotate_between_tables_and_sit_at_one_table_at_a_time():
    lobby = Lobby()
    services = [EngineService.in_memory(clock="sim") for _ in range(3)]
    tables = [SimTable(service, seed=i, lobby=lobby) for i, service in enumerate(services)]
    seen_at: dict[str, set[int]] = {}
    for _ in range(1500):
        for index, table in enumerate(tables):
            table.step()
        seated = [set(s.state()["game"]["players"]) for s in services]
        assert not (seated[0] & seated[1] or seated[0] & seated[2] or seated[1] & seated[2])
        for index, names in enumerate(seated):
            for name in names:
                seen_at.setdefault(name, set()).add(index)
    assert set(seen_at) <= set(POOL)
    assert sum(len(where) > 1 for where in seen_at.values()) >= 4  # several played at more than one table
