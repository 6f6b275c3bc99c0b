"""Learned pip-dice reader: a small finder net and a small pip-count net, run by OpenCV's ``cv2.dnn`` or, when
installed, ONNX Runtime (:mod:`rig.vision.netengine`).

- The finder sees the frame scaled to :data:`FIND_LONG` px on its longer side and gives, every
  :data:`STRIDE` px, how likely a die's centre is there and how large that die is (CenterNet-style:
  the dice are the heat map's local peaks). Touching dice stay apart as separate peaks; walls,
  shadows and the tray's floor give no peak.
- The reader sees each found die in a :data:`CROP` x :data:`CROP` px crop of the full-size frame
  (:func:`crop_die`) and gives the probabilities of 0 (not a die) and of 1–6 pips.

Both nets (``calibration/dicenet_find.onnx``, ``calibration/dicenet_read.onnx``, together under 1 MB) are trained by
``scripts/train_dicenet.py`` on the *tuning* photographs of the two shared photo sets only (plus heavy augmentation:
rotation, flips, scale, colour, blur, JPEG). At inference only OpenCV and numpy are needed (ONNX Runtime, ``.[fast]``,
makes them about 1.5 times quicker). Every die comes with the finder's score and the reader's probability;
:func:`rig.vision.anydie.read_pip_dice` turns them into ``ok`` or a flag with a reason.
"""

from __future__ import annotations

import math
from pathlib import Path
from statistics import median  # np.median's floats for a short list, without its machinery

import cv2
import numpy as np

from rig.vision.anydie_params import AnyDieParams
from rig.vision.dicepeaks import (PIPS_SURE, STRIDE, PeakMemo, crowded, merged, on_one_die, peaks, pip_of_bigger,  # noqa: F401
                                  shows_pips)
from rig.vision.diebig import flag_big_boxes
from rig.vision.dicecandidate import Candidate
from rig.vision.dicelevels import (SLACK, Passes, chosen_again, expect_again, level_bound, once, thin_coarser, unread_coarsest,
                                   strength as _strength)
from rig.vision.diesplit import dice_at_level, pip_of_sure, sure_dice, ungrouped
from rig.vision.diecheck import candidate_features, check_needed, default_check
from rig.vision.diefaint import faint_kept, with_faint
from rig.vision.diegrow import GROWN, grown
from rig.vision.dielone import asking_worth
from rig.vision.dicepyramid import pyramid_levels, small_dice_seen
from rig.vision.diesmall import read_turned
from rig.vision.diesquare import squares_freed
from rig.vision.dicetiles import FLOOR as TILE_FLOOR, cells_near, run_pass, tiles
from rig.vision.errors import VisionError
from rig.vision.netengine import NetLoadError, as_blob, load_net
from rig.vision.pips import PipCount, PipDie

CALIBRATION = Path(__file__).resolve().parents[2] / "calibration"
FIND_WEIGHTS = CALIBRATION / "dicenet_find.onnx"
READ_WEIGHTS = CALIBRATION / "dicenet_read.onnx"
FIND_LONG = 256  # the finder's input: the frame scaled to this many px on its longer side ...
FIND_DIE = 15.0  # ... or, the dice's size known, scaled so that a die is this many px (as in training)
FIND_MAX = 1024  # the finder's input is never longer than this (small dice in a large frame)
FIND_ALIGN = 8  # ... padded to a multiple of this
CROP = 48  # the reader's input side, px
CROP_GROW = 1.3  # the reader's crop: this many times the die's side, centred on the die
SURE = 0.9  # a reading less sure than this is read again, mirrored
#: without a size hint the finder runs on a pyramid: the dice assumed to be these fractions of the frame's longer side
LEVELS = tuple(FIND_DIE / FIND_LONG * 1.5 ** k for k in range(-2, 4))  # 0.026 .. 0.198
MIN_DIE = 16.0  # ... for dice at least this many frame px wide
#: a level's strength: its this many strongest peaks, as the finder and the reader score them
VOUCH = 3
#: a crowded peak (:func:`crowded`) counts this much towards its level's strength
CROWDED = 0.3
#: a level's strength is lowered by this per step away from the finder's own size (FIND_DIE / FIND_LONG)
STEP_COST = 0.06
#: a coarser level's peak this strong (finder x reader) holding two of a finer level's peaks makes them pips
SURE_DIE = 0.7
PIPS_ALL_PEAKS = True  # ... counting all the finer level's peaks there (not only the VOUCH it scores)
#: a level vouches for the peaks whose side (finder px) is within this band around FIND_DIE
BAND = (0.65 * FIND_DIE, 1.6 * FIND_DIE)
#: the pyramid is run coarse to fine (:meth:`DiceNet.level`); a finer level is skipped when the strongest level so
#: far is within this of the most the finer one could score (1 - its step cost; 0: the full pyramid's choice, always)
SKIP_SLACK = 0.05
#: with no size hint the finder runs once more at the level's die size (the median side of its strongest peaks) times
#: this: the dice brought into the size the finder reads best at (:meth:`DiceNet.find`; the learned size's factor too)
REFINE = 0.8
REFINE_NEAR = 1.1  # ... unless the chosen level's own size is within this factor of it (its output is kept)
#: coarse to fine, the finer levels are not run once the strongest level so far is this strong and its dice (the median
#: side of its scored peaks) are more than STOP_BAND times the next finer level's die size: the dice found sure lie
#: outside what that level vouches for, only pips or smaller things could (0: never stop so)
STOP_SURE = 0.7
STOP_BAND = 1.3
#: with no size hint the level is chosen on the finder's peaks above this (0: above the caller's floor, find_keep)
LEVEL_FLOOR = 0.0
#: a coarser level's peak holding two of a finer level's dice, its face the floor's, is scored CROWDED: a group of small
#: dice, not one die (:func:`rig.vision.diesplit.ungrouped`; False: as before round 28)
GROUPS = True
#: with no size hint, a level's peak on a die the second pass read this surely is not read (0: every peak read)
DUPES_SURE = 0.9
#: the coarsest levels that cannot win are not read (:mod:`rig.vision.dicelevels`; the same choice, fewer crops)
UNREAD_LEVELS = True


#: the reader's hidden layer, as OpenCV 5 and 4 name it (:meth:`DiceNet.read_features`)
HIDDEN = ("onnx_node!/head/head.2/Relu", "/head/head.2/Relu")


class DiceNetError(VisionError):
    """A net file is missing or unreadable."""


def finder_input(frame: np.ndarray, die_px: float = 0.0) -> tuple[np.ndarray, float]:
    """The frame scaled for the finder (longer side :data:`FIND_LONG`; with ``die_px``, the dice's side
    in frame px, so that a die is :data:`FIND_DIE` px; edges replicated up to a multiple of
    :data:`FIND_ALIGN`) and the scale (finder px per frame px).

    >>> [finder_input(np.zeros((480, 640, 3), np.uint8), die)[0].shape[:2] for die in (0, 80)]
    [(192, 256), (96, 120)]
    """
    h, w = frame.shape[:2]
    s = FIND_LONG / max(h, w) if die_px <= 0 else min(FIND_DIE / die_px, FIND_MAX / max(h, w))
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    # bilinear like the finder's training tiles (cv2.warpAffine has no area mode), and ~5x quicker than INTER_AREA
    small = cv2.resize(frame, (nw, nh), interpolation=cv2.INTER_LINEAR)
    pw, ph = -nw % FIND_ALIGN, -nh % FIND_ALIGN
    if pw or ph:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    return small, s


def crop_matrix(x: float, y: float, side: float, angle: float = 0.0, size: int = CROP) -> np.ndarray:
    """The 2x3 affine map from frame px to the ``size`` px crop of :func:`crop_die`."""
    m = cv2.getRotationMatrix2D((float(x), float(y)), float(angle), size / (CROP_GROW * max(side, 2.0)))
    m[:, 2] += (size / 2 - x, size / 2 - y)
    return m


def crop_die(frame: np.ndarray, x: float, y: float, side: float, angle: float = 0.0, size: int = CROP) -> np.ndarray:
    """The ``size`` px square around centre (x, y) (frame px, continuous coordinates) covering
    ``CROP_GROW * side`` frame px, turned by ``angle`` degrees; edges replicated."""
    return cv2.warpAffine(frame, crop_matrix(x, y, side, angle, size), (size, size), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


class DiceNet:
    """The two nets, loaded once (:func:`default_dicenet`); :meth:`candidates` runs them on a frame. ``crop``: the
    reader's input side (px); ``sure``: a reading less sure than this is read again mirrored (0: never)."""

    def __init__(self, find: Path = FIND_WEIGHTS, read: Path = READ_WEIGHTS, *, crop: int = CROP,
                 sure: float = SURE) -> None:
        # OpenCV 5's classic engine runs the reader's small batches ~40 % quicker than the new one (the
        # finder ~25 % slower), same outputs; OpenCV 4 has the classic engine only
        # (:mod:`rig.vision.netengine`: ONNX Runtime when installed, else these engines)
        self.finder, self.reader = _load(find), _load(read, "ENGINE_CLASSIC", HIDDEN)
        self.crop, self.sure = crop, sure
        #: the reader's hidden layer (its ReLU before the last layer), for the second opinion; "" when absent
        self.hidden = self.reader.hidden
        #: run every pyramid level with no size hint (:meth:`level`'s ``full``), not the coarse-to-fine search
        self.full_pyramid = False
        #: with no size hint, run the finder again at the size it reads best at (:meth:`normalised`)
        self.refine = True
        #: run the finer levels and the second pass only near the earlier passes' response (:mod:`rig.vision.dicetiles`)
        self.tiled = True

    def _peaks(self, heat: np.ndarray, sides: np.ndarray, floor: float) -> list[tuple[float, float, float, float]]:
        """:func:`peaks`, each finder output's found once (:class:`rig.vision.dicepeaks.PeakMemo`, made at first use)."""
        if "_peak_memo" not in self.__dict__:
            self._peak_memo = PeakMemo()
        return self._peak_memo(heat, sides, floor)

    def heat(self, frame: np.ndarray, die_px: float = 0.0, guides: list | None = None
             ) -> tuple[np.ndarray, np.ndarray, float]:
        """The finder's heat map (0..1) and log side map (cells), and the frame-to-finder scale (:meth:`finder_pass`'s
        output, whether it ran on tiles aside)."""
        return self.finder_pass(frame, die_px, guides)[0]

    def finder_pass(self, frame: np.ndarray, die_px: float = 0.0, guides: list | None = None, keep: dict | None = None
                    ) -> tuple[tuple[np.ndarray, np.ndarray, float], bool]:
        """:meth:`heat`'s output, and whether it ran on tiles: with ``guides`` (the outputs of the passes run whole
        before on this frame; :attr:`tiled`) run only near their response, 0 elsewhere (:mod:`rig.vision.dicetiles`;
        run whole when the tiles would cover most of it or their rim responds), never kept on the net (a tiled pass
        guides no other; two frames read in turn, or by two threads, cannot see each other's). ``keep``: a pass due on
        tiles runs whole, the tiles cut from it, the whole output kept there by die size (:class:`dicelevels.Passes`)."""
        small, s = finder_input(frame, die_px)
        boxes = tiles(cells_near(guides, (small.shape[0] // STRIDE, small.shape[1] // STRIDE), s, FIND_DIE)) \
            if guides and self.tiled else None
        heat, sides, tiled = run_pass(lambda tile: self.finder.run(as_blob(tile[None]))[0][0], small, boxes, keep, (die_px, s))
        return (heat, sides, s), tiled

    def read(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities (N x 7) of ``crop`` px crops; a crop read less than ``sure`` surely is
        read again mirrored (a mirrored face shows as many pips), the two averaged."""
        return self.read_features(crops, hidden=False)[0]

    def read_features(self, crops: list[np.ndarray], hidden: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
        """:meth:`read`'s probabilities and, with ``hidden``, the reader's hidden layer (N x 96, averaged
        like the probabilities; ``None`` when the net file's layers are named otherwise)."""
        p, f = self._probabilities(crops, hidden)
        again = np.nonzero(p.max(axis=1) < self.sure)[0]
        if len(again):
            p2, f2 = self._probabilities([np.ascontiguousarray(crops[i][:, ::-1]) for i in again], hidden)
            p[again] = (p[again] + p2) / 2
            if f is not None and f2 is not None:
                f[again] = (f[again] + f2) / 2
        return p, f

    def read_at(self, frame: np.ndarray, dice: list[tuple[float, float, float]]) -> np.ndarray:
        """Class probabilities (N x 7) of the dice at (x, y, side) in ``frame``."""
        return self.read([crop_die(frame, x, y, side, size=self.crop) for x, y, side in dice])

    def _probabilities(self, crops: list[np.ndarray], hidden: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        if not crops:
            return np.zeros((0, 7), np.float32), (np.zeros((0, 96), np.float32) if hidden else None)
        z, f = self.reader.run(as_blob(np.stack(crops)), hidden)
        if f is not None:
            f = f.reshape(len(crops), -1).copy()
        z = z.reshape(len(crops), 7)
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True), f

    def find(self, frame: np.ndarray, floor: float = 0.2, die_px: float = 0.0) -> list[tuple[float, float, float, float]]:
        """The finder's peaks above ``floor`` as (x, y, side, score) in frame px: at ``die_px`` (the dice's
        side in frame px) when known, else at the pyramid level :meth:`level` picks and at the size the
        finder reads best at (:meth:`normalised`; two peaks on one die: the stronger)."""
        found = self._found(frame, floor, die_px)
        return [found[i][:4] for i in merged([f[:3] for f in found], [f[3] for f in found])]

    def _found(self, frame: np.ndarray, floor: float, die_px: float, memo: dict | None = None, level_floor: float = 0.0,
               tile_floor: float = 0.0) -> list[tuple[float, float, float, float, bool]]:
        """The peaks of every pass as (x, y, side, score, alone) in frame px; ``alone``: a second-pass peak
        (:meth:`normalised`'s first output of two) with no first-pass peak nearer than half a side."""
        outs = [self.heat(frame, die_px)] if die_px > 0 else self.normalised(frame, floor, memo, level_floor, tile_floor)
        passes = [[(x / s, y / s, side / s, score) for x, y, side, score in self._peaks(heat, sides, floor)]
                  for heat, sides, s in outs]
        first = passes[-1]
        if len(passes) > 1 and memo is not None and DUPES_SURE > 0:
            # a level's peak on a die the second pass read surely is not read: the second pass's peak stands
            self._read_memo(frame, [f for f in passes[0] if f[3] >= tile_floor], memo)  # faint ones: when worth it
            sure = [f for f in passes[0] if f[3] >= level_floor and memo[f[:3]][0][1:].max() >= DUPES_SURE]
            passes[-1] = [f for f in first if f[:3] in memo or not any(on_one_die(f[:3], g[:3]) for g in sure)]
        return [(x, y, side, score, len(passes) > 1 and i == 0 and not any(
                    on_one_die((x, y, side), f[:3]) for f in first if f[3] >= level_floor))
                for i, found in enumerate(passes) for x, y, side, score in found]

    def normalised(self, frame: np.ndarray, floor: float = 0.2, memo: dict | None = None, level_floor: float = 0.0,
                   tile_floor: float = 0.0) -> list[tuple[np.ndarray, np.ndarray, float]]:
        """The finder's outputs with no size hint: the pyramid's level (:meth:`level`), and the finder run again
        with the frame scaled so that the level's dice are the size the finder reads best at (:data:`REFINE`:
        up when they are small, down when large), unless that level already is (:data:`REFINE_NEAR`).
        :meth:`find` keeps the stronger peak of the two on each die."""
        # tiles only where every peak kept is above the floor they were measured for (faint dice: run whole), or where
        tile = (tile_floor or floor) >= TILE_FLOOR  # every one from tile_floor up is (the fainter ones: a look only)
        floor = level_floor or floor  # the level and its size chosen above level_floor, the peaks kept above floor
        ran: list = []  # the passes run whole: the second pass runs near their response
        passes = Passes()  # a weak level chosen again (rig.vision.dicelevels.chosen_again): no pass run whole twice
        level_px, q, out = chosen_again(lambda f: self.level(frame, f, full=self.full_pyramid, memo=memo, ran=ran, tile=tile,
                                                             passes=passes), min(floor, LEVEL_FLOOR or floor))
        if q <= 0 or not self.refine:
            return [out]
        heat, sides, s = out
        kept = [side for _, _, side, _ in self._peaks(heat, sides, floor) if BAND[0] <= side <= BAND[1]][:VOUCH]
        if not kept:
            return [out]
        target = REFINE * float(median(kept)) / s
        if max(target, level_px) <= REFINE_NEAR * min(target, level_px):
            return [out]
        return [self.heat(frame, target, ran if tile and floor >= TILE_FLOOR else None), out]

    def die_size(self, frame: np.ndarray, floor: float = 0.2) -> tuple[float, float]:
        """The dice's side in frame px as the pyramid sees it (the median side of the chosen level's
        strongest peaks), and how sure (the level's strength, 0..1; 0: no dice seen)."""
        die_px, q, (heat, sides, s) = self.level(frame, floor, full=self.full_pyramid)
        kept = [side for _, _, side, _ in self._peaks(heat, sides, floor) if BAND[0] <= side <= BAND[1]][:VOUCH]
        return (float(median(kept)) / s if kept and q > 0 else die_px), q

    def level(self, frame: np.ndarray, floor: float = 0.2, *, full: bool = False, memo: dict | None = None,
              ran: list | None = None, tile: bool = True, passes: dict | None = None
              ) -> tuple[float, float, tuple[np.ndarray, np.ndarray, float]]:
        """The pyramid level the dice are best seen at: its die size (frame px), strength and finder output.

        The finder runs with the dice assumed :data:`LEVELS` of the frame's longer side (each level a step of 1.5 from
        the next; dice under :data:`MIN_DIE` px only in :mod:`rig.vision.dicepyramid`'s extra level); each level
        vouches for its :data:`VOUCH` strongest peaks of about the size it was trained on (:data:`BAND`), scored by the
        finder and by the reader (a pip seen as a small die, a level too fine, is read as no die or unsurely). The
        strongest level wins; a frame without dice gives the middle level, strength 0.

        The levels are run coarse to fine (a finer level's finder input is 1.5 x 1.5 times larger, the finest costs
        about half the pyramid): a finer level is skipped, with every finer one after it, when the strongest level so
        far is within :data:`SKIP_SLACK` of the most it could score (1 less its step cost). On the tuning photos (x0.4,
        x0.6, x1, x1.5) 0.05 keeps the full pyramid's figures (0.1 lost 9 dice of 1,125 at x0.6) and runs about 1.3-2.8
        times quicker. Nor is a finer level run once the strongest level's dice are sure (:data:`STOP_SURE`) and more
        than :data:`STOP_BAND` times its die size (tuning photos: 0.7 and 1.3 kept every scale's figures within 0.2
        points, a third fewer finder pixels at x1; 0.6 lost 0.7 points at x0.4 and x0.6, 1.1 0.3 points). The levels at
        the finder's size and coarser always run, their peaks read in one batch, and every die is read once per frame
        (``memo``). ``full``: every level is run (the search's reference, ``rig bench vision --game pips --scales``);
        ``memo``: the dice read, kept for :meth:`candidates` (:meth:`_read_memo`); ``ran``: the finder outputs of the
        passes run whole appended (a finer level runs near their response, :attr:`tiled`; ``tile`` false: every level
        whole)."""
        long_side = max(frame.shape[:2])
        levels = pyramid_levels(long_side, LEVELS, MIN_DIE, FIND_DIE, FIND_MAX)  # a step finer in small frames
        if not levels:  # a frame too small for any level
            return long_side / 16, 0.0, self.heat(frame, long_side / 16)
        memo = {} if memo is None else memo
        order = list(reversed(levels))
        # the levels at the finder's own size and coarser are run whatever comes (cheap: their inputs are small),
        # their peaks read in one batch; the finer ones one by one, as long as they could win
        coarse = [self._level_peaks(frame, r * long_side, floor, None, passes) for r in order if _steps(r) >= 0]
        ran = [] if ran is None else ran
        ran.extend(level[2] for level in coarse if all(level[2] is not out for out in ran))
        bounds = [level_bound(level, CROWDED, STEP_COST) for level in coarse]
        skip = self._unread(frame, coarse, bounds, memo) if UNREAD_LEVELS and not full and coarse else 0
        self._read_memo(frame, [f for level in coarse[skip:] for f in level[4]], memo)
        mark = len(ran)
        finer: dict = {}
        best, low = self._search(frame, order, coarse, skip, floor, full, memo, ran, tile, finer, passes)
        if skip and low <= max(bound for bound, _ in bounds[:skip]):  # one left out might have led: all read, again
            del ran[mark:]
            self._read_memo(frame, [f for level in coarse[:skip] for f in level[4]], memo)
            best, _ = self._search(frame, order, coarse, 0, floor, full, memo, ran, tile, finer, passes)
        return best[0], max(0.0, best[1]), best[2]

    def _unread(self, frame: np.ndarray, coarse: list, bounds: list, memo: dict) -> int:
        """How many of the coarsest levels :meth:`level` leaves unread (:func:`rig.vision.dicelevels.unread_coarsest`),
        the level of the highest bound read and scored first."""
        j = max(range(len(coarse)), key=lambda i: bounds[i][0])
        scored = self._scored(frame, coarse[j], memo)[3]
        likeliest = _strength(scored, [1.0] * len(scored)) - STEP_COST * abs(coarse[j][1])
        return unread_coarsest(bounds[:j], likeliest)

    def _search(self, frame: np.ndarray, order: list, coarse: list, skip: int, floor: float, full: bool, memo: dict,
                ran: list, tile: bool, finer: dict, passes: dict | None) -> tuple[tuple, float]:
        """:meth:`level`'s search, coarse to fine, the ``skip`` coarsest levels left out: the strongest level (die_px,
        strength, finder output, its dice's median side) and the least strength a level had when it led."""
        long_side, low = max(frame.shape[:2]), math.inf
        seen = []  # per level, coarse to fine: die_px, steps from the finder's own size, finder output, scored peaks
        best: tuple[float, float, tuple, float] | None = None
        for i, r in enumerate(order[skip:], skip):
            steps = _steps(r)  # < 0: a finer level (smaller dice)
            if not full and steps < 0 and best is not None and best[1] >= 1.0 - STEP_COST * abs(steps) - SKIP_SLACK:
                break  # this level, and every finer one, could beat the strongest so far by SKIP_SLACK at most
            if not full and steps < 0 and best is not None and 0 < STOP_SURE <= best[1] and best[3] > STOP_BAND * r * long_side:
                break  # the sure dice found are too large for this level (and every finer one) to vouch for
            if not full and best is not None and not small_dice_seen(steps, seen, best):
                break  # the extra level for small dice (rig.vision.dicepyramid), none seen so far
            if i >= len(coarse) and i not in finer:  # a finer level's pass, kept for a search again
                expect_again(passes, best)
                finer[i] = (self._level_peaks(frame, r * long_side, floor, ran if tile else None, passes), len(ran))
            elif i >= len(coarse) and len(ran) < finer[i][1]:
                ran.append(finer[i][0][2])  # run whole the first time: guides the finer ones as then
            this_level = coarse[i] if i < len(coarse) else finer[i][0]
            die_px, steps, out, scored = self._scored(frame, this_level, memo)
            heat, sides, s = out  # all this level's peaks, not only those scored: a die showing 2 holds two
            here = [(x / s, y / s) for x, y, _, _ in self._peaks(heat, sides, floor)] if PIPS_ALL_PEAKS else scored
            # a coarser level's sure die holding this level's peaks (diesplit.pip_of_sure): those are its pips
            big = sure_dice(frame, seen, memo, SURE_DIE, here, coarse[:skip], lambda f: self._read_memo(frame, f, memo))
            unread_big = [p[:3] for level in coarse[:skip] for p in level[4] if p[3] + SLACK >= SURE_DIE]
            pips = [CROWDED if pip_of_sure(x, y, side, here, big, memo) and not shows_pips(memo[(x, y, side)][0]) else 1.0
                    for x, y, side, _ in scored]
            if any(w == 1.0 and pip_of_bigger(x, y, here, unread_big) and not shows_pips(memo[(x, y, side)][0])
                   for (x, y, side, _), w in zip(scored, pips)):
                low = -math.inf  # an unread level's peak might be a sure die holding these as its pips: all read, again
            # a level away from the finder's own (the photo sets' dice) must be the stronger for it
            q = _strength(scored, pips) - STEP_COST * abs(steps)
            seen.append([die_px, steps, out, scored, q, pips, 1.0])
            thin_coarser(seen, this_level[3], lambda f: self._read_memo(frame, f, memo) or memo, BAND, VOUCH, STEP_COST)
            dice_here = dice_at_level(scored, memo, here) if GROUPS else []
            while len(dice_here) >= 2:  # the strongest coarser level's die holding two of them is a group: looked at
                top = max(seen, key=lambda level: level[4])  # only while a coarser level leads (its face is costly)
                grouped = ungrouped(frame, top[3], dice_here, CROWDED) if top is not seen[-1] else top[3]
                low = min(low, top[4]) if top is not seen[-1] else low
                if grouped == top[3]:
                    break
                top[3], top[4] = grouped, _strength(grouped, top[5]) * top[6] - STEP_COST * abs(top[1])
            top = max(seen, key=lambda level: level[4])  # the first (coarsest) of equals, as before
            low = min(low, top[4]) if i >= len(coarse) - 1 else low  # a coarse level's lead: for its group rule alone
            best = (top[0], top[4], top[2], float(median([side for _, _, side, _ in top[3]])) if top[3] else 0.0)
        return best, low

    def _level_peaks(self, frame: np.ndarray, die_px: float, floor: float, ran: list | None = None,
                     passes: dict | None = None) -> tuple:
        """One pyramid level's finder pass (:meth:`level`): die_px, steps from the finder's own size, finder
        output, its peaks and its :data:`VOUCH` strongest in :data:`BAND`, as (x, y, side, score) in frame px
        (``ran``: the passes run whole before, this one runs near their response; its output appended if run whole;
        ``passes``: the passes run whole by die size, one there not run again)."""
        out, tiled = once(passes, die_px, lambda keep: self.finder_pass(frame, die_px, ran if floor >= TILE_FLOOR else None, keep))
        if ran is not None and not tiled and all(out is not seen for seen in ran):  # a tiled pass's map: no guide
            ran.append(out)
        heat, sides, s = out
        found = [(x / s, y / s, side / s, score) for x, y, side, score in self._peaks(heat, sides, floor)]
        kept = [f for f in found if BAND[0] <= f[2] * s <= BAND[1]][:VOUCH]
        steps = math.log(die_px / max(frame.shape[:2]) * FIND_LONG / FIND_DIE) / math.log(1.5)  # < 0: finer
        return die_px, steps, out, found, kept

    def _scored(self, frame: np.ndarray, level: tuple, memo: dict) -> tuple:
        """A level (:meth:`_level_peaks`) as die_px, steps, finder output, and its kept peaks scored by the
        finder and the reader (read once per frame: ``memo``)."""
        die_px, steps, out, found, kept = level
        self._read_memo(frame, kept, memo)
        # a peak crowded by another nearer than a die's side is a pip, not a die (a level too fine)
        scored = [(x, y, side, score * memo[(x, y, side)][0][1:].max() * (CROWDED if crowded(x, y, side, found) else 1.0))
                  for x, y, side, score in kept]
        return die_px, steps, out, scored

    def _read_memo(self, frame: np.ndarray, dice, memo: dict) -> None:
        """The dice ((x, y, side, ...) in frame px) not yet in ``memo`` read, in one batch, into it:
        (x, y, side) -> (class probabilities, hidden layer or None)."""
        todo = list(dict.fromkeys(tuple(d[:3]) for d in dice if tuple(d[:3]) not in memo))
        if todo:
            probs, hidden = self.read_features([crop_die(frame, x, y, side, size=self.crop) for x, y, side in todo])
            for i, key in enumerate(todo):
                memo[key] = (probs[i], None if hidden is None else hidden[i])

    def candidates(self, frame: np.ndarray, floor: float = 0.2, die_px: float = 0.0, level_floor: float = 0.0,
                   worth=None) -> list[Candidate]:
        """Every heat-map peak above ``floor`` (``worth(peaks, level_floor)``'s, given it: passes run as for level_floor), read
        (``die_px``: the dice's side in frame px, if known); two peaks on one die (a pass's and the next's): the surer."""
        memo: dict = {}
        found = self._found(frame, floor, die_px, memo, level_floor, level_floor if worth is not None else 0.0)
        found = found if worth is None else worth(found, level_floor)
        self._read_memo(frame, found, memo)
        read_turned([f[:3] for f in found], memo, lambda *die: crop_die(frame, *die, size=self.crop), self.read_features)
        cands = [Candidate(x, y, side, score, *memo[(x, y, side)], alone) for x, y, side, score, alone in found]
        # of two on one die the surer; one above level_floor (when given) before one below it (a faint peak)
        keep = merged([(c.x, c.y, c.side) for c in cands],
                      [c.score * float(c.probs[1:].max()) + (level_floor > 0 and c.score >= level_floor) for c in cands])
        return [cands[i] for i in keep]


def _steps(r: float) -> float:
    """A pyramid level's steps (of 1.5) from the finder's own size (:data:`FIND_DIE`); below 0: finer, smaller dice."""
    return math.log(r * FIND_LONG / FIND_DIE) / math.log(1.5)


def _load(path: Path, engine: str = "", hidden: tuple[str, ...] = ()):
    if not path.exists():
        raise DiceNetError(f"dice net {path} does not exist (run scripts/train_dicenet.py)")
    try:
        return load_net(path, engine, hidden)
    except NetLoadError as exc:
        raise DiceNetError(f"cannot read dice net {path}: {exc}") from None


_CACHE: list[DiceNet] = []


def default_dicenet() -> DiceNet | None:
    """The shipped nets, loaded once; ``None`` when their files are absent."""
    if not _CACHE:
        if not (FIND_WEIGHTS.exists() and READ_WEIGHTS.exists()):
            return None
        _CACHE.append(DiceNet())
    return _CACHE[0]


def judge(c: Candidate, p: AnyDieParams, filling: bool = False) -> PipDie | None:
    """A candidate as a die read ``ok``, flagged with its reasons, or ``None`` (no die); ``filling``: the dice count known."""
    k = c.pips
    pk, p0 = float(c.probs[k]), float(c.probs[0])
    if c.score < p.find_keep and not faint_kept(c.score, c.probs, p, filling):
        return None
    reasons = [GROWN] if c.grown else []
    if p0 > pk:
        if c.score < p.find_ok:
            return None
        reasons.append(f"the pip reader sees no die here ({p0:.2f})")
    if c.score < p.find_ok:
        reasons.append(f"faint die (finder {c.score:.2f})")
    elif k == 1 and c.score < p.one_ok:
        reasons.append(f"a 1 the finder is unsure of (finder {c.score:.2f}): a die, or a coin or knot?")
    if pk < (p.alone_read_ok if c.alone else p.read_ok):
        second = 1 + int(np.argsort(c.probs[1:])[-2])
        reasons.append(f"pips unclear: {k} ({pk:.2f}) or {second} ({float(c.probs[second]):.2f})")
    count = PipCount(k, (), round(min(pk, c.score), 3), "uncertain" if reasons else "ok", tuple(reasons))
    return PipDie(c.box, count)


def read_dice(frame: np.ndarray, p: AnyDieParams, nets: DiceNet, want: int = 0, missing: list | None = None,
              blank=None, agree=None) -> list[PipDie]:
    """Every die the nets find (small ones grown: :mod:`rig.vision.diegrow`), judged (:func:`judge`), top to bottom; ``want``:
    the dice count (0: not known; ``missing``: a list for the frame's reason to ask, :mod:`rig.vision.diemissing`), more
    than found: faint dice added; ``blank(c)``: no die (:mod:`rig.vision.anydie`); ``agree``: :mod:`rig.vision.dieagree`."""
    # a peak below find_keep is no die (judge); from faint_keep, the reader sure of it, it fills one missing (diefaint)
    keep = max(p.find_floor, p.find_keep)
    floor = max(p.find_floor, min(p.faint_keep or keep, keep)) if want or missing is not None else keep
    worth = asking_worth(missing, OVERLAP, p) if missing is not None and not want else None  # no count
    found = [c for c in nets.candidates(frame, floor, p.die_px, keep, worth) if judge(c, p, want > 0) is not None
             and not (blank and blank(c))]  # then a small box on a big die read again (rig.vision.diegrow)
    kept = [(c, agree(c, d) if agree else d) for c in grown(found, keep, frame, nets, crop_die, p)
            for d in [judge(c, p, want > 0)]]
    dice = squares_freed(frame, with_faint(kept, p, OVERLAP, second_opinion, want, missing), p)  # rig.vision.diesquare
    # two dice nearer than a die's side cannot both be dice (pips seen as dice, a die seen twice): flagged
    centres = [(d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2, d.box[2]) for d in dice]
    dice = [d.flagged("overlaps another die (pips seen as dice?)") if crowded(*c, centres, OVERLAP) else d
            for d, c in zip(dice, centres)]
    dice = flag_big_boxes(dice, p.big_box)  # a box far bigger than the others' is one around several dice: flagged
    return sorted(dice, key=lambda d: (d.box[1], d.box[0]))


def second_opinion(kept: list[tuple[Candidate, PipDie]], p: AnyDieParams) -> list[PipDie]:
    """The judged dice, each ``ok`` one :mod:`rig.vision.diecheck` finds unlike a die read right flagged (no check: the same)."""
    check = default_check() if p.check_ok > 0 else None
    x = candidate_features([c for c, _ in kept]) if check is not None else None
    if x is None:
        return [d for _, d in kept]
    like = check.likeness(x)
    return [d.flagged(f"unlike the dice the reader knows ({q:.2f}): a coin, a knot, a pip?")
            if d.count.status == "ok" and q < check_needed(c, p) else d for (c, d), q in zip(kept, like)]


OVERLAP = 0.8  # dice whose centres are nearer than this many sides are flagged (:func:`read_dice`)
