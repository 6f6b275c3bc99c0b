"""The LEGO Dice reader: every face colour on rendered frames, one die expected."""

import numpy as np
import pytest

from rig.games.lego.reader import LEGO_PALETTE, draw_lego, read_lego, render_lego
from rig.vision.render_pips import TABLE_BGR


@pytest.mark.parametrize("face", list(LEGO_PALETTE))
def test_every_face_colour_reads_right(face):
    for seed in range(4):
        frame, truth = render_lego(seed, face)
        reading = read_lego(frame)
        assert (reading.face, reading.status) == (face, "ok"), (seed, reading)
        x, y, w, h = truth["box"]
        die = reading.dice[0]
        assert abs(die.x - (x + w / 2)) < 6 and abs(die.y - (y + h / 2)) < 6


def test_no_die_or_two_dice_are_uncertain():
    empty = np.empty((480, 640, 3), np.uint8)
    empty[:] = TABLE_BGR
    reading = read_lego(empty)
    assert reading.face is None and reading.status == "ok" and reading.dice == ()  # an empty box, surely
    two = empty.copy()
    draw_lego(two, 160, 240, 70, 0.3, "red")
    draw_lego(two, 480, 240, 70, 0.8, "blue")
    read = read_lego(two)
    assert sorted(d.face for d in read.dice) == ["blue", "red"]
    assert read.status == "uncertain" and read.face is None
    assert read.reasons == ("2 dice seen, Lunar Command has one",)


def test_a_custom_palette_names_the_faces():
    frame, _ = render_lego(9, "green")
    palette = {"white": LEGO_PALETTE["white"], "lime": LEGO_PALETTE["green"], "red": LEGO_PALETTE["red"]}
    assert read_lego(frame, palette=palette).face == "lime"


def test_to_dict_is_json_ready():
    import json

    reading = read_lego(render_lego(4, "gray")[0])
    data = json.loads(json.dumps(reading.to_dict()))
    assert data["game"] == "lego" and data["face"] == "gray" and data["dice"][0]["confidence"] > 0.5
