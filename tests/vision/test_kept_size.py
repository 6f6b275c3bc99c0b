"""The pip dice's size kept between runs (rig.vision.kept_size), and DieSize reading at it."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np

from rig.vision.kept_size import FILE_NAME, KeptDieSize, list_kept
from rig.vision.pips import PipParams
from rig.vision.readers import DieSize


def _reading(*sides, status="ok"):
    return SimpleNamespace(dice=tuple(SimpleNamespace(box=(10, 10, s, s)) for s in sides), status=status)


def test_sizes_are_kept_per_game_table_and_frame_size(tmp_path):
    path = tmp_path / FILE_NAME
    KeptDieSize(path, "banana", "kitchen").put((480, 640), 40.04)
    KeptDieSize(path, "banana", "kitchen").put((960, 1280), 80)
    KeptDieSize(path, "blitz", "kitchen").put((480, 640), 30)
    assert KeptDieSize(path, "banana", "kitchen").get((480, 640, 3)) == 40.0
    assert KeptDieSize(path, "banana", "kitchen").get((960, 1280)) == 80.0
    assert KeptDieSize(path, "banana", "attic").get((480, 640)) == 0.0
    assert list_kept(path) == ["banana, table kitchen, 1280x960: 80 px", "banana, table kitchen, 640x480: 40 px",
                               "blitz, table kitchen, 640x480: 30 px"]


def test_a_file_that_is_not_the_rigs_is_set_aside_not_overwritten(tmp_path, caplog):
    path = tmp_path / FILE_NAME
    path.write_text("{not json", encoding="utf-8")
    kept = KeptDieSize(path, "banana", "kitchen")
    assert kept.get((480, 640)) == 0.0
    assert (tmp_path / (FILE_NAME + ".bad")).read_text(encoding="utf-8") == "{not json"
    assert "set aside" in caplog.text
    kept.put((480, 640), 41)
    assert json.loads(path.read_text(encoding="utf-8")) == {"banana|kitchen|640x480": 41.0}
    path.write_text('{"banana|kitchen|640x480": -3}', encoding="utf-8")  # a size no die has
    assert kept.get((480, 640)) == 0.0


def test_a_folder_that_cannot_be_written_loses_only_the_keeping(tmp_path, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    kept = KeptDieSize(blocker / FILE_NAME, "banana", "kitchen")  # its folder is a file
    kept.put((480, 640), 41)
    assert kept.get((480, 640)) == 0.0 and "cannot keep the dice size" in caplog.text


def test_die_size_reads_at_the_kept_size_and_keeps_a_size_relearned(tmp_path):
    path = tmp_path / FILE_NAME
    KeptDieSize(path, "pips", "t").put((480, 640), 48)
    reads = []

    def read(frame, params):
        reads.append(params.anydie.die_px)
        return _reading(75, 75) if params.anydie.die_px == 0 else _reading(76, 74) if params.anydie.die_px == 48 else _reading(75, 76)

    frame = np.zeros((480, 640, 3), np.uint8)
    size = DieSize(PipParams(), 2, kept=KeptDieSize(path, "pips", "t"))
    size.read(frame, read)  # at the kept 48 px: dice of 75 px fit it (0.8 x 75 / 48 = 1.25, within 1.5)
    assert reads == [48.0]
    reads.clear()
    KeptDieSize(path, "pips", "t").put((480, 640), 30)  # the camera moved since: 30 px kept, dice now 75 px
    size = DieSize(PipParams(), 2, kept=KeptDieSize(path, "pips", "t"))
    size.read(frame, read)
    assert reads == [30.0, 0.0]  # does not fit: the pyramid, and the size relearned and kept
    assert KeptDieSize(path, "pips", "t").get((480, 640)) == 60.0
    reads.clear()
    size.read(np.zeros((960, 1280, 3), np.uint8), read)  # another frame size: nothing kept for it
    assert reads == [0.0] and KeptDieSize(path, "pips", "t").get((960, 1280)) == 60.0


def test_a_size_set_in_the_parameters_is_never_replaced_by_one_kept(tmp_path):
    from dataclasses import replace

    path = tmp_path / FILE_NAME
    KeptDieSize(path, "pips", "t").put((480, 640), 30)
    params = PipParams()
    params = replace(params, anydie=replace(params.anydie, die_px=70.0))
    reads = []
    size = DieSize(params, None, kept=KeptDieSize(path, "pips", "t"))
    size.read(np.zeros((480, 640, 3), np.uint8), lambda f, q: reads.append(q.anydie.die_px) or _reading(90))
    assert reads == [70.0] and KeptDieSize(path, "pips", "t").get((480, 640)) == 30.0
