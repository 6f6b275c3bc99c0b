"""The twin's fifteenth round (issue 24): a die top in a wall's deep shade, which the colour table calls floor, found by
its colour at any brightness when the reading is a die short — read, and always flagged."""

import rig.vision.dice_missed as dice_missed
from rig.vision.dice import read_dice

from .dice_twin import frame_and_profile


def _near(reading, x, y):
    return [d for d in reading.dice if abs(d.x - x) < 10 and abs(d.y - y) < 10]


def test_a_die_in_the_near_walls_deep_shadow_is_found_by_its_colour_and_flagged(monkeypatch):
    # twin table 101 (tuning), turn 1: a flat yellow+pink die against the near wall at (399, 435), in the wall's
    # shadow where calibration's shade map does not reach (its floor cells end three cells above): the top 5.7 times
    # darker than a die's body and cast blue by the shade's light; the colour table calls it floor. Brightened per
    # channel to the die body's colour (a cast under 3 to 1) it reads as a die top: read yellow+pink, flagged.
    frame, profile = frame_and_profile("t101-turn1.jpg", "t101")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.faces == ["blank", "blue", "blue", "pink+blue", "pink+blue", "yellow+pink"]
    assert [d.face for d in _near(reading, 399, 435)] == ["yellow+pink"]
    assert reading.status == "uncertain"
    assert any(r.startswith(dice_missed.SHADE_REASON) for r in reading.reasons), reading.reasons
    # without the count of dice thrown it is not looked for (no die is added to a reading that is not a die short)
    alone = read_dice(frame, profile)
    assert len(alone.dice) == 5 and not _near(alone, 399, 435)
    # main: five dice, the sixth "hidden in shade?"
    monkeypatch.setattr(dice_missed, "shade_dice", lambda *a, **k: None)
    import rig.vision.dice as dice

    monkeypatch.setattr(dice, "shade_dice", lambda *a, **k: None)
    before = read_dice(frame, profile, thrown=6)
    assert len(before.dice) == 5 and before.status == "uncertain"


def test_a_die_in_the_shade_beside_lifted_noise_is_taken_where_the_frame_is_smooth(monkeypatch):
    # twin table 8800 (seen: round 11's checking set), turn 1: a flat blue die against the near wall at (325, 390), its
    # top 6.8 times darker than a die's body; the floor beside it is the wall's shade lifted by the shade map, the
    # camera's noise brightened. Taken where the frame is smooth (a die top is one surface) the blob is the top alone:
    # read blue, and the turn is flagged by that die alone ("die in deep shade, check": the second look keeps it).
    frame, profile = frame_and_profile("t8800-turn1.jpg", "t8800")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.faces == ["blank", "blank", "blue", "blue", "pink", "pink"]
    assert [d.face for d in _near(reading, 325, 390)] == ["blue"]
    assert reading.status == "uncertain"
    assert [r.split(" at (")[0] for r in reading.reasons] == [dice_missed.SHADE_REASON]
    # the blob taken anywhere (no smooth first): the top joined to the lifted noise beside it, its colours scattered
    monkeypatch.setattr(dice_missed, "SMOOTH", 0.0)
    rough = read_dice(frame, profile, thrown=6)
    assert [d.face for d in _near(rough, 325, 390)] != ["blue"] and rough.status == "uncertain"


def test_the_games_tracker_reads_a_short_last_roll_again_and_finds_the_die_in_the_shade():
    """In play the count comes from the tracker: after the third roll all six dice are in the box, so a reading
    short of them is read again told six were thrown (twin 101 turn 1, as above, through the frog game's reader)."""
    import numpy as np

    from rig import registry
    from rig.vision.rolls import RollSettled, RollTracker

    frame, profile = frame_and_profile("t101-turn1.jpg", "t101")
    tracker = RollTracker(read=registry.get("frogs").reader(profile=profile), roll=2)
    events = tracker.feed(0, np.zeros_like(frame))  # the hand over the box, then the dice settled
    for k in range(1, 1 + tracker.settings.settle_frames + tracker.settings.vote_frames):
        events += tracker.feed(k * 83_000, frame)
    (settled,) = [e for e in events if isinstance(e, RollSettled)]
    assert settled.roll == 3 and len(settled.reading.dice) == 6
    assert [d.face for d in _near(settled.reading, 399, 435)] == ["yellow+pink"]
    assert any(r.startswith(dice_missed.SHADE_REASON) for r in settled.reading.reasons)
