"""The pip counter on synthetic faces and rendered frames, and its parameter file."""

import math

import numpy as np
import pytest

from rig.vision.errors import FrameError
from rig.vision.pips import (BlobParams, PipParams, PipParamsError, count_pips, count_pips_in_box,
                             find_pip_dice, grow_box)
from rig.vision.render_pips import draw_die, render_pip_dice

PARAMS = PipParams.load()


def face(pips, *, px=60, angle=0.0, body=(230, 235, 240), canvas=None):
    size = int(px * 1.6)
    frame = np.full((size, size, 3), canvas or (120, 150, 170), np.uint8)
    draw_die(frame, size / 2, size / 2, px, angle, body, pips=pips)
    return frame


@pytest.mark.parametrize("pips", range(1, 7))
@pytest.mark.parametrize("px, angle", [(40, 0.0), (60, 0.4), (90, 1.2), (45, 0.8)])
def test_counts_every_face_at_several_sizes_and_angles(pips, px, angle):
    result = count_pips(face(pips, px=px, angle=angle), PARAMS, whole_die=True)
    assert result.pips == pips
    assert len(result.centres) == pips


def test_light_pips_on_a_dark_body():
    frame = face(5, body=(40, 40, 40))  # render_pips draws white pips on dark bodies
    assert count_pips(frame, PARAMS, light_pips=True).pips == 5
    assert count_pips(frame, PARAMS).pips != 5


def test_blank_and_tiny_crops_read_zero_and_uncertain():
    blank = np.full((40, 40, 3), 220, np.uint8)
    assert count_pips(blank, PARAMS).pips == 0
    tiny = count_pips(np.zeros((2, 2, 3), np.uint8), PARAMS)
    assert tiny.pips == 0 and tiny.status == "uncertain" and tiny.reasons


def test_more_than_six_blobs_is_capped_and_uncertain():
    frame = np.full((90, 90, 3), 230, np.uint8)
    import cv2
    for i in range(3):
        for j in range(3):
            cv2.circle(frame, (20 + 25 * i, 20 + 25 * j), 5, (20, 20, 20), -1)
    result = count_pips(frame, PARAMS)
    assert result.pips == 6 and result.status == "uncertain"


def test_grow_box_clips_to_the_frame():
    assert grow_box((0, 0, 10, 10), 0.5, (20, 20)) == (0, 0, 16, 16)


def test_count_in_box_uses_the_given_box_only():
    frame, truth = render_pip_dice(3, n=4)
    for die in truth:
        assert count_pips_in_box(frame, die.box, PARAMS).pips == die.pips


def test_find_pip_dice_on_rendered_frames():
    right = total = 0
    for seed in range(15):
        frame, truth = render_pip_dice(seed)
        found = find_pip_dice(frame, PARAMS)
        for t in truth:
            total += 1
            hit = [d for d in found if math.dist(d.centre, t.centre) < t.box[2] / 2]
            right += bool(hit) and hit[0].pips == t.pips
    assert right / total >= 0.9


def test_not_a_frame_is_a_frame_error():
    with pytest.raises(FrameError):
        find_pip_dice(np.zeros((10, 10), np.float32), PARAMS)
    with pytest.raises(FrameError):
        count_pips_in_box([[1, 2]], (0, 0, 1, 1), PARAMS)


def test_shipped_file_matches_the_code_defaults():
    defaults = PipParams()
    assert PARAMS.blobs == defaults.blobs
    assert PARAMS.whole_die == defaults.whole_die
    assert PARAMS.find == defaults.find
    assert set(PARAMS.blitz["colors"]) >= {"red", "green", "white", "black"}


def test_whole_die_section_overrides_blobs():
    p = PipParams.from_dict({"blobs": {"dark_ratio": 0.5}, "whole_die": {"min_fill": 0.7}})
    assert p.whole_die.dark_ratio == 0.5 and p.whole_die.min_fill == 0.7
    assert isinstance(p.blobs, BlobParams) and p.blobs.min_fill == BlobParams().min_fill


@pytest.mark.parametrize("text, words", [
    ("[blobs]\nwork_px = 'big'\n", "work_px must be a number"),
    ("[blobs]\ndrop_border = 1\n", "drop_border must be true/false"),
    ("[blobs]\nsharpness = 2\n", "unknown key"),
    ("[camera]\nx = 1\n", "unknown table"),
    ("[blitz]\nhue = 1\n", "unknown key"),
    ("[blitz.colors]\nred = [1, 2]\n", "red must be \\[B, G, R\\]"),
    ("[blobs\n", "cannot read"),
])
def test_bad_parameter_files_name_the_problem(tmp_path, text, words):
    path = tmp_path / "pips.toml"
    path.write_text(text)
    with pytest.raises(PipParamsError, match=words):
        PipParams.load(path)


def test_missing_parameter_file(tmp_path):
    with pytest.raises(PipParamsError, match="does not exist"):
        PipParams.load(tmp_path / "nope.toml")
