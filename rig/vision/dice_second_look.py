"""A learned second look at the dice the reader flags (issue 24, round 11).

The hand-made cocked tests (:mod:`rig.vision.dice_cocked`) cannot part a flat die in a wall's shade or a
neighbour's shadow from a die leaning on a wall or another die; on the twin a flat die is called "cocked" on
about a tenth of all turns. A small convolutional net (``calibration/second_look.onnx``, trained by
``scripts/train_second_look.py`` on the twin's dice with their truth, run by ``cv2.dnn``) looks at each flagged
die again: its crop of the corrected working frame (the reader's own view, 2.5 die sides wide, turned so that the
frame's optical centre lies to its left: perspective shows a flat die's walls on that side) and its distance from
the optical centre. It says whether the die lies flat, is cocked or is no die, and which face it shows.

It may only **take a die's own flags off** (:data:`FREEABLE`), and only when it reads the reader's face and is
sure the die lies flat, and the die's top is square and whole as the reader measured it (:func:`square`, round 12:
the net, fitted on the twin where a top not square is a flat die in shade, read the 2D tables' drawn leaning dice,
their tops foreshortened, as flat); it never frees a reason that is not a die's (the light changed, dice short,
something in view) and never changes a face. When it surely reads another face it adds a flag. The shipped net is
round 11's net d (docs/vision.md, rounds 11 and 12).
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import cv2
import numpy as np

from rig.vision.dice_flag import Flag
from rig.vision.profile import COLOURS
from rig.vision.dice_shade_cut import cut_by_shade
from rig.vision.dice_shaded_square import body_a_top, joined_body

#: the crop: SIZE x SIZE px covering CONTEXT die sides around the die's centre
SIZE = 48
CONTEXT = 2.5
#: the net's outputs: states, then faces
STATES = ("flat", "cocked", "none")
FACES = ("blank", "blue", "pink", "yellow", "pink+blue", "yellow+pink", "blue+yellow")
WEIGHTS = Path(__file__).resolve().parents[2] / "calibration" / "second_look.onnx"


def crop(small: np.ndarray, x: float, y: float, side: float, radial: tuple[float, float]) -> np.ndarray:
    """The net's input for a die at working-scale centre (x, y): ``SIZE x SIZE x 4`` float32 — B, G, R scaled to
    -0.5..0.5, turned so the direction away from the optical centre points right, and a plane of the die's
    distance from the optical centre (``radial``: its offset in frame widths)."""
    rx, ry = radial
    r = math.hypot(rx, ry)
    c, s = (rx / r, ry / r) if r > 1e-6 else (1.0, 0.0)
    k = SIZE / (CONTEXT * side)
    # out = k * R(-theta) (p - centre) + SIZE/2: the outward direction maps to +x
    m = np.float32([[k * c, k * s, 0.0], [-k * s, k * c, 0.0]])
    m[:, 2] = np.float32([SIZE / 2 - 0.5, SIZE / 2 - 0.5]) - m[:, :2] @ np.float32([x, y])
    bgr = cv2.warpAffine(small, m, (SIZE, SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    out = np.empty((SIZE, SIZE, 4), np.float32)
    out[..., :3] = bgr.astype(np.float32) / 255.0 - 0.5
    out[..., 3] = 2.0 * r
    return out


#: a die's own flags the second look may take off (the reason's text up to " at (x, y)" / " on die at (x, y)")
FREEABLE = ("cocked die", "die partly hidden or on edge", "die top read in the frame's overall light",
            "frog of unusual size (glare?)", "unclear", "unknown colour or glare", "lamp's reflection on die top",
            "die top in shade read brightened", "die under the floor's glare reads unclear without it",
            "die in a glare spot", "die top much like the floor (glare?)", "not one frog (scattered colour)",
            "pink read through glare")
#: freed only when the net gives the die lying flat at least FLAT_SURE and the reader's face at least FACE_SURE;
#: a flag is added when it gives another face at least OTHER_SURE (chosen on twin tables it was not fitted on)
FLAT_SURE = 0.8
FACE_SURE = 0.9
OTHER_SURE = 0.98
#: an unclear colour whose share of the top lies more than LEANS_PRESENT of the way from ``colour_absent`` to
#: ``colour_present`` is likelier a frog than not: a die flagged "unclear" for it is not freed (:func:`_leans_present`)
LEANS_PRESENT = 0.5
UNCLEAR_KIND = "unclear"
#: a blank die flagged both of these is never freed (:func:`_blank_in_glare`)
GLARE_SPOT, UNKNOWN_KIND = "die in a glare spot", "unknown colour or glare"
#: a reading is freed whole only when no other die of it looks this likely not flat to the net (a leaning die the
#: hand-made tests missed, flagged only by chance for another die's reason, would pass otherwise: 8805 turn 3)
COCKED_GUARD = 0.4
#: a die is freed only when its top is square and whole: its aspect (short / long side, what perspective shows of
#: the walls added back) at least SQUARE and its area at least WHOLE tops (round 12: a net fitted on the twin's
#: dice read the 2D tables' drawn leaning dice, their tops foreshortened to 0.55-0.87, as flat; chosen on twin
#: 8700-8911 and 2D 72000-72011: at 0.85 eight drawn leaning dice passed, the twin's figures the same at 0.9)
SQUARE = 0.9
WHOLE = 0.7
#: a die whose only own flag is the plain "cocked die" (the top's aspect test's, the flank test's) that the net reads
#: flat (FLAT_SURE, its face at FACE_SURE) is freed though its top is not square when the top reads at least
#: OVER_WHOLE tops: a flat die's top with a lit strip of floor joined to it, not a top a lean foreshortens. The size
#: alone does not part them (a leaning die's top and side read as one run to 1.8 tops); with the net's verdict it did
#: (round 27, on round 26's probe of the seen twin 10000-10911 and propped 5000-5111): the truly cocked dice the net
#: passes had tops of at most 0.87 tops, the flat ones up to 1.71; truly cocked tops of 1.0 or more got at most 0.60.
#: Other kinds keep the square rule: a truly cocked die flagged only "unclear pink" read 1.29 tops and the net passed
#: it (twin 10309 turn 3 at lamp x1.2)
OVER_WHOLE = 1.0
#: a die whose only own flag is the plain "cocked die", its top passing the top's aspect test (``cocked_aspect`` or
#: more: the flank test flagged it) but short of SQUARE, is freed when the net reads it flat at FLANK_FLAT_SURE or
#: more (its face at FACE_SURE) and its top is whole (round 35: on the twin's fit sets 11600-11811 the truly cocked
#: dice the flank test flags get at most 0.87 for lying flat, flat dice with tops of 0.84-0.9 up to 0.98); its top at
#: FLANK_TOP or more: the 2D tables' drawn leaning dice, their tops foreshortened, pass the net below it (with the
#: aspect test's bound alone 2D 58000 lost 3 cocked turn-lights of 438 and the virtual bench 8 of 324, at 0.875 the
#: virtual bench 5; at 0.89 both the same as without the rule)
FLANK_FLAT_SURE = 0.9
FLANK_TOP = 0.89
COCKED_KIND = "cocked die"
#: the guard on the other dice when every die freed was freed on its own top's size (OVER_WHOLE): that die's evidence
#: is its own, so a neighbour keeps the reading flagged only when the net is WHOLE_GUARD sure it does not lie flat
#: (round 27: on the seen twin sets 10000-11011 the guard kept five such readings, every die flat, its die at
#: 0.41-0.89; round 26: the one truly cocked turn the guard keeps, 10510 turn 3, at 0.88 and 0.92). A die freed as
#: a top cut short by shade (``dice_shade_cut``) is judged so too (round 28: twin 10002's flat dice under the far
#: wall, kept by a flat neighbour at 0.41-0.54)
WHOLE_GUARD = 0.8
#: the guard when every die freed is a square, whole top only the flank test called cocked (:func:`flank_only`) or
#: one freed on its own top's evidence: a neighbour keeps the reading flagged only when the net is FLANK_GUARD sure it
#: does not lie flat (round 36: see docs/vision.md)
FLANK_GUARD = 0.8
#: ... and only when the net is FLANK_GUARD_SURE sure that die lies flat (round 36: a die leaning on a wall, twin 10001
#: turn 19 at lamp x0.8, got 0.904; the speed corpus's virtual-dim-1, leaning 28.5 degrees, 0.83-0.85)
FLANK_GUARD_SURE = 0.95
#: a die the reader calls partly hidden (its top under ``die_area_min`` tops) is whole after all when its lit top
#: joined to its own shade (:func:`rig.vision.dice_cocked._joined`: the body in shade of its hue touching it) is a
#: square (short / long side at least SQUARE, what perspective shows of the walls added back) of JOINED_WHOLE tops or
#: more, filling at least JOINED_FILL of its least rectangle: a flat die whose body lies in a wall's shade, its frog
#: lit (round 19: twin 10205 turn 0, a pink die under the far wall, its top 0.36 tops lit, 1.34 with its shade; a die
#: cut by a wall or another die shows no more of itself in shade)
JOINED_WHOLE = 0.9
JOINED_FILL = 0.8
HIDDEN_KIND = "die partly hidden or on edge"
#: a die whose only own flag says its top was read in the frame's overall light (its place's light misread it,
#: ``rig.vision.dice_overall``) is freed when the net reads that same face surely (FACE_SURE) and sees a die (its
#: "no die" under NONE_BELOW), its top square and whole, whatever the net gives it for lying flat: the flag asks about
#: the face, not the die's lie (a leaning die is flagged by the cocked tests, and the guard on the other dice stands).
#: Round 25: on the twin's thrown sets the net kept 27 such turn-lights flagged, every die right, giving these flat
#: dice 0.12-0.79 for lying flat (10502 turn 2, 10804 turn 1)
OVERALL_KIND = "die top read in the frame's overall light"
NONE_BELOW = 0.5
#: a one-colour die on a top read short whose frog is no bigger than a combo's half (``dice_combo.half_on_short_top``):
#: the top's missing part may hold the other half. The flag stays unless the net reads the reader's face (FACE_SURE)
#: and gives the combos that hold its colour less than HALF_COMBO_DOUBT together; it is the net's own question, never
#: freed as a die's flag. Round 29: twin 10103 turn 16, a blue+yellow die read yellow, the net 1.0 for blue+yellow;
#: 10903 turn 15, a yellow+pink die read yellow, its pink half in a wall's shade, the net 0.93 yellow, 0.072
#: yellow+pink; 2D 44006's right pink dice cut short, 0.95-0.97 pink, 0.003 for the combos (the rest blank)
HALF_KIND = "frog maybe a combo's half on a top read short"
HALF_COMBO_DOUBT = 0.02


def freeable(kind: str) -> bool:
    """Whether a reason's kind (its text without the place) is one :data:`FREEABLE` names (a colour before it,
    ``pink frog of unusual size (glare?)``, or after it, ``unclear pink``, left out)."""
    return any(kind == e or kind.endswith(" " + e) or kind.startswith(e + " ") for e in FREEABLE)


def named(reasons, dice, side: float, every: bool = False) -> tuple[list[list[int]], bool]:
    """For each die (``(x, y)`` in frame px) the reasons that are its own freeable flags (indices into
    ``reasons``; ``every``: any reason at its place), and whether any reason is not such a flag (then the reading stays flagged whatever the net
    says). A reason names a die when its place lies within half a die side (``side``, frame px) of the die. The
    reader's reasons carry their kind and place (:class:`~rig.vision.dice_flag.Flag`); plain text (a logged
    reading's) is read by :meth:`~rig.vision.dice_flag.Flag.parse`."""
    own: list[list[int]] = [[] for _ in dice]
    rest = False
    for j, text in enumerate(reasons):
        flag = Flag.parse(text)  # the reader's flags carry their kind and place; a logged reason's are read from it
        if flag is None or not (every or freeable(flag.kind)):
            rest = True
            continue
        x, y = flag.at
        near = [((x - dx) ** 2 + (y - dy) ** 2, i) for i, (dx, dy) in enumerate(dice)]
        d2, i = min(near) if near else (np.inf, -1)
        if d2 > (0.5 * side) ** 2:
            rest = True
            continue
        own[i].append(j)
    return own, rest


def verdicts(probs: np.ndarray, faces, flat_sure: float = FLAT_SURE, face_sure: float = FACE_SURE,
             other_sure: float = OTHER_SURE) -> list[str]:
    """Per looked-at die (``probs``: rows of state then face probabilities, ``faces``: the reader's faces):
    ``"flat"`` (free its flags), ``"other"`` (the net surely reads another face: flag it) or ``"keep"``."""
    out = []
    for p, face in zip(probs, faces):
        state, fp = p[: len(STATES)], p[len(STATES):]
        best = int(np.argmax(fp))
        if FACES[best] != face and fp[best] >= other_sure and state[2] < 0.5:
            out.append("other")
        elif _sure_face(p, face, face_sure) and state[0] >= flat_sure:
            out.append("flat")
        else:
            out.append("keep")
    return out


def square(aspect: float, area: float) -> bool:
    """Whether a die's top is square and whole enough to be freed (:data:`SQUARE`, :data:`WHOLE`)."""
    return aspect >= SQUARE and area >= WHOLE


def whole_in_shade(d, work, dice) -> bool:
    """Whether die ``d`` (of the reading's ``dice``), its top read too small to be whole, is a whole square top once
    its own shade is joined to it (:data:`JOINED_WHOLE`, :data:`JOINED_FILL`, :data:`SQUARE`)."""
    body = joined_body(d, work, dice)
    if body is None:
        return False
    aspect, area, w, h = body
    return (aspect >= SQUARE and area >= JOINED_WHOLE * work.top_area
            and float(area) / ((w + 1.0) * (h + 1.0)) >= JOINED_FILL)


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


_NET: list = []
#: False: the reader as it was before the second look (scripts/frog_crops.py reads the flags it looks at)
ENABLED = True


def net() -> cv2.dnn.Net | None:
    """The shipped net, loaded once (``None`` without its file: the reader reads as it did before round 11)."""
    if not _NET:
        classic = {"engine": cv2.dnn.ENGINE_CLASSIC} if hasattr(cv2.dnn, "ENGINE_CLASSIC") else {}  # OpenCV 4's
        n = cv2.dnn.readNetFromONNX(str(WEIGHTS), **classic) if WEIGHTS.exists() else None
        if n is not None:
            n.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        _NET.append(n)
    return _NET[0]


def look(inputs: np.ndarray, measures: np.ndarray | None = None, model=None) -> np.ndarray:
    """The net's probabilities (N x (states + faces)) for crops ``inputs`` (N x SIZE x SIZE x 4) and, for a net
    that takes them (round 12's net h, not shipped: ``scripts/train_second_look.py``), the dice's hand-made
    ``measures`` (N x len(``dice_cocked.MEASURES``))."""
    model = model if model is not None else net()
    model.setInput(np.ascontiguousarray(inputs.transpose(0, 3, 1, 2), np.float32), "crop")
    if measures is not None:
        model.setInput(np.ascontiguousarray(measures, np.float32), "measures")
    z = model.forward().reshape(len(inputs), -1)
    return np.concatenate([_softmax(z[:, : len(STATES)]), _softmax(z[:, len(STATES):])], axis=1)


def _named_hidden(reasons, mine) -> bool:
    """Whether a die's own flags (``mine``: indices into ``reasons``) name it partly hidden (:data:`HIDDEN_KIND`):
    only then is its top measured joined to its shade (:func:`whole_in_shade`)."""
    return any(str(reasons[j]).startswith(HIDDEN_KIND) for j in mine)


def _blank_in_glare(reasons, mine, face: str) -> bool:
    """Whether a die read blank lies in calibration's glare spot with colours on its top the reader cannot name: a frog
    the glare washed out may lie under it, and the net, shown the same washed-out top, reads blank too (the virtual
    table's glare, frames 114 and 185 of ``rig bench vision``: a pink die read blank, freed, status ok; round 31)."""
    kinds = [str(reasons[j]) for j in mine]
    return face == "blank" and any(k.startswith(GLARE_SPOT) for k in kinds) and any(
        k.startswith(UNKNOWN_KIND) for k in kinds)


def _leans_present(reasons, mine, shares: tuple, t) -> bool:
    """Whether a die's "unclear" flag names a colour whose share of its top (``shares``: blue, pink, yellow) leans to
    present (:data:`LEANS_PRESENT`): the net, reading the top without it, is not taken. Round 34's fresh twin 11802
    turn 0: a blue+yellow die by the wall, its blue half in the wall's shade at 0.097 (present from 0.109), read
    yellow, the net sure of yellow; freed, status ok, in silence. On the seen twin sets the net freed two such flags,
    both right (0.72, 0.75 of the way), and a calibration frame's at 0.44."""
    span = max(t.colour_present - t.colour_absent, 1e-6)
    for j in mine:
        flag = Flag.parse(reasons[j])
        kind = "" if flag is None else flag.kind
        if kind.startswith(UNCLEAR_KIND + " "):
            for colour in kind[len(UNCLEAR_KIND) + 1 :].split("/"):
                if colour in COLOURS and (shares[COLOURS.index(colour)] - t.colour_absent) / span > LEANS_PRESENT:
                    return True
    return False


def _named_only(reasons, mine, kind: str) -> bool:
    """Whether every one of a die's own flags (``mine``: indices into ``reasons``) is of ``kind``."""
    return bool(mine) and all(str(reasons[j]).startswith(kind) for j in mine)


def _only_plain_cocked(reasons, mine) -> bool:
    """Whether a die's own flags (``mine``: indices into ``reasons``) are all the plain :data:`COCKED_KIND` (not the
    wall- or lamp-side kinds that carry their test in brackets)."""
    kinds = [Flag.parse(str(reasons[j])) for j in mine]
    return bool(kinds) and all(k is not None and k.kind == COCKED_KIND for k in kinds)


def over_whole(reasons, mine, area: float) -> bool:
    """Whether a die the net reads flat, flagged only as the plain "cocked die" (``mine``: its flags' indices into
    ``reasons``), is freed though its top is not square: its top reads at least :data:`OVER_WHOLE` tops (``area``).
    Asked only of dice the net reads flat (:func:`verdicts`)."""
    return area >= OVER_WHOLE and _only_plain_cocked(reasons, mine)


def flank_square(reasons, mine, top: float, area: float, p: np.ndarray, bound: float) -> bool:
    """Whether a die the net reads flat, flagged only as the plain "cocked die" (``mine``: its flags' indices into
    ``reasons``) with its top (``top``: aspect, perspective added back) at the top's aspect test's ``bound`` or more, so
    by the flank test, and at :data:`FLANK_TOP` or more, counts as square: the net sure it lies flat (:data:`FLANK_FLAT_SURE`, ``p`` its row) and the top
    whole (:data:`WHOLE`). Asked only of dice the net reads flat (:func:`verdicts`)."""
    return top >= max(bound, FLANK_TOP) and area >= WHOLE and p[0] >= FLANK_FLAT_SURE and _only_plain_cocked(reasons, mine)


def guard_bound(freed, whole, flanked=frozenset()) -> float:
    """How sure the net must be that another die of the reading does not lie flat to keep it flagged once every die
    of ``freed`` is freed: :data:`WHOLE_GUARD` when each was freed on its own top's evidence (``whole``: its size, see
    :func:`over_whole`, or its cut by shade), :data:`FLANK_GUARD` when each was that or a square top only the flank
    test called cocked (``flanked``, :func:`flank_only`), else :data:`COCKED_GUARD`."""
    if freed and all(i in whole for i in freed):
        return WHOLE_GUARD
    return FLANK_GUARD if freed and all(i in whole or i in flanked for i in freed) else COCKED_GUARD


def flank_only(reasons, mine, top: float, area: float, p: np.ndarray, bound: float) -> bool:
    """Whether a die the net reads flat was flagged only as the plain "cocked die" (``mine``: its flags' indices into
    ``reasons``) by the flank test, its top square and whole (``top``: aspect, perspective added back, at the top's
    aspect test's ``bound`` and :data:`SQUARE` or more; ``area`` at least :data:`WHOLE`), the net
    :data:`FLANK_GUARD_SURE` sure it lies flat (``p`` its row): the guard on the other dice asks them at
    :data:`FLANK_GUARD`."""
    return top >= bound and square(top, area) and p[0] >= FLANK_GUARD_SURE and _only_plain_cocked(reasons, mine)


def _sure_face(p: np.ndarray, face: str, face_sure: float = FACE_SURE) -> bool:
    """Whether the net's likeliest face (``p``: a row of state then face probabilities) is ``face``, at ``face_sure``
    or more: the face half of :func:`verdicts`' "flat" and of :func:`face_confirmed`."""
    fp = p[len(STATES) :]
    best = int(np.argmax(fp))
    return FACES[best] == face and fp[best] >= face_sure


def face_confirmed(p: np.ndarray, face: str, none_below: float = NONE_BELOW) -> bool:
    """Whether the net (``p``: a row of state then face probabilities) surely reads ``face`` (:data:`FACE_SURE`) and
    sees a die there (its "no die" under ``none_below``)."""
    return _sure_face(p, face) and p[STATES.index("none")] < none_below


def _die_crop(work, d) -> np.ndarray:
    """The net's input for die ``d`` (frame px): its crop of the working picture, turned by its radial direction."""
    from rig.vision.dice_cocked import _radial

    f = work.factor
    return crop(work.small, (d.x + 0.5) / f - 0.5, (d.y + 0.5) / f - 0.5, work.side, _radial(d, work))


class _Looks:
    """The net's probabilities for the dice of one reading, each die looked at once: the dice not yet looked at are
    cropped and run in one batch (a row comes out the same in any batch: ``tests/vision/test_second_look_batch.py``)."""

    def __init__(self, work, dice: list, model):
        self.work, self.dice, self.model = work, dice, model
        self.rows: dict[int, np.ndarray] = {}

    def of(self, which: list[int]) -> np.ndarray:
        """The rows (state then face probabilities) of dice ``which`` (indices into the reading's dice), in order."""
        new = [i for i in dict.fromkeys(which) if i not in self.rows]
        if new:
            probs = look(np.stack([_die_crop(self.work, self.dice[i]) for i in new]), None, self.model)
            self.rows.update(zip(new, probs))
        return np.stack([self.rows[i] for i in which])


def _judge_halves(dice: list, reasons: list[str], looks: _Looks) -> list[str]:
    """``reasons`` without the :data:`HALF_KIND` flags of dice whose one colour the net surely reads as no combo's half
    (:data:`FACE_SURE`, :data:`HALF_COMBO_DOUBT`)."""
    halves = [(j, Flag.parse(str(r))) for j, r in enumerate(reasons) if HALF_KIND in str(r)]
    if not halves:
        return reasons
    near = [min(range(len(dice)), key=lambda i: (dice[i].x - flag.at[0]) ** 2 + (dice[i].y - flag.at[1]) ** 2)
            for _, flag in halves]
    drop = set()
    for (j, _), i, p in zip(halves, near, looks.of(near)):
        d = dice[i]
        combos = sum(p[len(STATES) + k] for k, face in enumerate(FACES) if d.face in face.split("+") and d.face != face)
        if _sure_face(p, d.face) and combos < HALF_COMBO_DOUBT:
            drop.add(j)
    return [r for j, r in enumerate(reasons) if j not in drop]


def _shaded_squares(work, dice: list, reasons, own, looked: dict) -> set[int]:
    """The dice (indices) the top's aspect test alone called cocked whose top shade cut short
    (:func:`rig.vision.dice_shaded_square.body_a_top`), the net reading the reader's face surely: freed on their own
    body's evidence, as a top cut by shade is. ``looked``: per die looked at, its verdict so far, the net's row and its
    aspect with what perspective shows of the walls added back."""
    bound = work.profile.thresholds.cocked_aspect
    return {
        i
        for i, (v, p, top) in looked.items()
        if v == "keep" and top < bound and _only_plain_cocked(reasons, own[i]) and _sure_face(p, dice[i].face)
        and body_a_top(dice[i], work, dice)
    }


def second_look(work, dice: list, reasons: list[str], excused=frozenset()) -> tuple[list, list[str]]:
    """The reading's dice and reasons after the second look (see the module's text): only when every reason is a
    die's own freeable flag; the dice it frees lose them (and their ``cocked``), the others keep them. ``excused``:
    the dice (indices) the guard on the other dice does not ask, nothing within reach to lean on
    (:func:`rig.vision.dice_unsupported.unsupported`)."""
    model = net() if ENABLED else None
    if not reasons or model is None or work.profile is None:
        return dice, reasons
    from rig.vision.dice_cocked import _radial

    f = work.factor
    looks = _Looks(work, dice, model)
    reasons = _judge_halves(dice, reasons, looks)
    if not reasons:
        return dice, reasons
    own, rest = named(reasons, [(d.x, d.y) for d in dice], work.side * f)
    if rest:
        return dice, reasons
    idx = [i for i, js in enumerate(own) if js]
    probs = looks.of(idx)
    said = verdicts(probs, [dice[i].face for i in idx])
    lean = work.profile.walls[3]  # what perspective takes off a flat die's aspect per frame width out
    said = [  # a flag on the face alone, the face read again (OVERALL_KIND)
        "flat" if v == "keep" and _named_only(reasons, own[i], OVERALL_KIND) and face_confirmed(p, dice[i].face) else v
        for i, v, p in zip(idx, said, probs)
    ]
    tops = {i: dice[i].aspect + lean * math.hypot(*_radial(dice[i], work)) for i in idx}
    whole = {  # freed on the top's own size (OVER_WHOLE), not on a square top
        i
        for i, v in zip(idx, said)
        if v == "flat" and not square(tops[i], dice[i].area) and over_whole(reasons, own[i], dice[i].area)
    }
    t = work.profile.thresholds
    bound = t.cocked_aspect
    said = [
        v
        if v != "flat"
        or square(tops[i], dice[i].area)
        or i in whole
        or flank_square(reasons, own[i], tops[i], dice[i].area, p, bound)
        or (_named_hidden(reasons, own[i]) and whole_in_shade(dice[i], work, dice))
        else "keep"
        for i, v, p in zip(idx, said, probs)
    ]
    # a top cut short along a whole side by shade, its face read again (rig.vision.dice_shade_cut); the net's "no die"
    # is not asked: it gives these dice, most of their body in shade, 0.39-0.63 (twin 10210 turn 2, 10506 turn 0)
    cut = {  # freed on its own top's evidence as well: the guard judges it as it judges a top freed on its size
        i
        for i, v, p in zip(idx, said, probs)
        if v == "keep" and _named_only(reasons, own[i], HIDDEN_KIND)
        and face_confirmed(p, dice[i].face, none_below=np.inf) and cut_by_shade(dice[i], work)
    }
    said = ["flat" if i in cut else v for i, v in zip(idx, said)]
    shaded = _shaded_squares(work, dice, reasons, own, {i: (v, p, tops[i]) for i, v, p in zip(idx, said, probs)})
    said = ["flat" if i in shaded else v for i, v in zip(idx, said)]
    said = ["keep" if v == "flat" and _blank_in_glare(reasons, own[i], dice[i].face) else v for i, v in zip(idx, said)]
    said = ["keep" if v == "flat" and _leans_present(reasons, own[i], dice[i].shares, t) else v for i, v in zip(idx, said)]
    flanked = {
        i for i, v, p in zip(idx, said, probs) if v == "flat" and flank_only(reasons, own[i], tops[i], dice[i].area, p, bound)
    }
    drop, dice = set(), list(dice)
    added = []
    for i, v in zip(idx, said):
        if v == "flat":
            drop.update(own[i])
        elif v == "other":
            added.append(Flag("second look reads another face", dice[i].x, dice[i].y))
    kept = [r for j, r in enumerate(reasons) if j not in drop] + added
    if kept:
        return dice, reasons + added  # still flagged: the reader's reasons stand as they were
    rest = [i for i in range(len(dice)) if not own[i] and i not in excused]
    if rest:
        others = looks.of(rest)
        if 1.0 - others[:, 0].min() >= guard_bound(idx, whole | cut | shaded, flanked):
            return dice, reasons
    return [dataclasses.replace(d, cocked=False) if d.cocked else d for d in dice], []


def every_die_flat(work, dice: list, excused=frozenset()) -> bool:
    """Whether the net sees every one of ``dice`` lying flat (not flat under :data:`COCKED_GUARD`), as it asks of a
    reading it frees whole; False without the net. Used where a flag the second look does not judge is taken off
    (:func:`rig.vision.dice_piece_unchanged.the_box_itself`): twin 11502 turn 3 (lamp x1.2), 11201 turn 19, 11211 turn
    11 (700 K warmer): a die leaning on a wall that nothing flags at its place in that light, the turn flagged only by a
    piece of the empty box 4-7 sides away. ``excused``: dice (indices) not asked, as :func:`second_look`'s."""
    model = net() if ENABLED else None
    if model is None or work.profile is None or not dice:
        return False
    asked = [i for i in range(len(dice)) if i not in excused]
    if not asked:
        return True
    rows = _Looks(work, dice, model).of(asked)
    return 1.0 - float(rows[:, 0].min()) < COCKED_GUARD
