"""What the games write in English, as the pages show it in another language: each registered game's
patterns (:attr:`rig.registry.Game.text_patterns`, :func:`rig.i18n.by_pattern`)."""

from __future__ import annotations

from rig import registry
from rig.i18n import Patterns


def rules_texts() -> Patterns:
    """Every registered game's patterns, in the registry's order."""
    return tuple(pattern for game in registry.games() for pattern in game.patterns())
