"""The game registry (issue 17): the rig asks it instead of naming games, and a game in another
installed package shows up through the ``rig.games`` entry-point group.

The minimal example game of ``docs/games-new.md`` (``docs/examples/highroll/highroll.py``) is
registered both ways: through :func:`rig.registry.register` and through an installed distribution's
entry point (a ``.dist-info`` folder on ``sys.path``, as ``pip install`` leaves one).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from rig import registry
from rig.cli import main
from rig.config import RigConfig
from rig.errors import ConfigError
from rig.rules import UnknownGameError

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "highroll" / "highroll.py"
GUIDE = EXAMPLE.parents[2] / "games-new.md"


def test_the_rigs_games_come_from_its_entry_points_in_menu_order():
    from importlib.metadata import entry_points

    declared = {ep.name for ep in entry_points(group=registry.ENTRY_POINT_GROUP)}
    assert {"frogs", "blitz", "lego", "banana"} <= declared
    assert registry.names()[:4] == ("frogs", "blitz", "lego", "banana")
    assert registry.get("lego").seats() == 2 and registry.get("blitz").dice_for({"white_dice": 3}) == 9
    with pytest.raises(UnknownGameError, match="unknown game 'chess' \\(games: frogs, blitz, lego, banana"):
        registry.get("chess")


def test_the_shipped_games_titles_seats_and_defaults():
    """What rig/registry.py's and rig/engine/extra.py's doctests showed before they named no game."""
    from rig.engine.extra import seats_for

    assert [game.name for game in registry.games()][:4] == ["frogs", "blitz", "lego", "banana"]
    assert repr(registry.get("blitz")) == "<Game blitz 'Würfelblitz'>"
    assert (registry.title("lego"), registry.title("lego", short=True), registry.title("moon"),
            registry.title(None)) == ("LEGO Lunar Command", "LEGO Lunar", "moon", "?")
    assert (seats_for("lego"), seats_for("banana"), seats_for("blitz"), seats_for("frogs")) == (2, 2, None, None)
    assert registry.DEFAULT == "frogs"


def test_every_game_describes_itself_for_the_game_menu():
    for game in registry.describe():
        assert game["title"] and game["description"] and game["sim_keys"], game


@pytest.fixture
def example_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE.parent))
    sys.modules.pop("highroll", None)
    yield
    sys.modules.pop("highroll", None)
    registry.reload()  # forget the example again


@pytest.fixture
def highroll(example_on_path):
    import highroll

    return registry.register(highroll.HighRoll)


def _play(tmp_path, rolls):
    from rig.engine.service import EngineService

    service = EngineService.open(tmp_path)
    try:
        service.submit({"type": "game_started", "source": "test", "game": "highroll", "players": list(rolls)})
        for pips in rolls.values():
            state = service.submit({"type": "roll_settled", "source": "test", "dice": [str(pips)]})
        return state
    finally:
        service.close()


def test_a_registered_game_is_scored_played_and_configured(highroll, tmp_path, capsys):
    assert registry.get("highroll") is highroll and registry.names()[-1] == "highroll"
    # rig score
    request = tmp_path / "roll.json"
    request.write_text(json.dumps({"game": "highroll", "rolls": {"Ada": 3, "Ben": 5}}))
    assert main(["score", str(request)]) == 0
    assert json.loads(capsys.readouterr().out) == {"high": 5, "winner": "Ben"}
    # the engine plays it through its fold
    state = _play(tmp_path, {"Ada": 2, "Ben": 6, "Cleo": 4})
    assert state["game"]["game"] == "highroll" and state["winner"] == "Ben"
    assert state["game"]["status"] == "over"
    # the config's [game] name and the history's titles
    config = tmp_path / "rig.toml"
    config.write_text('[game]\nname = "highroll"\n')
    assert RigConfig.load(config).game.name == "highroll"
    assert registry.title("highroll", short=True) == "High Roll"


def test_an_unknown_game_is_refused_everywhere(tmp_path, capsys):
    config = tmp_path / "rig.toml"
    config.write_text('[game]\nname = "highroll"\n')
    with pytest.raises(ConfigError, match="'highroll' is not a game the rig scores"):
        RigConfig.load(config)
    request = tmp_path / "roll.json"
    request.write_text(json.dumps({"game": "highroll", "rolls": {"Ada": 3}}))
    assert main(["score", str(request)]) == 2
    assert "unknown game 'highroll'" in capsys.readouterr().err


def test_a_game_in_another_installed_package_shows_up_by_its_entry_point(example_on_path, tmp_path, monkeypatch):
    site = tmp_path / "site-packages"
    (site / "highroll_game-0.1.dist-info").mkdir(parents=True)
    shutil.copy(EXAMPLE, site / "highroll_game.py")
    (site / "highroll_game-0.1.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: highroll-game\nVersion: 0.1\n")
    (site / "highroll_game-0.1.dist-info" / "entry_points.txt").write_text(
        "[rig.games]\nhighroll = highroll_game:HighRoll\n")
    monkeypatch.syspath_prepend(str(site))
    registry.reload()
    try:
        game = registry.get("highroll")
        assert type(game).__module__ == "highroll_game" and game.title == "High Roll"
        assert registry.names() == ("frogs", "blitz", "lego", "banana", "highroll")
        assert game.score_request({"rolls": {"Ada": 6, "Ben": 1}})["winner"] == "Ada"
    finally:
        monkeypatch.undo()
        sys.modules.pop("highroll_game", None)
        registry.reload()
    assert "highroll" not in registry.names()


def test_the_guide_shows_the_example_game():
    guide = GUIDE.read_text(encoding="utf-8")
    assert "docs/examples/highroll/highroll.py" in guide and '[project.entry-points."rig.games"]' in guide


def test_the_pages_game_menu_lists_the_registered_games(highroll):
    import warnings

    from rig.display.app import create_app
    from rig.engine import EngineService

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    service = EngineService.in_memory()
    try:
        web = TestClient(create_app(service, pin="424242"), client=("127.0.0.1", 40000), base_url="http://127.0.0.1")
        kinds = web.get("/api/games/kinds").json()["games"]
        assert [g["name"] for g in kinds] == ["frogs", "blitz", "lego", "banana", "highroll"]
        assert kinds[-1]["title"] == "High Roll" and kinds[2]["seats"] == 2
        assert web.get("/api/display").json()["games"] == kinds
        # a game started through the API runs on the registered game's fold
        started = web.post("/api/games", json={"game": "highroll", "players": ["Ada", "Ben"]})
        assert started.status_code in (200, 201), started.text
        assert started.json()["game"]["game"] == "highroll"
    finally:
        service.close()


def test_a_game_without_a_still_frame_reader_says_so():
    import numpy as np

    with pytest.raises(NotImplementedError, match="frogs: rig read reads it with --profile"):
        registry.get("frogs").read_image(np.zeros((48, 64, 3), np.uint8))
