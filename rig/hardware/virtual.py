"""The live virtual table: a camera source for simulation mode, built on :mod:`rig.vision.render`.

It renders the box bottom frame after frame while the simulation acts on it:
:meth:`~VirtualTable.roll` (a hand comes in, ``n`` dice tumble for a few frames and settle at
new places), :meth:`~VirtualTable.knock` (a settled die is bumped: moves and changes face),
:meth:`~VirtualTable.clear` (the dice are taken out), :meth:`~VirtualTable.show_card` /
:meth:`~VirtualTable.hide_card` (a revealed player card under the camera), :meth:`~VirtualTable.reach`
(a hand in view, touching nothing) and
:meth:`~VirtualTable.drop` / :meth:`~VirtualTable.restore` (the camera unplugged and back).
For a game with dice of its own (:meth:`~VirtualTable.set_game`; the game's
``virtual_dice()`` in ``rig/games/<name>/table.py``, asked of :mod:`rig.registry`) the table shows
that game's dice instead: a :meth:`~VirtualTable.roll` throws all of them at once, drawn by the
game (with :mod:`rig.vision.render_pips`), and returns their faces as the game's reader names
them (``"green:4"``, ``"white:dot=red"``; ``"white:5"``; ``"blue"``).
Everything is seeded: the same calls give the same frames. :attr:`~VirtualTable.truth` is
what the box will show once it has settled, for tests and for the simulation's own checks.

>>> import itertools
>>> table = VirtualTable(width=320, height=240, seed=1, realtime=False)
>>> with table:
...     new = table.roll(2)
...     frames = [frame for _, frame in itertools.islice(table.frames(), 8)]
>>> len(new), table.settled, frames[-1].shape
(2, True, (240, 320, 3))
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from dataclasses import dataclass, replace

import cv2
import numpy as np

from rig import registry
from rig.errors import HardwareError, RigError
from rig.hardware.frame_source import CameraLostError, FrameSource, now_us
from rig.hardware.virtual_cards import CardLaying

COMBOS = ("pink+blue", "pink+blue", "yellow+pink", "yellow+pink", "blue+yellow", "blue+yellow")


@dataclass(frozen=True)
class PipDie:
    """A die of a game with its own virtual dice: what it shows, where."""

    kind: str  # the game's name
    color: str
    pips: int | None
    dot: str | None
    x: float
    y: float
    angle: float
    size: float

    @property
    def face(self) -> str:
        if self.pips is None and self.dot is None:
            return self.color  # a die of colours (no pips, no dot)
        return f"{self.color}:{self.pips}" if self.pips is not None else f"{self.color}:dot={self.dot}"


@dataclass(frozen=True)
class PipScene:
    """The box bottom with the other games' dice (and whether a hand is over it)."""

    dice: tuple[PipDie, ...] = ()
    size: tuple[int, int] = (640, 480)
    hand: tuple[float, float] | None = None
    #: the game's virtual dice (``Game.virtual_dice()``): it draws each die
    maker: object = None

    def render(self, seed: int) -> np.ndarray:
        from rig.vision.render_pips import TABLE_BGR, finish_frame

        rng = np.random.default_rng(seed)
        w, h = self.size
        frame = np.empty((h, w, 3), np.uint8)
        frame[:] = TABLE_BGR
        frame = finish_frame(frame, np.random.default_rng(0), 6.0, 0)  # the same box bottom in every frame
        for die in self.dice:
            self.maker.draw(frame, die)
        if self.hand is not None:
            hx, hy = self.hand
            cv2.ellipse(frame, (round(hx), round(hy)), (round(0.12 * w), round(0.09 * w)), 30, 0, 360,
                        (120, 150, 200), -1, cv2.LINE_AA)
        return finish_frame(frame, rng, 3.0, 0.8)


class VirtualTable(CardLaying, FrameSource):
    """A simulated camera over the box: ``VirtualTable(width=640, height=480, fps=12, seed=0)``.

    ``realtime=False`` delivers frames as fast as they render with a simulated clock (tests);
    ``realtime=True`` paces them at ``fps`` on the monotonic clock (simulation mode).
    ``tumble_frames``: frames the dice spend moving in each roll; ``lighting``: a name from
    :data:`rig.vision.render.LIGHTINGS`. Frames wider than ``max_width`` (640, the renderer's
    native size) are scaled down to it: a 1280x960 render costs about 8x as much and the
    reader gains nothing from it (``max_width=None`` lifts the cap).
    """

    OPTIONS = ("width", "height", "fps", "seed", "realtime", "lighting", "tumble_frames", "max_width")

    def __init__(
        self,
        *,
        width: int = 640,
        height: int = 480,
        fps: float = 12.0,
        seed: int = 0,
        realtime: bool = True,
        lighting: str = "neutral",
        tumble_frames: int = 4,
        max_width: int | None = 640,
    ) -> None:
        if max_width and width > max_width:  # the renderer's cost grows with the area; the reader needs no more
            width, height = int(max_width), round(height * max_width / width)
        super().__init__("virtual", width=width, height=height, fps=fps)
        from rig.vision import render

        self._render = render
        if lighting not in render.LIGHTINGS:
            raise RigError(f"virtual table: unknown lighting {lighting!r} (known: {', '.join(render.LIGHTINGS)})")
        self.seed = int(seed)
        self.realtime = bool(realtime)
        self.lighting = lighting
        self.tumble_frames = max(1, int(tumble_frames))
        self._rng = np.random.default_rng(self.seed)
        self._lock = threading.RLock()
        self._pool = list(COMBOS)  # the combo faces of the dice not yet cast
        self._rng.shuffle(self._pool)
        self._scene = self._empty_scene()
        self._script: deque = deque()
        self._card_layout = "pile"  # how this reveal's cards go down: "row" or "pile"
        self._pile: tuple[float, float, float] | None = None  # where the pile's first card lay (x, y, angle)
        self._dropped = False
        self._frame_index = 0
        self._clock_us = 1_000_000
        self._next_wall_us = 0
        self.game = registry.DEFAULT
        self.white_dice = 2
        self.die_faces: tuple[str, ...] = ()
        self._dice = None  # the current game's virtual dice (None: the frog dice of the scene above)
        self._pips = PipScene(size=(self.width, self.height))
        self._still: tuple[PipScene, np.ndarray] | None = None  # the settled frame, rendered once

    def __repr__(self) -> str:
        extra = ", dropped" if self._dropped else ""
        return super().__repr__()[:-1] + f"{extra}>"

    # -- what the simulation does ----------------------------------------------------------
    @property
    def truth(self):
        """What the box shows once settled: a :class:`rig.vision.render.Truth` (``.faces`` sorted)."""
        with self._lock:
            return self._scene.truth()

    @property
    def faces(self) -> list[str]:
        """The faces of the dice in the box once settled, sorted."""
        if self._dice is not None:
            with self._lock:
                return sorted(d.face for d in self._pips.dice)
        return self.truth.faces

    def set_game(self, game: str, *, white_dice: int = 2, faces=None) -> None:
        """Show ``game``'s dice from now on (the box is emptied); the game's options ``white_dice``
        (white dice beside the coloured ones) and ``faces`` (a colour die's faces) say which dice; the game's
        virtual dice (``rig/games/<name>/table.py``) check them."""
        try:
            dice = registry.get(game).virtual_dice()
        except registry.UnknownGameError:
            raise RigError(f"virtual table: no dice for game {game!r} (games: {', '.join(registry.names())})") from None
        faces = tuple(faces) if faces else ()
        if dice is not None:
            dice.check({"white_dice": white_dice, "faces": faces})
        with self._lock:
            if (game, white_dice, faces) == (self.game, self.white_dice, self.die_faces):
                return
            self._script.clear()
            self._scene = self._scene.replace(dice=(), hand=None, card=None, laid=())
            self._pool = list(COMBOS)
            self._pips = PipScene(size=(self.width, self.height), maker=dice)
            self.game, self.white_dice, self.die_faces, self._dice = game, white_dice, faces, dice

    @property
    def settled(self) -> bool:
        """No hand, die or card is moving (every scripted frame has been shown)."""
        with self._lock:
            return not self._script

    @property
    def pending_frames(self) -> int:
        """Scripted frames (a hand, tumbling dice, a card going down) not shown yet."""
        with self._lock:
            return len(self._script)

    @property
    def dice_left(self) -> int:
        """Dice not cast yet this turn (the other games throw all their dice at once)."""
        with self._lock:
            if self._dice is not None:
                return 0 if self._pips.dice else len(self._pip_set())
            return len(self._pool)

    def _options(self) -> dict:
        return {"white_dice": self.white_dice, "faces": self.die_faces}

    def _pip_set(self) -> list[tuple[str, str]]:
        """(game, body colour) of every die of the current game."""
        return [(self.game, colour) for colour in self._dice.dice_set(self._options())]

    def _pip_face(self, kind: str, colour: str) -> tuple[str, int | None, str | None]:
        return self._dice.face(self._rng, colour, self._options())

    def _roll_pips(self) -> list[str]:
        from rig.vision.render_pips import place_dice

        if self._pips.dice:
            raise RigError("virtual table: take the dice out first (the last throw is still in the box)")
        w, h = self.width, self.height
        k = w / 640.0
        size = self._dice.size * k
        dice_set = self._pip_set()
        spots = place_dice(self._rng, len(dice_set), size, (h, w))
        for step in range(self.tumble_frames):
            t = (step + 1) / (self.tumble_frames + 1)
            moving = []
            for (kind, colour), (x, y) in zip(dice_set, spots):
                shown, pips, dot = self._pip_face(kind, colour)
                moving.append(PipDie(kind, shown, pips, dot, w / 2 + (x - w / 2) * t + self._rng.normal(0, 0.3 * size),
                                     h / 2 + (y - h / 2) * t + self._rng.normal(0, 0.3 * size),
                                     float(self._rng.uniform(0, math.pi / 2)), size))
            hand = (w / 2, h * (0.9 - 0.2 * step)) if step < 2 else None
            self._push(replace(self._pips, dice=tuple(moving), hand=hand))
        settled = []
        for (kind, colour), (x, y) in zip(dice_set, spots):
            shown, pips, dot = self._pip_face(kind, colour)
            settled.append(PipDie(kind, shown, pips, dot, float(x), float(y),
                                  float(self._rng.uniform(0, math.pi / 2)), size * float(self._rng.uniform(0.95, 1.05))))
        self._pips = replace(self._pips, dice=tuple(settled), hand=None)
        return [d.face for d in settled]

    def roll(self, n_dice: int) -> list[str]:
        """Cast ``n_dice`` more dice: a hand comes in, they tumble, they settle. Returns their faces."""
        with self._lock:
            if self._dice is not None:
                return self._roll_pips()
            n = int(n_dice)
            if n < 1:
                raise RigError(f"virtual table: roll at least one die, not {n}")
            if not self._pool:
                raise RigError("virtual table: all six dice are out, nothing left to roll")
            if n > len(self._pool):
                left = len(self._pool)
                raise RigError(f"virtual table: only {left} {'die' if left == 1 else 'dice'} left to roll, not {n}")
            side = self._scene.die_side
            combos = [self._pool.pop() for _ in range(n)]
            faces = [str(self._rng.choice(["blue", "pink", "yellow", "blank", "blank", c])) for c in combos]
            targets = self._free_spots(n, [(d.x, d.y) for d in self._scene.dice])
            drop_x, drop_y = np.mean(targets, axis=0)
            edge = self._edge_point(drop_x, drop_y)
            for k in (0.4, 0.8):
                self._push(self._scene.replace(hand=self._hand_at(edge, (drop_x, drop_y), k)))
            for k in range(self.tumble_frames):
                t = (k + 1) / (self.tumble_frames + 1)
                moving = tuple(
                    self._render.PlacedDie(
                        str(self._rng.choice(["blue", "pink", "yellow", "blank"])),
                        drop_x + (tx - drop_x) * t + self._rng.normal(0, 0.3 * side),
                        drop_y + (ty - drop_y) * t + self._rng.normal(0, 0.3 * side),
                        float(self._rng.uniform(0, 90)),
                    )
                    for tx, ty in targets
                )
                hand = self._hand_at(edge, (drop_x, drop_y), 0.6 - 0.3 * k) if k < 2 else None
                self._push(self._scene.replace(dice=self._scene.dice + moving, hand=hand))
            new = tuple(
                self._render.PlacedDie(face, float(x), float(y), float(self._rng.uniform(0, 90)))
                for face, (x, y) in zip(faces, targets)
            )
            self._scene = self._scene.replace(dice=self._scene.dice + new, hand=None)
            return faces

    def knock(self, index: int | None = None) -> tuple[str, str]:
        """Bump a settled die (``index`` in the box's order, default a random one): it slides
        about a die width and lands on another face. Returns ``(old_face, new_face)``."""
        with self._lock:
            if self._dice is not None:
                raise RigError(f"virtual table: knocking a die is simulated for {registry.DEFAULT} only, not {self.game}")
            dice = list(self._scene.dice)
            if not dice:
                raise RigError("virtual table: no die in the box to knock")
            i = int(self._rng.integers(len(dice))) if index is None else int(index)
            if not 0 <= i < len(dice):
                raise RigError(f"virtual table: no die number {i} (the box has {len(dice)})")
            old = dice[i]
            others = [(d.x, d.y) for j, d in enumerate(dice) if j != i]
            (x, y), = self._free_spots(1, others, near=(old.x, old.y))
            face = str(self._rng.choice([f for f in ("blue", "pink", "yellow", "blank") if f != old.face]))
            for k in (0.35, 0.7):
                bumped = old.__class__(face if k > 0.5 else old.face, old.x + (x - old.x) * k, old.y + (y - old.y) * k,
                                       old.angle + 30 * k)
                self._push(self._scene.replace(dice=tuple(dice[:i] + [bumped] + dice[i + 1:])))
            dice[i] = old.__class__(face, float(x), float(y), float(self._rng.uniform(0, 90)))
            self._scene = self._scene.replace(dice=tuple(dice))
            return old.face, face

    def clear(self) -> None:
        """Take every die out of the box (a new turn); all six can be rolled again."""
        with self._lock:
            if self._dice is not None:
                if self._pips.dice:
                    w, h = self._pips.size
                    self._push(replace(self._pips, hand=(w / 2, h / 2)))
                    self._push(replace(self._pips, dice=self._pips.dice[: len(self._pips.dice) // 2],
                                       hand=(w / 2, 0.8 * h)))
                self._pips = replace(self._pips, dice=(), hand=None)
                return
            dice = self._scene.dice
            if dice:
                cx, cy = np.mean([(d.x, d.y) for d in dice], axis=0)
                edge = self._edge_point(cx, cy)
                self._push(self._scene.replace(hand=self._hand_at(edge, (cx, cy), 0.9)))
                self._push(self._scene.replace(dice=dice[: len(dice) // 2], hand=self._hand_at(edge, (cx, cy), 0.7)))
                self._push(self._scene.replace(dice=(), hand=self._hand_at(edge, (cx, cy), 0.3)))
            self._scene = self._scene.replace(dice=(), hand=None)
            self._pool = list(COMBOS)
            self._rng.shuffle(self._pool)

    def reach(self, frames: int = 5) -> None:
        """A hand reaches in over the box and goes again, touching nothing (a player pointing)."""
        with self._lock:
            x0, y0, x1, y1 = self._render.floor_rect(self._scene.size)
            target = (float(self._rng.uniform(x0, x1)), float(self._rng.uniform(y0, y1)))
            edge = self._edge_point(*target)
            n = max(2, int(frames))
            for k in range(n):
                depth = 1.0 - abs(2.0 * (k + 0.5) / n - 1.0)  # in, then out again
                self._push(self._scene.replace(hand=self._hand_at(edge, target, 0.2 + 0.8 * depth)))

    def drop(self) -> None:
        """Simulate the camera being unplugged: ``frames()`` raises, ``start()`` fails."""
        self._dropped = True

    def restore(self) -> None:
        """Plug the simulated camera back in."""
        self._dropped = False

    # -- the frame source ------------------------------------------------------------------
    def _open(self) -> None:
        if self._dropped:
            raise HardwareError("camera virtual: not connected (simulated unplug)")
        self._next_wall_us = now_us()

    def _read(self) -> tuple[int, np.ndarray]:
        if self._dropped:
            raise CameraLostError("camera virtual: no frames (simulated unplug)")
        with self._lock:
            pips = self._dice is not None
            scene = self._script.popleft() if self._script else (self._pips if pips else self._scene)
            index = self._frame_index
            self._frame_index += 1
        if isinstance(scene, PipScene):
            still = self._still
            if still is not None and still[0] is scene:
                frame = still[1].copy()
            else:
                frame = scene.render(self.seed * 1_000_003 + index)
                if scene is self._pips:
                    self._still = (scene, frame)
        else:
            frame = self._render.render_scene(scene, size=(self.width, self.height),
                                              seed=self.seed * 1_000_003 + index)
        interval = round(1e6 / self.fps)
        if not self.realtime:
            self._clock_us += interval
            return self._clock_us, frame
        self._next_wall_us += interval
        delay = self._next_wall_us - now_us()
        if delay > 0:
            time.sleep(delay / 1e6)
        else:
            self._next_wall_us = now_us()  # fell behind: don't try to catch up with a burst
        return now_us(), frame

    # -- helpers ---------------------------------------------------------------------------
    def _empty_scene(self):
        render = self._render
        k = self.width / 640.0
        return render.Scene(
            dice=(), lighting=render.LIGHTINGS[self.lighting], size=(self.width, self.height),
            die_side=render.DIE_SIDE * k, texture_seed=self.seed,
        )

    def configure(self, *, width: int | None = None, height: int | None = None, fps: float | None = None) -> None:
        """Change the frame rate any time; the frame size only while the box is empty."""
        with self._lock:
            if (width or self.width, height or self.height) != (self.width, self.height):
                if self._scene.dice or self._script:
                    raise RigError("virtual table: change the frame size while the box is empty")
                super().configure(width=width, height=height)
                self._scene = self._empty_scene()
                self._pips = PipScene(size=(self.width, self.height))
            super().configure(fps=fps)

    def _push(self, scene) -> None:
        self._script.append(scene)

    def _edge_point(self, x: float, y: float) -> tuple[float, float]:
        w, h = self._scene.size
        edges = {(x, h + 0.0): h - y, (x, 0.0): y, (0.0, y): x, (w + 0.0, y): w - x}
        return min(edges, key=edges.get)

    def _hand_at(self, edge: tuple[float, float], target: tuple[float, float], k: float):
        return self._render.Hand(edge[0] + (target[0] - edge[0]) * k, edge[1] + (target[1] - edge[1]) * k)

    def _free_spots(self, n: int, taken: list[tuple[float, float]], *, near: tuple[float, float] | None = None,
                    clearance: float = 1.6) -> list[tuple[float, float]]:
        """``n`` die centres on the floor at least ``clearance`` die sides from each other and ``taken``."""
        side = self._scene.die_side
        x0, y0, x1, y1 = self._render.floor_rect(self._scene.size)
        margin = 0.8 * side * max(1.0, clearance / 1.6)
        spots: list[tuple[float, float]] = []
        for _ in range(n):
            for attempt in range(2000):
                if near is not None and attempt < 1000:
                    a = self._rng.uniform(0, 2 * math.pi)
                    r = self._rng.uniform(1.2, 2.5) * side
                    x, y = near[0] + r * math.cos(a), near[1] + r * math.sin(a)
                else:
                    x, y = self._rng.uniform(x0 + margin, x1 - margin), self._rng.uniform(y0 + margin, y1 - margin)
                if not (x0 + margin <= x <= x1 - margin and y0 + margin <= y <= y1 - margin):
                    continue
                if all(math.hypot(x - a, y - b) >= clearance * side for a, b in taken + spots):
                    spots.append((float(x), float(y)))
                    break
            else:
                raise RigError("virtual table: no free place left in the box")
        return spots
