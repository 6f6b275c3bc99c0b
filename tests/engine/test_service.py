import asyncio
import threading

from rig.engine.service import EngineService
from tests.waiting import WAIT_S


def test_presses_from_many_threads_all_land_in_order_of_time():
    players = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": players})
    service.press("Ada", 10)
    barrier = threading.Barrier(len(players) - 1)

    def toss(k, name):
        barrier.wait()
        service.press(name, 1000 - k)  # later players land earlier

    threads = [threading.Thread(target=toss, args=(k, name)) for k, name in enumerate(players[1:])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    tosses = service.state()["turn"]["tosses"]
    assert [t["player"] for t in tosses] == list(reversed(players[1:]))
    assert all(t["counting"] for t in tosses)
    assert service.version == len(service.log.events())


def test_wait_for_change_sees_a_submit_from_another_thread():
    service = EngineService.in_memory(clock="sim")
    version = service.version
    timer = threading.Timer(0.05, service.submit, args=({"type": "game_started", "players": ["A", "B", "C"]},))
    timer.start()
    assert service.wait_for_change(version, timeout=WAIT_S)
    timer.join()
    assert service.state()["game"]["players"] == ["A", "B", "C"]
    assert service.wait_for_change(service.version, timeout=0.01) is False


def test_subscribers_hear_of_changes_made_in_other_threads():
    service = EngineService.in_memory(clock="sim")

    async def main():
        subscription = service.subscribe()
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, lambda: threading.Thread(
            target=service.submit, args=({"type": "game_started", "players": ["A", "B", "C"]},)).start())
        state = await subscription.next_state(timeout=WAIT_S)
        subscription.close()
        return state

    state = asyncio.run(main())
    assert state["game"]["players"] == ["A", "B", "C"]
    assert service._subscribers == []


def test_submit_fills_in_time_source_and_clock():
    service = EngineService.in_memory(clock="boot-x", now_us=lambda: 42)
    service.submit({"type": "game_started", "players": ["A", "B", "C"]}, default_source="display")
    event = service.log.events()[0].event
    assert (event["t_us"], event["source"], event["clock"]) == (42, "display", "boot-x")


def test_a_failed_append_applies_nothing(monkeypatch):
    import pytest

    from rig.engine.errors import LogError

    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "players": ["A", "B", "C"]})
    before = service.state()

    def full_disk(*args, **kwargs):
        raise LogError("database or disk is full")

    monkeypatch.setattr(service.log, "append_batch", full_disk)
    with pytest.raises(LogError):
        service.submit({"type": "turn_started"})
    after = service.state()
    assert after.pop("outage")["reason"] == "database or disk is full"
    assert after == before


def test_an_idempotency_key_is_answered_once_even_after_a_restart(tmp_path):
    import pytest

    from rig.engine.errors import EventRefused

    with EngineService.open(tmp_path, clock="sim") as service:
        service.submit({"type": "game_started", "players": ["A", "B", "C"]}, request="phone /api/games k-0001")
        service.submit({"type": "turn_started"}, request="phone /api/events k-0002")
        version = service.version
        with pytest.raises(EventRefused) as first:
            service.submit({"type": "copy_chosen", "player": "Z"}, request="phone /api/events k-0003")
    with EngineService.open(tmp_path, clock="sim") as service:  # the rig died before it answered
        refused_version = service.version
        again = service.submit({"type": "turn_started"}, request="phone /api/events k-0002")
        assert again["version"] == refused_version and service.log.count() == refused_version
        with pytest.raises(EventRefused) as second:
            service.submit({"type": "copy_chosen", "player": "Z"}, request="phone /api/events k-0003")
        assert second.value.reason == first.value.reason and service.version == refused_version
        undo = service.submit({"type": "correction", "what": "undo"}, request="phone /api/corrections u-1")
        assert service.submit({"type": "correction", "what": "undo"}, request="phone /api/corrections u-1") == undo
        assert version < undo["version"] == service.version  # undone once
