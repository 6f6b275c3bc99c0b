"""Is a die cocked? Its shaded flank says "maybe", the shape of its top and flank decide.

A die that leans shows more side face than perspective shows there (:func:`_leaning`: the flank's
amount, and its moment about the die's centre beyond what calibration predicts, "the flank test").
On the path-traced twin that test also fires on flat dice whose flank is lopsided for other reasons
(a wall's shade, a neighbour's shadow): as often as on dice that truly lean, and no threshold on
the flank's amount, moment, direction or distance to walls and dice tells them apart (issue 24,
fourth round). What does (fifth round): a leaning die's top is foreshortened along the way it
leans and its side face reaches a bounded width (the sine of the tilt) beyond it, while a flat
die's top keeps its full length and its lopsided shade reaches as far as the shade goes.

:func:`leans` is the flank test and then a logistic regression on five numbers measured along
the flank's direction (:func:`flank_shape`), fitted by ``scripts/fit_cocked.py`` on the twin's
truth (``calibration/cocked.npz``; which tables, in the file and in docs/vision.md). The threshold
keeps every truly cocked die of both splits flagged (with a margin): a cocked die not flagged may
be read wrong in silence. Since the seventh round the fit includes the propped tables (dice set leaning
on walls and on other dice, :func:`rig.twin.physics.throw`): dozens of truly cocked dice.

:func:`top_shape` measures a die whose lit top is not square (the top's aspect test calls it cocked):
its lit top joined to its own shade. A verdict on it (issue 24, sixth round) was not kept: on the seventh
round's propped tables no threshold that keeps every truly cocked die flagged frees a flat one
(``scripts/fit_cocked.py --test aspect`` says so); the top's aspect test alone decides.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import cv2
import numpy as np

from rig.vision.dice_frames import Work, _side_faces
from rig.vision.errors import VisionError
from rig.vision.pixel_classes import _IS_DARK, IS_TOP

WEIGHTS = Path(__file__).resolve().parents[2] / "calibration" / "cocked.npz"
#: what :func:`flank_shape` measures, in die sides along the flank's direction u (and across it)
FEATURES = ("top_len", "top_wid", "top_ratio", "flank_reach", "flank_radial")
#: what :func:`top_shape` measures of a die whose lit top is not square (sixth round): how much of its
#: least rectangle its lit top fills (a shadow's edge cuts a top at any angle, a tilted top stays a
#: rectangle), the same of its lit top joined to its own shaded body, and that body's area in tops (a
#: top half in shade is one top again, a tilted die shows its top and a side face)
ASPECT_FEATURES = ("lit_fill", "body_fill", "body_area")
#: the most shade of its own (in tops) a die whose lit top is not square could show and still be freed
SHADE_FREED = 1 / 3
#: a die whose flank's moment beyond perspective's is over this share of what this table's flat dice stray
#: is judged by the verdict too, and called cocked at a score of :data:`NEAR_SCORE` or more: twin 8902 turn 3's
#: die leaning 30 degrees on the wall (0.85-0.88 of it, score 1.2-1.5) passed as flat; chosen on the tuning twin tables (round 12)
NEAR = 0.8
NEAR_SCORE = 0.5
#: a flat die far out whose wall, seen in perspective, reads as part of its top: the top reads at least WALL_TOP
#: tops (a leaning die's top is foreshortened) and the flank's moment beyond perspective's points out from the
#: optical centre, its outward share at least OUTWARD (the wall joined to the top pulls the die's centre in, so
#: less flank is left on the centre's side than perspective predicts). It does not lean. Round 29, on the 2D sets
#: 43000, 47000, 51000 and 52000 (the 2D generator's dice, four lights): of the dice the flank test called leaning,
#: 94 of 121 flat ones are so (tops 1.1-1.7), none of 88 truly cocked ones (tops 0.61-0.94). Only where the
#: perspective walls grow fast (a low camera): calibration's flank growth per frame width out (``walls[1]``) at least
#: STEEP. The twin's leaning dice read 1.1-1.44 tops with their side face, the moment outward too (twin 10000-10005,
#: 10100-10105, 10900-10905: 39 such; their tables' growth 0-0.35, the 2D tables' freed 0.65-1.14)
WALL_TOP = 1.1
OUTWARD = 0.7
STEEP = 0.6


def _radial(obs, work: Work) -> tuple[float, float]:
    """The die's offset from the frame centre, in frame widths."""
    H, W = work.labels.shape
    w = W * work.factor
    return (obs.x - w / 2) / w, (obs.y - H * work.factor / 2) / w


def _steps(start: float, stop: float) -> np.ndarray:
    """``np.ogrid[start:stop]`` (float64 from ``start`` in steps of 1, as many as ``ceil(stop - start)``), the
    same numbers without ogrid's generic machinery (a fifth of :func:`_around`'s time)."""
    return np.arange(math.ceil(stop - start), dtype=np.float64) + start


def _around(obs, work: Work, others=()):
    """The window around a die (its box grown by 0.3 die sides, working scale), the die's own dark
    side faces in it (shade nearer another die read is that die's) and the pixel offsets from the
    die's centre: ``(dark, mine, xx, yy, x0, y0, lab)``; ``mine`` is False where another die is nearer
    (None: no other die near)."""
    f = work.factor
    r = max(2, int(round(work.side * 0.3)))
    H, W = work.labels.shape
    x, y, w, h = (v // f for v in obs.box)
    X0, Y0 = max(0, x - r), max(0, y - r)
    lab = work.labels[Y0 : min(H, y + h + r), X0 : min(W, x + w + r)]
    dark = _side_faces(cv2.LUT(lab, _IS_DARK), lab, work.small[Y0 : Y0 + lab.shape[0], X0 : X0 + lab.shape[1]])
    yy = _steps(Y0 - obs.y / f, Y0 + lab.shape[0] - obs.y / f)[:, None]
    xx = _steps(X0 - obs.x / f, X0 + lab.shape[1] - obs.x / f)[None, :]
    mine = here = None  # everywhere, unless another die is near
    for d in (d for d in others if d is not obs and max(abs(d.x - obs.x), abs(d.y - obs.y)) < 2.5 * work.side * f):
        here = xx**2 + yy**2 if here is None else here  # (once a die, not once a neighbour)
        theirs = (xx - (d.x - obs.x) / f) ** 2 + (yy - (d.y - obs.y) / f) ** 2 < here  # nearer that die
        dark[theirs] = 0
        mine = ~theirs if mine is None else mine & ~theirs
    return dark, mine, xx, yy, X0, Y0, lab


def _flank(obs, work: Work, others=(), around: tuple | None = None) -> tuple[float, float, float]:
    """Die body in shade (or unknown) around a die: amount (die sides squared) and the moment
    of it about the die's centre (x, y, die sides cubed). A leaning die shows its darker side
    face on one side; a flat one thin rounded edges all round, and towards the view's edges
    the side walls perspective shows. ``around``: :func:`_around`'s window of the die, when the caller has it."""
    f = work.factor
    dark, _, _, _, X0, Y0, _ = around if around is not None else _around(obs, work, others)
    m = cv2.moments(dark, binaryImage=True)
    if m["m00"] == 0:
        return 0.0, 0.0, 0.0
    cx, cy = (obs.x + 0.5) / f - 0.5 - X0, (obs.y + 0.5) / f - 0.5 - Y0
    s3 = work.side**3
    return m["m00"] / work.side**2, (m["m10"] - cx * m["m00"]) / s3, (m["m01"] - cy * m["m00"]) / s3


def _moment(obs, work: Work, t, walls, others=(), around: tuple | None = None) -> tuple[float, float, float, float, float]:
    """The flank test's numbers: excess amount over what perspective shows there, the moment beyond
    perspective's (x, y), and how far this table's flat dice stray: ``(excess, mx, my, stray, r)``."""
    amount, mx, my = _flank(obs, work, others, around)
    rx, ry = _radial(obs, work)
    a0, a1, k = walls[:3]
    r = float(np.hypot(rx, ry))
    stray = max(t.flank_moment, 2.0 * walls[4]) if len(walls) > 4 else t.flank_moment  # this table's flat dice stray so far
    return amount - (a0 + a1 * r), mx - k * rx, my - k * ry, stray, r


def _leaning(obs, work: Work, t, walls=(0.0, 0.0, 0.0, 0.0), others=()) -> bool:
    """The flank test: a die leans when it shows more side face than perspective shows there:
    ``walls`` (from calibration) predicts the shaded flank of a flat die at each place — its amount
    grows, and its weight points towards the optical centre, the farther the die is from it. Shade
    nearer another die read (``others``) is that die's rim, not this one's flank."""
    excess, mx, my, stray, _ = _moment(obs, work, t, walls, others)
    return _past_bound(excess, float(np.hypot(mx, my)), stray, t)


def _past_bound(excess: float, moment: float, stray: float, t) -> bool:
    """The flank test's bound: more shaded flank than perspective shows there, or its moment beyond how far
    this table's flat dice stray."""
    return excess > t.flank_area or moment > stray


def flank_shape(obs, work: Work, t, walls=(0.0, 0.0, 0.0, 0.0), others=(), moment: tuple | None = None,
                around: tuple | None = None) -> np.ndarray | None:
    """:data:`FEATURES` of a die, in die sides along u, the direction of its flank's moment beyond
    perspective's: the length of its top along u and across it (3rd to 97th percentile of its top
    pixels), their ratio, how far its flank reaches beyond its top (95th percentile), and the moment
    towards the frame's edge in units of what this table's flat dice stray. None without a flank
    or a top. ``moment``: :func:`_moment`'s numbers for the die, ``around``: :func:`_around`'s window of it, when
    the caller has them already (a die's window is made once for all its measures)."""
    around = around if around is not None else _around(obs, work, others)
    _, mx, my, stray, r = moment if moment is not None else _moment(obs, work, t, walls, others, around)
    n = float(np.hypot(mx, my))
    if n <= 0:
        return None
    ux, uy = mx / n, my / n
    dark, mine, xx, yy, _, _, lab = around
    top = cv2.LUT(lab, IS_TOP) > 0
    if mine is not None:
        top &= mine
    if not top.any() or not dark.any():
        return None
    s = work.side
    along = (xx * ux + yy * uy) / s
    across = (yy * ux - xx * uy) / s
    lo, hi = np.percentile(np.broadcast_to(along, lab.shape)[top], (3, 97))
    plo, phi = np.percentile(np.broadcast_to(across, lab.shape)[top], (3, 97))
    reach = float(np.percentile(np.broadcast_to(along, lab.shape)[dark > 0], 95)) - hi
    rx, ry = _radial(obs, work)
    radial = (mx * rx + my * ry) / max(r, 1e-6) / stray
    length, width = hi - lo, phi - plo
    return np.array([length, width, length / max(width, 1e-3), reach, radial], np.float64)


class CockedCheck:
    """The fitted verdict: standardised ``features`` (:data:`FEATURES` or :data:`ASPECT_FEATURES`),
    weights ``w``, bias ``b``; cocked at a score of ``threshold`` or more."""

    def __init__(self, w, b, mean, std, threshold, features=FEATURES) -> None:
        self.w, self.b = np.asarray(w, np.float64), float(b)
        self.mean, self.std, self.threshold = np.asarray(mean, np.float64), np.asarray(std, np.float64), float(threshold)
        self.features = tuple(features)

    def score(self, x: np.ndarray) -> np.ndarray:
        return ((np.atleast_2d(x) - self.mean) / self.std) @ self.w + self.b

    def cocked(self, x: np.ndarray) -> bool:
        return bool(self.score(x)[0] >= self.threshold)

    def save(self, path: Path, **notes) -> None:
        np.savez(path, w=self.w, b=self.b, mean=self.mean, std=self.std, threshold=self.threshold,
                 features=np.array(self.features), **notes)

    @classmethod
    def load(cls, path: Path = WEIGHTS, features=FEATURES) -> CockedCheck:
        try:
            with np.load(path) as z:
                if tuple(str(v) for v in z["features"]) != tuple(features):
                    raise VisionError(f"{path}: fitted on other features than {', '.join(features)}")
                return cls(z["w"], float(z["b"]), z["mean"], z["std"], float(z["threshold"]), features)
        except (OSError, KeyError, ValueError) as exc:
            raise VisionError(f"cannot read the cocked-die check {path}: {exc}") from None


@functools.lru_cache(maxsize=1)
def check() -> CockedCheck:
    return CockedCheck.load()


def leans(obs, work: Work, t, walls=(0.0, 0.0, 0.0, 0.0), others=(), verdict: CockedCheck | None = None,
          around: tuple | None = None) -> bool:
    """The flank test, and then the fitted verdict on the shape of the die's top and flank. A die whose
    flank's moment comes near the test's bound (:data:`NEAR`) without passing it is judged by the verdict
    too, at a higher bar (:data:`NEAR_SCORE`). ``around``: :func:`_around`'s window of the die, when the caller has it."""
    around = around if around is not None else _around(obs, work, others)  # once a die: the flank test and its shape
    numbers = _moment(obs, work, t, walls, others, around)
    excess, mx, my, stray, _ = numbers
    moment = float(np.hypot(mx, my))
    past = _past_bound(excess, moment, stray, t)
    if not past and moment <= NEAR * stray or wall_as_top(obs, work, walls, mx, my):
        return False
    x = flank_shape(obs, work, t, walls, others, numbers, around)
    verdict = verdict or check()
    if past:
        return x is None or verdict.cocked(x)
    return x is not None and float(verdict.score(x)[0]) >= max(verdict.threshold, NEAR_SCORE)



def wall_as_top(obs, work: Work, walls, mx: float, my: float) -> bool:
    """Whether a die's lopsided flank is a flat die's perspective wall read as part of its top (:data:`WALL_TOP`,
    :data:`OUTWARD`, :data:`STEEP`): ``walls`` calibration's, ``(mx, my)`` its flank's moment beyond perspective's
    (:func:`_moment`)."""
    if obs.area < WALL_TOP or len(walls) < 2 or walls[1] < STEEP:
        return False
    rx, ry = _radial(obs, work)
    r, moment = math.hypot(rx, ry), math.hypot(mx, my)
    return r > 0 and moment > 0 and (mx * rx + my * ry) / r >= OUTWARD * moment


def _fill(mask: np.ndarray) -> float:
    """The share of the least rectangle round ``mask`` (to the pixels' outer edges) that it fills."""
    pts = cv2.findNonZero(mask.view(np.uint8))
    (_, _), (w, h), _ = cv2.minAreaRect(pts)
    return float(len(pts)) / ((w + 1.0) * (h + 1.0))



def _joined(obs, work: Work, others=(), around: tuple | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The die's lit top and its lit top joined to the shade of its own hue that touches it (within
    0.3 die sides of it; shade nearer another die read is that die's): two masks of its window, or
    None without a top there. ``around``: :func:`_around`'s window of the die, when the caller has it."""
    dark, mine, _, _, _, _, lab = around if around is not None else _around(obs, work, others)
    top = cv2.LUT(lab, IS_TOP) > 0
    if mine is not None:
        top &= mine
    if np.count_nonzero(top) < 4:
        return None
    _, cc = cv2.connectedComponents((top | (dark > 0)).view(np.uint8), connectivity=8)
    return top, np.isin(cc, np.unique(cc[top])) & (cc > 0)


def top_shape(obs, work: Work, others=(), around: tuple | None = None) -> np.ndarray | None:
    """:data:`ASPECT_FEATURES` of a die (working scale); None without a top in its window."""
    masks = _joined(obs, work, others, around)
    if masks is None:
        return None
    return _shape(*masks, work)


def _shape(top: np.ndarray, body: np.ndarray, work: Work) -> np.ndarray:
    return np.array([_fill(top), _fill(body), np.count_nonzero(body) / work.top_area], np.float64)


#: the hand-made measures of a die the second look (:mod:`rig.vision.dice_second_look`) may be given beside its
#: crop: the top's aspect with what perspective predicts added back and its area in tops (the reader's own), the
#: flank's excess over perspective's in flank_area units and its moment beyond perspective's in units of what the
#: table's flat dice stray, whether the die has a flank and a top to measure, :data:`FEATURES` and :data:`ASPECT_FEATURES`
MEASURES = ("aspect", "area", "excess", "moment", "shaped", *FEATURES, *ASPECT_FEATURES)


def measures(obs, work: Work, t, walls=(0.0, 0.0, 0.0, 0.0), others=()) -> np.ndarray:
    """:data:`MEASURES` of a die (float32; a flank or top that cannot be measured gives zeros and ``shaped`` 0).
    Measures only: no verdict changes."""
    rx, ry = _radial(obs, work)
    around = _around(obs, work, others)  # once a die, for all three
    numbers = _moment(obs, work, t, walls, others, around)
    excess, mx, my, stray, _ = numbers
    flank = flank_shape(obs, work, t, walls, others, numbers, around)
    top = top_shape(obs, work, others, around)
    out = [obs.aspect + walls[3] * float(np.hypot(rx, ry)), obs.area, excess / t.flank_area,
           float(np.hypot(mx, my)) / stray, float(flank is not None and top is not None)]
    out += list(flank) if flank is not None else [0.0] * len(FEATURES)
    out += list(top) if top is not None else [0.0] * len(ASPECT_FEATURES)
    return np.clip(np.nan_to_num(np.array(out, np.float32)), -20.0, 20.0)
