"""Evidence per turn: the settled camera frame of each roll, kept as a small JPEG beside the event log.

``DATA_DIR/evidence/g<game>/t<turn>-r<roll>.jpg`` holds the frame the roll tracker settled on
(scaled to at most ``width`` px), and ``.json`` beside it the reading made of it (dice, boxes,
confidence, status) with the frame's scale. The review screen and the history show the frame
with the reading drawn on (:func:`rig.vision.overlay.draw_dice`). Old frames are pruned by age
and total size (``[evidence]`` in the config). The toss timeline needs no file: it is in the
event log (:mod:`rig.engine.turns`).

>>> import numpy as np, tempfile
>>> store = EvidenceStore(tempfile.mkdtemp())
>>> frame = np.zeros((480, 640, 3), np.uint8)
>>> store.save_roll(12, 1, 2, frame, {"dice": [], "status": "ok", "reasons": []}, t_us=5)
True
>>> store.rolls(12, 1), store.image(12, 1, 2)[:2]
([2], b'\\xff\\xd8')
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any, Mapping

from rig.errors import RigError

log = logging.getLogger(__name__)

FOLDER = "evidence"


class EvidenceError(RigError):
    """A frame that cannot be stored or read back."""


class EvidenceStore:
    """The evidence folder of one data dir: save, read back (with the reading drawn on), prune."""

    def __init__(self, data_dir: str | os.PathLike[str], *, keep: bool = True, max_age_days: float = 30.0,
                 max_mb: float = 200.0, width: int = 640, quality: int = 75, clock=time.time) -> None:
        self.root = Path(data_dir) / FOLDER
        self.keep = keep
        self.max_age_s = max_age_days * 86400
        self.max_bytes = int(max_mb * 1024 * 1024)
        self.width = width
        self.quality = quality
        self._clock = clock
        self._lock = threading.Lock()

    @classmethod
    def from_config(cls, data_dir, config) -> EvidenceStore:
        e = config.evidence
        return cls(data_dir, keep=e.keep, max_age_days=e.max_age_days, max_mb=e.max_mb, width=e.width,
                   quality=e.quality)

    def __repr__(self) -> str:
        return f"<EvidenceStore {str(self.root)!r} {'keeping' if self.keep else 'off'}>"

    # -- paths --------------------------------------------------------------------------
    @staticmethod
    def _ids(*numbers: Any) -> tuple[int, ...]:
        if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 10**12 for n in numbers):
            raise EvidenceError(f"evidence is named by whole numbers (game, turn, roll), not {numbers!r}")
        return tuple(numbers)

    def _base(self, game_id: int, turn: int, roll: int) -> Path:
        game_id, turn, roll = self._ids(game_id, turn, roll)
        return self.root / f"g{game_id}" / f"t{turn}-r{roll}"

    # -- writing ------------------------------------------------------------------------
    def save_roll(self, game_id: int, turn: int, roll: int, frame, reading: Mapping[str, Any] | None, *,
                  t_us: int | None = None) -> bool:
        """Keep ``frame`` (BGR) and its ``reading`` (``DiceReading.to_dict()``) as roll ``roll`` of the turn.

        Returns False (and keeps nothing) when evidence is switched off; a frame that cannot be
        encoded or written raises :class:`EvidenceError`. A re-read of the same roll replaces it.
        """
        if not self.keep:
            return False
        import cv2

        base = self._base(game_id, turn, roll)
        height, width = frame.shape[:2]
        scale = min(1.0, self.width / width)
        small = frame if scale == 1.0 else cv2.resize(frame, (round(width * scale), round(height * scale)),
                                                       interpolation=cv2.INTER_AREA)
        ok, jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        if not ok:
            raise EvidenceError(f"the frame of game {game_id} turn {turn} roll {roll} cannot be encoded as JPEG")
        meta = {"game": game_id, "turn": turn, "roll": roll, "t_us": t_us, "scale": scale,
                "size": [small.shape[1], small.shape[0]], "reading": reading}
        with self._lock:
            try:
                base.parent.mkdir(parents=True, exist_ok=True)
                _write(base.with_suffix(".jpg"), jpeg.tobytes())
                _write(base.with_suffix(".json"), json.dumps(meta).encode())
            except OSError as exc:
                raise EvidenceError(f"cannot keep the evidence in {base.parent}: {exc.strerror}") from None
        try:
            self.prune()
        except OSError as exc:  # a frame that cannot be deleted is left for the next prune
            log.warning("pruning %s: %s", self.root, exc)
        return True

    def prune(self) -> int:
        """Delete frames older than ``max_age_days`` and the oldest beyond ``max_mb``; returns how many went."""
        with self._lock:
            if not self.root.is_dir():
                return 0
            now = self._clock()
            shots = []
            for jpg in self.root.glob("g*/t*-r*.jpg"):
                try:
                    stat = jpg.stat()
                except OSError:
                    continue
                side = jpg.with_suffix(".json")
                size = stat.st_size + (side.stat().st_size if side.exists() else 0)
                shots.append((stat.st_mtime, size, jpg))
            shots.sort()
            total = sum(size for _, size, _ in shots)
            removed = 0
            for mtime, size, jpg in shots:
                if now - mtime <= self.max_age_s and total <= self.max_bytes:
                    break
                for path in (jpg, jpg.with_suffix(".json")):
                    path.unlink(missing_ok=True)
                total -= size
                removed += 1
            for folder in self.root.glob("g*"):
                if folder.is_dir() and not any(folder.iterdir()):
                    folder.rmdir()
            return removed

    # -- reading ------------------------------------------------------------------------
    def rolls(self, game_id: int, turn: int) -> list[int]:
        """The roll numbers kept for a turn."""
        folder = self.root / f"g{self._ids(game_id)[0]}"
        prefix = f"t{self._ids(turn)[0]}-r"
        out = []
        for jpg in folder.glob(f"{prefix}*.jpg") if folder.is_dir() else ():
            tail = jpg.stem[len(prefix):]
            if tail.isascii() and tail.isdigit():
                out.append(int(tail))
        return sorted(out)

    def meta(self, game_id: int, turn: int, roll: int) -> dict[str, Any] | None:
        try:
            return json.loads(self._base(game_id, turn, roll).with_suffix(".json").read_bytes())
        except (OSError, ValueError):
            return None

    def image(self, game_id: int, turn: int, roll: int, *, overlay: bool = False) -> bytes | None:
        """The kept JPEG (None if there is none); ``overlay`` draws the reading on it."""
        try:
            jpeg = self._base(game_id, turn, roll).with_suffix(".jpg").read_bytes()
        except OSError:
            return None
        if not overlay:
            return jpeg
        meta = self.meta(game_id, turn, roll)
        if not meta or not meta.get("reading"):
            return jpeg
        import cv2
        import numpy as np

        from rig.vision.overlay import draw_dice

        frame = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        if frame is None:
            return None
        drawn = draw_dice(frame, reading_from_dict(meta["reading"], meta.get("scale", 1.0)))
        ok, out = cv2.imencode(".jpg", drawn, [cv2.IMWRITE_JPEG_QUALITY, 85])
        return out.tobytes() if ok else jpeg


def reading_from_dict(data: Mapping[str, Any], scale: float = 1.0):
    """A :class:`rig.vision.dice.DiceReading` back from its ``to_dict()``, boxes scaled by ``scale``."""
    from rig.vision.dice import DiceReading, DieObservation

    dice = []
    for die in data.get("dice") or []:
        x, y, w, h = (round(v * scale) for v in die.get("box", (0, 0, 0, 0)))
        dice.append(DieObservation(str(die.get("face", "?")), float(die.get("x", 0)) * scale,
                                   float(die.get("y", 0)) * scale, (x, y, w, h), float(die.get("confidence", 0))))
    return DiceReading(tuple(dice), str(data.get("status", "ok")), tuple(data.get("reasons") or ()))


def _write(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all (a temporary file renamed over it)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
