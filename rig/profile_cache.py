"""Loading a colour profile with its colour table kept between runs (issue 28).

Building a profile's colour table (:func:`rig.vision.dice.full_colour_lut`, 64**3 colours x every
class) takes most of a second; every ``rig`` command that reads dice used to build it again. It is
kept in the cache folder under a name made of the profile's colour models, thresholds and the code
that builds it (:func:`rig.vision.dice.colour_lut_key`), so an edited profile or a new rig version
never reads a stale table. The folder: ``$RIG_CACHE_DIR``, else systemd's ``$CACHE_DIRECTORY``, else
``$XDG_CACHE_HOME/rig``, else ``~/.cache/rig``; ``lut/<key>.npy`` inside it. A cache that cannot be
read or written is no error: the table is built in memory as before.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Mapping

import numpy as np

from rig.vision.dice import adopt_colour_lut, colour_lut_key, full_colour_lut
from rig.vision.profile import Profile


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """The rig's cache folder (generated material, never in the repository)."""
    env = os.environ if env is None else env
    for name in ("RIG_CACHE_DIR", "CACHE_DIRECTORY"):
        value = env.get(name, "").strip()
        if value:
            return Path(value.split(":")[0]).expanduser()
    xdg = env.get("XDG_CACHE_HOME", "").strip()
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "rig"
    return Path.home() / ".cache" / "rig"


def lut_path(profile: Profile, env: Mapping[str, str] | None = None) -> Path:
    return cache_dir(env) / "lut" / f"{colour_lut_key(profile)}.npy"


def warm_colour_table(profile: Profile, env: Mapping[str, str] | None = None) -> str:
    """Make the profile's colour table ready: from the cache if it is there, else built whole and kept.
    Returns how: ``"cached"``, ``"built"`` (and kept) or ``"not kept"``: no writable cache, so the
    table is built block by block as frames need it, as without a cache (no slower than before)."""
    path = lut_path(profile, env)
    try:
        table = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        table = None
    if table is not None and adopt_colour_lut(profile, table):
        return "cached"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        out = tempfile.NamedTemporaryFile(dir=path.parent, prefix=".lut-", suffix=".npy", delete=False)
    except OSError:
        return "not kept"
    try:
        with out:
            np.save(out, full_colour_lut(profile), allow_pickle=False)
        os.replace(out.name, path)  # whole or not at all: two rigs starting at once never read half a table
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(out.name)
        return "not kept"
    return "built"


def load_profile(path: str | os.PathLike[str]) -> Profile:
    """:meth:`Profile.load` with its colour table from the cache (see the module's docstring), and the
    empty box's picture calibration kept beside it for the card reader (:mod:`rig.vision.card_empty`)."""
    from rig.vision.card_empty import recall

    profile = Profile.load(path)
    warm_colour_table(profile)
    recall(profile, path)
    return profile
