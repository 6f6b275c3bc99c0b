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


class PhantomError(ReadBackError):
    """... a die read back where none of the ritual's dice lies (the box's rim or the table beyond it taken for a die):
    tried, before the read-back's last try, with the box's own bottom inside its rim as the floor (round 22: card twin 4013)."""


class NoFrogError(CalibrationError):
    """A ritual die shows no frog on its top: calibration looks for the dice again apart from their shadows."""


class BackgroundError(CalibrationError):
    """A die's colour (a frog's or the violet) overlaps the box bottom's or the table's around it: ``colour`` (body,
    blue, pink, yellow) and ``separation`` say which and how far apart."""

    def __init__(self, message: str, colour: str = "", separation: float = 0.0):
        super().__init__(message)
        self.colour, self.separation = colour, separation


class WallsError(BackgroundError):
    """... the box bottom alone, where it is plain, is told from the dice's colours (``separation``, the least): the
    overlap is the box's walls and rim or the table around the box."""


class BodyError(CalibrationError):
    """A frog's colour overlaps the dice's violet (``colour``, ``separation``): calibration tries the glare's floor
    fitted without a wall's deep shade, then that colour fitted on its frog pixels' cluster farthest from the violet
    (round 23: twin 10604, seen — the near wall's shade band bent the glare's floor, the lamp fitted through the
    bodies the glare took off sagged in the middle and darkened the near dice to half: their blue icons' pixels, dark,
    were the largest cluster and the blue was fitted between the violet and the lit icons)."""

    def __init__(self, message: str, colour: str = "", separation: float = 0.0):
        super().__init__(message)
        self.colour, self.separation = colour, separation


class FewFrogError(CalibrationError):
    """The fitted profile finds hardly any of a frog's colour on the ritual dice: calibration tries again with that
    colour fitted to what most dice show (the lamp's sheen on a few dice's tops can outweigh the rest in pixels)."""
