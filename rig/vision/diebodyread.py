"""An ``ok`` die read again in its body's box: a check that can only flag (issue 25, rounds 36-37).

A box on the lower part of a big die's top holds some of its pips, and the reader can read them surely as fewer (the
fresh pip twin's 12501 throw 0: a cream die showing 3, read 2 in a 117 px box on its ~160 px top; every other check
passed it). Its body (:func:`rig.vision.diebody.body_box`, the patch of its top's colour, as square as
:data:`rig.vision.diebody.BODY_REREAD_ELONGATION`) is then much bigger than its box (197 px, x1.69) and read as
another count (3: 0.72). An ``ok`` die of :data:`rig.vision.diebody.BODY_FROM` px or more whose body's box is
``[anydie] body_grow`` times its side or more and read as another count at least ``[anydie] body_other`` surely is
flagged; its reading stays. Right ``ok`` dice on the pip twin 12500-12511 had bodies of at most x1.19. The body is
looked for in the first window only (a body that leaves it is no part of a die's top found as a die; the window
doubled cost up to 3 ms a die).

Finding the body costs 0.2-0.7 ms a die, so only a die the wider crop (:mod:`rig.vision.diewide`) read less than
``[anydie] body_wide`` surely as its number is looked at: a box on part of a die shows, widened, pips it cut off
(12501's: 0.66, the wide look's bar 0.6). Round 37: of the ok dice of 32 px or more, 9 of 152 on the pip twins
12000-12500 and 10 of 383 in the speed corpus (none of its white dice) read under 0.8 in the wider crop.
"""

from __future__ import annotations

import numpy as np

from rig.vision.anydie_params import AnyDieParams
from rig.vision.dicenet import crop_die
from rig.vision.diebody import BODY_FROM, BODY_REREAD_ELONGATION, BODY_WINDOW, body_box
from rig.vision.pips import PipDie


def body_reasons(frame: np.ndarray, dice: list[PipDie], p: AnyDieParams, nets,
                 wide: dict[int, float] | None = None) -> list[PipDie]:
    """``dice`` with each ``ok`` one whose body is read otherwise flagged (``p.body_grow`` or ``p.body_other`` 0:
    unchanged); ``wide``: die's index -> the reader's probability of its number in the wider crop, a die looked at only
    when that is under ``p.body_wide`` (a die without one: looked at). The bodies' crops read in one batch."""
    if p.body_grow <= 0 or p.body_other <= 0:
        return list(dice)
    todo, crops = [], []
    for i, die in enumerate(dice):
        x, y, w, h = die.box
        side = max(w, h)
        if die.count.status != "ok" or side < BODY_FROM or (wide or {}).get(i, 0.0) >= p.body_wide:
            continue
        body = body_box(frame, x + w / 2, y + h / 2, side, BODY_REREAD_ELONGATION, (BODY_WINDOW[0],) * 2)
        if body is not None and body[2] >= p.body_grow * side:
            todo.append(i)
            crops.append(crop_die(frame, *body, size=nets.crop))
    out = list(dice)
    for i, probs in zip(todo, nets.read(crops) if crops else ()):
        other = 1 + int(np.argmax(probs[1:]))
        if other != dice[i].count.pips and float(probs[other]) >= p.body_other:
            out[i] = dice[i].flagged(f"its body, a box {p.body_grow:g} times wider or more, read {other} "
                                     f"({float(probs[other]):.2f}): a box on a part of a die?")
    return out
