"""Issue 25, rounds 36-37: an ``ok`` die whose body (the patch of its top's colour) is much bigger than its box and read
as another count is flagged, never changed; looked at only when its wider crop's reading is unsure
(rig.vision.diebodyread)."""

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from rig.vision import dicenet
from rig.vision.anydie_params import AnyDieParams
from rig.vision.diebodyread import body_reasons
from rig.vision.diewide import wide_probability
from rig.vision.pips import PipCount, PipDie

TWIN = Path(__file__).parent / "pip_twin"


class _SureReader:
    """A reader that reads every crop as ``pips``, ``sure``; it keeps the crops it read."""

    crop = dicenet.CROP

    def __init__(self, pips: int, sure: float):
        self.pips, self.sure, self.crops = pips, sure, []

    def read(self, crops):
        self.crops.extend(crops)
        out = np.full((len(crops), 7), (1 - self.sure) / 6, np.float32)
        out[:, self.pips] = self.sure
        return out


def _die(side: int = 120) -> np.ndarray:
    """A cream die of ``side`` px at (100, 100) on a dark green floor."""
    frame = np.full((600, 600, 3), (40, 90, 30), np.uint8)
    cv2.rectangle(frame, (100, 100), (100 + side, 100 + side), (200, 230, 240), -1)
    return frame


def _ok(box, pips=2) -> PipDie:
    return PipDie(box, PipCount(pips, (), 0.93, "ok", ()))


def test_a_box_on_part_of_a_big_die_read_otherwise_in_its_body_is_flagged_its_reading_kept():
    part = _ok((130, 150, 60, 60))  # half the 120 px die
    [flagged] = body_reasons(_die(), [part], AnyDieParams(), _SureReader(3, 0.7))
    assert body_reasons(_die(), [part], AnyDieParams(), _SureReader(3, 0.7), {0: 0.79})[0] == flagged
    assert flagged.box == part.box and flagged.pips == 2 and flagged.count.status == "uncertain"
    assert "read 3 (0.70)" in flagged.count.reasons[-1]


def test_a_whole_die_a_same_count_an_unsure_body_or_the_check_off_leave_the_die_as_it_is():
    part = _ok((130, 150, 60, 60))
    assert body_reasons(_die(), [_ok((100, 100, 121, 121))], AnyDieParams(), _SureReader(3, 0.9))[0].count.status == "ok"
    assert body_reasons(_die(), [part], AnyDieParams(), _SureReader(2, 0.9))[0] is part
    assert body_reasons(_die(), [part], AnyDieParams(), _SureReader(3, 0.5))[0] is part
    for p in (replace(AnyDieParams(), body_grow=0.0), replace(AnyDieParams(), body_other=0.0)):
        reader = _SureReader(3, 0.9)
        assert body_reasons(_die(), [part], p, reader)[0] is part and reader.crops == []
    reader = _SureReader(3, 0.9)  # the wider crop sure of its number: no body looked for, nothing read
    assert body_reasons(_die(), [part], AnyDieParams(), reader, {0: 0.8})[0] is part and reader.crops == []
    small = _ok((100, 100, 30, 30))  # under 32 px: the finder's boxes fit such dice
    reader = _SureReader(3, 0.9)
    assert body_reasons(_die(30), [small], AnyDieParams(), reader)[0] is small and reader.crops == []


@pytest.mark.skipif(not dicenet.FIND_WEIGHTS.exists(), reason="no shipped dice nets")
def test_the_twins_cream_three_boxed_on_its_lower_part_is_flagged():
    """Pip twin 12501 throw 0 (1920x1080, its lower left 640x660 as JPEG q85): a cream die with red pips showing 3,
    ~160 px, found as a 117 px box on the lower part of its top, read 2 and ok on main (round 36)."""
    frame = cv2.imread(str(TWIN / "t12501-throw0-part.jpg"))
    nets = dicenet.default_dicenet()
    box = (216, 250, 117, 117)
    assert nets.read([dicenet.crop_die(frame, 274.5, 308.5, 117, size=nets.crop)])[0].argmax() == 2
    p = AnyDieParams()
    wide = wide_probability(frame, box, 2, nets, p.wide_grow)
    assert p.wide_ok <= wide < p.body_wide  # the wider crop passes it, unsure: its body is looked at
    [flagged] = body_reasons(frame, [_ok(box)], p, nets, {0: wide})
    assert flagged.pips == 2 and flagged.count.status == "uncertain" and "read 3" in flagged.count.reasons[-1]
