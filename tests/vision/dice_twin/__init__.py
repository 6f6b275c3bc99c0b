"""Twin frames and the profiles they were read with, committed for the tests of the dice reader."""

from contextlib import contextmanager
from pathlib import Path

import cv2

from rig.vision.profile import Profile

HERE = Path(__file__).parent


def profile_of(table: str) -> Profile:
    """The profile ``table``.toml the table's frames here are read with."""
    return Profile.load(HERE / f"{table}.toml")


def frame_and_profile(frame: str, table: str):
    """``frame`` (a file here) as BGR and the profile ``table``.toml it is read with."""
    return cv2.imread(str(HERE / frame)), profile_of(table)


def faces_near(reading, x: float, y: float, r: float) -> list[str]:
    """The faces of the dice ``reading`` holds within ``r`` px of (x, y) each way."""
    return [d.face for d in reading.dice if abs(d.x - x) < r and abs(d.y - y) < r]


@contextmanager
def empty_box_kept(profile: Profile, table: str):
    """``profile`` with ``table``'s committed empty box (``table``-empty.webp) kept, as after calibration; forgotten
    on leaving, so that no other test reads with it."""
    from rig.vision.card_empty import EmptyBox, remember

    remember(profile, EmptyBox.of(cv2.imread(str(HERE / f"{table}-empty.webp"))))
    try:
        yield profile
    finally:
        remember(profile, None)


def flagged_at(reading, kind: str) -> list[tuple[float, float]]:
    """Where ``reading``'s flags of ``kind`` point."""
    from rig.vision.dice_flag import Flag

    return [f.at for f in map(Flag.parse, reading.reasons) if f is not None and f.kind == kind]


def ritual_frames(table: str, ext: str = "jpg"):
    """``table``'s four ritual frames (by face) and its empty box, as committed here (``table``-ritual-FACE.``ext``)."""
    from rig.vision.calibrate import RITUAL

    frames = {k: cv2.imread(str(HERE / f"{table}-ritual-{k}.{ext}")) for k in RITUAL}
    return frames, cv2.imread(str(HERE / f"{table}-empty.{ext}"))


def without_core(monkeypatch) -> None:
    """Calibration without round 20's ``core`` retry (a frog colour fitted on its cluster farthest from the die body),
    for the tests that show an earlier round's mend was what calibrated a table: the retry mends some of them too."""
    import rig.vision.calibrate as calibrate
    from rig.vision.errors import BackgroundError

    tries = tuple(r for r in calibrate.RETRIES[BackgroundError] if not r.get("core"))
    monkeypatch.setitem(calibrate.RETRIES, BackgroundError, tries)
