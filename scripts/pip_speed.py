"""The pip reader's speed and sameness on a fixed frame corpus: two code versions read alike, timed in turn (issue 25).

    .venv/bin/python scripts/pip_speed.py build                                  # the corpus, once
    .venv/bin/python scripts/pip_speed.py run --before /work/wt-base [--after .] [--reads 3]
    .venv/bin/python scripts/pip_speed.py record --out A.json [--code DIR]       # one version's readings and CPU ms
    .venv/bin/python scripts/pip_speed.py compare A.json B.json

The corpus (~/.cache/rig/pipspeed/corpus): the *tuning* photos of the white and the coloured set (every n-th, the
held-out ones never opened) as 640x480, 1280x960 and 1920x1080 frames (:func:`rig.bench.pips.as_frame`), a few of
them at 640x480 and 1280x960 with a coin, ring, screw head, knot, fingertip and card corner drawn in
(:mod:`rig.bench.distractors`, seed 25), and the pip twin's throws of tables 9100-9105 (only those cached in
~/.cache/rig/twin: never rendered here; :func:`rig.bench.pip_twin.twin_frame`), as rendered (1280x960; 9105's
1920x1080) and scaled down by half.

``run`` loads both code versions (each a tree holding ``rig/`` and ``calibration/``; ``--before /work/wt-base`` is
main) into one process, each its own ``rig`` package, and reads every frame by the one and then by the other, who
goes first alternating frame by frame, so the machine's load falls on both alike: ``read_pip_dice`` as ``rig read
--game pips`` calls it with no size known, per frame the least CPU time of ``--reads`` reads (one thread), the
median over a set's frames printed per version. Every reading (each die's box, pips, confidence, status, reasons;
the frame's status and reasons) is compared exactly, and so are the nets' candidates (centre, side, finder score,
class probabilities and hidden layer, ``DiceNet.candidates``; floats to 1e-4, the rest exactly).
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import timing_harness  # noqa: E402

CORPUS = Path.home() / ".cache" / "rig" / "pipspeed" / "corpus"
SIZES = ((640, 480), (1280, 960), (1920, 1080))
PHOTOS = 12  # of each set
DISTRACTED = 4  # of each set's photos, with distractors drawn in
TWIN_TABLES = range(9100, 9106)


def build(out: Path) -> None:
    """The frames as .npy files and an index, from the photos and the cached twin renders."""
    sys.path.insert(0, str(ROOT))
    from rig.bench.distractors import add_distractors
    from rig.bench.pip_twin import twin_frame
    from rig.bench.pips import DEFAULT_COLOUR_DATA, DEFAULT_DATA, as_frame, load_photos
    from rig.errors import RigError
    from rig.twin.pip_table import PipTable

    out.mkdir(parents=True, exist_ok=True)
    index = []

    def save(key: str, frame: np.ndarray, group: str) -> None:
        np.save(out / f"{key}.npy", np.ascontiguousarray(frame))
        index.append({"key": key, "set": group})

    rng = np.random.default_rng(25)
    for label, folder, any_name in (("white", DEFAULT_DATA, False), ("coloured", DEFAULT_COLOUR_DATA, True)):
        photos = load_photos(folder, any_name=any_name, tuning_only=True)
        some = photos[:: max(1, len(photos) // PHOTOS)][:PHOTOS]
        for j, photo in enumerate(some):
            image = cv2.imread(str(photo.path))
            for w, h in SIZES:
                moved, frame = as_frame(photo, image, (w, h))
                save(f"{label}-{photo.path.stem}-{w}x{h}", frame, f"{label} {w}x{h}")
                if j < DISTRACTED and w < 1920:
                    sides = sorted(max(d.box[2], d.box[3]) for d in moved.dice) or [max(h, w) / 16]
                    frame = frame.copy()
                    add_distractors(frame, [d.box for d in moved.dice], 1.2 * sides[len(sides) // 2], rng)
                    save(f"{label}-{photo.path.stem}-{w}x{h}-distractors", frame, f"distractors {w}x{h}")
    for seed in TWIN_TABLES:
        table = PipTable.random_pips(seed)
        try:
            shots = table.pip_shots(2)
        except RigError:
            continue
        for k, shot in enumerate(shots):
            if not table.cache_path(shot, 8).exists():
                print(f"twin {seed} throw {k}: not rendered, left out")
                continue
            frame = twin_frame(table, shot, k, 8)
            save(f"twin-{seed}-{k}", frame, f"twin {frame.shape[1]}x{frame.shape[0]}")
            half = cv2.resize(frame, (frame.shape[1] // 2, frame.shape[0] // 2), interpolation=cv2.INTER_AREA)
            save(f"twin-{seed}-{k}-half", half, f"twin {half.shape[1]}x{half.shape[0]} (scaled down)")
    (out / "index.json").write_text(json.dumps(index, indent=1))
    print(f"{len(index)} frames in {out}")


def load_corpus(folder: Path) -> list[dict]:
    items = json.loads((folder / "index.json").read_text())
    for item in items:
        item["frame"] = np.load(folder / f"{item['key']}.npy")
    return items


class Version:
    """One code version's ``read_pip_dice``, nets and thresholds, imported from ``root`` as a ``rig`` package of its
    own: sys.modules is put back afterwards, the functions keep their own modules."""

    def __init__(self, root: Path):
        root = root.resolve()
        anydie, dicenet, pips = timing_harness.import_from(root, "rig.vision.anydie", "rig.vision.dicenet", "rig.vision.pips")
        self.root, self.read_pip_dice = root, anydie.read_pip_dice
        self.params = replace(pips.PipParams.load(None).anydie, die_px=0.0)
        self.nets = dicenet.default_dicenet()

    def read(self, frame: np.ndarray, reads: int) -> tuple[dict, float]:
        """The reading (:func:`as_record`, with the nets' candidates) and the least CPU ms of ``reads`` reads."""
        reading = self.read_pip_dice(frame, self.params)  # warm
        best = float("inf")
        for _ in range(reads):
            t0 = time.process_time()
            self.read_pip_dice(frame, self.params)
            best = min(best, time.process_time() - t0)
        floor = max(self.params.find_floor, self.params.find_keep)
        return as_record(reading, self.nets.candidates(frame, floor, 0.0)), 1000 * best


def as_record(reading, candidates) -> dict:
    """Everything a reading says (floats as repr: exact) and the candidates it was judged from."""
    return {"status": reading.status, "reasons": list(reading.reasons),
            "dice": [{"box": [int(v) for v in d.box], "pips": d.count.pips, "confidence": repr(d.count.confidence),
                      "status": d.count.status, "reasons": list(d.count.reasons)} for d in reading.dice],
            "candidates": [[c.x, c.y, c.side, c.score, bool(c.alone), [float(v) for v in c.probs],
                            None if c.features is None else [float(v) for v in c.features]] for c in candidates]}


def differences(a: dict, b: dict) -> list[str]:
    """'reading' (any difference in what read_pip_dice returns), 'candidates' (count, alone, or a float beyond
    1e-4), 'float noise' (candidates' floats within 1e-4)."""
    out = []
    if {k: v for k, v in a.items() if k != "candidates"} != {k: v for k, v in b.items() if k != "candidates"}:
        out.append("reading")
    ca, cb = a["candidates"], b["candidates"]
    if len(ca) != len(cb) or any(x[4] != y[4] or (x[6] is None) != (y[6] is None) for x, y in zip(ca, cb)):
        out.append("candidates")
    elif ca != cb:
        worst = max(float(np.max(np.abs(np.array(x[k], float) - np.array(y[k], float))))
                    for x, y in zip(ca, cb) for k in (0, 1, 2, 3, 5, 6) if x[k] is not None)
        out.append("candidates" if worst > 1e-4 else "float noise")
    return out


def report_sameness(pairs: dict[str, tuple[dict, dict]]) -> int:
    kinds = timing_harness.kinds_of(pairs, differences)
    print(f"frames compared: {len(pairs)}; readings differ: {len(kinds.get('reading', []))}; candidates differ: "
          f"{len(kinds.get('candidates', []))}; candidates' floats differ within 1e-4: {len(kinds.get('float noise', []))}")
    for kind in ("reading", "candidates"):
        for key in kinds.get(kind, [])[:10]:
            a, b = pairs[key]
            print(f"  {kind}: {key}\n    before {a['status']} {a['dice']}\n    after  {b['status']} {b['dice']}")
    return 1 if kinds.get("reading") or kinds.get("candidates") else 0


def main(argv: list[str] | None = None) -> int:
    return timing_harness.main(argv, __doc__, root=ROOT, corpus=CORPUS, reads=3, build=build, load=load_corpus,
                               version=Version, sameness=report_sameness, frame=lambda item: item["frame"],
                               key=lambda item: item["key"], what=', no size hint')


if __name__ == "__main__":
    sys.exit(main())
