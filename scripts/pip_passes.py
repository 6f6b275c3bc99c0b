"""The pip finder's passes by kind, per set of the speed corpus (issue 25): which pyramid level or the second pass,
run whole or on tiles, how often, how many of the net's input pixels and how much CPU time per frame.

    .venv/bin/python scripts/pip_passes.py [--sets "white 1280x960,..."] [--dir ~/.cache/rig/pipspeed/corpus]

Reads the frames of ``scripts/pip_speed.py``'s corpus with ``read_pip_dice`` as ``rig read --game pips`` calls it (no
size hint; each frame read once to warm, then once counted; one thread, the engine :mod:`rig.vision.netengine`
picks). A pass is named by its steps of 1.5 from the finder's own size (``L+0``: dice FIND_DIE / FIND_LONG of the
frame's longer side; ``L-2`` the finest level, ``L+3`` the coarsest) or ``2nd`` (the second pass at the size the
finder reads best at, :meth:`rig.vision.dicenet.DiceNet.normalised`) or ``split`` (a pass on a die's surroundings with
its size known, :mod:`rig.vision.diesplit`'s two dice seen as one); per kind: passes per frame (``0.25x``: one frame
in four), input pixels per frame (a tiled pass's tiles with their margins) and CPU ms per frame.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from rig.vision import anydie, dicenet, pips  # noqa: E402

CORPUS = Path.home() / ".cache" / "rig" / "pipspeed" / "corpus"


def pass_kind(frame: np.ndarray, die_px: float) -> str:
    """``L+k`` for a pyramid level ``k`` steps of 1.5 coarser than the finder's own size, ``2nd`` for any other."""
    steps = math.log(die_px / max(frame.shape[:2]) * dicenet.FIND_LONG / dicenet.FIND_DIE) / math.log(1.5)
    return f"L{round(steps):+d}" if abs(steps - round(steps)) < 1e-6 else "2nd"


def logged_passes(log: list) -> None:
    """Every finder pass appended to ``log`` as (kind, tiled, input px, CPU s, frame shape), by wrapping
    ``finder_pass``."""
    finder_pass = dicenet.DiceNet.finder_pass

    def logged(net, frame, die_px=0.0, guides=None, *parts):
        run, px = net.finder.run, [0]

        def counted(blob, *args):
            px[0] += blob.shape[2] * blob.shape[3]
            return run(blob, *args)

        net.finder.run = counted
        t = time.process_time()
        try:
            out = finder_pass(net, frame, die_px, guides, *parts)
        finally:
            del net.finder.run
        log.append((pass_kind(frame, die_px), out[1], px[0], time.process_time() - t, frame.shape))
        return out

    dicenet.DiceNet.finder_pass = logged


def line(name: str, frames: list[list]) -> str:
    agg: dict = defaultdict(lambda: [0, 0, 0.0])
    for passes in frames:
        for kind, tiled, px, t in passes:
            a = agg[(kind, "tiled" if tiled else "whole")]
            a[0], a[1], a[2] = a[0] + 1, a[1] + px, a[2] + t
    n = len(frames)
    total = sum(a[1] for a in agg.values()) / n
    parts = "; ".join(
        f"{kind} {how} {a[0] / n:.2f}x {a[1] / n / 1000:.0f}k {1000 * a[2] / n:.1f} ms"
        for (kind, how), a in sorted(agg.items())
    )
    return f"{name:<27} {total / 1000:4.0f}k px: {parts}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="", help="comma-separated set names (default all)")
    parser.add_argument("--dir", type=Path, default=CORPUS)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    params = replace(pips.PipParams.load(None).anydie, die_px=0.0)
    items = json.loads((args.dir / "index.json").read_text())
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
    log: list = []
    logged_passes(log)
    sets: dict = defaultdict(list)
    for item in items:
        if wanted and item["set"] not in wanted:
            continue
        frame = np.load(args.dir / f"{item['key']}.npy")
        anydie.read_pip_dice(frame, params)  # warm
        log.clear()
        anydie.read_pip_dice(frame, params)
        sets[item["set"]].append([("split" if shape != frame.shape else kind, *rest) for kind, *rest, shape in log])
    print(f"finder passes per frame by kind, one thread, no size hint; load {os.getloadavg()[0]:.1f} at the end")
    for name, frames in sets.items():
        print(line(name, frames), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
