"""The engine's errors: a refused event, a database the rig must not touch."""

from __future__ import annotations

from rig.errors import RigError


class EngineError(RigError):
    """Base of every error of the turn engine and its event log."""


class EventRefused(EngineError):
    """An event that makes no sense in the current state (logged as refused, state unchanged).

    ``reason`` is the one-line explanation shown to the players.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class EventFormatError(EventRefused):
    """An event that is malformed: not an object, an unknown type, a field of the wrong type."""


class LogError(EngineError):
    """The event-log database cannot be used: corrupt, foreign, too new, not writable."""


class StorageFull(LogError):
    """The event log cannot be opened or created now because the disk is full (or failing): nothing
    is wrong with the file. ``rig run`` exits with :attr:`exit_code` (75, EX_TEMPFAIL), which systemd
    restarts, so the rig starts again by itself once space is free (exit 2 stops it for a person)."""

    exit_code = 75
