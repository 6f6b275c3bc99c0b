"""The referee through the whole rig in simulation: evidence kept per roll, served with the reading drawn on,
the configured tie window in the game, the dice test and the exports reachable over HTTP."""

import dataclasses
import warnings

import cv2
import numpy as np
import pytest

from rig.config import RigConfig, TossConfig
from rig.app.runner import Rig
from rig.vision.profile import default_profile_path
from tests.test_runner import wait_for
from tests.waiting import wait_until

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def config():
    return dataclasses.replace(RigConfig.default(), profile=default_profile_path(),
                               tosses=TossConfig(hold_confirm_s=0.3, tie_window_us=40))


def test_each_settled_roll_is_kept_and_served_with_its_reading(config, tmp_path):
    with Rig(config, mode="sim", data_dir=tmp_path, seed=11, sim_fps=25) as rig:
        web = TestClient(rig.app(), client=("127.0.0.1", 5000), base_url="http://127.0.0.1:8080")
        assert rig.service.state()["game"]["options"]["tie_window_us"] == 40
        rig.sim.press("Ada")
        wait_for(rig, lambda s: s["turn"]["started"], what="the turn to start")
        for roll, n in enumerate((2, 3, 1), start=1):
            rig.sim.roll(n)
            wait_for(rig, lambda s, r=roll: s["turn"]["rolls"] == r, what=f"roll {roll}")
        game_id = rig.service.state()["game"]["id"]
        kept = tmp_path / "evidence" / f"g{game_id}" / "t1-r3.jpg"
        wait_until(kept.exists, f"{kept.name} (written just after the roll is logged)")
        turns = web.get("/api/turns").json()
        (turn,) = turns["turns"]
        assert turns["id"] == game_id and turns["evidence"] is True
        assert [r["roll"] for r in turn["rolls"]] == [1, 2, 3]
        assert [len(r["dice"]) for r in turn["rolls"]] == [2, 5, 6]
        last = turn["rolls"][-1]
        assert last["image"] == f"/api/evidence/{game_id}/1/3.jpg"
        raw = web.get(last["image"])
        drawn = web.get(last["overlay"])
        assert raw.status_code == drawn.status_code == 200 and raw.headers["content-type"] == "image/jpeg"
        a = cv2.imdecode(np.frombuffer(raw.content, np.uint8), cv2.IMREAD_COLOR)
        b = cv2.imdecode(np.frombuffer(drawn.content, np.uint8), cv2.IMREAD_COLOR)
        assert a.shape == b.shape == (480, 640, 3) and np.abs(a.astype(int) - b.astype(int)).max() > 100
        assert (tmp_path / "evidence" / f"g{game_id}" / "t1-r3.jpg").exists()
        assert web.get(f"/api/evidence/{game_id}/1/7.jpg").status_code == 404
        assert web.get("/api/evidence/x/1/1.jpg").status_code == 422
        assert web.get("/api/turns?game=999999").status_code == 404


def test_dice_and_exports_are_served(config, tmp_path):
    with Rig(config, mode="sim", data_dir=tmp_path, seed=3, camera=False) as rig:
        web = TestClient(rig.app(), client=("127.0.0.1", 5000), base_url="http://127.0.0.1:8080")
        dice = web.get("/api/dice").json()
        assert dice["rolls"] == 0 and dice["verdict"] == "too few rolls to tell"
        body = web.get("/api/export/bgstats").json()
        assert body["play"]["game"]["name"] == "Lunar Laser Frogs"
        assert body["url"].startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
        svg = web.get("/api/export/bgstats.svg")
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
        assert "<svg" in svg.text
        csv = web.get("/api/export/history.csv")
        assert csv.text.splitlines()[0].startswith("number,game_id,game,status")
        assert "attachment" in csv.headers["content-disposition"]
        assert web.get("/api/export/history.json").json()["games"][0]["players"][0] == "Ada"
