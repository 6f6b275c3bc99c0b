"""``read_dice``'s speed and sameness on a fixed frame corpus: two code versions read alike, timed in turn (issue 24).

    .venv/bin/python scripts/speed_corpus.py build                     # the corpus, once (~/.cache/rig/speed/corpus)
    .venv/bin/python scripts/speed_corpus.py build --twin-tables 10000-10005[,11300-11302] --dir DIR   # other cached twin tables
    git archive <commit> rig | tar -x -C ~/.cache/rig/speed/before     # the code to compare with: a tree holding rig/
    .venv/bin/python scripts/speed_corpus.py run --before ~/.cache/rig/speed/before [--after .] [--reads 7]
    .venv/bin/python scripts/speed_corpus.py record --out A.json [--code DIR]   # one version's readings and CPU ms
    .venv/bin/python scripts/speed_corpus.py compare A.json B.json

The corpus: virtual-table frames (``rig bench vision``'s generator: each lighting calibrated on its ritual, four
seeded scenes a lighting, each rendered at 640x480 and 1280x960) and the twin's thrown turns (tables 100-105, four
turns each, in the four lights of :data:`rig.twin.table.DRIFTS`, developed as ``rig bench vision --twin`` develops
them, from the renders cached in ~/.cache/rig/twin; never rendered here), each with the profile calibration fitted
(saved and loaded as TOML, so both versions read the same profile). The twin's 1280x960 frames are its 640x480 ones
scaled up (bilinear): for timing and sameness only.

``run`` loads both code versions into one process (each its own ``rig`` package) and reads every frame by the one and
then by the other, frame by frame, so the machine's load falls on both alike: per frame the least CPU time of
``--reads`` reads (one thread), the median over a set's frames printed per version; every reading (dice: face,
centre, box, confidence, cocked, shares, aspect, area; status, reasons, light) is compared exactly.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterable  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import timing_harness  # noqa: E402

CORPUS = Path.home() / ".cache" / "rig" / "speed" / "corpus"
SIZES = ((640, 480), (1280, 960))
TWIN_TABLES = range(100, 106)
VIRTUAL_FRAMES = 4


def build(out: Path, twin_tables: Iterable[int] = TWIN_TABLES) -> None:
    """Render the virtual frames, develop the twin's cached renders (``twin_tables``), fit every profile; save all
    under ``out``."""
    sys.path.insert(0, str(ROOT))
    from rig.bench.tables import photo_patch
    from rig.bench.twin import calibrated
    from rig.bench.unseen import textures_dir
    from rig.vision.card_empty import beside, keep_beside, kept
    from rig.cli.calibrate import virtual_ritual
    from rig.twin.table import DRIFTS, TwinTable
    from rig.vision.calibrate import fit_profile
    from rig.vision.errors import VisionError
    from rig.vision.render import LIGHTINGS, random_scene, render_scene

    out.mkdir(parents=True, exist_ok=True)
    index = []
    for ci, name in enumerate(LIGHTINGS):
        frames, empty = virtual_ritual(name)
        profile = fit_profile(frames, empty=empty, name=name).profile
        profile.save(out / f"virtual-{name}.toml")
        keep_beside(out / f"virtual-{name}.toml", empty)  # as `rig calibrate` keeps it (the side-face check reads it)
        for k in range(VIRTUAL_FRAMES):  # as rig bench vision draws its scenes (seed 1)
            rng = np.random.default_rng([1, ci, k])
            n = 6 if rng.random() < 0.5 else int(rng.integers(0, 6))
            extra = rng.random()
            scene = random_scene(rng, n, name, cocked=0.12, hand=extra < 0.04,
                                 card=str(rng.choice(["blue", "pink", "gray"])) if 0.04 <= extra < 0.06 else None)
            for w, h in SIZES:
                key = f"virtual-{name}-{k}-{w}x{h}"
                np.save(out / f"{key}.npy", render_scene(scene, size=(w, h), seed=k))
                index.append({"key": key, "set": f"virtual {w}x{h}", "profile": f"virtual-{name}.toml", "thrown": None})
    data = textures_dir(None)
    for seed in twin_tables:
        table = TwinTable.random(seed, photo=lambda kind, rng: photo_patch(kind, rng, data))
        shots = table.shots(4)
        missing = [s.name for s in shots if not table.cache_path(s, 8).exists()]
        if missing:
            raise SystemExit(f"twin table {seed}: {missing} not rendered (rig bench vision --twin --first-table {seed})")
        renders = {s.name: table.render(s, spp=8) for s in shots}
        try:
            profile, frame = calibrated(table, renders, seed)
        except VisionError as exc:
            print(f"twin {seed}: calibration refused ({exc}); left out")
            continue
        profile.save(out / f"twin-{seed}.toml")
        # the empty box calibrated() remembered, kept beside the profile as the bench and `rig calibrate` do
        kept(profile).save(beside(out / f"twin-{seed}.toml"))
        for d, drift in enumerate(DRIFTS):
            for shot in shots:
                if not shot.name.startswith("turn:"):
                    continue
                k = int(shot.name.split(":")[1])
                key = f"twin-{seed}-{k}-{drift.replace(' ', '')}"
                np.save(out / f"{key}.npy", frame(shot.name, drift, 10 + k + 100 * d))
                index.append({"key": key, "set": "twin 640x480", "profile": f"twin-{seed}.toml",
                              "thrown": len(table.truth(shot))})
                index.append({"key": key, "set": "twin 1280x960 (scaled up)", "profile": f"twin-{seed}.toml",
                              "thrown": len(table.truth(shot)), "scale": 2})
    (out / "index.json").write_text(json.dumps(index, indent=1))
    print(f"{len(index)} frames in {out}")


def load_corpus(folder: Path) -> list[dict]:
    """The index with each frame loaded (``frame``) and the profile's TOML text (``toml``)."""
    items = json.loads((folder / "index.json").read_text())
    frames: dict[str, np.ndarray] = {}
    for item in items:
        if item["key"] not in frames:
            frames[item["key"]] = np.load(folder / f"{item['key']}.npy")
        frame = frames[item["key"]]
        if item.get("scale"):
            s = item["scale"]
            frame = cv2.resize(frame, (frame.shape[1] * s, frame.shape[0] * s), interpolation=cv2.INTER_LINEAR)
        item["frame"] = np.ascontiguousarray(frame)
        item["toml"] = (folder / item["profile"]).read_text()
        # the empty box's picture beside it, when the corpus kept one (round 22)
        item["profile_path"] = str(folder / item["profile"])
    return items


class Version:
    """One code version's ``read_dice`` and ``Profile``, imported from ``root`` (a tree holding ``rig/``) as a
    ``rig`` package of its own: sys.modules is put back afterwards, the functions keep their own modules."""

    def __init__(self, root: Path):
        root = root.resolve()
        self.package: dict = {}
        dice, profile, empty = timing_harness.import_from(root, "rig.vision.dice", "rig.vision.profile",
                                                          "rig.vision.card_empty", package=self.package)
        self.root, self.read_dice, self.Profile, self._empty = root, dice.read_dice, profile.Profile, empty
        self._profiles: dict[str, object] = {}

    def profile(self, toml: str, path: str | None = None):
        """The profile parsed once; the empty box's picture kept beside ``path`` (if any) recalled for it, as
        `rig calibrate` users read (round 22: the side-face check runs only where it is kept)."""
        if toml not in self._profiles:
            self._profiles[toml] = profile = self.Profile.parse(toml)
            if path is not None:
                self._empty.recall(profile, path)  # (none kept beside it: nothing recalled)
        return self._profiles[toml]

    def read(self, item: dict, reads: int) -> tuple[dict, float]:
        """The reading (as :func:`as_record`) and the least CPU ms of ``reads`` reads."""
        with timing_harness.in_place(self.package):  # (its imports at call time find its own modules)
            profile = self.profile(item["toml"], item.get("profile_path"))
            reading = self.read_dice(item["frame"], profile, thrown=item["thrown"])  # warms the profile's caches
            best = float("inf")
            for _ in range(reads):
                t0 = time.process_time()
                self.read_dice(item["frame"], profile, thrown=item["thrown"])
                best = min(best, time.process_time() - t0)
        return as_record(reading), 1000 * best


def as_record(reading) -> dict:
    """Everything a reading says, floats as repr (exact)."""
    return {"status": reading.status, "reasons": list(reading.reasons), "light": repr(reading.light) + repr(
        None if reading.light is None else (reading.light.exposure, reading.light.warm, reading.light.floor_seen,
                                            reading.light.channels)),
            "dice": [{"face": d.face, "x": repr(d.x), "y": repr(d.y), "box": [int(v) for v in d.box],
                      "confidence": repr(d.confidence), "cocked": d.cocked, "shares": [repr(v) for v in d.shares],
                      "aspect": repr(d.aspect), "area": repr(d.area)} for d in reading.dice]}


def differences(a: dict, b: dict) -> list[str]:
    """What differs between two readings: 'face/flag' (faces, cocked, status, reasons) or 'float' (digits only)."""
    out = []
    if a["status"] != b["status"] or a["reasons"] != b["reasons"] or len(a["dice"]) != len(b["dice"]):
        out.append("face/flag")
    elif any(x["face"] != y["face"] or x["cocked"] != y["cocked"] or x["box"] != y["box"]
             for x, y in zip(a["dice"], b["dice"])):
        out.append("face/flag")
    elif a != b:
        out.append("float")
    return out


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    tables = TWIN_TABLES  # build's twin tables: --twin-tables FIRST-LAST (their turns cached; never rendered here)
    if "--twin-tables" in argv:
        i = argv.index("--twin-tables")
        tables = [t for part in argv[i + 1].split(",")  # FIRST-LAST[,FIRST-LAST...]
                  for first, last in [(int(v) for v in part.split("-"))] for t in range(first, last + 1)]
        argv = argv[:i] + argv[i + 2 :]
    return timing_harness.main(argv, __doc__, root=ROOT, corpus=CORPUS, reads=7,
                               build=lambda out: build(out, tables), load=load_corpus,
                               version=Version, sameness=report_sameness, frame=lambda item: item,
                               key=lambda item: f"{item['set']}|{item['key']}")


def report_sameness(pairs: dict[str, tuple[dict, dict]]) -> int:
    kinds = timing_harness.kinds_of(pairs, differences)
    print(f"readings compared: {len(pairs)}; identical: {len(pairs) - sum(len(v) for v in kinds.values())}; "
          f"floats differ only: {len(kinds.get('float', []))}; face/flag/status differ: {len(kinds.get('face/flag', []))}")
    for kind, keys in kinds.items():
        for key in keys[:10]:
            print(f"  {kind}: {key}\n    before {pairs[key][0]}\n    after  {pairs[key][1]}")
    return 1 if kinds.get("face/flag") else 0


if __name__ == "__main__":
    sys.exit(main())
