"""The twin's seventeenth round (issue 24): a die top lit as in the open where the floor's light correction is far
above the frame's overall one (a wall's shade band inside the floor's lamp fit) is clipped by that correction at the
working scale; its clipped pixels are read again in the frame's overall light
(:func:`rig.vision.dice_missed.overlit`), the die read from them and flagged."""

import rig.vision.dice as dice
from rig.vision.dice import read_dice
from rig.vision.dice_flag import Flag
from rig.vision.dice_missed import OVERLIT_REASON

from .dice_twin import frame_and_profile


def _near(reading, x, y, r=10):
    return [d.face for d in reading.dice if abs(d.x - x) < r and abs(d.y - y) < r]


def _main(monkeypatch, frame, profile):
    """The reading before this round: nothing read again in the overall light."""
    monkeypatch.setattr(dice, "overlit", lambda work: None)
    return read_dice(frame, profile)


def test_a_pink_die_on_the_near_walls_shade_band_is_read_pink(monkeypatch):
    # twin table 10004 (round 16's fresh set, seen now), turn 0: a flat pink die at (330, 392) on the near wall's
    # shade band. The floor's lamp fit (from the floor itself: the band is inside the floor's cells) corrects its
    # place 1.75 times against the frame's 1.19, the lit top clips to unknown and "clipped" at the working scale:
    # read blank on main, a big unknown blob said ("hand, object or glare in view"). Relit, it reads pink, flagged.
    frame, profile = frame_and_profile("t10004-turn0.jpg", "t10004")
    reading = read_dice(frame, profile)
    assert _near(reading, 330, 391) == ["pink"]
    assert f"{OVERLIT_REASON} at (330, 391)" in reading.reasons and reading.status == "uncertain"
    assert sorted(d.face for d in reading.dice) == ["blank", "blue", "blue", "blue", "pink", "pink"]  # the truth
    before = _main(monkeypatch, frame, profile)
    assert _near(before, 330, 391) == ["blank"]


def test_a_pink_die_touching_a_blank_on_the_band_is_found(monkeypatch):
    # the same table, turn 3: a pink at (421, 389) touching a blank at (388, 365), both on the band; on main their
    # clipped tops make one blob read as a single blank between them. Relit, both are read, each flagged.
    frame, profile = frame_and_profile("t10004-turn3.jpg", "t10004")
    reading = read_dice(frame, profile)
    assert _near(reading, 421, 389) == ["pink"] and _near(reading, 387, 362, 15) == ["blank"]
    assert len(reading.dice) == 6 and reading.status == "uncertain"
    flagged = [Flag.parse(r).at for r in reading.reasons if r.startswith(OVERLIT_REASON)]
    assert len(flagged) == 2 and all(min(abs(x - u) + abs(y - v) for x, y in flagged) < 5 for u, v in ((387, 361), (421, 390)))
    before = _main(monkeypatch, frame, profile)
    assert len(before.dice) == 5 and not _near(before, 421, 389)
