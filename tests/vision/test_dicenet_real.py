"""The learned pip-dice reader on the real photographs (skipped when absent): a few tuning photos of
each set, and floors a little below the held-out figures `rig bench vision --game pips` prints."""

import cv2
import pytest

from rig.bench.pips import colour_folder, data_folder, evaluate_frames, load_photos, read_any
from rig.vision.dicenet import FIND_WEIGHTS
from rig.vision.pips import PipParams

pytestmark = pytest.mark.skipif(not FIND_WEIGHTS.exists(), reason="no shipped dice nets")


def figures(folder, *, any_name, held_out, first=None):
    if not folder.is_dir():
        pytest.skip(f"photographs not found at {folder}")
    photos = [p for p in load_photos(folder, any_name=any_name, tuning_only=not held_out) if p.held_out == held_out]
    photos = photos[:first] if first else photos
    images = {p.path: cv2.imread(str(p.path)) for p in photos}
    cm, extra, _, flags, frames = evaluate_frames(photos, PipParams.load(), images, reader=read_any)
    return cm, cm.total - sum(cm.missed), extra, flags, frames


def test_tuning_photos_of_white_dice():
    cm, found, extra, flags, frames = figures(data_folder(None), any_name=False, held_out=False, first=40)
    assert cm.total == FILL_WHITE_TOTAL
    assert found >= FILL and cm.correct >= FILL and extra <= FILL and flags.silent == 0


def test_tuning_photos_of_coloured_dice():
    cm, found, extra, flags, frames = figures(colour_folder(None), any_name=True, held_out=False, first=30)
    assert cm.total == FILL_COLOUR_TOTAL
    assert found >= FILL and cm.correct >= FILL and extra <= FILL and flags.silent <= FILL


def test_held_out_white_dice_floors():
    cm, found, extra, flags, frames = figures(data_folder(None), any_name=False, held_out=True)
    assert cm.total == 306
    assert found >= FILL  # bench: FILL
    assert cm.correct >= FILL  # bench: FILL
    assert flags.silent <= FILL  # bench: FILL


def test_held_out_coloured_dice_floors():
    cm, found, extra, flags, frames = figures(colour_folder(None), any_name=True, held_out=True)
    assert cm.total == 362
    assert found >= FILL  # bench: FILL
    assert cm.correct >= FILL  # bench: FILL
    assert flags.silent <= FILL  # bench: FILL
