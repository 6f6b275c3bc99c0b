"""The lamp's reflections on the floor change colour with the lamp: the glare taken off follows the light."""


import cv2
import numpy as np

from rig.vision.dice import read_dice
from rig.vision.dice_frames import prepare
from tests.vision.dice_twin import frame_and_profile


def _warm_turn():
    # twin table 8105 (seen), turn 2 after the lamp turned 700 K warmer (exposure unchanged): the floor's glare, as the
    # empty box showed it, was taken off at its calibrated colour — too blue, too little red — and what it left on the
    # table around the tray read as seven yellow dice (13 dice seen, the turn flagged)
    return frame_and_profile("t8105-turn2-warm.jpg", "t8105")


def test_after_a_warmer_lamp_the_turn_reads_its_six_dice_and_nothing_else():
    frame, profile = _warm_turn()
    reading = read_dice(frame, profile, thrown=6)
    assert sorted(reading.faces) == ["blank", "blank", "blank", "blue", "pink", "yellow"]
    assert reading.status == "ok" and reading.reasons == ()


def test_the_glare_taken_off_is_the_calibrated_glare_in_the_frames_light():
    frame, profile = _warm_turn()
    work = prepare(frame, profile)
    blue, green, red = work.light.channels
    assert red > 1.08 and blue < 0.92 and work.light.changed  # warmer: the floor lost blue and gained red
    assert work.light.correctable
    # the glare's own colour went the same way: a floor cell under it, corrected, is the floor's colour again
    glare = work.glare.astype(np.float32).sum(axis=2)
    under = glare > np.percentile(glare, 99)
    lab = cv2.cvtColor(work.small, cv2.COLOR_BGR2Lab).astype(np.float32)
    floor = np.median(lab[(glare == 0)], axis=0)
    assert np.abs(np.median(lab[under], axis=0)[1:] - floor[1:]).max() < 6
