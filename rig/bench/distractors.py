"""Things that are not dice, drawn onto photographs: "false dice reported ok" for ``rig bench vision --game
pips --distractors``.

A coin, a ring, a screw head, a knot in the wood, a fingertip and a card corner reaching in from the edge,
each about a die's size, drawn (seeded) where no labelled die lies. A die the reader reports there is a
false die; reported ``ok`` it is the error the rig must never make.

>>> import numpy as np
>>> frame = np.full((240, 320, 3), 120, np.uint8)
>>> boxes = add_distractors(frame, [], 40.0, np.random.default_rng(0))
>>> len(boxes) == len(KINDS) and bool((frame != 120).any())
True
"""

from __future__ import annotations

import cv2
import numpy as np

KINDS = ("coin", "ring", "screw", "knot", "fingertip", "card corner")


def _draw(frame: np.ndarray, kind: str, x: int, y: int, side: float, rng: np.random.Generator) -> tuple[int, int, int, int]:
    r = int(side / 2)
    if kind == "coin":
        tone = rng.uniform(0.6, 1.0)
        cv2.circle(frame, (x, y), r, tuple(int(v * tone) for v in (150, 170, 190)), -1, cv2.LINE_AA)
        cv2.circle(frame, (x, y), max(2, int(r * 0.8)), tuple(int(v * tone) for v in (110, 130, 150)), 1, cv2.LINE_AA)
        cv2.circle(frame, (x - r // 3, y - r // 3), max(1, r // 5), (235, 235, 235), -1, cv2.LINE_AA)  # a glint
    elif kind == "ring":
        cv2.circle(frame, (x, y), int(r * 0.8), (40, 170, 210), max(2, r // 4), cv2.LINE_AA)
    elif kind == "screw":
        cv2.circle(frame, (x, y), int(r * 0.6), (170, 170, 175), -1, cv2.LINE_AA)
        cv2.line(frame, (x - r // 2, y), (x + r // 2, y), (40, 40, 40), max(1, r // 6), cv2.LINE_AA)
        cv2.line(frame, (x, y - r // 2), (x, y + r // 2), (40, 40, 40), max(1, r // 6), cv2.LINE_AA)
    elif kind == "knot":
        for k, tone in enumerate((40, 70, 30, 60)):
            cv2.ellipse(frame, (x, y), (max(1, int(r * (1 - 0.22 * k))), max(1, int(r * 0.6 * (1 - 0.22 * k)))),
                        float(rng.uniform(0, 180)), 0, 360, (tone, tone + 25, tone + 60), -1, cv2.LINE_AA)
    elif kind == "fingertip":
        cv2.ellipse(frame, (x, y), (int(r * 0.7), int(r * 1.4)), float(rng.uniform(0, 180)), 0, 360,
                    (130, 160, 215), -1, cv2.LINE_AA)
        cv2.ellipse(frame, (x, y), (int(r * 0.35), int(r * 0.5)), 0, 0, 360, (170, 190, 235), -1, cv2.LINE_AA)  # nail
    else:  # card corner: white with a printed dot, rounded corner
        cv2.rectangle(frame, (x - r, y - r), (x + 3 * r, y + 3 * r), (235, 235, 235), -1)
        cv2.circle(frame, (x - r, y - r), max(2, r // 3), (0, 0, 0), -1)
        cv2.circle(frame, (x, y), max(2, r // 5), (40, 40, 180), -1, cv2.LINE_AA)
    return x - r, y - r, 2 * r, 2 * r


def add_distractors(frame: np.ndarray, dice_boxes, side: float, rng: np.random.Generator,
                    kinds: tuple[str, ...] = KINDS) -> list[tuple[str, tuple[int, int, int, int]]]:
    """Draw one of each of ``kinds`` into ``frame`` (in place), each ``side`` px across, away from
    ``dice_boxes`` ((x, y, w, h)) and from each other; returns (kind, box) of those drawn."""
    h, w = frame.shape[:2]
    taken = [tuple(b) for b in dice_boxes]
    out = []
    for kind in kinds:
        for _ in range(60):
            x, y = int(rng.uniform(side, w - side)), int(rng.uniform(side, h - side))
            if all(abs(x - (bx + bw / 2)) > (bw / 2 + 1.2 * side) or abs(y - (by + bh / 2)) > (bh / 2 + 1.2 * side)
                   for bx, by, bw, bh in taken):
                box = _draw(frame, kind, x, y, side, rng)
                taken.append(box)
                out.append((kind, box))
                break
    return out
