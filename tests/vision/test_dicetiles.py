"""The finder run on tiles (rig.vision.dicetiles, issue 25 round 15): a tile's heat map is the whole frame's away from
its edges, the finer passes run tiled only near the earlier passes' response (and only from the tile floor up), and a
committed frame read tiled as it is read whole; the face check's bands converted to Lab window by window as the whole
surroundings were.

The corpus check (112 frames read to the bit as main, both engines) is ``scripts/pip_speed.py compare``.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from rig.vision import dicenet, dicetiles, dieface
from rig.vision.dicetiles import AROUND, GUIDE, REACH, STRIDE, cells_near, run_tiled, tiles

SHIPPED = dicenet.FIND_WEIGHTS.exists() and dicenet.READ_WEIGHTS.exists()
needs_nets = pytest.mark.skipif(not SHIPPED, reason="no shipped nets")
#: a committed twin frame one of whose finer passes runs tiled
FRAME = Path(__file__).parent / "dice_twin" / "t8902-turn3.jpg"


def finder_out(nets, small):
    return nets.finder.run(cv2.dnn.blobFromImage(small, 1 / 255.0))[0][0]


@needs_nets
@pytest.mark.parametrize("die", [18.0, 30.0])
def test_a_tiles_heat_map_is_the_whole_frames_away_from_its_edges(die):
    nets = dicenet.DiceNet()
    small, _ = dicenet.finder_input(cv2.imread(str(FRAME)), die)
    whole = finder_out(nets, small)
    rows, cols = whole.shape[1:]
    boxes = [(3, 5, 20, 30), (rows - 12, cols - 15, rows, cols), (0, 0, 6, 9)]  # inside, at the far and near corners
    heat, sides, _ = run_tiled(lambda tile: finder_out(nets, tile), small, boxes)
    inside = np.zeros((rows, cols), bool)
    for r0, c0, r1, c1 in boxes:
        inside[r0:r1, c0:c1] = True
    assert np.abs(heat[inside] - whole[0][inside]).max() <= 1e-6 and np.abs(sides[inside] - whole[1][inside]).max() <= 1e-6
    assert not heat[~inside].any() and not sides[~inside].any()  # no peak where no tile ran
    # the reach is needed: a tile grown by less gives other numbers near its edges
    r0, c0, r1, c1 = boxes[0]
    short = finder_out(nets, np.ascontiguousarray(small[:(r1 + 2) * STRIDE, :(c1 + 2) * STRIDE]))
    assert np.abs(short[0][r0:r1, c0:c1] - whole[0][r0:r1, c0:c1]).max() > 1e-3


def guide(shape, scale, spots):
    heat = np.zeros(shape, np.float32)
    for (r, c), v in spots.items():
        heat[r, c] = v
    return heat, np.zeros(shape, np.float32), scale


def test_cells_near_a_response_above_the_guide_and_no_others():
    # the guide at half this pass's scale: its cell (5, 8) is this pass's (11, 17) (cells' centres)
    mask = cells_near([guide((20, 30), 0.5, {(5, 8): GUIDE + 0.01, (15, 25): GUIDE})], (40, 60), 1.0, 15.0)
    rows, cols = np.nonzero(mask)
    reach = np.sqrt((rows - 11) ** 2 + (cols - 17) ** 2)
    assert mask[11, 17] and reach.max() <= np.ceil(AROUND * 15 / STRIDE) + 1.5
    assert reach.max() >= AROUND * 15 / STRIDE  # a die around it, at least
    assert not mask[31, 51]  # at GUIDE, not above: no response
    assert not cells_near([guide((20, 30), 0.5, {(5, 8): GUIDE})], (40, 60), 1.0, 15.0).any()


def test_cells_near_only_the_guide_nearest_in_scale(monkeypatch):
    """A pass is guided by the pass run whole nearest it in scale (round 16): another guide's response, farther in
    scale, marks no cell, whichever order the guides come in."""
    near = guide((20, 30), 0.8, {(5, 8): 0.5})  # this pass's scale 1.0: 0.8 is nearer than 0.25
    far = guide((10, 15), 0.25, {(8, 12): 0.5})
    mask = cells_near([far, near], (40, 60), 1.0, 15.0)
    assert mask[6, 10] and not mask[33, 49]  # near's cell (5, 8) is this pass's (6, 10); far's (8, 12) is (34, 50)
    assert np.array_equal(mask, cells_near([near, far], (40, 60), 1.0, 15.0))
    assert np.array_equal(mask, cells_near([near], (40, 60), 1.0, 15.0))
    assert not cells_near([far, guide((20, 30), 0.8, {})], (40, 60), 1.0, 15.0).any()
    monkeypatch.setattr(dicetiles, "NEAREST", 0)  # every guide: far's response counts too
    assert cells_near([far, near], (40, 60), 1.0, 15.0)[33, 49]


def test_tiles_parts_merged_when_no_larger_and_the_whole_frame_when_they_cover_most():
    mask = np.zeros((100, 150), np.uint8)
    mask[10:14, 10:14] = 1
    mask[80:84, 130:134] = 1  # far apart: two tiles
    assert tiles(mask) == [(10, 10, 14, 14), (80, 130, 84, 134)]
    mask[10:14, 18:22] = 1  # beside the first: their tiles overlap and the two as one are smaller
    assert tiles(mask) == [(10, 10, 14, 22), (80, 130, 84, 134)]
    mask[:] = 0
    assert tiles(mask) == []  # nothing responded: the net is not run
    mask[5:95, 5:140] = 1
    assert tiles(mask) is None  # more than WHOLE of the frame: run whole


@needs_nets
def test_no_response_no_net_run_and_a_response_a_tile(monkeypatch):
    nets = dicenet.DiceNet()
    frame = cv2.imread(str(FRAME))
    sizes = []
    run = nets.finder.run
    monkeypatch.setattr(nets.finder, "run", lambda blob, *a: sizes.append(blob.shape[2:]) or run(blob, *a))
    quiet = guide((24, 32), 0.2, {})
    heat, sides, _ = nets.heat(frame, 20.0, [quiet])
    assert sizes == [] and not heat.any()
    heat, _, s = nets.heat(frame, 20.0, [guide((24, 32), 0.2, {(10, 10): 0.5})])
    (h, w), = sizes
    assert h < heat.shape[0] * STRIDE and w < heat.shape[1] * STRIDE and h <= 2 * REACH + 2 * (AROUND * 15 + 12)
    whole = (heat.shape[0] * STRIDE, heat.shape[1] * STRIDE)
    nets.tiled = False
    sizes.clear()
    nets.heat(frame, 20.0, [guide((24, 32), 0.2, {(10, 10): 0.5})])
    assert sizes == [whole]


@needs_nets
def test_a_tiled_pass_whose_rim_responds_is_run_whole(monkeypatch):
    nets = dicenet.DiceNet()
    frame = cv2.imread(str(FRAME))
    small, _ = dicenet.finder_input(frame, 40.0)
    whole = finder_out(nets, small)
    inner = whole[0][1:-1, 1:-1]  # the strongest cell away from the frame's edge, on a box's rim
    r, c = (int(v) + 1 for v in np.unravel_index(np.argmax(inner), inner.shape))
    box = (r, c, r + 6, c + 6)
    *_, quiet = run_tiled(lambda tile: finder_out(nets, tile), small, [box])
    assert not quiet and whole[0][r, c] > dicetiles.EDGE
    *_, quiet = run_tiled(lambda tile: finder_out(nets, tile), small, [(0, 0) + whole[0].shape])
    assert quiet  # the whole frame: no rim inside it
    sizes = []
    run = nets.finder.run
    monkeypatch.setattr(nets.finder, "run", lambda blob, *a: sizes.append(blob.shape[2:]) or run(blob, *a))
    monkeypatch.setattr(dicetiles, "EDGE", -1.0)  # every rim loud
    (heat, _, _), tiled = nets.finder_pass(frame, 40.0, [guide((24, 32), 0.2, {(10, 10): 0.5})])
    assert len(sizes) == 2 and sizes[-1] == small.shape[:2] and not tiled and np.array_equal(heat, whole[0])


@needs_nets
def test_a_committed_frame_is_read_tiled_as_it_is_read_whole(monkeypatch):
    frame = cv2.imread(str(FRAME))
    made = []
    real = dicenet.tiles
    monkeypatch.setattr(dicenet, "tiles", lambda mask: made.append(real(mask)) or made[-1])
    nets = dicenet.DiceNet()
    tiled = nets.candidates(frame, 0.45)
    assert any(m for m in made)  # a finer pass tiled
    nets.tiled = False
    made.clear()
    whole = nets.candidates(frame, 0.45)
    assert made == [] and len(tiled) == len(whole) > 0
    for a, b in zip(tiled, whole):
        assert (a.x, a.y, a.side, a.score, a.alone) == (b.x, b.y, b.side, b.score, b.alone)
        assert np.abs(a.probs - b.probs).max() <= 1e-6 and np.abs(a.features - b.features).max() <= 1e-5


@needs_nets
def test_passes_below_the_tile_floor_run_whole(monkeypatch):
    frame = cv2.imread(str(FRAME))
    made = []
    monkeypatch.setattr(dicenet, "tiles", lambda mask: made.append(mask) or None)
    nets = dicenet.DiceNet()
    nets.normalised(frame, dicetiles.FLOOR - 0.05)
    assert made == []
    nets.normalised(frame, dicetiles.FLOOR)
    assert made


@needs_nets
def test_a_frame_read_for_faint_dice_runs_every_pass_whole(monkeypatch):
    """With the game's dice count, peaks are kept from ``faint_keep`` (rig.vision.diefaint) while the level is chosen
    above ``find_keep``: no pass may be tiled, since a tiled map is 0 where a faint die may lie."""
    frame = cv2.imread(str(FRAME))
    made = []
    monkeypatch.setattr(dicenet, "tiles", lambda mask: made.append(mask) or None)
    nets = dicenet.DiceNet()
    nets.candidates(frame, dicetiles.FLOOR - 0.25, 0.0, dicetiles.FLOOR)
    assert made == []
    nets.candidates(frame, dicetiles.FLOOR, 0.0, dicetiles.FLOOR)
    assert made


def test_the_face_checks_bands_are_the_whole_surroundings_converted():
    rng = np.random.default_rng(5)
    frame = cv2.GaussianBlur(rng.integers(0, 255, (160, 200, 3)).astype(np.uint8), (0, 0), 3.0)
    for box in [(60, 50, 40, 40), (5, 8, 30, 30), (150, 120, 44, 38)]:
        got = dieface.side_distances(frame, box)
        # the reference: the whole surroundings in Lab, each band cut from it (dieface before round 15)
        b = dieface._Bands(frame, box)
        lab = cv2.cvtColor(np.ascontiguousarray(frame[b.y0:b.y1, b.x0:b.x1]), cv2.COLOR_BGR2Lab).astype(np.float32)
        x, y, w, h = box
        colour = np.median(lab[b._window(x + 0.25 * w, y + 0.25 * h, x + 0.75 * w, y + 0.75 * h)].reshape(-1, 3), axis=0)
        for key, value in got.items():
            win = b._window(*b.rects[key[0]][key[1]])
            want = None if win is None else float(np.median(np.sqrt(((lab[win] - colour) ** 2).sum(axis=2)).ravel()))
            assert value == want, (box, key)


@needs_nets
def test_a_tiled_pass_guides_no_other(monkeypatch):
    """A tiled pass's map is 0 where it was not run: only the passes run whole guide the later ones (with a guide of
    0.1 every finer pass of this frame runs tiled)."""
    monkeypatch.setattr(dicetiles, "GUIDE", 0.1)
    frame = cv2.imread(str(FRAME.parent / "t8002-turn2-warm.jpg"))
    nets = dicenet.DiceNet()
    outs, guided = [], []
    finder_pass = dicenet.DiceNet.finder_pass

    def recording(self, f, die_px=0.0, guides=None, keep=None):
        out = finder_pass(self, f, die_px, guides, keep)
        outs.append(out)
        if keep is not None and die_px in keep:  # run whole, its tiles cut from that (round 34): a level chosen again has it
            outs.append((keep[die_px], False))
        return out

    monkeypatch.setattr(dicenet.DiceNet, "finder_pass", recording)
    real = dicenet.cells_near
    monkeypatch.setattr(dicenet, "cells_near", lambda guides, *a: guided.append(list(guides)) or real(guides, *a))
    nets.candidates(frame, 0.45)
    tiled = [out for out, was in outs if was]
    whole = [out for out, was in outs if not was]
    assert len(tiled) >= 2 and len(guided) >= 3  # a tiled pass, then others guided
    assert all(any(g is w for w in whole) for gs in guided for g in gs)
    assert not any(g is t for gs in guided for g in gs for t in tiled)


@needs_nets
def test_whether_a_pass_ran_on_tiles_comes_with_its_output(monkeypatch):
    """The tiling choice is returned with the pass, not kept on the net: another frame's pass run in between (a second
    frame read in turn, another thread) leaves it as it was, and only the passes run whole guide the later ones."""
    frame = cv2.imread(str(FRAME))
    nets = dicenet.DiceNet()
    guides = [guide((24, 32), 0.2, {(10, 10): 0.5})]
    (heat, _, _), tiled = nets.finder_pass(frame, 20.0, guides)
    assert tiled and not heat.all()
    _, whole = nets.finder_pass(frame, 20.0)
    assert not whole and not hasattr(nets, "was_tiled")
    finder_pass = dicenet.DiceNet.finder_pass

    def and_another(self, f, die_px=0.0, guides=None, keep=None):  # a whole pass of another frame run after each pass
        out = finder_pass(self, f, die_px, guides, keep)
        finder_pass(self, np.ascontiguousarray(f[::-1]), die_px)
        return out

    monkeypatch.setattr(dicenet.DiceNet, "finder_pass", and_another)
    ran: list = []
    level = nets._level_peaks(frame, 20.0, 0.45, ran)
    assert ran == [level[2]]  # run whole (no guide): appended
    guided = [guide((24, 32), 0.2, {(10, 10): 0.5})]
    nets._level_peaks(frame, 20.0, 0.45, guided)
    assert len(guided) == 1  # the tiled pass not appended, whatever ran after it
