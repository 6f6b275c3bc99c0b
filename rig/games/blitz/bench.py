"""Würfelblitz's part of ``rig bench vision --game blitz``: its reader on rendered throws."""

from __future__ import annotations

from rig.games.blitz.reader import read_blitz
from rig.games.blitz.render import render_blitz


def rendered(frames: int, params, *, seed: int = 0) -> list[str]:
    """Every die's colour and pips (or dot) on ``frames`` rendered throws, and whole throws right."""
    dice = right = throws_right = 0
    for i in range(frames):
        frame, truth = render_blitz(seed + i, white_dice=2 + i % 2)
        reading = read_blitz(frame, params)
        all_right = len(reading.dice) == len(truth)
        for t in truth:
            dice += 1
            hit = [d for d in reading.dice if abs(d.centre[0] - t.centre[0]) < t.box[2] / 2
                   and abs(d.centre[1] - t.centre[1]) < t.box[3] / 2]
            ok = bool(hit) and (hit[0].color, hit[0].pips, hit[0].dot) == (t.color, t.pips, t.dot)
            right += ok
            all_right &= ok
        throws_right += all_right
    return [f"[rendered Würfelblitz throws] dice right (colour + pips/dot) {_pct(right, dice)}, "
            f"whole throws right {_pct(throws_right, frames)}"]


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} = {100 * part / whole:.1f}%" if whole else "n/a"
