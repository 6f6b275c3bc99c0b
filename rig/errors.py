"""The one error base of the rig.

Every error a user can cause (bad JSON, a wrong config key, an unreadable image, a pin
in use) is a :class:`RigError`. It also derives from :class:`ValueError`, so callers
that only know the builtin can still catch it. The ``rig`` command turns it into one
line on stderr and exit code 2.
"""


class RigError(ValueError):
    """Base class of every error the rig reports to a user."""


class ConfigError(RigError):
    """The rig's configuration file is wrong (unknown key, wrong type, duplicate pin, ...)."""


class HardwareError(RigError):
    """A camera or GPIO input could not be used (missing, in use, stuck, lost)."""


class RunError(RigError):
    """The rig cannot start as asked (address in use, real mode without hardware, ...)."""


class AnswerError(RigError):
    """An answer to a question on screen that the question does not take (a card it did not offer)."""
