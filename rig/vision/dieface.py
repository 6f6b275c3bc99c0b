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

from rig.vision.light import _median0

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


class _Bands:
    """The die's surroundings in Lab, each band's median distance from the face's colour worked out when first
    asked for (most dice end on every side: their far bands are never needed). Only the face's square and the bands
    asked for are converted to Lab (the conversion is pixel by pixel: the same values as the whole window's)."""

    def __init__(self, frame: np.ndarray, box: tuple[int, int, int, int]) -> None:
        x, y, w, h = box
        s = max(w, h)
        height, width = frame.shape[:2]
        # the die and its surroundings: the windows are clipped to this
        self.x0, self.y0 = max(0, int(x - FAR[1] * s) - 1), max(0, int(y - FAR[1] * s) - 1)
        self.x1, self.y1 = min(width, int(x + w + FAR[1] * s) + 2), min(height, int(y + h + FAR[1] * s) + 2)
        self.box, self.memo = box, {}
        self.seen = False  # no face: nothing to compare
        if self.x1 - self.x0 < 2 or self.y1 - self.y0 < 2:
            return
        f0, f1 = FACE
        face = self._window(x + f0 * w, y + f0 * h, x + f1 * w, y + f1 * h)
        if face is None:
            return
        self.frame = frame
        self.colour = _median0(self._lab(face).reshape(-1, 3))  # np.median(axis=0)'s values, its machinery aside
        self.seen = True
        self.rects = {"n": _bands(box, NEAR), "f": _bands(box, FAR)}

    def _window(self, bx0: float, by0: float, bx1: float, by1: float) -> tuple[slice, slice] | None:
        c0, r0 = max(0, int(round(bx0)) - self.x0), max(0, int(round(by0)) - self.y0)
        c1, r1 = min(self.x1, int(round(bx1))) - self.x0, min(self.y1, int(round(by1))) - self.y0
        return None if c1 - c0 < 1 or r1 - r0 < 1 else (slice(r0, r1), slice(c0, c1))

    def _lab(self, win: tuple[slice, slice]) -> np.ndarray:
        """The window (:meth:`_window`, rows and columns from the surroundings' corner) in Lab, float32."""
        rows, cols = win
        part = self.frame[self.y0 + rows.start:self.y0 + rows.stop, self.x0 + cols.start:self.x0 + cols.stop]
        return cv2.cvtColor(part, cv2.COLOR_BGR2Lab).astype(np.float32)

    def __call__(self, key: str) -> float | None:
        """``key`` band (``n`` or ``f``, then the side: ``nl``, ``fb``...): its median distance; ``None`` outside
        the frame."""
        if not self.seen:
            return None
        if key not in self.memo:
            win = self._window(*self.rects[key[0]][key[1]])
            # each of the band's pixels' distance from the face's colour, and their median
            self.memo[key] = None if win is None else _median_distance(self._lab(win) - self.colour)
        return self.memo[key]


def _median_distance(d: np.ndarray) -> float:
    """``float(_median0(np.sqrt((d ** 2).sum(axis=2)).ravel()))`` of an h x w x 3 float32 array, the same float: the
    squares added in numpy's order for a last axis of 3, the median taken of the squared distances and the square root
    of its one or two middle values only (the root keeps the order; round 29, a third of the band's time)."""
    sq = (d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2).ravel()
    n = sq.shape[0]
    m = n // 2
    if n % 2:
        return float(np.sqrt(np.partition(sq, m)[m]))
    part = np.partition(sq, (m - 1, m))
    return float((np.sqrt(part[m - 1]) + np.sqrt(part[m])) / 2)


def surroundings(frame: np.ndarray, box: tuple[int, int, int, int]) -> _Bands:
    """The die's face colour and its bands' distances from it, each worked out once when first asked for: one for
    :func:`face_reason` and :func:`face_all_round` of the same die (``bands``)."""
    return _Bands(frame, box)


def side_distances(frame: np.ndarray, box: tuple[int, int, int, int]) -> dict[str, float | None]:
    """The median Lab distance from the face's colour (the box's middle) of each band outside the box: keys
    ``n`` or ``f`` (near, far) and the side (``nl``, ``fr``...); ``None`` where the band lies outside the frame
    (empty when the face does)."""
    bands = _Bands(frame, box)
    return {} if not bands.seen else {t + side: bands(t + side) for t in "nf" for side in "lrtb"}


def _corner(d, same: float, ends: float, far: bool) -> bool:
    bands = "nf" if far else "n"

    def ends_(side: str) -> bool:
        v = d("n" + side)
        return v is not None and v > ends

    def goes(side: str) -> bool:
        return all((v := d(t + side)) is not None and v < same for t in bands)

    # the cheap near bands first: the far ones only where two meeting sides go on and the other two end
    return any(ends_(OPPOSITE[a]) and ends_(OPPOSITE[b]) and goes(a) and goes(b) for a, b in CORNERS)


def runs_on_a_corner(frame: np.ndarray, box: tuple[int, int, int, int], same: float, ends: float, *,
                     far: bool) -> bool:
    """The face goes on past the box on two sides that meet (their near band, and with ``far`` their far band
    too, within ``same`` of the face's colour) and ends on the other two (their near band farther than ``ends``)."""
    return _corner(_Bands(frame, box), same, ends, far)


def face_all_round(frame: np.ndarray, box: tuple[int, int, int, int], same: float, bands: _Bands | None = None) -> bool:
    """The box's middle is the colour of all its surroundings: every band, near and far on each side, within
    ``same`` of it (the "face" is the floor; :mod:`rig.vision.diesplit`). False when a band lies outside the frame.
    ``bands``: the die's :func:`surroundings`, if made already."""
    d = bands or _Bands(frame, box)
    return d.seen and all((v := d(t + side)) is not None and v < same for t in "nf" for side in "lrtb")


def face_reason(frame: np.ndarray, pips: int, box: tuple[int, int, int, int], same: float, ends: float,
                bands: _Bands | None = None) -> str | None:
    """Why an ``ok`` die is no die, or ``None``: its face goes on past its box and ends (:func:`runs_on_a_corner`)
    on two sides that meet, near and far (a card's corner) — for a die read as 1, near alone (a coin's glint).
    ``bands``: the die's :func:`surroundings`, if made already."""
    d = bands or _Bands(frame, box)
    if _corner(d, same, ends, far=True):
        return "the face goes on past the die on two sides: a card's corner?"
    if pips == 1 and _corner(d, same, ends, far=False):
        return "a 1 off the middle of its face: a coin's glint?"
    return None


#: :func:`outline_elongation`: the window around the box (its side out), the least Lab distance from the floor that
#: is the object (Otsu's threshold when higher), and the least share of the box the object must cover
OUTLINE_GROW = 0.35
OUTLINE_CONTRAST = 12.0
OUTLINE_AREA = 0.3


def outline_part(frame: np.ndarray, box: tuple[int, int, int, int], *, clipped: bool = False
                 ) -> tuple[np.ndarray, dict[str, bool], dict[str, bool]] | None:
    """The thing in the box, seen in a window :data:`OUTLINE_GROW` of its side out: the pixels farther from the floor
    (the median of the window's border) than Otsu's threshold (at least :data:`OUTLINE_CONTRAST`), the part at the box's
    middle (or nearest to it), holes not filled; and per side of the window (``l``, ``r``, ``t``, ``b``) whether the
    part reaches it and whether the frame's edge cut the window there. ``None`` when nothing is there, or (``clipped``
    False) the window leaves the frame; ``clipped``: the window cut to the frame, the floor taken on its sides inside
    the frame only (``None`` when none is)."""
    x, y, w, h = box
    s = max(w, h)
    g = int(round(OUTLINE_GROW * s))
    height, width = frame.shape[:2]
    out = {"l": x - g < 0, "t": y - g < 0, "r": x + w + g > width, "b": y + h + g > height}
    if s < 4 or any(out.values()) and not clipped:
        return None
    x0, y0, x1, y1 = max(0, x - g), max(0, y - g), min(width, x + w + g), min(height, y + h + g)
    if x1 - x0 < 2 or y1 - y0 < 2 or all(out.values()):
        return None
    lab = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_BGR2Lab).astype(np.float32)
    sides = {"t": lab[0], "b": lab[-1], "l": lab[:, 0], "r": lab[:, -1]}
    floor = _median0(np.concatenate([sides[k] for k in "tblr" if not out[k]]))  # np.median(axis=0)'s values
    d = lab - floor
    dist = np.sqrt(d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)  # (d ** 2).sum(axis=2), its order, ~15x quicker
    otsu = cv2.threshold(np.clip(dist, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
    n, labels = cv2.connectedComponents((dist > max(OUTLINE_CONTRAST, otsu)).astype(np.uint8), connectivity=8)
    ys, xs = np.nonzero(labels)
    if not len(ys):
        return None
    cy, cx = (labels.shape[0] // 2, labels.shape[1] // 2) if not clipped else (y + h / 2 - y0, x + w / 2 - x0)
    near = int(np.argmin((ys - cy) ** 2 + (xs - cx) ** 2))  # the part at the middle (or nearest to it)
    part = (labels == labels[ys[near], xs[near]]).astype(np.uint8)
    reaches = {"t": bool(part[0].any()), "b": bool(part[-1].any()), "l": bool(part[:, 0].any()),
               "r": bool(part[:, -1].any())}
    return part, reaches, out


def whole_outline(part: np.ndarray, box: tuple[int, int, int, int]) -> tuple[np.ndarray, float] | None:
    """The largest outer outline of a part (:func:`outline_part`'s) and the area it encloses (holes filled), or
    ``None`` when that covers less than :data:`OUTLINE_AREA` of the box."""
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(contours, key=cv2.contourArea)
    area = float(cv2.drawContours(np.zeros_like(part), [outline], -1, 1, -1).sum())
    return (outline, area) if area >= OUTLINE_AREA * max(box[2], box[3]) ** 2 else None


def outline_elongation(frame: np.ndarray, box: tuple[int, int, int, int]) -> float | None:
    """How elongated the thing in the box is: the square root of its second moments' ratio (1 for a square at any
    turn, as for any regular polygon; 1.67 for an ellipse of axes 1 and 0.6). The thing: :func:`outline_part`, its
    holes filled. ``None`` when it cannot be told: the window leaves the frame, the part reaches the window's border
    (it touches something) or covers less than :data:`OUTLINE_AREA` of the box."""
    seen = outline_part(frame, box)
    if seen is None or any(seen[1].values()):
        return None
    return part_elongation(seen[0], box)


def part_elongation(part: np.ndarray, box: tuple[int, int, int, int]) -> float | None:
    """:func:`outline_elongation` of a part :func:`outline_part` found in ``box`` touching nothing."""
    s = max(box[2], box[3])
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = cv2.drawContours(np.zeros_like(part), contours, -1, 1, -1)
    m = cv2.moments(filled, binaryImage=True)
    if m["m00"] < OUTLINE_AREA * s * s:
        return None
    a, b, c = m["mu20"] / m["m00"], m["mu11"] / m["m00"], m["mu02"] / m["m00"]
    root = np.sqrt(((a - c) / 2) ** 2 + b * b)
    return float(np.sqrt(((a + c) / 2 + root) / max((a + c) / 2 - root, 1e-9)))
