"""The engine takes the configured tie window into each new game and shows close tosses as dead heats."""

from rig.engine.service import EngineService

PLAYERS = ["Ada", "Ben", "Cleo", "Dev"]


def _service(window: int) -> EngineService:
    service = EngineService.in_memory(clock="sim", game_defaults={"frogs": {"tie_window_us": window}})
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS})
    service.press("Ada", 100)
    return service


def test_a_3_us_gap_is_shown_as_a_dead_heat():
    service = _service(40)
    service.press("Ben", 10_000)
    service.press("Cleo", 10_003)
    state = service.state()
    assert state["game"]["options"]["tie_window_us"] == 40
    cleo = state["turn"]["tosses"][1]
    assert cleo["dead_heat"] is True and cleo["margin_us"] == 3
    assert state["turn"]["dead_heats"][0]["text"].startswith("dead heat (Δ 3 µs): Ben and Cleo")


def test_a_3_ms_gap_is_an_order():
    service = _service(40)
    service.press("Ben", 10_000)
    service.press("Cleo", 13_000)
    turn = service.state()["turn"]
    assert turn["dead_heats"] == [] and turn["tosses"][1]["margin_text"] == "Ben beat Cleo by 3.0 ms"


def test_a_game_started_with_its_own_window_keeps_it_and_other_games_get_no_frogs_option():
    service = EngineService.in_memory(clock="sim", game_defaults={"frogs": {"tie_window_us": 40}})
    state = service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS, "options": {"tie_window_us": 7}})
    assert state["game"]["options"]["tie_window_us"] == 7
    state = service.submit({"type": "game_started", "t_us": 0, "game": "lego", "players": ["Ada", "Ben"]})
    assert "tie_window_us" not in (state["game"].get("options") or {})
