"""What a refused read-back of a ritual frame tells the player to change.

Calibration reads each ritual frame back with the profile it fitted; two dice or more read wrong refuse the
table. When every die read wrong lies in the lamp's reflection — a veil on its own top, or the floor's glare
under it reading another face without it taken off (twin table 8211, seen: a 3800 K lamp mirrored on a blue
die's top and on the glossy disc of the print under another; read back "blue+yellow" and "blank") — the
refusal names the dice and says to move or diffuse the lamp; otherwise it says what it said before.
"""

from __future__ import annotations

from rig.vision.dice_flag import Flag

#: reasons that put a die in the lamp's reflection (on its top, or on the floor under it)
_GLARE = ("lamp's reflection on die top", "die under the floor's glare", "die in a glare spot", "(glare?)")
UNUSABLE = "the samples are not usable (check the light, the faces, that no die touches another)"


def readback_advice(face: str, reading) -> str:
    """The refusal's advice for ``reading``, the read-back of the ``face`` ritual frame."""
    places = in_reflection(face, reading)
    if not places:
        return UNUSABLE
    return (f"the lamp's reflection lies on the {'die' if len(places) == 1 else 'dice'} at {', '.join(places)} "
            "(on the top or the floor under it); move the lamp farther to the side or diffuse it, or move those dice")


def in_reflection(face: str, reading) -> list[str]:
    """The places of the dice ``reading`` (the read-back of the ``face`` ritual frame) reads wrong when every one
    of them lies in the lamp's reflection, else none."""
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
