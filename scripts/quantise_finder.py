"""The pip finder's net (calibration/dicenet_find.onnx) quantised to int8 by ONNX Runtime's own tools (issue 25).

    python -m venv /tmp/q && /tmp/q/bin/pip install onnx onnxruntime==1.32.0      # `onnx` is not in rig's venv
    PYTHONPATH=. .venv/bin/python scripts/quantise_finder.py blobs --out /tmp/blobs.npz --every 4
    /tmp/q/bin/python scripts/quantise_finder.py quantise --blobs /tmp/blobs.npz --out DIR
    PYTHONPATH=. .venv/bin/python scripts/quantise_finder.py time --nets DIR/*.onnx --blobs /tmp/blobs.npz

``blobs``: the finder's input blobs (1 x 3 x H x W, float32) as ``read_pip_dice`` passes them while reading every
``--every``-th frame of the speed corpus's photo frames (~/.cache/rig/pipspeed/corpus, :mod:`pip_speed`: the white
and coloured sets' *tuning* photos; never the held-out split, never the twin's frames). ``quantise``: the net
dynamically quantised (``quantize_dynamic``, weights int8, ConvInteger) and statically (``quantize_static``, QDQ,
activations uint8/int8 fitted on those blobs by MinMax, weights per channel or per tensor; the histogram methods
fail on the blobs' varied sizes). ``time``: each net's CPU ms
per blob (one thread, the least of ``--reads``) and its output's largest difference from the float net's.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FLOAT_NET = ROOT / "calibration" / "dicenet_find.onnx"
CORPUS = Path.home() / ".cache" / "rig" / "pipspeed" / "corpus"


def capture(out: Path, every: int) -> None:
    import cv2

    from rig.vision import anydie, dicenet

    cv2.setNumThreads(1)
    names = sorted(p.name for p in CORPUS.glob("*.npy") if p.name.startswith(("white", "coloured")))
    net = dicenet.default_dicenet()
    blobs, run = [], net.finder.run

    def recording(blob, hidden=False):
        blobs.append(blob.copy())
        return run(blob, hidden)

    net.finder.run = recording
    for name in names[::every]:
        anydie.read_pip_dice(np.load(CORPUS / name))
    np.savez_compressed(out, *blobs)
    print(f"{len(blobs)} blobs from {len(names[::every])} frames -> {out}")


class BlobReader:
    """onnxruntime.quantization's CalibrationDataReader over the recorded blobs."""

    def __init__(self, blobs: list[np.ndarray]):
        self.items = iter([{"input": b} for b in blobs])

    def get_next(self):
        return next(self.items, None)

    def rewind(self):  # some versions call it
        pass


def quantise(blobs_path: Path, out: Path) -> None:
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_dynamic, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    out.mkdir(parents=True, exist_ok=True)
    blobs = list(np.load(blobs_path).values())
    pre = out / "find_pre.onnx"
    quant_pre_process(str(FLOAT_NET), str(pre), skip_symbolic_shape=True)
    quantize_dynamic(str(pre), str(out / "find_dyn.onnx"), weight_type=QuantType.QInt8)
    quantize_dynamic(str(pre), str(out / "find_dyn_u8.onnx"), weight_type=QuantType.QUInt8)
    first, head = ["/body/body.0/body.0.0/Conv"], ["/head/Conv", "/Slice", "/Slice_1", "/Sigmoid", "/Concat"]
    body1 = ["/body/body.1/body.1.0/Conv", "/body/body.1/body.1.2/Relu"]
    body = [f"/body/body.{i}/body.{i}.{k}/{op}" for i in (3, 4) for k, op in ((0, "Conv"), (2, "Relu"))]
    for name, act, per_channel, kept_float in (  # kept_float: nodes left in float (nodes_to_exclude)
        ("find_st_mm", QuantType.QUInt8, True, []),
        ("find_st_mm_s8", QuantType.QInt8, True, []),
        ("find_st_mm_t", QuantType.QUInt8, False, []),
        ("find_st_head", QuantType.QUInt8, True, head),
        ("find_st_head_first", QuantType.QUInt8, True, head + first),
        ("find_hf_b1", QuantType.QUInt8, True, head + first + body1),
        ("find_hf_b4", QuantType.QUInt8, True, head + first + body[2:]),
        ("find_hf_b34", QuantType.QUInt8, True, head + first + body),
    ):
        quantize_static(
            str(pre),
            str(out / f"{name}.onnx"),
            BlobReader(blobs),
            quant_format=QuantFormat.QDQ,
            activation_type=act,
            weight_type=QuantType.QInt8,
            per_channel=per_channel,
            calibrate_method=CalibrationMethod.MinMax,
            nodes_to_exclude=kept_float,
            extra_options={"CalibMovingAverage": False},
        )
    print("\n".join(sorted(p.name for p in out.glob("*.onnx"))))


def one_thread_sessions(paths: list[Path]) -> dict:
    """An ONNX Runtime session of each net in ``paths`` (path -> session), on one thread, not spinning, quiet."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads, so.inter_op_num_threads = 1, 1
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    so.log_severity_level = 3
    return {p: ort.InferenceSession(str(p), so, providers=["CPUExecutionProvider"]) for p in paths}


def least_cpu(session, blob: np.ndarray, reads: int) -> tuple[float, np.ndarray]:
    """The least CPU seconds of ``reads`` runs of ``session`` on ``blob``, and its output."""
    best = 1e9
    for _ in range(reads):
        t = time.process_time()
        y = session.run(["output"], {"input": blob})[0]
        best = min(best, time.process_time() - t)
    return best, y


def time_nets(nets: list[Path], blobs_path: Path, reads: int, float_net: Path = FLOAT_NET) -> None:
    blobs = list(np.load(blobs_path).values())
    sessions = one_thread_sessions([float_net, *nets])
    totals = {p: 0.0 for p in sessions}
    worst = {p: 0.0 for p in sessions}
    worst_side = {p: 0.0 for p in sessions}
    for blob in blobs:
        ref = None
        for p, s in sessions.items():  # in turn, blob by blob: the machine's load falls on all alike
            best, y = least_cpu(s, blob, reads)
            totals[p] += best
            ref = y if ref is None else ref
            worst[p] = max(worst[p], float(np.abs(y[0, 0] - ref[0, 0]).max()))
            worst_side[p] = max(worst_side[p], float(np.abs(y[0, 1] - ref[0, 1]).max()))
    px = sum(b.shape[2] * b.shape[3] for b in blobs)
    base = totals[float_net]
    print(
        f"{len(blobs)} blobs, {px} finder px; CPU ms total, ns/px, ratio to float, max |heat - float heat|, max |log side - float log side| (cells)"
    )
    for p in sessions:
        print(
            f"{p.name:22s} {1000 * totals[p]:8.1f} {1e9 * totals[p] / px:6.1f} {totals[p] / base:5.2f} {worst[p]:.4f} {worst_side[p]:.4f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("blobs")
    b.add_argument("--out", type=Path, required=True)
    b.add_argument("--every", type=int, default=4)
    q = sub.add_parser("quantise")
    q.add_argument("--blobs", type=Path, required=True)
    q.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("time")
    t.add_argument("--nets", type=Path, nargs="+", required=True)
    t.add_argument("--blobs", type=Path, required=True)
    t.add_argument("--reads", type=int, default=3)
    t.add_argument("--float", type=Path, default=FLOAT_NET, help="the float net timed against (main's)")
    a = ap.parse_args()
    if a.cmd == "blobs":
        sys.path.insert(0, str(ROOT))
        capture(a.out, a.every)
    elif a.cmd == "quantise":
        quantise(a.blobs, a.out)
    else:
        time_nets(a.nets, a.blobs, a.reads, a.float)


if __name__ == "__main__":
    main()
