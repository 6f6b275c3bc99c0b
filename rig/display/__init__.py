"""The rig's web app: the scoreboard pages and the JSON API (:mod:`rig.display.api`).

Importing this package imports nothing heavy: Starlette is loaded by the modules that need it.
"""
