"""Two sets of pip nets timed in one run: CPU time per frame, one thread, no size hint (issue 25).

    .venv/bin/python scripts/tune_speed.py --before calibration --after DIR [--frames 12]
    .venv/bin/python scripts/tune_speed.py --before DIR0 --before-set find_ok=0.6 --after calibration   # thresholds each

Each side is read with its folder's second opinion (DIR/diecheck.npz) when it has one, else the shipped one, and
with the ``[anydie]`` thresholds of the profile, or those given by ``--before-set`` / ``--after-set``.

The tuning photos (every n-th of the white and of the coloured set, the held-out ones never opened) as 1280x960 and
1920x1080 frames (``rig.bench.pips.as_frame``: scaled up, the dice with them) are read as ``rig read --game pips``
reads them with no size known, each frame by the nets before and then by those after, in turn, so that the
machine's load falls on both alike; the median CPU ms per frame is printed for each.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rig.bench.pips import DEFAULT_COLOUR_DATA, DEFAULT_DATA, as_frame, load_photos  # noqa: E402
from rig.vision import dicenet, diecheck  # noqa: E402
from rig.vision.anydie import read_pip_dice  # noqa: E402
from rig.vision.pips import PipParams  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, default=dicenet.FIND_WEIGHTS.parent)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--frames", type=int, default=12, help="of each set")
    parser.add_argument("--before-set", action="append", default=[], metavar="NAME=VALUE",
                        help="an [anydie] threshold of the nets before (default: the profile's)")
    parser.add_argument("--after-set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    base = replace(PipParams.load(None).anydie, die_px=0.0)
    nets, params, checks = {}, {}, {}
    for name, d, sets in (("before", args.before, args.before_set), ("after", args.after, args.after_set)):
        nets[name] = dicenet.DiceNet(d / dicenet.FIND_WEIGHTS.name, d / dicenet.READ_WEIGHTS.name)
        params[name] = replace(base, **{k: float(v) for k, v in (s.split("=") for s in sets)})
        # each with its own second opinion when its folder has one (DIR/diecheck.npz), else the shipped one
        checks[name] = diecheck.DieCheck.load(d / "diecheck.npz") if (d / "diecheck.npz").exists() else diecheck.default_check()
    for label, folder, any_name in (("white", DEFAULT_DATA, False), ("coloured", DEFAULT_COLOUR_DATA, True)):
        photos = load_photos(folder, any_name=any_name, tuning_only=True)
        some = photos[:: max(1, len(photos) // args.frames)][:args.frames]
        images = {p.path: cv2.imread(str(p.path)) for p in some}
        for w, h in ((1280, 960), (1920, 1080)):
            spent: dict[str, list[float]] = {name: [] for name in nets}
            for photo in some:
                _, frame = as_frame(photo, images[photo.path], (w, h))
                for name, net in nets.items():
                    dicenet._CACHE[:], diecheck._CACHE[:] = [net], [checks[name]]
                    read_pip_dice(frame, params[name])  # warm
                    t0 = time.process_time()
                    read_pip_dice(frame, params[name])
                    spent[name].append(1000 * (time.process_time() - t0))
            print(f"{label:8s} {w}x{h}: " + ", ".join(f"{name} {statistics.median(ts):.1f} ms" for name, ts in spent.items())
                  + f" (median CPU per frame, one thread, {len(some)} frames)", flush=True)
    dicenet._CACHE.clear()
    diecheck._CACHE.clear()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
