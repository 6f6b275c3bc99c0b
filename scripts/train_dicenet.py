"""Train the learned pip-dice reader (rig.vision.dicenet): the finder net and the pip-count net.

    .venv/bin/python -m pip install torch==2.13.0 onnx   # CPU torch and onnx, for training only
    .venv/bin/python scripts/train_dicenet.py  # writes calibration/dicenet_find.onnx, dicenet_read.onnx

Only the *tuning* photographs of the two shared sets are used (the held-out ones are skipped by
name, never opened: rig.bench.pips.load_photos(tuning_only=True)); of those, the photos whose
crc32(name) % 5 == 1 are kept back as a validation slice for choosing the flag thresholds
(``--val-report`` prints the figures that choice needs; ``scripts/tune_dicenet.py`` the same at every
scale of ``rig bench vision --game pips --scales``). Seeded (torch.manual_seed, numpy's generator).

The first nets (git show 6a52325:calibration/dicenet_find.onnx, ...dicenet_read.onnx) were made from
scratch by two runs, ``--only finder`` (2 threads, about 15 minutes) and ``--only reader --threads 1
--mine-with OLD --mine-crop 32`` (about 30 minutes on one core) where OLD is the 32 px reader before it
(``git show 6601d25:calibration/dicenet_read.onnx``; the dice it misreads are drawn more often).
Issue 25's attempt (not shipped: docs/games.md, "Retrained with scale augmentation") went on from
those (``--start DIR``, DIR holding them) with scale augmentation, on one thread under ``nice`` (seed 0):

    OMP_NUM_THREADS=1 nice .venv/bin/python scripts/train_dicenet.py --only finder --start DIR --lr 1.5e-3 \
        --finder-epochs 14 --sizes 9,30 --lowres 0.5 --distract 0.3 --threads 1 --out OUT    # 21 min
    OMP_NUM_THREADS=1 nice .venv/bin/python scripts/train_dicenet.py --only reader --start DIR --lr 1e-3 \
        --reader-epochs 30 --small 0.4 --threads 1 --out OUT                                 # 16 min

(the finder's dice 9-30 px in its tiles, half the tiles from a photo first shrunk as a farther camera
sees it, three in ten with a coin, ring, screw, knot, fingertip and card corner drawn in; the reader's
crops four in ten of dice shrunk to 11-30 px, and pips of dice and drawn things as "not a die").

Issue 25's finder trained with pip twin frames beside the photos (not shipped: docs/games.md, "Trained with pip twin
frames"): ``--twin`` takes throws of pip twin tables (scripts/twin_frames.py; rendered first if not cached, about
40 s a table of two throws at 8 spp on the shared machine; tables 9000-9023 are the benchmark's and refused), their
truth from the twin's geometry (rig.twin.pip_table.PipTable.frame_boxes). Table 9109 keeps no throw in view and
is skipped. On one thread under ``nice`` (load average 10-16 on two cores), from the nets shipped before (seed 0):

    OMP_NUM_THREADS=1 nice .venv/bin/python scripts/train_dicenet.py --only finder --start calibration --lr 1e-3 \
        --finder-epochs 18 --threads 1 --twin 9100-9108,9110-9117 --twin-repeat 3 --twin-big 0.25 \
        --distract 0.2 --seed 0 --out OUT          # A: 21 min (7 min CPU); 34 twin frames, 169 dice
    OMP_NUM_THREADS=1 nice .venv/bin/python scripts/train_dicenet.py --only finder --start calibration --lr 1e-3 \
        --finder-epochs 14 --threads 1 --twin 9100-9108,9110-9129 --twin-repeat 2 --twin-big 0.25 \
        --seed 0 --out OUT                         # C: 15 min (5 min CPU); 58 twin frames, 309 dice
    ... the same as C with --drawn 0.1                # D: 17 min

(A: the photos' tiles as the first nets', two in ten with the drawn things; each twin frame counted as three photos,
its tiles with dice of 9-26 px, one in four with dice of 28-64 px, a level too fine for them: no peak asked
there, their pips "no die"). Tables 9130-9139 were kept back to choose by:
``python scripts/twin_frames.py --nets OUT --tables 9130-9139``.

Issue 25's next round (docs/games.md, "Flat drawn dice in the twin-trained finder's training"): C's finder trained on
five more epochs with flat drawn dice (twin_frames.drawn_frame) in place of photo tiles only (``--drawn-from
photos``: the twin frames' share of the tiles kept, 28 %), one thread under ``nice`` (load average 15-17 on two
cores, about 6 % of a core each, two runs side by side):

    OMP_NUM_THREADS=1 nice .venv/bin/python scripts/train_dicenet.py --only finder --start ~/.cache/rig/k25/runC \
        --lr 5e-4 --finder-epochs 5 --threads 1 --twin 9100-9108,9110-9129 --twin-repeat 2 --twin-big 0.25 \
        --drawn 0.14 --drawn-from photos --seed 0 --out OUT    # G: 26 min; 0.28: H, 27 min

Rebuilt on a new machine (docs/games.md, "G rebuilt and refitted on a new machine"): C then G by the lines above
(``--start calibration`` for C, ``--start`` C's folder for G, OUT ``~/.cache/rig/pips/runC``, ``runG``), the twin
tables 9100-9129 rendered first by the C run (11 min), C 6 min and G 5 min of training at load average 5-9.

G's smallest dice (docs/games.md, "G's last faults, and G trained on with shrunk photos"; not shipped): **J**, G's
finder trained on three more epochs with one photo tile in three first shrunk as a farther camera sees it
(``--lowres 0.3``), the reader G's (the shipped one, copied into OUT beforehand), one thread under ``nice`` (load
average 11-13), 12 min:

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python scripts/train_dicenet.py --only finder --start ~/.cache/rig/pips/runG \
        --lr 3e-4 --finder-epochs 3 --threads 1 --twin 9100-9108,9110-9129 --twin-repeat 2 --twin-big 0.25 \
        --drawn 0.14 --drawn-from photos --lowres 0.3 --seed 0 --out ~/.cache/rig/pips/runJ
    ... the same with --distract 0.2 --out ~/.cache/rig/pips/runK    # K: 141 s at load average 7-9

K on today's code (docs/games.md, "The twin-trained finder K on today's pyramid, tests and bar"; not shipped): **K2**,
K's finder trained on two more epochs with twice the flat drawn dice (K's reader copied into OUT beforehand), 6.5 min
at load average 18-20; it still reads the rendered white dice of ``render_pip_dice`` seed 10 as their pips:

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python scripts/train_dicenet.py --only finder --start ~/.cache/rig/pips/runK \
        --lr 3e-4 --finder-epochs 2 --threads 1 --twin 9100-9108,9110-9129 --twin-repeat 2 --twin-big 0.25 \
        --drawn 0.28 --drawn-from photos --lowres 0.3 --distract 0.2 --seed 0 --out ~/.cache/rig/pips/runK2

K's faults one by one (docs/games.md, "K's second opinion chosen at the drawn things' seeds, and K3"; not shipped):
**K3**, K's finder trained on two more epochs by J's recipe (K's without ``--distract``; K's reader copied into OUT
beforehand), 4.5 min at load average 14-18; it reads the rendered white dice of seed 10 right:

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python scripts/train_dicenet.py --only finder --start ~/.cache/rig/pips/runK \
        --lr 3e-4 --finder-epochs 2 --threads 1 --twin 9100-9108,9110-9129 --twin-repeat 2 --twin-big 0.25 \
        --drawn 0.14 --drawn-from photos --lowres 0.3 --seed 0 --out ~/.cache/rig/pips/runK3

Round 31 (docs/games.md, "The finder trained on with twin frames, the photos' own scores kept"; not shipped): **P**, the shipped
finder trained on with new twin tables 9140-9159 (and 9100-9103) while its photo and drawn tiles ask for the shipped
finder's own heat and sizes, not their labels (``--keep-photos``), so that the thresholds chosen on the photos still
hold; tables 9170-9179 kept back to choose by (``twin_frames.py --nets OUT --tables 9170-9179``); one thread under
``nice -n 10`` (load average 10-12), 22 min:

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python scripts/train_dicenet.py --only finder --start calibration --lr 1e-3 \
        --finder-epochs 10 --threads 1 --twin 9100-9103,9140-9159 --twin-repeat 2 --twin-big 0.25 --drawn 0.1 \
        --drawn-from photos --keep-photos 10 --seed 0 --out ~/.cache/rig/piptwin/runP
    ... --start DIR (the shipped finder) --lr 5e-4 --finder-epochs 6 --twin 9100-9103,9140-9169 (no --twin-big)
        --keep-photos 30 --out ~/.cache/rig/piptwin/runQ          # Q: 7 min; with --lr 1e-3 --finder-epochs 10: R, 10 min
    ... P's line with --twin 9100-9103,9140-9169 --keep-photos 30 --sizes 9,48 --out ~/.cache/rig/piptwin/runS   # S

Round 32 (docs/games.md, "The twin-trained finder with the photos kept at every scale"): **T**, P's line with tables
9140-9169 and half the photo tiles windows of whole pyramid levels of the photo at x0.35-1.7 (``--keep-levels``: the
shipped finder's output on the whole level asked for, as the pyramid runs it with no size hint), the shipped reader
copied into OUT beforehand; 15 min at load average 9-15 (not shipped):

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python scripts/train_dicenet.py --only finder --start calibration --lr 1e-3 \
        --finder-epochs 10 --threads 1 --twin 9100-9103,9140-9169 --twin-repeat 2 --twin-big 0.25 --drawn 0.1 \
        --drawn-from photos --keep-photos 10 --keep-levels 0.5 --seed 0 --out ~/.cache/rig/piptwin/runT
    ... T's line with --twin-big-max 120 --out ~/.cache/rig/piptwin/runU                               # U: 17 min
    ... U's line with --keep-photos 20 --keep-levels 0.7 --out ~/.cache/rig/piptwin/runV               # V
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from onnx_weights import load_onnx  # noqa: E402 - scripts/, beside this one
from tune_dicenet import validation_report  # noqa: E402
from twin_frames import big_dice_targets, drawn_frame, is_twin, load_twin  # noqa: E402
from rig.bench.pips import DEFAULT_COLOUR_DATA, DEFAULT_DATA, Photo, load_photos  # noqa: E402
from rig.vision.dicenet import (CROP, FIND_DIE, FIND_LONG, FIND_MAX, FIND_WEIGHTS, LEVELS, MIN_DIE,  # noqa: E402
                                READ_WEIGHTS, STRIDE, crop_die, crop_matrix, finder_input)
from rig.vision.dicetiles import REACH  # noqa: E402

FIND_SIZE = FIND_LONG  # finder training tiles: FIND_SIZE x FIND_SIZE


def is_validation(path: Path) -> bool:
    return zlib.crc32(path.stem.encode()) % 5 == 1


def load(folder: Path, any_name: bool) -> list[tuple[Photo, np.ndarray, np.ndarray]]:
    """(photo, image, dice) per tuning photo; dice rows (cx, cy, side, pips) in frame px."""
    out = []
    for photo in load_photos(folder, any_name=any_name, tuning_only=True):
        image = cv2.imread(str(photo.path))
        dice = np.array([(x + w / 2, y + h / 2, max(w, h), d.pips) for d in photo.dice for x, y, w, h in [d.box]],
                        np.float32).reshape(-1, 4)
        out.append((photo, image, dice))
    return out


# ---------------------------------------------------------------- augmentation

def jitter_colour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Hue turn, saturation, brightness, contrast, gamma, channel order, sometimes inverted,
    blurred, noisy, JPEG-compressed."""
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.int16)
    hsv[..., 0] = (hsv[..., 0] + rng.integers(0, 180)) % 180 if rng.random() < 0.5 else hsv[..., 0]
    hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.5, 1.4), 0, 255)
    img = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    if rng.random() < 0.3:
        img = img[..., rng.permutation(3)]
    img = (img - 128) * rng.uniform(0.6, 1.4) + 128 + rng.uniform(-40, 40) + rng.uniform(-12, 12, 3)
    img = 255 * (np.clip(img, 0, 255) / 255) ** rng.uniform(0.7, 1.4)
    if rng.random() < 0.15:
        img = 255 - img
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    if rng.random() < 0.15:
        k = int(rng.integers(3, 6))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1 / k
        kernel = cv2.warpAffine(kernel, cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1), (k, k))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    if rng.random() < 0.4:
        img = img + rng.normal(0, rng.uniform(2, 8), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])[1], 1)
    return img


def finder_sample(image: np.ndarray, dice: np.ndarray, rng: np.random.Generator, sizes: tuple[float, float] = (0.0, 0.0),
                  lowres: float = 0.0, distract: float = 0.0, limit: float = 0.0):
    """A FIND_SIZE tile of the photo turned, flipped, scaled, shifted; heat map, size targets and the loss's weight.

    ``sizes``: the dice's side in the tile, finder px, drawn log-uniformly from this range (0, 0: the photo
    scaled to FIND_LONG, x0.65-1.5, as the first nets were trained); ``lowres``: how often the photo is first
    shrunk (area) as a camera farther away sees it, the tile then scaled from that (1-2.5 times, or up to
    1.25 times up); ``distract``: how often a coin, ring, screw, knot, fingertip and card corner
    (:mod:`rig.bench.distractors`, 0.7-1.7 dice) are drawn in first, as things the heat map must not mark;
    ``limit``: dice larger than this (finder px) are no peak, their middle out of the loss
    (:func:`twin_frames.big_dice_targets`), their other pips "no die"."""
    h, w = image.shape[:2]
    typical = float(np.median(dice[:, 2])) if len(dice) else max(h, w) / 16
    if distract and rng.random() < distract:
        from rig.bench.distractors import add_distractors
        image = image.copy()
        add_distractors(image, [(x - d / 2, y - d / 2, d, d) for x, y, d, _ in dice],
                        min(typical * rng.uniform(0.7, 1.7), min(h, w) / 3), rng)
    if sizes[1] > 0:
        s = math.exp(rng.uniform(math.log(sizes[0]), math.log(sizes[1]))) / typical
    else:
        s = FIND_LONG / max(h, w) * math.exp(rng.uniform(math.log(0.65), math.log(1.5)))
    if lowres and rng.random() < lowres:
        g = min(1.0, s * math.exp(rng.uniform(math.log(0.8), math.log(2.5))))  # the farther camera's frame
        if g < 0.95:
            image = cv2.resize(image, (max(1, round(w * g)), max(1, round(h * g))), interpolation=cv2.INTER_AREA)
            dice = dice * np.array([g, g, g, 1], np.float32)
            h, w, s = image.shape[0], image.shape[1], s / g
    if len(dice) and sizes[1] > 0 and rng.random() < 0.6:  # near a die (a tile of large dice may hold none)
        x, y = dice[rng.integers(len(dice)), :2] + rng.normal(0, 0.25 * FIND_SIZE / s, 2)
        cx, cy = float(np.clip(x, 0, w)), float(np.clip(y, 0, h))
    else:
        cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
    m = cv2.getRotationMatrix2D((cx, cy), rng.uniform(0, 360), s)
    if rng.random() < 0.5:
        m[0] = -m[0]
    m[:, 2] = (FIND_SIZE / 2, FIND_SIZE / 2) - m[:, :2] @ (cx, cy)
    # replicated edges: a reflected border would show unlabelled mirror dice
    tile = cv2.warpAffine(image, m, (FIND_SIZE, FIND_SIZE), flags=cv2.INTER_LINEAR,  # (no area mode in warpAffine)
                          borderMode=cv2.BORDER_REPLICATE)
    tile = jitter_colour(tile, rng)
    n = FIND_SIZE // STRIDE
    heat = np.zeros((n, n), np.float32)
    size = np.zeros((n, n), np.float32)
    mask = np.zeros((n, n), np.float32)
    weight = np.ones((n, n), np.float32)
    if len(dice):
        pts = np.column_stack([dice[:, :2], np.ones(len(dice))]) @ m.T
        gy, gx = np.mgrid[0:n, 0:n].astype(np.float32)
        if limit:
            big_dice_targets(heat, weight, pts, dice[:, 2] * s, limit, STRIDE)
        for (px, py), side in zip(pts, dice[:, 2] * s):
            u, v = px / STRIDE - 0.5, py / STRIDE - 0.5
            if limit and side > limit:
                continue
            if not (-1 <= u <= n and -1 <= v <= n):
                continue
            sigma = max(0.6, side / STRIDE / 5)
            heat = np.maximum(heat, np.exp(-((gx - u) ** 2 + (gy - v) ** 2) / (2 * sigma ** 2)))
            iu, iv = int(round(u)), int(round(v))
            if 0 <= iu < n and 0 <= iv < n:
                heat[iv, iu] = 1.0
                size[iv, iu] = math.log(side / STRIDE)
                mask[iv, iu] = 1.0
    return tile, heat, size, mask, weight


#: pip positions of each face, in units of the pip spacing from the face's middle
LAYOUT = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
          5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def drawn_die(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A flat drawn die (any body, pip and floor colours, sharp or rounded) on a 128 px patch, as
    (patch, dice row): the photographs' dice all have bevels and texture, drawn and rendered ones do not."""
    n, side = 128, rng.uniform(28, 64)
    patch = np.empty((n, n, 3), np.uint8)
    patch[:] = rng.integers(0, 256, 3)
    body = rng.integers(0, 256, 3)
    luma = float(body @ (0.114, 0.587, 0.299))
    pip = rng.integers(0, 256, 3)
    while abs(float(pip @ (0.114, 0.587, 0.299)) - luma) < 70:
        pip = rng.integers(0, 256, 3)
    a = rng.uniform(0, 2 * math.pi)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    corners = (np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)]) * side / 2) @ rot.T + n / 2
    cv2.fillConvexPoly(patch, np.round(corners * 16).astype(np.int32), body.tolist(), cv2.LINE_AA, 4)
    pips = int(rng.integers(1, 7))
    spacing, radius = side * rng.uniform(0.24, 0.31), side * rng.uniform(0.07, 0.11)
    for p in (np.array(LAYOUT[pips]) * spacing) @ rot.T + n / 2:
        cv2.circle(patch, tuple(int(v) for v in np.round(p * 16)), int(radius * 16), pip.tolist(), -1, cv2.LINE_AA, 4)
    return patch, np.array([[n / 2, n / 2, side, pips]], np.float32)


def tilted_crop(image: np.ndarray, x: float, y: float, side: float, angle: float, rng: np.random.Generator,
                tilt: float, size: int = CROP) -> np.ndarray:
    """:func:`crop_die` through a random perspective (a steep view: one side shorter, the face
    squeezed along one direction) of up to ``tilt``."""
    m = np.vstack([crop_matrix(x, y, side, angle, size), (0, 0, 1)])
    c = np.array([[1, 0, size / 2], [0, 1, size / 2], [0, 0, 1]])
    squeeze = np.diag([1, 1 - rng.uniform(0, tilt), 1])
    turn = np.vstack([cv2.getRotationMatrix2D((0, 0), rng.uniform(0, 180), 1), (0, 0, 1)])
    keystone = np.array([[1, 0, 0], [0, 1, 0], [*(rng.uniform(-1, 1, 2) * tilt / size), 1]])
    h = c @ keystone @ np.linalg.inv(turn) @ squeeze @ turn @ np.linalg.inv(c) @ m
    return cv2.warpPerspective(image, h, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def extra_colour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Beyond :func:`jitter_colour`: washed-out or desaturated faces, low pip contrast, sharpening."""
    img = img.astype(np.float32)
    if rng.random() < 0.2:
        grey = img.mean(axis=2, keepdims=True)
        img = grey + (img - grey) * rng.uniform(0, 0.6)
    if rng.random() < 0.2:
        mean = img.mean(axis=(0, 1))
        img = mean + (img - mean) * rng.uniform(0.35, 0.7)
    if rng.random() < 0.15:
        img = img + rng.uniform(0.5, 1.5) * (img - cv2.GaussianBlur(img, (0, 0), 1.0))
    return np.clip(img, 0, 255).astype(np.uint8)


def reader_sample(image: np.ndarray, dice: np.ndarray, rng: np.random.Generator, pick: int | None = None,
                  tilt: float = 0.0, crop: int = CROP, small: float = 0.0):
    """A die crop (its pips as label) jittered in place, size and angle, or, one time in four,
    a crop away from every die (label 0); one die in six is a drawn one (:func:`drawn_die`).
    ``pick``: that die (not a drawn one, not a crop away); ``tilt``: perspective warps and extra colour;
    ``crop``: the crop's side, px; ``small``: how often the photo is first shrunk (area, or bilinear one
    time in three) so that its dice are 11-30 px, as a farther camera sees them, and also how often a
    crop is of a pip of a die (a pyramid level too fine) or of a drawn coin, ring, screw, knot,
    fingertip or card corner (:mod:`rig.bench.distractors`), label 0."""
    if pick is None and rng.random() < 0.12:
        image, dice = drawn_die(rng)
    typical = float(np.median(dice[:, 2])) if len(dice) else 40.0
    if small and rng.random() < small:
        g = rng.uniform(11, 30) / typical
        if g < 0.95:
            h, w = image.shape[:2]
            mode = cv2.INTER_LINEAR if rng.random() < 0.33 else cv2.INTER_AREA
            image = cv2.resize(image, (max(1, round(w * g)), max(1, round(h * g))), interpolation=mode)
            dice, typical = dice * np.array([g, g, g, 1], np.float32), typical * g
    if pick is None and small and len(dice) and rng.random() < small / 3:
        x, y, side, _ = dice[rng.integers(len(dice))]  # one pip of it, as a too fine level sees a die
        x, y = x + rng.uniform(-0.3, 0.3) * side, y + rng.uniform(-0.3, 0.3) * side
        return _read_crop(image, x, y, side * rng.uniform(0.25, 0.5), 0, rng, tilt, crop)
    if pick is None and small and rng.random() < small / 4:
        from rig.bench.distractors import add_distractors
        image = image.copy()
        drawn = add_distractors(image, [(x - d / 2, y - d / 2, d, d) for x, y, d, _ in dice],
                                min(typical * rng.uniform(0.7, 1.7), min(image.shape[:2]) / 3), rng)
        if drawn:
            bx, by, bw, _ = drawn[rng.integers(len(drawn))][1]
            return _read_crop(image, bx + bw / 2, by + bw / 2, bw * rng.uniform(0.8, 1.2), 0, rng, tilt, crop)
    if pick is None and (rng.random() < 0.25 or not len(dice)):
        h, w = image.shape[:2]
        for _ in range(20):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            side = typical * rng.uniform(0.6, 1.4)
            if not len(dice) or (np.hypot(dice[:, 0] - x, dice[:, 1] - y) > 0.75 * np.maximum(dice[:, 2], side)).all():
                break
        label = 0
    else:
        x, y, side, pips = dice[rng.integers(len(dice)) if pick is None else pick]
        side = max(side, 0.7 * typical) * math.exp(rng.uniform(-0.2, 0.25))
        x, y = x + rng.normal(0, 0.07) * side, y + rng.normal(0, 0.07) * side
        label = int(pips)
    return _read_crop(image, x, y, side, label, rng, tilt, crop)


def _read_crop(image: np.ndarray, x: float, y: float, side: float, label: int, rng: np.random.Generator, tilt: float,
               size: int):
    if tilt and rng.random() < 0.5:
        crop = tilted_crop(image, x, y, side, rng.uniform(0, 360), rng, tilt, size)
    else:
        crop = crop_die(image, x, y, side, rng.uniform(0, 360), size)
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    crop = jitter_colour(np.ascontiguousarray(crop), rng)
    return (extra_colour(crop, rng) if tilt else crop), label


# ---------------------------------------------------------------- nets

def block(cin: int, cout: int, stride: int = 1, dilation: int = 1, folded: bool = False) -> nn.Sequential:
    """Conv, batch norm, ReLU; ``folded``: conv with a bias, ReLU (the batch norm folded in, as exported)."""
    if folded:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation), nn.ReLU(inplace=True))
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class Finder(nn.Module):
    """Frame (3 x H x W, 0..1) -> heat (sigmoid) and log side, every STRIDE px."""

    def __init__(self, folded: bool = False) -> None:
        super().__init__()
        f = folded
        self.body = nn.Sequential(block(3, 16, 2, folded=f), block(16, 24, 2, folded=f), block(24, 24, folded=f),
                                  block(24, 24, dilation=2, folded=f), block(24, 24, dilation=4, folded=f))
        self.head = nn.Conv2d(24, 2, 1)
        nn.init.constant_(self.head.bias, -2.2)  # start with little heat everywhere (CenterNet's prior)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.head(self.body(x))
        return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], 1)


class Reader(nn.Module):
    """crop x crop die crop (0..1) -> logits of 0 (not a die), 1..6 pips: four conv blocks of ``widths``
    channels, each halving the side, then two dense layers."""

    def __init__(self, crop: int = CROP, widths: tuple[int, ...] = (16, 32, 64, 96), folded: bool = False) -> None:
        super().__init__()
        layers, cin = [], 3
        for cout in widths:
            layers += [block(cin, cout, folded=folded), nn.MaxPool2d(2)]
            cin = cout
        self.body = nn.Sequential(*layers)
        side = crop // 2 ** len(widths)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(cin * side * side, 96), nn.ReLU(inplace=True),
                                  nn.Dropout(0.2), nn.Linear(96, 7))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x))


def focal(pred: torch.Tensor, target: torch.Tensor, weight: torch.Tensor | None = None) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the heat map (``weight`` 0: a cell left out)."""
    p = pred.clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    loss = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * (1 - target) ** 4 * p ** 2 * torch.log(1 - p))
    if weight is not None:
        loss = loss * weight
    return loss.sum() / pos.sum().clamp(min=1)


def to_tensor(images: list[np.ndarray]) -> torch.Tensor:
    return torch.from_numpy(np.stack(images).astype(np.float32).transpose(0, 3, 1, 2) / 255.0)


def tile_source(entry, rng: np.random.Generator, drawn: float, drawn_twin: bool, big: float) -> str:
    """What a finder tile drawn for ``entry`` (a photo or a twin frame) is made of: ``drawn`` (flat drawn dice,
    this often in place of any entry's tile, or of a photo's only when not ``drawn_twin``), ``photo``, ``twin big``
    (its dice larger than the finder's, ``big`` of the twin tiles) or ``twin``."""
    if drawn and (drawn_twin or not is_twin(entry)) and rng.random() < drawn:
        return "drawn"
    if not is_twin(entry):
        return "photo"
    return "twin big" if big and rng.random() < big else "twin"


def kept_loss(out: torch.Tensor, teacher: torch.Tensor, weight: torch.Tensor | None = None) -> torch.Tensor:
    """How far ``out`` is from the ``teacher``'s heat and sizes: squared heat differences, ten times as heavy where the
    teacher is sure, and the size where it sees a die (heat above 0.3), per such cell, as :func:`focal` per peak
    (``weight`` 0: a cell left out)."""
    weight = torch.ones_like(teacher[:, 0]) if weight is None else weight
    near = (teacher[:, 0] > 0.3).float() * weight
    heat = ((out[:, 0] - teacher[:, 0]) ** 2 * (1 + 9 * teacher[:, 0]) * weight).sum()
    return (heat + 0.5 * ((out[:, 1] - teacher[:, 1]).abs() * near).sum()) / near.sum().clamp(min=1)


def level_sample(image: np.ndarray, rng: np.random.Generator, teacher: nn.Module, scales: tuple[float, float] = (0.35, 1.7)):
    """A FIND_SIZE window of a whole pyramid level of the photo as the finder sees it with no size hint (the photo
    scaled x``scales`` as a nearer or farther camera, then by :func:`finder_input` for one of the :data:`LEVELS` the
    pyramid runs there; sometimes flipped, turned a quarter, its colours jittered) and the ``teacher``'s heat and sizes
    on the whole level under it, as (window, heat, sizes, weight): the cells within :data:`REACH` of a cut edge
    (weight 0) are the only ones whose output on the window differs from the whole level's."""
    g = math.exp(rng.uniform(math.log(scales[0]), math.log(scales[1])))
    image = cv2.resize(image, None, fx=g, fy=g, interpolation=cv2.INTER_AREA if g < 1 else cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        image = jitter_colour(image, rng)
    image = np.ascontiguousarray(np.rot90(image[:, ::-1] if rng.random() < 0.5 else image, int(rng.integers(4))))
    long_side = max(image.shape[:2])
    levels = [r for r in LEVELS if r * long_side >= MIN_DIE and FIND_DIE / (r * long_side) <= FIND_MAX / long_side]
    level, _ = finder_input(image, float(rng.choice(levels)) * long_side)
    h, w = level.shape[:2]
    if h < FIND_SIZE or w < FIND_SIZE:
        level = cv2.copyMakeBorder(level, 0, max(0, FIND_SIZE - h), 0, max(0, FIND_SIZE - w), cv2.BORDER_REPLICATE)
    y0 = int(rng.integers(0, (level.shape[0] - FIND_SIZE) // STRIDE + 1)) * STRIDE
    x0 = int(rng.integers(0, (level.shape[1] - FIND_SIZE) // STRIDE + 1)) * STRIDE
    # the window grown by REACH gives the whole level's output at the window's cells (rig.vision.dicetiles)
    ya, xa = max(0, y0 - REACH), max(0, x0 - REACH)
    with torch.no_grad():
        wanted = teacher(to_tensor([level[ya:y0 + FIND_SIZE + REACH, xa:x0 + FIND_SIZE + REACH]]))[0].numpy()
    y0, x0, level = y0 - ya, x0 - xa, level[ya:y0 + FIND_SIZE + REACH, xa:x0 + FIND_SIZE + REACH]
    n, reach = FIND_SIZE // STRIDE, REACH // STRIDE
    weight = np.ones((n, n), np.float32)
    if y0 > 0:
        weight[:reach] = 0
    if x0 > 0:
        weight[:, :reach] = 0
    if y0 + FIND_SIZE < level.shape[0]:
        weight[n - reach:] = 0
    if x0 + FIND_SIZE < level.shape[1]:
        weight[:, n - reach:] = 0
    cells = wanted[:, y0 // STRIDE:y0 // STRIDE + n, x0 // STRIDE:x0 // STRIDE + n]
    return level[y0:y0 + FIND_SIZE, x0:x0 + FIND_SIZE], cells[0], cells[1], np.zeros((n, n), np.float32), weight


def finder_loss(out: torch.Tensor, heat, size, mask, weight) -> torch.Tensor:
    if not len(out):
        return out.sum()
    return focal(out[:, 0], heat, weight) + 0.5 * ((out[:, 1] - size).abs() * mask).sum() / mask.sum().clamp(min=1)


def train_finder(photos, epochs: int, rng: np.random.Generator, batch: int = 16, start: Path | None = None,
                 lr: float = 3e-3, twin: dict | None = None, keep: float = 0.0, levels: float = 0.0,
                 **sample) -> Finder:
    """``start``: go on from that exported finder (else from scratch); ``sample``: :func:`finder_sample`'s options
    for the photos; ``twin``: those for the twin frames among ``photos``, and ``big``: how often a twin tile's dice
    are drawn larger than the finder's (``limit``-``big_max`` px: no peaks, their pips "no die"); ``keep``: the
    photo and drawn tiles ask for the ``start`` finder's own heat and sizes (:func:`kept_loss`, this heavy) in place
    of their labels, so only the twin tiles teach, and the photos keep the scores the thresholds were chosen on;
    ``levels``: with ``keep``, how often a photo tile is a window of a whole pyramid level instead (:func:`level_sample`:
    the photo at any camera distance, at every level the finder runs on it with no size hint)."""
    twin = dict(twin or {})
    big, big_max, drawn = twin.pop("big", 0.0), twin.pop("big_max", 64.0), twin.pop("drawn", 0.0)
    drawn_twin = twin.pop("drawn_twin", True)

    def tile(entry):
        source = tile_source(entry, rng, drawn, drawn_twin, big)
        if source == "drawn":
            return source, finder_sample(*drawn_frame(rng), rng, sizes=twin.get("sizes", (9.0, 26.0)))
        if source == "photo" and teacher is not None and levels and rng.random() < levels:
            return "photo level", level_sample(entry[1], rng, teacher)
        if source == "photo":
            return source, finder_sample(entry[1], entry[2], rng, **sample)
        if source == "twin big":
            return source, finder_sample(entry[1], entry[2], rng, **{**twin, "sizes": (twin["limit"], big_max)})
        return source, finder_sample(entry[1], entry[2], rng, **twin)

    net = Finder() if start is None else load_onnx(Finder(folded=True), start)
    teacher = load_onnx(Finder(folded=True), start).eval() if keep else None
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    steps = epochs * math.ceil(4 * len(photos) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps, pct_start=0.15)
    t0 = time.time()
    for epoch in range(epochs):
        order = np.concatenate([rng.permutation(len(photos)) for _ in range(4)])
        total = 0.0
        for i in range(0, len(order) - batch + 1, batch):
            sources, samples = zip(*(tile(photos[j]) for j in order[i:i + batch]))
            x = to_tensor([s[0] for s in samples])
            targets = [torch.from_numpy(np.stack([s[k] for s in samples])) for k in (1, 2, 3, 4)]
            out = net(x)
            kept = torch.tensor([teacher is not None and s in ("photo", "drawn") for s in sources])
            level = torch.tensor([s == "photo level" for s in sources])
            loss = finder_loss(out[~(kept | level)], *(t[~(kept | level)] for t in targets))
            if kept.any():
                with torch.no_grad():
                    wanted = teacher(x[kept])
                loss = loss + keep * kept_loss(out[kept], wanted)
            if level.any():
                loss = loss + keep * kept_loss(out[level], torch.stack(targets[:2], 1)[level], targets[3][level])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        print(f"finder epoch {epoch + 1}/{epochs}: loss {total / max(1, len(order) // batch):.3f}  ({time.time() - t0:.0f} s)",
              flush=True)
    return net.eval()


def die_weights(photos, hard: float, mine_with: Path, mine_crop: int) -> np.ndarray:
    """How often each die (photo order, die order) is drawn: each photo set as often as the other,
    and a die the reader net ``mine_with`` (of ``mine_crop`` px crops) misreads at its labelled box
    ``1 + hard`` times as often."""
    from rig.vision.dicenet import DiceNet

    nets = DiceNet(FIND_WEIGHTS, mine_with, crop=mine_crop) if hard else None
    sizes: dict[Path, int] = {}
    for photo, _, dice in photos:
        sizes[photo.path.parent] = sizes.get(photo.path.parent, 0) + len(dice)
    weights = []
    for photo, image, dice in photos:
        w = np.full(len(dice), 1.0 / sizes[photo.path.parent])
        if nets is not None and len(dice):
            probs = nets.read_at(image, [(x, y, side) for x, y, side, _ in dice])
            w *= 1 + hard * (1 + probs[:, 1:].argmax(1) != dice[:, 3])
        weights.append(w)
    flat = np.concatenate(weights)
    print(f"die weights: {int((flat > flat.min() * 1.5).sum())} hard or rarer dice of {len(flat)}")
    return flat / flat.sum()


def train_reader(photos, epochs: int, rng: np.random.Generator, per_epoch: int = 6000, batch: int = 64,
                 tilt: float = 0.0, hard: float | None = None, mine_with: Path = READ_WEIGHTS,
                 mine_crop: int = CROP, crop: int = CROP, widths: tuple[int, ...] = (16, 32, 64, 96),
                 start: Path | None = None, lr: float = 3e-3, small: float = 0.0) -> Reader:
    """``hard``: None draws photos evenly, else dice by :func:`die_weights` (negatives and drawn dice as before);
    ``start``: go on from that exported reader; ``small``: :func:`reader_sample`'s."""
    net = Reader(crop, widths) if start is None else load_onnx(Reader(crop, widths, folded=True), start)
    index = [(i, k) for i, p in enumerate(photos) for k in range(len(p[2]))]
    weights = die_weights(photos, hard, mine_with, mine_crop) if hard is not None else None

    def sample():
        if weights is None or rng.random() < 0.37:
            entry = photos[rng.integers(len(photos))]
            if is_twin(entry) and len(entry[0].others) and rng.random() < 0.25:  # a cocked die, a coin, a screw
                x, y, side, _ = entry[0].others[rng.integers(len(entry[0].others))]
                return _read_crop(entry[1], x, y, side * rng.uniform(0.8, 1.3), 0, rng, tilt, crop)
            return reader_sample(*entry[1:], rng, tilt=tilt, crop=crop, small=small)
        i, k = index[rng.choice(len(index), p=weights)]
        return reader_sample(*photos[i][1:], rng, pick=k, tilt=tilt, crop=crop, small=small)

    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=epochs * (per_epoch // batch), pct_start=0.15)
    lossf = nn.CrossEntropyLoss(label_smoothing=0.05)
    t0 = time.time()
    for epoch in range(epochs):
        total, right = 0.0, 0
        for _ in range(per_epoch // batch):
            samples = [sample() for _ in range(batch)]
            x = to_tensor([s[0] for s in samples])
            y = torch.tensor([s[1] for s in samples])
            out = net(x)
            loss = lossf(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
            right += int((out.argmax(1) == y).sum())
        print(f"reader epoch {epoch + 1}/{epochs}: loss {total / (per_epoch // batch):.3f}, "
              f"train accuracy {right / (per_epoch // batch * batch):.3f}  ({time.time() - t0:.0f} s)", flush=True)
    return net.eval()


def export(net: nn.Module, example: torch.Tensor, path: Path, dynamic: bool) -> None:
    axes = {"input": {2: "h", 3: "w"}} if dynamic else {"input": {0: "n"}}
    torch.onnx.export(net, example, str(path), input_names=["input"], output_names=["output"], dynamic_axes=axes,
                      opset_version=13, dynamo=False)
    print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KB)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="white dice photographs")
    parser.add_argument("--colour-data", type=Path, default=DEFAULT_COLOUR_DATA, help="coloured dice photographs")
    parser.add_argument("--finder-epochs", type=int, default=14)
    parser.add_argument("--reader-epochs", type=int, default=200)
    parser.add_argument("--out", type=Path, default=FIND_WEIGHTS.parent, help="folder for the two .onnx files")
    parser.add_argument("--only", choices=("finder", "reader"), default=None, help="train one of the two nets")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--tilt", type=float, default=0.3, help="reader crops: perspective warps up to this and extra "
                        "colour changes (0: neither)")
    parser.add_argument("--hard", type=float, default=3.0,
                        help="reader crops: dice drawn set-balanced, those --mine-with misreads 1 + HARD times as often")
    parser.add_argument("--mine-with", type=Path, default=READ_WEIGHTS, help="the reader net that picks the hard dice")
    parser.add_argument("--mine-crop", type=int, default=CROP, help="the crop side (px) of the --mine-with net")
    parser.add_argument("--crop", type=int, default=CROP, help="the reader's crop side, px (a multiple of 16)")
    parser.add_argument("--widths", default="16,32,64,96", help="the reader's conv channels, block by block")
    parser.add_argument("--start", type=Path, default=None, metavar="DIR",
                        help="go on from the exported nets in DIR (e.g. calibration) instead of from scratch")
    parser.add_argument("--lr", type=float, default=3e-3, help="the peak learning rate")
    parser.add_argument("--sizes", default="0,0", help="finder tiles: the dice's side range, finder px (0,0: the "
                        "photo at FIND_LONG x0.65-1.5)")
    parser.add_argument("--lowres", type=float, default=0.0, help="finder tiles: how often from a shrunk photo")
    parser.add_argument("--distract", type=float, default=0.0, help="finder tiles: how often with things drawn in")
    parser.add_argument("--small", type=float, default=0.0,
                        help="reader crops: how often of dice shrunk to 11-30 px (and of pips, drawn things: label 0)")
    parser.add_argument("--twin", default="", metavar="SEEDS",
                        help="pip twin tables to train on beside the photos, e.g. 9100-9129 (scripts/twin_frames.py)")
    parser.add_argument("--twin-throws", type=int, default=2)
    parser.add_argument("--twin-spp", type=int, default=8)
    parser.add_argument("--twin-repeat", type=int, default=1, help="each twin frame counts as this many photos")
    parser.add_argument("--twin-sizes", default="9,26", help="finder tiles of twin frames: the dice's side range, px")
    parser.add_argument("--twin-big", type=float, default=0.0,
                        help="finder tiles of twin frames: how often with dice larger than the finder's (pips no die)")
    parser.add_argument("--drawn", type=float, default=0.0,
                        help="finder tiles: how often of flat drawn dice (twin_frames.drawn_frame) instead")
    parser.add_argument("--drawn-from", choices=("all", "photos"), default="all",
                        help="--drawn: in place of any tile, or of photo tiles only (the twin share kept)")
    parser.add_argument("--twin-big-max", type=float, default=64.0,
                        help="--twin-big: those dice up to this (finder px; a die the coarsest level reads is about "
                        "115 px at the finest)")
    parser.add_argument("--twin-limit", type=float, default=28.0, help="--twin-big: dice above this (finder px) no peak")
    parser.add_argument("--keep-photos", type=float, default=0.0, metavar="W",
                        help="finder: photo and drawn tiles ask for the --start finder's own output (weight W), "
                        "not their labels: the twin frames teach, the photos' scores stay")
    parser.add_argument("--keep-levels", type=float, default=0.0, metavar="F",
                        help="--keep-photos: this share of the photo tiles are windows of whole pyramid levels of the "
                        "photo at any scale, the --start finder's output on the whole level asked for")
    parser.add_argument("--val-report", action="store_true",
                        help="no training: the flag thresholds' figures on the validation slice, nets from --out")
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    sets = {"white dice": load(args.data, False), "coloured dice": load(args.colour_data, True)}
    if args.val_report:
        validation_report({k: [p for p in v if is_validation(p[0].path)] for k, v in sets.items()}, args.out, args.crop)
        return 0
    photos = [p for v in sets.values() for p in v if not is_validation(p[0].path)]
    print(f"{len(photos)} training photos, {sum(len(p[2]) for p in photos)} dice (validation slice kept back)")
    twin = load_twin(args.twin, args.twin_throws, args.twin_spp) if args.twin else []
    if twin:
        print(f"{len(twin)} twin frames (tables {args.twin}), {sum(len(p[2]) for p in twin)} dice, "
              f"{sum(len(p[0].others) for p in twin)} things that are no die; each counted {args.twin_repeat} times")
    photos += twin * args.twin_repeat
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only in (None, "finder"):
        finder = train_finder(photos, args.finder_epochs, rng, start=args.start and args.start / FIND_WEIGHTS.name,
                              lr=args.lr, sizes=tuple(float(v) for v in args.sizes.split(",")), lowres=args.lowres,
                              distract=args.distract, keep=args.keep_photos, levels=args.keep_levels,
                              twin=dict(sizes=tuple(float(v) for v in args.twin_sizes.split(",")), limit=args.twin_limit,
                                        big=args.twin_big, big_max=args.twin_big_max, distract=args.distract, drawn=args.drawn,
                                        drawn_twin=args.drawn_from == "all"))
        export(finder, torch.zeros(1, 3, 192, 256), args.out / FIND_WEIGHTS.name, dynamic=True)
    if args.only in (None, "reader"):
        reader = train_reader(photos, args.reader_epochs, rng, tilt=args.tilt, hard=args.hard,
                              mine_with=args.mine_with, mine_crop=args.mine_crop, crop=args.crop,
                              widths=tuple(int(w) for w in args.widths.split(",")),
                              start=args.start and args.start / READ_WEIGHTS.name, lr=args.lr, small=args.small)
        export(reader, torch.zeros(1, 3, args.crop, args.crop), args.out / READ_WEIGHTS.name, dynamic=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
