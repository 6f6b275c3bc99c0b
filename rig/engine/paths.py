"""Where the rig keeps its data (the event-log database).

One function decides, so ``rig run``, ``rig history`` and ``rig doctor`` agree:

1. an explicit directory (``--data-dir``), else
2. the config file's ``data_dir``, else
3. ``$STATE_DIRECTORY`` (systemd sets it to ``/var/lib/rig`` for ``StateDirectory=rig``), else
4. ``$XDG_DATA_HOME/rig``, else ``~/.local/share/rig``.

>>> resolve_data_dir(env={"STATE_DIRECTORY": "/var/lib/rig"})
PosixPath('/var/lib/rig')
>>> resolve_data_dir(env={"XDG_DATA_HOME": "/home/ada/.data"})
PosixPath('/home/ada/.data/rig')
>>> resolve_data_dir("/tmp/x", configured="/srv/rig", env={"STATE_DIRECTORY": "/var/lib/rig"})
PosixPath('/tmp/x')
>>> database_path("/var/lib/rig")
PosixPath('/var/lib/rig/rig.sqlite3')
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

#: file name of the event-log database inside the data directory
DATABASE_NAME = "rig.sqlite3"


def default_data_dir(env: Mapping[str, str] | None = None) -> Path:
    """The data directory when neither ``--data-dir`` nor the config names one."""
    env = os.environ if env is None else env
    state = env.get("STATE_DIRECTORY", "").strip()
    if state:
        return Path(state.split(":")[0])  # systemd joins several StateDirectory= entries with ':'
    xdg = env.get("XDG_DATA_HOME", "").strip()
    if xdg and os.path.isabs(xdg):  # the XDG spec says to ignore relative values
        return Path(xdg) / "rig"
    home = env.get("HOME", "").strip()
    return (Path(home) if home else Path.home()) / ".local" / "share" / "rig"


def resolve_data_dir(
    explicit: str | os.PathLike[str] | None = None,
    *,
    configured: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> Path:
    """The data directory: ``explicit`` (``--data-dir``), else ``configured`` (config ``data_dir``), else the default."""
    for choice in (explicit, configured):
        if choice is not None and str(choice).strip():
            return Path(choice).expanduser()
    return default_data_dir(env)


def database_path(data_dir: str | os.PathLike[str]) -> Path:
    """The event-log database file inside ``data_dir``."""
    return Path(data_dir) / DATABASE_NAME
