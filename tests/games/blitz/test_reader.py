"""Reading Würfelblitz throws from rendered frames."""

import math

import numpy as np
import pytest

from rig.games.blitz.rules import score_request
from rig.games.blitz.reader import read_blitz, read_image
from rig.games.blitz.render import render_blitz
from rig.vision.errors import FrameError
from rig.vision.pips import PipParams
from rig.vision.coloured import PALETTE, nearest_colour
from rig.vision.render_pips import draw_die

PARAMS = PipParams.load()


def table():
    return np.full((480, 640, 3), (95, 110, 120), np.uint8)


def match(reading, truth):
    out = []
    for t in truth:
        hit = [d for d in reading.dice if math.dist(d.centre, t.centre) < t.box[2] / 2]
        out.append(hit[0] if hit else None)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_every_die_read_right(seed):
    frame, truth = render_blitz(seed, white_dice=2 + seed % 2)
    reading = read_blitz(frame, PARAMS)
    assert len(reading.dice) == len(truth)
    for d, t in zip(match(reading, truth), truth):
        assert d is not None
        assert (d.color, d.pips, d.dot) == (t.color, t.pips, t.dot)
    assert reading.status == "ok"


def test_reading_scores_like_the_truth():
    frame, truth = render_blitz(42, white_dice=3, dot_chance=0.5)
    reading = read_blitz(frame, PARAMS)
    want = {"game": "blitz", "variant": "twister", "dice": [
        {k: v for k, v in t.to_dict().items() if k != "box"} for t in truth]}
    assert score_request(reading.to_request("twister"))["answer"] == score_request(want)["answer"]
    assert reading.to_dict()["dice"][0].keys() >= {"color", "box", "confidence"}


def test_nearest_colour():
    assert nearest_colour((35, 205, 225), PALETTE)[0] == "yellow"
    assert nearest_colour((35, 205, 225), PALETTE, exclude=("yellow",))[0] != "yellow"


def test_white_die_without_dot_is_uncertain():
    frame = table()
    draw_die(frame, 300, 200, 60, 0.3, PALETTE["white"])
    reading = read_blitz(frame, PARAMS)
    assert len(reading.dice) == 1
    assert reading.dice[0].pips is None and reading.dice[0].dot is None
    assert reading.status == "uncertain" and "without a colour dot" in reading.reasons[0]


def test_dot_versus_single_pip():
    for kwargs, want in (({"pips": 1}, (1, None)), ({"dot": PALETTE["blue"]}, (None, "blue"))):
        frame = table()
        draw_die(frame, 300, 200, 60, 0.2, PALETTE["yellow"], **kwargs)
        d = read_blitz(frame, PARAMS).dice[0]
        assert (d.color, d.pips, d.dot) == ("yellow",) + want


def test_palette_comes_from_the_parameters():
    params = PipParams.from_dict({"colour": {"colors": {"purple": [150, 40, 130], "white": [235, 235, 235]}}})
    frame = table()
    draw_die(frame, 300, 200, 60, 0.0, (150, 40, 130), pips=4)
    d = read_blitz(frame, params).dice[0]
    assert (d.color, d.pips) == ("purple", 4)


def test_bad_frame():
    with pytest.raises(FrameError):
        read_blitz(np.zeros((5, 5, 4), np.uint8), PARAMS)


def test_read_game_blitz_request_scores():
    frame, _ = render_blitz(8)
    out = read_image(frame, PARAMS, variant="twister")
    assert out["status"] == "ok" and out["request"]["variant"] == "twister"
    assert isinstance(score_request(out["request"])["answer"], int)


def test_readings_vote_like_the_frog_dice_readings():
    from rig.vision.rolls import vote_readings

    frames = [render_blitz(9, noise=n)[0] for n in (3.0, 4.0, 5.0)]
    readings = [read_blitz(f, PARAMS) for f in frames]
    voted = vote_readings(readings)
    assert sorted(d.face for d in voted.dice) == sorted(d.face for d in readings[0].dice)
    assert voted.status == "ok"
