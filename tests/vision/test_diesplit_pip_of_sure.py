"""Issue 25, round 32: a finer pyramid level's peak read as a die showing 1 inside a coarser level's sure die read
surely as showing 2-6 is that die's pip, or the die seen off its middle, even when the die holds only that one of the
finer level's peaks (rig.vision.diesplit.pip_of_sure, LONE_PIP; before, two were needed). White dice of 50-100 px
showing 2 (the tuning photos at x1.5): the level a step finer than the dice's saw one peak on a die, read as 1, no
die held two, and that level won.

The fixture is a tuning photo of ../shared/data/real-pip-dice (never the held-out split): the part of ``two_34`` the
benchmark's x1.5 frame shows (rig.bench.pips.scaled_frame: the photo scaled x1.5, its middle 640 x 480 cut out), kept
at its own size with two pixels about it (JPEG 95) and scaled here as the benchmark scales it."""

import numpy as np
import pytest

from rig.vision import diesplit

from .pip_small import read_x15

#: two_34's labelled dice in the x1.5 frame: pips, centre
TRUTH = [(2, 153.5, 111.8), (2, 415.3, 132.0), (2, 65.7, 222.8)]


def _read() -> list[tuple[int, str, list[int]]]:
    return read_x15("two_34", TRUTH)


def test_a_large_die_showing_2_seen_once_by_a_finer_level_is_read_as_a_2(nets):
    read = _read()
    assert sorted(inside for _, _, inside in read if inside) == [[2], [2], [2]]
    assert all(pips == 2 for pips, _, inside in read if inside)
    assert all(status != "ok" for _, status, inside in read if not inside)  # the die cut by the frame's edge


def test_before_one_was_read_as_a_die_showing_1(nets, monkeypatch):
    monkeypatch.setattr(diesplit, "LONE_PIP", False)
    read = _read()
    assert [(pips, status) for pips, status, inside in read if inside and pips != inside[0]] == [(1, "uncertain")]


def _probs(k: int) -> np.ndarray:
    out = np.full(7, 0.01, np.float32)
    out[k] = 0.94
    return out


DIE = (100.0, 100.0, 40.0)  # a coarser level's sure die
PEAK = (92.0, 92.0, 14.0)  # a finer level's peak inside it


@pytest.mark.parametrize("peak, die, lone, want", [
    (1, 2, True, True),  # a pip (or the die off its middle) read as a die showing 1, inside a sure 2
    (1, 2, False, False),  # before: one peak inside was no pip
    (2, 4, True, False),  # a small die of its own inside a group read as one die showing 4
    (1, 1, True, False),  # a die showing 1 inside itself seen at a coarser level
    (0, 2, True, False),  # read as no die
])
def test_a_lone_peak_is_a_pip_only_when_read_as_1_inside_a_die_read_2_to_6(monkeypatch, peak, die, lone, want):
    monkeypatch.setattr(diesplit, "LONE_PIP", lone)
    memo = {PEAK: (_probs(peak), None), DIE: (_probs(die), None)}
    here = [PEAK[:2], (300.0, 300.0)]
    assert diesplit.pip_of_sure(*PEAK, here, [DIE], memo) == want


def test_two_peaks_inside_a_sure_die_are_its_pips_whatever_they_read():
    memo = {PEAK: (_probs(3), None), DIE: (_probs(1), None)}
    assert diesplit.pip_of_sure(*PEAK, [PEAK[:2], (108.0, 108.0)], [DIE], memo)
