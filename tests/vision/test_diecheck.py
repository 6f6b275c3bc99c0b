"""The second opinion on the learned reader's dice (rig.vision.diecheck): it can only flag, and with the
shipped check the things drawn into real photos (coins, knots, screws ...) are no longer reported ok."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from rig.vision import dicenet
from rig.vision.anydie import AnyDieParams
from rig.vision.diecheck import WEIGHTS, DieCheck, DieCheckError, candidate_features, features
from rig.vision.dicenet import Candidate, judge, second_opinion

SURE_THREE = [0.0, 0.0, 0.0, 0.98, 0.02, 0.0, 0.0]


def test_features_compare_a_die_with_the_frames_other_dice():
    probs = np.array(SURE_THREE, np.float32)
    x = features(np.zeros(96), probs, 0.9, 40.0, [20.0, 20.0, 20.0])
    assert x.shape == (96 + 7 + 5,)
    assert x[-5:].tolist() == pytest.approx([0.9, 0.98, np.log(2), np.log(2), 0.0])
    assert features(np.zeros(96), probs, 0.9, 40.0, [])[-3] == 0.0  # alone: nothing to compare with
    one = np.array([0.0, 0.99, 0.01, 0, 0, 0, 0], np.float32)
    assert features(np.zeros(96), one, 0.9, 40.0, [40.0])[-1] == 1.0
    cands = [Candidate(10, 10, 20, 0.9, probs, np.zeros(96)), Candidate(50, 10, 40, 0.9, probs, np.zeros(96))]
    assert candidate_features(cands)[:, -3].tolist() == pytest.approx([np.log(0.5), np.log(2)])
    assert candidate_features([Candidate(10, 10, 20, 0.9, probs)]) is None  # no hidden layer: no opinion


def test_check_round_trips_and_a_bad_file_is_a_clear_error(tmp_path):
    check = DieCheck(np.arange(3.0), 0.5, np.zeros(3), np.ones(3))
    check.save(tmp_path / "c.npz")
    again = DieCheck.load(tmp_path / "c.npz")
    x = np.array([[1.0, -1.0, 2.0]])
    assert again.likeness(x) == pytest.approx(check.likeness(x), abs=1e-6)
    (tmp_path / "bad.npz").write_bytes(b"not a check")
    with pytest.raises(DieCheckError, match="cannot read the die check"):
        DieCheck.load(tmp_path / "bad.npz")


def test_second_opinion_only_flags(monkeypatch):
    """A die the check rates low is flagged, never dropped; a flagged die stays flagged; none turns ok."""
    # the check looks at the finder's score only (feature 96 + 7): low score, low likeness
    w, mean = np.zeros(96 + 7 + 5), np.zeros(96 + 7 + 5)
    w[103], mean[103] = 1.0, 0.8  # likeness = sigmoid((score - 0.8) / 0.05)
    monkeypatch.setattr(dicenet, "default_check", lambda: DieCheck(w, 0.0, mean, np.full_like(w, 0.05)))
    p = AnyDieParams()
    hidden = np.zeros(96, np.float32)
    cands = [Candidate(100, 80, 40, 0.95, np.array(SURE_THREE, np.float32), hidden),  # likeness ~0.95: ok
             Candidate(200, 80, 40, 0.65, np.array(SURE_THREE, np.float32), hidden),  # ~0.05: flagged
             Candidate(300, 80, 40, 0.5, np.array(SURE_THREE, np.float32), hidden)]  # faint: flagged already
    kept = [(c, judge(c, p)) for c in cands]
    assert [d.count.status for _, d in kept] == ["ok", "ok", "uncertain"]
    dice = second_opinion(kept, p)
    assert [d.count.status for d in dice] == ["ok", "uncertain", "uncertain"]
    assert [d.pips for d in dice] == [3, 3, 3]
    assert "unlike the dice the reader knows" in dice[1].count.reasons[-1]
    assert dice[2].count.reasons == kept[2][1].count.reasons
    assert [d.count.status for d in second_opinion(kept, replace(p, check_ok=0.0))] == ["ok", "ok", "uncertain"]


@pytest.mark.skipif(not (WEIGHTS.exists() and dicenet.FIND_WEIGHTS.exists()), reason="no shipped nets")
def test_read_features_gives_the_hidden_layer_and_the_same_probabilities():
    nets = dicenet.default_dicenet()
    crops = [np.random.default_rng(s).integers(0, 255, (dicenet.CROP, dicenet.CROP, 3)).astype(np.uint8)
             for s in range(3)]
    probs, hidden = nets.read_features(crops)
    assert hidden.shape == (3, 96) and (hidden >= 0).all()
    assert probs == pytest.approx(nets.read(crops), abs=1e-6)


@pytest.mark.skipif(not (WEIGHTS.exists() and dicenet.FIND_WEIGHTS.exists()), reason="no shipped nets")
def test_things_drawn_into_real_photos_are_not_dice_reported_ok():
    """A coin, ring, screw head, knot, fingertip and card corner drawn into tuning photos (the benchmark's
    way, seeded): without the check some are reported ok as dice; with it none, and the real dice are
    still mostly ok."""
    from rig.bench.distractors import add_distractors
    from rig.bench.pips import colour_folder, data_folder, load_photos
    from rig.vision.anydie import read_pip_dice

    photos = []
    for folder, any_name in ((data_folder(None), False), (colour_folder(None), True)):
        if not folder.is_dir():
            pytest.skip(f"photographs not found at {folder}")
        photos += load_photos(folder, any_name=any_name, tuning_only=True)[:24]
    p = AnyDieParams()
    rng = np.random.default_rng(0)
    false_ok = {True: 0, False: 0}
    real_ok = {True: 0, False: 0}
    for photo in photos:
        frame = cv2.imread(str(photo.path))
        sides = sorted(max(d.box[2], d.box[3]) for d in photo.dice)
        drawn = [box for _, box in add_distractors(frame, [d.box for d in photo.dice], 1.2 * sides[len(sides) // 2], rng)]
        for checked in (True, False):
            for die in read_pip_dice(frame, p if checked else replace(p, check_ok=0.0, face_same=0.0, one_round=0.0,
                                                                     merged_same=0.0)).dice:
                cx, cy = die.box[0] + die.box[2] / 2, die.box[1] + die.box[3] / 2
                on_drawn = any(x <= cx <= x + w and y <= cy <= y + h for x, y, w, h in drawn)
                if die.count.status == "ok":
                    false_ok[checked] += on_drawn
                    real_ok[checked] += not on_drawn
    assert false_ok[False] >= 5 and false_ok[True] == 0
    # last run: 240 of 281 (round 31: 237 of 274; check_ok 0.52 since "No drawn thing called ok at any seed", issue
    # 25: the cost of the drawn things flagged at seeds 0-9; with 0.365 251 of 279, the bar was 0.88). Round 32's
    # agreeing readers (rig.vision.dieagree) free 7 real dice without the check and 3 with it (the second opinion
    # flags the other 4 again), so the share fell 0.865 -> 0.854; the cost on all the tuning photos:
    # rig bench vision --game pips --scales --split tuning (docs/games.md)
    assert real_ok[True] >= 237 and real_ok[True] >= 0.85 * real_ok[False]  # 237: round 31 with the check


def test_a_one_and_a_die_the_second_pass_alone_found_need_a_surer_second_opinion(monkeypatch):
    """A die read as 1 (a knot, a card corner's printed dot) needs ``one_check_ok``; a die only the finder's second
    pass saw (a card corner, on the tuning photos with other seeds) ``alone_check_ok``; another die ``check_ok``."""
    w, mean = np.zeros(96 + 7 + 5), np.zeros(96 + 7 + 5)
    w[103], mean[103] = 1.0, 0.8  # likeness = sigmoid((score - 0.8) / 0.05)
    monkeypatch.setattr(dicenet, "default_check", lambda: DieCheck(w, 0.0, mean, np.full_like(w, 0.05)))
    p = AnyDieParams(check_ok=0.365, one_check_ok=0.42, alone_check_ok=0.6, alone_read_ok=0.97, one_ok=0.78)
    hidden = np.zeros(96, np.float32)
    one = np.array([0.0, 0.99, 0.01, 0.0, 0.0, 0.0, 0.0], np.float32)
    three = np.array(SURE_THREE, np.float32)
    cands = [Candidate(100, 80, 40, 0.781, three, hidden),               # likeness 0.41: ok
             Candidate(200, 80, 40, 0.781, one, hidden),                 # the same as a 1: flagged
             Candidate(300, 80, 40, 0.79, one, hidden),                  # a 1 at 0.45: ok
             Candidate(400, 80, 40, 0.81, three, hidden, alone=True),    # 0.55, second pass alone: flagged
             Candidate(500, 80, 40, 0.83, three, hidden, alone=True)]    # 0.65: ok
    kept = [(c, judge(c, p)) for c in cands]
    assert all(d.count.status == "ok" for _, d in kept)
    assert [d.count.status for d in second_opinion(kept, p)] == ["ok", "uncertain", "ok", "uncertain", "ok"]
    loose = replace(p, one_check_ok=0.0, alone_check_ok=0.0)
    assert all(d.count.status == "ok" for d in second_opinion(kept, loose))


def _drawn_ok(seed: int, want: set[str]) -> dict[bool, int]:
    """``rig bench vision --game pips --distractors --split tuning --distractor-seed SEED`` on the white tuning photos
    (one generator through every photo in turn, as the benchmark draws): the drawn things reported ok on the photos
    in ``want``, with every rule (True) and without ``one_check_ok`` and ``alone_*`` (False)."""
    from rig.bench.distractors import add_distractors
    from rig.bench.pips import data_folder, load_photos
    from rig.vision.anydie import read_pip_dice

    folder = data_folder(None)
    if not folder.is_dir():
        pytest.skip(f"photographs not found at {folder}")
    photos = [ph for ph in load_photos(folder, tuning_only=True) if not ph.held_out]
    p = AnyDieParams()
    # without those rules, and with the thresholds of their round (check_ok 0.365: raised since, issue 25)
    before = replace(p, alone_read_ok=p.read_ok, alone_check_ok=0.365, one_check_ok=0.365, check_ok=0.365,
                     face_same=0.0,  # nor the face's end (round 12)
                     one_round=0.0, merged_same=0.0)  # nor a 1's outline, nor two dice as one (round 13)
    rng = np.random.default_rng(seed)
    false_ok = {True: 0, False: 0}
    for photo in photos:
        frame = cv2.imread(str(photo.path))
        sides = sorted(max(d.box[2], d.box[3]) for d in photo.dice)
        drawn = [box for _, box in add_distractors(frame, [d.box for d in photo.dice], 1.2 * sides[len(sides) // 2], rng)]
        if photo.path.name not in want:
            continue
        for now in (True, False):
            for die in read_pip_dice(frame, p if now else before).dice:
                cx, cy = die.box[0] + die.box[2] / 2, die.box[1] + die.box[3] / 2
                false_ok[now] += die.count.status == "ok" and any(x <= cx <= x + w and y <= cy <= y + h
                                                                  for x, y, w, h in drawn)
    return false_ok


@pytest.mark.skipif(not (WEIGHTS.exists() and dicenet.FIND_WEIGHTS.exists()), reason="no shipped nets")
def test_the_card_corner_and_knot_reported_ok_at_seed_2_are_flagged():
    """Seed 2: a card corner only the finder's second pass saw (dice_34, read 1 at 0.95, check 0.51), and a knot and
    two card corners read as 1 the check rates 0.38-0.41 were reported ok; with ``alone_*`` and ``one_check_ok`` none
    is (the 4 is the shipped finder's own figure: docs/games.md, issue 25)."""
    assert _drawn_ok(2, {"dice_34.jpg", "three_13.jpg", "three_34.jpg", "two_43.jpg"}) == {True: 0, False: 4}


@pytest.mark.skipif(not (WEIGHTS.exists() and dicenet.FIND_WEIGHTS.exists()), reason="no shipped nets")
def test_the_drawn_thing_reported_ok_at_seed_5_without_the_one_and_alone_rules_is_flagged():
    """Seed 5, found by search over the benchmark's seeds 2-8 (docs/games.md, "G's last faults"): a thing drawn into
    five_47 is reported ok without ``one_check_ok`` and ``alone_*`` by the shipped nets and by the twin-trained
    finder G alike; with them it is flagged (the seed-2 case needs the rules with the shipped nets only)."""
    assert _drawn_ok(5, {"five_47.jpg"}) == {True: 0, False: 1}


#: the drawn things the shipped reader reported ok at the benchmark's other seeds (docs/games.md, "No drawn thing
#: called ok at any seed"): (seed, photo set) -> photos. Left: seed 5's card corner in IMG_20191208_111304 (read 2, finder
#: 0.61, second opinion 0.85); the fingertip at seed 8 lies on a die the labels miss
ANY_SEED = {(7, "white"): {"three_37.jpg"},                                  # a screw head on a black plug, read 4
            (4, "colour"): {"IMG_20191209_100506.jpg"},                      # a coin read 1
            (5, "colour"): {"IMG_20191209_095545.jpg",                      # a card corner read 2 ...
                            "IMG_20191209_095613.jpg"},                      # ... and one read 1
            (6, "colour"): {"IMG_20191208_112455.jpg"},                      # a card corner read 2
            (7, "colour"): {"IMG_20191208_112704.jpg"}}                      # a knot read 1


def _drawn_ok_with_the_shipped_rules(seed: int, kind: str, want: set[str], params=None) -> list[str]:
    """``rig bench vision --game pips --distractors --split tuning`` at ``seed`` (one generator through the set's
    tuning photos in turn, as the benchmark draws): the photos in ``want`` with a drawn thing reported ok (read
    with ``params``, the shipped ones by default)."""
    from rig.bench.distractors import add_distractors
    from rig.bench.pips import colour_folder, data_folder, load_photos
    from rig.vision.anydie import read_pip_dice

    folder = data_folder(None) if kind == "white" else colour_folder(None)
    if not folder.is_dir():
        pytest.skip(f"photographs not found at {folder}")
    photos = [ph for ph in load_photos(folder, any_name=kind != "white", tuning_only=True) if not ph.held_out]
    rng = np.random.default_rng(seed)
    named = []
    for photo in photos:
        frame = cv2.imread(str(photo.path))
        sides = sorted(max(d.box[2], d.box[3]) for d in photo.dice) or [max(frame.shape[:2]) / 16]
        drawn = [box for _, box in add_distractors(frame, [d.box for d in photo.dice], 1.2 * sides[len(sides) // 2], rng)]
        if photo.path.name not in want:
            continue
        for die in read_pip_dice(frame, params).dice:
            cx, cy = die.box[0] + die.box[2] / 2, die.box[1] + die.box[3] / 2
            if die.count.status == "ok" and any(x <= cx <= x + w and y <= cy <= y + h for x, y, w, h in drawn):
                named.append(photo.path.name)
    return named


@pytest.mark.skipif(not (WEIGHTS.exists() and dicenet.FIND_WEIGHTS.exists()), reason="no shipped nets")
@pytest.mark.parametrize("seed, kind", sorted(ANY_SEED))
def test_no_drawn_thing_is_reported_ok_at_the_benchmarks_other_seeds(seed, kind):
    """Seeds 4-7 (the benchmark's default seed 0 shows none): a screw head on a cable's black plug read as a 4, a
    coin and a knot read as 1, card corners read as 2 (the printed dot and the corner's) were reported ok."""
    assert _drawn_ok_with_the_shipped_rules(seed, kind, ANY_SEED[seed, kind]) == []
