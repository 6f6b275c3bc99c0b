import pytest


@pytest.fixture(scope="session")
def virtual_profile():
    """The profile fitted on the virtual table under neutral light (what calibration/ ships)."""
    from rig.vision.profile import Profile, default_profile_path

    return Profile.load(default_profile_path())
