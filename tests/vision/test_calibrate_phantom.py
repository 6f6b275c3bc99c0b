"""Calibration of a table whose read-back took the table beyond the box's rim for a die (issue 24, round 22).

Card twin table 4013 (round 21's fresh card set, seen now): six dice in plain view on a gray bottom in a lavender
tray, every frog plainly pink; refused "the fitted profile reads the pink frame back as ['blank', 'pink', ...]; the
reader takes the box at (11, 10) for a die, where none lies" — (11, 10) is the dark table beyond the rim in the
frame's top-left corner. The floor grid (the light reference) took 187 of the 192 cells: with the glare off, the rim
and the table beyond lie on the floor's surface. Such a refusal (``PhantomError``: a die read back where no ritual die
lies) is now tried, before ``asked``, with the box bottom inside its rim alone as the floor and the background
(``bottom``, round 19: the floor cells of the middle's colour connected to it, 108 cells on 4013).

The refusal rests on the developed frames' exact noise (as JPEG, even q100, they calibrate on ``main``): the frames
are committed lossless (WebP)."""

import numpy as np
import pytest

import rig.vision.calibrate as calibrate
from rig.vision.calibrate import fit_profile
from rig.vision.errors import PhantomError, ReadBackError

from .dice_twin import ritual_frames


def _frames():
    return ritual_frames("t4013", "webp")


def test_the_table_beyond_the_rim_is_no_floor_and_every_ritual_die_reads_right():
    frames, empty = _frames()
    report = fit_profile(frames, empty=empty)
    for face in calibrate.RITUAL:
        assert report.self_test[face] == ([face] * 6, "ok")
    cells = np.asarray(report.profile.floor_cells, bool)
    assert not cells[:2].any() and not cells[:, :3].any() and not cells[11].any()  # no rim, wall or table beyond
    assert cells.sum() == 108
    assert any(w.startswith("the box's walls and rim or the table around the box look like the dice") for w in
               report.warnings)


def test_without_the_box_bottom_try_the_table_beyond_the_rim_is_read_as_a_die(monkeypatch):
    monkeypatch.setitem(calibrate.RETRIES, PhantomError, calibrate.RETRIES[ReadBackError])
    frames, empty = _frames()
    with pytest.raises(PhantomError) as refused:
        fit_profile(frames, empty=empty)
    assert str(refused.value).startswith("the fitted profile reads the pink frame back as ['blank', 'pink'")
    assert "the reader takes the box at (11, 10) for a die, where none lies" in str(refused.value)


def test_the_box_bottom_is_tried_before_asking_and_after_the_light_s_tries():
    tries = calibrate.RETRIES[PhantomError][:-1]  # (then, last of all, the box's print: round 31, ``prints``)
    assert tries[-1] == {"asked": True} and tries[-2] == {"bottom": True}
    assert tries[:-2] == calibrate.RETRIES[ReadBackError][:-1]
