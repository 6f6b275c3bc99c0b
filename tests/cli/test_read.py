"""``rig read``: JSON per image, overlays, and exit 2 for every user mistake."""

import json

import cv2
import pytest

from rig.cli import main
from rig.vision.profile import FORMAT, default_profile_path
from rig.vision.render import LIGHTINGS, PlacedDie, Scene, render_card, render_scene

PROFILE = str(default_profile_path())


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    d = tmp_path_factory.mktemp("imgs")
    scene = Scene(dice=(PlacedDie("pink+blue", 200, 200, 10), PlacedDie("yellow", 420, 300, 40)),
                  lighting=LIGHTINGS["neutral"])
    a, b = d / "a.png", d / "b.jpg"
    cv2.imwrite(str(a), render_scene(scene, seed=1))
    cv2.imwrite(str(b), render_scene(scene.replace(dice=scene.dice[:1]), seed=2))
    c = d / "card.png"
    cv2.imwrite(str(c), render_card("yellow", lighting="neutral", seed=3))
    return a, b, c


def test_json_per_image(images, capsys):
    a, b, _ = images
    assert main(["read", "--profile", PROFILE, str(a), str(b), "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    first, second = (json.loads(line) for line in lines)
    assert first["image"] == str(a) and first["status"] == "ok"
    assert sorted(d["face"] for d in first["dice"]) == ["pink+blue", "yellow"]
    assert set(first["dice"][0]) >= {"face", "x", "y", "confidence"}
    assert [d["face"] for d in second["dice"]] == ["pink+blue"]
    assert abs(second["dice"][0]["x"] - 200) < 8 and abs(second["dice"][0]["y"] - 200) < 8


def test_human_output_and_overlay(images, tmp_path, capsys):
    a, _, _ = images
    out = tmp_path / "ov"
    assert main(["read", "--profile", PROFILE, str(a), "--overlay", str(out)]) == 0
    assert "ok 2 dice" in capsys.readouterr().out
    drawn = cv2.imread(str(out / "a.png"))
    assert drawn is not None and drawn.shape == (480, 640, 3)
    assert (drawn != cv2.imread(str(a))).any()


def test_cards(images, capsys):
    _, _, c = images
    assert main(["read", "--profile", PROFILE, "--cards", "--json", str(c)]) == 0
    assert json.loads(capsys.readouterr().out)["card"] == "yellow"


def test_unreadable_and_missing_images(images, tmp_path, capsys):
    a, _, _ = images
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image")
    assert main(["read", "--profile", PROFILE, str(junk)]) == 2
    assert "cannot read image" in capsys.readouterr().err
    assert main(["read", "--profile", PROFILE, str(a), str(tmp_path / "nope.png")]) == 2
    captured = capsys.readouterr()
    assert "no such image" in captured.err and captured.out == ""


def test_missing_and_newer_profiles(images, tmp_path, capsys):
    a, _, _ = images
    assert main(["read", "--profile", str(tmp_path / "none.toml"), str(a)]) == 2
    assert "profile not found" in capsys.readouterr().err
    newer = tmp_path / "newer.toml"
    newer.write_text(open(PROFILE).read().replace(f"format = {FORMAT}", f"format = {FORMAT + 1}", 1))
    assert main(["read", "--profile", str(newer), str(a)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rig read: error:") and "newer" in err and "Traceback" not in err
