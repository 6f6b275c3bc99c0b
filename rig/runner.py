"""Moved to :mod:`rig.app.runner` (issue 29); this old path stays for old imports."""

from rig.app.modes import load_config, on_raspberry_pi, resolve_mode  # noqa: F401
from rig.app.runner import Rig, RunError  # noqa: F401
