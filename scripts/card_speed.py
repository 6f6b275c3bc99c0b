"""``read_cards``'s speed and sameness on the committed twin card frames: two code versions read alike, timed in turn
(issue 24 part 3).

    .venv/bin/python scripts/card_speed.py build                                  # the corpus, once
    .venv/bin/python scripts/card_speed.py run --before /work/wt-base [--after .] [--reads 5]
    .venv/bin/python scripts/card_speed.py record --out A.json [--code DIR]
    .venv/bin/python scripts/card_speed.py compare A.json B.json

The corpus (~/.cache/rig/cards/speed): every twin frame committed in ``tests/vision/cards_twin`` whose table's profile
and empty box are committed beside it (``tNNNN-*.jpg``, ``tNNNN.toml``, ``tNNNN-empty.jpg``), as it is (640x480) and
scaled to 1280x960 (the empty box scaled alike). ``run`` loads both versions into one process and reads each frame by
the one and then the other (who goes first alternating), ``read_cards`` with the table's profile and empty box, per
frame the least CPU time of ``--reads`` reads (one thread). Every reading is compared: each card's colour, status,
box, corners, pile, hidden exactly; its print ``mark`` within ``MARK_PX`` px (reported apart).
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import timing_harness  # noqa: E402

CORPUS = Path.home() / ".cache" / "rig" / "cards" / "speed"
DATA = ROOT / "tests" / "vision" / "cards_twin"
SIZES = ((640, 480), (1280, 960))
#: two readings' print marks this close (px, full resolution) are the same mark
MARK_PX = 0.25


def build(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    index = []
    for toml in sorted(DATA.glob("t*.toml")):
        table = toml.stem
        empty = DATA / f"{table}-empty.jpg"
        if not empty.exists():
            continue
        for path in sorted(DATA.glob(f"{table}-*.jpg")):
            if path == empty:
                continue
            for w, h in SIZES:
                frame, box = (cv2.resize(cv2.imread(str(p)), (w, h), interpolation=cv2.INTER_LINEAR) for p in (path, empty))
                key = f"{path.stem}-{w}x{h}"
                np.save(out / f"{key}.npy", frame)
                np.save(out / f"{key}-empty.npy", box)
                index.append({"key": key, "set": f"twin cards {w}x{h}", "profile": str(toml)})
    (out / "index.json").write_text(json.dumps(index, indent=1))
    print(f"{len(index)} frames in {out}")


def load(folder: Path) -> list[dict]:
    items = json.loads((folder / "index.json").read_text())
    for item in items:
        item["frame"] = np.load(folder / f"{item['key']}.npy")
        item["empty"] = np.load(folder / f"{item['key']}-empty.npy")
    return items


class Version:
    """One code version's ``read_cards``, imported from ``root`` as a ``rig`` package of its own."""

    def __init__(self, root: Path):
        root = root.resolve()
        cards, empty, profile = timing_harness.import_from(root, "rig.vision.cards", "rig.vision.card_empty", "rig.vision.profile")
        self.root, self.read_cards, self.EmptyBox, self.Profile = root, cards.read_cards, empty.EmptyBox, profile.Profile
        self._profiles: dict = {}

    def read(self, item: dict, reads: int) -> tuple[list, float]:
        profile = self._profiles.setdefault(item["profile"], self.Profile.load(Path(item["profile"])))
        empty = self.EmptyBox.of(item["empty"])
        view = self.read_cards(item["frame"], profile, empty)  # warm
        best = float("inf")
        for _ in range(reads):
            t0 = time.process_time()
            self.read_cards(item["frame"], profile, empty)
            best = min(best, (time.process_time() - t0) * 1000)
        return as_record(view), best


def as_record(view) -> list:
    out = [{"card": c.card, "status": c.status, "box": list(map(int, c.box)) if c.box else None,
            "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in c.corners] if c.corners else None,
            "pile": list(map(int, c.pile)) if c.pile else None, "hidden": bool(c.hidden),
            "mark": [float(c.mark[0]), float(c.mark[1])] if c.mark else None} for c in view.cards]
    return out + [{"hand": list(map(int, h))} for h in view.hands]


def sameness(pairs: dict) -> int:
    """Every reading the same but the marks; the marks within ``MARK_PX`` px, the largest gap printed."""
    other, gaps, lost = [], [], []
    for key, (a, b) in pairs.items():
        strip = [[{k: v for k, v in r.items() if k != "mark"} for r in x] for x in (a, b)]
        if strip[0] != strip[1]:
            other.append(key)
            continue
        for ra, rb in zip(a, b):
            if (ra.get("mark") is None) != (rb.get("mark") is None):
                lost.append(key)
            elif ra.get("mark") is not None:
                gaps.append((float(np.hypot(*np.subtract(ra["mark"], rb["mark"]))), key))
    print(f"frames {len(pairs)}: readings other than the mark differ on {len(other)} {other[:6]}")
    print(f"marks found by one and not the other: {len(lost)} {lost[:6]}")
    if gaps:
        gaps.sort()
        print(f"marks compared {len(gaps)}: gap median {gaps[len(gaps) // 2][0]:.3f} px, largest {gaps[-1][0]:.3f} px ({gaps[-1][1]})")
    return 0 if not other and not lost and (not gaps or gaps[-1][0] <= MARK_PX) else 1


def main(argv: list[str] | None = None) -> int:
    return timing_harness.main(argv, __doc__, root=ROOT, corpus=CORPUS, reads=5, build=build, load=load, version=Version,
                               sameness=sameness, frame=lambda item: item, key=lambda item: item["key"],
                               what=", read_cards with the table's empty box")


if __name__ == "__main__":
    raise SystemExit(main())
