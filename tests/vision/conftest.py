import importlib
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
#: the shared photographs the 2D unseen tables cut their floors from (``../shared/data``)
DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="needs ../shared/data (the unseen tables' floor textures)")


def calibrated_unseen(seed: int):
    """2D unseen table ``seed`` (``rig bench vision --unseen``'s generator) and the profile its ritual fits."""
    from rig.bench.tables import Table
    from rig.vision.calibrate import fit_profile

    table = Table.random(seed, data=DATA)
    frames, empty = table.ritual()
    return table, fit_profile(frames, empty=empty, name=f"unseen-{seed}").profile


def script(name: str):
    """The module of ``scripts/<name>.py`` (the scripts are no package: imported with scripts/ on the path)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(SCRIPTS))


@pytest.fixture(scope="session")
def virtual_profile():
    """The profile fitted on the virtual table under neutral light (what calibration/ ships)."""
    from rig.vision.profile import Profile, default_profile_path

    return Profile.load(default_profile_path())


@pytest.fixture
def nets():
    """The shipped pip-dice nets (:func:`rig.vision.dicenet.default_dicenet`); the test skipped without them."""
    from rig.vision import dicenet

    found = dicenet.default_dicenet()
    if found is None:
        pytest.skip("no dice nets")
    return found


@pytest.fixture
def with_empty_box():
    """``(frame, table)`` -> a twin frame of ``tests/vision/dice_twin`` and its profile with the table's empty box kept,
    as the bench keeps it (forgotten after the test: the picture is found by the calibration's stamp, which other
    tests' copies share)."""
    import cv2

    from rig.vision.card_empty import EmptyBox, remember

    from .dice_twin import HERE, frame_and_profile

    kept = []

    def load(frame: str, table: str):
        image, profile = frame_and_profile(frame, table)
        empty = next(p for p in (HERE / f"{table}-empty.webp", HERE / f"{table}-empty.jpg") if p.exists())
        remember(profile, EmptyBox.of(cv2.imread(str(empty))))
        kept.append(profile)
        return image, profile

    yield load
    for profile in kept:
        remember(profile, None)
