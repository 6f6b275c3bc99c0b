"""The other games wired in simulation mode: the game picks the reader and the virtual table's dice,
buttons buzz, a Würfelblitz round nobody answers times out, LEGO and Banana Moon read their dice."""

from __future__ import annotations

import dataclasses
import time

import pytest

from rig.config import RigConfig, TossConfig
from rig.games.blitz.rules import BlitzRules, Roll
from rig.app.runner import Rig
from rig.vision.profile import default_profile_path
from tests.test_runner import wait_for
from tests.waiting import wait_frames, wait_until


@pytest.fixture
def config():
    return dataclasses.replace(RigConfig.default(), profile=default_profile_path(), tosses=TossConfig(hold_confirm_s=0.3))


def test_wuerfelblitz_throw_buzz_judge_and_timeout(config, tmp_path):
    with Rig(config, mode="sim", data_dir=tmp_path, seed=3, sim_fps=25) as rig:
        rig.service.submit({"type": "game_started", "game": "blitz", "players": ["Ada", "Ben", "Cleo"],
                            "options": {"white_dice": 3, "answer_timeout_s": 1}})
        wait_for(rig, lambda s: rig.source.game == "blitz", what="the virtual table to show Würfelblitz")
        faces = rig.sim.roll(1)
        assert len(faces) == 9
        state = wait_for(rig, lambda s: s["turn"]["phase"] == "buzz", what="the throw to be read")
        assert sorted(state["turn"]["dice"]) == sorted(faces) and state["turn"]["problem"] is None
        rig.sim.press("Cleo")
        time.sleep(0.01)
        rig.sim.press("Ben")
        state = wait_for(rig, lambda s: len(s["turn"]["buzzes"]) == 2, what="two buzzes")
        assert state["turn"]["answerer"] == "Cleo" and "Cleo beat Ben by" in state["turn"]["buzzes"][1]["margin_text"]
        # someone is answering: no timeout, though the camera's frames are now past the 1 s limit
        settled = state["turn"]["settled_t_us"]
        wait_until(lambda: rig.watcher.latest and rig.watcher.latest[0] >= settled + 1_300_000,
                   "camera frames 1.3 s after the throw was read")
        wait_frames(rig.watcher, 2)  # and those frames have been handled
        assert rig.service.state()["turn"]["phase"] == "judge"
        answer = BlitzRules().score(Roll.parse(faces)).answer
        rig.service.submit({"type": "answer_judged", "answer": answer})
        assert rig.service.state()["discs"]["Cleo"] == {"white": 1, "black": 0}
        rig.sim.roll(1)  # the next throw books the round; Cleo throws
        state = wait_for(rig, lambda s: s["turn"]["number"] == 2 and s["turn"]["phase"] == "buzz", what="round 2")
        assert state["turn"]["thrower"] == "Cleo"
        state = wait_for(rig, lambda s: s["turn"]["phase"] == "done", what="the timeout")
        assert state["turn"]["timed_out"] and state["turn"]["answer"] is not None


def test_lego_and_banana_read_their_dice(config, tmp_path):
    with Rig(config, mode="sim", data_dir=tmp_path, seed=8, sim_fps=25) as rig:
        rig.service.submit({"type": "game_started", "game": "lego", "players": ["Ada", "Ben"]})
        wait_for(rig, lambda s: rig.source.game == "lego", what="the LEGO Dice on the table")
        rig.sim.press("Ada")
        (face,) = rig.sim.roll(1)
        state = wait_for(rig, lambda s: s["turn"]["phase"] == "action", what="the die to be read")
        assert state["turn"]["action"]["face"] == face
        rig.sim.roll(1)
        state = wait_for(rig, lambda s: s["turn"]["roller"] == "Ben" and s["turn"]["phase"] == "action",
                         what="Ben's roll")
        rig.service.submit({"type": "game_started", "game": "banana", "players": ["Ada", "Ben"]})
        wait_for(rig, lambda s: rig.source.game == "banana", what="the start dice on the table")
        for _ in range(6):
            faces = rig.sim.roll(1)
            n = len(rig.service.state()["turns"]) + 1
            state = wait_for(rig, lambda s: len(s["turns"]) == n, what="the start roll")
            assert sorted(state["turn"]["dice"]) == sorted(faces)
            if state["outcome"]:
                break
        values = dict(f.split(":") for f in faces)
        assert state["outcome"]["outcome"]["white_start"] == int(values["white"])
        assert state["outcome"]["outcome"]["black_start"] == int(values["black"])
    from rig.vision.kept_size import FILE_NAME, list_kept

    (kept,) = list_kept(tmp_path / FILE_NAME)  # the dice's size learned from the first sure roll, for the next run
    assert kept.startswith(f"banana, table {rig.profile_name}, ")


@pytest.mark.parametrize("game, players", [("lego", ["Ada", "Ben"]), ("banana", ["Ada", "Ben"]),
                                           ("blitz", ["Ada", "Ben", "Cleo", "Dev", "Eli"])])
def test_a_first_start_opens_the_configured_game_seating_as_many_as_it_takes(config, tmp_path, game, players):
    config = dataclasses.replace(config, game=dataclasses.replace(config.game, name=game))
    with Rig(config, mode="sim", data_dir=tmp_path, seed=1, sim_fps=25) as rig:
        state = rig.service.state()
        assert state["game"]["game"] == game and state["game"]["players"] == players
