"""The evidence store: each settled roll's frame as a small JPEG, read back with the reading drawn on, pruned."""

import os

import cv2
import numpy as np
import pytest

from rig.evidence import EvidenceError, EvidenceStore, reading_from_dict
from rig.vision.render import render_table

READING = {"dice": [{"face": "pink", "x": 400.0, "y": 300.0, "box": [360, 260, 80, 80], "confidence": 0.93}],
           "status": "ok", "reasons": []}


def frame(width=1280, height=960):
    return np.full((height, width, 3), 90, np.uint8)


def test_a_roll_is_kept_small_and_read_back_with_the_reading_drawn_on(tmp_path):
    store = EvidenceStore(tmp_path, width=640)
    assert store.save_roll(3, 1, 2, frame(), READING, t_us=123)
    raw = cv2.imdecode(np.frombuffer(store.image(3, 1, 2), np.uint8), cv2.IMREAD_COLOR)
    assert raw.shape == (480, 640, 3)  # scaled down to the configured width
    drawn = cv2.imdecode(np.frombuffer(store.image(3, 1, 2, overlay=True), np.uint8), cv2.IMREAD_COLOR)
    box = drawn[125:135, 175:185].astype(int)  # the die's outline, scaled by 0.5, is drawn green
    assert (box[..., 1] - box[..., 2]).max() > 100
    assert store.meta(3, 1, 2)["t_us"] == 123 and store.rolls(3, 1) == [2]
    assert store.image(3, 1, 9) is None and store.rolls(4, 1) == []


def test_a_virtual_table_frame_round_trips(tmp_path):
    image, _truth = render_table(7)
    store = EvidenceStore(tmp_path)
    store.save_roll(1, 1, 1, image, READING)
    assert store.image(1, 1, 1)[:2] == b"\xff\xd8"


def test_evidence_switched_off_keeps_nothing(tmp_path):
    store = EvidenceStore(tmp_path, keep=False)
    assert store.save_roll(1, 1, 1, frame(), READING) is False
    assert not (tmp_path / "evidence").exists()


def test_old_frames_are_pruned_by_age(tmp_path):
    now = [1_000_000.0]
    store = EvidenceStore(tmp_path, max_age_days=1, clock=lambda: now[0])
    store.save_roll(1, 1, 1, frame(), READING)
    old = tmp_path / "evidence" / "g1" / "t1-r1.jpg"
    os.utime(old, (now[0] - 2 * 86400, now[0] - 2 * 86400))
    store.save_roll(1, 1, 2, frame(), READING)
    assert store.rolls(1, 1) == [2]


def test_the_oldest_frames_go_when_the_folder_is_over_its_size(tmp_path):
    store = EvidenceStore(tmp_path, max_mb=1, quality=95)
    rng = np.random.default_rng(1)
    for roll in range(1, 13):  # noise compresses badly: ~150 kB each
        store.save_roll(2, 1, roll, rng.integers(0, 255, (480, 640, 3), dtype=np.uint8), READING)
        jpg = tmp_path / "evidence" / "g2" / f"t1-r{roll}.jpg"
        os.utime(jpg, (1e9 + roll, 1e9 + roll))
    kept = store.rolls(2, 1)
    total = sum(p.stat().st_size for p in (tmp_path / "evidence").rglob("*"))
    assert kept[-1] == 12 and kept[0] > 1 and total <= 1024 * 1024


@pytest.mark.parametrize("bad", [(-1, 1, 1), (1, "1", 1), (1, 1, True)])
def test_evidence_names_are_whole_numbers(tmp_path, bad):
    with pytest.raises(EvidenceError, match="whole numbers"):
        EvidenceStore(tmp_path).save_roll(*bad, frame(), READING)


def test_a_reading_comes_back_scaled():
    reading = reading_from_dict(READING, 0.5)
    assert reading.dice[0].box == (180, 130, 40, 40) and reading.dice[0].face == "pink"
