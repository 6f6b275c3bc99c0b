"""Bring every frame back to the light the profile was calibrated in.

Calibration keeps the empty box bottom as a coarse grid of cell colours (12 x 16 cells, B, G,
R) and which cells are box floor (:func:`floor_grid`). Per frame, the ratio of each floor cell
to its calibrated colour is the light change there — per channel, so exposure and white
balance at once, and the floor's own print or texture cancels out. A smooth surface fitted to
those ratios (cells with dice, a hand or a new shadow stand off it and are left out) gives the
change everywhere; dividing it out, and the calibrated lamp gradient with it, gives a frame
whose floor looks like the calibrated floor made even — the scale the colour models were
fitted in (:func:`correct`).

The change itself is returned as :class:`Light` (exposure factor and white-balance shift): the
runner says "the light changed — recalibrate" once it is beyond :data:`CORRECTABLE`.

Profiles without a floor grid (format 2) flatten each frame against its own median floor
instead (:func:`even_light`), as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

ROWS, COLS = 12, 16
#: the shade and spot maps calibration learns from the empty box (:mod:`rig.vision.calibrate_shade`)
SHADE_ROWS, SHADE_COLS = 36, 48
#: the deepest shade lifted (share of the open floor's light): deeper, the camera's noise is all there is
DEEPEST = 0.1
#: beyond these the correction is not trusted: (least, most) exposure factor, most white-balance shift (ratio)
CORRECTABLE = ((0.6, 1.5), 1.5)


def _grid() -> np.ndarray:
    ys, xs = np.mgrid[0:ROWS, 0:COLS].astype(np.float32)
    x, y = (xs.ravel() - 7.5) / 8, (ys.ravel() - 5.5) / 6
    return np.column_stack([np.ones_like(x), x, y, x * x, y * y, x * y])


#: the quadratic basis (1, x, y, x², y², xy) over the 12 x 16 grid: the lamp-gradient fit
LIGHT_BASIS = _grid()
_PLANE = LIGHT_BASIS[:, :3]


@dataclass(frozen=True)
class Light:
    """A frame's light relative to calibration: ``exposure`` (1.0 = as calibrated) and the
    white-balance shift ``warm`` (red/blue gain ratio, 1.0 = as calibrated; > 1 warmer).

    >>> Light(0.8, 1.0), Light(1.0, 1.25).correctable, Light(0.4, 1.0).correctable
    (<Light exposure x0.80 wb x1.00>, True, False)
    """

    exposure: float = 1.0
    warm: float = 1.0
    floor_seen: float = 1.0  # share of the calibrated floor cells the estimate rests on
    channels: tuple[float, float, float] = (1.0, 1.0, 1.0)  # the floor's B, G, R change (exposure and colour)

    @property
    def changed(self) -> bool:
        """Whether any channel moved by more than the camera's own frame-to-frame wobble (8 %).

        >>> Light(1.0, 1.0).changed, Light(0.98, 1.3, channels=(0.85, 0.98, 1.1)).changed
        (False, True)
        """
        return max(abs(c - 1.0) for c in self.channels) > 0.08

    @property
    def correctable(self) -> bool:
        (lo, hi), wb = CORRECTABLE
        return lo <= self.exposure <= hi and 1 / wb <= self.warm <= wb

    @property
    def reliable(self) -> bool:
        """Whether enough of the floor was seen to trust the estimate (not under a hand or a card)."""
        return self.floor_seen >= 0.25

    def __repr__(self) -> str:
        return f"<Light exposure x{self.exposure:.2f} wb x{self.warm:.2f}>"


def cells(image: np.ndarray) -> np.ndarray:
    """The image's mean colour per cell of the 12 x 16 grid (float32, ROWS x COLS x 3)."""
    h, w = image.shape[:2]
    if image.dtype == np.uint8 and image.ndim == 3 and h % ROWS == 0 and w % COLS == 0 and h * w < 1 << 23 \
            and (h, w) != (2 * ROWS, 2 * COLS):  # (halving: OpenCV's own rounding, half up)
        return _block_means(image, h // ROWS, w // COLS)
    return cv2.resize(image, (COLS, ROWS), interpolation=cv2.INTER_AREA).astype(np.float32)


def _block_means(image: np.ndarray, bh: int, bw: int) -> np.ndarray:
    """``cv2.resize(image, (COLS, ROWS), interpolation=cv2.INTER_AREA)`` as float32 for a uint8 image made of whole
    ``bh`` x ``bw`` cells, the same numbers: OpenCV's area resize by whole factors sums each cell's pixels and rounds
    the sum times ``1 / (bh * bw)`` (both float32) to the nearest whole number (a tie to the even one); here the sums
    come from one integral image, whose int32 sums stay exact (fewer than 2**23 pixels of at most 255). (Not for
    2 x 2 cells: OpenCV halves with its own rounding, a half up.) A quarter
    less time on a frame's working scale (320 x 240: 70 against 94 us; twice a frame whose light changed)."""
    ii = cv2.integral(image)  # (h + 1) x (w + 1) x 3, int32
    corners = ii[::bh, ::bw]
    sums = corners[1:, 1:] - corners[:-1, 1:] - corners[1:, :-1] + corners[:-1, :-1]
    return np.rint(sums.astype(np.float32) * np.float32(1.0 / (bh * bw)))


def floor_grid(empty: np.ndarray) -> np.ndarray:
    """Which cells of the empty box are box floor (ROWS x COLS bool): the largest connected
    run of cells that lie on one smooth light surface — the rim wall, the table beyond it and
    cells straddling an edge stand off it."""
    grey = cells(empty).mean(axis=2).ravel() + 1.0
    centre = float(np.median(grey.reshape(ROWS, COLS)[4:8, 5:11]))
    keep = np.abs(grey / centre - 1) <= 0.35  # start from what looks like the middle of the box
    for _ in range(8):
        if keep.sum() < 24:
            break
        fit = fit_surface(grey, keep)
        new = np.abs(grey - fit) <= 0.15 * np.maximum(fit, 1.0)
        if (new == keep).all():
            break
        keep = new
    n, cc = cv2.connectedComponents(keep.reshape(ROWS, COLS).view(np.uint8), connectivity=4)
    if n <= 1:
        return np.ones((ROWS, COLS), bool)
    sizes = np.bincount(cc.ravel())
    sizes[0] = 0
    return cc == sizes.argmax()


def fit_surface(values: np.ndarray, keep: np.ndarray, basis: np.ndarray = LIGHT_BASIS) -> np.ndarray:
    coef, *_ = np.linalg.lstsq(basis[keep], values[keep], rcond=None)
    return basis @ coef


@dataclass(frozen=True)
class FloorModel:
    """The calibrated floor, ready for per-frame use (built once per profile)."""

    floor: np.ndarray  # ROWS*COLS x 3 calibrated cell colours
    mask: np.ndarray  # ROWS*COLS bool floor cells
    flat: np.ndarray  # ROWS*COLS x 3: gain making the calibrated floor even at its median level

    @classmethod
    def build(cls, floor, mask, lamp=None) -> FloorModel:
        floor = np.asarray(floor, np.float32).reshape(-1, 3) + 1.0
        mask = np.asarray(mask, bool).ravel()
        if lamp is None:  # the lamp's gradient, in brightness only, from the floor itself (per-channel
            # surfaces would read the floor's own colour pattern as a colour cast)
            s = np.maximum(fit_surface(floor.mean(axis=1), mask), 1.0)
        else:  # from the dice bodies (calibration): a dark print on the floor is not less light
            s = np.maximum(np.asarray(lamp, np.float32).ravel(), 1e-3)
        flat = np.repeat((np.median(s[mask]) / s)[:, None], 3, axis=1)
        return cls(floor, mask, np.clip(flat, 0.5, 2.0))


_MODELS: dict[int, tuple[object, FloorModel]] = {}


def floor_model(profile) -> FloorModel | None:
    if getattr(profile, "floor", None) is None:
        return None
    hit = _MODELS.get(id(profile))
    if hit is None or hit[0] is not profile:
        _MODELS.clear()
        hit = _MODELS[id(profile)] = (profile, FloorModel.build(profile.floor, profile.floor_cells,
                                                                 getattr(profile, "floor_lamp", None)))
    return hit[1]


def correct(small: np.ndarray, model: FloorModel, covered: np.ndarray | None = None) -> tuple[np.ndarray, Light, np.ndarray]:
    """``small`` brought to the calibrated, evened light, the light change found, and the gain
    applied per pixel (float32, like ``small``: full-resolution crops are corrected with it).
    ``covered``: as :func:`measure` takes it."""
    light, change = measure(small, model, covered)
    out, gain = apply_change(small, model, change)
    return out, light, gain


def measure(small: np.ndarray, model: FloorModel, covered: np.ndarray | None = None) -> tuple[Light, np.ndarray]:
    """The light change :func:`correct` finds in ``small``: the :class:`Light` and the change per grid
    cell (ROWS*COLS x 3) that :func:`apply_change` divides out (a frame measured again, e.g. once the
    glare is taken off in its own light, need not be corrected twice). ``covered``: cells (ROWS x COLS
    bool, :func:`covered_cells`) known to hold something laid on the floor, left out of the estimate
    (with too little floor left, the rest of the view measures it)."""
    here = cells(small).reshape(-1, 3) + 1.0
    ratio = here / model.floor
    grey = sum3(ratio) / 3  # ratio.mean(axis=1)
    bare = model.mask
    if covered is not None:
        free = ~covered.ravel()
        if np.count_nonzero(bare & free) >= 12:
            bare = bare & free
        elif np.count_nonzero(free) >= 24:  # the floor mostly under cards: the walls, rim and table beyond see the lamp too
            bare = free
    keep = bare.copy()
    # start from the largest group of floor cells that changed alike: cards laid in a row can
    # cover more than half of the floor's cells (and straddle many more), and a plain first fit,
    # or even a median, over them would bend the whole estimate towards the cards' colours
    log_ratio = np.log(ratio)
    floor_cells = log_ratio[keep]
    centre = (_commonest(np.floor(floor_cells / 0.12).astype(np.int32)) + 0.5) * 0.12  # in all three channels
    group = floor_cells[max3(np.abs(floor_cells - centre)) <= 0.15]
    typical = max3(np.abs(log_ratio - _median0(group))) <= 0.22
    if np.count_nonzero(keep & typical) >= 12:
        keep &= typical
    start = keep.copy()
    fit = fitted_on = None
    for _ in range(4):  # cells with dice, a hand or a shadow stand off the smooth change: leave them out
        n = np.count_nonzero(keep)  # (counted, not summed: a bool array's sum takes several times as long)
        if n < 12:
            break
        surface, fitted_on = fit_surface(grey, keep, _PLANE if n < 40 else LIGHT_BASIS), keep
        fit = np.maximum(surface, 1e-3)
        shift = _median0(ratio[keep] / fit[keep, None])  # a white-balance change moves all floor cells alike
        off = max3(np.abs(ratio / (fit[:, None] * shift) - 1))
        new = bare & (off <= 0.08)
        if (new == keep).all():
            break
        keep = new
    n = np.count_nonzero(keep)
    seen = float(n) / max(1, int(np.count_nonzero(model.mask)))
    if n < 12:  # hardly any floor seen: a hand or cards over the box; trust the cells most alike
        keep, n = start, np.count_nonzero(start)
    basis = _PLANE if n < 40 else LIGHT_BASIS
    # exposure and lamp: a smooth surface (the loop's last, when it ended on these cells: the same fit)
    level = np.clip(surface if keep is fitted_on else fit_surface(grey, keep, basis), 0.2, 5.0)
    colour = _median0(ratio[keep] / level[keep, None])  # white balance: one shift per channel
    change = level[:, None] * colour[None, :]
    med = _median0(ratio[keep])  # B, G, R change on the floor
    logs = np.log(np.maximum(med, 1e-3))  # their mean as numpy's mean takes it of three float32 (in order, then / 3)
    light = Light(float(np.exp((logs[0] + logs[1] + logs[2]) / np.float32(3))), float(med[2] / max(med[0], 1e-3)),
                  seen, tuple(round(float(v), 4) for v in med))
    return light, change


def apply_change(small: np.ndarray, model: FloorModel, change: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``small`` with the ``change`` :func:`measure` found divided out and the lamp evened, and that gain per pixel."""
    gain = (model.flat / change).astype(np.float32).reshape(ROWS, COLS, 3)
    gain = cv2.resize(gain, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_LINEAR)
    return cv2.multiply(small, gain, dtype=cv2.CV_8U), gain


def sum3(a: np.ndarray) -> np.ndarray:
    """``a.sum(axis=1)`` of an n x 3 array: the same numbers (added in the same order), a tenth of the time
    (numpy's reductions over a short last axis are slow)."""
    return a[:, 0] + a[:, 1] + a[:, 2]


_ONES = np.ones((1, 3), np.float32)  # B + G + R as cv2.transform's one output channel


def lightness(image: np.ndarray) -> np.ndarray:
    """B + G + R of each pixel of a uint8 image (or a float32 one holding whole numbers), float32 h x w: what
    :func:`sum3` of its pixels gives (whole numbers under 2**24 add exactly in any order), by one OpenCV pass (issue 24,
    round 29: 12 against 110 us on a 320 x 240 frame; numpy's ``sum(axis=2)`` took 2 ms)."""
    return cv2.transform(image.astype(np.float32, copy=False), _ONES)


def max3(a: np.ndarray) -> np.ndarray:
    """``a.max(axis=1)`` of an n x 3 array, the same way faster."""
    return np.maximum(np.maximum(a[:, 0], a[:, 1]), a[:, 2])


def _median0(a: np.ndarray) -> np.ndarray:
    """``np.median(a, axis=0)`` of a 2-D array without NaNs, the same values (the middle one, or the
    mean of the two middle ones), without its generic machinery (a fourth of its time on a grid's cells)."""
    n = a.shape[0]
    m = n // 2
    if n == 0:
        return np.median(a, axis=0)
    if n % 2:
        return np.partition(a, m, axis=0)[m]
    part = np.partition(a, (m - 1, m), axis=0)
    return (part[m - 1] + part[m]) / 2


def _commonest(rows: np.ndarray) -> np.ndarray:
    """The commonest row of small ints (of those as common, the first in sorted order: what
    ``np.unique(rows, axis=0, return_counts=True)`` and argmax give), one sortable key a row (five
    times faster than ``unique`` on rows)."""
    lo = rows.min(axis=0).astype(np.int64)
    span = rows.max(axis=0).astype(np.int64) - lo + 1
    key = ((rows[:, 0] - lo[0]) * span[1] + (rows[:, 1] - lo[1])) * span[2] + (rows[:, 2] - lo[2])
    if span.prod() <= 1 << 16:  # a count per key (argmax: the first, smallest, of the commonest keys)
        return rows[int(np.argmax(key == np.argmax(np.bincount(key))))]
    _, first, counts = np.unique(key, return_index=True, return_counts=True)
    return rows[first[int(np.argmax(counts))]]


def covered_cells(mask: np.ndarray, share: float = 0.1) -> np.ndarray:
    """The grid's cells (ROWS x COLS bool) of which more than ``share`` is set in ``mask`` (0/1, any size)."""
    return cv2.resize(mask.astype(np.float32), (COLS, ROWS), interpolation=cv2.INTER_AREA) > share


def even_light(small: np.ndarray) -> np.ndarray:
    """Divide out the lamp (format-2 profiles): a quadratic surface fitted to the frame's own
    cell brightnesses, cells far off it left out, made equally bright everywhere."""
    fit = np.maximum(floor_surface(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)), 1.0)
    gain = np.clip(float(np.median(fit)) / fit, 0.5, 3.0).astype(np.float32).reshape(ROWS, COLS, 1)
    gain = cv2.resize(np.repeat(gain, 3, axis=2), (small.shape[1], small.shape[0]), interpolation=cv2.INTER_LINEAR)
    return cv2.multiply(small, gain, dtype=cv2.CV_8U)


def floor_surface(channel: np.ndarray) -> np.ndarray:
    """The box bottom's smooth brightness on the grid: a quadratic surface fitted to the cell
    means, cells far off it (dice, a card, a hand, glare) left out."""
    tiny = cv2.resize(channel, (COLS, ROWS), interpolation=cv2.INTER_AREA)
    level = tiny.astype(np.float32).ravel() + 1.0
    keep = np.ones(level.shape, bool)
    for _ in range(3):
        fit = fit_surface(level, keep)
        keep = np.abs(level - fit) <= 0.12 * np.median(fit)
        if keep.sum() < 40:
            break
    return fit.reshape(ROWS, COLS) - 1.0


def drift_text(light: Light) -> str:
    """What the scoreboard says when the light moved beyond correction."""
    what = []
    (lo, hi), wb = CORRECTABLE
    if not lo <= light.exposure <= hi:
        what.append(f"{'brighter' if light.exposure > 1 else 'darker'} x{light.exposure:.2f}")
    if not 1 / wb <= light.warm <= wb:
        what.append(f"{'warmer' if light.warm > 1 else 'cooler'} white balance x{light.warm:.2f}")
    detail = f" ({', '.join(what)})" if what else ""
    return f"The light changed — recalibrate{detail}"


_MAPS: dict = {}


def profile_map(what: str, profile, shape: tuple[int, int], build):
    """``build()`` for this profile and frame shape, kept while the profile lives (a few at a time): the
    maps the reader takes from a profile for each frame (glare, floor, shade, spots)."""
    key = (what, id(profile), shape)
    hit = _MAPS.get(key)
    if hit is None or hit[0] is not profile:
        if len(_MAPS) > 32:
            _MAPS.clear()
        hit = _MAPS[key] = (profile, build())
    return hit[1]


def spots_at(profile, shape: tuple[int, int]) -> np.ndarray | None:
    """The profile's die-coloured spots of the empty box at ``shape`` (h, w), uint8 0/1, or None."""
    spots = getattr(profile, "spots", None)
    if spots is None:
        return None
    return profile_map("spots", profile, shape, lambda: cv2.resize(
        np.asarray(spots, np.uint8), (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST))


def prints_at(profile, shape: tuple[int, int]) -> np.ndarray | None:
    """Where the reader read the empty box itself as a die in shade (the profile's ``prints``) at ``shape`` (h, w),
    uint8 0/1, or None."""
    prints = getattr(profile, "prints", None)
    if prints is None:
        return None
    return profile_map("prints", profile, shape, lambda: cv2.resize(
        np.asarray(prints, np.uint8), (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST))


def sheen_at(profile, shape: tuple[int, int]) -> np.ndarray | None:
    """Where the lamp's mirror image paled a ritual die's top (the profile's ``sheen``) at ``shape`` (h, w), uint8
    0/1, or None."""
    sheen = getattr(profile, "sheen", None)
    if sheen is None:
        return None
    return profile_map("sheen", profile, shape, lambda: cv2.resize(
        np.asarray(sheen, np.uint8), (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST))


def shade_gain(profile, shape: tuple[int, int]) -> np.ndarray | None:
    """The gain (h x w x B, G, R float32) that lifts the profile's shaded floor to the open floor's light,
    at ``shape`` (h, w); None for a profile without a shade map."""
    shade = getattr(profile, "shade", None)
    if shade is None:
        return None
    share = lambda: np.clip(np.asarray(shade, np.float32) / 100.0, DEEPEST, 1.0)  # noqa: E731
    return profile_map("shade", profile, shape, lambda: cv2.resize(
        1.0 / share(), (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR))
