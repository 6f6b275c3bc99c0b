"""A frame made ready to read: checked, shrunk, its glare spots censored and every pixel labelled with
its colour class (:func:`prepare` gives the :class:`Work` the dice reader reads) (issue 29: split
from :mod:`rig.vision.dice`, which re-exports every name).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from rig.vision.colour_table import _BY_TABLE, colour_lut
from rig.vision.dice_overall import overall_gain
from rig.vision.errors import FrameError
from rig.vision.light import Light, apply_change, even_light, floor_model, measure, profile_map, shade_gain, sum3
from rig.vision.pixel_classes import _K3, BG, BLOWN, BLUE, BODY, IS_TOP, PINK, YELLOW
from rig.vision.profile import Profile


def label_pixels(image_bgr: np.ndarray, lut: np.ndarray, censored: np.ndarray | None = None) -> np.ndarray:
    """Class label per pixel (H x W uint8) of a BGR uint8 image; ``censored`` (H x W, bits
    0/1/2 for B/G/R) marks channels that are only lower bounds."""
    if censored is not None:
        builder = _BY_TABLE.get(id(lut))
        if builder is not None and builder.table is lut:
            builder.ensure(_met(censored, builder.built))
    idx = _index(image_bgr)
    if censored is not None and _any(censored):  # (most frames clip nothing under the glare: no block to add)
        idx |= censored.astype(np.int32) << 18
    return np.take(lut, idx)  # a quarter faster than lut[idx]


_WEIGHTS = np.array([[1 << 12, 1 << 6, 1]], np.float32)


def _index(image_bgr: np.ndarray) -> np.ndarray:
    """(B >> 2) << 12 | (G >> 2) << 6 | R >> 2 per pixel (int32): one weighted sum in float32 (exact: whole numbers
    below 2**18), a fifth faster than shifting and or-ing the three channels."""
    q = image_bgr >> 2  # (any shape ... x 3: an image, or pixels picked out of one)
    if q.size == 0:  # (OpenCV takes no empty image)
        return np.zeros(q.shape[:-1], np.int32)
    return cv2.transform(q.astype(np.float32).reshape(1, -1, 3), _WEIGHTS).reshape(q.shape[:-1]).astype(np.int32)


def _any(a: np.ndarray) -> bool:
    """``a.any()``, by OpenCV for a 2-D uint8 array (a few times faster)."""
    if a.dtype == np.uint8 and a.ndim == 2 and a.size:
        return cv2.countNonZero(a) > 0
    return bool(a.any())


def places(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero`` of a 2-D uint8 or bool ``mask``: the rows and columns of its set pixels in raster order (int32),
    by OpenCV's ``findNonZero`` (issue 24, round 29: 6 against 13 us on a die's window)."""
    found = cv2.findNonZero(mask.view(np.uint8))
    if found is None:
        return np.empty(0, np.int32), np.empty(0, np.int32)
    found = found.reshape(-1, 2)
    return found[:, 1], found[:, 0]


def _met(censored: np.ndarray, built: list[bool]) -> list[int]:
    """The censoring patterns a frame meets whose colour-table block is not built yet: each looked for
    only while it is missing (a count of all eight took a fifth of a ms a frame, every frame)."""
    todo = [p for p, done in enumerate(built) if not done]
    flat = censored.reshape(censored.shape[0], -1) if censored.size else None  # 2-D for OpenCV (a 1-D pick too)
    if not todo or flat is None or not cv2.countNonZero(flat):
        return []
    return [p for p in todo if np.any(flat == p)]


def check_frame(frame: object) -> np.ndarray:
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be a numpy array, not {type(frame).__name__}")
    if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        raise FrameError(f"a frame must be H x W x 3 uint8 BGR, not {frame.shape} {frame.dtype}")
    if frame.shape[0] < 32 or frame.shape[1] < 32:
        raise FrameError(f"frame too small: {frame.shape[1]}x{frame.shape[0]}")
    return frame


def shrink(frame: np.ndarray, factor: int) -> np.ndarray:
    """Area-average ``frame`` down by an integer factor (halving steps are OpenCV's fast path)."""
    h, w = frame.shape[:2]
    out = frame
    while factor % 2 == 0 and factor > 1:
        out = cv2.resize(out, (out.shape[1] // 2, out.shape[0] // 2), interpolation=cv2.INTER_AREA)
        factor //= 2
    if factor > 1:
        out = cv2.resize(out, (out.shape[1] // factor, out.shape[0] // factor), interpolation=cv2.INTER_AREA)
    return out


def glare_for(profile: Profile, shape: tuple[int, int]) -> np.ndarray | None:
    """The profile's fixed glare (BGR, additive) resized to ``shape`` (h, w), or None."""
    if profile.glare is None:
        return None

    def build() -> np.ndarray:
        g = cv2.resize(np.asarray(profile.glare, np.float32), (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
        return np.clip(g, 0, 255).astype(np.uint8)

    return profile_map("glare", profile, shape, build)


@dataclass(frozen=True)
class Work:
    """A frame shrunk to the reading scale, with its pixel labels."""

    labels: np.ndarray
    small: np.ndarray  # the frame at the working scale
    factor: int  # full-resolution pixels per working pixel
    side: float  # die side in working pixels
    top_area: float  # expected die top-face area in working pixels
    glare: np.ndarray | None = None  # the profile's fixed glare at the working scale
    light: Light | None = None  # the frame's light relative to calibration (None: profile without a floor grid)
    profile: Profile | None = None
    frame: np.ndarray | None = None  # the full-resolution frame: die tops are classified on crops of it
    gain: np.ndarray | None = None  # the light correction per working pixel (B, G, R), or None
    deep: np.ndarray | None = None  # 1 where a wall's deep shade was lifted to be read (its noise with it), or None
    lut: np.ndarray | None = None  # the profile's colour table (found once a frame, not once a die), or None

    @cached_property
    def overall_gain(self) -> np.ndarray:
        """The median of :attr:`gain` over the view, found once a frame when a die is read again in it
        (:func:`rig.vision.dice_overall.overall_gain`)."""
        return overall_gain(self.gain)


def prepare(frame: np.ndarray, profile: Profile, covered: Callable[[tuple[int, int], int], np.ndarray] | None = None) -> Work:
    """``frame`` at the reading scale, its light corrected and its pixels labelled. ``covered(size, factor)``: asked
    only when the light seems changed, the floor grid's cells known to hold something laid on the floor
    (:func:`rig.vision.light.covered_cells`) for the working frame's ``size`` (w, h) and shrink ``factor``; the
    light is then measured again without them."""
    check_frame(frame)
    h, w = frame.shape[:2]
    t = profile.thresholds
    die_px = profile.die_side * w
    f = 1 << max(0, int(round(np.log2(max(1.0, die_px / t.work_die_px)))))  # halving steps only: fast
    small = shrink(frame, f)
    glare = glare_for(profile, small.shape[:2])
    raw = lit = small  # lit: the glare as this frame's light shows it
    blown = None  # white where all three channels clipped under the glare; None: no channel of the frame that bright
    if glare is not None:  # lamp reflections the empty box showed: take them off, mark what they clipped
        if cv2.minMaxLoc(small.reshape(small.shape[0], -1))[1] >= t.clip_level:  # (45 % of the twin's frames: none)
            blown = cv2.inRange(small, (t.clip_level,) * 3, (255, 255, 255))  # white: all three channels clipped
            blown &= profile_map("glare12", profile, glare.shape[:2], lambda: cv2.inRange(glare, (12,) * 3, (255,) * 3))
        lit = glare
        small = cv2.subtract(small, glare)
    model = floor_model(profile)
    if model is None:
        small, light, gain = even_light(small), None, None
    else:
        start = small, lit  # (the glare as calibrated taken off)
        small, lit, light, change = _measured(raw, *start, glare, model, None)
        if covered is not None and light.changed:  # measured again from the start without the covered cells
            small, lit, light, change = _measured(raw, *start, glare, model, covered(raw.shape[1::-1], f))
        small, gain = apply_change(small, model, change)
    censored = None if glare is None else _censored(raw, lit, t.censor_level)  # once, with the glare taken off
    lut = colour_lut(profile)
    labels = label_pixels(small, lut, censored)
    lift = shade_gain(profile, small.shape[:2]) if gain is not None else None
    deep = None
    if lift is not None:
        small, labels, gain, deep = _lift_shade(small, labels, gain, lift, lut, censored)
    if blown is not None and cv2.countNonZero(blown):  # (most frames have no pixel blown: no pass to mark none)
        labels[blown > 0] = BLOWN
    side = die_px / f
    return Work(labels, small, f, side, profile.top_area * side * side, glare, light, profile, frame, gain, deep, lut)


def _measured(raw, small, lit, glare, model, cells):
    """The light measured on ``small`` (``raw`` with the ``glare`` as calibrated, ``lit``, taken off; ``cells``:
    the grid's cells left out, or None), and measured again once the glare is taken off as this light shows it:
    (small, lit, light, change)."""
    light, change = measure(small, model, cells)
    if glare is not None and light.changed:  # the reflections dim, brighten and change colour with the lamp
        lit = _times(glare, light.channels)
        small = cv2.subtract(raw, lit)
        light, change = measure(small, model, cells)  # (corrected once, in the light measured last)
    return small, lit, light, change


_LEVELS = np.arange(256, dtype=np.uint8).reshape(1, 256, 1).repeat(3, axis=2)  # every level in each of B, G, R


def _times(image: np.ndarray, channels: tuple[float, float, float]) -> np.ndarray:
    """``cv2.multiply(image, channels + (0.0,), dtype=cv2.CV_8U)`` (uint8 B, G, R, each times its factor, rounded), the
    same numbers: the 256 levels multiplied so, then looked up per channel, split in planes (OpenCV 5's ``LUT`` with a
    table per channel takes as long as the multiply, 142 us on a 320 x 240 glare; three one-channel look-ups and the
    planes split and merged 113 us)."""
    table = cv2.split(cv2.multiply(_LEVELS, tuple(channels) + (0.0,), dtype=cv2.CV_8U))
    return cv2.merge([cv2.LUT(plane, t) for plane, t in zip(cv2.split(image), table)])


#: a die read where the shade was lifted more than this many times is flagged: its colours are the camera's noise
DEEP_LIFT = 2.0


def _lift_shade(small, labels, gain, lift, lut, censored):
    """A wall's deep shade, as the empty box showed it, lifted to the open floor's light (per channel:
    the shade is lit by the walls and the room, often of another colour), so a die lying in it has
    the colours and contrast of one in the open: the lifted reading is taken where it is a die top
    or the floor and the frame's own was not a die top, or where it is a frog colour the frame read
    as die body (a frog in the dark). A die top the frame read stays as read otherwise: it stands
    higher than the floor and can catch light its floor does not (lifted, it would clip)."""
    patch = _shade_patch(lift)
    if patch is None:
        return small, labels, gain, None
    (y0, y1, x0, x1), up, shaded, deeper = patch
    parts = _shade_parts(lift)
    box = small[y0:y1, x0:x1]
    cut = None if censored is None else censored[y0:y1, x0:x1]
    was = labels[y0:y1, x0:x1]
    seen = was.copy()  # labelled again where the shade lifts (a band along a wall, its box far wider): the few boxes
    # round its parts are looked up whole (its pixels picked out, three channels, took two to five times as long),
    # censored only there; lifted only there (nothing is taken from the lifted frame elsewhere)
    lifted = []
    standing = np.zeros(shaded.shape, bool)  # lifted to white: lit where the empty box was in shade (a die standing)
    for part in parts:
        lit = cv2.multiply(box[part], up[part], dtype=cv2.CV_8U)
        cv2.copyTo(label_pixels(lit, lut, None if cut is None else cut[part] * shaded[part]), shaded[part].view(np.uint8), seen[part])
        lifted.append((part, lit))
        standing[part] = _white(lit)
    standing = cv2.morphologyEx((standing & shaded).view(np.uint8), cv2.MORPH_OPEN, _K3) > 0  # a solid patch
    # lifted several times over, the camera's noise scatters specks of any colour: a die top is solid
    new_top = cv2.morphologyEx(cv2.LUT(seen, IS_TOP), cv2.MORPH_OPEN, _K3) > 0
    # taken (not blown, not a top the frame read) where it reads the floor, or where it is a solid top: the frame
    # read no top, or a frog colour the frame read as die body — a look-up of each pixel's two classes at once
    pair = (was << 4) | seen  # (classes below 16)
    take = shaded & ~standing & ((cv2.LUT(pair, _LIFT_FLOOR) > 0) | (new_top & (cv2.LUT(pair, _LIFT_TOP) > 0)))
    mask = take.view(np.uint8)
    gain_patch = gain[y0:y1, x0:x1]
    for part, lit in lifted:  # (taken only where it lifts: inside the parts)
        cv2.copyTo(lit, mask[part], box[part])  # this frame's own arrays: changed in place (OpenCV's
        cv2.copyTo(cv2.multiply(gain_patch[part], up[part]), mask[part], gain_patch[part])
    cv2.copyTo(seen, mask, was)  # masked copies: numpy's, broadcast over three channels, took 1 ms)
    deep = np.zeros(labels.shape, np.uint8)  # read only once lifted more than DEEP_LIFT times: the noise came up too
    deep[y0:y1, x0:x1] = mask & deeper
    return small, labels, gain, deep


def _lift_tables() -> tuple[np.ndarray, np.ndarray]:
    """By a pixel's class as the frame read it and as lifted (``was << 4 | seen``): where the lifted reading is taken
    when it is the floor, and where it is taken when it lies in a solid lifted top (:func:`_lift_shade`)."""
    was, seen = np.arange(256) >> 4, np.arange(256) & 15
    open_ = (was != BLOWN) & (IS_TOP[was] == 0)  # (not blown, not a die top the frame read)
    floor = open_ & (seen == BG)
    top = open_ | ((was == BODY) & np.isin(seen, (BLUE, PINK, YELLOW)))  # (blown is no body)
    return floor.astype(np.uint8) * 255, top.astype(np.uint8) * 255


_LIFT_FLOOR, _LIFT_TOP = _lift_tables()

#: a pixel lifted so that its darkest channel reaches this is lifted to white: it was lit where the empty box showed a
#: wall's deep shade (a die top standing in front of the band, nearer the lamp: twin 10405's far wall), and is left as
#: the frame shows it, its colour kept (issue 24, round 21)
STANDING = 240


def _white(lit: np.ndarray) -> np.ndarray:
    """Where ``lit`` (B, G, R) is white in all three channels."""
    return cv2.inRange(lit, (STANDING,) * 3, (255, 255, 255)) > 0


_PATCHES: dict = {}


def _shade_patch(lift: np.ndarray):
    """The shaded part of a shade gain map (cached): its box (y0, y1, x0, x1), gain, where it lifts
    and where it lifts more than :data:`DEEP_LIFT` times; None when it lifts nowhere."""
    return _shade_cached(lift)[0]


def _shade_parts(lift: np.ndarray) -> list[tuple[slice, slice]]:
    """The few boxes in :func:`_shade_patch`'s box that hold every place where it lifts (:func:`_parts`, as slices
    of that box; cached with it)."""
    return _shade_cached(lift)[1]


def _shade_cached(lift: np.ndarray):
    hit = _PATCHES.get(id(lift))
    if hit is None or hit[0] is not lift:
        if len(_PATCHES) > 8:
            _PATCHES.clear()
        most = lift.max(axis=2)
        ys, xs = np.nonzero(most > 1.05)
        patch, parts = None, []
        if ys.size:
            y0, y1, x0, x1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
            part = most[y0:y1, x0:x1]
            patch = ((y0, y1, x0, x1), np.ascontiguousarray(lift[y0:y1, x0:x1]), part > 1.05,
                     (part > DEEP_LIFT).view(np.uint8))
            parts = _parts(patch[2])
        hit = _PATCHES[id(lift)] = (lift, (patch, parts))
    return hit[1]


def _parts(mask: np.ndarray, depth: int = 2) -> list[tuple[slice, slice]]:
    """Up to ``2 ** depth`` boxes of ``mask`` (as slices), apart, that hold all of it: its own box, or that box cut
    in two along a row or column where the two halves' own boxes are a fifth smaller than it, each cut again (a
    wall's shade lies along two walls: its box holds much more than the shade)."""
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if not rows.size:
        return []
    y0, y1, x0, x1 = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
    area = (y1 - y0) * (x1 - x0)
    best = None
    if depth and area >= 2048:
        for axis, n in ((0, y1 - y0), (1, x1 - x0)):
            for k in range(4, n - 3, 4):  # (every fourth row or column)
                a, b = (np.s_[y0 : y0 + k, x0:x1], np.s_[y0 + k : y1, x0:x1]) if axis == 0 else \
                       (np.s_[y0:y1, x0 : x0 + k], np.s_[y0:y1, x0 + k : x1])
                size = _box_area(mask[a]) + _box_area(mask[b])
                if size < 0.8 * area and (best is None or size < best[0]):
                    best = (size, a, b)
    if best is None:
        return [np.s_[y0:y1, x0:x1]]
    out = []
    for half in best[1:]:
        oy, ox = half[0].start, half[1].start
        out += [np.s_[oy + p[0].start : oy + p[0].stop, ox + p[1].start : ox + p[1].stop]
                for p in _parts(mask[half], depth - 1)]
    return out


def _box_area(mask: np.ndarray) -> int:
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    return 0 if not rows.size else (int(rows[-1]) - int(rows[0]) + 1) * (int(cols[-1]) - int(cols[0]) + 1)


def _censored(small: np.ndarray, glare: np.ndarray, level: int) -> np.ndarray:
    """Bits 0/1/2 set where B/G/R clipped (at or above ``level``) under a known glare: after the
    glare is taken off, such a channel is only a lower bound of the true value."""
    clipped = cv2.compare(small, (level,) * 3, cv2.CMP_GE)
    if not cv2.countNonZero(clipped.reshape(clipped.shape[0], -1)):  # (a third of the twin's frames clip nothing:
        return np.zeros(small.shape[:2], np.uint8)  # no bits to set, no glare to compare, no pass to set them)
    hot = cv2.bitwise_and(clipped, cv2.compare(glare, (4,) * 3, cv2.CMP_GE), dst=clipped)
    b, g, r = cv2.split(hot)  # (each 0 or 255: its bit kept, or-ed in place; in the frame's reads 132 against the 214
    bits = cv2.bitwise_and(b, 1)  # us a 640 x 480 frame of one float transform of the three channels, round 30)
    cv2.bitwise_or(bits, cv2.bitwise_and(g, 2), dst=bits)
    return cv2.bitwise_or(bits, cv2.bitwise_and(r, 4), dst=bits)


def _near_floor(profile: Profile, shape: tuple[int, int]) -> np.ndarray | np.uint8:
    """255 on the calibrated floor cells and one cell around them (a hand reaches in over the
    floor; the table beyond the box is none of the reader's business), else 0; 255 everywhere
    for a profile without a floor grid."""
    if profile.floor_cells is None:
        return np.uint8(255)

    def build() -> np.ndarray:
        grid = cv2.dilate(np.array(profile.floor_cells, np.uint8) * 255, np.ones((3, 3), np.uint8))
        return cv2.resize(grid, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST)

    return profile_map("floor", profile, shape, build)


def _warm_edge(labels: np.ndarray, mask: np.ndarray) -> bool:
    """Whether a die's pink pixels hug its yellow frog as a thin line (within 2 px of it, and
    hardly any 3 px thick: the warm blend at a bright yellow frog's edge), as what is left of a
    pink half of a frog does not."""
    pink = ((labels == PINK) & (mask > 0)).view(np.uint8)
    near = cv2.dilate(((labels == YELLOW) & (mask > 0)).view(np.uint8), np.ones((5, 5), np.uint8)) > 0
    n = np.count_nonzero(pink)
    thick = np.count_nonzero(cv2.erode(pink, np.ones((3, 3), np.uint8)))
    return np.count_nonzero(pink.view(bool) & near) >= 0.8 * n and thick <= 0.1 * n


def _whole_top(work: Work, full: bool) -> float:
    """Pixels a whole flat die's top shows inside its rim (as :func:`_die` shrinks it), at full
    resolution when ``full`` else at the working scale."""
    k = max(0.3, 1.0 - 0.16 * work.side / max(1.0, np.sqrt(work.top_area)))
    return k * k * work.top_area * (work.factor**2 if full else 1)


#: a die's counted pixels may be up to this many whole tops' and its frog still be judged on the top alone: a die
#: towards the frame's edge shows its side faces (perspective), counted in with its top, and its frog's share of
#: them falls by as much (2D 45000: parts of 1.38-1.47 tops, each frog read at 0.65-0.74 of their size)
SIDES_SHOWN_MAX = 1.5


def top_fit(work: Work, full: bool, n_in: int) -> tuple[float, float]:
    """How a die's counted pixels ``n_in`` stand to a whole flat top's (:func:`_whole_top`): the share of a whole top
    they cover (at most 1: a top partly in shade), and the share of them a whole top is (at most 1, at least
    ``1 / SIDES_SHOWN_MAX``: its side faces counted in)."""
    whole = _whole_top(work, full)
    return n_in / max(n_in, whole), max(1.0 / SIDES_SHOWN_MAX, whole / max(n_in, whole))


#: a dark pixel by a die is its side face while its hue is at most this many times farther from the
#: die top's than from the floor's (tuned on the twin's tables 100-111: 1 lost cocked dice, 2 kept them)
SIDE_HUE = 2.0


def _side_faces(dark: np.ndarray, lab: np.ndarray, small: np.ndarray) -> np.ndarray:
    """The dark pixels around a die that may be its own side faces: the die body's hue in shade — not
    more than twice as far from its lit top's chromaticity as from the floor's around it (a side face
    in shade is dark and noisy, its hue only roughly the top's). A die's cast shadow, or the floor in
    a wall's shade, is dark too, but keeps the floor's hue."""
    if not _any(dark):
        return dark
    body, floor = (lab == BODY).view(np.uint8), (lab == BG).view(np.uint8)
    if cv2.countNonZero(body) < 8 or cv2.countNonZero(floor) < 8:
        return dark
    top = np.array(cv2.mean(small, body)[:3], np.float32) + 4.0  # mean colours: C speed, six dice a frame
    ground = np.array(cv2.mean(small, floor)[:3], np.float32) + 4.0
    ys, xs = places(dark)  # (the dark pixels by their places: picked and dropped by them, not by two boolean masks)
    px = small[ys, xs].astype(np.float32) + 4.0
    hue = px / sum3(px)[:, None]
    drop = ~(sum3(np.abs(hue - top / top.sum())) <= SIDE_HUE * sum3(np.abs(hue - ground / ground.sum())))
    out = dark.copy()
    out[ys[drop], xs[drop]] = 0
    return out
