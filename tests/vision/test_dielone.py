"""Issue 25, round 36: with no dice count known, a frame whose one missed die the finder scores nearly as high as the
dice it found asks (rig.vision.dielone): pip twin 12405 throw 0 (640x480, two white dice of 97 px on felt), the 1 half
in the tray wall's shadow scored 0.43 in a box off its middle, the reader calling it no die; main read the 6 ``ok``
and the frame ``ok`` with one of its two dice."""

from dataclasses import replace
from pathlib import Path

import cv2

from rig.vision.anydie import AnyDieParams, read_pip_dice

TWIN = Path(__file__).parent / "pip_twin"


def test_a_shadowed_die_the_finder_scores_just_under_keeping_makes_the_frame_ask(nets):
    frame = cv2.imread(str(TWIN / "t12405-throw0.jpg"))  # JPEG q90 of the bench's frame (seen)
    reading = read_pip_dice(frame, AnyDieParams())
    assert [(d.pips, d.count.status) for d in reading.dice] == [(6, "ok")]  # the 6 read as on main
    assert reading.status == "uncertain"
    assert any("a faint die beside the dice found" in r and r.endswith("a die may be missing") for r in reading.reasons)
    assert read_pip_dice(frame, replace(AnyDieParams(), lone_ask=0.0)).status == "ok"  # the rule off: main's reading


def test_with_the_dice_count_the_frame_asks_by_its_count_alone(nets):
    reading = read_pip_dice(cv2.imread(str(TWIN / "t12405-throw0.jpg")), AnyDieParams(), expected=(2,))
    assert reading.reasons == ("1 dice seen, want 2",)


def _peak(x, side, score):
    return (float(x), 100.0, float(side), score, False)


def test_only_a_peak_near_the_surest_dice_score_of_their_size_off_them_asks():
    from rig.vision.dielone import lone_faint  # here: the module is new (round 36), the tests above run on main

    die = _peak(100, 100, 0.76)
    assert lone_faint([die, _peak(300, 83, 0.43)], 0.45, 0.8, 0.55) != ()  # 12405: 0.43 of 0.76 (0.57)
    assert lone_faint([_peak(100, 100, 0.95), _peak(300, 83, 0.44)], 0.45, 0.8, 0.55) == ()  # beside a sure die: a hole, a key
    assert lone_faint([die, _peak(300, 40, 0.43)], 0.45, 0.8, 0.55) == ()  # another size (a pip, a coin)
    assert lone_faint([die, _peak(150, 83, 0.43)], 0.45, 0.8, 0.55) == ()  # on the die found (its pip, a second box)
    assert lone_faint([_peak(300, 83, 0.43)], 0.45, 0.8, 0.55) == ()  # no die found: the frame asks already
    assert lone_faint([die, _peak(300, 83, 0.43)], 0.45, 0.8, 0.0) == ()  # lone_ask 0: never


def test_the_worth_function_asks_once_and_reads_what_worth_reading_reads():
    from rig.vision.dielone import asking_worth
    from rig.vision.diemissing import worth_reading

    found = [_peak(100, 100, 0.76), _peak(300, 83, 0.43)]
    missing: list = []
    assert asking_worth(missing, 0.8, AnyDieParams())(found, 0.45) == worth_reading(found, 0.45, 0.8, 1.1)
    assert len(missing) == 1 and missing[0].endswith("a die may be missing")
    sized: list = []  # the dice's size known (learned, or --die-px): the pyramid's question is not asked
    assert asking_worth(sized, 0.8, replace(AnyDieParams(), die_px=80.0))(found, 0.45) == worth_reading(found, 0.45, 0.8, 1.1)
    assert sized == []
