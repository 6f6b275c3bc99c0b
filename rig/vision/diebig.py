"""A die's box far bigger than the frame's other dice: a check on the learned reader's ``ok`` dice that can only flag.

The dice of one frame lie on one table under one camera: their boxes are near one size. The finder can put one box
around two or more small dice (a box four to five times the frame's dice) and the reader then reads that crop as one
die, surely and wrongly (issue 25, round 18: a 6 read as 2 in a box of 82 px among dice of 16 px). An ``ok`` die whose
box side is more than ``[anydie] big_box`` times the median side of the frame's other ``ok`` dice is flagged, never
dropped. Only ``ok`` dice are compared with: a flagged thing of a pip's size beside a lone die (a 1 the finder is unsure
of, 10 px beside a die of 22 px on a coloured photo) says nothing of the dice's size. With no other ``ok`` die there is
nothing to compare with. Issue 25, docs/games.md "A die's box far bigger than the
frame's other dice (issue 25, round 19)".
"""

from __future__ import annotations

import statistics

from rig.vision.pips import PipDie


def box_side(die: PipDie) -> float:
    """The side of a die's box (its longer edge), frame px."""
    return float(max(die.box[2], die.box[3]))


def big_box_reason(side: float, other_sides: list[float], ratio: float) -> str | None:
    """Why a die of ``side`` px is too big beside dice of ``other_sides`` px (more than ``ratio`` times their median),
    or None (``ratio`` 0, or no other die: not looked at)."""
    if ratio <= 0 or not other_sides:
        return None
    typical = statistics.median(other_sides)
    if typical <= 0 or side <= ratio * typical:
        return None
    return (
        f"box {side / typical:.1f} times the frame's other dice ({side:.0f} px, they {typical:.0f} px): several dice?"
    )


def flag_big_boxes(dice: list[PipDie], ratio: float) -> list[PipDie]:
    """``dice`` with each ``ok`` one whose box is more than ``ratio`` times the median of the other ``ok`` dice's
    flagged (``ratio`` 0: unchanged); the order kept."""
    if ratio <= 0 or len(dice) < 2:
        return list(dice)
    ok = [(i, box_side(d)) for i, d in enumerate(dice) if d.count.status == "ok"]
    out = list(dice)
    for i, side in ok:
        reason = big_box_reason(side, [s for j, s in ok if j != i], ratio)
        if reason:
            out[i] = dice[i].flagged(reason)
    return out
