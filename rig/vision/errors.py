"""Errors of the vision layer: bad frames, bad profiles, unusable calibration samples."""

from rig.errors import RigError


class VisionError(RigError):
    """Base of every vision error a user can cause."""


class FrameError(VisionError):
    """A frame is not a readable BGR image (wrong shape, dtype, empty, unreadable file)."""


class ProfileError(VisionError):
    """A calibration profile is missing, malformed, or from a newer format."""


class CalibrationError(VisionError):
    """Calibration samples are unusable (no dice, wrong count, overlapping colours, overexposed)."""


class ReadBackError(CalibrationError):
    """The profile fitted cannot read its own ritual frames back: calibration tries again otherwise fitted."""


class ReflectionError(ReadBackError):
    """... every die read back wrong lying in the lamp's reflection: move the lamp (not retried with the glare's
    floor fitted anew, which could take the reflection for the floor)."""


class NoFrogError(CalibrationError):
    """A ritual die shows no frog on its top: calibration looks for the dice again apart from their shadows."""


class BackgroundError(CalibrationError):
    """A die's colour (a frog's or the violet) overlaps the box bottom's or the table's around it."""
