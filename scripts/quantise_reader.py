"""The pip reader's net (calibration/dicenet_read.onnx) quantised to int8 by ONNX Runtime's own tools (issue 25).

    python -m venv /tmp/q && /tmp/q/bin/pip install onnx onnxruntime==1.32.0      # `onnx` is not in rig's venv
    PYTHONPATH=. .venv/bin/python scripts/quantise_reader.py crops --out /tmp/crops.npz
    /tmp/q/bin/python scripts/quantise_reader.py quantise --crops /tmp/crops.npz --out DIR
    PYTHONPATH=. .venv/bin/python scripts/quantise_reader.py compare --nets DIR/*.onnx --crops /tmp/crops.npz

``crops``: the reader's input blobs (N x 3 x 48 x 48, float32) as ``read_pip_dice`` passes them (mirrored re-reads
included) while reading the speed corpus's frames (~/.cache/rig/pipspeed/corpus, :mod:`pip_speed`): the white and
coloured sets' *tuning* photos at every size, drawn things included, and the pip twin's seen tables 9100-9103; never
the held-out split. With them, the labelled dice of every *tuning* photo of both sets, cut as the reader cuts a die
(:func:`rig.vision.dicenet.crop_die` at the label's centre and longer side, 640x480 and 1280x960 frames), as they are
and mirrored: the real dice crops. ``quantise``: the net statically quantised (``quantize_static``, QDQ, uint8
activations fitted by MinMax on the corpus's reader blobs, int8 weights per channel), all of it or the head's two
layers left float. ``compare``: each net's class probabilities against the float net's on both kinds of crop (the
top probability's largest and median change, argmax changes) and its CPU ms a crop (one thread, batches as recorded).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from quantise_finder import BlobReader, least_cpu, one_thread_sessions  # noqa: E402 - the finder's own tools

ROOT = Path(__file__).resolve().parents[1]
FLOAT_NET = ROOT / "calibration" / "dicenet_read.onnx"
CORPUS = Path.home() / ".cache" / "rig" / "pipspeed" / "corpus"
SEEN_TWIN = ("twin-9100", "twin-9101", "twin-9102", "twin-9103")
HEAD = ["/head/head.1/Gemm", "/head/head.2/Relu", "/head/head.4/Gemm"]


def capture(out: Path) -> None:
    import cv2

    from rig.bench.pips import DEFAULT_COLOUR_DATA, DEFAULT_DATA, as_frame, load_photos
    from dataclasses import replace

    from rig.vision import anydie, dicenet, pips
    from rig.vision.netengine import as_blob

    cv2.setNumThreads(1)
    names = sorted(p.stem for p in CORPUS.glob("*.npy") if p.name.startswith(("white", "coloured", *SEEN_TWIN)))
    net = dicenet.default_dicenet()
    blobs, run = [], net.reader.run

    def recording(blob, hidden=False):
        blobs.append(blob.copy())
        return run(blob, hidden)

    net.reader.run = recording
    params = replace(pips.PipParams.load(None).anydie, die_px=0.0)  # as pip_speed reads: no size hint
    for name in names:
        anydie.read_pip_dice(np.load(CORPUS / f"{name}.npy"), params)
    net.reader.run = run
    dice = []
    for folder, any_name in ((DEFAULT_DATA, False), (DEFAULT_COLOUR_DATA, True)):
        for photo in load_photos(folder, any_name=any_name, tuning_only=True):
            image = cv2.imread(str(photo.path))
            for size in ((640, 480), (1280, 960)):
                moved, frame = as_frame(photo, image, size)
                for d in moved.dice:
                    x, y, w, h = d.box
                    dice.append((d.pips, dicenet.crop_die(frame, x + w / 2, y + h / 2, max(w, h))))
    labels = np.array([p for p, _ in dice], np.int64)
    crops = np.stack([c for _, c in dice])
    die_blobs = np.concatenate([as_blob(crops), as_blob(np.ascontiguousarray(crops[:, :, ::-1]))])
    np.savez_compressed(out, labels=np.concatenate([labels, labels]), dice=die_blobs, **{f"b{i:05d}": b for i, b in enumerate(blobs)})
    print(f"{len(blobs)} reader blobs ({sum(len(b) for b in blobs)} crops) from {len(names)} frames; "
          f"{len(labels)} labelled dice x2 (mirrored) -> {out}")


def corpus_blobs(data) -> list[np.ndarray]:
    return [data[k] for k in sorted(k for k in data.files if k.startswith("b"))]


def quantise(crops_path: Path, out: Path) -> None:
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    out.mkdir(parents=True, exist_ok=True)
    blobs = corpus_blobs(np.load(crops_path))
    pre = out / "read_pre.onnx"
    quant_pre_process(str(FLOAT_NET), str(pre), skip_symbolic_shape=True)
    for name, kept_float in (("read_st", []), ("read_st_head", HEAD)):  # kept_float: nodes left in float
        quantize_static(
            str(pre),
            str(out / f"{name}.onnx"),
            BlobReader(blobs),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
            calibrate_method=CalibrationMethod.MinMax,
            nodes_to_exclude=kept_float,
            extra_options={"CalibMovingAverage": False},
        )
    print("\n".join(sorted(p.name for p in out.glob("read_st*.onnx"))))


def probabilities(session, blob: np.ndarray) -> np.ndarray:
    z = session.run(["output"], {"input": blob})[0].reshape(len(blob), -1)
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def compare(nets: list[Path], crops_path: Path, reads: int, float_net: Path = FLOAT_NET) -> None:
    data = np.load(crops_path)
    blobs, dice, labels = corpus_blobs(data), data["dice"], data["labels"]
    sessions = one_thread_sessions([float_net, *nets])
    totals = dict.fromkeys(sessions, 0.0)
    for blob in blobs:
        for p, s in sessions.items():  # in turn, blob by blob: the machine's load falls on all alike
            totals[p] += least_cpu(s, blob, reads)[0]
    n = sum(len(b) for b in blobs)
    ref_corpus = np.concatenate([probabilities(sessions[float_net], b) for b in blobs])
    ref_dice = probabilities(sessions[float_net], dice)
    print(f"corpus: {len(blobs)} reader calls, {n} crops; labelled dice: {len(dice)} crops (half mirrored); float net "
          f"right on {int((ref_dice.argmax(1) == labels).sum())}")
    print("net                  ms/crop  ratio | corpus: top p max/median change, argmax changed "
          "| dice: top p max/median change, argmax changed, right")
    for p, s in sessions.items():
        line = f"{p.name:20s} {1000 * totals[p] / n:7.4f} {totals[p] / totals[float_net]:6.2f}"
        for ref, got in ((ref_corpus, np.concatenate([probabilities(s, b) for b in blobs])), (ref_dice, probabilities(s, dice))):
            top = np.abs(got.max(1) - ref.max(1))
            line += f" | {top.max():.4f} {np.median(top):.5f} {int((got.argmax(1) != ref.argmax(1)).sum())}"
        was, now = ref_dice.argmax(1) == labels, got.argmax(1) == labels
        print(line + f" {int(now.sum())} (right to wrong {int((was & ~now).sum())}, wrong to right {int((~was & now).sum())})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("crops")
    c.add_argument("--out", type=Path, required=True)
    q = sub.add_parser("quantise")
    q.add_argument("--crops", type=Path, required=True)
    q.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("compare")
    t.add_argument("--nets", type=Path, nargs="+", required=True)
    t.add_argument("--crops", type=Path, required=True)
    t.add_argument("--reads", type=int, default=3)
    t.add_argument("--float", type=Path, default=FLOAT_NET, help="the float net compared with (main's)")
    a = ap.parse_args()
    if a.cmd == "crops":
        sys.path.insert(0, str(ROOT))
        capture(a.out)
    elif a.cmd == "quantise":
        quantise(a.crops, a.out)
    else:
        compare(a.nets, a.crops, a.reads, a.float)


if __name__ == "__main__":
    main()
