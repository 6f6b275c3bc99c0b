"""Scoring a pip-dice reader against labelled photos and rendered frames: the confusion of pips read
against pips true, found and missed dice, the flags that caught an error (issue 29: split from
:mod:`rig.bench.pips`, which re-exports every name).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterable

from rig.bench.pip_photos import Photo


class Confusion:
    """Rows: true pips 1–6; columns: read 0 (none), 1–6, 7+ (too many)."""

    COLUMNS = ("0", "1", "2", "3", "4", "5", "6", "7+")

    def __init__(self) -> None:
        self.counts = [[0] * len(self.COLUMNS) for _ in range(6)]
        self.missed = [0] * 6

    def add(self, truth: int, read: int | None) -> None:
        if read is None:
            self.missed[truth - 1] += 1
        else:
            self.counts[truth - 1][min(read, 7)] += 1

    @property
    def total(self) -> int:
        return sum(map(sum, self.counts)) + sum(self.missed)

    @property
    def correct(self) -> int:
        return sum(self.counts[i][i + 1] for i in range(6))

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else float("nan")

    def format(self, *, with_missed: bool = False) -> str:
        head = "truth\\read " + " ".join(f"{c:>4}" for c in self.COLUMNS) + ("  miss" if with_missed else "")
        rows = [head]
        for i, row in enumerate(self.counts):
            rows.append(f"{i + 1:>10} " + " ".join(f"{v:>4}" for v in row)
                        + (f"  {self.missed[i]:>4}" if with_missed else ""))
        return "\n".join(rows)


def evaluate_boxes(photos: Iterable[Photo], params, images: dict) -> tuple[Confusion, float]:
    """Count pips inside every labelled box; returns the confusion matrix and ms per die."""
    from rig.vision.pips import count_pips_in_box

    cm, spent, n = Confusion(), 0.0, 0
    for photo in photos:
        frame = images[photo.path]
        for die in photo.dice:
            t0 = time.perf_counter()
            read = count_pips_in_box(frame, die.box, params).pips
            spent += time.perf_counter() - t0
            n += 1
            cm.add(die.pips, read)
    return cm, 1000 * spent / max(1, n)


@dataclass(frozen=True)
class Flags:
    """How the reader's ``uncertain`` flag lines up with being wrong (found dice only)."""

    silent: int = 0  # found, read wrong, status "ok": the errors nobody is warned about
    flagged_wrong: int = 0  # read wrong and flagged uncertain
    flagged_right: int = 0  # read right but flagged uncertain


@dataclass(frozen=True)
class FrameFlags:
    """Whole frames, the dice count known (the labels'): a frame is flagged when a die is flagged or
    the count is off; it is wrong when a die is missed, extra or misread."""

    frames: int = 0
    flagged: int = 0
    silent: int = 0  # wrong but not flagged


def _centre(box) -> tuple[float, float]:
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def centre_in(die, box) -> bool:
    """Whether the centre of ``die``'s box (x, y, w, h) lies in ``box``."""
    x, y, w, h = box
    cx, cy = _centre(die.box)
    return x <= cx <= x + w and y <= cy <= y + h


def match_labelled(labels, found) -> list[int | None]:
    """For each labelled die (``.box`` x, y, w, h), the index of the found die (``.box``) given to it, or None:
    a found box may answer for a label whose centre it holds, each box for one label at most, the pairs taken
    nearest centres first. Giving each label in turn the first box holding its centre charged a right box to a
    neighbour whose centre it also held (coloured ``111628`` at drawn-things seed 8: a box on a red 6 read 6,
    the blue 1 beside it listed first and its centre inside the 6's box, booked "a 1 read as 6, ok" and the 6
    missed; issue 25, round 27)."""
    pairs = []
    for j, die in enumerate(labels):
        cx, cy = _centre(die.box)
        for i, f in enumerate(found):
            if centre_in(die, f.box):
                fx, fy = _centre(f.box)
                pairs.append(((fx - cx) ** 2 + (fy - cy) ** 2, j, i))
    hits: list[int | None] = [None] * len(labels)
    taken: set[int] = set()
    for _, j, i in sorted(pairs):
        if hits[j] is None and i not in taken:
            hits[j] = i
            taken.add(i)
    return hits


def evaluate_find(photos: Iterable[Photo], params, images: dict, *, reader=None) -> tuple[Confusion, int, float, Flags]:
    """Find dice without labels: each label matched to a found die containing its centre
    (a found die matches one label at most, nearest centres first: :func:`match_labelled`).

    Returns the confusion matrix (unmatched labels in the "miss" column), the number of
    found dice matching no label, ms per frame, and the :class:`Flags` counts.
    """
    return evaluate_frames(photos, params, images, reader=reader)[:4]


def evaluate_frames(photos: Iterable[Photo], params, images: dict, *,
                    reader=None) -> tuple[Confusion, int, float, Flags, FrameFlags]:
    """:func:`evaluate_find` and the :class:`FrameFlags` counts."""
    from rig.vision.pips import find_pip_dice

    reader = reader or find_pip_dice
    cm, extra, spent, frames, flags, frame_flags = Confusion(), 0, 0.0, 0, [0, 0, 0], [0, 0]
    for photo in photos:
        t0 = time.perf_counter()
        found = reader(images[photo.path], params)
        spent += time.perf_counter() - t0
        frames += 1
        # one found die answers for one label at most: two dice found as one count one miss
        hits, frame_wrong = match_labelled(photo.dice, found), False
        used = {i for i in hits if i is not None}
        for die, hit in zip(photo.dice, hits):
            if hit is None:
                cm.add(die.pips, None)
                frame_wrong = True
            else:
                cm.add(die.pips, found[hit].pips)
                wrong, flagged = found[hit].pips != die.pips, found[hit].count.status != "ok"
                frame_wrong |= wrong
                if wrong or flagged:
                    flags[0 if not flagged else 1 if wrong else 2] += 1
        extra += len(found) - len(used)
        frame_flagged = len(found) != len(photo.dice) or any(f.count.status != "ok" for f in found)
        frame_flags[0] += frame_flagged
        frame_flags[1] += (frame_wrong or len(found) > len(used)) and not frame_flagged
    return cm, extra, 1000 * spent / max(1, frames), Flags(*flags), FrameFlags(frames, *frame_flags)


def evaluate_rendered(frames: int, params, *, seed: int = 0) -> dict[str, object]:
    """Rendered white pip dice: counted in their known boxes, and found without them."""
    from rig.vision.pips import count_pips_in_box, find_pip_dice
    from rig.vision.render_pips import render_pip_dice

    boxes, found = Confusion(), Confusion()
    for i in range(frames):
        frame, truth = render_pip_dice(seed + i)
        dice = find_pip_dice(frame, params)
        for t in truth:
            boxes.add(t.pips, count_pips_in_box(frame, t.box, params).pips)
            hit = [d for d in dice if abs(d.centre[0] - t.centre[0]) < t.box[2] / 2
                   and abs(d.centre[1] - t.centre[1]) < t.box[3] / 2]
            found.add(t.pips, hit[0].pips if hit else None)
    return {"boxes": boxes, "found": found}


def games_rendered(game: str | None, frames: int, params) -> list[str]:
    """The rendered benchmarks of ``game`` (None: of every game that has one): their report lines."""
    import importlib

    from rig import registry

    lines = []
    for each in registry.games() if game is None else [registry.get(game)]:
        if each.bench_rendered:
            module, _, function = each.bench_rendered.partition(":")
            lines += getattr(importlib.import_module(module), function)(frames, params)
    return lines
