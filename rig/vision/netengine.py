"""The engine that runs the dice nets' ONNX files (:mod:`rig.vision.dicenet`): OpenCV's ``cv2.dnn``, or ONNX Runtime
when it is installed (``pip install -e '.[fast]'``).

ONNX Runtime runs the same graphs about 1.6 times quicker for the finder and 2.4 times for the reader's batches (one
thread, x86; issue 25, round 14), their outputs the same within float noise (under 1e-5: as OpenCV 4's and 5's
engines differ from each other). ``RIG_DICENET_ENGINE=cv2`` (or ``onnxruntime``) chooses; unset, ONNX Runtime when
importable. Both take a blob (N x 3 x H x W, float32) and give the graph's ``output`` and, when asked, the reader's
hidden layer (:data:`rig.vision.dicenet.HIDDEN`).
"""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

#: the environment variable that chooses the engine: "cv2" or "onnxruntime" (unset: onnxruntime when importable)
ENGINE_ENV = "RIG_DICENET_ENGINE"


class NetLoadError(Exception):
    """A net file cannot be read by the engine."""


def engine_name() -> str:
    """The engine the nets are run by: ``RIG_DICENET_ENGINE``, else ``onnxruntime`` when importable, else ``cv2``."""
    chosen = os.environ.get(ENGINE_ENV, "").strip().lower()
    if chosen in ("cv2", "opencv"):
        return "cv2"
    if chosen not in ("", "onnxruntime"):
        raise NetLoadError(f"{ENGINE_ENV}={chosen!r}: expected cv2 or onnxruntime")
    try:
        import onnxruntime  # noqa: F401
    except (ImportError, OSError):  # absent, or its shared library unloadable
        if chosen == "onnxruntime":
            raise NetLoadError(f"{ENGINE_ENV}=onnxruntime but onnxruntime is not installed") from None
        return "cv2"
    return "onnxruntime"


class CvNet:
    """A net run by ``cv2.dnn`` (``engine``: OpenCV 5's engine by name, e.g. ``ENGINE_CLASSIC``; OpenCV 4 has one)."""

    name = "cv2"

    def __init__(self, path: Path, engine: str = "", hidden: tuple[str, ...] = ()) -> None:
        options = {"engine": getattr(cv2.dnn, engine)} if hasattr(cv2.dnn, engine) else {}
        try:
            self.net = cv2.dnn.readNetFromONNX(str(path), **options)
        except cv2.error as exc:
            raise NetLoadError(str(exc).strip().splitlines()[-1]) from None
        self.net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        names = set(self.net.getLayerNames()) if hidden else set()
        #: the hidden layer's name as OpenCV names it; "" when the file has none of ``hidden``
        self.hidden = next((n for n in hidden if n in names), "")

    def run(self, blob: np.ndarray, hidden: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        """The graph's output and, with ``hidden`` (and the layer there), the hidden layer."""
        self.net.setInput(blob)
        if hidden and self.hidden:
            out, f = self.net.forward(["output", self.hidden])
            return out, f
        return self.net.forward(), None


class OrtNet:
    """A net run by ONNX Runtime on the CPU, as many threads as OpenCV is set to use (``cv2.getNumThreads``, asked
    at each run: a session per thread count). ``hidden``: the hidden layer's node names as OpenCV would give them
    (``onnx_node!/a/b/Relu`` or ``/a/b/Relu``); its tensor (``/a/b/Relu_output_0``) is added to the graph's outputs."""

    name = "onnxruntime"

    def __init__(self, path: Path, engine: str = "", hidden: tuple[str, ...] = ()) -> None:
        self.model = Path(path).read_bytes()
        self.hidden = next((h.split("!")[-1] + "_output_0" for h in hidden), "")
        if self.hidden:
            self.model = self.model + _extra_output(self.hidden)
        self.sessions: dict[int, object] = {}
        try:
            self._session()
        except Exception as exc:  # onnxruntime raises its own Fail/InvalidGraph kinds
            raise NetLoadError(str(exc).strip().splitlines()[-1]) from None

    def _session(self):
        threads = max(1, cv2.getNumThreads())
        if threads not in self.sessions:
            import onnxruntime as ort

            so = ort.SessionOptions()
            so.intra_op_num_threads, so.inter_op_num_threads = threads, 1
            so.add_session_config_entry("session.intra_op.allow_spinning", "0")  # no CPU burnt waiting
            so.log_severity_level = 3
            self.sessions[threads] = ort.InferenceSession(self.model, so, providers=["CPUExecutionProvider"])
        return self.sessions[threads]

    def run(self, blob: np.ndarray, hidden: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        session = self._session()
        if hidden and self.hidden:
            out, f = session.run(["output", self.hidden], {"input": blob})
            return out, f
        return session.run(["output"], {"input": blob})[0], None


def as_blob(images: np.ndarray) -> np.ndarray:
    """``cv2.dnn.blobFromImages(images, 1 / 255.0)`` of N x H x W x C uint8 images (N x C x H x W float32): the same
    floats to the bit (every uint8 value checked), a little quicker (the pip reader's time outside the nets 2-4 % less
    with it; issue 25, round 29)."""
    blob = np.ascontiguousarray(images.transpose(0, 3, 1, 2), dtype=np.float32)
    blob *= np.float32(1 / 255.0)
    return blob


def load_net(path: Path, engine: str = "", hidden: tuple[str, ...] = ()) -> CvNet | OrtNet:
    """The net in ``path`` run by :func:`engine_name`'s engine."""
    return (OrtNet if engine_name() == "onnxruntime" else CvNet)(path, engine, hidden)


def _extra_output(name: str) -> bytes:
    """Protobuf bytes that, appended to an ONNX model's, add the float tensor ``name`` to its graph's outputs (a
    repeated message field's second occurrence is merged into the first: ModelProto.graph is field 7,
    GraphProto.output field 12, ValueInfoProto name 1 and type 2, TypeProto.tensor_type 1, its elem_type 1 = FLOAT)."""
    tensor = _field(1, _field(1, b"", varint=1))
    value_info = _field(1, name.encode()) + _field(2, tensor)
    return _field(7, _field(12, value_info))


def _field(number: int, payload: bytes, varint: int | None = None) -> bytes:
    if varint is not None:
        return _varint(number << 3) + _varint(varint)
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _varint(v: int) -> bytes:
    out = bytearray()
    while True:
        out.append((v & 0x7F) | (0x80 if v > 0x7F else 0))
        v >>= 7
        if not v:
            return bytes(out)
