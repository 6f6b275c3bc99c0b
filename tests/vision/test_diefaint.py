"""Issue 25, round 15: a finder peak below ``find_keep`` that the reader is sure of is kept as a faint die, always
flagged, when the game's dice count is known and fewer dice were found (rig.vision.diefaint); the pyramid's level is
still chosen on the peaks above ``find_keep``."""

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from rig.vision import diebodies, dicelevels, dicenet, diecolour
from rig.vision.anydie import AnyDieParams, read_pip_dice
from rig.vision.diefaint import faint_kept, unshadowed, with_faint

from .pip_stubs import probs

TWIN = Path(__file__).parent / "pip_twin"


def _cand(x, y, side, score, k=3, pk=0.97):
    return dicenet.Candidate(x, y, side, score, probs(k, pk))


def test_a_faint_peak_is_kept_only_when_the_reader_is_sure_of_a_count():
    p = AnyDieParams()
    assert p.faint_keep == 0.2 and p.faint_keep < p.find_keep
    assert faint_kept(0.3, probs(3, 0.97), p)
    assert not faint_kept(0.3, probs(3, 0.8), p)                      # the reader unsure: no die
    assert not faint_kept(0.3, probs(0, 0.97), p)                     # the reader's "no die"
    assert not faint_kept(0.15, probs(3, 0.97), p)                    # below faint_keep
    assert not faint_kept(0.3, probs(3, 0.97), replace(p, faint_keep=0.0))  # 0: never


def test_a_faint_die_is_flagged_never_ok_and_dropped_when_the_reader_is_unsure():
    p = AnyDieParams()
    die = dicenet.judge(_cand(100, 100, 40, 0.3), p)
    assert die is not None and die.pips == 3 and die.count.status == "uncertain"
    assert any(r.startswith("faint die (finder 0.30)") for r in die.count.reasons)
    assert dicenet.judge(_cand(100, 100, 40, 0.3, pk=0.6), p) is None
    assert dicenet.judge(_cand(100, 100, 40, 0.3), replace(p, faint_keep=0.0)) is None


def test_a_faint_peak_on_a_die_found_surer_is_dropped():
    p = AnyDieParams()
    strong = _cand(100, 100, 40, 0.8)
    pip = _cand(110, 108, 12, 0.3, k=1)                               # a pip of it, seen as a small die
    apart = _cand(160, 100, 40, 0.3)                                  # a die of its own, a side and a half away
    kept = [(c, dicenet.judge(c, p)) for c in (strong, pip, apart)]
    assert [c for c, _ in unshadowed(kept, p, dicenet.OVERLAP)] == [strong, apart]


def test_the_twin_die_in_plain_view_the_finder_scores_low_is_read_flagged(monkeypatch):
    """Pip twin 9802, throw 0 (seen; 640x480, red dice with white pips, 95 px): the die showing 1 lies flat in full
    view, the finder scores it 0.43 (below find_keep 0.45): it was not read at all. Now, the two dice thrown known,
    it is read 1, flagged faint; with no dice count, as before."""
    frame = cv2.imread(str(TWIN / "t9802-throw0.jpg"))
    truth = [(2, 361, 289), (1, 258, 371)]
    assert len(read_pip_dice(frame, AnyDieParams()).dice) == 1  # no dice count: no faint die
    assert len(read_pip_dice(frame, AnyDieParams(), expected=(1, 2)).dice) == 1  # one die is a count the game takes
    with monkeypatch.context() as off:  # nor found by its colour (rig.vision.diecolour, round 35) or body (diebodies, 36)
        off.setattr(diecolour, "COLOUR_SURE", 1.01)
        off.setattr(diebodies, "SEED_SURE", 1.01)
        before = read_pip_dice(frame, replace(AnyDieParams(), faint_keep=0.0), expected=(2,))
    assert len(before.dice) == 1 and before.status == "uncertain"
    after = read_pip_dice(frame, AnyDieParams(), expected=(2,))
    assert after.status == "uncertain" and not any(d.count.status == "ok" and d.pips != 2 for d in after.dice)
    found = {}
    for d in after.dice:
        x, y = d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2
        found.update({v: d for v, tx, ty in truth if abs(x - tx) < 45 and abs(y - ty) < 45})
    assert sorted(found) == [1, 2] and len(after.dice) == 2
    assert found[1].pips == 1 and found[1].count.status == "uncertain"
    assert any(r.startswith("faint die") for r in found[1].count.reasons)


@pytest.mark.parametrize("keep", [0.0, 0.2])
def test_the_level_is_chosen_above_find_keep_whatever_faint_keep(monkeypatch, keep):
    """The pyramid's level (and so the dice's size) is chosen on the peaks above find_keep (this frame's level is weak:
    again above WEAK_FLOOR): faint_keep only adds peaks to read, it does not move the level."""
    nets = dicenet.default_dicenet()
    if nets is None:
        pytest.skip("no dice nets")
    frame = cv2.imread(str(TWIN / "t9802-throw0.jpg"))
    floors = []
    real = dicenet.DiceNet.level

    def spy(self, f, floor=0.2, **kw):
        floors.append(floor)
        return real(self, f, floor, **kw)

    monkeypatch.setattr(dicenet.DiceNet, "level", spy)
    read_pip_dice(frame, replace(AnyDieParams(), faint_keep=keep), expected=(2,))
    # chosen above find_keep; a weak level (rig.vision.dicelevels.chosen_again, round 30) chosen again above WEAK_FLOOR, not faint_keep
    assert floors == [AnyDieParams().find_keep, dicelevels.WEAK_FLOOR]


def test_a_faint_first_pass_peak_does_not_vouch_for_a_second_pass_die(monkeypatch):
    """A second-pass peak with no first-pass peak on it is ``alone`` (read more strictly); a faint first-pass peak
    (below the level's floor, find_keep) does not change that, nor does it make the die found twice."""
    def out(spots, s):
        gy, gx = np.mgrid[0:60, 0:80].astype(np.float32)
        heat = np.maximum.reduce([h * np.exp(-((gx - x / 4) ** 2 + (gy - y / 4) ** 2)) for x, y, h in spots])
        return heat, np.full_like(heat, np.log(4.0)), s

    nets = dicenet.DiceNet.__new__(dicenet.DiceNet)
    monkeypatch.setattr(nets, "normalised", lambda frame, floor, memo=None, level_floor=0.0, tile_floor=0.0:
                        [out([(202, 42, 0.9)], 2.0), out([(101, 21, 0.3)], 1.0)], raising=False)
    frame = np.zeros((240, 320, 3), np.uint8)
    def second_pass_alone(level_floor):
        found = nets._found(frame, 0.2, 0.0, None, level_floor)
        assert len(found) == 2 and found[0][3] > 0.45 > found[1][3]  # the second pass's peak, then the first's
        return [found[0][4]]

    assert second_pass_alone(0.45) == [True]
    assert second_pass_alone(0.0) == [False]  # no level floor (as before): the faint peak is a first-pass peak on it


def test_faint_dice_fill_only_the_dice_missing_from_the_count_the_surest_first():
    p = AnyDieParams()
    strong = [_cand(100 * i, 100, 40, 0.8) for i in (1, 2)]
    faint = [_cand(100, 300, 40, 0.25), _cand(200, 300, 40, 0.4), _cand(300, 300, 40, 0.3, pk=0.99)]
    kept = [(c, dicenet.judge(c, p)) for c in strong + faint]
    assert all(d is not None for _, d in kept)
    mine = lambda dice: [d.box[:2] for d in dice]  # noqa: E731
    opinion = lambda pairs, p: [d for _, d in pairs]  # noqa: E731
    assert mine(with_faint(kept, p, dicenet.OVERLAP, opinion, 0)) == mine(d for _, d in kept[:2])  # no count: none
    assert mine(with_faint(kept, p, dicenet.OVERLAP, opinion, 2)) == mine(d for _, d in kept[:2])  # none missing
    assert mine(with_faint(kept, p, dicenet.OVERLAP, opinion, 3)) == mine(d for _, d in kept[:2] + kept[3:4])
    assert mine(with_faint(kept, p, dicenet.OVERLAP, opinion, 9)) == mine(d for _, d in kept[:2] + [kept[3], kept[4], kept[2]])
