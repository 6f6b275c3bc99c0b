"""The pip benchmark's data handling (no real photographs needed)."""

import argparse

import pytest

from rig.bench import pips as bench
from rig.bench.pips import BenchDataError, Confusion, is_held_out, parse_labels


def test_split_is_by_file_number():
    assert [n for n in range(1, 13) if is_held_out(n)] == [3, 6, 9, 12]


def test_parse_labels_and_errors():
    dice = parse_labels("0 0.5 0.5 0.1 0.1\n\n5 0.25 0.25 0.5 0.5\n", 100, 200)
    assert [d.pips for d in dice] == [1, 6]
    assert dice[1].box == (0.0, 0.0, 50.0, 100.0)
    with pytest.raises(BenchDataError, match="x.txt:1: class must be 0-5"):
        parse_labels("6 0.5 0.5 0.1 0.1", 10, 10, source="x.txt")
    with pytest.raises(BenchDataError, match=":2: expected"):
        parse_labels("0 0.5 0.5 0.1 0.1\n0 0.5", 10, 10)


def test_a_label_found_wrong_is_mended_as_it_is_loaded(tmp_path, monkeypatch):
    """The erratum of round 21 (a coloured photo's die showing 3 pips labelled 2) and the bench's own folder read
    through it; a label file that says neither the class found wrong nor the mended one is refused."""
    import cv2
    import numpy as np

    from rig.bench import pip_photos

    errata = pip_photos._errata()["real-colour-dice/IMG_20191209_095954.txt"]
    assert errata == ((3, 1, 2),)
    folder = tmp_path / "real-colour-dice"
    folder.mkdir()
    cv2.imwrite(str(folder / "IMG_20191209_095954.jpg"), np.zeros((64, 64, 3), np.uint8))
    label = folder / "IMG_20191209_095954.txt"
    label.write_text("0 0.5 0.4 0.1 0.1\n1 0.5 0.5 0.1 0.1\n1 0.4 0.5 0.1 0.1\n")
    assert [d.pips for d in bench.load_photos(folder, any_name=True)[0].dice] == [1, 2, 3]
    assert label.read_text().splitlines()[2].startswith("1 ")  # the file as its source gave it
    label.write_text("0 0.5 0.4 0.1 0.1\n1 0.5 0.5 0.1 0.1\n2 0.4 0.5 0.1 0.1\n")  # the source mended it
    assert [d.pips for d in bench.load_photos(folder, any_name=True)[0].dice] == [1, 2, 3]
    label.write_text("0 0.5 0.4 0.1 0.1\n1 0.5 0.5 0.1 0.1\n5 0.4 0.5 0.1 0.1\n")
    with pytest.raises(BenchDataError, match="IMG_20191209_095954.txt:3: the erratum expects class 1 \\(or 2\\)"):
        bench.load_photos(folder, any_name=True)


def test_confusion_matrix():
    cm = Confusion()
    cm.add(3, 3)
    cm.add(3, 9)
    cm.add(6, None)
    assert (cm.correct, cm.total) == (1, 3)
    text = cm.format(with_missed=True)
    assert "7+" in text and "miss" in text


def test_missing_folder_is_a_clear_error_and_run_skips_it(tmp_path, capsys):
    with pytest.raises(BenchDataError, match="no photograph folder"):
        bench.load_photos(tmp_path / "absent")
    args = argparse.Namespace(data=tmp_path / "absent", params=None, rendered=2, no_find=False)
    assert bench.run(args) == 0
    out = capsys.readouterr().out
    assert "is absent, skipped" in out and "[rendered Würfelblitz throws]" in out


def test_run_on_a_tiny_labelled_folder(tmp_path, capsys):
    import cv2

    from rig.vision.render_pips import render_pip_dice

    for i in (1, 3):
        frame, truth = render_pip_dice(i, n=2)
        cv2.imwrite(str(tmp_path / f"dice_{i}.jpg"), frame)
        h, w = frame.shape[:2]
        (tmp_path / f"dice_{i}.txt").write_text("".join(
            f"{t.pips - 1} {(t.box[0] + t.box[2] / 2) / w} {(t.box[1] + t.box[3] / 2) / h} {t.box[2] / w} {t.box[3] / h}\n"
            for t in truth))
    assert bench.main(["--data", str(tmp_path), "--rendered", "0"]) == 0
    out = capsys.readouterr().out
    assert "2 photos, 4 labelled dice" in out
    assert "[labelled boxes, held-out] pip accuracy" in out
    assert "[found without labels, held-out]" in out and "silent errors (found, read wrong, not flagged" in out


def test_find_scoring_counts_silent_errors_and_one_label_per_found_die(tmp_path, monkeypatch):
    from rig.vision import pips

    photo = bench.Photo(tmp_path / "dice_1.jpg", 1, (bench.LabelledDie(3, (10, 10, 4, 4)),
                                                      bench.LabelledDie(5, (20, 10, 4, 4)),
                                                      bench.LabelledDie(2, (60, 60, 4, 4))))
    found = (pips.PipDie((0, 0, 40, 30), pips.PipCount(4, status="ok")),     # holds the first two labels
             pips.PipDie((55, 55, 15, 15), pips.PipCount(2, status="uncertain")),
             pips.PipDie((90, 90, 9, 9), pips.PipCount(1, status="ok")))     # matches no label
    monkeypatch.setattr(pips, "find_pip_dice", lambda frame, params: found)
    cm, extra, _, flags = bench.evaluate_find([photo], None, {photo.path: None})
    assert (cm.total, sum(cm.missed), cm.correct, extra) == (3, 1, 1, 1)
    assert flags == bench.Flags(silent=1, flagged_wrong=0, flagged_right=1)
