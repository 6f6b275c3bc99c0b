"""Does a die's face end at its edges? A check on the learned reader's ``ok`` dice that can only flag.

A real die's top face ends at the die's edges, on every side alike. A thing the reader takes for a die
often does not: the corner of a card or a sheet of paper (its corner's dot and a printed dot read as a 2)
goes on past the die's box on two sides that meet, and ends on the other two; a coin whose glint is read
as a 1 goes on past the box on the two sides away from the glint (a die's lone pip sits in the middle of
its face, so a 1 has its face end alike all round). Measured in 8-bit Lab against the median colour of the
box's middle (the face): a band outside each side of the box, ``NEAR`` and ``FAR`` of the die's side
out, is "the face going on" when its median colour is within ``[anydie] face_same`` of the face's, and "the
face ending" when the near band's is farther than ``face_ends``. Issue 25, docs/games.md "No drawn thing
called ok on photos not tuned on".

>>> import numpy as np
>>> frame = np.full((120, 120, 3), 90, np.uint8)
>>> frame[40:120, 40:120] = 235                     # a white card, its corner at (40, 40)
>>> runs_on_a_corner(frame, (30, 30, 30, 30), 8.0, 15.0, far=True)
True
>>> frame[:] = 90; frame[45:75, 45:75] = 235        # a white die on a dark table
>>> runs_on_a_corner(frame, (45, 45, 30, 30), 8.0, 15.0, far=True)
False
"""

from __future__ import annotations

import cv2
import numpy as np

#: the bands outside each side of the box, in the die's side: near (from, to) and far
NEAR = (0.05, 0.3)
FAR = (0.3, 0.6)
#: the bands' extent along the side (fractions of it) and the face's square (fractions of the box)
ALONG = (0.2, 0.8)
FACE = (0.25, 0.75)
#: the two sides that meet at each corner, and each side's opposite
CORNERS = (("l", "t"), ("l", "b"), ("r", "t"), ("r", "b"))
OPPOSITE = {"l": "r", "r": "l", "t": "b", "b": "t"}


def _bands(box: tuple[int, int, int, int], band: tuple[float, float]) -> dict[str, tuple[float, float, float, float]]:
    """Per side (l, r, t, b), the band ``band`` of the die's side outside the box, as (x0, y0, x1, y1)."""
    x, y, w, h = box
    s = max(w, h)
    lo, hi = band
    a0, a1 = ALONG
    return {"l": (x - hi * s, y + a0 * h, x - lo * s, y + a1 * h),
            "r": (x + w + lo * s, y + a0 * h, x + w + hi * s, y + a1 * h),
            "t": (x + a0 * w, y - hi * s, x + a1 * w, y - lo * s),
            "b": (x + a0 * w, y + h + lo * s, x + a1 * w, y + h + hi * s)}


def side_distances(frame: np.ndarray, box: tuple[int, int, int, int]) -> dict[str, float | None]:
    """The median Lab distance from the face's colour (the box's middle) of each band outside the box: keys
    ``n`` or ``f`` (near, far) and the side (``nl``, ``fr``...); ``None`` where the band lies outside the frame."""
    x, y, w, h = box
    s = max(w, h)
    height, width = frame.shape[:2]
    # only the die and its surroundings are converted to Lab
    x0, y0 = max(0, int(x - FAR[1] * s) - 1), max(0, int(y - FAR[1] * s) - 1)
    x1, y1 = min(width, int(x + w + FAR[1] * s) + 2), min(height, int(y + h + FAR[1] * s) + 2)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return {}
    lab = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_BGR2Lab).astype(np.float32)

    def patch(bx0: float, by0: float, bx1: float, by1: float) -> np.ndarray | None:
        c0, r0 = max(0, int(round(bx0)) - x0), max(0, int(round(by0)) - y0)
        c1, r1 = min(x1, int(round(bx1))) - x0, min(y1, int(round(by1))) - y0
        if c1 - c0 < 1 or r1 - r0 < 1:
            return None
        return lab[r0:r1, c0:c1].reshape(-1, 3)

    f0, f1 = FACE
    face = patch(x + f0 * w, y + f0 * h, x + f1 * w, y + f1 * h)
    if face is None:
        return {}
    colour = np.median(face, axis=0)
    out: dict[str, float | None] = {}
    for tag, band in (("n", NEAR), ("f", FAR)):
        for side, rect in _bands(box, band).items():
            px = patch(*rect)
            out[tag + side] = None if px is None else float(np.median(np.linalg.norm(px - colour, axis=1)))
    return out


def runs_on_a_corner(frame: np.ndarray, box: tuple[int, int, int, int], same: float, ends: float, *,
                     far: bool) -> bool:
    """The face goes on past the box on two sides that meet (their near band, and with ``far`` their far band
    too, within ``same`` of the face's colour) and ends on the other two (their near band farther than ``ends``)."""
    d = side_distances(frame, box)
    bands = "nf" if far else "n"

    def goes(side: str) -> bool:
        return all(d.get(t + side) is not None and d[t + side] < same for t in bands)

    def ends_(side: str) -> bool:
        return d.get("n" + side) is not None and d["n" + side] > ends

    return any(goes(a) and goes(b) and ends_(OPPOSITE[a]) and ends_(OPPOSITE[b]) for a, b in CORNERS)


def face_reason(frame: np.ndarray, pips: int, box: tuple[int, int, int, int], same: float, ends: float) -> str | None:
    """Why an ``ok`` die is no die, or ``None``: its face goes on past its box and ends (:func:`runs_on_a_corner`)
    on two sides that meet, near and far (a card's corner) — for a die read as 1, near alone (a coin's glint)."""
    if runs_on_a_corner(frame, box, same, ends, far=True):
        return "the face goes on past the die on two sides: a card's corner?"
    if pips == 1 and runs_on_a_corner(frame, box, same, ends, far=False):
        return "a 1 off the middle of its face: a coin's glint?"
    return None
