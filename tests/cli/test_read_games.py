"""``rig read --game blitz|banana|lego``: pips, colours, a ready score request; mistakes exit 2."""

import json
import os
import subprocess
import sys

import cv2
import pytest

from rig.cli import main
from rig.games.blitz.rules import score_request
from rig.games.lego.reader import render_lego
from rig.games.banana.render import render_start_roll
from rig.games.blitz.render import render_blitz


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    d = tmp_path_factory.mktemp("games")
    blitz, truth = render_blitz(11)
    start, start_truth = render_start_roll(5, white=6, black=2)
    lego, _ = render_lego(2, "red")
    paths = {"blitz": d / "blitz.png", "banana": d / "start.png", "lego": d / "lego.png"}
    for name, frame in (("blitz", blitz), ("banana", start), ("lego", lego)):
        cv2.imwrite(str(paths[name]), frame)
    return paths, truth


def test_blitz_json_has_every_die_and_a_request_rig_score_takes(images, capsys):
    paths, truth = images
    assert main(["read", "--game", "blitz", "--variant", "twister", "--json", str(paths["blitz"])]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "ok" and result["game"] == "blitz"
    read = sorted(f"{d['color']}:{d['pips'] if 'pips' in d else 'dot=' + d['dot']}" for d in result["dice"])
    assert read == sorted(f"{t.color}:{t.pips if t.pips is not None else 'dot=' + t.dot}" for t in truth)
    assert result["request"]["variant"] == "twister"
    assert isinstance(score_request(result["request"])["answer"], int)


def test_human_output_per_game(images, capsys):
    paths, _ = images
    assert main(["read", "--game", "banana", str(paths["banana"])]) == 0
    assert "start roll: white 6, black 2" in capsys.readouterr().out
    assert main(["read", "--game", "lego", str(paths["lego"])]) == 0
    assert "face: red" in capsys.readouterr().out
    assert main(["read", "--game", "blitz", str(paths["blitz"])]) == 0
    assert "answer: " in capsys.readouterr().out


def test_overlay_for_a_game(images, tmp_path, capsys):
    paths, _ = images
    out = tmp_path / "over"
    assert main(["read", "--game", "blitz", "--overlay", str(out), str(paths["blitz"])]) == 0
    drawn = cv2.imread(str(out / "blitz.png"))
    assert drawn is not None and (drawn != cv2.imread(str(paths["blitz"]))).any()


def test_mistakes_exit_2_with_one_line(images, tmp_path, capsys):
    paths, _ = images
    assert main(["read", str(paths["blitz"])]) == 2
    assert "needs --profile" in capsys.readouterr().err
    assert main(["read", "--game", "blitz", str(tmp_path / "none.png")]) == 2
    assert "no such image" in capsys.readouterr().err
    assert main(["read", "--game", "lego", "--cards", str(paths["lego"])]) == 2
    assert "has none" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text("[nonsense]\n")
    assert main(["read", "--game", "blitz", "--params", str(bad), str(paths["blitz"])]) == 2
    assert "unknown table" in capsys.readouterr().err


def test_bench_vision_for_the_games_prints_figures(capsys, tmp_path):
    assert main(["bench", "vision", "--game", "blitz", "--rendered", "3", "--data", str(tmp_path / "absent")]) == 0
    out = capsys.readouterr().out
    assert "is absent, skipped" in out and "[rendered Würfelblitz throws]" in out
    assert main(["bench", "vision", "--game", "lego", "--rendered", "14"]) == 0
    assert "[rendered LEGO Dice] face right 14/14" in capsys.readouterr().out


def test_plain_white_pip_dice_from_a_real_photograph(capsys):
    from rig.bench.pips import DEFAULT_DATA, data_folder

    folder = data_folder(DEFAULT_DATA)
    photo = folder / "dice_3.jpg"
    if not photo.is_file():
        pytest.skip(f"real photographs not found at {folder}")
    labels = (folder / "dice_3.txt").read_text().split()
    assert main(["read", "--game", "pips", "--json", str(photo)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "pips" and result["status"] == "ok"
    assert [d["pips"] for d in result["dice"]] == [int(labels[0]) + 1] and result["total"] == 1
    x, y = result["dice"][0]["x"] / 640, result["dice"][0]["y"] / 480
    assert abs(x - float(labels[1])) < 0.05 and abs(y - float(labels[2])) < 0.05



def test_rendered_pip_dice_are_read_right_or_flagged(tmp_path, capsys):
    """The learned reader (the default) on rendered white dice: a frame said ``ok`` holds every die read
    right; a frame with a die missed, extra or misread says ``uncertain`` (the dice count known)."""
    from rig.vision.render_pips import render_pip_dice

    sure = 0
    for seed in range(1, 9):
        frame, truth = render_pip_dice(seed=seed)
        path = tmp_path / f"table{seed}.png"
        cv2.imwrite(str(path), frame)
        assert main(["read", "--game", "pips", "--dice", str(len(truth)), "--json", str(path)]) == 0
        result = json.loads(capsys.readouterr().out)
        right = sorted(d["pips"] for d in result["dice"]) == sorted(t.pips for t in truth)
        assert result["status"] == "uncertain" or right, (seed, result)
        sure += result["status"] == "ok"
        assert result["total"] == sum(d["pips"] for d in result["dice"])
    assert sure >= 2  # not everything flagged
    assert main(["read", "--game", "pips", str(path)]) == 0
    assert "total: " in capsys.readouterr().out


def _drawn_dice(path):
    """A light floor with a red die (3 white pips) and a yellow die (5 black pips)."""
    import numpy as np

    frame = np.full((480, 640, 3), 215, np.uint8)
    for (cx, cy), body, pip, pips in (((200, 200), (40, 40, 200), (240, 240, 240), [(-1, -1), (0, 0), (1, 1)]),
                                      ((420, 300), (40, 210, 230), (20, 20, 20),
                                       [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)])):
        cv2.rectangle(frame, (cx - 22, cy - 22), (cx + 22, cy + 22), body, -1)
        for dx, dy in pips:
            cv2.circle(frame, (cx + dx * 12, cy + dy * 12), 4, pip, -1)
    cv2.imwrite(str(path), frame)


def test_pip_dice_of_any_colour_with_a_known_count(tmp_path, capsys):
    path = tmp_path / "two.png"
    _drawn_dice(path)
    assert main(["read", "--game", "pips", "--any-colour", "--json", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert sorted(d["pips"] for d in result["dice"]) == [3, 5] and result["total"] == 8
    assert main(["read", "--game", "pips", "--dice", "3", "--json", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "uncertain" and "2 dice seen, want 3" in result["reasons"]
    assert main(["read", "--game", "pips", "--dice", "0", str(path)]) == 2
    assert main(["read", "--game", "blitz", "--any-colour", str(path)]) == 2
    assert "are for --game pips" in capsys.readouterr().err
    assert main(["read", "--game", "pips", "--die-px", "3", str(path)]) == 2
    assert "--die-px must be between 8 and 1000" in capsys.readouterr().err
    assert main(["read", "--game", "lego", "--die-px", "40", str(path)]) == 2
    assert "are for --game pips" in capsys.readouterr().err
    assert main(["read", "--game", "pips", "--die-px", "40", "--json", str(path)]) == 0
    assert sorted(d["pips"] for d in json.loads(capsys.readouterr().out)["dice"]) == [3, 5]


def test_bench_vision_pips_prints_both_sets(capsys, tmp_path):
    assert main(["bench", "vision", "--game", "pips", "--data", str(tmp_path / "a"),
                 "--colour-data", str(tmp_path / "b")]) == 0
    out = capsys.readouterr().out
    assert "white dice:" in out and "coloured dice:" in out and out.count("is absent, skipped") == 2


def test_pip_dice_size_is_learned_from_the_first_sure_image(tmp_path, capsys):
    """Several images of one size: the dice's size is learned from the first read surely and the next
    ones are read at it (one finder pass, no pyramid), the output says so; another image size starts afresh."""
    from rig.vision.render_pips import render_pip_dice

    paths, truths = [], []
    for seed in (8, 10, 11, 15, 17, 18):
        frame, truth = render_pip_dice(seed=seed, die_px=40, n=3)
        paths.append(tmp_path / f"table{seed}.png")
        truths.append(sorted(t.pips for t in truth))
        cv2.imwrite(str(paths[-1]), frame)
    other = tmp_path / "other.png"
    cv2.imwrite(str(other), cv2.resize(cv2.imread(str(paths[0])), (800, 600)))
    assert main(["read", "--game", "pips", "--dice", "3", "--json", *map(str, paths), str(other)]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    first = next(i for i, r in enumerate(results) if r["status"] == "ok")
    assert first < 5 and results[first]["die_px_learned"] > 0
    assert all(r["die_px_from"] == "pyramid" for r in results[:first + 1])
    learned_from = {str(paths[first]): results[first]["die_px_learned"]}
    at_learned = 0
    for path, r, truth in zip(paths[first + 1:], results[first + 1:6], truths[first + 1:]):
        assert r["status"] == "uncertain" or sorted(d["pips"] for d in r["dice"]) == truth, r
        if r["die_px"] is not None:  # read at a size learned from an earlier image
            source = r["die_px_from"].removeprefix("learned from ")
            assert learned_from[source] == r["die_px"], r
            at_learned += 1
        else:  # did not fit the size (unsure): read on the pyramid again, maybe relearned from it
            assert r["die_px_from"] == "pyramid"
            if "die_px_learned" in r:
                learned_from[str(path)] = r["die_px_learned"]
    # rendered white dice showing 1 are flagged by the second opinion (rig.vision.diecheck, fitted on
    # photographed dice): such an image does not fit the learned size and is read on the pyramid again
    assert at_learned >= 1
    assert results[6]["die_px_from"] == "pyramid"  # 800x600: another camera, not the size learned at 640x480
    assert main(["read", "--game", "pips", "--dice", "3", *map(str, paths[first:first + 2])]) == 0
    assert "dice size learned: " in capsys.readouterr().out
    assert main(["read", "--game", "pips", "--die-px", "70", "--json", str(paths[0])]) == 0
    assert json.loads(capsys.readouterr().out)["die_px_from"] == "--die-px"


def test_a_learned_pip_dice_size_that_no_longer_fits_is_relearned(tmp_path, capsys):
    """The camera moved nearer (dice twice the size in images of the same size): an image read at the
    size learned earlier does not fit it, is read again on the pyramid and the size relearned."""
    from rig.vision.render_pips import render_pip_dice

    paths = []
    for seed, side in ((8, 40), (10, 40), (1, 90), (3, 90)):
        frame, truth = render_pip_dice(seed=seed, die_px=side, n=3)
        paths.append(tmp_path / f"table{seed}.png")
        cv2.imwrite(str(paths[-1]), frame)
    assert main(["read", "--game", "pips", "--dice", "3", "--json", *map(str, paths)]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    small = [r["die_px_learned"] for r in results[:2] if "die_px_learned" in r]
    assert small, results[:2]
    assert all(r["die_px"] != small[-1] for r in results[2:])  # the 90 px dice are not read at the 40 px size
    big = [r.get("die_px_learned") or r["die_px"] for r in results[2:] if r.get("die_px_learned") or r["die_px"]]
    assert big and all(b > 1.5 * small[-1] for b in big), results


def test_without_a_dice_count_an_ok_frame_says_a_missed_die_could_not_be_flagged(tmp_path, capsys):
    """With no --dice the rig cannot know a die was missed beside those it read, and says so; a frame where it
    finds no die at all is uncertain ("no die found": dice are read after a roll); with --dice it is uncertain too."""
    import numpy as np

    path = tmp_path / "floor.png"
    felt = np.random.default_rng(3).normal((60, 120, 70), 6, (480, 640, 3))  # a green felt, no die on it
    cv2.imwrite(str(path), np.clip(felt, 0, 255).astype(np.uint8))
    assert main(["read", "--game", "pips", str(path)]) == 0
    out = capsys.readouterr().out
    assert ": uncertain 0 dice" in out and "no --dice N given" not in out
    assert main(["read", "--game", "pips", "--json", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["dice_count"] is None and result["reasons"] == ["no die found"]
    dice = tmp_path / "two.png"
    _drawn_dice(dice)
    assert main(["read", "--game", "pips", str(dice)]) == 0
    out = capsys.readouterr().out
    assert ": ok 2 dice" in out and "no --dice N given" in out
    assert main(["read", "--game", "pips", "--dice", "2", str(path)]) == 0
    out = capsys.readouterr().out
    assert ": uncertain 0 dice" in out and "no --dice N given" not in out


def test_an_unknown_net_engine_is_named_and_exits_2(tmp_path):
    path = tmp_path / "two.png"
    _drawn_dice(path)
    env = dict(os.environ, RIG_DICENET_ENGINE="tensorrt")
    done = subprocess.run([sys.executable, "-m", "rig", "read", "--game", "pips", "--any-colour", str(path)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "RIG_DICENET_ENGINE='tensorrt': expected cv2 or onnxruntime" in done.stderr
