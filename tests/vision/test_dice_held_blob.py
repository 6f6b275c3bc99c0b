"""Round 25 (issue 24): a die top's frog, cut from its body ring by the frog's dark outline, read as a second die (twin
10803 turn 0 after a drift, round 24's fresh set, seen now). The frog's blob lies inside the ring's convex hull; a die is
a solid cube, so :func:`rig.vision.dice_blobs.held_blob` leaves it to the die whose top holds it."""

import numpy as np

from rig.vision import dice_blobs
from rig.vision.dice import TWICE_REASON, read_dice

from .dice_twin import faces_near, frame_and_profile


def test_a_yellow_frog_cut_from_its_ring_is_not_a_second_die():
    # 10803 turn 0 at lamp x1.2: the yellow die at (277, 297); main read a second yellow die at (276, 300) — its frog,
    # 0.27 tops — flagged "die partly hidden or on edge" and "two dice read on one die's place"
    frame, profile = frame_and_profile("t10803-turn0-lamp12.webp", "t10803")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 277, 297, 14) == ["yellow"]
    assert not any(TWICE_REASON in r for r in reading.reasons)
    # the turn stays flagged: its blank die, touching another in the near wall's shade, is not found
    assert len(reading.dice) == 5 and reading.status == "uncertain"


def test_without_the_held_blob_test_the_frog_reads_as_a_second_die(monkeypatch):
    monkeypatch.setattr("rig.vision.dice.held_blob", lambda *args: False)
    frame, profile = frame_and_profile("t10803-turn0-lamp12.webp", "t10803")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 277, 297, 14) == ["yellow", "yellow"]
    assert any(TWICE_REASON in r for r in reading.reasons)


def test_a_blob_beside_a_die_or_inside_a_cluster_is_kept():
    import cv2

    top = np.zeros((60, 60), np.uint8)
    top[5:25, 5:25] = 1  # a die
    top[5:25, 28:36] = 1  # a sliver of another beside it: not inside its hull
    n, cc, stats, _ = cv2.connectedComponentsWithStats(top, connectivity=8)
    assert [dice_blobs.held_blob(cc, stats, k, 240, 520) for k in range(1, n)] == [False, False]
    ring = np.zeros((60, 60), np.uint8)
    ring[5:45, 5:45] = 1  # two dice's worth (over ``most``) round a small blob: not one die's top
    ring[15:35, 15:35] = 0
    ring[20:28, 20:28] = 1
    n, cc, stats, _ = cv2.connectedComponentsWithStats(ring, connectivity=8)
    assert [dice_blobs.held_blob(cc, stats, k, 240, 520) for k in range(1, n)] == [False, False]
