"""Issue 25, round 29: the pip reader's steps made quicker give the very numbers they gave before — the nets' input
blob, the three rereading checks in one reader call, the face bands' distances and shared bands, the relit crop's
percentile, the pyramid's mean and median — each against its round-28 form on seeded inputs."""

from dataclasses import replace
from statistics import median

import cv2
import numpy as np
import pytest

from rig.vision import dicenet
from rig.vision.anydie import AnyDieParams, _checked
from rig.vision.dicenet import _strength
from rig.vision.dieface import _median_distance, face_all_round, face_reason, surroundings
from rig.vision.dierecheck import rereads_ok, shared_box_crops
from rig.vision.dierelit import _percentile, relit_look, relit_reasons
from rig.vision.dieturn import turned_look, turned_reasons
from rig.vision.diewide import wide_look, wide_reasons
from rig.vision.light import _median0
from rig.vision.netengine import as_blob
from rig.vision.pips import PipCount, PipDie


def test_the_blob_is_opencvs_to_the_bit():
    every = np.arange(256, dtype=np.uint8).reshape(1, 16, 16, 1).repeat(3, axis=3)
    assert np.array_equal(as_blob(every), cv2.dnn.blobFromImages(list(every), 1 / 255.0))
    rng = np.random.default_rng(29)
    for shape in [(1, 64, 80, 3), (1, 192, 256, 3), (5, 48, 48, 3), (1, 7, 13, 3)]:
        images = rng.integers(0, 256, shape, np.uint8)
        blob = as_blob(images)
        assert blob.flags["C_CONTIGUOUS"] and blob.dtype == np.float32
        assert np.array_equal(blob, cv2.dnn.blobFromImages(list(images), 1 / 255.0))


class _StripeReader:
    """Reads a crop's number surely unless its top-left quarter is darker than its bottom-right one; counts its calls
    and crops."""

    crop = dicenet.CROP

    def __init__(self):
        self.calls, self.crops = 0, 0

    def read(self, crops):
        self.calls += 1
        self.crops += len(crops)
        out = np.full((len(crops), 7), 0.01, np.float32)
        for i, c in enumerate(crops):
            h = len(c) // 2
            out[i, 1:] = 0.95 if c[:h, :h].mean() >= c[h:, h:].mean() else 0.1
        return out


def _frame_and_dice(seed: int):
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, 256, (200, 600, 3), np.uint8)
    dice = []
    for i in range(8):
        status = ("uncertain", ("pips unclear",)) if i % 5 == 3 else ("ok", ())
        dice.append(PipDie((10 + 70 * i, 40 + 5 * i, 50, 50), PipCount(1 + i % 6, (), 0.9, *status)))
    return frame, dice


@pytest.mark.parametrize("seed", range(6))
def test_the_three_rereads_in_one_call_flag_as_the_checks_one_after_another(seed):
    _reread_both_ways(seed)


def _reread_both_ways(seed: int) -> list[str]:
    """The checks one after another and the one-call rereads on a seeded frame: the same dice; the reasons."""
    frame, dice = _frame_and_dice(seed)
    reader = _StripeReader()
    one_by_one = relit_reasons(frame, wide_reasons(frame, turned_reasons(frame, dice, reader, 0.5), reader, 1.2, 0.5),
                               reader, 0.5)
    batched = _StripeReader()
    crop_of = shared_box_crops(frame, batched)
    got = rereads_ok(dice, batched, [turned_look(frame, batched, 0.5, crop_of), wide_look(frame, batched, 1.2, 0.5),
                                     relit_look(frame, batched, 0.5, crop_of)])
    assert got == one_by_one and batched.calls == 1
    assert [d.count.reasons for d in got] == [d.count.reasons for d in one_by_one]
    return [d.count.reasons[0].split(" (")[0] if d.count.reasons else "ok" for d in got]


def test_the_seeds_meet_every_look_flagging_and_dice_left_ok():
    flags = [reason for seed in range(6) for reason in _reread_both_ways(seed)]
    assert set(flags) == {"ok", "pips unclear", "read otherwise turned half round",
                          "read otherwise in a wider crop", "read otherwise with its light evened out"}


def test_a_look_that_is_off_reads_nothing():
    frame, dice = _frame_and_dice(0)
    reader = _StripeReader()
    assert rereads_ok(dice, reader, [turned_look(frame, reader, 0.0), wide_look(frame, reader, 0.0, 0.5)]) == dice
    assert reader.calls == 0
    rereads_ok(dice, reader, [turned_look(frame, reader, 0.5), wide_look(frame, reader, 1.2, 0.0)])
    assert reader.calls == 1 and reader.crops == 7  # the seven ok dice, turned only


def test_the_frames_checks_read_its_dice_once():
    frame = np.full((200, 400, 3), 60, np.uint8)
    dice = []
    for i in range(3):
        frame[60:110, 30 + 120 * i:80 + 120 * i] = 230  # a light die on a dark floor: its face ends all round
        dice.append(PipDie((30 + 120 * i, 60, 50, 50), PipCount(3, (), 0.9, "ok", ())))
    reader = _StripeReader()
    _checked(frame, dice, replace(AnyDieParams(), settled_read=0.0), reader)  # every ok die read in all three looks
    assert reader.calls == 1 and reader.crops == 9


def _band_distance_before(d: np.ndarray) -> float:
    return float(_median0(np.sqrt((d ** 2).sum(axis=2)).ravel()))


def test_the_bands_median_distance_is_the_same_float():
    rng = np.random.default_rng(29)
    for k in range(3000):
        h, w = rng.integers(1, 30, 2)
        d = (rng.uniform(-80, 80, (h, w, 3)) if k % 2 else rng.integers(-9, 9, (h, w, 3))).astype(np.float32)
        assert _median_distance(d) == _band_distance_before(d)


def test_the_face_checks_say_the_same_with_one_surroundings():
    rng = np.random.default_rng(29)
    for _ in range(200):
        frame = np.full((160, 160, 3), rng.integers(0, 256, 3), np.uint8)
        x, y = (int(v) for v in rng.integers(0, 120, 2))
        frame[y:y + 40, x:x + 40] = rng.integers(0, 256, 3)
        frame += rng.integers(0, 6, frame.shape, np.uint8)
        box = tuple(int(v) for v in (*rng.integers(10, 110, 2), *rng.integers(12, 40, 2)))
        pips = int(rng.integers(1, 7))
        bands = surroundings(frame, box)
        assert face_reason(frame, pips, box, 8.0, 15.0, bands) == face_reason(frame, pips, box, 8.0, 15.0)
        assert face_all_round(frame, box, 20.0, bands) == face_all_round(frame, box, 20.0)


def test_the_percentile_is_numpys():
    rng = np.random.default_rng(29)
    for k in range(3000):
        a = rng.uniform(0, 255, tuple(rng.integers(1, 50, 2))).astype(np.float32)
        if k % 3 == 0:
            a = np.round(a / 17) * 17
        for q in (95, 50, 5, 0, 100):
            assert _percentile(a, q) == float(np.percentile(a, q))


def test_the_levels_mean_and_median_are_numpys():
    rng = np.random.default_rng(29)
    for _ in range(3000):
        n = int(rng.integers(1, 4))
        scored = [(0.0, 0.0, 0.0, np.float32(v) * np.float32(rng.uniform(0, 1))) for v in rng.uniform(0, 1, n)]
        weights = [0.3 if rng.random() < 0.3 else 1.0 for _ in scored]
        assert _strength(scored, weights) == float(np.mean([q * w for (*_, q), w in zip(scored, weights)]))
        sides = list(rng.uniform(5, 40, n))
        assert median(sides) == float(np.median(sides))


def _outline_before(frame: np.ndarray, box: tuple[int, int, int, int]) -> float | None:
    """:func:`outline_elongation` as round 28 wrote it (np.median, the distances' sum over the last axis)."""
    from rig.vision.dieface import OUTLINE_AREA, OUTLINE_CONTRAST, OUTLINE_GROW

    x, y, w, h = box
    s = max(w, h)
    g = int(round(OUTLINE_GROW * s))
    height, width = frame.shape[:2]
    if x - g < 0 or y - g < 0 or x + w + g > width or y + h + g > height or s < 4:
        return None
    lab = cv2.cvtColor(np.ascontiguousarray(frame[y - g:y + h + g, x - g:x + w + g]), cv2.COLOR_BGR2Lab).astype(np.float32)
    floor = np.median(np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]]), axis=0)
    dist = np.sqrt(((lab - floor) ** 2).sum(axis=2))
    otsu = cv2.threshold(np.clip(dist, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
    n, labels = cv2.connectedComponents((dist > max(OUTLINE_CONTRAST, otsu)).astype(np.uint8), connectivity=8)
    ys, xs = np.nonzero(labels)
    if not len(ys):
        return None
    cy, cx = labels.shape[0] // 2, labels.shape[1] // 2
    near = int(np.argmin((ys - cy) ** 2 + (xs - cx) ** 2))
    part = (labels == labels[ys[near], xs[near]]).astype(np.uint8)
    if part[0].any() or part[-1].any() or part[:, 0].any() or part[:, -1].any():
        return None
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = cv2.drawContours(np.zeros_like(part), contours, -1, 1, -1)
    m = cv2.moments(filled, binaryImage=True)
    if m["m00"] < OUTLINE_AREA * s * s:
        return None
    a, b, c = m["mu20"] / m["m00"], m["mu11"] / m["m00"], m["mu02"] / m["m00"]
    root = np.sqrt(((a - c) / 2) ** 2 + b * b)
    return float(np.sqrt(((a + c) / 2 + root) / max((a + c) / 2 - root, 1e-9)))


def test_the_outline_is_measured_as_before():
    from rig.vision.dieface import outline_elongation

    rng = np.random.default_rng(29)
    measured = 0
    for _ in range(300):
        frame = np.full((160, 160, 3), rng.integers(0, 256, 3), np.uint8)
        centre = tuple(int(v) for v in rng.integers(60, 100, 2))
        axes = tuple(int(v) for v in rng.integers(8, 25, 2))
        cv2.ellipse(frame, centre, axes, float(rng.uniform(0, 180)), 0, 360, tuple(int(v) for v in rng.integers(0, 256, 3)), -1)
        frame += rng.integers(0, 8, frame.shape, np.uint8)
        side = int(rng.integers(16, 50))
        box = (centre[0] - side // 2, centre[1] - side // 2, side, side)
        got = outline_elongation(frame, box)
        assert got == _outline_before(frame, box)
        measured += got is not None
    assert measured > 100
