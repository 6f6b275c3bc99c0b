"""A die leaning on a wall with its top turned to the lens: its side face, of die-body colour, beyond the top's
outer edge (issue 24, round 22).

A die leaning 25-31 degrees on a tray wall with its top turned towards the lens looks square and die-sized from above
(twin 10504, 10511, 10000, 10007, 10303 turn 3, read ``ok``). Perspective shows a flat die's side face only on the
side of its top **towards** the frame's centre (the face that faces the lens); beyond the **outer** edge a flat die
shows floor, its own shadow or the wall. The leaning die shows its wall-side face there, turned up by the lean: a band
joined to the top, as long as its side, whose colour is the die body's (lit or in shade) where the empty box shows
floor or the wall's shade band. Lightness does not part it (the face lies in the wall's shade band, as dark as the
empty box there or lighter): its hue does. A strip pixel counts as die body where its (a, b) lies nearer the
profile's die body or shaded die body (``edge``) than the empty box's own (a, b) there, by a margin. The empty box's
picture is the one calibration keeps beside the profile (:func:`rig.vision.card_empty.kept`); without one nothing
is judged. Where the frame's light changed since calibration, each strip is judged as the frame shows it and with
the change taken out (round 25: lamp x0.8 and warmer light turn a leaning die's face fainter).

Called by :func:`rig.vision.dice.read_labels` right after :func:`rig.vision.dice_lampside.side_face_flags`: it
adds a reason and removes none (docs/vision.md, round 22).
"""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.dice_crease import REASON as CREASE_REASON
from rig.vision.dice_crease import creased_dice
from rig.vision.dice_lampside import _SIDES, STRIP, neighbour_on_side, kept_with_frame, strips
from rig.vision.light import profile_map

#: a side of a die's box faces outward when its direction carries at least this share of the die's offset from the
#: frame's centre (the nadir taken there, as :mod:`rig.vision.dice_upright` takes it)
OUTWARD = 0.5
#: a strip pixel is die body where its (a, b) lies this much nearer the die body's (or shaded body's) than the empty
#: box's there (Lab units, OpenCV's 8-bit scale)
NEARER = 4.0
#: ... and an outward strip this much die body (share of its pixels) is a leaning die's side face (seen twin sets,
#: same light: the five leaning dice of ``ok`` turns 0.43-0.66; flat dice of ``ok`` turns at most 0.37)
FACE = 0.4
#: a leaning die's top: both sides of its box this share of the die side (the lean foreshortens it a little; a flat
#: die's box holds what perspective shows of its walls too, larger; a box round part of a top is smaller). Seen sets,
#: same light: the leaning dice 0.86-1.02 of the die's size; flat dice of ``ok`` turns whose outward strip passes
#: :data:`FACE` 0.45 (a wall's shade cutting the top in two), 0.62, 1.14 (a die turned 30 degrees in the frame)
TOP_SIZE = (0.8, 1.08)
#: a fainter outward strip, this much die body, is a leaning die's side face too where the band next to the box
#: (:data:`BAND`) is lit: its lightness at least :data:`LIGHTER` times the empty box's there (round 24). The leaning
#: die's face, turned up by the lean, lies where the empty box shows the wall's shade; what a flat die shows there (its
#: shadow, colour bled onto the floor, a top's rim the box left out) is as dark as the empty box or darker. Seen
#: thrown sets 10000-10711, every light, ``ok`` turns, strips 0.3-0.4 die body: the leaning dice 1.37-10.4, flat dice
#: at most 1.29 but one (10604 turn 2 at lamp x1.2, 1.49)
FAINT_FACE = 0.3
LIGHTER = 1.3
#: the band next to the box whose lightness :data:`LIGHTER` judges, in die sides (4 px on a 40 px die)
BAND = 0.1
#: ... and that band die body at both ends of the side, this share of each end quarter: a leaning die's face runs the
#: whole side; a corner of a flat die turned in the frame, which its axis-aligned box cuts off, pokes out in between
#: (2D 45002: a die turned 45 degrees, its corner lit beyond the box)
ENDS = 0.3
#: an outward strip the frame's edge cuts to less than this share of its depth (:data:`STRIP`) is not judged: what
#: is left is the top's own blurred rim beyond the read box (2D 46010 turn 17: a flat die at the frame's bottom edge,
#: 3 of its strip's 20 rows in the frame, 0.67 die body)
WHOLE_STRIP = 0.5
REASON = "cocked die (its side face beyond the top's outer edge)"
#: the strips are judged as the frame shows them only where its white balance is no cooler than this (the floor's
#: warmth over calibration's, :attr:`rig.vision.light.Light.warm`): a cooler light turns a warm floor's chroma toward
#: the die body's, every flat die's floor strip "die body" as shown (2D 55006 and 55011 at white balance x0.77: 43
#: and 36 flags on 24 turns, each from that look alone), the change taken out none (round 31)
AS_SHOWN_WARM = 0.9


def empty_chroma(empty_lab: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """The empty box's picture (uint8 Lab, any size) as its (a, b) at ``shape`` (h, w), float32 h x w x 2; made once
    a picture and frame size (:func:`rig.vision.light.profile_map`, kept by the picture)."""

    def build() -> np.ndarray:
        lab = cv2.resize(empty_lab, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
        return np.ascontiguousarray(lab[..., 1:], dtype=np.float32)

    return profile_map("wallside_empty", empty_lab, tuple(shape), build)


def empty_light(empty_lab: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """The empty box's picture (uint8 Lab, any size) as its lightness L at ``shape`` (h, w), float32 h x w; made once
    a picture and frame size, as :func:`empty_chroma`."""

    def build() -> np.ndarray:
        lab = cv2.resize(empty_lab, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
        return np.ascontiguousarray(lab[..., 0], dtype=np.float32)

    return profile_map("wallside_empty_light", empty_lab, tuple(shape), build)


def lab_unlit(frame: np.ndarray, rect: tuple[int, int, int, int], channels) -> np.ndarray:
    """The frame's pixels in ``rect`` (y0, y1, x0, x1) as uint8 Lab, each of B, G, R divided by the frame's light
    change ``channels`` (:attr:`rig.vision.light.Light.channels`: the floor's change since calibration) where given:
    the colours and lightness as the calibrated light shows them, as the empty box's picture was taken (round 25)."""
    y0, y1, x0, x1 = rect
    crop = np.ascontiguousarray(frame[y0:y1, x0:x1])
    if channels is not None:
        crop = cv2.multiply(crop, tuple(1.0 / c for c in channels) + (0.0,), dtype=cv2.CV_8U)
    return cv2.cvtColor(crop, cv2.COLOR_BGR2Lab)


def _band(box, name: str, side: float, shape: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The band :data:`BAND` die sides wide next to side ``name`` of ``box`` within its strip (y0, y1, x0, x1), or None
    where the strip leaves a frame of ``shape``."""
    rect = strips(box, side, shape).get(name)
    if rect is None:
        return None
    y0, y1, x0, x1 = rect
    n = max(1, round(BAND * side))
    return {
        "L": (y0, y1, max(x0, x1 - n), x1),
        "R": (y0, y1, x0, min(x1, x0 + n)),
        "T": (max(y0, y1 - n), y1, x0, x1),
        "B": (y0, min(y1, y0 + n), x0, x1),
    }[name]


def band_lift(frame: np.ndarray, empty_l: np.ndarray, box, name: str, side: float, channels=None) -> float | None:
    """The frame's lightness over the empty box's (mean L) in the band :data:`BAND` die sides wide next to side
    ``name`` of ``box``, within its strip, the frame's light change ``channels`` taken out (:func:`lab_unlit`); None where
    the strip leaves the frame."""
    band = _band(box, name, side, frame.shape[:2])
    if band is None:
        return None
    y0, y1, x0, x1 = band
    light = lab_unlit(frame, band, channels)[..., 0]
    return float(light.mean()) / max(1.0, float(empty_l[y0:y1, x0:x1].mean()))


def band_ends(frame: np.ndarray, empty_ab: np.ndarray, box, name: str, side: float, body_ab, channels=None) -> float:
    """The die-body share (:data:`NEARER`) of the band :data:`BAND` die sides wide next to side ``name`` of ``box``
    in each end quarter of the side's length: the smaller of the two (0.0 where the strip leaves the frame); the
    frame's light change ``channels`` taken out (:func:`lab_unlit`)."""
    band = _band(box, name, side, frame.shape[:2])
    if band is None:
        return 0.0
    y0, y1, x0, x1 = band
    to_empty, to_body = _distances(frame, empty_ab, band, body_ab, channels)
    body = to_body + NEARER < to_empty
    along = body.mean(axis=1) if name in ("L", "R") else body.mean(axis=0)
    q = max(1, len(along) // 4)
    return float(min(along[:q].mean(), along[-q:].mean()))


def outward_sides(x: float, y: float, shape: tuple[int, int]) -> list[str]:
    """The sides of a die's box at (x, y) that face away from the centre of a frame of ``shape`` (h, w)."""
    rx, ry = x - shape[1] / 2, y - shape[0] / 2
    norm = float(np.hypot(rx, ry))
    if norm == 0.0:
        return []
    return [name for name, (vx, vy) in _SIDES.items() if (vx * rx + vy * ry) / norm >= OUTWARD]


def body_share(
    frame: np.ndarray, empty_ab: np.ndarray, box, name: str, side: float, body_ab, channels=None
) -> float | None:
    """The share of die-body pixels (:data:`NEARER`) in the strip beside side ``name`` of ``box`` (x, y, w, h; frame
    px), or None where the strip leaves the frame. ``body_ab``: the die body's colours' (a, b), N x 2; ``channels``:
    the frame's light change, taken out (:func:`lab_unlit`)."""
    return StripLooks(frame, empty_ab, body_ab, side).body_share(box, name, channels)


class StripLooks:
    """One frame's strips beyond the dice's sides (:func:`rig.vision.dice_lampside.strips`) as Lab (float32) with
    their (a, b) distances from the empty box's and the die body's (:func:`ab_distances`), each strip and look (the
    light change ``channels`` taken out or not) made once: :func:`wall_side_faces` and
    :func:`rig.vision.dice_leanwall.leaning_on_wall` read the same strips (issue 24, round 37). Made for one frame by
    the caller and passed along; a next frame makes its own."""

    def __init__(self, frame: np.ndarray, empty_ab: np.ndarray, body_ab, side: float):
        self.frame, self.empty_ab, self.body_ab, self.side = frame, empty_ab, body_ab, side
        self._made: dict = {}

    def strip(self, box, name: str, channels=None):
        """``(rect, lab, to_empty, to_body)`` of the strip beside side ``name`` of ``box``, ``channels`` taken out,
        made the first time it is asked; None where the strip leaves the frame."""
        key = (tuple(box), name, channels)
        if key not in self._made:
            rect = strips(box, self.side, self.frame.shape[:2]).get(name)
            self._made[key] = None if rect is None else (rect, *self.measure(rect, channels))
        return self._made[key]

    def body_share(self, box, name: str, channels=None) -> float | None:
        """:func:`body_share` of the strip beside side ``name`` of ``box``."""
        made = self.strip(box, name, channels)
        if made is None:
            return None
        _, _, to_empty, to_body = made
        return float(np.mean(to_body + NEARER < to_empty))

    def within(self, box, name: str, rect, channels=None):
        """``(lab, to_empty, to_body)`` in ``rect`` (y0, y1, x0, x1), a part of the strip beside side ``name`` of
        ``box``: cut from that strip where it was made already in that look, else made for ``rect`` alone."""
        made = self._made.get((tuple(box), name, channels))
        if made is not None:
            (y0, y1, x0, x1), lab, to_empty, to_body = made
            a0, a1, b0, b1 = rect
            if y0 <= a0 and a1 <= y1 and x0 <= b0 and b1 <= x1:
                part = np.s_[a0 - y0 : a1 - y0, b0 - x0 : b1 - x0]
                return lab[part], to_empty[part], to_body[part]
        return self.measure(rect, channels)

    def measure(self, rect, channels=None):
        """``(lab, to_empty, to_body)`` of ``rect`` (y0, y1, x0, x1), made now: the frame's pixels there as float32
        Lab, ``channels`` taken out (:func:`lab_unlit`), and their :func:`ab_distances`."""
        y0, y1, x0, x1 = rect
        lab = lab_unlit(self.frame, rect, channels).astype(np.float32)
        return (lab, *ab_distances(lab[..., 1:], self.empty_ab[y0:y1, x0:x1], self.body_ab))


def _distances(frame: np.ndarray, empty_ab: np.ndarray, rect, body_ab, channels=None) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's (a, b) distance, in ``rect`` (y0, y1, x0, x1) of ``frame`` (B, G, R), from the empty box's there
    and from the nearest of the die body's colours ``body_ab`` (N x 2), float32: ``np.linalg.norm(ab - other, axis=2)``
    and the least of those over ``body_ab``, the same numbers (the squares' sum of two float32, its root), without
    norm's sum over a last axis of two (issue 24, round 25: 27 against 97 us a 40 x 12 strip, 72 against 147 at 80 x 24)."""
    y0, y1, x0, x1 = rect
    return ab_distances(lab_unlit(frame, rect, channels)[..., 1:].astype(np.float32), empty_ab[y0:y1, x0:x1], body_ab)


def ab_distances(ab: np.ndarray, other: np.ndarray, body_ab) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's (a, b) (``ab``, float32 ... x 2) distance from ``other``'s there and from the nearest of the die
    body's colours ``body_ab`` (N x 2), as :func:`_distances` gives them."""
    return _norm2(ab - other), _norm2(ab - np.asarray(body_ab)[:, None, None, :]).min(axis=0)


def _norm2(d: np.ndarray) -> np.ndarray:
    """``np.linalg.norm(d, axis=-1)`` of (..., 2) differences: the same numbers, in their type."""
    a, b = d[..., 0], d[..., 1]
    return np.sqrt(a * a + b * b)


def cut_by_frame(box, name: str, side: float, shape: tuple[int, int]) -> bool:
    """Whether the frame's edge cuts the strip beyond side ``name`` of ``box`` to less than :data:`WHOLE_STRIP` of its
    depth (or leaves none of it)."""
    rect = strips(box, side, shape).get(name)
    if rect is None:
        return True
    y0, y1, x0, x1 = rect
    depth = (y1 - y0) if name in ("T", "B") else (x1 - x0)
    return depth < WHOLE_STRIP * max(3, round(STRIP * side))


def wall_side_faces(frame_bgr: np.ndarray, empty_lab: np.ndarray, dice, side: float, body_ab, channels=None,
                    as_shown: bool = True, looks: StripLooks | None = None) -> list:
    """The dice of ``dice`` (not read cocked) with a die-body band beyond an outer edge (a strip the frame leaves
    whole enough, :data:`WHOLE_STRIP`) and no die ahead there: a strip :data:`FACE` die body, or :data:`FAINT_FACE`
    with its band next to the box lit (:data:`LIGHTER`), as the frame shows it or, where the frame's light change
    ``channels`` is given, with it taken out (:func:`lab_unlit`; round 25: the change taken out turns some strips fainter,
    at lamp x1.2, and none that the frame shows is lost). In the look as the frame shows it, a faint strip's band is
    lit in that look and with the change taken out as well (round 28): a brighter light lifts every band by itself
    (2D 44006 at exposure x1.2 and x1.3: flat dice's bands 1.35-1.44 as shown); a flag only ever goes. ``as_shown``
    False: the look as the frame shows it is left out where ``channels`` is given (:data:`AS_SHOWN_WARM`). ``looks``:
    the frame's :class:`StripLooks`, shared with the other checks that read these strips (made here where not given)."""
    lights = (None,) if channels is None else (None, channels) if as_shown else (channels,)
    found = []
    for d in dice:
        if d.cocked or not TOP_SIZE[0] * side <= min(d.box[2:]) <= max(d.box[2:]) <= TOP_SIZE[1] * side:
            continue
        for name in outward_sides(d.x, d.y, frame_bgr.shape[:2]):
            if neighbour_on_side(d, dice, name, side) or cut_by_frame(d.box, name, side, frame_bgr.shape[:2]):
                continue
            if looks is None:
                looks = StripLooks(frame_bgr, empty_chroma(empty_lab, frame_bgr.shape[:2]), body_ab, side)
            if any(_side_face(looks, empty_lab, d.box, name, c, channels) for c in lights):
                found.append(d)
                break
    return found


def _side_face(looks: StripLooks, empty_lab, box, name: str, channels, change=None) -> bool:
    """Whether the strip beside side ``name`` of ``box`` is a leaning die's side face (:func:`wall_side_faces`), the
    light change ``channels`` taken out where given; a faint strip's band lit (:data:`LIGHTER`) with ``channels`` taken
    out and, where the frame's light change ``change`` is another, with it taken out too."""
    share = looks.body_share(box, name, channels)
    if share is None or share < FAINT_FACE:
        return False
    if share >= FACE:
        return True
    frame, empty_ab, body_ab, side = looks.frame, looks.empty_ab, looks.body_ab, looks.side
    lights = (channels,) if change is None or change is channels else (channels, change)
    lifts = [band_lift(frame, empty_light(empty_lab, frame.shape[:2]), box, name, side, c) for c in lights]
    if None in lifts or min(lifts) < LIGHTER:
        return False
    return band_ends(frame, empty_ab, box, name, side, body_ab, channels) >= ENDS


def wall_side_flags(work, profile, dice, looks: StripLooks | None = None) -> list:
    """:data:`REASON` at each die :func:`wall_side_faces` finds in ``work``'s frame, as flags; none without the frame
    or the empty box's picture kept for ``profile``. ``looks``: the frame's :func:`strip_looks`, where the caller shares
    them (:func:`rig.vision.dice_leanwall.wall_flags`)."""
    from rig.vision.dice_flag import Flag

    empty = kept_with_frame(work, profile)
    if empty is None:
        return []
    if looks is None:
        looks = strip_looks(work, profile, empty)
    side, body_ab = looks.side, looks.body_ab
    channels = light_change(work.light)
    as_shown = work.light is None or work.light.warm >= AS_SHOWN_WARM
    faces = wall_side_faces(work.frame, empty.lab, dice, side, body_ab, channels, as_shown, looks)
    creases = creased_dice(work.frame, looks.empty_ab, dice, side, body_ab, NEARER, outward_sides, faces)
    return [Flag(REASON, d.x, d.y) for d in faces] + [Flag(CREASE_REASON, d.x, d.y) for d in creases]


def strip_looks(work, profile, empty) -> StripLooks:
    """The :class:`StripLooks` of ``work``'s frame against the empty box's picture ``empty`` kept for ``profile``
    (:func:`rig.vision.dice_lampside.kept_with_frame`), its die body's colours the profile's body and shaded body."""
    body_ab = np.array([profile.body.mean[1:], profile.edge.mean[1:]], np.float32)
    return StripLooks(work.frame, empty_chroma(empty.lab, work.frame.shape[:2]), body_ab, work.side * work.factor)


def light_change(light) -> tuple[float, float, float] | None:
    """The frame's light change since calibration to take out of the strips (B, G, R), or None: none measured
    (a profile without a floor grid), too little floor seen to trust it, or within the camera's wobble
    (:attr:`rig.vision.light.Light.changed`: the frame read as calibrated)."""
    if light is None or not light.reliable or not light.changed:
        return None
    return light.channels
