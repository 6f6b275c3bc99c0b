"""The twin's sixteenth round (issue 24): a blob of touching dice that does not split at a seam packed with die-sized
squares (:func:`rig.vision.dice_blobs.pack`) — the whole tops in it read, what is left over a quarter of a die
flagged."""

import numpy as np

import rig.vision.dice_blobs as dice_blobs
from rig.vision.dice import read_dice

from .dice_twin import faces_near, frame_and_profile

TOUCHING = "touching dice that cannot be split"


def _main(monkeypatch, frame, profile):
    """The reading before this round: a blob _split gives up on is flagged whole, none of its dice read."""
    monkeypatch.setattr(dice_blobs, "pack", lambda *a: None)
    return read_dice(frame, profile)


def test_a_die_lying_on_a_hidden_one_is_read_from_a_blob_of_one_and_a_half_tops(monkeypatch):
    # twin table 8809 (seen: round 11's checking set), turn 3: a flat blue+yellow die at (209, 173) lies over a yellow
    # die 73 % hidden under it; their blob is 1.48 die tops, above die_area_max (1.45), so it cannot be one die, but
    # _split counts round(1.48) = 1 die and gives up. A die-sized square packed into the blob takes the blue+yellow
    # top whole; the yellow die's sliver left over (0.3 of a top) is flagged where it lies.
    frame, profile = frame_and_profile("t8809-turn3.jpg", "t8809")
    reading = read_dice(frame, profile)
    assert faces_near(reading, 209, 173, 10) == ["blue+yellow"]
    flags = [r for r in reading.reasons if r.startswith(TOUCHING)]
    assert flags == [f"{TOUCHING} at (226, 196)"]  # the sliver's place, below and right of the die read
    assert reading.status == "uncertain"
    before = _main(monkeypatch, frame, profile)
    assert not faces_near(before, 209, 173, 10) and f"{TOUCHING} at (214, 177)" in before.reasons  # the blob's middle


def test_three_touching_dice_without_a_seam_give_two_whole_tops(monkeypatch):
    # twin table 8001 (tuning), turn 1: three dice in a row (a blue 22 % hidden at the top, a blank, a blue), one
    # blob of 2.54 tops whose cores part as 0.37 and 1.43 tops, and k-means' three parts are not die-shaped: not split
    # on main. Packed, the end die first (the blob ends beyond three of its sides): the blue at (277, 277), then the
    # blank at (266, 244); the top blue, cut by the blank's edge, is left over and flagged.
    frame, profile = frame_and_profile("t8001r16-turn1.jpg", "t8001r16")
    reading = read_dice(frame, profile)
    assert faces_near(reading, 277, 277, 10) == ["blue"] and faces_near(reading, 266, 244, 10) == ["blank"]
    assert len(reading.dice) == 5 and reading.status == "uncertain"
    assert [r for r in reading.reasons if r.startswith(TOUCHING)] == [f"{TOUCHING} at (282, 211)"]
    before = _main(monkeypatch, frame, profile)
    assert len(before.dice) == 3 and not faces_near(before, 277, 277, 10) and not faces_near(before, 266, 244, 10)


def test_pack_takes_the_dice_at_a_clusters_ends_and_flags_none_when_nothing_is_left():
    # two die-sized squares side by side: one blob of two tops, no seam. The square that fits with the blob ending
    # beyond most of its sides lies at an end, not across the middle: two parts of one top each, nothing left.
    side = 20
    roi = np.zeros((side + 8, 2 * side + 8), np.uint8)
    roi[4 : 4 + side, 4 : 4 + 2 * side] = 1
    parts, left = dice_blobs.pack(roi, int(roi.sum()), float(side * side))
    assert len(parts) == 2 and not left.any()
    for part in parts:
        assert 0.9 * side * side <= part.sum() <= 1.2 * side * side
        xs = np.nonzero(part)[1]
        assert xs.max() - xs.min() < 1.2 * side  # one die, not halves of two
    # a blob no die-sized square lies on (a thin bar two tops long) is not packed: flagged whole as before
    bar = np.zeros((12, 60), np.uint8)
    bar[4:8, 4:56] = 1
    assert dice_blobs.pack(bar, int(bar.sum()), float(side * side)) is None
