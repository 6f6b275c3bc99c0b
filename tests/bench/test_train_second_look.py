"""The second look's simulation in scripts/train_second_look.py: the square rule can be left out, and a confident
net may free a die flagged only plain "cocked die" whose top is not square (issue 24, round 25)."""

from __future__ import annotations

import numpy as np

from tests.bench.scripts import load_script


def _line(reasons, aspect):
    """One flagged turn: a single flat die read blue at (100, 100), its top of ``aspect``, the others unflagged."""
    seen = [
        {
            "face": "blue",
            "x": 100.0,
            "y": 100.0,
            "cocked": True,
            "i": 0,
            "m": [aspect, 1.0],
            "state": "flat",
            "true_face": "blue",
        }
    ]
    seen += [
        {
            "face": "pink",
            "x": 300.0 + 60 * k,
            "y": 300.0,
            "cocked": False,
            "i": 1 + k,
            "m": [1.0, 1.0],
            "state": "flat",
            "true_face": "pink",
        }
        for k in range(5)
    ]
    return {
        "status": "uncertain",
        "reasons": reasons,
        "seen": seen,
        "side": 40.0,
        "drift": "same",
        "wrong": False,
        "has_cocked": False,
    }


def _probs(flat):
    """Six dice: the first flat at ``flat`` and read blue surely, the rest surely flat and pink."""
    p = np.zeros((6, 10))
    p[0, :3] = [flat, 1 - flat, 0.0]
    p[0, 3 + 1] = 1.0  # blue
    p[1:, 0] = 1.0
    p[1:, 3 + 2] = 1.0  # pink
    return p


def test_the_square_rule_keeps_a_die_whose_top_is_not_square_unless_left_out():
    sim = load_script("train_second_look").simulate
    line = _line(["cocked die at (100, 100)"], aspect=0.7)
    kept, _ = sim([line], _probs(0.99), (0.8, 0.9, 0.98))
    assert kept[0]["status"] == "uncertain"
    freed, tally = sim([line], _probs(0.99), (0.8, 0.9, 0.98), use_square=False)
    assert freed[0]["status"] == "ok" and tally["flat: flat"] == 1


def test_a_confident_net_frees_plain_cocked_die_only():
    sim = load_script("train_second_look").simulate
    plain = _line(["cocked die at (100, 100)"], aspect=0.7)
    freed, _ = sim([plain], _probs(0.99), (0.8, 0.9, 0.98), cocked_sure=0.95)
    assert freed[0]["status"] == "ok"
    unsure, _ = sim([plain], _probs(0.9), (0.8, 0.9, 0.98), cocked_sure=0.95)
    assert unsure[0]["status"] == "uncertain"
    wall = _line(["cocked die (its side face beyond the top's outer edge) at (100, 100)"], aspect=0.7)
    kept, _ = sim([wall], _probs(0.99), (0.8, 0.9, 0.98), cocked_sure=0.95)
    assert kept[0]["status"] == "uncertain"
