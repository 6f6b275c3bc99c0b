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


def filled(part: np.ndarray) -> np.ndarray:
    """``part`` (0/1, uint8) with its holes filled (a frog's unreadable pixels inside a die's top)."""
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = np.zeros_like(part)
    cv2.drawContours(out, contours, -1, 1, cv2.FILLED)
    return out
