"""A die whose only flag says its top was read in the frame's overall light is freed when the second look reads that
same face surely and sees a die, whatever it gives for the die lying flat (issue 24, round 25:
dice_second_look.face_confirmed)."""

from __future__ import annotations

import numpy as np

from rig.vision import dice, dice_second_look
from rig.vision.dice_flag import Flag

from .dice_twin import frame_and_profile, faces_near

OVERALL = "die top read in the frame's overall light"
#: twin 10502 (seen) turn 2, same light: six flat dice read right; a pink die at (351, 407) whose place's light reads
#: its top unclear, read pink in the frame's overall light and flagged for it; the net reads it pink (1.00) but gives
#: it only 0.20 for lying flat: before round 25 the turn stayed flagged for that alone
CASE = ("t10502-turn2.jpg", "t10502-r25")
TRUTH = ["blank", "blue+yellow", "pink", "pink", "pink", "pink"]


def _read():
    frame, profile = frame_and_profile(*CASE)
    return dice.read_dice(frame, profile, thrown=6)


def test_the_die_read_in_the_overall_light_whose_face_the_net_reads_is_freed():
    reading = _read()
    assert reading.status == "ok" and not reading.reasons
    assert sorted(d.face for d in reading.dice) == TRUTH
    assert faces_near(reading, 351, 407, 10) == ["pink"]


def test_without_the_face_read_again_it_stays_flagged(monkeypatch):
    monkeypatch.setattr(dice_second_look, "face_confirmed", lambda p, face: False)  # as before round 25
    reading = _read()
    assert reading.status == "uncertain" and [str(r) for r in reading.reasons] == [f"{OVERALL} at (351, 407)"]
    assert sorted(d.face for d in reading.dice) == TRUTH


def _probs(flat: float, none: float, face: str, sure: float) -> np.ndarray:
    states = [flat, 1.0 - flat - none, none]
    faces = [(1.0 - sure) / (len(dice_second_look.FACES) - 1)] * len(dice_second_look.FACES)
    faces[dice_second_look.FACES.index(face)] = sure
    return np.array(states + faces)


def test_the_face_must_be_the_readers_read_surely_on_a_die():
    assert dice_second_look.face_confirmed(_probs(0.2, 0.1, "pink", 0.99), "pink")
    assert not dice_second_look.face_confirmed(_probs(0.2, 0.1, "pink", 0.99), "blue")  # another face
    assert not dice_second_look.face_confirmed(_probs(0.2, 0.1, "pink", 0.8), "pink")  # not sure
    assert not dice_second_look.face_confirmed(_probs(0.2, 0.6, "pink", 0.99), "pink")  # no die, the net says


def test_only_a_die_whose_every_own_flag_is_the_overall_light_s():
    reasons = [Flag(OVERALL, 100, 100), Flag("cocked die", 100, 100), Flag(OVERALL, 300, 300)]
    assert not dice_second_look._named_only(reasons, [0, 1], OVERALL)  # a cocked test's flag beside it: the net's lie
    assert dice_second_look._named_only(reasons, [2], OVERALL)
    assert not dice_second_look._named_only(reasons, [], OVERALL)


def _verdicts_round25(probs, faces, flat_sure, face_sure, other_sure):
    """``verdicts`` before round 26 (its face test written out)."""
    out = []
    for p, face in zip(probs, faces):
        state, fp = p[:3], p[3:]
        best = int(np.argmax(fp))
        if dice_second_look.FACES[best] != face and fp[best] >= other_sure and state[2] < 0.5:
            out.append("other")
        elif dice_second_look.FACES[best] == face and fp[best] >= face_sure and state[0] >= flat_sure:
            out.append("flat")
        else:
            out.append("keep")
    return out


def _face_confirmed_round25(p, face, none_below):
    fp = p[3:]
    best = int(np.argmax(fp))
    return dice_second_look.FACES[best] == face and fp[best] >= dice_second_look.FACE_SURE and p[2] < none_below


def test_verdicts_and_face_confirmed_share_one_face_test_as_before():
    """Round 26: both ask ``_sure_face``; on seeded rows (some sure, some not) they say what their round-25 forms said."""
    rng = np.random.default_rng(26)
    faces = dice_second_look.FACES
    flat = rng.uniform(0, 1, 400)
    rows = [_probs(f, rng.uniform(0, 1 - f), faces[rng.integers(len(faces))], rng.choice([0.5, 0.85, 0.9, 0.95, 0.99]))
            for f in flat]
    read = [faces[rng.integers(len(faces))] if k % 3 else None for k in range(400)]  # a third the net's own face
    read = [r or faces[int(np.argmax(p[3:]))] for r, p in zip(read, rows)]
    for sure in ((0.8, 0.9, 0.98), (0.5, 0.85, 0.95)):
        assert dice_second_look.verdicts(np.array(rows), read, *sure) == _verdicts_round25(rows, read, *sure)
    for p, face in zip(rows, read):
        for none_below in (0.5, 0.3, np.inf):
            assert dice_second_look.face_confirmed(p, face, none_below) == _face_confirmed_round25(p, face, none_below)
