"""scripts/tune_dicenet.py (issue 25): the figures it chooses the nets and thresholds by are the benchmark's."""

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from rig.bench.pip_photos import LabelledDie, Photo
from rig.bench.pip_scores import evaluate_frames
from rig.vision.anydie_params import AnyDieParams
from rig.vision.dicenet import Candidate, read_dice

from .scripts import SCRIPTS, load_script


def cand(x, y, pips, score=0.9, sure=0.97):
    probs = np.full(7, (1 - sure) / 6)
    probs[pips] = sure
    return Candidate(x, y, 40.0, score, probs)


class CachedNets:
    """Nets whose 'frame' is already its candidates (as the script caches them)."""

    def candidates(self, frame, floor, die_px=0.0, level_floor=0.0, worth=None):
        return [c for c in frame if c.score >= floor]


def test_the_scripts_counts_on_cached_candidates_are_the_benchmarks():
    tune = load_script("tune_dicenet")
    p = replace(AnyDieParams(), check_ok=0.0, body_grow=0.0)  # the cached frames are no images: no body to read again
    frames = [  # two read right, one misread and sure (silent), a faint thing where no die lies
        ((LabelledDie(3, (80, 80, 40, 40)), LabelledDie(5, (200, 80, 40, 40)), LabelledDie(2, (320, 80, 40, 40))),
         [cand(100, 100, 3), cand(220, 100, 5), cand(340, 100, 4), cand(500, 300, 1, score=0.5)]),
        # one read right but unsure (flagged), one missed
        ((LabelledDie(6, (80, 80, 40, 40)), LabelledDie(1, (200, 200, 40, 40))), [cand(100, 100, 6, sure=0.6)]),
        # all right and sure: a frame not flagged
        ((LabelledDie(4, (80, 80, 40, 40)),), [cand(100, 100, 4)]),
    ]
    got = tune.score([(False, dice, (), cands) for dice, cands in frames], p)
    assert got.pop("extra_ok") == 0  # the faint thing is flagged

    photos = [Photo(Path(f"p{i}.jpg"), i, dice) for i, (dice, _) in enumerate(frames)]
    images = {photo.path: cands for photo, (_, cands) in zip(photos, frames)}
    cm, _, _, flags, frame_flags = evaluate_frames(photos, p, images, reader=lambda f, q: read_dice(f, q, CachedNets()))
    bench = dict(n=cm.total, found=cm.total - sum(cm.missed), right=cm.correct, silent=flags.silent,
                 flagged=flags.flagged_wrong + flags.flagged_right, frames=frame_flags.frames,
                 frames_flagged=frame_flags.flagged, frames_silent=frame_flags.silent)
    assert got == bench == dict(n=6, found=5, right=4, silent=1, flagged=1, frames=3, frames_flagged=2, frames_silent=0)


def test_a_die_in_a_cut_dies_box_is_neither_required_nor_counted():
    tune = load_script("tune_dicenet")
    p = replace(AnyDieParams(), check_ok=0.0)
    cut = (LabelledDie(2, (0, 0, 40, 40)),)
    dice = tune.judged([cand(20, 20, 2), cand(200, 200, 5)], p, cut)
    assert [d.pips for d in dice] == [5]


def test_a_box_far_bigger_than_the_frames_other_dice_is_flagged_as_the_reader_flags_it():
    """Issue 25, round 19: one box around several small dice, read surely as one die, is flagged (``big_box``)."""
    tune = load_script("tune_dicenet")
    p = replace(AnyDieParams(), check_ok=0.0)
    big = replace(cand(300, 300, 2), side=160.0)  # four times the frame's dice of 40 px
    cands = [cand(100, 100, 3), cand(200, 100, 5), big]
    assert [d.count.status for d in tune.judged(cands, p, ())] == ["ok", "ok", "uncertain"]
    assert [(d.pips, d.count.status) for d in tune.judged(cands, p, ())] == [
        (d.pips, d.count.status) for d in read_dice(cands, p, CachedNets())]
    assert [d.count.status for d in tune.judged(cands, replace(p, big_box=0.0), ())] == ["ok"] * 3


def test_a_sure_die_where_none_is_labelled_is_counted_as_a_false_die_ok():
    """The twin tables' coins, screw heads and card corners are unlabelled: one read as a sure die is a false die
    reported ok (``unlabelled ok``), as the benchmark's ``extra ok``."""
    tune = load_script("tune_dicenet")
    p = replace(AnyDieParams(), check_ok=0.0)
    rows = [(True, (LabelledDie(3, (80, 80, 40, 40)),), (), [cand(100, 100, 3), cand(500, 300, 1, score=0.95)])]
    assert tune.score(rows, p)["extra_ok"] == 1
    assert tune.score(rows, replace(p, one_ok=0.99))["extra_ok"] == 0  # a 1 that unsure is flagged


def test_the_twin_test_tables_are_refused_for_tuning(monkeypatch):
    """``tune_dicenet.py --twin`` and ``train_dicenet.py --twin`` take their tables from ``twin_frames.seeds``: the
    benchmark's tables (9000-9023) and the fresh test tables of the refitted thresholds (9200-9211) and of the finder
    trained with flat drawn dice (9300-9311) are refused."""
    import pytest

    spec = importlib.util.spec_from_file_location("twin_frames", SCRIPTS / "twin_frames.py")
    twin = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "twin_frames", twin)  # its dataclass looks its module up
    spec.loader.exec_module(twin)
    assert twin.seeds("9130-9132,9140") == [9130, 9131, 9132, 9140]
    for spec_ in ("9000", "9199-9200", "9211", "9290-9300", "9311"):
        with pytest.raises(SystemExit, match="test tables"):
            twin.seeds(spec_)
    assert twin.seeds("9212") == [9212] and twin.seeds("9312") == [9312]
