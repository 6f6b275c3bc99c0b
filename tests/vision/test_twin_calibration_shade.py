"""Calibration on a table whose dice stand at a wall's shade edge (issue 24, round 10: twin card tables)."""

import cv2
import numpy as np

from rig.vision.calibrate import RITUAL, fit_profile
from rig.vision.calibrate_shade import lit_band

from .dice_twin import ritual_frames




def test_dice_lit_at_a_walls_shade_edge_are_calibrated():
    # twin card table 2803 (seen; 5960 K lamp): the lower row of ritual dice lies at the edge of the front wall's
    # deep shade. Their tops stand a die's height above the floor, out of the shadow, but the shade map (the
    # empty box's floor) lifted them like the floor under them, ~1.5 times: the lit violet read pink (blue
    # frame: "pink+blue"; blank frame: "pink") and calibration was refused, telling the player to move the
    # lamp. The band where the ritual dice's tops stand lit is taken out of the map: every frame reads back right.
    frames, empty = ritual_frames("t2803")
    report = fit_profile(frames, empty=empty, name="t2803")
    assert {k: faces for k, (faces, _) in report.self_test.items()} == {k: [k] * 6 for k in RITUAL}
    shade = np.asarray(report.profile.shade).max(axis=2)
    assert shade.min() < 30  # the wall's deep shade itself is still lifted


def test_a_shade_no_ritual_die_stands_lit_in_keeps_its_map():
    from rig.vision.calibrate_find import _Frame

    shade = np.full((36, 48, 3), 100)
    shade[30:, :] = 20  # a wall's deep shade along the bottom
    shade = tuple(tuple(tuple(int(v) for v in px) for px in row) for row in shade)
    small = np.full((240, 320, 3), 160, np.uint8)
    small[200:] = 32
    masks = []
    for i, (x, y) in enumerate([(40, 40), (120, 40), (200, 40), (40, 120), (120, 120), (260, 215)]):
        m = np.zeros((240, 320), bool)
        m[y - 10:y + 10, x - 10:x + 10] = True
        small[m] = (190, 60, 120) if i < 5 else (38, 12, 24)  # violet; the last die in the shade, dark as it
        masks.append(m)
    frame = _Frame("blank", small, masks, [(0, 0)] * 6)
    body_ab = cv2.cvtColor(np.uint8([[[190, 60, 120]]]), cv2.COLOR_BGR2Lab)[0, 0, 1:].astype(float)
    assert lit_band(shade, {"blank": frame}, 20.0, body_ab) == shade
    small[masks[5]] = (190, 60, 120)  # lit as the others: the band it reaches into is taken out
    lifted = np.asarray(lit_band(shade, {"blank": frame}, 20.0, body_ab)).max(axis=2)
    assert lifted[31, 39] == 100 and lifted[35, 39] < 30  # the band out, the deeper shade kept
