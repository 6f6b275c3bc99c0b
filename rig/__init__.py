"""rig: a Raspberry Pi scoring rig for tabletop dice games.

Importing the package does nothing surprising: no logging set-up, no hardware access,
no environment changes. The layers are ``rig.rules`` (pure rules), ``rig.vision`` (pure
image functions), ``rig.hardware`` (camera and GPIO adapters), ``rig.engine`` (event log
and game state), ``rig.display`` (web app), wired together by ``rig.app.runner``.
"""

__version__ = "0.1.0"
