"""The twin's eighth round (issue 24): a die partly in a wall's lifted deep shade is flagged once a quarter of its top
lies there (was: over half) — fresh twin 8403 turn 1, a yellow+pink die 40-50 % in it, read "blank" in silence; and
scripts/twin_turns.py, which counts why dice are wrong and why right turns are flagged, turn by turn."""

import json

import pytest

from rig.vision import dice
from rig.vision.dice import read_dice
from tests.vision.dice_twin import frame_and_profile
from tests.vision.conftest import script



def _turn_8403():
    # fresh twin table 8403 (read once, then looked at), turn 1, lamp x0.8, calibrated by main's reader: the
    # yellow+pink die at (218, 338) lies on the edge of the near wall's deep shade, that half of its top lifted
    # to the open floor's light and the other not; its pink faint, it reads "blank"
    return frame_and_profile("t8403-turn1.jpg", "t8403")


def test_twin_8403_turn_1_a_die_half_in_the_lifted_shade_is_flagged():
    frame, profile = _turn_8403()
    reading = read_dice(frame, profile, thrown=6)
    assert reading.status == "uncertain"
    # (and since the ninth round also "die top much like the floor (glare?)": 0.4 of its top the floor's colour)
    assert "die in shadow or on edge at (218, 338)" in [r for r in reading.reasons if "(218, 338)" in r]


def test_with_half_of_its_top_asked_for_it_reads_blank_and_ok(monkeypatch):
    frame, profile = _turn_8403()
    monkeypatch.setattr(dice, "DEEP_SHARE", 0.5)  # main's rule: over half of the top in the lifted deep shade
    monkeypatch.setattr(dice, "FLOOR_ON_TOP", 1.0)  # and without the ninth round's floor-coloured top
    reading = read_dice(frame, profile, thrown=6)
    assert reading.faces == ["blank"] * 4 + ["yellow"] * 2  # truly a yellow+pink among them
    # since round 22 a clear blank read again in the frame's overall light shows its frog there: flagged even so
    assert [r for r in reading.reasons if "(218, 338)" in r] == [
        "blank die top shows a frog in the frame's overall light at (218, 338)"]
    monkeypatch.setattr(dice, "shows_frog", lambda *a: False)  # and without it
    reading = read_dice(frame, profile, thrown=6)
    assert not [r for r in reading.reasons if "(218, 338)" in r]  # read blank, nothing said of it: wrong in silence
    # (main's reader said "ok"; with the glare taken off channel by channel a die at (370, 195) is also called cocked)


@pytest.fixture
def twin_turns():
    return script("twin_turns")


def _line(seed, drift, turn, status, reasons, seen, truth):
    right = sum(1 for t, s in zip(truth, seen) if s and s["face"] == t["face"] and not t["cocked"])
    wrong = any(not s or s["face"] != t["face"] for t, s in zip(truth, seen))
    return {"seed": seed, "drift": drift, "turn": turn, "shot": f"turn:{turn}", "die_px": 40.0, "status": status,
            "reasons": reasons, "right": right, "counted": sum(not t["cocked"] for t in truth), "wrong": wrong,
            "has_cocked": any(t["cocked"] for t in truth), "six": True, "truth": truth, "seen": [s for s in seen if s]}


def _die(face, x, y, cocked=False, **kw):
    return {"face": face, "x": x, "y": y, "cocked": cocked, "area": 1.0, "aspect": 1.0, "small": False,
            "aspect_test": False, "lean": cocked, "deep": False, "glare": False, **kw}


def test_twin_turns_counts_why_dice_are_wrong_and_why_right_turns_are_flagged(tmp_path, capsys, twin_turns):
    truth = [_die("pink", 100, 100), _die("blue", 200, 100), _die("blank", 300, 100)]
    lines = [
        # right, flagged for a flat die called cocked: needless, "cocked die" its only reason
        _line(7, "same", 0, "uncertain", ["cocked die at (200, 100)"], [truth[0], _die("blue", 201, 99, cocked=True),
                                                                         truth[2]], truth),
        # the pink die read blank, flagged at its place; a yellow "die" under the floor's glare
        _line(7, "700 K warmer", 0, "uncertain", ["unclear pink on die at (101, 100)", "4 dice seen, there are only 3"],
              [_die("blank", 101, 100), truth[1], truth[2], _die("yellow", 600, 400, glare=True)], truth),
        # the blue die not seen, the turn ok: silent
        _line(7, "lamp x0.8", 0, "ok", [], [truth[0], None, truth[2]], truth),
    ]
    (tmp_path / "7.jsonl").write_text("".join(json.dumps(s) + "\n" for s in lines))
    twin_turns.tabulate(tmp_path, "7:1")
    out = capsys.readouterr().out
    assert "misread, flat: 1 (0 silent)" in out and "unclear pink 1" in out and "pink as blank 1" in out
    assert "a die read where none is: 1 (0 silent); place {\"floor's glare\": 1}" in out
    assert "not seen, flat: 1 (1 silent)" in out
    assert "(b) needless flags, 1 of 3 turns" in out and "   1 (  1)  cocked die" in out
    assert "ALL after drift: dice 66.7 %, 6/6 0/2, silent 1" in out


def test_twin_turns_compare_says_which_turns_went_silent(tmp_path, capsys, twin_turns):
    truth = [_die("pink", 100, 100)]
    before, after = tmp_path / "before", tmp_path / "after"
    for folder, status, reasons in ((before, "uncertain", ["2 dice seen, there are only 1"]), (after, "ok", [])):
        folder.mkdir()
        line = _line(9, "700 K warmer", 2, status, reasons, [_die("blank", 100, 100)], truth)
        (folder / "9.jsonl").write_text(json.dumps(line) + "\n")
    twin_turns.compare(before, after, "9:1")
    assert "NOW SILENT: 9 700 K warmer turn:2" in capsys.readouterr().out
