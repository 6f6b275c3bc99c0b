"""Roll tracking: from a stream of frames to the turn's rolls and their rule violations.

The roller must *roll exactly three times to cast all six dice, at least one die each time,
and not re-roll any dice*. :class:`RollTracker` watches the frame stream for that:

1. **Motion** — each frame is shrunk to a small blurred grey image and compared with the
   previous one (:func:`motion_fraction`); a hand or tumbling dice change many pixels.
2. **Settle** — after ``settle_frames`` quiet frames the box is read on the next
   ``vote_frames`` frames, and the readings are **voted** (:func:`vote_readings`): a die must
   be seen in most frames and takes its most frequent face, so one noisy frame changes nothing.
3. **Compare** with the dice as last settled: more dice → a roll (:class:`RollSettled`); a
   settled die moved or changed face → ``knocked_die``; fewer than six dice after the third
   roll, a fourth roll that moved settled dice, dice moved without a new one (``no_new_die``)
   → :class:`Violation` (fewer than six after the last roll also makes that reading uncertain:
   a die may lie hidden in shade); more dice after the last roll beside dice that lay still →
   :class:`DiceAppeared` (hidden before, or thrown in a roll too many: the players are asked);
   nothing changed (a hand, a card tossed in) → :class:`RollCancelled`.

The tracker is pure logic over ``(t_us, frame)`` and takes the dice reader as a parameter
(normally ``lambda frame: rig.vision.dice.read_dice(frame, profile)``), so it runs the same on
the Pi camera, a replay and the virtual table. The camera driver with loss/retry is
:class:`rig.hardware.camera.CameraWatcher`.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rig.errors import RigError
from rig.vision.roll_events import (  # noqa: F401 - moved (issue 29); the old import path works
    RollStarted, RollSettled, RollCancelled, BoxCleared, Violation, CameraLost, CameraRecovered,
    DiceAppeared, VIOLATION_KINDS, not_all_cast, rolls_over, thrown_unseen,
)


# -- settings ----------------------------------------------------------------------------
@dataclass(frozen=True)
class TrackerSettings:
    """Thresholds of the tracker (defaults suit 10–30 fps and dice 40–100 px wide).

    ``motion_level``: change of a colour channel (0–255) that counts a pixel as changed;
    ``motion_fraction``: share of changed pixels that counts a frame as moving;
    ``settle_frames``: quiet frames before reading; ``vote_frames``: readings voted;
    ``move_tolerance``: a die that moved more than this many die widths is a different die;
    ``reroll_distance``: dice moved further than this many widths without a new die were re-rolled;
    ``rolls`` and ``dice``: the game's three rolls to cast six dice.
    """

    motion_level: int = 12
    motion_fraction: float = 0.001
    motion_width: int = 160
    settle_frames: int = 2
    vote_frames: int = 3
    move_tolerance: float = 0.4
    reroll_distance: float = 2.5
    default_die_px: float = 48.0
    rolls: int = 3
    dice: int = 6

    @classmethod
    def from_mapping(cls, values: dict[str, Any]) -> TrackerSettings:
        """Settings from a config table; unknown keys are a :class:`RigError` naming them."""
        names = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - set(names))
        if unknown:
            raise RigError(f"roll tracking: unknown setting(s) {', '.join(unknown)} (known: {', '.join(names)})")
        out = {}
        for key, value in values.items():
            kind = int if names[key].type in ("int", int) else float
            try:
                out[key] = kind(value)
            except (TypeError, ValueError):
                raise RigError(f"roll tracking: {key} must be a number, not {value!r}") from None
        return cls(**out)


# -- pure helpers ------------------------------------------------------------------------
def motion_signature(frame: np.ndarray, width: int = 160) -> np.ndarray:
    """A small blurred copy of ``frame`` to compare frames cheaply and without sensor noise.

    Colour is kept: the violet dice differ from the grey box more in colour than in
    brightness, which matters in dim light.
    """
    import cv2

    h, w = frame.shape[:2]
    scale = width / float(w)
    small = cv2.resize(frame, (width, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (5, 5), 0)


def motion_fraction(previous: np.ndarray, current: np.ndarray, level: int = 12) -> float:
    """Share of pixels where some channel changed by more than ``level`` between two signatures.

    >>> a = np.zeros((10, 10), np.uint8); b = a.copy(); b[:2, :5] = 200
    >>> motion_fraction(a, b)
    0.1
    >>> motion_fraction(a, a)
    0.0
    """
    if previous.shape != current.shape:
        return 1.0
    diff = np.abs(previous.astype(np.int16) - current.astype(np.int16))
    if diff.ndim == 3:
        diff = diff.max(axis=2)
    return float(np.count_nonzero(diff > level)) / diff.size


def die_size(dice: Sequence[Any], default: float = 48.0) -> float:
    """The typical die width in pixels (median of the boxes' longer sides)."""
    sides = [max(d.box[2], d.box[3]) for d in dice if getattr(d, "box", None)]
    return float(np.median(sides)) if sides else default


def match_dice(before: Sequence[Any], after: Sequence[Any], tolerance: float) -> list[tuple[int, int]]:
    """Pair dice of two readings that lie within ``tolerance`` px of each other, nearest first.

    >>> from types import SimpleNamespace as D
    >>> match_dice([D(x=0, y=0), D(x=100, y=0)], [D(x=101, y=2), D(x=300, y=0)], 10)
    [(1, 0)]
    """
    pairs = []
    for i, a in enumerate(before):
        for j, b in enumerate(after):
            d = math.hypot(a.x - b.x, a.y - b.y)
            if d <= tolerance:
                pairs.append((d, i, j))
    pairs.sort()
    used_i: set[int] = set()
    used_j: set[int] = set()
    out = []
    for _, i, j in pairs:
        if i not in used_i and j not in used_j:
            used_i.add(i)
            used_j.add(j)
            out.append((i, j))
    return sorted(out)


def vote_readings(readings: Sequence[Any], tolerance: float | None = None) -> Any:
    """One reading from several of the same settled box: a die counts if most frames see it,
    and takes its most frequent face (ties: the more confident face).

    The result is the first reading with its ``dice``, ``status`` and ``reasons`` replaced
    (``dataclasses.replace``), so it has the dice reader's own type.
    """
    if not readings:
        raise ValueError("vote_readings needs at least one reading")
    n = len(readings)
    if tolerance is None:
        tolerance = 0.4 * die_size([d for r in readings for d in r.dice])
    clusters: list[list[Any]] = []
    for reading in readings:
        taken: set[int] = set()
        for die in reading.dice:
            best, best_d = None, tolerance
            for k, cluster in enumerate(clusters):
                if k in taken:
                    continue
                cx = float(np.median([d.x for d in cluster]))
                cy = float(np.median([d.y for d in cluster]))
                dist = math.hypot(die.x - cx, die.y - cy)
                if dist <= best_d:
                    best, best_d = k, dist
            if best is None:
                clusters.append([die])
                taken.add(len(clusters) - 1)
            else:
                clusters[best].append(die)
                taken.add(best)
    dice = []
    split = []
    for cluster in clusters:
        if len(cluster) * 2 <= n:
            continue
        counts = Counter(str(d.face) for d in cluster)
        conf = Counter()
        for d in cluster:
            conf[str(d.face)] += float(getattr(d, "confidence", 1.0))
        face = max(counts, key=lambda f: (counts[f], conf[f]))
        winners = [d for d in cluster if str(d.face) == face]
        best = max(winners, key=lambda d: float(getattr(d, "confidence", 1.0)))
        changes = {"x": type(best.x)(np.median([d.x for d in cluster])),
                   "y": type(best.y)(np.median([d.y for d in cluster]))}
        if hasattr(best, "confidence"):
            changes["confidence"] = round(conf[face] / n, 3)
        dice.append(_replace(best, **changes))
        if counts[face] * 2 <= n:
            split.append(f"frames disagree on the die at ({best.x:.0f}, {best.y:.0f})")
    dice.sort(key=lambda d: (d.y, d.x))
    statuses = Counter(str(getattr(r, "status", "ok")) for r in readings)
    status = "ok" if statuses["ok"] * 2 > n and not split else "uncertain"
    reasons: list[str] = []
    if status != "ok":
        for r in readings:
            for reason in getattr(r, "reasons", ()):
                if reason not in reasons:
                    reasons.append(reason)
        reasons.extend(split)
    return _replace(readings[0], dice=tuple(dice), status=status, reasons=tuple(reasons))


def _replace(obj: Any, **changes: Any) -> Any:
    if dataclasses.is_dataclass(obj):
        fields = {f.name for f in dataclasses.fields(obj)}
        return dataclasses.replace(obj, **{k: v for k, v in changes.items() if k in fields})
    clone = type(obj).__new__(type(obj))
    clone.__dict__.update(vars(obj))
    clone.__dict__.update(changes)
    return clone


def _where(die: Any) -> str:
    return f"({die.x:.0f}, {die.y:.0f})"


def place_in_box(x: float, y: float, size: tuple[int, int] | None) -> str:
    """Where a die lies, in words for the players: ``top left``, ``bottom``, ``middle``.

    >>> place_in_box(60, 60, (480, 360)), place_in_box(240, 180, (480, 360)), place_in_box(460, 300, (480, 360))
    ('top left', 'middle', 'bottom right')
    """
    if not size or not size[0] or not size[1]:
        return "in the box"
    w, h = size
    row = "top" if y < h / 3 else "bottom" if y >= 2 * h / 3 else ""
    col = "left" if x < w / 3 else "right" if x >= 2 * w / 3 else ""
    return " ".join(part for part in (row, col) if part) or "middle"


# -- the tracker -------------------------------------------------------------------------
@dataclass(frozen=True)
class EmptyReading:
    """A sure reading of an empty box."""

    dice: tuple = ()
    status: str = "ok"
    reasons: tuple = ()


Event = RollStarted | RollSettled | RollCancelled | BoxCleared | Violation | CameraLost | CameraRecovered


class RollTracker:
    """Follow one roller's rolls through the frame stream.

    ``read(frame, *, thrown=None) -> DiceReading`` is the dice reader (:mod:`rig.vision.readers`). Feed every frame with
    :meth:`feed`; it returns the events that frame caused (usually none).

    >>> tracker = RollTracker(read=lambda frame, thrown=None: EmptyReading())
    >>> tracker.feed(0, np.zeros((48, 64, 3), np.uint8))
    []
    >>> tracker
    <RollTracker roll 0, 0 dice, quiet>
    """

    def __init__(
        self,
        read: Callable[..., Any],
        settings: TrackerSettings | None = None,
        *,
        baseline: Any | None = None,
        roll: int = 0,
    ) -> None:
        self.read = read
        self.settings = settings or TrackerSettings()
        self.reading = baseline if baseline is not None else EmptyReading()
        self.roll = int(roll)
        self.moving = False
        self._previous: np.ndarray | None = None
        self._quiet = 0
        self._votes: list[Any] = []
        self._decided = False
        self._lock = threading.RLock()  # the runner steers it while the camera thread feeds it

    def __repr__(self) -> str:
        state = "moving" if self.moving else "quiet"
        return f"<RollTracker roll {self.roll}, {len(self.reading.dice)} dice, {state}>"

    # -- control from the runner ---------------------------------------------------------
    def new_turn(self) -> None:
        """A new turn starts: count rolls from zero (the dice still in the box are the baseline)."""
        with self._lock:
            self.roll = 0

    def resume(self, reading: Any, roll: int) -> None:
        """Carry on after a restart: ``reading`` is the last settled reading, ``roll`` its roll."""
        with self._lock:
            self.reading = reading
            self.roll = int(roll)
            self.reset_motion()

    def reset_motion(self) -> None:
        """Forget the previous frame (after a camera gap); the box is re-read once it is quiet."""
        with self._lock:
            self._previous = None
            self._quiet = 0
            self._votes = []
            self._decided = False

    # -- the frame stream ----------------------------------------------------------------
    def feed(self, t_us: int, frame: np.ndarray) -> list[Event]:
        """Take one frame; return the events it caused."""
        with self._lock:
            return self._feed(t_us, frame)

    def _feed(self, t_us: int, frame: np.ndarray) -> list[Event]:
        s = self.settings
        self._size = (int(frame.shape[1]), int(frame.shape[0]))  # for saying where a die lies
        signature = motion_signature(frame, s.motion_width)
        previous, self._previous = self._previous, signature
        if previous is None:
            self._quiet = 0
            return []
        if motion_fraction(previous, signature, s.motion_level) > s.motion_fraction:
            self._quiet = 0
            self._votes.clear()
            self._decided = False
            if not self.moving:
                self.moving = True
                return [RollStarted(t_us)]
            return []
        self._quiet += 1
        if self._decided or self._quiet < s.settle_frames:
            return []
        try:
            self._votes.append(self.read(frame))
        except RigError:
            return []  # an unreadable frame is simply not a vote
        if len(self._votes) < s.vote_frames:
            return []
        reading = self._look_again(frame, vote_readings(self._votes, self._tolerance(self._votes[0].dice)))
        self._votes.clear()
        self._decided = True
        events = self._decide(t_us, reading)
        self.moving = False
        return events

    def _look_again(self, frame: np.ndarray, reading: Any) -> Any:
        """After the last roll every one of the game's dice is in the box ("exactly three rolls must bring all
        six dice"): a reading short of them is read again from the settled frame, the reader told how many
        were thrown (the frog reader then looks for a die in a wall's deep shade), and kept when it sees more."""
        s = self.settings
        roll = self.roll + (len(reading.dice) > len(self.reading.dice))  # the roll this reading would settle
        if roll < s.rolls or len(reading.dice) >= s.dice:
            return reading
        try:
            again = self.read(frame, thrown=s.dice)
        except RigError:
            return reading
        return again if len(again.dice) > len(reading.dice) else reading

    def _tolerance(self, dice: Sequence[Any]) -> float:
        size = die_size(list(self.reading.dice) + list(dice), self.settings.default_die_px)
        return self.settings.move_tolerance * size

    def _decide(self, t_us: int, new: Any) -> list[Event]:
        s = self.settings
        old = self.reading
        before, after = list(old.dice), list(new.dice)
        added = len(after) - len(before)
        size = die_size(before + after, s.default_die_px)
        pairs = match_dice(before, after, s.move_tolerance * size)
        kept = {i for i, _ in pairs}
        landed = {j for _, j in pairs}
        moved = [before[i] for i in range(len(before)) if i not in kept]
        new, adopted = self._merge(new, before, pairs)
        after = list(new.dice)
        started = [] if self.moving else [RollStarted(t_us)]

        if not after and before and str(getattr(new, "status", "ok")) == "ok":
            self.reading, self.roll = new, 0
            return [BoxCleared(t_us)]
        if added > 0 and self.roll >= s.rolls and not moved and len(after) <= s.dice:
            # after the last roll, beside dice that lay still: hidden before, or thrown in a roll too many?
            self.reading = new
            if_thrown = ((("not_all_dice_after_three", not_all_cast(len(before), s.dice, self.roll)),)
                         if self.roll == s.rolls else ()) + (("fourth_roll", rolls_over(self.roll + 1, s.rolls)),)
            return started + [RollSettled(t_us, new, self.roll, 0), DiceAppeared(t_us, len(before), len(after), if_thrown)]
        if added > 0:
            self.roll += 1
            why = thrown_unseen(len(after), s.dice)
            if self.roll >= s.rolls and len(after) < s.dice and why not in getattr(new, "reasons", ()):
                # all dice are cast by now: one may lie hidden
                new = _replace(new, status="uncertain", reasons=(*getattr(new, "reasons", ()), why))
            self.reading = new
            events = started + [RollSettled(t_us, new, self.roll, added)]
            if self.roll > 1 and moved:
                events.append(Violation(t_us, "knocked_die", self._describe(moved, after, landed)))
            if self.roll > s.rolls:
                events.append(Violation(t_us, "fourth_roll", rolls_over(self.roll, s.rolls)))
            if self.roll == s.rolls and len(after) < s.dice:
                events.append(Violation(
                    t_us, "not_all_dice_after_three", not_all_cast(len(after), s.dice, self.roll)))
            return events
        if added < 0:
            if self.roll == 0:
                self.reading = new  # dice being picked up for the next turn
                return [RollCancelled(t_us, "dice taken out before the first roll")] if self.moving else []
            reason = f"{-added} dice hidden or taken out; the last reading stands"
            return [RollCancelled(t_us, reason)] if self.moving else []
        if not moved:
            if adopted and self.roll > 0:
                self.reading = new  # the reader is surer now of a die that did not move
                return started + [RollSettled(t_us, new, self.roll, 0)]
            return [RollCancelled(t_us, "no die changed (a hand or a card in view)")] if self.moving else []
        self.reading = new
        if self.roll == 0:
            return [RollCancelled(t_us, "dice moved before the first roll")] if self.moving else []
        far = s.reroll_distance * size
        rerolled = all(
            min((math.hypot(d.x - after[j].x, d.y - after[j].y) for j in range(len(after)) if j not in landed),
                default=0.0) > far
            for d in moved
        )
        kind = "no_new_die" if rerolled else "knocked_die"
        detail = self._describe(moved, after, landed, follow=True)
        if rerolled:
            detail = f"dice rolled again without a new die: {detail}"
        return started + [RollSettled(t_us, new, self.roll, 0), Violation(t_us, kind, detail)]

    def _merge(self, new: Any, before: list[Any], pairs: list[tuple[int, int]]) -> tuple[Any, bool]:
        """Dice that did not move cannot have turned over: where the reader now sees another face
        on one, keep the more confident of the two readings and flag the reading uncertain.
        Returns the merged reading and whether any die took its new face."""
        dice = list(new.dice)
        notes: list[str] = []
        adopted = False
        for i, j in pairs:
            b, a = before[i], dice[j]
            if str(b.face) == str(a.face):
                continue
            if float(getattr(b, "confidence", 0.0)) >= float(getattr(a, "confidence", 0.0)):
                dice[j] = b
            else:
                adopted = True
            notes.append(f"the die at {_where(a)} read {b.face} before and {a.face} now without moving")
        if len(dice) > self.settings.dice:
            notes.append(f"{len(dice)} dice seen, the game has {self.settings.dice}")
        if not notes:
            return new, False
        reasons = tuple(getattr(new, "reasons", ())) + tuple(notes)
        return _replace(new, dice=tuple(dice), status="uncertain", reasons=reasons), adopted

    def _describe(self, moved: list[Any], after: list[Any], landed: set[int], *, follow: bool = False) -> str:
        """Say which dice moved, in words (``the pink die, top left, moved``); ``follow``: no die was
        added, so each went to the nearest unexplained place."""
        size = getattr(self, "_size", None)
        parts = []
        free = [j for j in range(len(after)) if j not in landed]
        for b in moved:
            where = place_in_box(b.x, b.y, size)
            if follow and free:
                j = min(free, key=lambda k: math.hypot(after[k].x - b.x, after[k].y - b.y))
                free.remove(j)
                a = after[j]
                shows = f" and now shows {a.face}" if str(a.face) != str(b.face) else ""
                there = place_in_box(a.x, a.y, size)
                to = "" if there == where else f" to the {there}" if there == "middle" else f" to {there}"
                parts.append(f"the {b.face} die, {where}, moved{to}{shows}")
            else:
                parts.append(f"the {b.face} die, {where}, moved")
        return "; ".join(parts)
