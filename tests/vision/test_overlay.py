"""The reading drawn onto its frame (``rig read --out``, the referee's evidence, the calibration preview)."""

import cv2
import numpy as np

from rig.vision.dice import DiceReading
from rig.vision.overlay import draw_dice, put_label

LONG = "pink frog of unusual size (glare?) on die at (600,283)"


def inked_columns(image: np.ndarray, background: int) -> np.ndarray:
    return np.flatnonzero((np.abs(image.astype(int) - background).sum(axis=2) > 0).any(axis=0))


def test_a_label_and_its_outline_are_one_text_not_two_drifting_apart():
    """A thick black copy under a thin coloured one is spaced wider by OpenCV: along a status line the two
    drifted 23 px apart and the line read doubled (the twin's frames, the referee's evidence)."""
    for size, thickness in ((0.5, 1), (0.45, 1), (0.6, 2)):
        image = np.full((40, 600, 3), 128, np.uint8)
        put_label(image, LONG, (8, 25), size, (0, 0, 255), thickness)
        width = cv2.getTextSize(LONG, cv2.FONT_HERSHEY_SIMPLEX, size, thickness)[0][0]
        columns = inked_columns(image, 128)
        assert columns[-1] - columns[0] <= width + 4, (size, thickness)


def test_the_status_line_of_a_drawn_reading_is_as_wide_as_its_text():
    reading = DiceReading(dice=(), status="uncertain", reasons=(LONG,))
    image = np.full((480, 640, 3), 128, np.uint8)
    out = draw_dice(image, reading)
    row = out[30:50]  # the second line: the reason
    width = cv2.getTextSize(LONG, cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1)[0][0]
    columns = inked_columns(row, 128)
    assert 0 < columns[-1] - columns[0] <= width + 4
    assert (image == 128).all()  # drawn on a copy
