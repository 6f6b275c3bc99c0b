"""Dice the twin's camera cannot see, and how the twin bench scores them (issue 24, round 14).

A die thrown onto another (twin 9705 turn 2: a blank die lying on a blue one) hides the lower die's top from the
camera: no reader can tell its face. Before round 14 the bench counted such a die as read wrong — and, matching
the true dice to the readings in the order thrown, often the die lying on it too (the one die read there went to
the hidden die, the die on top was then "not seen"). :func:`hidden_shares` casts rays from points of each die's
top to the lens through the other dice and the walls (the poses the renders show); a die whose top is more than
:data:`HIDDEN` hidden is **hidden**: :func:`score` matches the readings to the visible dice first, counts a hidden
die apart (not in the dice read right, as a cocked die is not), and asks that a turn with one be flagged (the
reader sees one die short, and the game knows six were thrown: a turn with a hidden die read "ok" is silent).
"""

from __future__ import annotations

import numpy as np

#: a die whose top is hidden from the camera over more than this share is not counted as a die to read
HIDDEN = 0.5
#: points across the top's width and depth the rays start from (the outer 7.5 % of the rim left out)
_GRID = np.linspace(-0.85, 0.85, 7)


def _blocked(p: np.ndarray, d: np.ndarray, dist: np.ndarray, centre, rotation: np.ndarray, half) -> np.ndarray:
    """Which rays ``p + t d`` (0 < t < ``dist``; N x 3 each) pass through the box ``centre``, ``rotation`` (local to
    world), ``half`` (half extents, 3)."""
    o = (p - np.asarray(centre)) @ rotation
    v = d @ rotation
    with np.errstate(divide="ignore", invalid="ignore"):
        t1, t2 = (-np.asarray(half) - o) / v, (np.asarray(half) - o) / v
    inside = np.abs(o) <= np.asarray(half)
    lo = np.where(v == 0, np.where(inside, -np.inf, np.inf), np.minimum(t1, t2))
    hi = np.where(v == 0, np.where(inside, np.inf, -np.inf), np.maximum(t1, t2))
    near, far = np.maximum(lo.max(axis=1), 1e-7), np.minimum(hi.min(axis=1), dist)
    return near < far


def hidden_shares(table, dice: list) -> list[float]:
    """Per die of a shot (:class:`~rig.twin.physics.DiePose`), the share of its top face the twin's camera cannot
    see: rays from 7 x 7 points of the top (the face most nearly up) to the lens, blocked by another die or a wall."""
    from rig.twin import physics
    from rig.twin.optics import camera_pose

    half = physics.DIE / 2
    lens, _, _ = camera_pose(table)
    w, h = table.tray
    t, k = 0.006, table.wall / 2  # the walls: 12 mm thick, as the renders' (rig.twin.optics)
    walls = [((0, s * (h / 2 + t), k), (w / 2 + 2 * t, t, k)) for s in (1, -1)]
    walls += [((s * (w / 2 + t), 0, k), (t, h / 2 + 2 * t, k)) for s in (1, -1)]
    boxes = [(np.asarray(d.centre), np.asarray(d.rotation), (half,) * 3) for d in dice]
    out = []
    for i, (c, r, _) in enumerate(boxes):
        up = int(np.argmax(np.abs(r[2])))
        a, b = (j for j in range(3) if j != up)
        u, v = np.meshgrid(_GRID, _GRID)
        p = (c + r[:, up] * np.sign(r[2, up]) * half * 1.0005
             + (np.outer(u.ravel(), r[:, a]) + np.outer(v.ravel(), r[:, b])) * half)
        ray = lens - p
        dist = np.linalg.norm(ray, axis=1)
        ray /= dist[:, None]
        blocked = np.zeros(len(p), bool)
        for j, (oc, orot, oh) in enumerate(boxes):
            if j != i:
                blocked |= _blocked(p, ray, dist, oc, orot, oh)
        for wc, wh in walls:
            blocked |= _blocked(p, ray, dist, wc, np.eye(3), wh)
        out.append(float(blocked.mean()))
    return out


def score(truth, hidden, reading, tol: float) -> tuple[int, int, bool, bool, bool]:
    """(dice right, dice counted, turn wrong, has a cocked die, has a hidden die) for one frame: as
    :func:`rig.bench.unseen.score`, the visible dice matched first; ``hidden``: per true die, whether the camera
    cannot see its top (not counted, matched to what is left)."""
    from rig.bench.unseen import score as scored

    return (*scored(truth, reading, tol, hidden), any(hidden))


def tally(row: dict, truth, hidden, reading, tol: float) -> None:
    """Add one frame's reading to ``row`` as :func:`rig.bench.unseen.tally` does, a hidden die apart: a turn with
    one is to be flagged (silent when it is not), never a needless flag, and no 6-of-6 turn."""
    right, counted, wrong, cocked, hid = score(truth, hidden, reading, tol)
    flagged = reading.status != "ok"
    row["frames"] += 1
    row["right"] += right
    row["dice"] += counted
    row["silent"] += (wrong or hid) and not flagged
    row["needless"] += flagged and not wrong and not cocked and not hid
    row["cocked"] += cocked
    row["cocked_flagged"] += cocked and flagged
    row["hidden"] = row.get("hidden", 0) + hid
    row["hidden_flagged"] = row.get("hidden_flagged", 0) + (hid and flagged)
    if len(truth) == 6 and not cocked and not hid:
        row["turns6"] += 1
        row["right6"] += not wrong
