"""The doctor's light check looks at the frame as the dice reader does (glare off, light evened)."""

import itertools

import numpy as np
import pytest

from rig.doctor import FAIL, PASS, Context, check_light


@pytest.fixture(scope="module")
def glare():
    from rig.cli.calibrate import virtual_ritual
    from rig.hardware.virtual import VirtualTable
    from rig.vision.calibrate import fit_profile

    frames, empty = virtual_ritual("glare")
    profile = fit_profile(frames, empty=empty, name="glare").profile
    with VirtualTable(seed=5, realtime=False, lighting="glare") as table:
        table.roll(6)
        for _, frame in itertools.islice(table.frames(), 12):
            pass
    return profile, frame


def check(frame, profile, tmp_path):
    ctx = Context.create(None, on_pi=False, env={}, systemctl=None)
    ctx.frame, ctx.profile = frame, profile
    return check_light(ctx)


def test_the_glare_the_profile_knows_is_not_counted_as_unknown_colour(glare, tmp_path):
    from rig.vision import dice

    profile, frame = glare
    raw = dice.label_pixels(frame, dice.colour_lut(profile))
    assert np.isin(raw, (dice.UNKNOWN, dice.CLIPPED)).mean() > 0.05  # what the old check counted
    result = check(frame, profile, tmp_path)
    assert "colours the profile does not know" not in result.detail
    assert result.status == PASS or "glare spot" in result.detail  # a die under the lamp is flagged, rightly


def test_an_empty_box_under_its_calibrated_glare_passes(tmp_path, glare):
    from rig.cli.calibrate import virtual_ritual

    profile, _ = glare
    _, empty = virtual_ritual("glare")
    result = check(empty, profile, tmp_path)
    assert result.status == PASS and "match the profile" in result.detail


def test_blown_glare_spots_count_as_unknown(glare, tmp_path, monkeypatch):
    from rig.vision import dice

    profile, frame = glare
    real = dice.prepare

    def all_blown(frame_, profile_):
        work = real(frame_, profile_)
        labels = work.labels.copy()
        labels[: labels.shape[0] // 3] = dice.BLOWN
        return type(work)(labels, *[getattr(work, f) for f in ("small", "factor", "side", "top_area", "glare")])

    monkeypatch.setattr(dice, "prepare", all_blown)
    result = check(frame, profile, tmp_path)
    assert result.status == FAIL and "colours the profile does not know" in result.detail
    assert np.isfinite(float(result.detail.split("%")[0]))


def test_pixels_glare_leaves_ambiguous_count_as_unknown(glare, tmp_path, monkeypatch):
    from rig.vision import dice

    profile, frame = glare
    real = dice.prepare

    def ambiguous(frame_, profile_):
        work = real(frame_, profile_)
        labels = work.labels.copy()
        labels[: labels.shape[0] // 3] = dice.AMBIG  # two die colours fit equally: the colour is unreadable
        return type(work)(labels, *[getattr(work, f) for f in ("small", "factor", "side", "top_area", "glare")])

    monkeypatch.setattr(dice, "prepare", ambiguous)
    result = check(frame, profile, tmp_path)
    assert result.status == FAIL and "colours the profile does not know" in result.detail
