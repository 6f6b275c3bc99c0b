"""Six dice thrown into a walled tray by Bullet physics (pybullet), left to rest where they land.

Units are metres. A die is a cube of side :data:`DIE` with rounded edges for its rolling (a box
collision shape with a small margin); the tray is a floor with four walls. :func:`throw` drops the
dice from a hand's height with spin and lets the simulation run until they all lie still;
:func:`lay` puts dice down by hand (the calibration ritual: every die the same face up, spread
apart). A resting die's pose gives the face that looks up, and whether it is cocked (leaning on
the wall or on another die: its top face tilted more than :data:`COCKED_DEG`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rig.errors import RigError

DIE = 0.016  # 16 mm dice
COCKED_DEG = 10.0
#: the face on each side of a die (its local +x, -x, +y, -y, +z, -z); every die has one combo face
SIDES = ("blue", "yellow", "pink", "blank", "blank", None)
NORMALS = np.array([(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)], np.float64)
COMBOS = ("pink+blue", "pink+blue", "yellow+pink", "yellow+pink", "blue+yellow", "blue+yellow")


@dataclass(frozen=True)
class DiePose:
    """One die at rest: centre (m, tray frame: floor at z=0, origin at the floor's centre), its
    rotation (3x3, local to world), its combo face, the face up and whether it is cocked."""

    centre: tuple[float, float, float]
    rotation: tuple[tuple[float, ...], ...]
    combo: str
    face: str
    cocked: bool
    tilt_deg: float

    def faces(self) -> tuple[str, ...]:
        """The face names on the die's local +x, -x, +y, -y, +z, -z."""
        return tuple(self.combo if s is None else s for s in SIDES)


def _pybullet():
    try:
        import pybullet
    except ImportError:
        raise RigError("the twin needs pybullet: pip install -e '.[twin]'") from None
    return pybullet


def face_up(rotation: np.ndarray, combo: str) -> tuple[str, float]:
    """The face whose normal points most nearly up, and its tilt from vertical (degrees)."""
    world = NORMALS @ np.asarray(rotation).T
    i = int(np.argmax(world[:, 2]))
    tilt = math.degrees(math.acos(float(np.clip(world[i, 2], -1.0, 1.0))))
    name = SIDES[i]
    return (combo if name is None else name), tilt


#: Bullet is happiest with bodies of about a unit: the world is simulated ten times larger (gravity too)
S = 10.0


def _pose(p, body, combo: str) -> DiePose:
    pos, quat = p.getBasePositionAndOrientation(body)
    rot = np.array(p.getMatrixFromQuaternion(quat)).reshape(3, 3)
    face, tilt = face_up(rot, combo)
    return DiePose(tuple(float(v) / S for v in pos), tuple(tuple(float(v) for v in row) for row in rot), combo, face,
                   tilt > COCKED_DEG, tilt)


def _world(p, tray: tuple[float, float], wall: float):
    """A fresh world: gravity, the floor, four walls ``wall`` high around a ``tray`` (w, h) floor."""
    p.resetSimulation()
    p.setGravity(0, 0, -9.81 * S)
    p.setPhysicsEngineParameter(fixedTimeStep=1 / 240, numSolverIterations=60)
    w, h = tray[0] * S, tray[1] * S
    t = 0.05 * S
    floor = p.createCollisionShape(p.GEOM_BOX, halfExtents=[w / 2 + 2 * t, h / 2 + 2 * t, t])
    p.createMultiBody(0, floor, basePosition=[0, 0, -t])
    for (x, y, hx, hy) in ((w / 2 + t, 0, t, h / 2 + 2 * t), (-w / 2 - t, 0, t, h / 2 + 2 * t),
                           (0, h / 2 + t, w / 2 + 2 * t, t), (0, -h / 2 - t, w / 2 + 2 * t, t)):
        shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=[hx, hy, wall * S / 2])
        p.createMultiBody(0, shape, basePosition=[x, y, wall * S / 2])
    for body in range(p.getNumBodies()):
        p.changeDynamics(body, -1, lateralFriction=0.5, restitution=0.3)


def _die(p, pos, quat):
    shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=[DIE * S / 2] * 3)
    body = p.createMultiBody(0.004, shape, basePosition=[v * S for v in pos], baseOrientation=quat)
    p.changeDynamics(body, -1, lateralFriction=0.5, restitution=0.3, rollingFriction=0.001,
                     spinningFriction=0.001, linearDamping=0.04, angularDamping=0.04)
    return body


def _settle(p, bodies, seconds: float = 6.0) -> None:
    for step in range(int(240 * seconds)):
        p.stepSimulation()
        if step > 120 and step % 24 == 0:
            if all(np.linalg.norm(p.getBaseVelocity(b)[0]) < 1e-3 * S and np.linalg.norm(p.getBaseVelocity(b)[1]) < 0.05
                   for b in bodies):
                return


def throw(seed: int, *, n: int = 6, tray: tuple[float, float] = (0.2, 0.15), wall: float = 0.035,
          combos: tuple[str, ...] = COMBOS, lean: bool = False, propped: int = 0) -> list[DiePose]:
    """Throw ``n`` dice into the tray from a hand's height with spin and let them come to rest
    (a throw that leaves a die outside the tray is thrown again). ``lean``: then one die is set
    leaning against the nearest wall and let go — it stays cocked, or falls flat. ``propped``: then
    that many dice are set leaning, each on a wall or on another die (:func:`_prop`), for material
    with many cocked dice (a throw without it is the same as before).
    """
    p = _pybullet()
    w, h = tray
    for attempt in range(20):
        rng = np.random.default_rng([4099, seed, attempt])
        client = p.connect(p.DIRECT)
        try:
            _world(p, tray, wall)
            bodies = []
            for i in range(n):
                x, y = float(rng.uniform(-0.3, 0.3)) * w, float(rng.uniform(-0.3, 0.3)) * h
                quat = p.getQuaternionFromEuler(list(rng.uniform(0, 2 * math.pi, 3)))
                body = _die(p, [x, y, DIE * (1.0 + 1.2 * i)], quat)
                p.resetBaseVelocity(body, [float(v) * S for v in rng.normal(0, 0.2, 2)] + [-0.2 * S],
                                    list(rng.normal(0, 20, 3)))
                bodies.append(body)
            _settle(p, bodies)
            if lean:
                _lean_one(p, bodies, tray, rng)
            if propped:
                _prop(p, bodies, tray, np.random.default_rng([4127, seed, attempt]), propped)
            poses = [_pose(p, b, combos[i % len(combos)]) for i, b in enumerate(bodies)]
        finally:
            p.disconnect(client)
        inside = all(abs(d.centre[0]) < w / 2 and abs(d.centre[1]) < h / 2 and 0 < d.centre[2] < 2 * DIE for d in poses)
        if inside:
            return poses
    raise RigError(f"twin: no throw of seed {seed} kept every die in the tray")


def _lean_one(p, bodies, tray, rng) -> None:
    """Set one die leaning on the wall nearest to it (tilted 20-35 degrees), let it settle."""
    b = bodies[int(rng.integers(len(bodies)))]
    (x, y, _), quat = p.getBasePositionAndOrientation(b)
    rest = _square(p, quat)
    w, h = tray[0] * S, tray[1] * S
    dx, dy = _nearest_wall(x, y, w, h)
    t = math.radians(float(rng.uniform(20, 35)))
    a = DIE * S
    # tilted about the axis along the wall, the top leaning towards the wall
    axis = (-dy, dx, 0.0)
    for other in bodies:  # the others make room
        if other != b:
            (ox, oy, oz), oq = p.getBasePositionAndOrientation(other)
            if math.hypot(ox - (dx * w / 2 if dx else x), oy - (dy * h / 2 if dy else y)) < 2.5 * DIE * S:
                p.resetBasePositionAndOrientation(other, [ox - dx * 2.5 * DIE * S, oy - dy * 2.5 * DIE * S, oz], oq)
    reach = a / 2 * (math.cos(t) + math.sin(t))  # from the centre to the wall, the upper edge touching it
    cx, cy = _against_wall(x, y, dx, dy, w, h, reach)
    _let_go(p, b, bodies, axis, t, rest, [cx, cy, reach + 0.0005 * S])


def _square(p, quat) -> list[float]:
    """The orientation of a die lying with the same face up as ``quat``, its edges along the walls."""
    up = int(np.argmax((NORMALS @ np.array(p.getMatrixFromQuaternion(quat)).reshape(3, 3).T)[:, 2]))
    return _quaternion(_turn_up(NORMALS[up]))


def _nearest_wall(x: float, y: float, w: float, h: float) -> tuple[int, int]:
    """The direction (dx, dy) of the tray's wall nearest to (x, y)."""
    gaps = {(1, 0): w / 2 - x, (-1, 0): w / 2 + x, (0, 1): h / 2 - y, (0, -1): h / 2 + y}
    return min(gaps, key=gaps.get)


def _against_wall(x, y, dx: int, dy: int, w: float, h: float, reach: float) -> tuple[float, float]:
    """Where a die at (x, y) leaning on the wall (dx, dy) stands, its centre ``reach`` from the wall."""
    return (dx * (w / 2 - reach) if dx else x), (dy * (h / 2 - reach) if dy else y)


def _let_go(p, b, bodies, axis, t: float, rest, centre) -> None:
    """Set die ``b`` at ``centre`` tilted ``t`` about ``axis`` from its ``rest`` orientation, one way and then
    the other, and let it settle: kept the first way it stays cocked."""
    state = p.saveState()
    for sign in (1, -1):
        p.restoreState(state)
        _, tilted = p.multiplyTransforms([0, 0, 0], p.getQuaternionFromAxisAngle(axis, sign * t), [0, 0, 0], rest)
        p.resetBasePositionAndOrientation(b, centre, tilted)
        p.resetBaseVelocity(b, [0, 0, 0], [0, 0, 0])
        p.changeDynamics(b, -1, lateralFriction=0.9)  # a die's edge bites into the cardboard
        _settle(p, bodies, 2.0)
        _, quat = p.getBasePositionAndOrientation(b)
        if face_up(np.array(p.getMatrixFromQuaternion(quat)).reshape(3, 3), "blank")[1] > COCKED_DEG:
            break


def _prop(p, bodies, tray, rng, k: int) -> None:
    """Set ``k`` dice leaning, one after another, each tilted 12-40 degrees: on the wall nearest to it,
    or on the side of another die lying flat (that die turned square to the leaning one), whichever
    ``rng`` picks; each is let go and settles (it stays cocked, slides flat, or pushes the die it
    leans on). Dice near the spot make room first."""
    a = DIE * S
    w, h = tray[0] * S, tray[1] * S
    order = [int(i) for i in rng.permutation(len(bodies))]
    leaned: list[int] = []
    for i in order[:k]:
        b = bodies[i]
        (x, y, _), quat = p.getBasePositionAndOrientation(b)
        rest = _square(p, quat)
        t = math.radians(float(rng.uniform(12, 40)))
        reach = a / 2 * (math.cos(t) + math.sin(t))  # from its centre to what it leans on
        props = [j for j in order if j != i and j not in leaned]
        if props and rng.random() < 0.5:  # on another die: that die is the wall, square to the walls
            j = props[int(rng.integers(len(props)))]
            (ox, oy, oz), oq = p.getBasePositionAndOrientation(bodies[j])
            ways = [(dx, dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if abs(ox - dx * (a / 2 + reach)) < w / 2 - a and abs(oy - dy * (a / 2 + reach)) < h / 2 - a]
            if not ways:
                continue
            dx, dy = ways[int(rng.integers(len(ways)))]  # the prop's side the die leans on faces (dx, dy)... from the die
            p.resetBasePositionAndOrientation(bodies[j], [ox, oy, a / 2 + 0.0002 * S], _square(p, oq))
            p.resetBaseVelocity(bodies[j], [0, 0, 0], [0, 0, 0])
            wall_x, wall_y = ox - dx * a / 2, oy - dy * a / 2
            cx, cy = wall_x - dx * reach, wall_y - dy * reach
            keep = {b, bodies[j]}
        else:  # on the nearest wall
            dx, dy = _nearest_wall(x, y, w, h)
            cx, cy = _against_wall(x, y, dx, dy, w, h, reach)
            keep = {b}
        for other in bodies:  # the others make room
            if other not in keep:
                (ox, oy, oz), oq = p.getBasePositionAndOrientation(other)
                if math.hypot(ox - cx, oy - cy) < 1.6 * a:
                    nx, ny = ox - dx * 2.0 * a, oy - dy * 2.0 * a
                    nx, ny = float(np.clip(nx, -w / 2 + a, w / 2 - a)), float(np.clip(ny, -h / 2 + a, h / 2 - a))
                    p.resetBasePositionAndOrientation(other, [nx, ny, oz], oq)
        axis = (-dy, dx, 0.0)  # tilted about the axis along what it leans on, its top towards it
        _let_go(p, b, bodies, axis, t, rest, [cx, cy, reach + 0.0005 * S])
        leaned.append(i)


def lay(seed: int, face: str, *, n: int = 6, tray: tuple[float, float] = (0.2, 0.15),
        combos: tuple[str, ...] = COMBOS) -> list[DiePose]:
    """Dice laid down by hand, ``face`` up, spread apart on a jittered grid, each turned at random."""
    rng = np.random.default_rng([4111, seed])
    w, h = tray
    cols, rows = 3, 2
    out = []
    for i in range(n):
        cx = (-0.5 + (i % cols + 0.5) / cols) * w * 0.8 + rng.uniform(-0.15, 0.15) * w / cols
        cy = (-0.5 + (i // cols + 0.5) / rows) * h * 0.8 + rng.uniform(-0.15, 0.15) * h / rows
        combo = combos[i % len(combos)]
        sides = [combo if s is None else s for s in SIDES]
        k = sides.index(face)
        rot = _turn_up(NORMALS[k]) @ _rot_z(rng.uniform(0, 2 * math.pi))
        rot = _rot_z(rng.uniform(0, 2 * math.pi)) @ _turn_up(NORMALS[k])
        out.append(DiePose((float(cx), float(cy), DIE / 2), tuple(tuple(float(v) for v in r) for r in rot), combo, face,
                           False, 0.0))
    return out


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _turn_up(normal: np.ndarray) -> np.ndarray:
    """A rotation taking the local ``normal`` to world +z."""
    n = np.asarray(normal, float)
    z = np.array([0.0, 0.0, 1.0])
    v = np.cross(n, z)
    c = float(n @ z)
    if np.linalg.norm(v) < 1e-9:
        return np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    vx = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + vx + vx @ vx * (1 / (1 + c))


def _quaternion(m: np.ndarray) -> list[float]:
    """(x, y, z, w) of a rotation matrix."""
    m = np.asarray(m, float)
    w = math.sqrt(max(0.0, 1 + m[0, 0] + m[1, 1] + m[2, 2])) / 2
    x = math.copysign(math.sqrt(max(0.0, 1 + m[0, 0] - m[1, 1] - m[2, 2])) / 2, m[2, 1] - m[1, 2])
    y = math.copysign(math.sqrt(max(0.0, 1 - m[0, 0] + m[1, 1] - m[2, 2])) / 2, m[0, 2] - m[2, 0])
    z = math.copysign(math.sqrt(max(0.0, 1 - m[0, 0] - m[1, 1] + m[2, 2])) / 2, m[1, 0] - m[0, 1])
    return [x, y, z, w]
