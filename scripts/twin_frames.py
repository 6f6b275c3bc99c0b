"""Pip twin frames for training the learned pip reader beside the photos (issue 25): ``train_dicenet.py --twin``.

Each frame is a throw on a :class:`rig.twin.pip_table.PipTable` (``--twin 9100-9129``: those tables, ``--twin-throws``
throws each, rendered at ``--twin-spp`` and cached in ~/.cache/rig/twin), developed as ``rig bench vision --game pips
--twin`` develops it (:func:`rig.bench.pip_twin.twin_frame`). The truth is the twin's own geometry
(:meth:`PipTable.frame_boxes`): each die lying flat as a (cx, cy, side, pips) row like a photo's label, and cocked dice,
coins, screw heads and card corners as things that are no die. Tables 9000-9023 are the benchmark's and are refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: the pip twin's benchmark tables (``rig bench vision --game pips --twin``): never fitted on; 9200-9211 the fresh
#: test tables of the thresholds refitted for the finder trained with twin frames (issue 25), 9300-9311 those of the
#: finder trained with flat drawn dice beside them
TEST_TABLES = set(range(9000, 9024)) | set(range(9200, 9212)) | set(range(9300, 9312))


@dataclass(frozen=True)
class TwinShot:
    """Stands for a photo in the training lists: ``path`` names the table and throw (its parent is the set, for
    set-balanced drawing), ``others`` the rows of things that are no die (cx, cy, side, 0)."""

    path: Path
    others: np.ndarray


def seeds(spec: str) -> list[int]:
    """``9100-9129,9140`` -> those seeds; the benchmark's tables are refused."""
    out: list[int] = []
    for part in filter(None, spec.split(",")):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    bad = sorted(set(out) & set(TEST_TABLES))
    if bad:
        raise SystemExit(f"twin tables {bad[0]}-{bad[-1]} are test tables: not for training or tuning")
    return out


def load_twin(spec: str, throws: int, spp: int) -> list[tuple[TwinShot, np.ndarray, np.ndarray]]:
    """(shot, frame, dice) per throw of each table in ``spec``: rendered now if not in the cache."""
    from rig.bench.pip_twin import twin_frame
    from rig.twin.pip_table import PipTable

    from rig.errors import RigError

    out = []
    for seed in seeds(spec):
        table = PipTable.random_pips(seed)
        try:
            shots = table.pip_shots(throws)
        except RigError as exc:  # a tray too small for its dice in view (9109): no frame of it
            print(f"skipped: {exc}")
            continue
        for k, shot in enumerate(shots):
            dice, others = table.frame_boxes(shot)
            out.append((TwinShot(Path("twin") / f"{seed}-{k}", others), twin_frame(table, shot, k, spp), dice))
    return out


def is_twin(entry) -> bool:
    return isinstance(entry[0], TwinShot)


def big_dice_targets(heat: np.ndarray, weight: np.ndarray, pts: np.ndarray, sides: np.ndarray, limit: float,
                     stride: int) -> None:
    """Dice larger than ``limit`` finder px in a tile are not the finder's at this level: no peak is asked for, and
    a disc of a third of their side about the centre is left out of the loss (``weight`` 0) — the pips around it
    stay "no die", as a level too fine must not take them for dice."""
    n = heat.shape[0]
    gy, gx = np.mgrid[0:n, 0:n].astype(np.float32)
    for (px, py), side in zip(pts, sides):
        if side > limit:
            u, v = px / stride - 0.5, py / stride - 0.5
            weight[(gx - u) ** 2 + (gy - v) ** 2 <= (side / stride / 6) ** 2 + 0.5] = 0.0


def drawn_frame(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A 640x480 frame of one to six flat drawn dice (:func:`rig.vision.render_pips.draw_die`: rounded, turned,
    a shadow; any body colour, contrasting pips; 20-90 px) on a plain noisy floor, and their rows: the flat,
    printed dice a finder fine-tuned on photos and renders alone learns to score low (``--drawn``)."""
    import cv2

    from rig.vision.render_pips import draw_die, place_dice

    frame = np.clip(rng.normal(rng.uniform(40, 220, 3), rng.uniform(2, 10), (480, 640, 3)), 0, 255).astype(np.uint8)
    size = log_uniform(rng, 20, 90)
    n = int(rng.integers(1, 7))
    try:
        spots = place_dice(rng, n, size, frame.shape[:2])
    except Exception:  # noqa: BLE001 - too many for the frame: fewer
        spots = place_dice(rng, 1, size, frame.shape[:2])
    rows = []
    for x, y in spots:
        pips = int(rng.integers(1, 7))
        box = draw_die(frame, x, y, size, rng.uniform(0, np.pi / 2), [int(v) for v in rng.integers(0, 256, 3)], pips=pips)
        rows.append((x, y, max(box[2], box[3]), pips))  # its upright box, as the photos and the twin label a die
    if rng.random() < 0.5:
        frame = cv2.GaussianBlur(frame, (0, 0), rng.uniform(0.3, 1.0))
    return frame, np.array(rows, np.float32).reshape(-1, 4)


def log_uniform(rng: np.random.Generator, lo: float, hi: float) -> float:
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def main(argv: list[str] | None = None) -> int:
    """``python scripts/twin_frames.py --nets DIR --tables 9130-9139``: the nets in DIR on those twin tables, read as
    ``rig bench vision --game pips --twin`` reads them with no size known (the dice count given): to choose nets by
    twin tables kept back from training, never by the benchmark's."""
    import argparse
    import sys

    import cv2

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from rig.bench.pip_twin import HEADER, Tally
    from rig.twin.pip_table import PipTable
    from rig.vision import dicenet
    from rig.vision.anydie import read_pip_dice
    from rig.vision.pips import PipParams

    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("--nets", type=Path, default=dicenet.FIND_WEIGHTS.parent)
    parser.add_argument("--tables", default="9130-9139")
    parser.add_argument("--throws", type=int, default=2)
    parser.add_argument("--spp", type=int, default=8)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    dicenet._CACHE[:] = [dicenet.DiceNet(args.nets / dicenet.FIND_WEIGHTS.name, args.nets / dicenet.READ_WEIGHTS.name)]
    params = PipParams.load(None)
    by_style: dict[str, Tally] = {}
    whole = Tally()
    from rig.bench.pip_twin import twin_frame
    from rig.errors import RigError

    for seed in seeds(args.tables):
        table = PipTable.random_pips(seed)
        try:
            shots = table.pip_shots(args.throws)
        except RigError as exc:
            print(f"skipped: {exc}")
            continue
        for k, shot in enumerate(shots):
            truth = table.pip_truth(shot)
            reading = read_pip_dice(twin_frame(table, shot, k, args.spp), params.anydie, expected=(len(truth),))
            for tally in (whole, by_style.setdefault(table.style, Tally())):
                tally.add(truth, reading)
    print(f"nets {args.nets}, twin tables {args.tables}\n{HEADER}")
    for name, tally in sorted(by_style.items()):
        print(tally.line(name[:22]))
    print(whole.line("all"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
