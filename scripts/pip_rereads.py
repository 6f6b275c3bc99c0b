"""Each pip die read ``ok``, read again in other crops: which sure misreadings a second look would flag (issue 25, round 21).

Reads the tuning photos at the four scales of ``rig bench vision --game pips --scales`` ("no size hint", the dice cut by
the frame's edge left out, labels matched as the bench does) or the pip twin's tables as ``--twin`` does ("no size
known", 16 spp, the dice count given), with the tree's nets and ``[anydie]`` thresholds. For every die the reader
reports ``ok`` it reads the die's crop again at each of :data:`CROPS` (a side's multiple and a shift of the centre, in
sides) and prints each die read wrong and ``ok`` with the probability the reader gives its number in each crop; then,
per rule "crop GROW, below LEAST", the silent dice it would flag and the right ``ok`` dice it would flag with them
(``rig.vision.diewide``, ``[anydie] wide_grow`` / ``wide_ok``).

    PYTHONPATH=. .venv/bin/python scripts/pip_rereads.py --photos
    PYTHONPATH=. .venv/bin/python scripts/pip_rereads.py --twin 9380,9300 --rule 1.4:0.5 --rule 1.2:0.6
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import cv2
import numpy as np

#: the crops a die is read again in: (side's multiple, shift right, shift down), the shifts in sides
CROPS = (
    (1.0, 0.0, 0.0),
    (1.2, 0.0, 0.0),
    (1.4, 0.0, 0.0),
    (0.85, 0.0, 0.0),
    (1.0, 0.15, 0.0),
    (1.0, -0.15, 0.0),
    (1.0, 0.0, 0.15),
    (1.0, 0.0, -0.15),
)


@dataclass
class OkDie:
    where: str
    truth: int | None  # None: matched to no label (an extra die)
    pips: int
    side: float
    probs: np.ndarray  # the reader's probability of ``pips`` in each of CROPS

    @property
    def silent(self) -> bool:
        return self.truth is not None and self.truth != self.pips


def reread(frame, dice, matched: dict, where: str, nets) -> list[OkDie]:
    """The ``ok`` dice of one frame read again in each of :data:`CROPS`; ``matched``: die index -> its label's pips."""
    out = []
    for i, d in enumerate(dice):
        if d.count.status != "ok" or not 1 <= d.pips <= 6:
            continue
        x, y, w, h = d.box
        s, cx, cy = max(w, h), x + w / 2, y + h / 2
        p = nets.read_at(frame, [(cx + dx * s, cy + dy * s, s * g) for g, dx, dy in CROPS])[:, d.pips]
        out.append(OkDie(where, matched.get(i), d.pips, s, p))
    return out


def photo_dice(params, nets) -> list[OkDie]:
    from rig.bench.pips import DEFAULT_COLOUR_DATA, DEFAULT_DATA, SCALES, grown_box, load_photos, scaled_frame
    from rig.vision.anydie import read_pip_dice

    out = []
    for name, photos in (
        ("coloured", load_photos(DEFAULT_COLOUR_DATA, any_name=True, tuning_only=True)),
        ("white", load_photos(DEFAULT_DATA, any_name=False, tuning_only=True)),
    ):
        for factor in SCALES:
            for photo in photos:
                shown, frame, cut = scaled_frame(photo, cv2.imread(str(photo.path)), factor)
                cut_boxes = [grown_box(c.box) for c in cut]
                dice = [
                    d
                    for d in read_pip_dice(frame, params).dice
                    if not any(
                        bx <= d.box[0] + d.box[2] / 2 <= bx + bw and by <= d.box[1] + d.box[3] / 2 <= by + bh
                        for bx, by, bw, bh in cut_boxes
                    )
                ]
                matched: dict[int, int] = {}
                for lab in shown.dice:
                    cx, cy = lab.box[0] + lab.box[2] / 2, lab.box[1] + lab.box[3] / 2
                    hit = next(
                        (
                            k
                            for k, d in enumerate(dice)
                            if k not in matched
                            and d.box[0] <= cx <= d.box[0] + d.box[2]
                            and d.box[1] <= cy <= d.box[1] + d.box[3]
                        ),
                        None,
                    )
                    if hit is not None:
                        matched[hit] = lab.pips
                out += reread(frame, dice, matched, f"{name} x{factor:g} {photo.path.name}", nets)
    return out


def twin_dice(firsts: list[int], params, nets, tables: int = 12) -> list[OkDie]:
    from rig.bench.pip_twin import twin_frame
    from rig.errors import RigError
    from rig.twin.pip_table import PipTable
    from rig.vision.anydie import read_pip_dice

    out = []
    for seed in (s for first in firsts for s in range(first, first + tables)):
        table = PipTable.random_pips(seed)
        try:
            shots = table.pip_shots(2)
        except RigError:
            continue
        for k, shot in enumerate(shots):
            frame = twin_frame(table, shot, k, 16)
            dice = read_pip_dice(frame, params, expected=(len(shot.dice),)).dice
            matched: dict[int, int] = {}
            for t in table.pip_truth(shot):
                hit = min(
                    (
                        i
                        for i, f in enumerate(dice)
                        if i not in matched
                        and abs(f.centre[0] - t.x) < 0.5 * t.side_px
                        and abs(f.centre[1] - t.y) < 0.5 * t.side_px
                    ),
                    key=lambda i: abs(dice[i].centre[0] - t.x) + abs(dice[i].centre[1] - t.y),
                    default=None,
                )
                if hit is not None and not t.cocked:
                    matched[hit] = t.value
            out += reread(frame, dice, matched, f"twin {seed} throw {k}", nets)
    return out


def report(dice: list[OkDie], rules: list[tuple[float, float]]) -> None:
    crops = "  ".join(f"x{g:g}{'' if not (dx or dy) else f'@{dx:+g},{dy:+g}'}" for g, dx, dy in CROPS)
    print(f"{len(dice)} ok dice, {sum(d.silent for d in dice)} read wrong; p(its number) in crops {crops}")
    for d in dice:
        if d.silent:
            print(f"  {d.where}: {d.truth} read {d.pips} ({d.side:.0f} px)  " + " ".join(f"{p:.2f}" for p in d.probs))
    for grow, least in rules:
        k = next(i for i, (g, dx, dy) in enumerate(CROPS) if g == grow and not dx and not dy)
        flagged = [d for d in dice if d.probs[k] < least]
        print(
            f"crop x{grow:g}, below {least:g}: flags {sum(d.silent for d in flagged)} of the wrong "
            f"({', '.join(d.where for d in flagged if d.silent) or '-'}), "
            f"{sum(d.truth == d.pips for d in flagged)} right, {sum(d.truth is None for d in flagged)} extra"
        )


def main(argv: list[str] | None = None) -> int:
    from rig.vision.dicenet import default_dicenet
    from rig.vision.pips import PipParams

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", action="store_true", help="the tuning photos at the four scales")
    parser.add_argument("--twin", default="", metavar="FIRSTS", help="pip twin sets by first table, e.g. 9380,9300")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="GROW:LEAST",
        help="a wider-crop rule to count (default 1.2:0.6 and 1.4:0.5)",
    )
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    nets = default_dicenet()
    rules = [tuple(float(v) for v in r.split(":")) for r in args.rule] or [(1.2, 0.6), (1.4, 0.5)]
    params = PipParams.load(None).anydie
    if args.photos:
        report(photo_dice(params, nets), rules)
    if args.twin:
        report(twin_dice([int(v) for v in args.twin.split(",")], params, nets), rules)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
