"""Random scenes of the virtual table: dice thrown without overlapping, inside the floor, under a
random lamp (issue 29: split from :mod:`rig.vision.render`, which re-exports every name).
"""

from __future__ import annotations

import math

import numpy as np

from rig.vision.errors import VisionError
from rig.vision.profile import DICE_PER_COMBO
from rig.vision.table_scene import DIE_SIDE, LIGHTINGS, Hand, Lighting, PlacedCard, PlacedDie, Scene, floor_rect

# --------------------------------------------------------------------------- random scenes

def _lighting(lighting: Lighting | str | None, rng: np.random.Generator) -> Lighting:
    if isinstance(lighting, Lighting):
        return lighting
    if lighting is None or lighting == "random":
        lighting = str(rng.choice(sorted(LIGHTINGS)))
    try:
        return LIGHTINGS[lighting]
    except KeyError:
        raise VisionError(f"unknown lighting {lighting!r} (lightings: {', '.join(LIGHTINGS)})") from None


def _corners(x: float, y: float, angle: float, w: float, h: float, ax: float, ay: float) -> np.ndarray:
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    pts = np.array([[0, 0], [w, 0], [w, h], [0, h]], float) - (ax, ay)
    return pts @ np.array([[c, s], [-s, c]]) + (x, y)


def _footprint(die: PlacedDie, side: float) -> np.ndarray:
    if die.cocked:
        t = math.radians(die.tilt)
        top = side * math.cos(t)
        return _corners(die.x, die.y, die.angle, side, top + side * math.sin(t), side / 2, top / 2)
    return _corners(die.x, die.y, die.angle, side, side, side / 2, side / 2)


def _overlap(p: np.ndarray, q: np.ndarray, margin: float = 0.0) -> bool:
    """Separating-axis test for two convex quads (True if they overlap by more than margin)."""
    for poly in (p, q):
        for i in range(4):
            e = poly[(i + 1) % 4] - poly[i]
            axis = np.array([-e[1], e[0]]) / (np.hypot(*e) or 1.0)
            a, b = p @ axis, q @ axis
            if a.max() - margin <= b.min() or b.max() - margin <= a.min():
                return False
    return True


def _inside(poly: np.ndarray, rect: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = rect
    return bool((poly[:, 0] >= x0).all() and (poly[:, 0] <= x1).all() and (poly[:, 1] >= y0).all()
                and (poly[:, 1] <= y1).all())


def random_faces(rng: np.random.Generator, n: int) -> list[str]:
    """Faces of n dice as a real roll can show them (each combo face is on two dice only)."""
    dice = list(range(6))
    rng.shuffle(dice)
    combos = ["pink+blue", "pink+blue", "yellow+pink", "yellow+pink", "blue+yellow", "blue+yellow"]
    faces = []
    for d in dice[:n]:
        faces.append(str(rng.choice(["blue", "pink", "yellow", "blank", "blank", combos[d]])))
    assert all(faces.count(c) <= DICE_PER_COMBO for c in set(combos))
    return faces


def random_scene(rng: np.random.Generator, n_dice: int, lighting: Lighting | str | None = None, *,
                 size: tuple[int, int] = (640, 480), faces: list[str] | None = None, touching: float = 0.3,
                 wall: float = 0.15, cocked: float = 0.0, hand: bool = False, card: str | None = None,
                 die_side: float | None = None, spread: bool = False) -> Scene:
    """A random table: ``n_dice`` dice (faces as a real roll gives them unless ``faces``).

    Each die after the first touches an earlier one with probability ``touching`` or lies
    against the box wall with probability ``wall``; with probability ``cocked`` one die leans
    on a neighbour or the wall. ``spread`` keeps dice well apart (the calibration ritual).
    """
    if not 0 <= n_dice <= 6:
        raise VisionError(f"a table holds 0 to 6 dice, not {n_dice}")
    light = _lighting(lighting, rng)
    side = float(die_side or DIE_SIDE * size[0] / 640)
    faces = list(faces) if faces is not None else random_faces(rng, n_dice)
    rect = floor_rect(size)
    cocked_index = int(rng.integers(n_dice)) if n_dice and rng.random() < cocked else -1
    dice: list[PlacedDie] = []
    polys: list[np.ndarray] = []
    for i, face in enumerate(faces):
        is_cocked = i == cocked_index
        for attempt in range(400):
            mode = "free"
            r = rng.random()
            if not spread and dice and (r < touching or is_cocked and r < 0.6):
                mode = "touch"
            elif not spread and (r < touching + wall or is_cocked):
                mode = "wall"
            angle = float(rng.uniform(0, 90))
            tilt = float(rng.uniform(25, 42)) if is_cocked else 0.0
            side_face = str(rng.choice(["blue", "pink", "yellow", "blank"])) if is_cocked else "blank"
            if mode == "touch":
                j = int(rng.integers(len(dice)))
                base = dice[j]
                angle = base.angle + float(rng.normal(0, 6)) if rng.random() < 0.7 else angle
                direction = rng.uniform(0, 2 * math.pi)
                if is_cocked:  # it leans on `base`: its visible side faces away from it
                    angle = math.degrees(direction) - 90 + float(rng.normal(0, 5))
                lo, hi = 0.3 * side, 2.5 * side
                for _ in range(18):  # closest distance along `direction` without overlap
                    mid = (lo + hi) / 2
                    cand = PlacedDie(face, base.x + mid * math.cos(direction), base.y + mid * math.sin(direction),
                                     angle, is_cocked, tilt, side_face)
                    if _overlap(_footprint(cand, side), polys[j]):
                        lo = mid
                    else:
                        hi = mid
                d = hi + side * 0.01
                die = PlacedDie(face, base.x + d * math.cos(direction), base.y + d * math.sin(direction),
                                angle, is_cocked, tilt, side_face)
            elif mode == "wall":
                angle = float(rng.normal(0, 5))
                edge = int(rng.integers(4))
                x0, y0, x1, y1 = rect
                m = side * 0.52
                along_x, along_y = rng.uniform(x0 + side, x1 - side), rng.uniform(y0 + side, y1 - side)
                if is_cocked:
                    m = side * 0.45
                # a die leaning on the wall shows the side facing away from the wall
                x, y, angle = [(along_x, y0 + m, angle), (along_x, y1 - m, angle + 180),
                               (x0 + m, along_y, angle - 90), (x1 - m, along_y, angle + 90)][edge]
                die = PlacedDie(face, x, y, angle, is_cocked, tilt, side_face)
            else:
                x0, y0, x1, y1 = rect
                die = PlacedDie(face, rng.uniform(x0 + side, x1 - side), rng.uniform(y0 + side, y1 - side),
                                angle, is_cocked, tilt, side_face)
            poly = _footprint(die, side)
            gap = side * (0.9 if spread else 0.0)
            if not _inside(poly, (rect[0] - 1, rect[1] - 1, rect[2] + 1, rect[3] + 1)):
                continue
            if any(_overlap(poly, q, -gap) for q in polys):
                continue
            dice.append(die)
            polys.append(poly)
            break
        else:
            raise VisionError(f"could not place {n_dice} dice on a {size[0]}x{size[1]} table")
    the_hand = None
    if hand:
        x0, y0, x1, y1 = rect
        the_hand = Hand(float(rng.uniform(x0 + 2 * side, x1 - 2 * side)), float(rng.uniform(y0 + 2 * side, y1 - 2 * side)))
    the_card = None
    if card is not None:
        the_card = PlacedCard(card, size[0] / 2 + rng.uniform(-0.1, 0.1) * size[0],
                              size[1] / 2 + rng.uniform(-0.1, 0.1) * size[1], float(rng.uniform(-30, 30)))
    return Scene(tuple(dice), light, tuple(size), side, the_hand, the_card)
