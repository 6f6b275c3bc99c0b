"""``rig record DIR``: frames saved from the live source, replayable, nothing overwritten."""

from __future__ import annotations

import json

import pytest

from rig.cli import main
from rig.hardware.replay import ReplaySource


def record(tmp_path, *args):
    return main(["record", str(tmp_path / "rec"), "--source", "virtual", "--width", "320", "--height", "240", *args])


def test_record_saves_frames_that_replay_as_a_camera(tmp_path, capsys):
    assert record(tmp_path, "--frames", "6") == 0
    out = capsys.readouterr().out
    names = sorted(p.name for p in (tmp_path / "rec").glob("frame-*.png"))
    assert len(names) == 6 and names[0].startswith("frame-000001-")
    assert f"6 frames from virtual -> {tmp_path / 'rec'}" in out
    (meta,) = json.loads((tmp_path / "rec" / "recording.json").read_text())["sessions"]
    assert (meta["source"], meta["frames"], meta["width"], meta["height"]) == ("virtual", 6, 320, 240)
    with ReplaySource(tmp_path / "rec", realtime=False) as replay:
        frames = list(replay.frames())
    assert len(frames) == 6 and frames[0][1].shape == (240, 320, 3)
    assert [t for t, _ in frames] == sorted(t for t, _ in frames)


def test_recording_again_into_the_same_folder_keeps_the_old_frames(tmp_path):
    record(tmp_path, "--frames", "3")
    record(tmp_path, "--frames", "2", "--format", "jpg")
    names = sorted(p.name for p in (tmp_path / "rec").glob("frame-*"))
    assert [n[:12] for n in names] == [f"frame-00000{i}" for i in range(1, 6)]
    assert sum(n.endswith(".jpg") for n in names) == 2
    sessions = json.loads((tmp_path / "rec" / "recording.json").read_text())["sessions"]
    assert [(m["first_frame"], m["frames"]) for m in sessions] == [(1, 3), (4, 2)]


def test_every_nth_frame_and_seconds_of_camera_time(tmp_path):
    assert record(tmp_path, "--seconds", "1", "--every", "3", "--fps", "10") == 0
    assert len(list((tmp_path / "rec").glob("frame-*.png"))) == 4  # frames 0, 3, 6, 9 of the first second


def test_demo_plays_three_rolls_into_the_recording(tmp_path):
    from rig.vision.rolls import motion_fraction, motion_signature

    assert record(tmp_path, "--demo", "--frames", "40") == 0
    with ReplaySource(tmp_path / "rec", realtime=False) as replay:
        sigs = [motion_signature(f) for _, f in replay.frames()]
    moving = [i for i in range(1, len(sigs)) if motion_fraction(sigs[i - 1], sigs[i]) > 0.002]
    bursts = [i for i in moving if i - 1 not in moving]
    assert len(bursts) == 3


@pytest.mark.parametrize(("args", "message"), [
    (["--source", "usb:9"], "rig record: error: camera usb:9: no USB camera there"),
    (["--source", "webcam"], "camera source 'webcam': expected one of"),
    (["--source", "replay:/nonexistent/rec"], "camera replay:/nonexistent/rec: no such folder"),
    (["--demo", "--source", "usb:0"], "--demo plays a turn on the virtual camera, not on usb:0"),
    (["--frames", "0"], "--frames must be at least 1"),
])
def test_mistakes_are_one_line_errors(tmp_path, capsys, args, message):
    assert main(["record", str(tmp_path / "rec"), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_file_in_the_way_is_refused(tmp_path, capsys):
    (tmp_path / "rec").write_text("keep me")
    assert record(tmp_path) == 2
    assert "exists and is not a folder" in capsys.readouterr().err
    assert (tmp_path / "rec").read_text() == "keep me"


def test_the_config_file_names_the_camera(tmp_path, capsys, monkeypatch):
    config = tmp_path / "rig.toml"
    config.write_text('[camera]\nsource = "virtual"\nwidth = 320\nheight = 240\n')
    monkeypatch.setenv("RIG_CONFIG", str(config))
    assert main(["record", str(tmp_path / "out"), "--frames", "2"]) == 0
    assert "2 frames from virtual" in capsys.readouterr().out


def test_track_prints_what_the_roll_tracker_sees(tmp_path, capsys):
    assert main(["record", str(tmp_path / "rec"), "--source", "virtual", "--demo", "--frames", "45", "--track"]) == 0
    lines = capsys.readouterr().out.splitlines()
    settled = [line for line in lines if "settled" in line]
    assert [line.split("settled")[0].split()[-2:] for line in settled] == [["roll", "1"], ["roll", "2"], ["roll", "3"]]
    assert all(", 2 new: " in line and line.endswith("(ok)") for line in settled)
    assert not any("violation" in line for line in lines)
    assert main(["record", str(tmp_path / "again"), "--source", f"replay:{tmp_path / 'rec'}", "--track"]) == 0
    assert [line for line in capsys.readouterr().out.splitlines() if "settled" in line] == settled
