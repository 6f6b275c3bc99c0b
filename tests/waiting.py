"""Waiting in tests (issue 28): on a state or an event, never on a time.

A test polls ``condition()`` until it holds. The bound only decides when a stuck test gives up: it is
generous (``RIG_TEST_WAIT_S``, default 120 s), so a loaded machine makes the suite slow, never red.
"""

from __future__ import annotations

import os
import time

#: seconds before a wait on a state gives up
WAIT_S = float(os.environ.get("RIG_TEST_WAIT_S", "120"))


def wait_until(condition, what: str, timeout: float = WAIT_S, poll: float = 0.02):
    """Poll ``condition()`` until it returns something true, and return that; fail naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(poll)


def wait_frames(watcher, more: int = 10) -> None:
    """Wait until a camera watcher has taken ``more`` further frames: whatever lies under the camera now
    has been looked at several times (what a test of "not read" waits for, instead of a time)."""
    start = watcher.frames_seen
    wait_until(lambda: watcher.frames_seen >= start + more or not watcher.running,
               f"{more} more camera frames after {start}")
    assert watcher.running, "the camera watcher stopped"
