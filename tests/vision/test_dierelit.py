"""Issue 25, round 26: an ``ok`` die whose crop, its light evened out, the reader reads otherwise is flagged
(rig.vision.dierelit): pips in a shadow across the face; never dropped, its box and number kept."""

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from rig.vision import dicenet
from rig.vision.anydie import AnyDieParams
from rig.vision.dierelit import evened, relit_reasons
from rig.vision.pips import PipCount, PipDie

TWIN = Path(__file__).parent / "pip_twin"


class _CountingReader:
    """Reads a crop as the number of its dark blobs (below 80, off the crop's edge) ringed by a bright face (above 190
    on average)."""

    crop = dicenet.CROP

    def __init__(self):
        self.crops = []

    def read(self, crops):
        self.crops.extend(crops)
        out = np.full((len(crops), 7), 0.01, np.float32)
        for i, c in enumerate(crops):
            grey = c.min(axis=2)
            k, labels = cv2.connectedComponents((grey < 80).astype(np.uint8))
            n = 0
            for j in range(1, k):
                blob = (labels == j).astype(np.uint8)
                ring = cv2.dilate(blob, np.ones((5, 5), np.uint8)) > blob
                edge = blob[0].any() or blob[-1].any() or blob[:, 0].any() or blob[:, -1].any()
                n += not edge and grey[ring].mean() > 190
            out[i, min(n, 6)] = 0.95
        return out


def _four_half_shadowed(frame_side: int = 240) -> np.ndarray:
    """A white die of 80 px at (80, 80) showing a 4, its left half in a shadow (grey 60, pips 15)."""
    frame = np.full((frame_side, frame_side, 3), 30, np.uint8)
    cv2.rectangle(frame, (80, 80), (160, 160), (220, 220, 220), -1)
    for x, y in [(100, 100), (140, 100), (100, 140), (140, 140)]:
        cv2.circle(frame, (x, y), 7, (20, 20, 20), -1)
    frame[80:161, 80:120] = frame[80:161, 80:120] // 3  # the wall's shadow over the left pips
    return frame


def test_pips_in_a_shadow_are_seen_once_the_light_is_evened_out():
    frame = _four_half_shadowed()
    crop = dicenet.crop_die(frame, 120, 120, 80)
    reader = _CountingReader()
    assert reader.read([crop])[0].argmax() == 2  # the lit half's two pips
    assert reader.read([evened(crop)])[0].argmax() == 4  # the shadowed half lit as the rest


def test_a_die_read_otherwise_evened_out_is_flagged_never_dropped():
    frame = _four_half_shadowed()
    two = PipDie((80, 80, 80, 80), PipCount(2, (), 0.95, "ok", ()))
    (flagged,) = relit_reasons(frame, [two], _CountingReader(), 0.5)
    assert flagged.box == two.box and flagged.pips == 2 and flagged.count.status == "uncertain"
    assert "light evened out" in flagged.count.reasons[-1]


def test_a_die_in_even_light_a_flagged_die_or_the_check_off_are_left_as_they_are():
    frame = _four_half_shadowed()
    frame[80:161, 80:120] = 220  # no shadow: the die's left half as lit as the rest
    for x, y in [(100, 100), (100, 140)]:
        cv2.circle(frame, (x, y), 7, (20, 20, 20), -1)
    four = PipDie((80, 80, 80, 80), PipCount(4, (), 0.95, "ok", ()))
    assert relit_reasons(frame, [four], _CountingReader(), 0.5) == [four]
    two = PipDie(four.box, PipCount(2, (), 0.95, "ok", ()))
    reader = _CountingReader()
    assert relit_reasons(_four_half_shadowed(), [two], reader, 0.0) == [two] and reader.crops == []  # 0: off
    unsure = PipDie(four.box, PipCount(2, (), 0.6, "uncertain", ("pips unclear",)))
    reader = _CountingReader()
    assert relit_reasons(_four_half_shadowed(), [unsure], reader, 0.5) == [unsure] and reader.crops == []


@pytest.mark.skipif(not dicenet.FIND_WEIGHTS.exists(), reason="no shipped dice nets")
def test_the_shipped_reader_flags_the_twins_half_shadowed_four():
    """Pip twin 9762 throw 0 (seen; 1280x960): a white 4 of 123 px, its left half in the tray wall's shadow, boxed
    132 px from 208, 549 (here 50, 50), read 2 at 0.92 and reported ok by main; read evened out it is not a sure 2."""
    frame = cv2.imread(str(TWIN / "t9762-throw0-die.png"))
    nets = dicenet.default_dicenet()
    box = (50, 50, 132, 132)
    crop = dicenet.crop_die(frame, 116, 116, 132, size=nets.crop)
    assert nets.read([crop])[0].argmax() == 2
    die = PipDie(box, PipCount(2, (), 0.92, "ok", ()))
    p = AnyDieParams()
    (flagged,) = relit_reasons(frame, [die], nets, p.relit_ok)
    assert flagged.count.status == "uncertain" and flagged.pips == 2 and "light evened out" in flagged.count.reasons[-1]
    assert relit_reasons(frame, [die], nets, replace(p, relit_ok=0.0).relit_ok) == [die]  # main: ok
