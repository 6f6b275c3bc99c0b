"""The finder run only where the frame could hold its peaks: a finer pyramid level, or the second pass, on tiles around
what the passes before it responded to (issue 25, round 15; :meth:`rig.vision.dicenet.DiceNet.level`).

The finder is convolutional: its output at a cell depends only on the input within :data:`REACH` finder px of it, so
the net run on a tile of the scaled frame (:func:`rig.vision.dicenet.finder_input`) gives, at the cells :data:`REACH`
or more inside the tile's edges (and at the frame's own edges), the very numbers it gives on the whole frame
(checked to the bit with both engines, ``tests/vision/test_dicetiles.py``; the tile's corner on the cell grid).

Where to look: a finer level's (or the second pass's) cells above the floor lie near cells where the passes run
whole before it respond above :data:`GUIDE` — on the 112 frames of ``scripts/pip_speed.py``'s corpus (tuning photos,
drawn things, pip twin tables 9100-9105; all seen) every cell above 0.45 within 0.61 of the pass's die size of a
coarse level's cell above 0.05 (0.30 with the finer levels run whole too; at floor 0.2 up to 1.8 dice), and within
0.77 of such a cell of the one pass run whole nearest it in scale (round 16, :data:`NEAREST`) — so the cells within
:data:`AROUND` of its die size of such a response are run, only for passes whose peaks are taken from
:data:`FLOOR` up, and the rest of the map is 0 (no peak there). A pass run on tiles guides no later one (its map is 0
where it did not run, and a finer pass's die-like peak can lie where only it responds: a coloured tuning photo at x1
lost one so). Tiles are the bounding boxes of those cells' parts, grown by :data:`REACH`, two merged when their tiles
overlap and the merged one is no larger; when they would cover more than :data:`WHOLE` of the pass's finder pixels
the frame is run whole.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from rig.vision.dicepeaks import STRIDE  # finder input px per heat-map cell
#: the finder's reach (finder input px): two stride-2 3x3 convolutions, then 3x3 ones dilated 1, 2, 4 at stride 4;
#: a tile's cells this far inside its edges are the whole frame's, to the bit (a multiple of the stride)
REACH = 32
#: a coarser pass's cell above this is a response a finer pass's peaks can lie near (0: tiles never used)
GUIDE = 0.05
#: ... within this many of the finer pass's die size (its FIND_DIE finder px)
AROUND = 1.0
#: only the guides this many nearest the pass in scale are looked at (0: every guide)
NEAREST = 1
#: tiles only for passes whose peaks are taken from this floor up (``read_dice``'s, ``[anydie] find_keep``: the
#: distances above were measured for it)
FLOOR = 0.45
#: a tiled pass with a cell above this on its run cells' rim is run whole (its response may go on past the tiles)
EDGE = FLOOR / 2
#: the frame is run whole when the tiles would cover more than this share of its finder pixels
WHOLE = 0.9


def cells_near(guides: list[tuple[np.ndarray, np.ndarray, float]], grid: tuple[int, int], s: float, die: float
               ) -> np.ndarray:
    """A uint8 mask over a pass's heat-map cells (``grid`` rows x columns, frame-to-finder scale ``s``, dice of
    ``die`` finder px): the cells within :data:`AROUND` dice of the centre of a guide's (an earlier pass's (heat,
    sides, scale)) cell above :data:`GUIDE`, of the :data:`NEAREST` guides nearest ``s`` in scale."""
    mask = np.zeros(grid, np.uint8)
    if NEAREST:
        guides = sorted(guides, key=lambda g: abs(math.log(g[2] / s)))[:NEAREST]
    for heat, _, sg in guides:
        ys, xs = np.nonzero(heat > GUIDE)
        # the guide cells' centres in frame px, then in this pass's cells
        r = np.clip(((ys + 0.5) * s / sg).astype(np.int64), 0, grid[0] - 1)
        c = np.clip(((xs + 0.5) * s / sg).astype(np.int64), 0, grid[1] - 1)
        mask[r, c] = 1
    radius = math.ceil(AROUND * die / STRIDE) + 1  # + 1: a centre rounded down to its cell
    return cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1)))


def tiles(mask: np.ndarray) -> list[tuple[int, int, int, int]] | None:
    """The boxes (row0, col0, row1, col1 in cells) covering ``mask``'s cells: its parts' bounding boxes, two merged
    when their tiles (grown by :data:`REACH`) overlap and the merged tile is no larger than the two; ``None``: run
    the frame whole (the tiles would cover more than :data:`WHOLE` of it)."""
    rows, cols = mask.shape
    reach = REACH // STRIDE

    def area(b: tuple[int, int, int, int]) -> int:  # the net's input cells for box b
        return (min(rows, b[2] + reach) - max(0, b[0] - reach)) * (min(cols, b[3] + reach) - max(0, b[1] - reach))

    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    boxes = [(int(y), int(x), int(y + h), int(x + w)) for x, y, w, h, _ in stats[1:]]
    merged = True
    while merged:
        merged = False
        for i, a in enumerate(boxes):
            for j in range(i + 1, len(boxes)):
                b = boxes[j]
                both = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                if a[0] < b[2] + 2 * reach and b[0] < a[2] + 2 * reach and a[1] < b[3] + 2 * reach and \
                        b[1] < a[3] + 2 * reach and area(both) <= area(a) + area(b):
                    boxes[i] = both
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return None if sum(area(b) for b in boxes) > WHOLE * rows * cols else boxes


def run_tiled(run, small: np.ndarray, boxes: list[tuple[int, int, int, int]], whole: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray, bool]:
    """The heat map and log side map of ``small`` (the finder's input) with the net (``run``: blob -> 2 x rows x
    columns) run only on ``boxes`` (cells) grown by :data:`REACH`, 0 elsewhere; and whether the tiles' edge is quiet:
    no cell on the run cells' rim (inside the frame) above :data:`EDGE` (else the response may go on outside them,
    where a peak would be cut off: the caller runs the frame whole). ``whole``: the net's output on all of ``small``, the
    boxes' cells cut from it (the same numbers) instead of run."""
    rows, cols = small.shape[0] // STRIDE, small.shape[1] // STRIDE
    out = np.zeros((2, rows, cols), np.float32)
    done = np.zeros((rows + 2, cols + 2), np.uint8)  # the cells run, the frame's edge counted as run
    done[0], done[-1], done[:, 0], done[:, -1] = 1, 1, 1, 1
    reach = REACH // STRIDE
    for r0, c0, r1, c1 in boxes:
        t0, l0 = max(0, r0 - reach), max(0, c0 - reach)
        t1, l1 = min(rows, r1 + reach), min(cols, c1 + reach)
        if whole is None:
            got = run(np.ascontiguousarray(small[t0 * STRIDE:t1 * STRIDE, l0 * STRIDE:l1 * STRIDE]))
            out[:, r0:r1, c0:c1] = got[:, r0 - t0:r1 - t0, c0 - l0:c1 - l0]
        else:
            out[:, r0:r1, c0:c1] = whole[:, r0:r1, c0:c1]
        done[r0 + 1:r1 + 1, c0 + 1:c1 + 1] = 1
    rim = (done & ~cv2.erode(done, np.ones((3, 3), np.uint8)).astype(bool))[1:-1, 1:-1].astype(bool)
    return out[0], out[1], not (out[0][rim] > EDGE).any()


def run_pass(run, small: np.ndarray, boxes: list[tuple[int, int, int, int]] | None, keep: dict | None = None,
             key: tuple[float, float] = (0.0, 1.0)) -> tuple[np.ndarray, np.ndarray, bool]:
    """A finder pass's heat map and log side map (``run``: blob -> 2 x rows x columns), and whether it ran on tiles:
    on ``boxes`` (:func:`run_tiled`) unless there are none or the tiles' rim responds, else whole. ``keep``: the pass
    is run whole even so and the tiles cut from its output, which is kept in ``keep`` as (heat, sides, scale) by die
    size (``key``: die size, scale; a weak level chosen again runs it whole: :class:`rig.vision.dicelevels.Passes`)."""
    whole = run(small) if boxes is not None and keep is not None else None
    if boxes is not None:
        heat, sides, quiet = run_tiled(run, small, boxes, whole)
        if quiet:  # else the response goes on past the tiles: run whole
            if whole is not None:
                keep[key[0]] = (whole[0], whole[1], key[1])
            return heat, sides, True
    out = run(small) if whole is None else whole
    return out[0], out[1], False
