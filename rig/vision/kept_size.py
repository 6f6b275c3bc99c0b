"""The pip dice's size on a table, kept between runs (issue 25: learned once per table, kept).

:class:`rig.vision.readers.DieSize` learns the dice's size from the first sure roll; ``rig run`` keeps
what it learned in ``die-sizes.json`` in the data directory, one entry per game, table (its calibration
profile) and frame size, so a restarted rig reads at that size from its first frame instead of searching
the image pyramid. A size that no longer fits (the camera moved, other dice) is relearned and kept anew;
``rig doctor`` lists what is kept. A file that cannot be read or written is no error: the size is
learned again, and a file that is not the rig's JSON is set aside (``.bad``), never overwritten.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> kept = KeptDieSize(folder / FILE_NAME, "pips", "kitchen")
>>> kept.get((960, 1280))
0.0
>>> kept.put((960, 1280), 61.04)
>>> KeptDieSize(folder / FILE_NAME, "pips", "kitchen").get((960, 1280))
61.0
>>> KeptDieSize(folder / FILE_NAME, "pips", "attic").get((960, 1280))
0.0
>>> list_kept(folder / FILE_NAME)
['pips, table kitchen, 1280x960: 61 px']
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

#: the file in the data directory
FILE_NAME = "die-sizes.json"


def _key(game: str, table: str, shape: tuple[int, ...]) -> str:
    return f"{game}|{table}|{int(shape[1])}x{int(shape[0])}"


def _load(path: Path) -> dict[str, float]:
    """The sizes kept in ``path`` ({} when there is none, or it cannot be read: then it is set aside)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        log.warning("cannot read the dice sizes kept in %s (%s): learning them again", path, exc.strerror)
        return {}
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or not all(isinstance(v, (int, float)) and v > 0 for v in data.values()):
            raise ValueError("not an object of sizes in px")
        return {str(k): float(v) for k, v in data.items()}
    except ValueError as exc:
        bad = path.with_name(path.name + ".bad")
        log.warning("%s is not the rig's dice sizes (%s): set aside as %s, learning them again", path, exc, bad.name)
        try:
            path.replace(bad)
        except OSError:
            pass
        return {}


class KeptDieSize:
    """One game's dice size on one table, per frame size: :meth:`get` what was kept, :meth:`put` what
    was learned. ``table``: the calibration profile's name (another profile: another table)."""

    def __init__(self, path: str | os.PathLike[str], game: str, table: str) -> None:
        self.path, self.game, self.table = Path(path), game, table or "-"

    def __repr__(self) -> str:
        return f"<KeptDieSize {self.game} table={self.table} {str(self.path)!r}>"

    def get(self, shape: tuple[int, ...]) -> float:
        """The size kept for frames of ``shape`` (rows, columns, ...), or 0.0."""
        return _load(self.path).get(_key(self.game, self.table, shape), 0.0)

    def put(self, shape: tuple[int, ...], die_px: float) -> None:
        """Keep ``die_px`` for frames of ``shape`` (written whole, then renamed: never half a file)."""
        sizes = _load(self.path)
        sizes[_key(self.game, self.table, shape)] = round(float(die_px), 1)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".die-sizes-", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(sizes, out, indent=1, sort_keys=True)
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("cannot keep the dice size in %s (%s): it is learned again after a restart",
                        self.path, exc.strerror)
        else:
            log.info("dice size on table %s kept: %s %dx%d %.1f px", self.table, self.game, shape[1], shape[0], die_px)


def list_kept(path: str | os.PathLike[str]) -> list[str]:
    """One line per size kept in ``path`` (``rig doctor``)."""
    lines = []
    for key, px in sorted(_load(Path(path)).items()):
        game, _, rest = key.partition("|")
        table, _, size = rest.partition("|")
        lines.append(f"{game}, table {table}, {size}: {px:g} px")
    return lines
