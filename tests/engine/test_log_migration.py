"""Logs written before issue 29 (events checked by the hand-written field table, stored as plain JSON)
replay under the typed event schema exactly as they did: the same state, the same history, no event skipped.
The fixture was written by the rig of that time (fixtures/make_log_before_29.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from rig.engine.log import EventLog
from rig.engine.service import EngineService

FIXTURES = Path(__file__).parent / "fixtures"
NAME = "log-before-29.sqlite3"


def _copy(tmp_path: Path) -> Path:
    for part in FIXTURES.glob(NAME + "*"):
        shutil.copy(part, tmp_path / part.name.replace(NAME, "rig.sqlite3"))
    return tmp_path


def _plain(value):
    return json.loads(json.dumps(value, sort_keys=True, ensure_ascii=False))


def test_a_log_of_before_the_typed_schema_replays_to_the_same_state(tmp_path):
    expected = json.loads((FIXTURES / "log-before-29.state.json").read_text())
    with EngineService.open(_copy(tmp_path), clock="fixture") as service:
        assert service.engine.skipped == []
        assert _plain(service.state()) == expected["state"]
        assert _plain(service.history()) == expected["history"]


def test_every_applied_event_of_the_old_log_decodes_into_its_type(tmp_path):
    with EventLog(_copy(tmp_path) / "rig.sqlite3") as log:
        rows = log.events()
    applied = [row for row in rows if row.status == "applied"]
    assert len(applied) > 60 and all(row.damage is None for row in applied)
    assert {row.type for row in applied} >= {"game_started", "turn_started", "roll_settled", "toss", "copy_chosen",
                                             "card_revealed", "correction", "violation", "turn_scored", "game_ended"}
    refused = [row for row in rows if row.status == "refused"]
    assert {row.event.get("type") for row in refused} >= {"toss", "dance"}


def test_the_old_log_carries_on_under_the_new_schema(tmp_path):
    folder = _copy(tmp_path)
    with EngineService.open(folder, clock="fixture") as service:
        before = service.state()["version"]
        tossed = len(service.state()["turn"]["tosses"])
        service.press("Ben", 210_000_000)
        after = service.state()
        assert after["version"] == before + 1 and len(after["turn"]["tosses"]) == tossed + 1
    with EngineService.open(folder, clock="fixture") as again:
        assert _plain(again.state()) == _plain(after) and again.engine.skipped == []
