#!/usr/bin/env python3
"""Train the learned pip counter (rig/vision/pipnet.py) -> calibration/pipnet.npz.

Only the *tuning* photos of the two shared sets are read (white dice: file numbers not divisible
by 3; coloured dice: crc32(file name) % 4 != 0); the held-out photos are skipped before any image
is opened. Samples: every candidate of the colour-agnostic finder whose box holds a label's centre
(class = the label's pips) or no label at all (class 0, not a die), plus each label's own box grown
to the die; each is augmented by random rotations, scales and shifts. A fifth of the tuning photos
(by name) is kept aside to print a validation figure, then the net is trained again on all of them.

    .venv/bin/python scripts/train_pipnet.py [--white DIR] [--colour DIR] [--out calibration/pipnet.npz]
"""

from __future__ import annotations

import argparse
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rig.bench.pips import DEFAULT_COLOUR_DATA, DEFAULT_DATA, load_photos  # noqa: E402
from rig.vision.anydie import AnyDieParams, find_die_groups  # noqa: E402
from rig.vision.pipnet import GROW, PipNet, features  # noqa: E402

AUGMENT = 10


def augmented(frame, box, rng, n):
    x, y, w, h = box
    cx, cy, side = x + w / 2, y + h / 2, max(w, h) * GROW
    out = []
    for i in range(n):
        angle = 0.0 if i == 0 else float(rng.uniform(0, 360))
        scale = 1.0 if i == 0 else float(rng.uniform(0.88, 1.12))
        s = side * scale
        dx, dy = (0.0, 0.0) if i == 0 else rng.uniform(-0.07, 0.07, 2) * side
        m = cv2.getRotationMatrix2D((cx + dx, cy + dy), angle, 1.0)
        m[:, 2] += (s / 2 - cx - dx, s / 2 - cy - dy)
        size = max(4, int(round(s)))
        out.append(features(cv2.warpAffine(frame, m, (size, size), borderMode=cv2.BORDER_REPLICATE)))
    return out


def samples(photos, rng):
    xs, ys = [], []
    params = AnyDieParams()
    for photo in photos:
        frame = cv2.imread(str(photo.path))
        for group in find_die_groups(frame, params):
            for way in group:
                for (bx, by, bw, bh), _ in way:
                    inside = [d for d in photo.dice
                              if bx <= d.box[0] + d.box[2] / 2 <= bx + bw and by <= d.box[1] + d.box[3] / 2 <= by + bh]
                    if len(inside) > 1:
                        continue  # several dice in one box: no single answer
                    if inside and max(bw, bh) > 2.0 * max(inside[0].box[2:]):
                        continue
                    label = inside[0].pips if inside else 0
                    for f in augmented(frame, (bx, by, bw, bh), rng, AUGMENT if label else AUGMENT // 2):
                        xs.append(f)
                        ys.append(label)
        for d in photo.dice:
            x, y, w, h = d.box
            g = 0.12 * max(w, h)
            for f in augmented(frame, (x - g, y - g, w + 2 * g, h + 2 * g), rng, AUGMENT):
                xs.append(f)
                ys.append(d.pips)
    return np.array(xs, np.float32), np.array(ys, np.int64)


def train(x, y, *, hidden=128, epochs=35, seed=0, lr=2e-3, decay=1e-4):
    rng = np.random.default_rng(seed)
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-3
    xn = (x - mean) / std
    params = [rng.normal(0, np.sqrt(2 / x.shape[1]), (x.shape[1], hidden)).astype(np.float32),
              np.zeros(hidden, np.float32),
              rng.normal(0, np.sqrt(2 / hidden), (hidden, 7)).astype(np.float32),
              np.zeros(7, np.float32)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    weights = np.bincount(y, minlength=7).astype(np.float32)
    weights = (weights.sum() / np.maximum(weights, 1) / 7)[y]
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        rate = lr * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        for i in range(0, len(x), 256):
            idx = order[i:i + 256]
            xb, yb, wb = xn[idx], y[idx], weights[idx]
            w1, b1, w2, b2 = params
            h = np.maximum(xb @ w1 + b1, 0)
            z = h @ w2 + b2
            z = np.exp(z - z.max(axis=1, keepdims=True))
            p = z / z.sum(axis=1, keepdims=True)
            p[np.arange(len(yb)), yb] -= 1
            dz = p * wb[:, None] / wb.sum()
            dh = (dz @ w2.T) * (h > 0)
            grads = [xb.T @ dh + decay * w1, dh.sum(0), h.T @ dz + decay * w2, dz.sum(0)]
            step += 1
            for j, g in enumerate(grads):
                m[j] = 0.9 * m[j] + 0.1 * g
                v[j] = 0.999 * v[j] + 0.001 * g * g
                params[j] -= rate * (m[j] / (1 - 0.9 ** step)) / (np.sqrt(v[j] / (1 - 0.999 ** step)) + 1e-8)
    return PipNet(*params, mean.astype(np.float32), std.astype(np.float32))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--white", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--colour", type=Path, default=DEFAULT_COLOUR_DATA)
    parser.add_argument("--aside-model", type=Path, default=None,
                        help="also save the net fitted without the aside fifth (for development)")
    parser.add_argument("--out", type=Path, default=ROOT / "calibration" / "pipnet.npz")
    args = parser.parse_args()
    tuning = [p for p in load_photos(args.white) if not p.held_out]
    tuning += [p for p in load_photos(args.colour, any_name=True) if not p.held_out]
    aside = [p for p in tuning if zlib.crc32(p.path.name.encode()) % 5 == 1]
    fit = [p for p in tuning if p not in aside]
    rng = np.random.default_rng(1)
    x, y = samples(fit, rng)
    xv, yv = samples(aside, rng)
    print(f"{len(tuning)} tuning photos; {len(x)} samples to fit, {len(xv)} to validate (classes {np.bincount(y).tolist()})")
    net = train(x, y)
    if args.aside_model:
        net.save(args.aside_model)  # for development: judged on the aside fifth only
    for name, xs, ys in (("fit", x, y), ("validation", xv, yv)):
        p = net.probabilities(xs)
        print(f"  {name}: {100 * np.mean(p.argmax(1) == ys):.1f}% right; "
              f"of those with p >= 0.9: {100 * np.mean((p.argmax(1) == ys)[p.max(1) >= 0.9]):.1f}% right "
              f"({100 * np.mean(p.max(1) >= 0.9):.0f}% of samples)")
    net = train(np.concatenate([x, xv]), np.concatenate([y, yv]))
    net.save(args.out)
    print(f"wrote {args.out} ({sum(a.size for a in (net.w1, net.b1, net.w2, net.b2))} weights)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
