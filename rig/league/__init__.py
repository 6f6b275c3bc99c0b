"""Many tables, one tournament: rigs publish their event logs to an MQTT broker, a league follows them.

- :mod:`rig.league.topics` — the topics and the messages on them (parsing refuses forged ones);
- :mod:`rig.league.publisher` — the rig's side: the event log is the outbox, a cursor of acknowledged events;
- :mod:`rig.league.store` — the league's SQLite: events de-duplicated by ``(table, seq)``, games, standings;
- :mod:`rig.league.service` — ``rig league``: the subscriber that folds the tables into the store;
- :mod:`rig.league.app` — the league's read-only page and JSON API;
- :mod:`rig.league.broker` — a local Mosquitto for the demo, the benchmark and the tests;
- :mod:`rig.league.simtable` — simulated tables for the demo and the benchmark.

See docs/league.md.
"""
