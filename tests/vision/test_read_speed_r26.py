"""Round 26's speed steps give round 25's answers (issue 24): the combo's surround check, the shade blobs' gate, the
packed squares' kernels made once. Each rewritten function against its round-25 form (copied here) on seeded inputs."""

from __future__ import annotations

import math
from types import SimpleNamespace

import cv2
import numpy as np

from rig.vision.pixel_classes import BG, BODY, COLOUR_CLASSES, EDGE


def _round25_spread(labels, mask, inner, outer):
    """Round 25's ``dice_surround.spread``."""
    from rig.vision.dice_surround import SECTOR, SECTOR_LEAST

    m = mask > 0
    iy, ix = np.nonzero(m & (labels == COLOUR_CLASSES[inner]))
    oy, ox = np.nonzero(m & (labels == COLOUR_CLASSES[outer]))
    if iy.size == 0 or oy.size == 0:
        return 0.0
    angles = np.degrees(np.arctan2(oy - iy.mean(), ox - ix.mean())) % 360
    n = 360 // SECTOR
    counts = np.bincount((angles // SECTOR).astype(int) % n, minlength=n)
    empty = np.concatenate([counts, counts]) < SECTOR_LEAST * oy.size
    run = longest = 0
    for e in empty:
        run = run + 1 if e else 0
        longest = max(longest, run)
    return float(360 - min(n, longest) * SECTOR)


def _round25_surrounded(labels, mask, colours):
    from rig.vision.dice_surround import SURROUND_MOST

    a, b = colours
    return _round25_spread(labels, mask, a, b) > SURROUND_MOST or _round25_spread(labels, mask, b, a) > SURROUND_MOST


def _combo_top(rng, h, w):
    """A die top's classes: body, a frog of two colours laid as halves, a ring, specks or nothing of one of them."""
    lab = np.full((h, w), BODY, np.uint8)
    a, b = (COLOUR_CLASSES[c] for c in rng.choice(["pink", "blue", "yellow"], 2, replace=False))
    cy, cx, r = h / 2 + rng.uniform(-3, 3), w / 2 + rng.uniform(-3, 3), min(h, w) * rng.uniform(0.15, 0.35)
    yy, xx = np.mgrid[:h, :w]
    frog = (yy - cy) ** 2 + (xx - cx) ** 2 < r * r
    kind = rng.integers(0, 4)
    if kind == 0:  # two halves, split at any turn
        t = rng.uniform(0, math.pi)
        lab[frog] = np.where(((yy - cy) * math.cos(t) - (xx - cx) * math.sin(t))[frog] > 0, a, b)
    elif kind == 1:  # one colour round the other over some sides
        lab[frog] = a
        ring = ((yy - cy) ** 2 + (xx - cx) ** 2 < (r + 3) ** 2) & ~frog
        keep = np.degrees(np.arctan2(yy - cy, xx - cx)) % 360 < rng.uniform(60, 360)
        lab[ring & keep] = b
    elif kind == 2:  # scattered specks of both
        lab[rng.random((h, w)) < 0.1] = a
        lab[rng.random((h, w)) < 0.1] = b
    else:  # a few pixels, or none, of one colour
        lab[frog] = a
        lab[tuple(rng.integers(0, min(h, w), (2, int(rng.integers(0, 3)))))] = b
    mask = np.zeros((h, w), np.uint8)
    cv2.circle(mask, (w // 2, h // 2), int(min(h, w) * rng.uniform(0.3, 0.6)), int(rng.choice([1, 255])), -1)
    return lab, mask, [next(k for k, v in COLOUR_CLASSES.items() if v == c) for c in (a, b)]


def test_surround_check_gives_round_25s_answers():
    from rig.vision import dice_surround

    rng = np.random.default_rng(26)
    answers, one_side = set(), 0
    for _ in range(400):
        lab, mask, colours = _combo_top(rng, int(rng.integers(12, 90)), int(rng.integers(12, 90)))
        want = _round25_surrounded(lab, mask, colours)
        assert dice_surround.surrounded(lab, mask, colours) == want
        for inner, outer in (colours, colours[::-1]):
            assert dice_surround.spread(lab, mask, inner, outer) == _round25_spread(lab, mask, inner, outer)
            m = mask > 0
            offsets = dice_surround._offsets(dice_surround._points(lab, m, inner), dice_surround._points(lab, m, outer))
            one_side += bool(offsets) and dice_surround._one_side(*offsets)
        answers.add(want)
    assert answers == {False, True} and one_side > 100  # (both answers met, and the check skipped often)


def _round25_shade_blobs(work, t, dice, least, share, inside=False):
    """Round 25's ``dice_missed._shade_blobs``: the blob opened before its gate."""
    from rig.vision.dice_missed import _IS_EDGE, _K3, _NOT_FLOOR, _clear_of, _square

    labels, a0 = work.labels, work.top_area
    edge = cv2.LUT(labels, _IS_EDGE)
    if cv2.countNonZero(edge) < least * t.die_area_min * a0:
        return
    blob = cv2.morphologyEx(edge | cv2.LUT(labels, _NOT_FLOOR), cv2.MORPH_OPEN, _K3)
    H, W = labels.shape
    clear = _clear_of(work, dice)
    free = cv2.bitwise_and(blob, clear)
    if (
        cv2.countNonZero(free) < t.die_area_min * a0
        or cv2.countNonZero(cv2.bitwise_and(edge, free)) < share * t.die_area_min * a0
    ):
        return
    n, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(blob, 8, cv2.CV_32S, cv2.CCL_GRANA)
    areas = stats[:, cv2.CC_STAT_AREA]
    for i in np.flatnonzero((areas >= t.die_area_min * a0) & (areas <= t.die_area_max * a0)).tolist():
        if i == 0:
            continue
        x, y, w, h, area = (int(v) for v in stats[i])
        if inside and (x == 0 or y == 0 or x + w == W or y + h == H):
            continue
        part = (cc[y : y + h, x : x + w] == i).view(np.uint8)
        if np.count_nonzero(edge[y : y + h, x : x + w][part > 0]) < share * area:
            continue
        if np.count_nonzero(clear[y : y + h, x : x + w][part > 0] == 0) or not _square(
            part, a0, t.die_area_min, t.die_area_max
        ):
            continue
        yield x, y, w, h, area, part


def _shade_frame(rng):
    """A working-scale frame's classes: floor, a few die-sized squares of shade body (some with a frog), thin
    streaks and specks of shade body an opening takes away; dice read at some of the squares."""
    H, W = int(rng.integers(60, 160)), int(rng.integers(80, 200))
    side = float(rng.uniform(8, 20))
    labels = np.full((H, W), BG, np.uint8)
    dice = []
    for _ in range(int(rng.integers(0, 4))):
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        box = cv2.boxPoints(((cx, cy), (side, side), rng.uniform(0, 90)))
        cv2.fillConvexPoly(labels, np.round(box).astype(np.int32), int(EDGE))
        if rng.random() < 0.5:
            cv2.circle(labels, (int(cx), int(cy)), int(side / 4), int(COLOUR_CLASSES["pink"]), -1)
        if rng.random() < 0.7:
            dice.append(SimpleNamespace(box=(cx - side / 2, cy - side / 2, side, side)))
    for _ in range(int(rng.integers(0, 30))):  # one-pixel streaks: gone once opened
        x, y = int(rng.integers(0, W)), int(rng.integers(0, H))
        labels[y, x : x + int(rng.integers(1, 30))] = EDGE if rng.random() < 0.7 else BODY
    labels[rng.random((H, W)) < rng.uniform(0, 0.08) * (rng.random() < 0.5)] = EDGE
    work = SimpleNamespace(labels=labels, top_area=side * side, factor=1, side=side)
    t = SimpleNamespace(die_area_min=float(rng.uniform(0.3, 0.8)), die_area_max=float(rng.uniform(1.2, 2.0)))
    return work, t, dice


def test_shade_blobs_gated_before_the_opening_yield_round_25s_blobs():
    from rig.vision import dice_missed

    rng = np.random.default_rng(25)
    gated = yielded = 0
    for trial in range(300):
        work, t, dice = _shade_frame(rng)
        least, share, inside = [(1.0, dice_missed.EDGE_SHARE, False), (0.5, 0.5, True)][trial % 2]
        got = list(dice_missed._shade_blobs(work, t, dice, least, share, inside))
        want = list(_round25_shade_blobs(work, t, dice, least, share, inside))
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            assert g[:5] == w[:5] and np.array_equal(g[5], w[5])
        yielded += bool(want)
        a0 = work.top_area
        unopened = cv2.LUT(work.labels, dice_missed._IS_EDGE) | cv2.LUT(work.labels, dice_missed._NOT_FLOOR)
        gated += dice_missed._too_few(
            unopened,
            cv2.LUT(work.labels, dice_missed._IS_EDGE),
            dice_missed._clear_of(work, dice),
            t.die_area_min * a0,
            share * t.die_area_min * a0,
        )
    assert gated > 10 and yielded > 10  # (both ways met)


def _round25_pack(roi, area, a0):
    """Round 25's ``dice_blobs.pack``: its squares, rings and their filters made each call."""
    from rig.vision.dice_blobs import _DISC3, COVER, DICE_IN_SET, _square

    side = math.sqrt(a0)
    size = int(math.ceil(side * 1.5)) | 1
    size += 6
    pad = size // 2 + 1
    left = np.pad(roi, pad).astype(np.float32)
    parts = []
    squares = [_square(side, angle, size) for angle in range(0, 90, 6)]
    rings = [cv2.dilate(k, np.ones((5, 5), np.uint8)) - k for k in squares]
    for _ in range(min(DICE_IN_SET, math.ceil(area / a0))):
        best = None
        for k, (inside, ring) in enumerate(zip(squares, rings)):
            cover = cv2.filter2D(left, -1, inside.astype(np.float32) / inside.sum(), borderType=cv2.BORDER_CONSTANT)
            beyond = 1 - cv2.filter2D(left, -1, ring.astype(np.float32) / ring.sum(), borderType=cv2.BORDER_CONSTANT)
            score = np.where(cover >= COVER, cover + 0.5 * beyond, -1)
            y, x = np.unravel_index(int(np.argmax(score)), score.shape)
            if score[y, x] > 0 and (best is None or score[y, x] > best[0]):
                best = (float(score[y, x]), k, y, x)
        if best is None:
            break
        _, k, y, x = best
        placed = np.zeros(left.shape, np.uint8)
        h = size // 2
        placed[y - h : y + h + 1, x - h : x + h + 1] = cv2.dilate(squares[k], _DISC3)
        part = (placed > 0) & (left > 0)
        parts.append(part[pad:-pad, pad:-pad].view(np.uint8))
        left[part] = 0
    if not parts:
        return None
    return parts, (left[pad:-pad, pad:-pad] > 0).view(np.uint8)


def test_pack_with_its_kernels_made_once_packs_round_25s_squares():
    from rig.vision.dice_blobs import _kernels, pack

    rng = np.random.default_rng(16)
    sizes = [float(rng.uniform(150, 700)) for _ in range(3)]  # (three die sizes: each size's kernels made once)
    packed = 0
    for trial in range(45):
        a0 = sizes[trial % 3]
        s = math.sqrt(a0)
        roi = np.zeros((int(rng.uniform(1.2, 4) * s), int(rng.uniform(1.2, 4) * s)), np.uint8)
        for _ in range(int(rng.integers(1, 4))):  # dice touching, a lobe beside one, or a thin scrap
            c = rng.uniform(0, roi.shape[::-1])
            wh = (s, s) if rng.random() < 0.8 else (s * rng.uniform(0.2, 1), s * rng.uniform(0.2, 0.6))
            cv2.fillConvexPoly(roi, np.round(cv2.boxPoints(((c[0], c[1]), wh, rng.uniform(0, 90)))).astype(np.int32), 1)
        area = int(roi.sum()) if trial % 2 else min(int(roi.sum()), int(a0))  # (as unsplit asks, as speckless asks)
        got, want = pack(roi, area, a0), _round25_pack(roi, area, a0)
        assert (got is None) == (want is None)
        if want is not None:
            packed += 1
            assert len(got[0]) == len(want[0]) and np.array_equal(got[1], want[1])
            assert all(np.array_equal(g, w) for g, w in zip(got[0], want[0], strict=True))
    assert packed > 20
    squares, filters = _kernels(math.sqrt(sizes[0]), (int(math.ceil(math.sqrt(sizes[0]) * 1.5)) | 1) + 6)
    assert not squares[0].flags.writeable and not filters[0][0].flags.writeable
