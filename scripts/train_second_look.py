"""Train the second look at flagged dice (rig.vision.dice_second_look, issue 24 round 11) on twin dice with their
truth, and measure what it frees (``--evaluate``).

The crops come from ``scripts/frog_crops.py`` (every die the reader found on the twin's turns, all four lights,
with the true die it matches: flat, cocked or none, and its face). Torch and onnx are needed for training only;
the rig runs the net by ``cv2.dnn``. Seeded (torch.manual_seed, numpy's generator); one thread.

    PYTHONPATH=. python scripts/train_second_look.py --crops ~/.cache/rig/dice/r11/crops --epochs 25 \
        --flagged-weight 4 --out OUT/d.onnx                                  # d (round 11): twin + propped
    ... --train 100:17,6000:12,8000:12,8200:12,8600:12,5000p:24,71000u:24 --epochs 20 --flagged-weight 4  # f
    ... --train 100:17,6000:12,8000:12,8200:12,8600:12,5000p:24,71000u:6 --epochs 22 --flagged-weight 4   # g
    .venv/bin/python scripts/train_second_look.py --crops ~/.cache/rig/dice/r11/crops --out OUT/d.onnx \
        --evaluate 8700:12,8800:12,72000u:12

    ... --train 100:17,6000:12,8000:12,8200:12,8600:12,5000p:24,71000u:6 --measures --drawn-share 0.3 \
        --plain 0.3 --epochs 12 --flagged-weight 4                         # h (round 12): crop + measures
    .venv/bin/python scripts/train_second_look.py --crops ~/.cache/rig/dice/r12/crops \
        --out calibration/second_look.onnx --evaluate 8700:12,8800:12,8900:12,72000u:12   # the shipped net

(torch from another environment, PYTHONPATH this checkout; the shipped net is d, with the square rule of
rig.vision.dice_second_look: docs/vision.md, rounds 11 and 12.)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from rig.vision.dice_cocked import MEASURES
from rig.vision.dice_second_look import FACE_SURE, FACES, FLAT_SURE, OTHER_SURE, STATES, named, verdicts

sys.path.insert(0, str(Path(__file__).resolve().parent))
from twin_turns import figures  # noqa: E402


def tables(spec: str) -> list[str]:
    """``100:17,5000p:12`` -> table file stems (``p``: propped turns, ``u``: 2D tables of ``--unseen``)."""
    out = []
    for part in filter(None, spec.split(",")):
        first, n = part.split(":")
        p = first[-1] if first[-1] in "pu" else ""
        out += [f"{s}{p}" for s in range(int(first.rstrip("pu")), int(first.rstrip("pu")) + int(n))]
    return out


def load(crops: Path, spec: str) -> tuple[list[dict], np.ndarray, np.ndarray]:
    """The turn lines of the tables (refused ones left out), all their crops (the dice' ``i`` made global) and
    each crop's hand-made measures (``dice_cocked.MEASURES``; zeros in a dump made without them)."""
    lines, xs, ms, base = [], [], [], 0
    for stem in tables(spec):
        path = crops / f"{stem}.jsonl"
        if not path.exists():
            continue
        ls = [json.loads(s) for s in path.read_text().splitlines()]
        if any("refused" in s for s in ls):
            continue
        x = np.load(path.with_suffix(".npy"))
        m = np.zeros((len(x), len(MEASURES)), np.float32)
        for s in ls:
            for o in s["seen"]:
                if "m" in o:
                    m[o["i"], : len(o["m"])] = o["m"]
                o["i"] += base
                o["source"] = "u" if stem.endswith("u") else "t"
        base += len(x)
        lines += ls
        xs.append(x)
        ms.append(m)
    if not xs:
        return lines, np.zeros((0, 48, 48, 4), np.float16), np.zeros((0, len(MEASURES)), np.float32)
    return lines, np.concatenate(xs), np.concatenate(ms)


def targets(lines: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each die's crop row, true state and face (-1: no die), whether the reader named it in a reason (the
    dice the net will be asked about) and whether it is a 2D table's."""
    idx, state, face, flagged, drawn = [], [], [], [], []
    for s in lines:
        own, _ = named(s["reasons"], [(o["x"], o["y"]) for o in s["seen"]], s["side"], every=True)
        for o, js in zip(s["seen"], own):
            idx.append(o["i"])
            state.append(STATES.index(o["state"]))
            face.append(FACES.index(o["true_face"]) if o["true_face"] else -1)
            flagged.append(bool(js) or o["cocked"])
            drawn.append(o["source"] == "u")
    return np.array(idx), np.array(state), np.array(face), np.array(flagged), np.array(drawn)


def model(measures: np.ndarray | None = None, wide: int = 1):
    """The net: the crop through four blocks of 3x3 convolutions down to 3x3 px and two dense layers; with
    ``measures`` (the training dice's hand-made measures, for their mean and spread) those measures, standardised
    inside the net, join the dense layers through a layer of their own (a second input, ``measures``)."""
    import torch
    import torch.nn as nn

    def block(a, b):
        return [nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU(), nn.Conv2d(b, b, 3, padding=1),
                nn.BatchNorm2d(b), nn.ReLU(), nn.MaxPool2d(2)]

    c1, c2, c3 = 16 * wide, 24 * wide, 32 * wide

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            # 48 -> 24 -> 12 -> 6 -> 3 px: the die's place in the crop (its flank towards or away from the optical
            # centre) stays in the last map; about 56,000 weights (225 KB) at wide 1 without measures
            self.trunk = nn.Sequential(*block(4, c1), *block(c1, c2), *block(c2, c3),
                                       nn.Conv2d(c3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
                                       nn.Flatten())
            n = 0 if measures is None else measures.shape[1]
            self.measured = n > 0
            if n:
                self.register_buffer("mean", torch.tensor(measures.mean(0), dtype=torch.float32))
                self.register_buffer("scale", torch.tensor(1.0 / (measures.std(0) + 1e-3), dtype=torch.float32))
                self.side = nn.Sequential(nn.Linear(n, 32), nn.ReLU())
            self.head = nn.Sequential(nn.Linear(32 * 9 + (32 if n else 0), 64), nn.ReLU(),
                                      nn.Linear(64, len(STATES) + len(FACES)))

        def forward(self, x, m=None):
            h = self.trunk(x)
            if self.measured:
                h = torch.cat([h, self.side((m - self.mean) * self.scale)], 1)
            return self.head(h)

    return Net()


def train(args) -> None:
    import torch
    import torch.nn.functional as F

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    lines, x, meas = load(args.crops, args.train)
    idx, state, face, flagged, drawn = targets(lines)
    if args.plain < 1.0:  # a share of the dice no reason names (the many easy flat ones) is enough
        keep = flagged | (state != 0) | (rng.random(len(idx)) < args.plain)
        idx, state, face, flagged, drawn = idx[keep], state[keep], face[keep], flagged[keep], drawn[keep]
    print(f"training dice: {len(idx)} ({int(drawn.sum())} drawn); states {Counter(STATES[s] for s in state)}; "
          f"flagged {Counter(STATES[s] for s in state[flagged])}", flush=True)
    w = np.where(flagged, args.flagged_weight, 1.0)
    if args.drawn_share is not None and drawn.any():  # the 2D tables' dice weigh this share of the twin's in all
        w[drawn] *= args.drawn_share * w[~drawn].sum() / w[drawn].sum()
    hard = torch.from_numpy(w.astype(np.float32))
    X = torch.from_numpy(x[idx].astype(np.float32)).permute(0, 3, 1, 2).contiguous()
    M = torch.from_numpy(meas[idx]) if args.measures else None
    S, Fc = torch.from_numpy(state), torch.from_numpy(face)
    # the rare truly cocked dice and the no-dice weigh as much as the flat ones (by their weights)
    w_state = torch.tensor([w.sum() / (3 * max(1e-6, w[state == k].sum())) for k in range(3)], dtype=torch.float32)
    net = model(meas[idx] if args.measures else None, args.wide)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.epochs * (len(X) // 64 + 1))
    for epoch in range(args.epochs):
        net.train()
        order = torch.from_numpy(rng.permutation(len(X)))
        total = 0.0
        for b in range(0, len(X), 64):
            j = order[b : b + 64]
            xb = X[j].clone()
            flip = torch.from_numpy(rng.random(len(j)) < 0.5)
            xb[flip] = xb[flip].flip(2)  # mirrored across the line to the optical centre: the same die
            if args.hue is None:  # round 11: each channel's gain 0.8-1.2 on its own
                gain = torch.from_numpy(rng.uniform(0.8, 1.2, (len(j), 3, 1, 1)).astype(np.float32))
            else:  # the light's gain 0.8-1.2, its hue shifted by each channel's 1 +- hue
                g = rng.uniform(0.8, 1.2, (len(j), 1, 1, 1)) * rng.uniform(1 - args.hue, 1 + args.hue, (len(j), 3, 1, 1))
                gain = torch.from_numpy(g.astype(np.float32))
            xb[:, :3] = (xb[:, :3] + 0.5) * gain - 0.5
            sx, sy = rng.integers(-2, 3, 2)
            xb = torch.roll(xb, (int(sy), int(sx)), (2, 3))
            z = net(xb, M[j] if M is not None else None)
            wj = hard[j]
            loss = (F.cross_entropy(z[:, :3], S[j], weight=w_state, reduction="none") * wj).sum() / wj.sum()
            has = Fc[j] >= 0
            if has.any():
                loss = loss + (F.cross_entropy(z[has, 3:], Fc[j][has], reduction="none") * wj[has]).sum() / wj[has].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(j)
        print(f"epoch {epoch}: loss {total / len(X):.4f}", flush=True)
    net.eval()
    if M is not None:
        torch.onnx.export(net, (torch.zeros(1, 4, 48, 48), torch.zeros(1, M.shape[1])), str(args.out),
                          input_names=["crop", "measures"], output_names=["logits"], opset_version=11,
                          dynamic_axes={"crop": {0: "n"}, "measures": {0: "n"}, "logits": {0: "n"}}, dynamo=False)
    else:
        torch.onnx.export(net, torch.zeros(1, 4, 48, 48), str(args.out), input_names=["crop"], output_names=["logits"],
                          opset_version=11, dynamic_axes={"crop": {0: "n"}, "logits": {0: "n"}}, dynamo=False)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")


def unsquare_free(reasons: list[str], mine: list[int], p: np.ndarray, cocked_sure: float | None) -> bool:
    """Whether a die whose top is not square may be freed all the same: its own flags (``mine``) are all plain
    "cocked die" (the flank and aspect tests') and the net gives it lying flat at least ``cocked_sure``."""
    return cocked_sure is not None and p[0] >= cocked_sure and all(
        str(reasons[j]).split(" at (")[0] == "cocked die" for j in mine)


def simulate(lines: list[dict], probs: np.ndarray, sure: tuple[float, float, float], freeable=None,
             use_square: bool = True, cocked_sure: float | None = None) -> tuple[list, Counter]:
    """The turn lines as the reader with the second look would give them (status and reasons), and counts of the
    dice it freed / flagged by their truth (``use_square``: the square rule; ``cocked_sure``: :func:`unsquare_free`)."""
    import rig.vision.dice_second_look as sl

    saved = sl.FREEABLE
    if freeable is not None:
        sl.FREEABLE = freeable
    out, tally = [], Counter()
    try:
        for s in lines:
            s = dict(s)
            if s["status"] != "ok":
                seen = s["seen"]
                own, rest = named(s["reasons"], [(o["x"], o["y"]) for o in seen], s["side"])
                if not rest:
                    looked = [i for i, js in enumerate(own) if js]
                    said = verdicts(probs[[seen[i]["i"] for i in looked]], [seen[i]["face"] for i in looked], *sure)
                    said = [v if v != "flat" or not use_square or sl.square(*seen[i]["m"][:2])
                            or unsquare_free(s["reasons"], own[i], probs[seen[i]["i"]], cocked_sure) else "keep"
                            for i, v in zip(looked, said)]
                    drop, added = set(), []
                    for i, v in zip(looked, said):
                        o = seen[i]
                        truth = o["state"] + ("" if o["true_face"] == o["face"] else " misread")
                        tally[f"{v}: {truth}"] += 1
                        if v == "flat":
                            drop.update(own[i])
                        elif v == "other":
                            added.append("second look")
                    reasons = [r for j, r in enumerate(s["reasons"]) if j not in drop] + added
                    rest = [seen[i]["i"] for i in range(len(seen)) if not own[i]]
                    if not reasons and rest and 1.0 - probs[rest, 0].min() >= sl.COCKED_GUARD:
                        tally["guard kept"] += 1
                        reasons = s["reasons"]
                    s["reasons"], s["status"] = reasons, "uncertain" if reasons else "ok"
            out.append(s)
    finally:
        sl.FREEABLE = saved
    return out, tally


def table_row(name: str, lines: list[dict]) -> str:
    parts = []
    for light, part in (("same", [s for s in lines if s["drift"] == "same"]),
                        ("all drift", [s for s in lines if s["drift"] != "same"])):
        r = figures(part)
        parts.append(f"{light}: dice {100 * r['right'] / max(1, r['dice']):.1f} %, silent {r['silent']}, needless "
                     f"{r['needless']}/{r['frames']} = {100 * r['needless'] / max(1, r['frames']):.1f} %, cocked "
                     f"{r['cocked_flagged']}/{r['cocked']}")
    return f"{name:<12} " + " | ".join(parts)


def evaluate(args) -> None:
    import cv2

    from rig.vision.dice_second_look import look

    model = cv2.dnn.readNetFromONNX(str(args.out))
    try:  # a net that takes the dice's hand-made measures beside their crops (--measures) has a second input
        model.setInput(np.zeros((1, len(MEASURES)), np.float32), "measures")
        measured = True
    except cv2.error:
        measured = False
    freeable = tuple(args.freeable.split(";")) if args.freeable else None
    import rig.vision.dice_second_look as sl

    if args.guard is not None:
        sl.COCKED_GUARD = args.guard
    if args.square is not None:
        sl.SQUARE, sl.WHOLE = (float(v) for v in args.square.split(","))
    for part in [args.evaluate] if args.pool else args.evaluate.split(","):
        lines, x, meas = load(args.crops, part)
        if not lines:
            continue
        probs = np.concatenate([look(x[b : b + 256].astype(np.float32), meas[b : b + 256] if measured else None, model)
                                for b in range(0, len(x), 256)])
        print(table_row(f"{part} before", lines))
        for sure in args.sure.split(";"):  # several flat, face, other-face thresholds: one row each
            after, tally = simulate(lines, probs, tuple(float(v) for v in sure.split(",")), freeable,
                                    not args.no_square, args.cocked_sure)
            print(table_row(f"{part} after {sure}", after))
            print(f"{'':<12} looked at: {dict(sorted(tally.items()))}")
            changed = [(a, b) for a, b in zip(lines, after) if a["status"] != b["status"]]
            bad = [(a, b) for a, b in changed if b["status"] == "ok" and (b["wrong"] or b["has_cocked"])]
            for a, b in bad:
                print(f"{'':<12} FREED {'WRONG' if b['wrong'] else 'COCKED'}: {b['seed']} {b['drift']} t{b['turn']} "
                      f"{a['reasons']}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--crops", type=Path, required=True)
    ap.add_argument("--train", default="100:17,6000:12,8000:12,8200:12,8600:12,5000p:24")
    ap.add_argument("--out", type=Path, default=Path("calibration/second_look.onnx"))
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--flagged-weight", type=float, default=1.0,
                    help="the weight of the dice the reader names in a reason (the ones the net is asked about)")
    ap.add_argument("--measures", action="store_true",
                    help="give the net the die's hand-made measures (dice_cocked.MEASURES) beside its crop")
    ap.add_argument("--drawn-share", type=float,
                    help="the 2D tables' dice weigh this share of the twin's dice in all (default: as many as they are)")
    ap.add_argument("--plain", type=float, default=1.0,
                    help="the share of the flat dice no reason names trained on (default: all)")
    ap.add_argument("--hue", type=float,
                    help="augment by one light gain 0.8-1.2 and a hue shift (each channel 1 +- HUE) instead of "
                         "round 11's three channel gains 0.8-1.2 on their own")
    ap.add_argument("--wide", type=int, default=1, help="the convolutions' width, in multiples of round 11's")
    ap.add_argument("--evaluate", help="FIRST:N,... sets to measure the net --out on (no training)")
    ap.add_argument("--sure", default=f"{FLAT_SURE},{FACE_SURE},{OTHER_SURE}",
                    help="flat, face and other-face thresholds (default: the module's); several ';'-separated")
    ap.add_argument("--square", help="SQUARE,WHOLE: the least aspect and area of a top freed (default: the module's)")
    ap.add_argument("--pool", action="store_true", help="--evaluate's sets as one row (default: a row each)")
    ap.add_argument("--no-square", action="store_true", help="simulate without the square rule")
    ap.add_argument("--cocked-sure", type=float,
                    help="free a die whose top is not square when its only flags are plain 'cocked die' and the net "
                         "gives it flat at least this")
    ap.add_argument("--guard", type=float, help="COCKED_GUARD (default: the module's)")
    ap.add_argument("--freeable", help="the reason kinds it may free, ';'-separated (default: the module's)")
    args = ap.parse_args(argv)
    if args.evaluate:
        evaluate(args)
    else:
        train(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
