"""The calibration page's routes over the real rig in simulation mode: preview, ritual, report, profiles, lock."""

from __future__ import annotations

import dataclasses
import warnings

import pytest

from rig.config import RigConfig
from rig.display.calibration import valid_name
from rig.app.runner import Rig
from rig.vision.card_empty import kept
from rig.vision.profile import default_profile_path
from tests.waiting import wait_frames, wait_until

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PHONE = ("192.168.1.23", 40000)


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("calibration")
    config = dataclasses.replace(RigConfig.default(), profile=default_profile_path())
    with Rig(config, mode="sim", data_dir=tmp / "data", seed=3, sim_fps=25) as rig:
        wait_until(lambda: rig.watcher.latest is not None, "the first camera frame")
        yield rig


@pytest.fixture
def web(rig):
    return TestClient(rig.app(pin="123456", lan=True), client=("127.0.0.1", 5000), base_url="http://127.0.0.1")


def test_preview_is_a_jpeg_of_the_live_table(web, rig):
    rig.sim.roll(3)
    wait_frames(rig.watcher)  # the preview shows the dice rolled
    outlined = web.get("/api/calibration/preview.jpg")
    plain = web.get("/api/calibration/preview.jpg?outline=0")
    for response in (outlined, plain):
        assert response.status_code == 200 and response.headers["content-type"] == "image/jpeg"
        assert response.content[:2] == b"\xff\xd8"


def test_the_ritual_fit_save_and_restore(web, rig):
    assert web.post("/api/calibration/reset").status_code == 200
    status = web.get("/api/calibration").json()
    assert [s["name"] for s in status["steps"]] == ["blue", "pink", "yellow", "blank", "empty"]
    assert not any(s["captured"] for s in status["steps"]) and status["fitted"] is False
    for step in ("blue", "pink", "yellow", "blank", "empty"):
        status = web.post("/api/calibration/capture", json={"step": step}).json()
    assert all(s["captured"] for s in status["steps"])
    report = web.post("/api/calibration/fit").json()["report"]
    assert report["ok"] is True and report["separation"]
    assert {"a", "b", "distance", "ok"} <= set(report["separation"][0])
    # the report in each viewer's language: the page shows its own (German numbers with a comma)
    assert report["said"]["en"] == {"summary": report["summary"], "notes": report["notes"],  # the page shows the
                                    "warnings": [n for n in report["notes"] if n.startswith("warning: ")]}  # first
    german = report["said"]["de"]
    assert german["summary"].startswith("Alle Klassen sind gut getrennt (niedrigste ") and "abgelehnt unter 3,0" in german["summary"]
    assert german["notes"][0].startswith("Profil ") and report["notes"][0].startswith("profile ")
    before = rig.profile_name
    saved = web.post("/api/calibration/save", json={"name": "evening"}).json()
    assert "evening" in saved["profiles"] and (rig.data_dir / "profiles" / "evening.toml").exists()
    assert saved["active"] == before and rig.profile_name == before  # saved, not used until asked
    assert saved["report"] and saved["report"]["separation"]  # the report stays after the save
    assert (rig.data_dir / "profiles" / "evening.empty.npy").exists()  # the card reader's empty box
    used = web.post("/api/calibration/restore", json={"name": "evening"}).json()
    assert used["active"] == "evening" and rig.profile_name == "evening"
    assert kept(rig.profile) is not None and kept(rig.profile).lab.shape[1] == 320
    builtin = [name for name in saved["profiles"] if name != "evening"]
    if builtin:
        restored = web.post("/api/calibration/restore", json={"name": builtin[0]}).json()
        assert restored["active"] == builtin[0]
    restored = web.post("/api/calibration/restore", json={"name": "evening"}).json()
    assert restored["active"] == "evening"


def test_refusals(web):
    web.post("/api/calibration/reset")
    fit = web.post("/api/calibration/fit")
    assert fit.status_code == 409 and "missing" in fit.json()["error"]
    assert web.post("/api/calibration/save", json={"name": "x"}).status_code == 409
    assert web.post("/api/calibration/capture", json={"step": "green"}).status_code == 409
    assert web.post("/api/calibration/capture", json={}).status_code == 400
    assert web.post("/api/calibration/save", json={"name": "../../etc/passwd"}).status_code == 409
    unknown = web.post("/api/calibration/restore", json={"name": "nope"})
    assert unknown.status_code == 409 and "no saved profile" in unknown.json()["error"]
    assert web.post("/api/calibration/lock", json={"locked": "yes"}).status_code == 400


def test_lock_exposure(web):
    locked = web.post("/api/calibration/lock", json={"locked": True}).json()
    assert locked["camera"]["locked"] is True and locked["camera"]["detail"]
    assert web.post("/api/calibration/lock", json={"locked": False}).json()["camera"]["locked"] is False


def test_a_phone_may_watch_but_not_calibrate(rig):
    phone = TestClient(rig.app(pin="123456", lan=True), client=PHONE, base_url="http://127.0.0.1")
    assert phone.get("/api/calibration").status_code == 200
    assert phone.post("/api/calibration/capture", json={"step": "blue"}).status_code == 403
    assert phone.post("/api/calibration/capture", json={"step": "blue"},
                      headers={"X-Rig-Pin": "123456"}).status_code == 200


def test_profile_names():
    assert valid_name("evening_2") and not valid_name("a/b") and not valid_name("x" * 41) and not valid_name(3)


def test_the_empty_box_is_a_required_step_and_its_absence_is_refused(web):
    assert web.post("/api/calibration/reset").status_code == 200
    status = web.get("/api/calibration").json()
    assert [s["optional"] for s in status["steps"]] == [False] * 5
    for step in ("blue", "pink", "yellow", "blank"):
        web.post("/api/calibration/capture", json={"step": step})
    refused = web.post("/api/calibration/fit")
    assert refused.status_code == 409 and "empty box" in refused.json()["error"]



def test_in_simulation_the_preview_shows_the_dice_turned_for_the_next_step(web, rig):
    """Issue 26: the preview shows what the step asks for (all six dice blue frog up, then pink, ...),
    the very frame capture takes, not the game's dice on the virtual table."""
    import cv2
    import numpy as np

    web.post("/api/calibration/reset")
    rig.sim.roll(2)  # the game's dice: not what the preview shows now
    status = web.get("/api/calibration").json()
    assert status["next"] == "blue"

    def preview():
        data = web.get("/api/calibration/preview.jpg?outline=0").content
        return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).astype(int)

    blue = preview()
    status = web.post("/api/calibration/capture", json={"step": "blue"}).json()
    assert status["next"] == "pink"
    pink = preview()
    # the blue frogs are bluer in the blue pose than in the pink one, the pink ones the other way round
    b, g, r = (blue[..., k].astype(float) for k in range(3))
    pb, pg, pr = (pink[..., k].astype(float) for k in range(3))
    assert ((b - r) > 60).sum() > ((pb - pr) > 60).sum()
    assert ((pr - pb) > 60).sum() > ((r - b) > 60).sum()
    web.post("/api/calibration/reset")


def test_the_preview_labels_the_dice_in_the_viewers_language(web, rig, monkeypatch):
    """The live camera's labels are drawn into the picture: a German page gets German faces ("blau 97%")."""
    import cv2

    web.post("/api/calibration/reset")  # the preview shows the ritual's first pose: six dice blue frog up
    drawn: list[str] = []
    real = cv2.putText
    monkeypatch.setattr(cv2, "putText", lambda image, text, *args, **kw: (drawn.append(text), real(image, text, *args, **kw))[1])

    def labels(query: str) -> set[str]:
        drawn.clear()
        assert web.get(f"/api/calibration/preview.jpg?{query}").status_code == 200
        return {text.split()[0] for text in drawn}

    assert labels("lang=de") == {"blau"}
    assert labels("lang=en") == {"blue"}
    assert labels("") == {"blue"}  # no language asked for: the rig's own (English here)
    web.cookies.set("rig-lang", "de")  # the page's language switch
    try:
        assert labels("") == {"blau"}
    finally:
        web.cookies.clear()
