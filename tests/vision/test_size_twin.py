"""The dice's size learned on a pip twin table whose frames are all flagged (issue 25, round 16)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from rig.bench.pip_twin import Tally
from rig.vision import dicenet
from rig.vision.anydie import read_pip_dice
from rig.vision.kept_size import FILE_NAME, KeptDieSize
from rig.vision.pips import PipParams
from rig.vision.readers import DieSize

TWIN = Path(__file__).parent / "pip_twin"
#: pip twin 9801's throw 0 (seen; 640x480, blue dice with white pips on a plain floor, 55 px): value, centre
THROW0 = [(4, 269, 280), (5, 398, 248), (4, 419, 165), (4, 293, 122), (2, 363, 149), (2, 206, 149)]
SHIFT = (14, -9)  # the next frame: the same dice, the camera nudged


def _tally(reading, shift=(0, 0)):
    """The twin benchmark's count of ``reading`` against the throw's dice (:class:`rig.bench.pip_twin.Tally`)."""
    tally = Tally()
    tally.add([SimpleNamespace(value=v, x=x + shift[0], y=y + shift[1], side_px=55, cocked=False)
               for v, x, y in THROW0], reading)
    return tally


def test_a_size_learned_from_a_flagged_twin_frame_is_kept_and_the_next_frame_read_at_it(tmp_path):
    """Pip twin 9801: the finder scores the blue dice low, no frame is read surely, so no size was ever learned and
    every frame was read on the pyramid. Throw 0 shows the six dice, four read ok and two flagged faint, of one
    size: the size is learned from it and kept for the table; the next frame (in the next run, the size kept) is
    read at it first, its six dice right and none wrong in silence."""
    if dicenet.default_dicenet() is None:
        pytest.skip("no dice nets")
    frame = cv2.imread(str(TWIN / "t9801-throw0.jpg"))
    calls = []

    def read(f, params):
        calls.append(params.anydie.die_px)
        return read_pip_dice(f, params.anydie, expected=(6,))

    size = DieSize(PipParams(), 6, kept=KeptDieSize(tmp_path / FILE_NAME, "pips", "twin 9801"))
    first = size.read(frame, read)
    assert first.status == "uncertain" and _tally(first).right == 6 and 40 < size.die_px < 70
    assert KeptDieSize(tmp_path / FILE_NAME, "pips", "twin 9801").get(frame.shape) == round(size.die_px, 1)
    nudged = cv2.warpAffine(frame, np.float32([[1, 0, SHIFT[0]], [0, 1, SHIFT[1]]]), frame.shape[1::-1],
                            borderMode=cv2.BORDER_REPLICATE)
    again = DieSize(PipParams(), 6, kept=KeptDieSize(tmp_path / FILE_NAME, "pips", "twin 9801"))
    calls.clear()
    reading = again.read(nudged, read)
    assert calls[0] == round(size.die_px, 1)  # read at the size kept first
    tally = _tally(reading, SHIFT)
    assert (tally.found, tally.right, tally.silent, tally.extra_ok) == (6, 6, 0, 0)
