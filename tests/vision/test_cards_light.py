"""The light measured beside the cards, not on them (issue 24 part 3): two large cards over most of a dark, busy box
bottom changed alike, and the light's estimate took them for the floor."""

import cv2
import numpy as np

from rig.vision.card_empty import EmptyBox
from rig.vision.dice import prepare
from rig.vision.light import covered_cells
from rig.vision.profile import Profile
from tests.vision.test_cards_arm import DATA, _read


def test_blank_cards_over_most_of_the_floor_are_not_read_gray():
    # twin 2815, reveal 0: blank (violet) cards laid in a row on a dark box bottom with a busy print; its floor grid
    # is 33 cells, the two cards cover 27 of them. Measured over the cards the light was "exposure x3.16", the
    # fields came out dark and colourless, and both cards read gray, ok — the third blank was then booked gray in
    # silence. Measured on what did not change from the empty box, both read blank
    for name in ("t2815-reveal0-1-laid", "t2815-reveal0-2-laid"):
        view = _read(name)
        assert [(c.card, c.status) for c in view.cards] == [("blank", "ok")] * 2, name


def test_the_cells_under_the_cards_are_left_out_of_the_lights_estimate():
    frame = cv2.imread(str(DATA / "t2815-reveal0-1-laid.jpg"))
    profile = Profile.load(DATA / "t2815.toml")
    work = prepare(frame, profile)
    changed, _ = EmptyBox.of(cv2.imread(str(DATA / "t2815-empty.jpg"))).compare(frame, work.small.shape[1::-1])
    covered = covered_cells(changed)
    assert covered.shape == (12, 16) and 20 <= covered.sum() <= 80
    assert work.light.exposure > 2  # fooled by the cards
    assert 0.8 < prepare(frame, profile, lambda size, factor: covered).light.exposure < 1.25  # the lamp did not change


def test_covered_cells_are_those_with_a_share_set():
    mask = np.zeros((120, 160), np.uint8)
    mask[:10, :10] = 1  # one whole cell
    mask[10:11, 10:20] = 1  # a tenth of a cell: not more than the share
    cells = covered_cells(mask)
    assert cells[0, 0] and cells.sum() == 1
