"""The twin bench's dice the camera cannot see (``rig.bench.twin_hidden``, issue 24, round 14): a die under another
is counted apart, and the die lying on it is matched to its own reading."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from rig.bench.twin_hidden import HIDDEN, hidden_shares, score, tally
from rig.twin.physics import DIE, DiePose
from rig.vision.dice import DiceReading, DieObservation

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
TABLE = SimpleNamespace(camera={"x": 0.0, "y": 0.0, "height": 0.4, "tilt_x": 0.0, "tilt_y": 0.0}, tray=(0.2, 0.15),
                        wall=0.035)
FLAT = tuple(tuple(float(v) for v in row) for row in np.eye(3))


def _die(x: float, y: float, z: float = DIE / 2, face: str = "blank") -> DiePose:
    return DiePose((x, y, z), FLAT, "pink+blue", face, False, 0.0)


def test_a_die_lying_on_another_hides_its_top_and_dice_apart_hide_nothing():
    dice = [_die(0.03, 0.02, face="blue"), _die(0.031, 0.021, 1.5 * DIE), _die(-0.05, -0.03), _die(0.09, 0.06)]
    shares = hidden_shares(TABLE, dice)
    assert shares[0] > 0.8 and shares[0] > HIDDEN  # under the blank die
    assert shares[1:] == [0.0, 0.0, 0.0]  # on top, in the open, by the corner (the camera looks down over the walls)


def _obs(face: str, x: float, y: float) -> DieObservation:
    return DieObservation(face=face, x=x, y=y, box=(int(x) - 10, int(y) - 10, 20, 20), confidence=0.9, cocked=False,
                          area=1.0)


def test_the_die_on_top_is_matched_to_its_reading_and_the_hidden_one_is_not_counted():
    # twin 9705 turn 2 (seen): the hidden blue die comes first in the throw's order and its true top lies 7 px from
    # the blank's; the one die read there was matched to it (wrong) and the blank counted as not seen (wrong)
    truth = [SimpleNamespace(face="blue", x=398.0, y=176.0, cocked=False),
             SimpleNamespace(face="blank", x=397.0, y=183.0, cocked=False),
             SimpleNamespace(face="pink", x=100.0, y=100.0, cocked=False)]
    reading = DiceReading((_obs("blank", 397.5, 181.0), _obs("pink", 100.0, 101.0)), "uncertain",
                          ("2 of the 3 dice thrown seen",), None)
    assert score(truth, [True, False, False], reading, 25.0) == (2, 2, False, False, True)
    assert score(truth, [False, False, False], reading, 25.0)[:3] == (1, 3, True)  # as the bench scored it before
    row = dict.fromkeys(("right", "dice", "turns6", "right6", "silent", "needless", "frames", "cocked",
                         "cocked_flagged"), 0)
    tally(row, truth, [True, False, False], reading, 25.0)
    assert (row["hidden"], row["hidden_flagged"], row["needless"], row["silent"]) == (1, 1, 0, 0)
    ok = DiceReading(reading.dice, "ok", (), None)
    tally(row, truth, [True, False, False], ok, 25.0)  # a turn with a hidden die read "ok" is silent
    assert row["silent"] == 1


@pytest.mark.skipif(not DATA.is_dir(), reason="needs ../shared/data (the twin's floor photos draw from its generator)")
def test_the_twin_throw_of_table_9705_turn_2_lays_a_blank_die_on_a_blue_one():
    pytest.importorskip("pybullet")
    from rig.bench.tables import photo_patch
    from rig.twin.table import TwinTable

    table = TwinTable.random(9705, photo=lambda kind, rng: photo_patch(kind, rng, DATA))  # as the bench draws it
    shot = next(s for s in table.shots(3) if s.name == "turn:2")
    shares = hidden_shares(table, shot.dice)
    hidden = [d.face for d, share in zip(shot.dice, shares) if share > HIDDEN]
    assert hidden == ["blue"], shares
