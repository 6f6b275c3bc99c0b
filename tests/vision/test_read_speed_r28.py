"""read_dice's speed, every reading the same (issue 24, round 28): the crease test's die-body shares of its two lines
only, its lines' medians from one sort of the bytes; the speed corpus's versions find their own modules at call time.

The corpus check (every reading the same before and after) is ``scripts/speed_corpus.py``."""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision import dice_crease
from tests.vision.conftest import script


def _crease_r27(frame, empty_ab, box, name, side, body_ab, nearer):
    """Round 27's :func:`rig.vision.dice_crease.crease`: every line's die-body share, numpy's median."""
    bx, by, bw, bh = box
    h, w = frame.shape[:2]
    if bx < 0 or by < 0 or bx + bw > w or by + bh > h or min(bw, bh) < 4:
        return None
    across = bw if name in ("T", "B") else bh
    cut = int(round((1.0 - dice_crease.MIDDLE) / 2 * across))
    rect = (by, by + bh, bx + cut, bx + bw - cut) if name in ("T", "B") else (by + cut, by + bh - cut, bx, bx + bw)
    y0, y1, x0, x1 = rect
    lab = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_BGR2Lab)
    ab = lab[..., 1:].astype(np.float32)
    d_empty = np.hypot(*np.moveaxis(ab - empty_ab[y0:y1, x0:x1], -1, 0))
    d_body = np.min([np.hypot(*np.moveaxis(ab - b, -1, 0)) for b in np.asarray(body_ab, np.float32)], axis=0)
    body = (d_body + nearer < d_empty).astype(np.float32)
    light = lab[..., 0].astype(np.float32)
    if name in ("L", "R"):
        light, body = light.T, body.T
    if name in ("B", "R"):
        light, body = light[::-1], body[::-1]
    light, body = np.median(light, axis=1), body.mean(axis=1)
    n = len(light)
    a, b = max(2, int(round(dice_crease.REACH[0] * side))), min(n // 2, int(round(dice_crease.REACH[1] * side)) + 1)
    if b <= a:
        return None
    k = a + int(np.argmin(light[a:b]))
    o = int(np.argmax(light[:k]))
    inner = float(np.max(light[k + 1 : k + 2 + int(round(dice_crease.INNER * side))]))
    if inner <= 0:
        return None
    dip = float(light[k]) / max(1.0, min(float(light[o]), inner))
    return dip, float(light[o]) / inner, float(min(body[k], body[o])), k / side


def test_the_crease_numbers_are_round_27s_on_seeded_dice():
    # die-body and floor colours with noise, a darker crease line at a random depth, boxes of odd and even sizes on
    # all four sides (odd and even line lengths: the median of one value and the mean of two)
    rng = np.random.default_rng(28)
    found = 0
    for _ in range(300):
        side = int(rng.integers(20, 60))
        floor = rng.integers(40, 220, 3)
        body = rng.integers(40, 250, 3)
        frame = np.clip(floor + rng.normal(0, rng.uniform(1, 12), (240, 320, 3)), 0, 255).astype(np.uint8)
        bw, bh = (int(v) for v in rng.integers(int(0.7 * side), int(1.5 * side) + 1, 2))
        bx, by = int(rng.integers(-5, 320 - bw + 5)), int(rng.integers(-5, 240 - bh + 5))
        x0, y0 = max(0, bx), max(0, by)
        frame[y0 : by + bh, x0 : bx + bw] = np.clip(body + rng.normal(0, rng.uniform(1, 12), (1, 1, 3)), 0, 255)
        name = str(rng.choice(["L", "R", "T", "B"]))
        at = int(rng.integers(1, max(2, side // 2)))
        line = (slice(y0, by + bh), x0 + at) if name == "L" else (slice(y0, by + bh), bx + bw - 1 - at) \
            if name == "R" else (y0 + at, slice(x0, bx + bw)) if name == "T" else (by + bh - 1 - at, slice(x0, bx + bw))
        frame[line] = (frame[line] * rng.uniform(0.4, 1.0)).astype(np.uint8)
        empty = cv2.cvtColor(np.full((240, 320, 3), floor, np.uint8), cv2.COLOR_BGR2Lab)[..., 1:].astype(np.float32)
        empty += rng.normal(0, 2, empty.shape).astype(np.float32)
        body_ab = rng.uniform(100, 160, (int(rng.integers(1, 4)), 2)).astype(np.float32)
        nearer = float(rng.uniform(0, 8))
        box = (bx, by, bw, bh)
        want = _crease_r27(frame, empty, box, name, side, body_ab, nearer)
        assert dice_crease.crease(frame, empty, box, name, side, body_ab, nearer) == want
        found += want is not None and 0.0 < want[2] < 1.0
    assert found > 20  # die-body shares between 0 and 1 met too (27 of 300)


def test_the_lines_median_is_numpys():
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 24, 25, 61):
        light = rng.integers(0, 256, (17, n), dtype=np.uint8)
        got, want = dice_crease._median(light), np.median(light.astype(np.float32), axis=1)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_a_versions_import_at_call_time_finds_its_own_module(tmp_path, monkeypatch):
    # a checkout whose function imports a module when called (as dice_lampside imports card_empty's `kept`): timed in
    # place, it finds the checkout's module, holding what was kept in it; the rig on the path is put back afterwards
    harness = script("timing_harness")
    (tmp_path / "rig" / "vision").mkdir(parents=True)
    (tmp_path / "rig" / "__init__.py").write_text("")
    (tmp_path / "rig" / "vision" / "__init__.py").write_text("")
    (tmp_path / "rig" / "vision" / "kept.py").write_text("KEPT = {}\n")
    (tmp_path / "rig" / "vision" / "reader.py").write_text(
        "from rig.vision import kept\n\n\ndef read():\n    from rig.vision.kept import KEPT\n\n    return KEPT.get('empty')\n")
    package: dict = {}
    reader, kept = harness.import_from(tmp_path, "rig.vision.reader", "rig.vision.kept", package=package)
    kept.KEPT["empty"] = "the picture"
    import rig

    with harness.in_place(package):
        assert reader.read() == "the picture"
    assert __import__("sys").modules["rig"] is rig


def _distance_r27(frame, empty, channels, box):
    """Round 27's :func:`rig.vision.dice_unchanged.distance`: numpy's sum over the last axis and its median."""
    x, y, w, h = box
    x0, x1 = max(0, int(x + 0.25 * w)), min(frame.shape[1], int(x + 0.75 * w))
    y0, y1 = max(0, int(y + 0.25 * h)), min(frame.shape[0], int(y + 0.75 * h))
    if x1 <= x0 or y1 <= y0:
        return None
    lit = np.clip(empty[y0:y1, x0:x1] * np.float32(channels), 0, 255).astype(np.uint8)
    ya, xa = max(0, y0 - 1), max(0, x0 - 1)
    seen = cv2.blur(frame[ya : y1 + 1, xa : x1 + 1], (3, 3))[y0 - ya : y1 - ya, x0 - xa : x1 - xa]
    a = cv2.cvtColor(lit, cv2.COLOR_BGR2Lab).astype(np.float32)
    b = cv2.cvtColor(np.ascontiguousarray(seen), cv2.COLOR_BGR2Lab).astype(np.float32)
    return float(np.median(np.sqrt(((a - b) ** 2).sum(axis=2))))


def test_the_unchanged_distance_is_round_27s():
    # boxes of odd and even middles (the middle value and the mean of two), at the frame's edges, one outside it
    from rig.vision.dice_unchanged import MARGIN, distance

    assert MARGIN == 0.25  # (the form above holds round 27's margin)
    rng = np.random.default_rng(27)
    for _ in range(400):
        frame = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
        if rng.random() < 0.5:  # a plain picture, the distances small and tied
            frame[:] = rng.integers(0, 256, 3)
            frame = np.clip(frame + rng.normal(0, 2, frame.shape), 0, 255).astype(np.uint8)
        empty = np.clip(frame + rng.normal(0, rng.uniform(0, 20), frame.shape), 0, 255).astype(np.float32)
        channels = tuple(float(v) for v in rng.uniform(0.7, 1.3, 3))
        box = (int(rng.integers(-20, 160)), int(rng.integers(-20, 120)), int(rng.integers(1, 60)), int(rng.integers(1, 60)))
        assert distance(frame, empty, channels, box) == _distance_r27(frame, empty, channels, box)
