"""What a refused read-back of a ritual frame tells the player to change.

Calibration reads each ritual frame back with the profile it fitted; two dice or more read wrong refuse the
table. When every die read wrong lies in the lamp's reflection — a veil on its own top, or the floor's glare
under it reading another face without it taken off (twin table 8211, seen: a 3800 K lamp mirrored on a blue
die's top and on the glossy disc of the print under another; read back "blue+yellow" and "blank") — the
refusal names the dice and says to move or diffuse the lamp; otherwise it says what it said before.

A ritual die the read-back does not find where the empty box itself shows the dice's colour (the profile's
``spots``: a violet stripe of the print) is the reader's known limit, not a profile that reads wrong: the reader
takes no die from a blob lying mostly on such a spot (:func:`rig.vision.dice_missed.print_spot`), and a game, which
knows how many dice were thrown, asks about the die it misses there. Card table 3509 (round 16's fresh set, seen
since): a blank die lying across a violet stripe of the printed floor was not read back, the table refused "the
samples are not usable"; every other die of every frame read right. Such a die (:func:`lost_on_spots`) is taken
with a warning when the frame read with the count of dice thrown is not ``ok`` or finds it.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from rig.i18n import said
from rig.vision.errors import CalibrationError
from rig.vision.dice import read_dice
from rig.vision.dice_flag import Flag
from rig.vision.dice_frames import prepare
from rig.vision.light import SHADE_COLS, SHADE_ROWS, spots_at
from rig.vision.pixel_classes import IS_TOP

#: reasons that put a die in the lamp's reflection (on its top, or on the floor under it)
_GLARE = ("lamp's reflection on die top", "die under the floor's glare", "die in a glare spot", "(glare?)")
UNUSABLE = said("the samples are not usable (check the light, the faces, that no die touches another)")


def readback_advice(face: str, reading, ritual: tuple = (), frame: np.ndarray | None = None) -> str:
    """The refusal's advice for ``reading``, the read-back of the ``face`` ritual frame (``ritual``: the places,
    frame px, of the dice the finder found in it, and their side, when it found them all; ``frame``: the frame, to
    see whether the dice read wrong lie in the lamp's sheen, :func:`in_sheen`)."""
    none = phantoms(face, reading, ritual)
    if none:
        where = ", ".join(none)
        return said(f"the reader takes the box at {where} for a die, where none lies (a part of its bottom or rim in "
                    "the dice's colours, or in the lamp's light); cover that part with something plain or light it less")
    places = in_reflection(face, reading, ritual) or in_sheen(face, reading, frame)
    if not places:
        return UNUSABLE
    where = ", ".join(places)
    if len(places) == 1:
        return said(f"the lamp's reflection lies on the die at {where} (on the top or the floor under it); move the lamp "
                    "farther to the side or diffuse it, or move that die")
    return said(f"the lamp's reflection lies on the dice at {where} (on the top or the floor under it); move the lamp "
                "farther to the side or diffuse it, or move those dice")


def phantoms(face: str, reading, ritual: tuple = ()) -> list[str]:
    """The places of the dice ``reading`` reads wrong where none of the dice found in the ritual frame lies
    (``ritual``: their places and side, or empty: none known): the box itself read as a die (twin 9703, seen: the
    corner of the box's bright rim, its lilac speckle read as a die top, named as a die in the lamp's reflection)."""
    if not ritual:
        return []
    dice, side = ritual
    return [f"({d.x:.0f}, {d.y:.0f})" for d in reading.dice if d.face != face
            and not any(abs(x - d.x) <= 0.6 * side and abs(y - d.y) <= 0.6 * side for x, y in dice)]


def in_reflection(face: str, reading, ritual: tuple = ()) -> list[str]:
    """The places of the dice ``reading`` (the read-back of the ``face`` ritual frame) reads wrong when every one
    of them lies in the lamp's reflection (and, ``ritual`` given, where a die of the ritual frame lies), else none."""
    if phantoms(face, reading, ritual):
        return []
    wrong = [d for d in reading.dice if d.face != face]
    glare = set()
    for reason in reading.reasons:
        flag = Flag.parse(reason)
        if flag is not None and any(g in flag.kind for g in _GLARE):
            glare.add(flag.at)
    places = []
    for d in wrong:
        near = [p for p in glare if abs(p[0] - d.x) <= 8 and abs(p[1] - d.y) <= 8]
        if not near:
            return []
        places.append(f"({d.x:.0f}, {d.y:.0f})")
    return places


#: a die read wrong lies in the lamp's sheen when the middle of its top is this much lighter (Lab L, 0-255) than the
#: median of its frame's dice read right (issue 24, round 20: twin 10309, seen — a blue die whose frog the lamp's
#: mirror image paled, read back blank, status ok: its top's middle L 186 against the others' 117-151, median 134)
SHEEN_LIGHTER = 30.0


def in_sheen(face: str, reading, frame: np.ndarray | None) -> list[str]:
    """The places of the dice ``reading`` (the read-back of the ``face`` ritual ``frame``) reads wrong when every one
    of them is paler than the dice read right (:data:`SHEEN_LIGHTER`; at least two read right), else none: the
    lamp's mirror image on its top, which the reader need not flag (its body and frog paled alike)."""
    wrong = [d for d in reading.dice if d.face != face]
    right = [d for d in reading.dice if d.face == face]
    if frame is None or not wrong or len(right) < 2:
        return []
    light = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab)[..., 0]

    def middle(d) -> float:
        r = max(2, int(0.2 * min(d.box[2], d.box[3])))
        x, y = int(round(d.x)), int(round(d.y))
        return float(np.median(light[max(0, y - r) : y + r + 1, max(0, x - r) : x + r + 1]))

    usual = float(np.median([middle(d) for d in right]))
    if any(middle(d) < usual + SHEEN_LIGHTER for d in wrong):
        return []
    return [f"({d.x:.0f}, {d.y:.0f})" for d in wrong]


#: a ritual die is on the spots when at least this share of the reader's blob of die-top pixels in its place lies on
#: them (the reader drops a blob half on them that is no die top by shape: ``print_spot``)
ON_SPOTS = 0.5


def lost_on_spots(frame, masks, centres, scale: int, reading, profile) -> list[tuple[float, float]]:
    """The places (frame px) of the ritual dice (``masks``, ``centres``: the finder's, ``scale`` times smaller
    than ``frame``) that ``reading`` has no die near, when every one of them lies on the profile's die-coloured
    spots; else none."""
    if not masks or profile.spots is None:
        return []
    work = prepare(frame, profile)
    h, w = work.labels.shape
    top = cv2.LUT(work.labels, IS_TOP) > 0
    cc = cv2.connectedComponents(top.view(np.uint8), connectivity=8)[1]
    spots = spots_at(profile, (h, w)) > 0
    side = _side(masks, scale)
    lost = []
    for m, (cx, cy) in zip(masks, centres):
        x, y = cx * scale, cy * scale
        if any(abs(d.x - x) <= 0.6 * side and abs(d.y - y) <= 0.6 * side for d in reading.dice):
            continue
        under = cc[top & (cv2.resize(m.view(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST) > 0)]
        if not under.size:
            return []
        blob = cc == np.bincount(under).argmax()  # the reader's blob of die-top pixels in the die's place
        if (blob & spots).sum() < ON_SPOTS * blob.sum():
            return []
        lost.append((x, y))
    return lost


def asked_about(k: str, frame, found, scale: int, reading, profile, wrong: int, n_dice: int,
                veiled: bool) -> tuple[str, bool] | None:
    """The warning that takes ``reading``, the read-back of the ``k`` ritual frame (``found``: its dice as the finder
    found them, ``scale`` times smaller than ``frame``) with ``wrong`` dice read wrong or missed, as what a game asks
    about, or None (the read-back is refused): every die missed lies on a die-coloured spot of the box
    (:func:`lost_on_spots`) and the frame read with the count of dice thrown reads no die wrong and is flagged or
    finds them; or (when no frame was taken so before, ``veiled`` False) at most two dice read wrong, each flagged in
    the lamp's reflection (:func:`in_reflection`), the frame not ``ok`` and every die there. With the warning, whether
    it was taken for the lamp's reflection."""
    lost = lost_on_spots(frame, found.masks, found.centres, scale, reading, profile)
    if lost and wrong == len(lost):
        again = read_dice(frame, profile, thrown=n_dice)
        if all(f == k for f in again.faces) and (len(again.dice) == len(found.masks) or again.status != "ok"):
            where = ", ".join(f"({x:.0f}, {y:.0f})" for x, y in lost)
            return said(f"{k} frame: the reader does not see the die at {where}: it lies on a part of the box bottom "
                        "as violet as the dice (a die missed there is asked about)"), False
    glared = [] if veiled else in_reflection(k, reading, dice_found(found, scale, n_dice))
    if glared and wrong == len(glared) <= 2 and reading.status != "ok" and len(reading.dice) == len(found.masks) == n_dice:
        return said(f"{k} frame: the lamp's reflection lies on the dice at {', '.join(glared)}; dice there are asked "
                    "about (move the lamp farther to the side or diffuse it)"), True
    return None


def sheen_asked(k: str, frame, reading, profile, wrong: int, n_dice: int):
    """``(profile, warning)`` taking ``reading``, the read-back of the ``k`` ritual frame with ``wrong`` dice read
    wrong, as what a game asks about, or None: every die read wrong (at most two, all ``n_dice`` found) lies in the
    lamp's sheen (:func:`in_sheen`), and with the grid cells of their boxes kept as the profile's ``sheen`` — where
    the reader flags a die it reads unsure (round 20: twin 10309, seen — a blue die whose frog the lamp's mirror image
    paled, read blank at confidence 0.52, status ok) — the frame reads every one of them flagged there."""
    from rig.vision.light import COLS, ROWS

    places = in_sheen(k, reading, frame)
    if not places or wrong != len(places) or wrong > 2 or len(reading.dice) != n_dice:
        return None
    h, w = frame.shape[:2]
    grid = np.zeros((ROWS, COLS), bool)
    for d in reading.dice:
        if d.face != k:
            x, y, bw, bh = d.box
            grid[int(y * ROWS / h) : int((y + bh) * ROWS / h) + 1, int(x * COLS / w) : int((x + bw) * COLS / w) + 1] = True
    sheened = dataclasses.replace(profile, sheen=tuple(tuple(bool(v) for v in row) for row in grid))
    again = read_dice(frame, sheened)
    flagged = {f.at for f in map(Flag.parse, again.reasons) if f and "lamp's reflection" in f.kind}
    if again.faces != reading.faces or not all(any(abs(x - d.x) <= 8 and abs(y - d.y) <= 8 for x, y in flagged)
                                                for d in again.dice if d.face != k):
        return None
    glared = ", ".join(places)
    return sheened, said(f"{k} frame: the lamp's reflection lies on the dice at {glared}; dice there are asked about "
                         "(move the lamp farther to the side or diffuse it)")


def dice_found(found, scale: int, n_dice: int) -> tuple:
    """The places (frame px) and side of the dice the finder found in a ritual frame, when it found all ``n_dice``."""
    if len(found.masks) != n_dice:
        return ()
    return [(x * scale, y * scale) for x, y in found.centres], _side(found.masks, scale)


def _side(masks, scale: int) -> float:
    """The ritual dice's side (frame px) from the finder's ``masks``, ``scale`` times smaller than the frame."""
    return float(np.sqrt(np.median([m.sum() for m in masks]))) * scale


#: the one flag an ``overlap`` fit's read-back may carry on a die it reads right (:func:`overlap_clear`)
FROG_SIZE = "frog of unusual size (glare?)"


def overlap_clear(reading) -> bool:
    """Whether ``reading``, the read-back of a ritual frame by a profile whose dice's colours and box bottom were
    taken down to ``MIN_OVERLAP`` (``overlap``, round 18), clears it: ``ok``, or (round 26) flagged for nothing but
    a frog's size on dice it reads (the caller has counted every die right). What the overlap risks is the floor read
    as die (a die too many, a piece of one, the floor's colour on a top) or a die lost in it; a frog's share is
    measured on the ritual's own dice and says nothing of the floor. Twin table 10902 (round 25's fresh set, seen
    now): a gray felt floor, body/background 2.9 (the body spread towards gray by two tops the lamp's mirror image
    pales); every ritual die read right, the pink frame flagged only "pink frog of unusual size (glare?)" on one
    of the paled dice.

    >>> from types import SimpleNamespace as R
    >>> overlap_clear(R(status="uncertain", reasons=("pink frog of unusual size (glare?) on die at (454, 328)",)))
    True
    >>> overlap_clear(R(status="uncertain", reasons=("part of a die (glare or hidden?) at (12, 40)",)))
    False
    """
    if reading.status == "ok":
        return True
    flags = [Flag.parse(r) for r in reading.reasons]
    return bool(flags) and all(f is not None and f.kind.endswith(FROG_SIZE) for f in flags)


def fit_prints(empty: np.ndarray, profile, warnings: list):
    """``profile`` with the places where it reads the ``empty`` box itself as a die kept as its ``prints``
    (``SHADE_ROWS`` x ``SHADE_COLS`` bools, the boxes of those dice), where the reader takes no die in shade
    (:func:`rig.vision.dice_missed.dark_tops`); the warning that says so added to ``warnings``. Round 31, card twin
    4910 (round 30's fresh set, seen now): a maroon disc of the printed floor, a die's size, brightened as a top in
    shade reads as a blank die, in every ritual frame and the empty box; refused "the reader takes the box at (236, 317)
    for a die, where none lies". Raises :class:`CalibrationError` when the empty box reads no die, or reads one still
    with those places kept."""
    reading = read_dice(empty, profile)
    if not reading.dice:
        raise CalibrationError("the empty box reads no die")
    h, w = empty.shape[:2]
    grid = np.zeros((SHADE_ROWS, SHADE_COLS), bool)
    for d in reading.dice:
        x, y, bw, bh = d.box
        grid[int(y * SHADE_ROWS / h) : int(np.ceil((y + bh) * SHADE_ROWS / h)),
             int(x * SHADE_COLS / w) : int(np.ceil((x + bw) * SHADE_COLS / w))] = True
    printed = dataclasses.replace(profile, prints=tuple(tuple(bool(v) for v in row) for row in grid))
    if read_dice(empty, printed).dice:
        raise CalibrationError("the empty box reads a die where its print is kept")
    where = ", ".join(f"({d.x:.0f}, {d.y:.0f})" for d in reading.dice)
    warnings.append(said(f"the box's print at {where} reads as a die in shade, in the empty box too: no die in shade is "
                         "read there (a die lying there is asked about)"))
    return printed
