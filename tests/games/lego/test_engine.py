"""LEGO Lunar Command on the engine: die face → action, turns alternate, the track to 11, the end rules."""

import pytest

from rig.engine import Engine, EngineService, EventLog, EventRefused


def ev(kind, t, **payload):
    return {"type": kind, "t_us": t, "source": "test", **payload}


def new_engine(**options):
    engine = Engine(EventLog(":memory:"))
    engine.submit(ev("game_started", 0, game="lego", players=["Ada", "Ben"], options=options))
    return engine


def test_the_die_shows_the_action_and_the_next_roll_passes_the_turn():
    engine = new_engine()
    state = engine.submit(ev("roll_settled", 10, dice=["white"]))
    assert state["turn"]["action"] == {"face": "white", "action": "wall", "label": "Build a white wall"}
    assert state["turn"]["roller"] == "Ada" and state["turn"]["phase"] == "action"
    state = engine.submit(ev("roll_settled", 20, dice=["gray"]))
    assert state["turn"]["roller"] == "Ben" and state["turn"]["action"]["action"] == "ufo"
    assert state["turns"] == [{"number": 1, "roller": "Ada", "face": "white", "action": "wall"}]


def test_a_configured_face_map_and_a_correction():
    engine = new_engine(faces={"green": "piece", "white": "wall", "yellow": "spacewalk", "gray": "ufo"})
    with pytest.raises(EventRefused, match="no 'red' face"):
        engine.submit(ev("roll_settled", 10, dice=["red"]))
    engine.submit(ev("roll_settled", 20, dice=["yellow"]))
    state = engine.submit(ev("correction", 30, what="die", index=0, face="green"))
    assert state["turn"]["action"]["action"] == "piece" and state["turn"]["corrected"]


def test_first_to_eleven_wins_at_once():
    engine = new_engine()
    engine.submit(ev("station_scored", 10, robots=2, astronauts=2, pieces={"Ada": 2, "Ben": 2}))  # 3 each
    state = engine.submit(ev("station_scored", 20, robots=1, astronauts=3, pieces={"Ada": 3, "Ben": 1}))
    assert state["totals"] == {"Ada": 10, "Ben": 3} and state["winner"] is None
    state = engine.submit(ev("points_scored", 30, player="Ada", points=2, detail="UFO abduction"))
    assert state["winner"] == "Ada" and state["game"]["status"] == "over"
    assert state["outcome"]["reason"] == "finished"


def test_out_of_pieces_ends_by_score_then_by_pieces_built_else_a_draw():
    engine = new_engine()
    engine.submit(ev("points_scored", 10, player="Ben", points=4))
    engine.submit(ev("points_scored", 11, player="Ada", points=4))
    engine.submit(ev("piece_built", 12, player="Ada", count=5))
    engine.submit(ev("piece_built", 13, player="Ben", count=6))
    state = engine.submit(ev("game_ended", 20, reason="out_of_pieces"))
    assert state["winner"] == "Ben" and state["outcome"]["outcome"]["out_of_pieces"]
    draw = new_engine()
    state = draw.submit(ev("game_ended", 20, reason="out_of_pieces"))
    assert state["winner"] is None and state["outcome"]["reason"] == "draw"


def test_refusals_and_buttons():
    with pytest.raises(EventRefused, match="2 distinct players"):
        new_engine().submit(ev("game_started", 0, game="lego", players=["Ada", "Ben", "Cleo"]))
    engine = new_engine()
    with pytest.raises(EventRefused, match="one LEGO Dice"):
        engine.submit(ev("roll_settled", 10, dice=["white", "red"]))
    with pytest.raises(EventRefused, match="'Eve' is not playing"):
        engine.submit(ev("points_scored", 10, player="Eve", points=1))
    service = EngineService.in_memory()
    service.submit({"type": "game_started", "game": "lego", "players": ["Ada", "Ben"]})
    assert [r["event"]["type"] for r in service.press("Ada", 100)] == ["turn_started"]
    service.submit({"type": "roll_settled", "dice": ["blue"]})
    assert [r["event"]["type"] for r in service.press("Ben", 200)] == ["turn_scored"]
    assert service.state()["turn"]["roller"] == "Ben"
    service.close()


def test_a_station_names_its_robots_and_astronauts_in_the_singular_too():
    engine = new_engine()
    state = engine.submit(ev("station_scored", 10, robots=1, astronauts=1, pieces={"Ada": 1, "Ben": 0}))
    assert state["scoring"][-1]["what"] == "station: 1 robot, 1 astronaut"
    state = engine.submit(ev("station_scored", 20, robots=2, astronauts=0, pieces={"Ada": 1, "Ben": 1}))
    assert state["scoring"][-1]["what"] == "station: 2 robots, 0 astronauts"
