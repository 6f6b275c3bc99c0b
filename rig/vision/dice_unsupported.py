"""A die with nothing to lean on lies flat: no wall and no other die within its reach (issue 24, round 34).

A die comes to rest cocked only against something: on round 32's and 33's seen twin sets every truly cocked die lay
within half a side of a wall or 1.5 sides (centre to centre) of another die. Once every die thrown is read (a die
hidden in shade may be what another leans on), a die whose centre lies :data:`WALL_REACH` sides or more inside the
floor's outline (:func:`rig.vision.box_walls.floor_outline`, found in the empty box's picture calibration keeps) and
:data:`DIE_REACH` sides or more from every other die read is *unsupported*: its plain "cocked die" flag is taken off
(:func:`free_unsupported`), and the second look's guard, which keeps a reading flagged when another die of it looks
likely not flat to the net, does not ask it (:func:`rig.vision.dice_second_look.second_look`'s ``excused``).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from rig.vision.box_walls import floor_outline, inside_by
from rig.vision.card_empty import kept
from rig.vision.dice_flag import Flag
from rig.vision.light import profile_map

COCKED_KIND = "cocked die"
#: a die's centre this many die sides inside the floor's outline found, or more, has no wall within reach (on the 90
#: seen twin tables the outline found lies at most 0.55 sides outside the true one, its median 1.35 inside; truly
#: cocked dice read on the fit sets 11500-11711: at most 1.34 sides inside the outline found)
WALL_REACH = 2.0
#: ... and this many sides (centre to centre) or more from every other die read, no die within reach
DIE_REACH = 2.0


def outline(work) -> np.ndarray | None:
    """The floor's outline in working px (4 x 2 float32), found once a profile and frame size; None without the
    empty box's picture."""
    profile = work.profile
    empty = kept(profile) if profile is not None else None
    if empty is None:
        return None
    h, w = work.labels.shape[:2]
    return profile_map("floor_outline", empty.lab, (h, w),
                       lambda: floor_outline(empty.lab) * np.float32(w / empty.lab.shape[1]))


def unsupported(work, dice: list, thrown: int | None) -> set[int]:
    """The indices of ``dice`` (frame px) with no wall and no other die within reach; none unless every die
    ``thrown`` is read and the floor's outline is known."""
    if thrown is None or len(dice) < thrown:
        return set()
    found = outline(work)
    if found is None:
        return set()
    f, side = work.factor, work.side
    out = set()
    for i, d in enumerate(dice):
        if inside_by(found, d.x / f, d.y / f) < WALL_REACH * side:
            continue
        if all(math.hypot(o.x - d.x, o.y - d.y) >= DIE_REACH * side * f for j, o in enumerate(dice) if j != i):
            out.add(i)
    return out


def free_unsupported(dice: list, reasons: list[str], free: set[int], side: float) -> tuple[list, list[str]]:
    """``dice`` and ``reasons`` with the plain "cocked die" flags of the dice ``free`` (indices) taken off: a flag
    names the die read nearest its place, within half a die ``side`` (frame px)."""
    if not free:
        return dice, reasons
    dice, keep, freed = list(dice), [], set()
    for r in reasons:
        flag = Flag.parse(r)
        if flag is not None and flag.kind == COCKED_KIND:
            near = min(range(len(dice)), key=lambda i: math.hypot(dice[i].x - flag.at[0], dice[i].y - flag.at[1]))
            if near in free and math.hypot(dice[near].x - flag.at[0], dice[near].y - flag.at[1]) <= 0.5 * side:
                freed.add(near)
                continue
        keep.append(r)
    for i in freed:
        dice[i] = dataclasses.replace(dice[i], cocked=False)
    return dice, keep


def excuse(work, dice: list, reasons: list[str], thrown: int | None) -> tuple[set[int], list, list[str]]:
    """The dice with nothing to lean on (:func:`unsupported`, asked only of a flagged reading) and the reading with
    their plain "cocked die" flags taken off (:func:`free_unsupported`)."""
    excused = unsupported(work, dice, thrown) if reasons else set()
    return excused, *free_unsupported(dice, reasons, excused, work.side * work.factor)
