"""The roller's own input: press = start / next player, hold >= 1 s = confirm."""

from rig.engine.service import EngineService

S = 1_000_000


def started(players=("Ada", "Ben", "Cleo", "Dev")):
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": list(players)})
    service.press("Ada", S)
    service.release("Ada", S + 100_000, 100_000)  # the release of the starting press does nothing
    return service


def tap(service, player, t, held=100_000):
    service.press(player, t)
    return service.release(player, t + held, held)


def test_short_presses_cycle_through_the_other_players_in_seat_order():
    service = started()
    assert service.state()["turn"]["copy"] is None
    choices = []
    for k in range(4):
        tap(service, "Ada", (2 + k) * S)
        choices.append(service.state()["turn"]["copy"]["player"])
    assert choices == ["Ben", "Cleo", "Dev", "Ben"]
    assert service.state()["turn"]["copy"]["confirmed"] is False
    assert service.state()["turn"]["tosses"] == []  # the roller's presses are no tosses


def test_a_hold_of_a_second_confirms():
    service = started()
    tap(service, "Ada", 2 * S)
    tap(service, "Ada", 3 * S, held=999_999)  # just short of a second: next player
    assert service.state()["turn"]["copy"] == {"player": "Cleo", "confirmed": False}
    results = tap(service, "Ada", 5 * S, held=1_000_000)
    assert [r["event"]["type"] for r in results] == ["copy_chosen"]
    assert service.state()["turn"]["copy"] == {"player": "Cleo", "confirmed": True}


def test_the_hold_time_is_configurable():
    service = EngineService.in_memory(clock="sim", hold_us=500_000)
    service.submit({"type": "game_started", "t_us": 0, "players": ["Ada", "Ben", "Cleo", "Dev"]})
    service.press("Ada", S)
    tap(service, "Ada", 2 * S)
    tap(service, "Ada", 3 * S, held=600_000)
    assert service.state()["turn"]["copy"] == {"player": "Ben", "confirmed": True}


def test_other_players_releases_do_nothing_and_their_presses_are_tosses():
    service = started()
    assert tap(service, "Ben", 2 * S, held=2 * S) == []
    assert [t["player"] for t in service.state()["turn"]["tosses"]] == ["Ben"]


def _to_review(service):
    for k, p in enumerate(["Ben", "Cleo", "Dev"]):
        service.press(p, 2 * S + k)
    service.submit({"type": "roll_settled", "t_us": 3 * S, "dice": ["blue", "pink", "yellow", "blank", "blank", "pink"]})
    tap(service, "Ada", 5 * S)  # whom to copy: chosen before the reveal
    tap(service, "Ada", 6 * S, held=1_500_000)
    for card in ("blue", "pink", "yellow"):
        service.submit({"type": "card_revealed", "t_us": 7 * S, "card": card})
    assert service.state()["turn"]["phase"] == "review"


def test_next_roller_press_scores_the_turn_and_starts_theirs():
    service = started()
    _to_review(service)
    results = service.press("Ben", 9 * S)
    assert [r["event"]["type"] for r in results] == ["turn_started"]
    last = service.log.events()[-2:]
    assert [(e.type, e.event["source"]) for e in last] == [("turn_scored", "engine"), ("turn_started", "gpio")]
    assert last[0].batch == last[1].batch  # one transaction: a crash keeps both or neither
    state = service.state()
    assert state["turn"]["roller"] == "Ben" and state["turn"]["phase"] == "rolling"
    assert state["totals"] == {"Ada": 1, "Ben": 1, "Cleo": 2, "Dev": 1}


def test_roller_hold_in_review_scores_the_turn():
    service = started()
    _to_review(service)
    tap(service, "Ada", 9 * S, held=1_200_000)
    state = service.state()
    assert state["turn"]["roller"] == "Ben" and state["turn"]["phase"] == "waiting"
    assert state["game"]["turns_played"] == 1
