"""Crops of tuning photos (never the held-out split) for the pip reader's tests, as the benchmark shows them."""

from pathlib import Path

import cv2

HERE = Path(__file__).parent


def read_x15(name: str, truth: list[tuple[int, float, float]]) -> list[tuple[int, str, list[int]]]:
    """The x1.5 frame of tuning photo ``name`` read (``name``-x1.5-source.jpg: the part of the photo the benchmark's
    x1.5 frame shows, rig.bench.pips.scaled_frame, kept at its own size with two pixels about it, JPEG 95, scaled here
    as the benchmark scales it): each die's pips, status and the labelled dice (``truth``: pips, x, y) its box holds."""
    from rig.vision.anydie import AnyDieParams, read_pip_dice

    source = cv2.imread(str(HERE / f"{name}-x1.5-source.jpg"))
    frame = cv2.resize(source, (648, 486), interpolation=cv2.INTER_LINEAR)[3:483, 4:644]
    out = []
    for die in read_pip_dice(frame, AnyDieParams()).dice:
        x, y, w, h = die.box
        out.append((die.pips, die.count.status, [v for v, tx, ty in truth if x <= tx <= x + w and y <= ty <= y + h]))
    return out
