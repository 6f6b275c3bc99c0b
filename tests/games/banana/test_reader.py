"""Reading the Banana Moon start roll from rendered frames."""

import numpy as np
import pytest

from rig import registry
from rig.games.banana.reader import read_image, read_start_roll
from rig.games.banana.render import render_start_roll
from rig.games.banana.rules import score_request
from rig.vision.pips import PipParams
from rig.vision.render_pips import draw_die

PARAMS = PipParams.load()


def table():
    return np.full((480, 640, 3), (95, 110, 120), np.uint8)


@pytest.mark.parametrize("seed", range(0, 40, 4))
def test_start_roll_reads_both_dice(seed):
    frame, truth = render_start_roll(seed)
    reading = read_start_roll(frame, PARAMS)
    assert (reading.white, reading.black) == (truth["white"], truth["black"])
    assert reading.status == "ok"


def test_start_roll_tie_scores_as_reroll():
    frame, _ = render_start_roll(5, white=4, black=4)
    out = read_image(frame, PARAMS)
    assert out["white"] == out["black"] == 4
    assert score_request(out["request"])["reroll"] is True


def test_start_roll_with_one_die_missing_is_uncertain():
    frame = table()
    draw_die(frame, 300, 200, 60, 0.4, (225, 232, 238), pips=5)
    reading = read_start_roll(frame, PARAMS)
    assert (reading.white, reading.black) == (None, 5)
    assert reading.status == "uncertain" and "0 dice with white pips" in reading.reasons[0]


def test_start_roll_readings_vote():
    from rig.vision.rolls import vote_readings

    readings = [read_start_roll(render_start_roll(6, noise=n)[0], PARAMS) for n in (3.0, 4.0, 5.0)]
    voted = vote_readings(readings)
    assert (voted.white, voted.black) == (readings[0].white, readings[0].black)
    assert voted.white is not None and voted.black is not None


def test_the_registry_reader_gives_the_tracker_both_faces():
    read = registry.get("banana").reader()
    frame, truth = render_start_roll(2)
    assert sorted(d.face for d in read(frame).dice) == sorted([f"white:{truth['white']}", f"black:{truth['black']}"])
