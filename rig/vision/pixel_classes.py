"""The classes a pixel of a colour-dice frame falls in (background, die body, edge, a colour, ...) and
masks over them (issue 29: split from :mod:`rig.vision.dice`, which re-exports every name).
"""

from __future__ import annotations

import cv2
import numpy as np

CLASS_NAMES = ("background", "body", "edge", "blue", "pink", "yellow", "unknown", "clipped", "blown", "ambiguous")
# blown: clipped inside a known glare spot (floor or die); ambig: a die top whose colour glare made unreadable
BG, BODY, EDGE, BLUE, PINK, YELLOW, UNKNOWN, CLIPPED, BLOWN, AMBIG = range(10)
COLOUR_CLASSES = {"blue": BLUE, "pink": PINK, "yellow": YELLOW}
IS_TOP = np.zeros(256, np.uint8)
IS_TOP[[BODY, BLUE, PINK, YELLOW, AMBIG]] = 255
_IS_ODD = np.zeros(256, np.uint8)
_IS_ODD[[UNKNOWN, CLIPPED]] = 255
_K3 = np.ones((3, 3), np.uint8)
_DISC3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_IS_DARK = np.zeros(256, np.uint8)
_IS_DARK[[EDGE, UNKNOWN, CLIPPED]] = 255
_IS_EDGE = np.zeros(256, np.uint8)
_IS_EDGE[EDGE] = 255
_COMBOS = {frozenset(("pink", "blue")): "pink+blue", frozenset(("yellow", "pink")): "yellow+pink",
           frozenset(("blue", "yellow")): "blue+yellow"}
