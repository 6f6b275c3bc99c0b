"""Round 32's speed step gives round 31's answers (issue 24): ``dice_blobs.pack`` filters a turn's ring only while
the turn can still beat the best square found (its best cover + half of ``BEYOND_MOST``), best cover first. Against
round 31's form (copied here) on seeded blobs, as ``unsplit`` and ``speckless`` ask."""

from __future__ import annotations

import math

import cv2
import numpy as np

from rig.vision import dice_blobs


def _round31_pack(roi, area, a0):
    """Round 31's ``dice_blobs.pack``: every turn's square and ring filtered, in turn order."""
    from rig.vision.dice_blobs import _DISC3, COVER, DICE_IN_SET, _kernels

    side = math.sqrt(a0)
    size = (int(math.ceil(side * 1.5)) | 1) + 6
    pad = size // 2 + 1
    left = np.pad(roi, pad).astype(np.float32)
    parts = []
    squares, filters = _kernels(side, size)
    for _ in range(min(DICE_IN_SET, math.ceil(area / a0))):
        best = None
        for k, (inside, ring) in enumerate(filters):
            cover = cv2.filter2D(left, -1, inside, borderType=cv2.BORDER_CONSTANT)
            beyond = 1 - cv2.filter2D(left, -1, ring, borderType=cv2.BORDER_CONSTANT)
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


def test_pack_skipping_rings_that_cannot_win_packs_round_31s_squares(monkeypatch):
    calls = [0]
    real = cv2.filter2D

    def counted(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(dice_blobs.cv2, "filter2D", counted)
    rng = np.random.default_rng(32)
    sizes = [float(rng.uniform(120, 1400)) for _ in range(4)]  # (dice of 11-37 working px: halved and full-resolution)
    packed = new_calls = old_calls = 0
    for trial in range(120):
        a0 = sizes[trial % 4]
        s = math.sqrt(a0)
        roi = np.zeros((int(rng.uniform(1.2, 4) * s), int(rng.uniform(1.2, 4) * s)), np.uint8)
        for _ in range(int(rng.integers(1, 5))):  # dice touching, a lobe beside one, a thin scrap, specks
            c = rng.uniform(0, roi.shape[::-1])
            wh = (s, s) if rng.random() < 0.7 else (s * rng.uniform(0.2, 1), s * rng.uniform(0.2, 0.6))
            cv2.fillConvexPoly(roi, np.round(cv2.boxPoints(((c[0], c[1]), wh, rng.uniform(0, 90)))).astype(np.int32), 1)
        if trial % 3 == 0:
            roi[rng.random(roi.shape) < 0.03] = 1
        area = int(roi.sum()) if trial % 2 else min(int(roi.sum()), int(a0))  # (as unsplit asks, as speckless asks)
        calls[0] = 0
        got = dice_blobs.pack(roi, area, a0)
        new_calls += calls[0]
        calls[0] = 0
        want = _round31_pack(roi, area, a0)
        old_calls += calls[0]
        assert (got is None) == (want is None)
        if want is not None:
            packed += 1
            assert len(got[0]) == len(want[0])
            for a, b in zip(got[0], want[0]):
                assert np.array_equal(a, b)
            assert np.array_equal(got[1], want[1])
    assert packed > 60
    assert new_calls < 0.8 * old_calls  # (rings skipped: the new path is what ran)
