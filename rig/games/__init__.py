"""The games the rig scores, one package each (issue 17).

Each ``rig.games.<name>`` package holds the game's :class:`rig.registry.Game` subclass (its
description, rules, engine fold, dice reader, virtual-table dice and turn flow), registered in
``pyproject.toml``'s ``rig.games`` entry-point group. Nothing else in the rig names a game: it
asks :mod:`rig.registry`. How to write one: ``docs/games-new.md``.
"""
