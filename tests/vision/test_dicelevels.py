"""The pyramid's coarsest levels that cannot win left unread (issue 25, round 30): the same level, peaks and readings
as with every level read, fewer crops read."""

import cv2
import numpy as np
import pytest

from rig.vision import dicenet
from rig.vision.dicelevels import SLACK, level_bound, strength, unread_coarsest


def test_a_levels_bound_is_what_it_scores_with_the_reader_sure():
    kept = [(10.0, 10.0, 20.0, 0.8), (60.0, 10.0, 20.0, 0.6), (66.0, 12.0, 20.0, 0.5)]  # the last two crowd each other
    bound, peak = level_bound((40.0, 1.0, None, kept, kept), 0.3, 0.06)
    assert bound == pytest.approx((0.8 + 0.6 * 0.3 + 0.5 * 0.3) / 3 - 0.06 + SLACK)
    assert peak == pytest.approx(0.8 + SLACK)
    read = [(x, y, side, score * 0.97 * (0.3 if i else 1.0)) for i, (x, y, side, score) in enumerate(kept)]
    assert strength(read, [1.0] * 3) - 0.06 < bound
    assert level_bound((40.0, 0.0, None, [], []), 0.3, 0.06) == (SLACK, SLACK)


def test_only_a_run_of_the_coarsest_levels_below_the_likeliest_is_left_unread():
    assert unread_coarsest([(0.3, 0.5), (0.5, 0.6), (0.7, 0.8)], 0.9) == 3
    assert unread_coarsest([(0.3, 0.5), (0.95, 0.9), (0.2, 0.3)], 0.9) == 1  # a level that could lead ends the run
    assert unread_coarsest([(0.92, 0.9), (0.2, 0.3)], 0.9) == 0
    assert unread_coarsest([], 0.9) == 0


def _frames(count: int, size: tuple[int, int]) -> list[np.ndarray]:
    from rig.bench.pips import as_frame, colour_folder, load_photos

    folder = colour_folder(None)
    if not folder.is_dir():
        pytest.skip(f"photographs not found at {folder}")
    photos = load_photos(folder, any_name=True, tuning_only=True)
    return [as_frame(p, cv2.imread(str(p.path)), size)[1] for p in photos[::max(1, len(photos) // count)][:count]]


def _reading(frame: np.ndarray, crops: list[int]):
    """The pyramid's choice and the candidates of a fresh net (no memo carried over), and the crops it read."""
    net = dicenet.DiceNet()
    read = net._probabilities

    def counted(crop_list, hidden=False):
        crops.append(len(crop_list))
        return read(crop_list, hidden)

    net._probabilities = counted
    px, q, (heat, sides, s) = net.level(frame, 0.45, memo={})
    cands = [(c.x, c.y, c.side, c.score, c.alone, c.probs.tolist()) for c in net.candidates(frame, 0.45, 0.0, 0.45)]
    return px, q, heat.tobytes(), sides.tobytes(), s, cands


@pytest.mark.skipif(not (dicenet.FIND_WEIGHTS.exists() and dicenet.READ_WEIGHTS.exists()), reason="no shipped nets")
def test_coarse_levels_left_unread_give_the_same_choice_and_candidates_from_fewer_crops(monkeypatch):
    """Coloured tuning photos at 1280x960 (dice of ~50-65 px; the levels of 112-253 px dice score 0.3-0.7): every
    level, peak and reading as with every level read, fewer crops read."""
    few, every = [], []
    for frame in _frames(6, (1280, 960)):
        monkeypatch.setattr(dicenet, "UNREAD_LEVELS", True)
        lazy = _reading(frame, few)
        monkeypatch.setattr(dicenet, "UNREAD_LEVELS", False)
        assert _reading(frame, every) == lazy
    assert sum(few) < 0.95 * sum(every)


@pytest.mark.skipif(not (dicenet.FIND_WEIGHTS.exists() and dicenet.READ_WEIGHTS.exists()), reason="no shipped nets")
def test_a_level_left_out_that_might_have_led_is_read_and_the_search_run_again(monkeypatch):
    """Every level coarser than the likeliest left out whatever it could score: where one might have led, or held a
    finer level's peaks as a sure die, the search runs again with it read; the choice is always the full one."""
    search, runs = dicenet.DiceNet._search, []
    monkeypatch.setattr(dicenet.DiceNet, "_search", lambda net, *a: runs[-1].append(a[3]) or search(net, *a))
    monkeypatch.setattr(dicenet, "unread_coarsest", lambda bounds, likeliest: len(bounds))
    for frame in _frames(4, (640, 480)) + _frames(4, (1920, 1080)):
        monkeypatch.setattr(dicenet, "UNREAD_LEVELS", False)
        runs.append([])
        full = _reading(frame, [])
        monkeypatch.setattr(dicenet, "UNREAD_LEVELS", True)
        runs.append([])
        assert _reading(frame, []) == full
    lazy = runs[1::2]  # per frame, the levels each search left out: level() then candidates(), each once or twice
    assert [0, 0] in [r[1::2] for r in lazy if len(r) == 4]  # searched again, every level read
    assert any(len(r) == 2 and min(r) > 0 for r in lazy)  # levels left out, the one search kept
