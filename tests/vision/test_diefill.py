"""Issue 25, round 34: with the game's dice count known and dice missing, a faint peak (below ``find_keep``) the reader
reads ``faint_fill_read`` (0.7) sure fills a missing die, flagged "faint die" as every faint die (was ``read_ok``,
0.9): big dice the finder scores faintly, in a box off their size, read 0.8-0.9 sure (rig.vision.diefaint.faint_kept).
With no dice count nothing changes."""

from dataclasses import replace
from pathlib import Path

import cv2

from rig.vision import dicenet
from rig.vision.anydie import AnyDieParams, read_pip_dice
from rig.vision.diefaint import faint_kept

from .pip_stubs import probs

TWIN = Path(__file__).parent / "pip_twin"
#: pip twin 12211 throw 0 (seen; 1920x1080 as JPEG q60, six black dice with white pips on knotted wood, 110 px, the
#: finder scoring them 0.2-0.6): value, centre
TRUTH_12211 = [(4, 1543, 441), (3, 882, 574), (5, 1143, 579), (2, 1207, 791), (3, 1554, 231), (5, 474, 506)]


def _by_truth(dice, tol=0.5 * 110):
    found = {}
    for d in dice:
        x, y = d.centre
        found.update({(v, tx, ty): d for v, tx, ty in TRUTH_12211 if abs(x - tx) < tol and abs(y - ty) < tol})
    return found


def test_a_faint_peak_fills_a_missing_die_from_faint_fill_read():
    p = AnyDieParams()
    assert p.faint_fill_read == 0.7 < p.read_ok
    assert faint_kept(0.3, probs(3, 0.8), p, filling=True)
    assert not faint_kept(0.3, probs(3, 0.8), p)                       # no dice count: read_ok as before
    assert not faint_kept(0.3, probs(3, 0.65), p, filling=True)        # below faint_fill_read
    assert not faint_kept(0.15, probs(3, 0.8), p, filling=True)        # below faint_keep
    assert not faint_kept(0.3, probs(0, 0.8), p, filling=True)         # the reader's "no die"
    die = dicenet.judge(dicenet.Candidate(100, 100, 40, 0.3, probs(3, 0.8)), p, filling=True)
    assert die is not None and die.pips == 3 and die.count.status == "uncertain"
    assert any(r.startswith("faint die (finder 0.30)") for r in die.count.reasons)
    assert dicenet.judge(dicenet.Candidate(100, 100, 40, 0.3, probs(3, 0.8)), p) is None


def test_big_black_dice_the_finder_scores_faintly_fill_the_count(nets):
    """Main read 3 of the 6 dice (4, 5, 5), the 3 at (1554, 231) a peak of 0.32 read 3 at 0.80: not kept."""
    frame = cv2.imread(str(TWIN / "t12211-throw0.jpg"))
    p = AnyDieParams()
    reading = read_pip_dice(frame, p, expected=(6,))
    found = _by_truth(reading.dice)
    assert (3, 1554, 231) in found and found[(3, 1554, 231)].pips == 3
    assert all(d.pips == v for (v, _, _), d in found.items()) and len(reading.dice) == len(found) >= 4
    assert all(d.count.status == "uncertain" for d in reading.dice) and reading.status == "uncertain"
    before = read_pip_dice(frame, replace(p, faint_fill_read=p.read_ok), expected=(6,))
    assert (3, 1554, 231) not in _by_truth(before.dice) and len(before.dice) < len(reading.dice)


def test_with_no_dice_count_the_faint_peaks_are_judged_as_before(nets):
    frame = cv2.imread(str(TWIN / "t12211-throw0.jpg"))
    p = AnyDieParams()
    now, before = (read_pip_dice(frame, q) for q in (p, replace(p, faint_fill_read=p.read_ok)))
    assert [(d.box, d.pips, d.count.reasons) for d in now.dice] == [(d.box, d.pips, d.count.reasons) for d in before.dice]
    assert now.reasons == before.reasons
