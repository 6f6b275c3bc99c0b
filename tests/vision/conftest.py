import importlib
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


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
