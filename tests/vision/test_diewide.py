"""Issue 25, round 21: a die the reader reads otherwise in a wider crop (rig.vision.diewide) is flagged, never
dropped: a box on a part of a die is read as the pips it holds; the whole die read the same wider is left ok."""

import cv2
import numpy as np

from rig.vision import dicenet
from rig.vision.diewide import wide_probability, wide_reason
from rig.vision.pips import PipCount, PipDie


class _CountingReader:
    """A reader that counts the light blobs of its crop (a pip counter with no idea where the die ends)."""

    crop = dicenet.CROP

    def __init__(self):
        self.crops = []

    def read(self, crops):
        self.crops.extend(crops)
        out = np.full((len(crops), 7), 0.01, np.float32)
        for i, c in enumerate(crops):
            n = cv2.connectedComponents((c.max(axis=2) > 200).astype(np.uint8))[0] - 1
            out[i, min(n, 6)] = 0.95
        return out


def _four(frame_side: int = 240) -> np.ndarray:
    """A dark die of 80 px at (60, 60) showing a 4: light pips 40 px apart."""
    frame = np.full((frame_side, frame_side, 3), 150, np.uint8)
    cv2.rectangle(frame, (60, 60), (140, 140), (40, 30, 30), -1)
    for x, y in [(80, 80), (120, 80), (80, 120), (120, 120)]:
        cv2.circle(frame, (x, y), 6, (240, 240, 240), -1)
    return frame


def test_a_box_on_a_part_of_a_die_is_flagged_never_dropped():
    frame = _four()
    part = PipDie((75, 110, 50, 50), PipCount(2, (), 0.95, "ok", ()))  # the box on the lower pips: read as 2
    reader = _CountingReader()
    assert reader.read([dicenet.crop_die(frame, 100, 135, 50)])[0].argmax() == 2
    flagged = wide_reason(frame, part, reader, 1.6, 0.6)
    assert flagged.box == part.box and flagged.pips == 2 and flagged.count.status == "uncertain"
    assert "wider crop" in flagged.count.reasons[-1]
    assert wide_probability(frame, part.box, 4, reader, 1.6) > 0.9  # the wider crop holds the die's four


def test_a_whole_die_read_alike_wider_or_not_ok_is_left_as_it_is():
    frame = _four()
    whole = PipDie((60, 60, 80, 80), PipCount(4, (), 0.95, "ok", ()))
    assert wide_reason(frame, whole, _CountingReader(), 1.2, 0.6) is whole
    part = PipDie((75, 110, 50, 50), PipCount(2, (), 0.95, "ok", ()))
    for grow, least in ((0.0, 0.6), (1.6, 0.0)):  # either 0: not looked at
        reader = _CountingReader()
        assert wide_reason(frame, part, reader, grow, least) is part and reader.crops == []
    unsure = PipDie(part.box, PipCount(2, (), 0.6, "uncertain", ("pips unclear",)))
    reader = _CountingReader()
    assert wide_reason(frame, unsure, reader, 1.6, 0.6) is unsure and reader.crops == []
