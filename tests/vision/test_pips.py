"""The pip counter on synthetic faces and rendered frames, and its parameter file."""

import math

import numpy as np
import pytest

from rig.vision.errors import FrameError
from rig.vision.pips import (BlobParams, PipParams, PipParamsError, count_pips, count_pips_in_box,
                             find_pip_dice, grow_box, read_top_face)
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
    assert set(PARAMS.colour["colors"]) >= {"red", "green", "white", "black"}


def test_whole_die_section_overrides_blobs():
    p = PipParams.from_dict({"blobs": {"dark_ratio": 0.5}, "whole_die": {"min_fill": 0.7}})
    assert p.whole_die.dark_ratio == 0.5 and p.whole_die.min_fill == 0.7
    assert isinstance(p.blobs, BlobParams) and p.blobs.min_fill == BlobParams().min_fill


@pytest.mark.parametrize("text, words", [
    ("[blobs]\nwork_px = 'big'\n", "work_px must be a number"),
    ("[blobs]\ndrop_border = 1\n", "drop_border must be true/false"),
    ("[blobs]\nsharpness = 2\n", "unknown key"),
    ("[camera]\nx = 1\n", "unknown table"),
    ("[colour]\nhue = 1\n", "unknown key"),
    ("[colour.colors]\nred = [1, 2]\n", "red must be \\[B, G, R\\]"),
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


def _table_with_dice(dice, *, size=(240, 320), seed=0):
    """A grainy light-wood table (like the real photographs) with white dice: (x, y, px, angle, pips)."""
    rng = np.random.default_rng(seed)
    h, w = size
    grain = (np.sin(np.arange(h)[:, None] / 3.0 + rng.normal(0, 0.3, (h, 1))) * 10).astype(np.int16)
    table = np.clip(np.array([150, 175, 190], np.int16) + grain[..., None] + rng.normal(0, 3, (h, w, 1)), 0, 255)
    frame = table.astype(np.uint8)
    for x, y, px, angle, pips in dice:
        draw_die(frame, x, y, px, angle, (228, 232, 232), pips=pips)
    return frame


def test_find_pip_dice_on_light_wood():
    dice = [(60, 60, 40, 0.2, 2), (170, 70, 42, 0.9, 6), (260, 160, 38, 0.5, 5), (90, 170, 44, 1.3, 3)]
    found = find_pip_dice(_table_with_dice(dice), PARAMS)
    assert len(found) == len(dice)
    for x, y, _, _, pips in dice:
        hit = [d for d in found if math.dist(d.centre, (x, y)) < 15]
        assert len(hit) == 1 and hit[0].pips == pips and hit[0].count.status == "ok"


def test_empty_table_finds_nothing():
    assert find_pip_dice(_table_with_dice([]), PARAMS) == ()


def test_top_face_ignores_foreshortened_side_pips():
    import cv2
    die = np.full((70, 70, 3), 225, np.uint8)
    cv2.circle(die, (35, 28), 6, (25, 25, 25), -1)  # the top face: one round pip
    for x in (18, 35, 52):  # a side face below it: three flattened pips
        cv2.ellipse(die, (x, 60), (5, 2), 0, 0, 360, (25, 25, 25), -1)
    result = read_top_face(die, None, PARAMS)
    assert result.pips == 1 and result.status == "ok"


def test_a_layout_no_die_face_has_is_uncertain():
    import cv2
    die = np.full((80, 80, 3), 225, np.uint8)
    for x, y in [(20, 20), (40, 40), (60, 20)]:  # three pips in a V, not in a line
        cv2.circle(die, (x, y), 6, (25, 25, 25), -1)
    result = read_top_face(die, None, PARAMS)
    assert result.pips == 3 and result.status == "uncertain" and "pattern" in result.reasons[0]


def test_find_params_reject_unknown_keys():
    with pytest.raises(PipParamsError, match="top_fraction"):
        PipParams.from_dict({"find": {"top_fraction": 0.9}})


def test_two_touching_dice_are_split_and_both_read():
    dice = [(60, 60, 40, 0.0, 2), (260, 170, 40, 0.3, 3), (140, 150, 40, 0.0, 4), (180, 150, 40, 0.0, 5)]
    found = find_pip_dice(_table_with_dice(dice, size=(480, 640), seed=1), PARAMS)
    reads = sorted((round(d.centre[0] / 10), d.pips, d.count.status) for d in found)
    assert [(p, s) for _, p, s in reads] == [(2, "ok"), (4, "ok"), (5, "ok"), (3, "ok")]
