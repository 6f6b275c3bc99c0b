"""``rig calibrate``: writes a profile from the ritual images; refuses unusable samples with exit 2."""

import cv2
import pytest

from rig.cli import main
from rig.cli.calibrate import virtual_ritual
from rig.profile_cache import load_profile
from rig.vision.card_empty import keep_beside, kept
from rig.vision.errors import ProfileError
from rig.vision.profile import Profile


@pytest.fixture(scope="module")
def ritual_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("ritual")
    frames, empty = virtual_ritual("cool")
    paths = {}
    for face, frame in [*frames.items(), ("empty", empty)]:
        paths[face] = d / f"{face}.png"
        cv2.imwrite(str(paths[face]), frame)
    return paths


def _args(paths, out, **swap):
    faces = {**{f: paths[f] for f in ("blue", "pink", "yellow", "blank")}, **swap}
    args = ["calibrate", "--out", str(out), "--empty", str(paths["empty"])]
    for face, path in faces.items():
        args += ["--face", f"{face}={path}"]
    return args


def test_writes_profile_and_keeps_the_old_one(ritual_files, tmp_path, capsys):
    out = tmp_path / "p.toml"
    args = _args(ritual_files, out) + ["--exposure-us", "12000", "--analogue-gain", "2", "--colour-gains", "1.8,1.5"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "separation" in text and f"wrote {out}" in text
    p = Profile.load(out)
    assert p.exposure_us == 12000 and p.analogue_gain == 2.0 and p.colour_gains == (1.8, 1.5)
    assert main(args) == 0
    assert (tmp_path / "p.toml.bak").exists() and out.exists()


def test_refusals_exit_2(ritual_files, tmp_path, capsys):
    out = tmp_path / "q.toml"
    assert main(_args(ritual_files, out, blue=ritual_files["empty"])) == 2
    assert "no dice found" in capsys.readouterr().err
    assert main(_args(ritual_files, out, blue=ritual_files["pink"])) == 2
    assert "blue" in capsys.readouterr().err
    assert main(["calibrate", "--out", str(out), "--face", f"blue={ritual_files['blue']}"]) == 2
    assert "missing --face for pink" in capsys.readouterr().err
    assert main(["calibrate", "--out", str(out), "--face", "green=x.png"]) == 2
    assert "ritual faces" in capsys.readouterr().err
    assert main(_args(ritual_files, out, yellow=tmp_path / "none.png")) == 2
    assert "no such image" in capsys.readouterr().err
    assert main(_args(ritual_files, out) + ["--colour-gains", "x"]) == 2
    assert "RED,BLUE" in capsys.readouterr().err
    no_empty = [a for a in _args(ritual_files, out) if a not in ("--empty", str(ritual_files["empty"]))]
    assert main(no_empty) == 2
    assert "missing --empty" in capsys.readouterr().err
    assert main(_args(ritual_files, out, blue=ritual_files["pink"], pink=ritual_files["blue"])) == 2
    assert "blue and pink frames look swapped" in capsys.readouterr().err
    assert not out.exists()


def test_virtual_calibration(tmp_path, capsys):
    out = tmp_path / "v.toml"
    assert main(["calibrate", "--virtual", "dim", "--out", str(out), "--samples", str(tmp_path / "s")]) == 0
    assert Profile.load(out).name == "virtual-table (dim)"
    assert (tmp_path / "s" / "blank.jpg").exists()
    assert main(["calibrate", "--virtual", "--face", "blue=x.png", "--out", str(out)]) == 2


def test_calibration_keeps_the_empty_box_for_the_card_reader(tmp_path, capsys, caplog):
    out = tmp_path / "v.toml"
    assert main(["calibrate", "--virtual", "cool", "--out", str(out)]) == 0
    assert f"wrote {tmp_path / 'v.empty.npy'}" in capsys.readouterr().out
    profile = load_profile(out)  # every profile a rig, a command or the calibration page loads
    assert kept(profile) is not None and kept(profile).lab.shape[1] == 320
    (tmp_path / "v.empty.npy").write_bytes(b"not a picture")
    profile = load_profile(out)
    assert kept(profile) is None and "cannot be read" in caplog.text  # cards read from colours alone


def test_an_empty_box_picture_that_cannot_be_written_is_one_line(tmp_path):
    frames, empty = virtual_ritual("cool")
    with pytest.raises(ProfileError, match=r"cannot write .*nowhere.*v\.empty\.npy"):
        keep_beside(tmp_path / "nowhere" / "v.toml", empty)


def test_the_camera_values_rig_record_noted_are_stored(ritual_files, tmp_path, capsys):
    """Frames recorded on the Pi come with the camera's metadata values: calibration stores those."""
    import json
    import shutil

    folder = tmp_path / "rec"
    folder.mkdir()
    paths = {face: shutil.copy(path, folder / path.name) for face, path in ritual_files.items()}
    camera = {"exposure_us": 30000, "analogue_gain": 1.0667, "colour_gains": [1.8181, 1.5384],
              "lens_position": 2.5, "focus_fom": 20000}
    (folder / "recording.json").write_text(json.dumps({"sessions": [{"source": "picamera2", "camera": camera}]}))
    out = tmp_path / "p.toml"
    assert main(_args(paths, out)) == 0
    p = Profile.load(out)
    assert (p.exposure_us, p.analogue_gain, p.colour_gains, p.lens_position) == (30000, 1.0667, (1.8181, 1.5384), 2.5)
    assert main(_args(paths, out) + ["--exposure-us", "12000"]) == 0  # given values win
    assert Profile.load(out).exposure_us == 12000
