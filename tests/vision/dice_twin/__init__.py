"""Twin frames and the profiles they were read with, committed for the tests of the dice reader."""

from pathlib import Path

import cv2

from rig.vision.profile import Profile

HERE = Path(__file__).parent


def frame_and_profile(frame: str, table: str):
    """``frame`` (a file here) as BGR and the profile ``table``.toml it is read with."""
    return cv2.imread(str(HERE / frame)), Profile.load(HERE / f"{table}.toml")
