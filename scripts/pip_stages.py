"""Where the pip reader's time goes, stage by stage, under each net engine (issue 25): finder passes, reader crops, rest.

    .venv/bin/python scripts/pip_stages.py [--engines cv2,onnxruntime] [--reads 3] [--sets "white 1280x960,..."]

Reads the frames of ``scripts/pip_speed.py``'s corpus (~/.cache/rig/pipspeed/corpus, ``pip_speed.py build``) with
``read_pip_dice`` as ``rig read --game pips`` calls it (no size hint), one thread, CPU time. Each frame is read by every
engine (:mod:`rig.vision.netengine`) in turn, who goes first alternating frame by frame, so the machine's load falls on
all alike. Per set and engine, the mean CPU ms per frame of: the finder's passes (the frame scaled, its blob and the
net; passes and the net's input pixels per frame, a tiled pass's tiles with their margins), the reader's crops (cut, blob and net; crops per frame, the mirrored
re-reads counted), and the rest (peaks, the pyramid's bookkeeping, the judging and the checks).
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from rig.vision import anydie, dicenet, pips  # noqa: E402
from rig.vision.netengine import ENGINE_ENV  # noqa: E402

CORPUS = Path.home() / ".cache" / "rig" / "pipspeed" / "corpus"
STAGES = ("finder", "reader", "passes", "px", "crops")


class Stages:
    """CPU seconds and counts per stage, gathered by wrapping the nets' entry points (class-wide, once)."""

    def __init__(self) -> None:
        self.acc = dict.fromkeys(STAGES, 0.0)
        finder_pass, probabilities, crop = dicenet.DiceNet.finder_pass, dicenet.DiceNet._probabilities, dicenet.crop_die

        def timed_pass(net, frame, die_px=0.0, *guides):
            run = net.finder.run

            def counted(blob, *args):  # the net's input pixels: a tiled pass's tiles, their margins counted
                self.acc["px"] += blob.shape[2] * blob.shape[3]
                return run(blob, *args)

            net.finder.run = counted
            t = time.process_time()
            try:
                out = finder_pass(net, frame, die_px, *guides)
            finally:
                del net.finder.run
            self.acc["finder"] += time.process_time() - t
            self.acc["passes"] += 1
            return out

        def timed_probabilities(net, crops, hidden=False):
            t = time.process_time()
            out = probabilities(net, crops, hidden)
            self.acc["reader"] += time.process_time() - t
            self.acc["crops"] += len(crops)
            return out

        def timed_crop(*args, **kw):
            t = time.process_time()
            out = crop(*args, **kw)
            self.acc["reader"] += time.process_time() - t
            return out

        dicenet.DiceNet.finder_pass, dicenet.DiceNet._probabilities, dicenet.crop_die = timed_pass, timed_probabilities, timed_crop

    def read(self, frame: np.ndarray, params, reads: int) -> dict[str, float]:
        """Per read, the mean of ``reads`` reads: total and each stage (ms, counts)."""
        anydie.read_pip_dice(frame, params)  # warm
        self.acc = dict.fromkeys(STAGES, 0.0)
        t0 = time.process_time()
        for _ in range(reads):
            anydie.read_pip_dice(frame, params)
        total = time.process_time() - t0
        out = {k: v / reads for k, v in self.acc.items()}
        out["total"] = total / reads
        return out


def nets_for(engine: str) -> dicenet.DiceNet:
    before = os.environ.get(ENGINE_ENV)
    os.environ[ENGINE_ENV] = engine
    try:
        return dicenet.DiceNet()
    finally:
        if before is None:
            del os.environ[ENGINE_ENV]
        else:
            os.environ[ENGINE_ENV] = before


def line(name: str, engine: str, rows: list[dict[str, float]]) -> str:
    m = {k: float(np.mean([r[k] for r in rows])) for k in rows[0]}
    rest = m["total"] - m["finder"] - m["reader"]
    return (f"{name:<27} {engine:<11} total {1000 * m['total']:5.1f} ms: finder {m['passes']:.1f} passes "
            f"{m['px'] / 1000:4.0f}k px {1000 * m['finder']:5.1f} ms; reader {m['crops']:4.1f} crops "
            f"{1000 * m['reader']:5.1f} ms; rest {1000 * rest:4.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default="cv2,onnxruntime")
    parser.add_argument("--reads", type=int, default=3)
    parser.add_argument("--sets", default="", help="comma-separated set names (default all)")
    parser.add_argument("--dir", type=Path, default=CORPUS)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    nets = {e: nets_for(e) for e in engines}
    params = replace(pips.PipParams.load(None).anydie, die_px=0.0)
    stages = Stages()
    items = json.loads((args.dir / "index.json").read_text())
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
    names = wanted or list(dict.fromkeys(i["set"] for i in items))
    print(f"mean CPU ms per frame, one thread, no size hint, mean of {args.reads} reads; load {os.getloadavg()[0]:.1f} at the start")
    k = 0
    for name in names:
        rows: dict[str, list] = {e: [] for e in engines}
        for item in (i for i in items if i["set"] == name):
            frame = np.load(args.dir / f"{item['key']}.npy")
            k += 1
            for e in engines[k % len(engines):] + engines[:k % len(engines)]:
                dicenet._CACHE[:] = [nets[e]]  # read_pip_dice's nets
                rows[e].append(stages.read(frame, params, args.reads))
        for e in engines:
            print(line(name, e, rows[e]), flush=True)
    print(f"load {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
