"""LEGO Lunar Command: face map, station points, score track."""

import pytest

from rig.errors import RigError
from rig.games.lego import rules as lego
from rig.games.lego.rules import Action, FaceMap, Track, score_request, station_points


def test_default_faces_cover_the_four_actions():
    faces = FaceMap.default()
    assert {faces.action(c) for c in faces.actions} == set(Action)
    assert faces.action(" White ") is Action.WALL


def test_face_map_is_configurable():
    faces = FaceMap.parse({"green": "piece", "white": "wall", "yellow": "spacewalk", "gray": "ufo"})
    assert faces.action("green") is Action.PIECE
    with pytest.raises(lego.UnknownFaceError, match="no 'red' face"):
        faces.action("red")
    with pytest.raises(lego.UnknownActionError, match="not 'fly'"):
        FaceMap.parse({"red": "fly"})


def test_station_majority_and_tie():
    assert station_points(robots=3, astronauts=1, pieces={"A": 1, "B": 2}) == {"A": 0, "B": 5}
    assert station_points(robots=3, astronauts=0, pieces={"A": 2, "B": 2}) == {"A": 1, "B": 1}
    with pytest.raises(lego.LegoError):
        station_points(robots=-1, astronauts=0, pieces={"A": 1, "B": 0})
    with pytest.raises(lego.LegoError, match="2 players"):
        station_points(robots=1, astronauts=0, pieces={"A": 1})


def test_track_first_to_eleven_wins():
    t = Track.new(["A", "B"]).scored({"A": 10, "B": 9})
    assert t.winner() is None
    t = t.scored({"B": 2})
    assert t.reached == ("B",) and t.winner() == "B"


def test_track_out_of_pieces_higher_score_then_more_pieces_then_draw():
    t = Track.new(["A", "B"]).scored({"A": 6, "B": 4})
    assert t.winner(out_of_pieces=True) == "A"
    t = t.scored({"B": 2}).built({"A": 5, "B": 7})
    assert t.winner(out_of_pieces=True) == "B"
    t = t.built({"A": 2})
    assert t.winner(out_of_pieces=True) is None


def test_track_errors():
    with pytest.raises(lego.LegoError, match="2 distinct players"):
        Track.new(["A", "B", "C"])
    with pytest.raises(lego.UnknownPlayerError):
        Track.new(["A", "B"]).scored({"C": 1})
    with pytest.raises(lego.LegoError, match="≥ 0"):
        Track.new(["A", "B"]).scored({"A": -2})


def test_score_request_all_three_questions():
    out = score_request({"game": "lego", "face": "gray", "faces": {"gray": "wall", "red": "ufo"},
                         "station": {"robots": 1, "astronauts": 1, "pieces": {"A": 3, "B": 1}},
                         "track": {"points": {"A": 8, "B": 11}, "pieces_built": {"A": 3, "B": 2}}})
    assert out["action"] == "wall" and out["label"].startswith("Build a white wall")
    assert out["station_points"] == {"A": 3, "B": 0}
    assert out["track"]["winner"] == "B"


@pytest.mark.parametrize("req, words", [
    ({"game": "lego"}, "give 'face'"),
    ({"game": "lego", "face": "purple"}, "no 'purple' face"),
    ({"game": "lego", "station": {"robots": 1}}, "'station' must be"),
    ({"game": "lego", "track": {"points": {"A": 1}}}, "2 distinct players"),
    ({"game": "lego", "roll": 3}, "unknown key"),
    ([], "JSON object"),
])
def test_bad_requests(req, words):
    with pytest.raises(RigError, match=words):
        score_request(req)
