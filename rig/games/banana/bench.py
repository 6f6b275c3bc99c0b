"""Banana Moon's part of ``rig bench vision --game banana``: its reader on rendered start rolls."""

from __future__ import annotations

from rig.games.banana.reader import read_start_roll
from rig.games.banana.render import render_start_roll


def rendered(frames: int, params, *, seed: int = 0) -> list[str]:
    """Both dice of ``frames`` rendered start rolls read right, the rolls flagged, and those wrong and not flagged."""
    right = flagged = silent = 0
    for i in range(frames):
        frame, truth = render_start_roll(seed + i)
        start = read_start_roll(frame, params)
        good = (start.white, start.black) == (truth["white"], truth["black"])
        right += good
        flagged += start.status != "ok"
        silent += not good and start.status == "ok"
    if not frames:
        return ["[rendered Banana Moon start rolls] both dice right n/a"]
    return [f"[rendered Banana Moon start rolls] both dice right {right}/{frames} = {100 * right / frames:.1f}%, "
            f"flagged {flagged}/{frames} = {100 * flagged / frames:.1f}%, wrong and not flagged {silent}"]
