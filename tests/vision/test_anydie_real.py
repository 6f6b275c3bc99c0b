"""The colour-agnostic reader on the real coloured-dice photographs (skipped when absent).

Only the held-out photos (crc32 of the file name % 4 == 0) are checked, with floors a little
below the figures `rig bench vision --game pips` prints. These are far below the issue's targets
(found >= 97 %, right >= 95 %): the floors catch regressions, they do not claim the targets.
"""

import pytest

from rig.bench.pips import COLOUR_HELD_OUT_MOD, colour_folder, evaluate_find, is_colour_held_out, load_photos, read_any
from rig.vision.pips import PipParams

FOLDER = colour_folder(None)
pytestmark = pytest.mark.skipif(not FOLDER.is_dir(), reason=f"coloured dice photographs not found at {FOLDER}")


def test_the_split_is_fixed_by_file_name():
    photos = load_photos(FOLDER, any_name=True)
    held = [p for p in photos if p.held_out]
    assert len(photos) == 200 and len(held) == 46
    assert all(is_colour_held_out(p.path.stem) for p in held) and COLOUR_HELD_OUT_MOD == 4


def held_out_figures(folder, *, any_name):
    """(confusion, dice found, found dice matching no label, flags) of the colour-agnostic reader."""
    import cv2

    photos = [p for p in load_photos(folder, any_name=any_name) if p.held_out]
    images = {p.path: cv2.imread(str(p.path)) for p in photos}
    cm, extra, _, flags = evaluate_find(photos, PipParams.load(), images, reader=read_any)
    return cm, cm.total - sum(cm.missed), extra, flags


def test_coloured_dice_held_out_floors():
    cm, found, extra, flags = held_out_figures(FOLDER, any_name=True)
    assert cm.total == 362
    assert found >= 275  # bench: 360
    assert cm.correct >= 195  # bench: 351
    # bench: 41, flagged but 1 (an unlabelled die by the tray, buttons, faint things on the floor), with the finder's
    # second pass at the size it reads best at (issue 25); 14 with the pyramid's level alone, 2 with the single pass
    assert extra <= 48
    assert flags.silent <= 12  # bench: 2


def test_white_dice_held_out_floors_of_the_colour_agnostic_reader():
    from rig.bench.pips import data_folder

    folder = data_folder(None)
    if not folder.is_dir():
        pytest.skip(f"white dice photographs not found at {folder}")
    cm, found, extra, flags = held_out_figures(folder, any_name=False)
    assert cm.total == 306
    assert found >= 268  # bench: 305
    assert cm.correct >= 235  # bench: 302
    assert extra <= 55  # bench: 29
    assert flags.silent <= 4  # bench: 0
