"""Pip-reading accuracy: on the real photographs and on rendered frames.

Meant for ``rig bench vision --game NAME`` of the pip-dice games (``add_arguments`` / ``run``; a game's
own rendered benchmark, its :attr:`rig.registry.Game.bench_rendered`, follows); also runs as
``python -m rig.bench.pips``. The real photographs (``../shared/data/real-pip-dice``,
YOLO labels, class k = k+1 pips) are split by file number: numbers that are multiples of
3 are held out, the rest were used to tune ``calibration/pips.toml``. Both figures are
printed, for two modes: counting inside the labelled box, and finding the dice without
the labels (a die then counts as read only if found *and* counted right).

``rig bench vision --game pips`` (:func:`run_pips`) measures the colour-agnostic reader (the learned
nets of :mod:`rig.vision.dicenet`) on both photo sets, per split: dice found, read right, silent
wrong and flagged, whole frames flagged and wrong without a flag (the dice count known), the
confusion matrix, and with ``--overlays DIR`` the hardest held-out photos drawn.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Sequence

from rig import argtypes
from rig.errors import RigError
from rig.bench.pip_photos import (  # noqa: F401 - moved (issue 29); the old import path works
    PROJECT_ROOT, DEFAULT_DATA, DEFAULT_COLOUR_DATA, HELD_OUT_EVERY, COLOUR_HELD_OUT_MOD, _NAME,
    BenchDataError, LabelledDie, Photo, is_colour_held_out, is_held_out, parse_labels, load_photos,
)
from rig.bench.distractors import DISTRACTOR_SEEDS, report_distractor_seeds, report_distractors  # noqa: F401
from rig.bench.pip_scores import (  # noqa: F401 - moved (issue 29); the old import path works
    Confusion, evaluate_boxes, Flags, FrameFlags, evaluate_find, evaluate_frames, evaluate_rendered,
    games_rendered,
)


def read_any(frame, params):
    """The colour-agnostic reader (:func:`rig.vision.anydie.read_pip_dice`) as a list of dice."""
    from rig.vision.anydie import read_pip_dice

    return read_pip_dice(frame, params.anydie).dice


def by_split(photos: list[Photo]) -> tuple[tuple[str, list[Photo]], ...]:
    """("tuning", its photos), ("held-out", its photos)."""
    return ("tuning", [p for p in photos if not p.held_out]), ("held-out", [p for p in photos if p.held_out])


def report_find(name: str, photos: list[Photo], params, images: dict, reader) -> None:
    """Print found / read right / silent wrong / flag rate and the confusion matrix, per split."""
    for split, chosen in by_split(photos):
        cm, extra, ms, flags, frames = evaluate_frames(chosen, params, images, reader=reader)
        found = cm.total - sum(cm.missed)
        flagged = flags.flagged_wrong + flags.flagged_right
        print(f"\n[{name}, {split}: {len(chosen)} photos] found {_pct(found, cm.total)}, "
              f"read right {_pct(cm.correct, cm.total)}, {extra} found dice match no label  ({ms:.1f} ms per frame)")
        print(f"  silent wrong (read wrong, marked ok) {_pct(flags.silent, found)} of found; "
              f"flagged uncertain {_pct(flagged, found)} of found ({flags.flagged_wrong} wrong, {flags.flagged_right} right)")
        print(f"  frames (dice count known) flagged {_pct(frames.flagged, frames.frames)}; "
              f"wrong and not flagged {_pct(frames.silent, frames.frames)}")
        print(cm.format(with_missed=True))


def hardest(photos: list[Photo], params, images: dict, reader, n: int) -> list[tuple[int, Photo, list]]:
    """The ``n`` photos with the most dice missed, misread or extra: (errors, photo, found dice)."""
    scored = []
    for photo in photos:
        found = list(reader(images[photo.path], params))
        cm, extra, _, _ = evaluate_find([photo], params, images, reader=lambda frame, q: found)
        scored.append((cm.total - cm.correct + extra, photo, found))
    return sorted(scored, key=lambda t: -t[0])[:n]


def draw_overlay(frame, photo: Photo, found) -> "object":
    """The photo with each label's pips (blue) and each found die: green read ok, orange flagged,
    red read wrong and marked ok."""
    import cv2

    out = frame.copy()
    for die in photo.dice:
        x, y, w, h = (int(round(v)) for v in die.box)
        cv2.putText(out, str(die.pips), (x + w + 2, y + h), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 120, 0), 1, cv2.LINE_AA)
    for f in found:
        x, y, w, h = f.box
        truth = [d.pips for d in photo.dice if x <= d.box[0] + d.box[2] / 2 <= x + w and y <= d.box[1] + d.box[3] / 2 <= y + h]
        colour = (0, 160, 255) if f.count.status != "ok" else (0, 200, 0) if f.pips in truth else (0, 0, 255)
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, 2)
        cv2.putText(out, str(f.pips), (x, max(10, y - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 2, cv2.LINE_AA)
    return out


def write_overlays(folder: Path, name: str, photos: list[Photo], params, images: dict, reader, n: int = 6) -> None:
    """The ``n`` hardest photos drawn (:func:`draw_overlay`) as PNG files in ``folder``."""
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    for errors, photo, found in hardest(photos, params, images, reader, n):
        path = folder / f"{name.replace(' ', '-')}-{photo.path.stem}.png"
        cv2.imwrite(str(path), draw_overlay(images[photo.path], photo, found))
        print(f"  overlay {path} ({errors} dice missed, misread or extra)")


def as_frame(photo: Photo, image, size: tuple[int, int] = (640, 480)) -> tuple[Photo, object]:
    """The photo scaled to fit a ``size`` (w, h) frame, centred, the rest its edges replicated; its labels moved along."""
    import cv2

    h, w = image.shape[:2]
    s = min(size[0] / w, size[1] / h)
    nw, nh = round(w * s), round(h * s)
    left, top = (size[0] - nw) // 2, (size[1] - nh) // 2
    small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
    frame = cv2.copyMakeBorder(small, top, size[1] - nh - top, left, size[0] - nw - left, cv2.BORDER_REPLICATE)
    dice = tuple(LabelledDie(d.pips, (left + x * s, top + y * s, bw * s, bh * s)) for d in photo.dice
                 for x, y, bw, bh in [d.box])
    return Photo(photo.path, photo.number, dice), frame


def report_as_640x480(name: str, photos: list[Photo], params, images: dict, reader) -> None:
    """One line per split for photos of another size seen as 640x480 frames (:func:`as_frame`): the
    per-frame target's size with every die of the photo still in view."""
    for split, some in by_split(photos):
        framed = [as_frame(p, images[p.path]) for p in some]
        chosen, frames = [p for p, _ in framed], {p.path: f for p, f in framed}
        cm, _, ms, flags, frame_flags = evaluate_frames(chosen, params, frames, reader=reader)
        found = cm.total - sum(cm.missed)
        print(f"[{name}, {split}, as 640x480 frames] found {_pct(found, cm.total)}, read right "
              f"{_pct(cm.correct, cm.total)}, silent wrong {_pct(flags.silent, found)}, frames flagged "
              f"{_pct(frame_flags.flagged, frame_flags.frames)}  ({ms:.1f} ms per frame, "
              f"{cm.total / max(1, len(chosen)):.1f} dice)")


#: ``--scales``: the photos' content scaled by these factors inside a frame of the photo's own size
SCALES = (0.4, 0.6, 1.0, 1.5)


def scaled_frame(photo: Photo, image, factor: float) -> tuple[Photo, object, tuple]:
    """The photo's content scaled by ``factor`` in a frame of the photo's own size: smaller, centred and
    its edges replicated out; larger, its centre cut out. Returns the photo with the labels moved (dice cut
    by the frame's edge left out), the frame, and the boxes of those cut dice (a die found there is
    neither required nor extra)."""
    import cv2

    h, w = image.shape[:2]
    nw, nh = round(w * factor), round(h * factor)
    big = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR)
    if factor <= 1:
        left, top = (w - nw) // 2, (h - nh) // 2
        frame = cv2.copyMakeBorder(big, top, h - nh - top, left, w - nw - left, cv2.BORDER_REPLICATE)
    else:
        left, top = -((nw - w) // 2), -((nh - h) // 2)
        frame = big[-top:-top + h, -left:-left + w]
    kept, cut = [], []
    for d in photo.dice:
        x, y, bw, bh = d.box
        box = (left + x * factor, top + y * factor, bw * factor, bh * factor)
        pad = 0.15 * max(box[2], box[3])  # the label covers the pips; the die reaches a little farther
        inside = box[0] - pad >= 0 and box[1] - pad >= 0 and box[0] + box[2] + pad <= w and box[1] + box[3] + pad <= h
        (kept if inside else cut).append(LabelledDie(d.pips, box))
    return Photo(photo.path, photo.number, tuple(kept)), frame, tuple(cut)


#: ``--scales``: how the dice's size is had: (label, the level's dice not brought to the finder's size, the size
#: learned from the first sure frame)
SIZE_MODES = (("no size hint", False, False), ("no size hint, not normalised (before)", True, False),
              ("size learned from the first sure frame", False, True))


def _size_reader(reader, plain: bool, learned: bool, params):
    """``reader`` with the pyramid's level read as it is (``plain``: no second pass at the size the finder reads
    best at, :meth:`rig.vision.dicenet.DiceNet.normalised`), or the dice's size learned from the first
    sure frame and kept (``learned``, :class:`rig.vision.readers.DieSize`; ``reader`` then unused)."""
    from rig.vision.anydie import read_pip_dice
    from rig.vision.dicenet import default_dicenet
    from rig.vision.readers import DieSize

    nets = default_dicenet()
    size = DieSize(params, None)

    def read(frame, q):
        if learned:
            return size.read(frame, lambda f, q: read_pip_dice(f, q.anydie)).dice
        if nets is None or not plain:
            return reader(frame, q)
        nets.refine = False
        try:
            return reader(frame, q)
        finally:
            nets.refine = True
    return read


def report_scales(name: str, photos: list[Photo], params, images: dict, reader, splits: Sequence[str]) -> None:
    """One line per split, scale (:func:`scaled_frame`) and way the size is had (:data:`SIZE_MODES`): the
    same photos with dice smaller or larger in the frame, read with no size hint (normalised, and the
    pyramid's level as it is, as before) and with the size learned from the first sure frame."""
    for split, some in by_split(photos):
        if split not in splits:
            continue
        for factor in SCALES:
            framed = [scaled_frame(p, images[p.path], factor) for p in some]
            chosen, frames = [p for p, _, _ in framed], {p.path: f for p, f, _ in framed}
            cut = {p.path: c for p, _, c in framed}
            sides = [max(d.box[2], d.box[3]) for p in chosen for d in p.dice]
            side = sorted(sides)[len(sides) // 2] if sides else 0
            size = "x".join(map(str, images[some[0].path].shape[1::-1])) if some else "-"
            for label, plain, learned in SIZE_MODES:
                sized = _size_reader(reader, plain, learned, params)

                def read(frame, q, _cut=cut, _frames=frames, _sized=sized):
                    path = next(k for k, v in _frames.items() if v is frame)
                    return off_cut_dice(_sized(frame, q), _cut[path])

                cm, extra, ms, flags, frame_flags = evaluate_frames(chosen, params, frames, reader=read)
                found = cm.total - sum(cm.missed)
                print(f"[{name}, {split}, x{factor:g}: dice about {side:.0f} px in {size}, {label}] found {_pct(found, cm.total)}, "
                      f"read right {_pct(cm.correct, cm.total)}, "
                      f"silent wrong {_pct(flags.silent, found)}, dice flagged {_pct(flags.flagged_wrong + flags.flagged_right, found)}, "
                      f"frames flagged {_pct(frame_flags.flagged, frame_flags.frames)}, {extra} extra  ({ms:.1f} ms per frame)")


def report_speed(photos: list[Photo], params, images: dict, n: int = 12) -> None:
    """Median CPU ms per frame on one thread at 640x480, 1280x960 and 1920x1080 (the photos scaled up, dice
    scaled with them): with no size hint (the pyramid's level as it is, as before; normalised), with the size
    learned from the first sure frame (:class:`rig.vision.readers.DieSize`, the frames after it) and with
    the dice's size known (one finder pass). Each frame is timed in every way in turn, in one run (the
    machine's load falls on all alike), and the ratios to the time before printed."""
    import statistics

    import cv2

    from dataclasses import replace

    from rig.vision.anydie import read_pip_dice
    from rig.vision.dicenet import default_dicenet
    from rig.vision.readers import DieSize

    nets = default_dicenet()
    if nets is None:
        print("[speed] the dice nets are absent, skipped")
        return
    some = photos[:: max(1, len(photos) // n)][:n]
    ways = ("no size hint, not normalised (before)", "no size hint, normalised",
            "size learned from the first sure frame", "size known (--die-px)")
    for w, h in ((640, 480), (1280, 960), (1920, 1080)):
        frames = [as_frame(p, images[p.path], (w, h)) for p in some]
        spent: dict[str, list[float]] = {way: [] for way in ways}
        size = DieSize(params, None)
        for photo, frame in frames:
            sides = sorted(max(d.box[2], d.box[3]) for d in photo.dice)
            told = replace(params.anydie, die_px=1.2 * sides[len(sides) // 2] if sides else 0.0)
            learning = size.die_px <= 0
            for way in ways:
                nets.refine = way != ways[0]
                q = told if way == ways[3] else size.params.anydie if way == ways[2] else replace(params.anydie, die_px=0.0)
                read_pip_dice(frame, q)  # warm
                t0 = time.process_time()  # CPU time: the machine's other jobs do not count
                reading = read_pip_dice(frame, q)
                if way != ways[2] or not learning:
                    spent[way].append(1000 * (time.process_time() - t0))
                if way == ways[2]:
                    size.learn(reading)
            nets.refine = True
        before = statistics.median(spent[ways[0]])
        for way in ways:
            if spent[way]:
                ms = statistics.median(spent[way])
                print(f"[speed, one thread, CPU time, {nets.finder.name}, {w}x{h}, {way}] median {ms:.1f} ms per frame over {len(spent[way])} frames"
                      + (f" (x{before / ms:.1f} of the time before)" if way != ways[0] and ms > 0 else ""))
            else:
                print(f"[speed, one thread, {w}x{h}, {way}] no frame read surely: no size learned")
    cv2.setNumThreads(1)


def grown_box(box: tuple, by: float = 0.3) -> tuple:
    """``box`` (x, y, w, h) grown ``by`` its longer side on every side: where a die cut by the frame's edge reaches."""
    x, y, w, h = box
    g = by * max(w, h)
    return x - g, y - g, w + 2 * g, h + 2 * g


def off_cut_dice(dice, cut) -> list:
    """The dice read whose centre lies outside the grown box of every labelled die the scaled frame's edge cuts
    (``cut``): those the bench leaves out."""
    return [d for d in dice if not any(
        bx <= d.box[0] + d.box[2] / 2 <= bx + bw and by <= d.box[1] + d.box[3] / 2 <= by + bh
        for bx, by, bw, bh in (grown_box(c.box) for c in cut))]


def run_pips(args: argparse.Namespace) -> int:
    """``rig bench vision --game pips``: the colour-agnostic reader on both real sets, both splits."""
    import cv2

    from rig.vision.pips import PipParams, find_pip_dice

    cv2.setNumThreads(1)  # the target is per frame on one thread
    params = PipParams.load(getattr(args, "params", None))
    sets = [("white dice", data_folder(getattr(args, "data", None)), False),
            ("coloured dice", colour_folder(getattr(args, "colour_data", None)), True)]
    for name, folder, any_name in sets:
        if not folder.is_dir():
            print(f"{name}: {folder} is absent, skipped")
            continue
        splits = SPLITS[getattr(args, "split", None) or "both"]
        photos = [p for p in load_photos(folder, any_name=any_name, tuning_only=splits == ("tuning",))
                  if ("held-out" if p.held_out else "tuning") in splits]
        images = {p.path: cv2.imread(str(p.path)) for p in photos}
        n = sum(len(p.dice) for p in photos)
        if getattr(args, "distractors", False):
            print(f"\n== {name}: {folder} ({len(photos)} photos), distractors drawn in, no size hint")
            first = getattr(args, "distractor_seed", 0)
            report_distractor_seeds(name, photos, params, images, read_any, splits,
                                    range(first, first + getattr(args, "distractor_seeds", DISTRACTOR_SEEDS)),
                                    getattr(args, "distractor_size", 1.2))
            continue
        if getattr(args, "scales", False):
            print(f"\n== {name}: {folder} ({len(photos)} photos, {n} labelled dice), scaled, no size hint")
            report_scales(f"{name}", photos, params, images, read_any, splits)
            report_speed(photos, params, images)
            continue
        split = (f"held out: crc32(file name) % {COLOUR_HELD_OUT_MOD} == 0" if any_name
                 else f"held out: file numbers divisible by {HELD_OUT_EVERY}")
        print(f"\n== {name}: {folder} ({len(photos)} photos, {n} labelled dice; {split})")
        report_find(f"{name}, colour-agnostic reader", photos, params, images, read_any)
        report_speed(photos, params, images)
        if any(images[p.path].shape[:2] != (480, 640) for p in photos):
            print()
            report_as_640x480(f"{name}, colour-agnostic reader", photos, params, images, read_any)
        if getattr(args, "overlays", None):
            write_overlays(args.overlays, name, [p for p in photos if p.held_out], params, images, read_any)
        if not any_name:
            report_find(f"{name}, white-die reader", photos, params, images, find_pip_dice)
    return 0


SPLITS = {"both": ("tuning", "held-out"), "tuning": ("tuning",), "held-out": ("held-out",)}


def colour_folder(arg: Path | None) -> Path:
    if arg is not None:
        return arg
    env = os.environ.get("RIG_COLOUR_DATA")
    return Path(env) if env else DEFAULT_COLOUR_DATA


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, default=None,
                        help=f"folder of the real photographs (default $RIG_PIP_DATA or {DEFAULT_DATA})")
    parser.add_argument("--colour-data", type=Path, default=None,
                        help=f"folder of the coloured dice photographs (default $RIG_COLOUR_DATA or {DEFAULT_COLOUR_DATA})")
    parser.add_argument("--params", type=Path, default=None, help="pip parameter file (default calibration/pips.toml)")
    parser.add_argument("--rendered", type=argtypes.amount, default=100, metavar="N", help="rendered frames of each kind (default 100)")
    parser.add_argument("--no-find", action="store_true", help="skip finding dice without the labels")
    parser.add_argument("--scales", action="store_true",
                        help="(--game pips) the photos scaled x" + ", x".join(f"{f:g}" for f in SCALES)
                        + " in frames of their own size, read with no size hint")
    parser.add_argument("--distractors", action="store_true",
                        help="(--game pips) the photos with a coin, ring, screw, knot, fingertip and card corner drawn in: "
                        "false dice reported ok")
    parser.add_argument("--distractor-seed", type=argtypes.seed, default=0, help="(--distractors) the first seed drawn with (default 0)")
    parser.add_argument("--distractor-seeds", type=argtypes.count, default=DISTRACTOR_SEEDS,
                        help=f"(--distractors) this many seeds from --distractor-seed (default {DISTRACTOR_SEEDS}: "
                        "one seed's draws miss what others show)")
    parser.add_argument("--distractor-size", type=argtypes.positive, default=1.2, metavar="F",
                        help="(--distractors) each thing F times the photo's median die across (default 1.2)")
    parser.add_argument("--split", choices=tuple(SPLITS), default="both",
                        help="(--game pips) which split of the photos to read (default both; tune on 'tuning' only)")
    parser.add_argument("--overlays", type=Path, default=None, metavar="DIR",
                        help="(--game pips) draw the hardest held-out photos into DIR")


def data_folder(arg: Path | None) -> Path:
    if arg is not None:
        return arg
    env = os.environ.get("RIG_PIP_DATA")
    return Path(env) if env else DEFAULT_DATA


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} = {100 * part / whole:.1f}%" if whole else "n/a"


def run(args: argparse.Namespace) -> int:
    import cv2

    from rig.vision.pips import PipParams

    params = PipParams.load(getattr(args, "params", None))
    folder = data_folder(getattr(args, "data", None))
    if folder.is_dir():
        photos = load_photos(folder)
        images = {p.path: cv2.imread(str(p.path)) for p in photos}
        n_dice = sum(len(p.dice) for p in photos)
        print(f"real photographs: {folder}  ({len(photos)} photos, {n_dice} labelled dice; "
              f"held out: file numbers divisible by {HELD_OUT_EVERY})")
        for split, chosen in by_split(photos):
            cm, ms = evaluate_boxes(chosen, params, images)
            print(f"\n[labelled boxes, {split}] pip accuracy {_pct(cm.correct, cm.total)}  ({ms:.2f} ms per die)")
            print(cm.format())
            if not getattr(args, "no_find", False):
                cm, extra, ms, flags = evaluate_find(chosen, params, images)
                found = cm.total - sum(cm.missed)
                print(f"\n[found without labels, {split}] found {_pct(found, cm.total)}, "
                      f"found and read right {_pct(cm.correct, cm.total)}, "
                      f"{extra} found dice match no label  ({ms:.1f} ms per frame)")
                print(f"  silent errors (found, read wrong, not flagged uncertain) {_pct(flags.silent, found)}; "
                      f"flagged uncertain: {flags.flagged_wrong} wrong, {flags.flagged_right} right")
                print(cm.format(with_missed=True))
    else:
        print(f"real photographs: {folder} is absent, skipped (set --data or $RIG_PIP_DATA)")
    n = getattr(args, "rendered", 100)
    if n > 0:
        r = evaluate_rendered(n, params)
        print(f"\n[rendered white dice, boxes known] pip accuracy {_pct(r['boxes'].correct, r['boxes'].total)}")
        print(f"[rendered white dice, found] found and read right {_pct(r['found'].correct, r['found'].total)}")
        print(r["found"].format(with_missed=True))
        lines = games_rendered(getattr(args, "game", None), n, params)
        if lines:
            print("\n" + "\n".join(lines))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rig.bench.pips", description=__doc__.splitlines()[0])
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except RigError as exc:
        print(f"rig bench pips: error: {exc}")
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
