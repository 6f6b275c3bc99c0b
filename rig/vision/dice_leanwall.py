"""A die leaning past 45 degrees on a tray wall, read as a flat die: its body where a flat die shows floor (issue 24,
round 35).

The die a throw leans on the wall and that settles past 45 degrees stands on an edge about 14 mm from the wall: the
face most up (the one read) is a former side face tilted 22-34 degrees *away* from the wall, square and die-sized,
its edges along the wall's; the former top faces the wall between it and the wall (round 34's cockmiss census: every
unflagged truly cocked die of twin 11600-11711 was one). Perspective shows a flat die's side face only towards the
frame's centre; beyond its outer edge a flat die shows floor, the wall's foot, its own shadow. Beyond the leaning
die's outer edge lies its own body: dark (it faces the wall) and of the die's hue where the empty box shows floor or
wall. Judged on the outward side of the top's box (:func:`rig.vision.dice_wallside.outward_sides`) whose strip
:data:`DEPTH` die sides deep holds the most die body (a pixel whose (a, b) lies :data:`NEARER` nearer the die body's
or shaded body's than the empty box's there), the frame's light change taken out: a strip whose median (a, b) lies
:data:`UNLIKE` or more from the empty box's, whose median lightness is :data:`DARK` of the empty box's or less and
that holds :data:`BODY` die body or more is the die's body, not floor. Only a die by a wall is judged (its centre less than
:data:`rig.vision.dice_unsupported.WALL_REACH` sides inside the floor's outline found in the empty box, or outside
it), a top that fills its box (:data:`FILLS`; a flat die turned in the frame shows its own corners and side faces
beyond the box), with no die read ahead on that side. Added after the second look (it frees none of these).

That alone flags flat dice too (round 35): one hugging the wall, its own lit side face there, and one whose shadow on
the floor lies there. The second cue (round 36, :func:`body_in_shade`): the leaning die's former top faces the wall,
so the strip is die body *in shade*, neither the floor's colour darkened (a shadow) nor the die's full colour (a lit
side face), and it ends at the wall's foot (a shadow on the floor runs on).

Fitted on twin 11600-11611, 11700-11711, 11800-11811 (round 35) and 11900-11911 (round 36), every light
(docs/vision.md, "cocklean").
"""

from __future__ import annotations

import numpy as np

from rig.vision.box_walls import inside_by
from rig.vision.dice_flag import Flag
from rig.vision.dice_lampside import kept_with_frame, neighbour_on_side
from rig.vision.dice_unsupported import WALL_REACH, outline
from rig.vision.dice_wallside import StripLooks, ab_distances, empty_chroma, empty_light, lab_unlit, light_change
from rig.vision.dice_wallside import outward_sides, strip_looks, wall_side_flags

REASON = "cocked die (leaning on the wall: its body where the floor should show)"
#: the strip beyond the top's outer edge, in die sides deep (from a pixel beyond the box), and the share of the box's
#: side left out at each end (its corners: the floor beside the die)
DEPTH, ENDS = 0.25, 0.2
#: a strip pixel is die body where its (a, b) lies this much nearer the die body's (or shaded body's) than the empty
#: box's there (Lab units, OpenCV's 8-bit scale; as :data:`rig.vision.dice_wallside.NEARER`)
NEARER = 4.0
#: the strip's median (a, b) this far from the empty box's or farther (fit sets, the missed leaning dice caught: 14.3-
#: 22.1; flat dice without a die ahead: median 5.4, 95 % 18.8 before the other tests)
UNLIKE = 14.0
#: ... its median lightness this share of the empty box's or less (the caught leaning dice 0.11-0.58)
DARK = 0.6
#: ... and this share of its pixels die body or more
BODY = 0.1
#: the top read fills its box at least this much (its area in whole tops over the box's, in die sides squared): the
#: leaning die's read face lies square in the frame, along the wall (fit sets: the missed leaning dice 0.86-1.12, flat
#: dice by a wall median 0.82)
FILLS = 0.85
#: the second cue, on that strip's side (round 36): what lies beyond the top, :data:`PROFILE` die sides out, per die
#: side's depth a pixel at a time, the median across its middle (:data:`ENDS` left out at each end)
PROFILE = 1.2
#: the leaning die's former top there is its body in the wall's shade: its (a, b), :data:`DEPTH` sides deep, lies
#: :data:`SHADED` from the empty box's darkened to the strip's lightness (a shadow's colour: a flat die's shadow, fit
#: sets 5.5-8.0; a flat die's own lit side face hugging the wall keeps the die's full colour, 25-37) and within
#: :data:`BODY_AB` of the die body's (a flat die's shadow on a floor of another hue: 28-37); the leaning dice of the
#: fit sets 8.9-21.1 and 10.7-23.8
SHADED, BODY_AB = (8.0, 22.0), 29.0
#: ... and the dark strip ends at the wall's foot: the lightness comes back to :data:`LIT` of the empty box's within
#: :data:`WIDTH` die sides of the top's edge (the leaning dice caught 0-0.40; a flat die's shadow runs 0.45-0.71)
LIT, WIDTH = 0.75, 0.45


def _strip(box, name: str, side: float, shape: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The strip :data:`DEPTH` die sides deep beyond side ``name`` of ``box`` (x, y, w, h; frame px), its ends
    (:data:`ENDS`) left out, as (y0, y1, x0, x1); None where any of it leaves a frame of ``shape`` (h, w)."""
    bx, by, bw, bh = box
    d0, d1 = 1, 1 + max(2, round(DEPTH * side))
    a0, a1 = (int(by + ENDS * bh), int(by + (1 - ENDS) * bh)) if name in "LR" else (int(bx + ENDS * bw), int(bx + (1 - ENDS) * bw))
    rect = {
        "R": (a0, a1, bx + bw + d0, bx + bw + d1),
        "L": (a0, a1, bx - d1, bx - d0),
        "B": (by + bh + d0, by + bh + d1, a0, a1),
        "T": (by - d1, by - d0, a0, a1),
    }[name]
    y0, y1, x0, x1 = rect
    h, w = shape
    if y0 < 0 or x0 < 0 or y1 > h or x1 > w or y1 <= y0 or x1 <= x0:
        return None
    return rect


def _measures(looks: StripLooks, empty_l, box, name: str, rect, channels) -> tuple[float, float, float]:
    """The strip ``rect`` beside side ``name`` of ``box``: its die-body share, its median (a, b) distance from the
    empty box's, and its median lightness over the empty box's, the light change ``channels`` taken out where given
    (cut from the strip :func:`rig.vision.dice_wallside.wall_side_faces` read there, where it did)."""
    y0, y1, x0, x1 = rect
    lab, to_empty, to_body = looks.within(box, name, rect, channels)
    light = lab[..., 0] / np.maximum(1.0, empty_l[y0:y1, x0:x1])
    return float(np.mean(to_body + NEARER < to_empty)), float(_median(to_empty)), float(_median(light))


def _median(values: np.ndarray) -> np.float32:
    """``np.median`` of float32 ``values`` (any shape, no NaNs): the same number (the middle one, or the two middle
    ones' mean in float32), from one partition, without its generic machinery (a sixth of its time on a strip)."""
    flat = values.ravel()
    n = flat.size
    middle = np.partition(flat, ((n - 1) // 2, n // 2))
    return (middle[(n - 1) // 2] + middle[n // 2]) / np.float32(2)


def _band(box, name: str, side: float, shape: tuple[int, int]):
    """The pixels beyond side ``name`` of ``box`` out to :data:`PROFILE` die sides, as (y index, x index) arrays of
    shape (depth, across): depth 0 the first pixel beyond the box; cut where the frame ends; None where nothing is left."""
    bx, by, bw, bh = box
    h, w = shape
    out = np.arange(1, int(PROFILE * side) + 1)
    if name in "LR":
        across = np.arange(int(by + ENDS * bh), int(by + (1 - ENDS) * bh))
        across = across[(across >= 0) & (across < h)]
        out = bx + bw - 1 + out if name == "R" else bx - out
        out = out[(out >= 0) & (out < w)] if name == "R" else out[out >= 0]
        ys, xs = np.meshgrid(across, out)
    else:
        across = np.arange(int(bx + ENDS * bw), int(bx + (1 - ENDS) * bw))
        across = across[(across >= 0) & (across < w)]
        out = by + bh - 1 + out if name == "B" else by - out
        out = out[out < h] if name == "B" else out[out >= 0]
        ys, xs = np.meshgrid(out, across, indexing="ij")
    if ys.size == 0:
        return None
    return ys, xs


def body_in_shade(frame, empty_ab, empty_l, box, name: str, side: float, body_ab, channels=None) -> bool:
    """Whether what lies beyond side ``name`` of ``box`` is a leaning die's former top in the wall's shade, not a
    flat die's lit side face nor its shadow on the floor (:data:`SHADED`, :data:`BODY_AB`, :data:`WIDTH`)."""
    band = _band(box, name, side, frame.shape[:2])
    if band is None:
        return False
    ys, xs = band
    y0, x0 = int(ys.min()), int(xs.min())
    lab = lab_unlit(frame, (y0, int(ys.max()) + 1, x0, int(xs.max()) + 1), channels).astype(np.float32)[ys - y0, xs - x0]
    lightness = lab[..., 0] / np.maximum(1.0, empty_l[ys, xs])
    ab, floor_ab = lab[..., 1:], empty_ab[ys, xs]
    shadow_ab = 128.0 + (floor_ab - 128.0) * np.clip(lightness, 0.0, 1.0)[..., None]
    to_shadow, to_body = (np.median(d, axis=1) for d in ab_distances(ab, shadow_ab, body_ab))
    lit = np.flatnonzero(np.median(lightness, axis=1) >= LIT)
    width = (lit[0] if lit.size else len(lightness)) / side
    deep = max(2, round(DEPTH * side))
    shade, body = float(to_shadow[:deep].mean()), float(to_body[:deep].mean())
    return SHADED[0] <= shade <= SHADED[1] and body <= BODY_AB and width <= WIDTH


def leaning_on_wall(frame, empty_lab, dice, side: float, body_ab, channels=None, by_wall=None, looks=None) -> list:
    """The dice of ``dice`` (not read cocked, filling their box, ``by_wall(die)`` where given) whose outward strip
    holding the most die body is the die's own body (:data:`UNLIKE`, :data:`DARK`, :data:`BODY`), no die read ahead
    there. ``looks``: the frame's :class:`rig.vision.dice_wallside.StripLooks` (made here where not given)."""
    empty_l = None
    found = []
    for d in dice:
        bw, bh = d.box[2:]
        if d.cocked or bw * bh <= 0 or d.area * side * side < FILLS * bw * bh or (by_wall and not by_wall(d)):
            continue
        best = None
        for name in outward_sides(d.x, d.y, frame.shape[:2]):
            rect = _strip(d.box, name, side, frame.shape[:2])
            if rect is None:
                continue
            if empty_l is None:
                if looks is None:
                    looks = StripLooks(frame, empty_chroma(empty_lab, frame.shape[:2]), body_ab, side)
                empty_l = empty_light(empty_lab, frame.shape[:2])
            m = _measures(looks, empty_l, d.box, name, rect, channels)
            if best is None or m[0] > best[1][0]:
                best = (name, m)
        if best is None or neighbour_on_side(d, dice, best[0], side):
            continue
        body, unlike, light = best[1]
        if body >= BODY and unlike >= UNLIKE and light <= DARK and body_in_shade(
            frame, looks.empty_ab, empty_l, d.box, best[0], side, body_ab, channels
        ):
            found.append(d)
    return found


def lean_wall_flags(work, profile, dice, looks=None) -> list:
    """:data:`REASON` at each die :func:`leaning_on_wall` finds in ``work``'s frame, as flags, of the dice whose centre
    lies less than :data:`rig.vision.dice_unsupported.WALL_REACH` sides inside the floor's outline found in the empty
    box (or outside it: the outline lies inward of the walls); none without the frame or the empty box's picture kept
    for ``profile``. ``looks``: the frame's :func:`rig.vision.dice_wallside.strip_looks`, where the caller shares them."""
    empty = kept_with_frame(work, profile)
    found_outline = outline(work) if empty is not None else None
    if found_outline is None:
        return []
    if looks is None:
        looks = strip_looks(work, profile, empty)
    f, reach = work.factor, WALL_REACH * work.side

    def by_wall(d) -> bool:
        return inside_by(found_outline, d.x / f, d.y / f) < reach

    found = leaning_on_wall(work.frame, empty.lab, dice, looks.side, looks.body_ab, light_change(work.light), by_wall, looks)
    return [Flag(REASON, d.x, d.y) for d in found]


def wall_flags(work, profile, dice) -> list:
    """:func:`rig.vision.dice_wallside.wall_side_flags`' flags, then :func:`lean_wall_flags`', the strips beyond the
    dice's outer sides made once a frame for both (:class:`rig.vision.dice_wallside.StripLooks`; issue 24, round 37:
    each die by a wall had its strips converted to Lab twice, once a check)."""
    empty = kept_with_frame(work, profile)
    if empty is None:
        return []
    looks = strip_looks(work, profile, empty)
    return wall_side_flags(work, profile, dice, looks) + lean_wall_flags(work, profile, dice, looks)
