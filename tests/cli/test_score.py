"""`rig score`: JSON in, JSON out; every user mistake is one line on stderr and exit code 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rig.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "rig" / "games" / "frogs" / "examples" / "turn.json"


def test_scores_the_bundled_example(capsys):
    assert main(["score", str(EXAMPLE)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["points"] == {"Ada": 6, "Ben": 6, "Cleo": 3, "Dev": 2, "Eli": 3}
    assert result["missing"] == ["blue"]
    assert result["counts"] == {"blue": 6, "pink": 3, "yellow": 2, "blank": 0}
    assert [c["points"] for c in result["cards"]] == [6, 3, 2, 3]


def test_reads_standard_input():
    turn = json.loads(EXAMPLE.read_text())
    turn["dice"][0] = "blue+pink"
    done = subprocess.run([sys.executable, "-m", "rig", "score", "-"], input=json.dumps(turn),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["missing"] == []


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "not valid JSON: JSON is malformed"),
        ('{"players": ["Ada"]}', "missing 'roller'"),
        ('{"game": "chess"}', "unknown game 'chess'"),
        ('[1, 2]', "JSON object"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, text, message):
    path = tmp_path / "turn.json"
    path.write_text(text)
    done = subprocess.run([sys.executable, "-m", "rig", "score", str(path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "change, message",
    [
        ({"dice": ["pink"] * 5}, "exactly 6 dice"),
        ({"copy": "Ada"}, "cannot copy themself"),
        ({"roller": "Ben"}, "Ben is rolling"),
        ({"players": ["Ada", "Ben", "Cleo", "Dev", "Eli", "Eli"]}, "duplicate player"),
    ],
)
def test_rule_violations_in_the_input_exit_2(tmp_path, capsys, change, message):
    turn = json.loads(EXAMPLE.read_text())
    turn.update(change)
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(turn))
    assert main(["score", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_missing_file_exit_2(capsys):
    assert main(["score", "/nonexistent/turn.json"]) == 2
    assert "no such file" in capsys.readouterr().err


BLITZ = {"game": "blitz", "dice": [{"color": "red", "pips": 3}, {"color": "green", "pips": 2},
                                   {"color": "white", "dot": "green"}]}


@pytest.mark.parametrize("die, message", [
    ({"color": "chartreuse", "pips": 3}, "colour 'chartreuse' is not in the palette"),
    ({"color": "white", "dot": "teal"}, "colour 'teal' is not in the palette"),
    ("magenta:dot=red", "colour 'magenta' is not in the palette"),
])
def test_blitz_die_colour_outside_the_palette_is_refused(tmp_path, capsys, die, message):
    path = tmp_path / "roll.json"
    path.write_text(json.dumps({**BLITZ, "dice": BLITZ["dice"] + [die]}))
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_blitz_palette_is_configurable(tmp_path, capsys):
    path = tmp_path / "roll.json"
    path.write_text(json.dumps({**BLITZ, "dice": BLITZ["dice"] + [{"color": "teal", "pips": 6}]}))
    assert main(["score", str(path)]) == 2
    capsys.readouterr()
    assert main(["score", "--palette", "red,green,teal,white", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["answer"] == 3 + 6
    assert main(["score", "--palette", "red,green,teal", str(path)]) == 2  # no white: no dot dice
    assert "including 'white'" in capsys.readouterr().err
