"""The runner: mode choice, config, sockets; the rig wired in simulation mode (real gpiozero mock pins,
the virtual table, the engine); `rig run` as a process (errors, systemd readiness and watchdog); install."""

from __future__ import annotations

import dataclasses
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from rig.config import CameraConfig, RigConfig, TossConfig
from rig.errors import ConfigError, RigError
from rig.app.modes import load_config, on_raspberry_pi, resolve_mode
from rig.app.runner import Rig, RunError
from rig.app.serve import bind_socket, page_urls
from rig.vision.profile import default_profile_path
from tests.waiting import WAIT_S, wait_frames, wait_until

ROOT = Path(__file__).resolve().parents[1]


def test_mode_follows_request_then_hardware(tmp_path):
    pi_camera = replace(RigConfig.default(), camera=CameraConfig("picamera2"))
    assert resolve_mode("sim", pi_camera, on_pi=True) == "sim"
    assert resolve_mode("real", RigConfig.default(), on_pi=False) == "real"
    assert resolve_mode(None, pi_camera, on_pi=True) == "real"
    assert resolve_mode(None, pi_camera, on_pi=False) == "sim"
    with pytest.raises(RunError, match="unknown mode"):
        resolve_mode("fast", pi_camera)


def test_raspberry_pi_detected_from_device_tree(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert on_raspberry_pi(model)
    model.write_bytes(b"QEMU Virtual Machine\x00")
    assert not on_raspberry_pi(model)
    assert not on_raspberry_pi(tmp_path / "missing")


def test_load_config_default_file_and_env(tmp_path, monkeypatch):
    monkeypatch.delenv("RIG_CONFIG", raising=False)
    assert [p.name for p in load_config(None).players] == ["Ada", "Ben", "Cleo", "Dev", "Eli"]
    path = tmp_path / "rig.toml"
    path.write_text("[server]\nport = 9123\n")
    assert load_config(path).server.port == 9123
    monkeypatch.setenv("RIG_CONFIG", str(path))
    assert load_config(None).server.port == 9123
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.toml")


def test_bind_socket_free_port_and_port_in_use():
    sock = bind_socket("127.0.0.1", 0)
    try:
        port = sock.getsockname()[1]
        assert port > 0
        with pytest.raises(RunError, match=f"cannot listen on 127.0.0.1:{port}"):
            other = bind_socket("127.0.0.1", port)
            other.close()
    finally:
        sock.close()
    with pytest.raises(RigError, match="cannot listen on"):
        bind_socket("no-such-host.invalid", 0)


def test_page_urls():
    assert page_urls("127.0.0.1", 8080) == ["http://127.0.0.1:8080/"]
    urls = page_urls("0.0.0.0", 9000)
    assert urls[0] == "http://127.0.0.1:9000/" and urls[1].endswith(".local:9000/")
    assert socket.gethostname() in urls[1]


# --------------------------------------------------------------------------- the rig, wired, in simulation


@pytest.fixture(scope="module")
def profile_path():
    """The profile fitted on the virtual table that simulation mode uses (shipped in calibration/)."""
    path = default_profile_path()
    assert path.exists(), path
    return path


@pytest.fixture
def config(profile_path):
    """The default rig with the shipped profile; a short hold confirms (0.3 s instead of 1 s)."""
    return dataclasses.replace(RigConfig.default(), profile=profile_path, tosses=TossConfig(hold_confirm_s=0.3))


def wait_for(rig, predicate, timeout=WAIT_S, what="the state"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = rig.service.state()
        if predicate(state):
            return state
        rig.service.wait_for_change(state["version"], 0.1)
    raise AssertionError(f"timed out waiting for {what}: {rig.service.state()['turn']}")


def test_a_whole_turn_through_mock_pins_and_the_virtual_table(config, tmp_path):
    with Rig(config, mode="sim", data_dir=tmp_path, seed=11, sim_fps=25) as rig:
        sim = rig.sim
        assert rig.service.state()["game"]["players"] == ["Ada", "Ben", "Cleo", "Dev", "Eli"]
        sim.press("Ada")  # the roller's button starts the turn
        wait_for(rig, lambda s: s["turn"]["started"], what="the turn to start")
        for roll, n in enumerate((2, 3, 1), start=1):
            sim.roll(n)
            state = wait_for(rig, lambda s, r=roll: s["turn"]["rolls"] == r, what=f"roll {roll}")
        assert sorted(d["face"] for d in state["turn"]["dice"]) == sorted(rig.source.faces)
        for player in ("Cleo", "Ben", "Eli", "Dev"):
            sim.press(player)
            time.sleep(0.01)
        # the rulebook's order: whom to copy is chosen while the stack is still face down
        state = wait_for(rig, lambda s: s["turn"]["phase"] == "copy", what="the copy choice")
        order = [t["player"] for t in state["turn"]["tosses"]]
        assert order == ["Cleo", "Ben", "Eli", "Dev"]  # by the edge times of the mock pins
        assert "Cleo beat Ben by" in state["turn"]["tosses"][1]["margin_text"]
        cards = ["gray", "blue", "gray", "pink"]
        sim.show_card(cards[0])  # turned over too early: the camera does not read it yet
        wait_frames(rig.watcher)
        assert rig.service.state()["turn"]["cards_revealed"] == 0
        sim.press("Ada")  # a short press: copy the next player (Ben)
        wait_for(rig, lambda s: (s["turn"]["copy"] or {}).get("player") == "Ben", what="the copy choice")
        assert rig.service.state()["turn"]["cards_revealed"] == 0
        sim.hold("Ada")  # a hold confirms: now the reveal, and the card already in view is read
        wait_for(rig, lambda s: s["turn"]["cards_revealed"] == 1, what="card 1")
        for k, card in enumerate(cards[1:], start=2):
            sim.show_card(card)
            wait_for(rig, lambda s, k=k: s["turn"]["cards_revealed"] == k, what=f"card {k}")
        state = wait_for(rig, lambda s: s["turn"]["phase"] == "review", what="the score")
        assert [t["card"] for t in state["turn"]["tosses"]] == cards
        score = state["turn"]["score"]
        assert score["copy"] == "Ben" and score["points"]["Ada"] == score["points"]["Ben"]
        sim.hold("Ada")  # another hold finishes the turn
        state = wait_for(rig, lambda s: s["turn"]["roller"] == "Ben", what="Ben's turn")
        assert state["totals"] == score["net"]


def test_a_knocked_die_is_a_violation_of_the_roller(config, tmp_path):
    with Rig(config, mode="sim", data_dir=tmp_path, seed=5, sim_fps=25) as rig:
        rig.sim.press("Ada")
        rig.sim.roll(2)
        wait_for(rig, lambda s: s["turn"]["rolls"] == 1, what="roll 1")
        rig.sim.roll(2)
        wait_for(rig, lambda s: s["turn"]["rolls"] == 2, what="roll 2")
        rig.sim.knock()
        state = wait_for(rig, lambda s: s["turn"]["violations"], what="the violation")
        violation = state["turn"]["violations"][0]
        assert violation["player"] == "Ada" and violation["kind"] == "knocked_die"


def test_new_game_players_sit_at_the_configured_inputs(config, tmp_path):
    with Rig(config, mode="sim", data_dir=tmp_path, camera=False) as rig:
        rig.service.submit({"type": "game_started", "players": ["Xia", "Yan", "Zoe"]})
        assert rig.seats() == {"Ada": "Xia", "Ben": "Yan", "Cleo": "Zoe"}
        rig.sim.press("Xia")
        wait_for(rig, lambda s: s["turn"]["started"])
        rig.sim.press("Zoe")  # Cleo's input
        state = wait_for(rig, lambda s: s["turn"]["tosses"])
        assert [t["player"] for t in state["turn"]["tosses"]] == ["Zoe"]
        with pytest.raises(RunError, match="no toss input for 'Ada'"):
            rig.sim.press("Ada")


def test_a_stuck_input_is_shown_and_gives_no_tosses(config, tmp_path):
    from rig.hardware.gpio_mock import TickPin

    factory = MockFactory(pin_class=TickPin)
    factory.pin("GPIO27").wire_low()  # Ben's button jammed down before the rig starts
    with Rig(config, mode="sim", data_dir=tmp_path, camera=False, pin_factory=factory) as rig:
        assert rig.inputs.flush(WAIT_S)
        notices = rig.status()["notices"]
        assert any(n["key"] == "input:Ben" and "stuck" in n["text"] for n in notices), notices
        rig.sim.press("Ada")
        wait_for(rig, lambda s: s["turn"]["started"])
        rig.sim.press("Ben")
        assert rig.inputs.flush(WAIT_S)
        assert rig.service.state()["turn"]["tosses"] == []
    factory.reset()


def test_a_lost_camera_is_a_notice_and_the_game_carries_on(config, tmp_path):
    with Rig(config, mode="sim", data_dir=tmp_path, sim_fps=25) as rig:
        rig.sim.press("Ada")
        before = wait_for(rig, lambda s: s["turn"]["started"])
        rig.sim.drop_camera()
        wait_until(lambda: any(n["key"] == "camera" for n in rig.status()["notices"]), "the camera notice")
        assert any(n["key"] == "camera" and "Camera lost" in n["text"] for n in rig.status()["notices"])
        assert rig.status()["camera"]["connected"] is False
        assert rig.service.state()["turn"] == before["turn"]
        rig.sim.restore_camera()
        wait_until(lambda: not any(n["key"] == "camera" for n in rig.status()["notices"]), "the notice to clear")
        assert not any(n["key"] == "camera" for n in rig.status()["notices"])
        rig.sim.roll(2)
        wait_for(rig, lambda s: s["turn"]["rolls"] == 1, what="a roll after the camera came back")


def test_a_restart_carries_on_where_the_game_was(config, tmp_path):
    with Rig(config, mode="sim", data_dir=tmp_path, camera=False) as rig:
        rig.sim.press("Ada")
        wait_for(rig, lambda s: s["turn"]["started"])
        rig.sim.press("Dev")
        before = wait_for(rig, lambda s: s["turn"]["tosses"])
    with Rig(config, mode="sim", data_dir=tmp_path, camera=False) as rig:
        after = rig.service.state()
    assert after["game"]["id"] == before["game"]["id"]
    assert after["turn"] == before["turn"]


def test_simulation_refuses_impossible_rolls(config, tmp_path):
    with Rig(config, mode="sim", data_dir=tmp_path, sim_fps=25) as rig:
        with pytest.raises(RunError, match="roll 1 to 6 dice"):
            rig.sim.roll(0)
        rig.sim.roll(5)
        with pytest.raises(RunError, match="only 1 die left to roll this turn, not 2"):
            rig.sim.roll(2)
        rig.sim.roll(1)
        with pytest.raises(RunError, match="all six dice are out this turn: nothing left to roll"):
            rig.sim.roll(1)


def test_healthy_follows_the_inputs_public_liveness(config, tmp_path, monkeypatch):
    from rig.hardware.tosses import TossInputs

    with Rig(config, mode="sim", data_dir=tmp_path, camera=False) as rig:
        assert rig.healthy() is True
        monkeypatch.setattr(TossInputs, "alive", property(lambda self: False))
        assert rig.healthy() is False
    assert rig.healthy() is False


def test_rig_run_real_without_gpio_points_at_sim(no_gpio, tmp_path, monkeypatch, capsys):
    from rig.cli import main

    monkeypatch.delenv("RIG_CONFIG", raising=False)
    assert main(["run", "--real", "--port", "0", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rig run: error: real mode needs the toss inputs' GPIO pins, and this machine has no GPIO")
    assert err.count("\n") == 1
    assert "`rig run --sim`" in err and "python3-lgpio" in err
    assert "rig tosses" not in err and "GPIOZERO_PIN_FACTORY=mock" not in err


def recording(folder, count=4):
    import cv2

    from rig.vision.render import render_table

    folder.mkdir()
    for i in range(count):
        frame, _ = render_table(7, 0)  # the empty box
        cv2.imwrite(str(folder / f"frame-{i + 1:06d}-{1_000_000 + i * 40_000}.png"), frame)
    return folder


def test_the_end_of_a_replay_is_shown_as_finished_not_as_a_failure(config, tmp_path):
    camera = CameraConfig(f"replay:{recording(tmp_path / 'rec')}", 640, 480, 25)
    with Rig(replace(config, camera=camera), mode="real", data_dir=tmp_path / "data",
             pin_factory=MockFactory()) as rig:
        assert rig.watcher.wait(WAIT_S)
        status = rig.status()
        keys = {n["key"]: n for n in status["notices"]}
        assert "camera-thread" not in keys
        assert keys["camera-ended"]["kind"] == "info" and keys["camera-ended"]["text"].startswith("Replay finished")
        assert status["camera"]["ended"] is True and status["camera"]["frames"] == 4
        assert rig.healthy() is True


def test_a_looped_replay_starts_over(config, tmp_path):
    text = '[camera]\nsource = "replay:rec"\nwidth = 640\nheight = 480\nloop = true\n'
    recording(tmp_path / "rec", 3)
    looped = replace(config, camera=RigConfig.parse(text, base=tmp_path).camera)
    with Rig(looped, mode="real", data_dir=tmp_path / "data", pin_factory=MockFactory()) as rig:
        assert rig.source.loop is True
        while rig.watcher.frames_seen <= 6 and rig.watcher.running:
            time.sleep(0.02)
        assert rig.watcher.running and not rig.watcher.ended
        assert not any(n["key"].startswith("camera") for n in rig.status()["notices"])


def test_a_missing_profile_is_refused_at_start(tmp_path):
    config = dataclasses.replace(RigConfig.default(), profile=tmp_path / "gone.toml")
    with pytest.raises(RunError, match="gone.toml not found"):
        Rig(config, mode="sim", data_dir=tmp_path / "data").start()


# --------------------------------------------------------------------------- `rig run` as a process


def run_rig(*args, env=None, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "rig", "run", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, **(env or {})), **kwargs)


def test_rig_run_refuses_a_port_in_use_in_one_line(tmp_path):
    sock = bind_socket("127.0.0.1", 0)
    try:
        port = sock.getsockname()[1]
        proc = run_rig("--sim", "--port", str(port), "--data-dir", str(tmp_path))
        out, err = proc.communicate(timeout=60)
    finally:
        sock.close()
    assert proc.returncode == 2
    assert err.strip().splitlines() == [  # with the way out (issue 28)
        f"rig run: error: cannot listen on 127.0.0.1:{port}: Address already in use (another rig, or another "
        f"program, has it: stop that one, or pick another port: rig run --port {port + 1}, make run PORT={port + 1})"]


def test_rig_run_refuses_a_bad_port():
    proc = run_rig("--port", "70000")
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "not a port number" in err


def test_rig_run_tells_systemd_it_is_ready_and_pings_the_watchdog(tmp_path, profile_path):
    config = tmp_path / "rig.toml"
    config.write_text(f"profile = {str(profile_path)!r}\n")
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify.sock"
    notify.bind(str(path))
    notify.settimeout(30)
    proc = run_rig("--sim", "--port", "0", "--data-dir", str(tmp_path / "data"), "--config", str(config),
                   env={"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "400000"})
    try:
        messages = [notify.recv(4096).decode()]
        assert messages[0].startswith("READY=1")
        messages.append(notify.recv(4096).decode())
        assert messages[1] == "WATCHDOG=1"
        url = proc.stdout.readline()
        assert "scoreboard at http://127.0.0.1:" in url
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        notify.close()
    assert proc.returncode == 0, err


# --------------------------------------------------------------------------- the Pi: units and install script


# install-pi.sh and the units: tests/hardware/test_install_pi.py (a Bookworm-like fake root).


def test_simulation_gives_every_seat_of_an_eight_player_game_a_mock_input(config, tmp_path):
    players = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]
    with Rig(config, mode="sim", data_dir=tmp_path, camera=False) as rig:
        rig.service.submit({"type": "game_started", "players": players})
        assert list(rig.seats().values()) == players
        rig.sim.press("Ada")
        wait_for(rig, lambda s: s["turn"]["started"], what="the turn to start")
        for name in players[1:]:
            rig.sim.press(name)  # Fay, Gus and Hal too: mock inputs on free pins
        state = wait_for(rig, lambda s: len(s["turn"]["tosses"]) == 7, what="seven tosses")
        assert sorted(t["player"] for t in state["turn"]["tosses"]) == sorted(players[1:])


def test_the_real_rig_refuses_up_front_a_game_with_a_seat_without_input(config, tmp_path):
    from rig.engine import EventRefused

    with Rig(config, mode="real", data_dir=tmp_path, camera=False, pin_factory=MockFactory()) as rig:
        assert len(rig.seat_inputs) == 5
        before = rig.service.state()
        with pytest.raises(EventRefused, match="6 players but only 5 toss inputs: Fay would have no button or beam"
                                               ".*add a \\[\\[players\\]\\] entry"):
            rig.service.submit({"type": "game_started", "players": ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay"]})
        after = rig.service.state()
        assert after["game"] == before["game"]  # the running game goes on
        assert "only 5 toss inputs" in after["notices"][-1]["reason"]
        rig.service.submit({"type": "game_started", "game": "banana", "players": ["Ada", "Ben"]})  # no inputs needed


def test_an_undone_card_is_not_read_again_while_it_still_lies_there(config, tmp_path):
    with Rig(config, mode="sim", data_dir=tmp_path, seed=3, sim_fps=25) as rig:
        rig.service.submit({"type": "game_started", "players": ["Ada", "Ben", "Cleo"]})
        rig.service.submit({"type": "turn_started", "player": "Ada"})
        rig.service.submit({"type": "roll_settled", "dice": ["blue", "pink", "yellow", "blank", "blank", "pink+blue"]})
        for player in ("Ben", "Cleo", "Ben", "Cleo"):
            rig.service.submit({"type": "toss", "player": player})
        rig.service.submit({"type": "copy_chosen", "player": "Ben"})
        for k, card in enumerate(("blue", "pink", "gray", "yellow"), start=1):
            rig.sim.show_card(card)
            wait_for(rig, lambda s, k=k: s["turn"]["cards_revealed"] == k, what=f"card {k}")
        assert rig.service.state()["turn"]["phase"] == "review"
        state = rig.service.submit({"type": "correction", "what": "undo"})  # the yellow was a misread
        assert state["turn"]["phase"] == "reveal" and state["turn"]["cards_revealed"] == 3
        wait_frames(rig.watcher)  # the yellow card still lies under the camera: not read again
        assert rig.service.state()["turn"]["cards_revealed"] == 3
        rig.sim.show_card("blank")  # the right card
        state = wait_for(rig, lambda s: s["turn"]["cards_revealed"] == 4, what="the card laid again")
        assert [t["card"] for t in state["turn"]["tosses"]] == ["blue", "pink", "gray", "blank"]


def test_presses_during_a_full_disk_are_kept_shown_and_written_later(config, tmp_path):
    """SQLITE_FULL (max_page_count) while Ben tosses through his mock pin: the display's notices say
    so, and once there is space the toss is logged with its own time."""
    with Rig(config, mode="sim", data_dir=tmp_path, camera=False) as rig:
        rig.service.retry_s = 0.05
        rig.sim.press("Ada")
        wait_for(rig, lambda s: s["turn"]["started"])
        conn = rig.service.log._conn
        conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
        from rig.engine.errors import LogError

        with pytest.raises(LogError):
            for _ in range(500):  # fill the last page
                rig.service.submit({"type": "violation", "kind": "test", "detail": "x" * 200})
        rig.sim.press("Ben")
        assert rig.inputs.flush(WAIT_S)
        wait_until(lambda: rig.service.backlog, "Ben's press to wait in memory")
        notices = rig.status()["notices"]
        assert any(n["key"] == "storage" and "disk is full" in n["text"] for n in notices), notices
        conn.execute("PRAGMA max_page_count = 1000000")
        wait_for(rig, lambda s: any(t["player"] == "Ben" for t in s["turn"]["tosses"]))
        assert not any(n["key"] == "storage" for n in rig.status()["notices"])


def test_a_light_change_beyond_correction_is_one_notice_with_a_recalibrate_link(config, tmp_path):
    import numpy as np

    from rig.vision.render import render_table

    frame, _ = render_table(3, n_dice=6)
    with Rig(config, mode="sim", data_dir=tmp_path, camera=False) as rig:
        for k in (0.4, 0.38):  # the room got much darker: said once, not per frame
            reading = rig.read_dice(np.clip(frame.astype(np.float32) * k, 0, 255).astype(np.uint8))
            assert not reading.ok
        notices = [n for n in rig.status()["notices"] if n["key"] == "light"]
        assert len(notices) == 1 and notices[0]["text"].startswith("The light changed — recalibrate")
        assert notices[0]["action"] == "Recalibrate" and notices[0]["href"] == "/calibrate?recalibrate=1"
        rig.read_dice(np.clip(frame.astype(np.float32) * 0.8, 0, 255).astype(np.uint8))  # within correction
        assert not [n for n in rig.status()["notices"] if n["key"] == "light"]


@pytest.mark.parametrize("layout", ["pile", "row"])
def test_same_colour_cards_in_a_row_are_each_booked_in_their_slot(config, tmp_path, layout):
    """pink, pink, blue, blue laid as players do (on a pile or in a row, the hand sometimes staying
    in view): four cards in that order — not pink, blue, blue and one missing."""
    with Rig(config, mode="sim", data_dir=tmp_path, seed=5, sim_fps=25) as rig:
        sim = rig.sim
        sim.press("Ada")
        wait_for(rig, lambda s: s["turn"]["started"], what="the turn to start")
        for roll, n in enumerate((2, 3, 1), start=1):
            sim.roll(n)
            wait_for(rig, lambda s, r=roll: s["turn"]["rolls"] == r, what=f"roll {roll}")
        for player in ("Cleo", "Ben", "Eli", "Dev"):
            sim.press(player)
            wait_for(rig, lambda s, p=player: any(t["player"] == p for t in s["turn"]["tosses"]), what=f"{player}'s toss")
        wait_for(rig, lambda s: s["turn"]["phase"] == "copy", what="the copy choice")
        sim.press("Ada")
        wait_for(rig, lambda s: (s["turn"]["copy"] or {}).get("player") == "Ben", what="the copy choice")
        sim.hold("Ada")
        wait_for(rig, lambda s: s["turn"]["phase"] == "reveal", what="the reveal")
        cards = ["pink", "pink", "blue", "blue"]
        for k, (card, linger) in enumerate(zip(cards, (False, True, True, False)), start=1):
            sim.show_card(card, layout=layout, linger=linger)

            shown_at = rig.watcher.frames_seen

            def booked_or_asked(s, k=k):  # a card laid exactly on one alike may be asked about: it was
                asked = [n for n in rig.status()["notices"] if n.get("ask")]
                return s["turn"]["cards_revealed"] == k or (asked and rig.answer(asked[0]["key"], True) and False)

            # booked within 250 camera frames (10 s of the simulated camera): a bound on frames, not on
            # time, so a card never booked fails in seconds, not after RIG_TEST_WAIT_S
            wait_for(rig, lambda s, ok=booked_or_asked: ok(s) or rig.watcher.frames_seen > shown_at + 250
                     or not rig.watcher.running, what=f"card {k}")
            assert rig.service.state()["turn"]["cards_revealed"] == k, f"card {k} not booked in 250 frames"
        state = wait_for(rig, lambda s: s["turn"]["phase"] == "review", what="the score")
        assert [t["card"] for t in state["turn"]["tosses"]] == cards
