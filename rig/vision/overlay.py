"""Draw a reading onto a copy of its frame: die outlines, face labels, status line."""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.cards import CardReading
from rig.vision.dice import DiceReading

_INK = {"blue": (255, 140, 0), "pink": (180, 60, 255), "yellow": (0, 230, 255), "blank": (230, 230, 230)}


def draw_dice(frame_bgr: np.ndarray, reading: DiceReading) -> np.ndarray:
    out = frame_bgr.copy()
    scale = max(0.4, out.shape[1] / 1280)
    for d in reading.dice:
        x, y, w, h = d.box
        colour = (0, 0, 255) if d.cocked or d.confidence < 0.5 else (0, 220, 0)
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, max(1, int(2 * scale)))
        label = f"{d.face} {d.confidence:.2f}"
        ink = _INK.get(d.face.split("+")[0], (255, 255, 255))
        put_label(out, label, (x, max(12, y - 4)), 0.45 * scale * 2, ink)
    _status(out, reading.status, reading.reasons, scale)
    return out


def draw_card(frame_bgr: np.ndarray, reading: CardReading) -> np.ndarray:
    out = frame_bgr.copy()
    scale = max(0.4, out.shape[1] / 1280)
    if reading.box:
        x, y, w, h = reading.box
        cv2.rectangle(out, (x, y), (x + w, y + h), (0, 220, 0) if reading.status == "ok" else (0, 0, 255), 2)
    _status(out, f"{reading.status}: {reading.card or 'no card'}", reading.reasons, scale)
    return out


def _status(out: np.ndarray, status: str, reasons, scale: float) -> None:
    lines = [status, *reasons]
    for i, text in enumerate(lines[:6]):
        org = (8, int(22 * scale * 2) * (i + 1))
        colour = (0, 220, 0) if status.startswith("ok") else (0, 0, 255)
        put_label(out, text, org, 0.5 * scale * 2, colour)


def put_label(out: np.ndarray, text: str, org: tuple[int, int], size: float, colour, thickness: int = 1) -> None:
    """``text`` in ``colour`` outlined in black, readable on any floor. The outline is the same text at the
    same thickness moved a pixel each way: OpenCV spaces thicker strokes wider, so a thick black copy
    under a thin coloured one drifts apart along a line and reads doubled."""
    x, y = org
    for dx, dy in ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)):
        cv2.putText(out, text, (x + dx, y + dy), cv2.FONT_HERSHEY_SIMPLEX, size, (0, 0, 0), thickness, cv2.LINE_AA)
    cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, size, colour, thickness, cv2.LINE_AA)
