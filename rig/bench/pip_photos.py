"""The labelled photos of real dice the pip benchmarks read: where they are, their labels (YOLO
boxes), which are held out from tuning (issue 29: split from :mod:`rig.bench.pips`, which
re-exports every name).
"""

from __future__ import annotations

import functools
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from rig.errors import RigError

PROJECT_ROOT = Path(__file__).resolve().parents[2]
#: Default folder of the real photographs; override with --data or $RIG_PIP_DATA.
DEFAULT_DATA = PROJECT_ROOT.parent / "shared" / "data" / "real-pip-dice"
#: The coloured dice; override with --colour-data or $RIG_COLOUR_DATA.
DEFAULT_COLOUR_DATA = PROJECT_ROOT.parent / "shared" / "data" / "real-colour-dice"
HELD_OUT_EVERY = 3
#: Coloured set: a photo is held out when crc32(file stem) % COLOUR_HELD_OUT_MOD == 0 (about a quarter).
COLOUR_HELD_OUT_MOD = 4
_NAME = re.compile(r"^[a-z]+_(\d+)$")


class BenchDataError(RigError):
    """The photograph folder is missing or a label file is malformed."""


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die: true pip count and the pip pattern's box (x, y, w, h) in pixels."""

    pips: int
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class Photo:
    path: Path
    number: int  # the file number (white set); -1 for the coloured set's IMG_date_time names
    dice: tuple[LabelledDie, ...]

    @property
    def held_out(self) -> bool:
        return is_held_out(self.number) if self.number >= 0 else is_colour_held_out(self.path.stem)


def is_colour_held_out(stem: str) -> bool:
    """The coloured set's fixed split: by a hash of the file name, never tuned on.

    >>> is_colour_held_out("IMG_20191208_111228"), is_colour_held_out("IMG_20191208_111246")
    (False, True)
    """
    return zlib.crc32(stem.encode()) % COLOUR_HELD_OUT_MOD == 0


def is_held_out(number: int) -> bool:
    """The fixed split: file numbers that are multiples of 3 are never used for tuning.

    >>> [n for n in range(1, 10) if is_held_out(n)]
    [3, 6, 9]
    """
    return number % HELD_OUT_EVERY == 0


def parse_labels(text: str, width: int, height: int, *, source: str = "labels") -> tuple[LabelledDie, ...]:
    """YOLO lines ``class cx cy w h`` (normalised) → dice with pixel boxes.

    >>> parse_labels("2 0.5 0.5 0.1 0.2", 640, 480)
    (LabelledDie(pips=3, box=(288.0, 192.0, 64.0, 96.0)),)
    """
    dice = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            cls, cx, cy, w, h = line.split()
            k = int(cls)
            cx, cy, w, h = float(cx) * width, float(cy) * height, float(w) * width, float(h) * height
        except ValueError:
            raise BenchDataError(f"{source}:{n}: expected 'class cx cy w h', got {line!r}") from None
        if not 0 <= k <= 5:
            raise BenchDataError(f"{source}:{n}: class must be 0-5 (1-6 pips), not {k}")
        dice.append(LabelledDie(k + 1, (cx - w / 2, cy - h / 2, w, h)))
    return tuple(dice)


#: labels of the shared sets found wrong on the photo, mended as they are loaded (the shared files untouched)
ERRATA = Path(__file__).with_name("label_errata.toml")


@functools.lru_cache(maxsize=None)
def _errata() -> dict[str, tuple[tuple[int, int, int], ...]]:
    """``{"set/NAME.txt": ((line, was, now), ...)}`` from :data:`ERRATA`."""
    import tomllib

    fixes: dict[str, list[tuple[int, int, int]]] = {}
    for fix in tomllib.loads(ERRATA.read_text(encoding="utf-8"))["fix"]:
        fixes.setdefault(fix["file"], []).append((int(fix["line"]), int(fix["was"]), int(fix["now"])))
    return {file: tuple(lines) for file, lines in fixes.items()}


def mended(text: str, fixes: tuple[tuple[int, int, int], ...], *, source: str = "labels") -> str:
    """``text``'s lines with each ``(line, was, now)`` class mended; a line already ``now`` is left.

    >>> mended("1 0.3 0.5 0.06 0.06\\n4 0.4 0.5 0.06 0.06", ((1, 1, 2),))
    '2 0.3 0.5 0.06 0.06\\n4 0.4 0.5 0.06 0.06'
    """
    lines = text.splitlines()
    for n, was, now in fixes:
        parts = lines[n - 1].split() if 0 < n <= len(lines) else []
        if parts[:1] == [str(now)]:
            continue
        if parts[:1] != [str(was)]:
            raise BenchDataError(f"{source}:{n}: the erratum expects class {was} (or {now}), the line says "
                                 f"{lines[n - 1] if parts else 'nothing'!r} ({ERRATA.name})")
        lines[n - 1] = " ".join([str(now), *parts[1:]])
    return "\n".join(lines)


def load_photos(folder: Path, *, any_name: bool = False, tuning_only: bool = False) -> list[Photo]:
    """Every ``NAME_N.jpg`` (any ``NAME.jpg`` with ``any_name``) with its ``.txt`` labels in ``folder``;
    with ``tuning_only`` the held-out photos are skipped by name, never opened."""
    import cv2

    if not folder.is_dir():
        raise BenchDataError(f"no photograph folder {folder} (set --data or $RIG_PIP_DATA)")
    photos = []
    for path in sorted(folder.glob("*.jpg")):
        m = _NAME.match(path.stem)
        label = path.with_suffix(".txt")
        if not (m or any_name) or not label.exists():
            continue
        if tuning_only and (is_held_out(int(m.group(1))) if m else is_colour_held_out(path.stem)):
            continue
        image = cv2.imread(str(path))
        if image is None:
            raise BenchDataError(f"cannot read image {path}")
        h, w = image.shape[:2]
        text = mended(label.read_text(), _errata().get(f"{folder.name}/{label.name}", ()), source=str(label))
        photos.append(Photo(path, int(m.group(1)) if m else -1, parse_labels(text, w, h, source=str(label))))
    if not photos:
        raise BenchDataError(f"no labelled photographs (NAME.jpg + NAME.txt) in {folder}")
    return photos
