import json

from rig.cli import main
from rig.engine.service import EngineService

PLAYERS = ["Ada", "Ben", "Cleo", "Dev"]


def play_game(service, players=PLAYERS) -> int:
    """A whole game of four players, one turn each, on ``service``; returns the next free time (µs)."""
    service.submit({"type": "game_started", "t_us": 0, "players": list(players), "options": {"turns_each": 1}})
    t = 1_000_000
    while service.state()["game"]["status"] == "playing":
        roller = service.state()["turn"]["roller"]
        others = [p for p in players if p != roller]
        service.press(roller, t)
        service.submit({"type": "roll_settled", "t_us": t + 1, "dice": ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"]})
        for k, p in enumerate(others):
            service.press(p, t + 10 + k)
        service.submit({"type": "copy_chosen", "t_us": t + 15, "player": others[0]})  # before the reveal
        for card in ("pink", "yellow", "gray"):  # first tosser pink 3, second yellow 2, third gray 2
            service.submit({"type": "card_revealed", "t_us": t + 20, "card": card})
        service.submit({"type": "turn_scored", "t_us": t + 40})
        t += 1_000_000
    return t


def finished_game(data_dir):
    with EngineService.open(data_dir, clock="sim") as service:
        t = play_game(service)
        service.submit({"type": "game_started", "t_us": t, "players": ["Ada", "Ben", "Eli"]})
        return service.state()


def test_history_text(tmp_path, capsys):
    finished_game(tmp_path)
    assert main(["history", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "2 games, newest first:" in out
    assert "in progress" in out and "won by" in out
    assert "players:" in out and "Eli" in out


def test_history_json_has_games_and_player_totals(tmp_path, capsys):
    finished_game(tmp_path)
    assert main(["history", "--data-dir", str(tmp_path), "--json"]) == 0
    history = json.loads(capsys.readouterr().out)
    first = history["games"][1]
    assert first["status"] == "over" and first["turns"] == 4
    # each turn: the first tosser 3, second 2, third 2, and the roller copies the first: 3
    assert sum(first["totals"].values()) == 4 * (3 + 2 + 2 + 3)
    assert first["winner"] == max(first["totals"], key=first["totals"].get)
    ada = next(row for row in history["players"] if row["name"] == "Ada")
    assert ada["games"] == 2 and ada["points"] == first["totals"]["Ada"]
    winner = next(row for row in history["players"] if row["name"] == first["winner"])
    assert winner["wins"] == 1


def test_history_without_a_database(tmp_path, capsys):
    assert main(["history", "--data-dir", str(tmp_path / "none")]) == 0
    assert "no games yet" in capsys.readouterr().out
    assert not (tmp_path / "none").exists()


def test_history_of_a_foreign_file_is_one_clear_error(tmp_path, capsys):
    (tmp_path / "rig.sqlite3").write_text("not a database")
    assert main(["history", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rig history: error:") and "not a SQLite database" in err
    assert (tmp_path / "rig.sqlite3").read_text() == "not a database"


def test_history_text_names_each_game_and_the_banana_starter(tmp_path, capsys):
    with EngineService.open(tmp_path, clock="sim") as service:
        service.submit({"type": "game_started", "t_us": 0, "game": "banana", "players": ["Ada", "Ben"]})
        service.submit({"type": "roll_settled", "t_us": 5, "dice": ["white:3", "black:3"]})  # equal: again
        service.submit({"type": "roll_settled", "t_us": 9, "dice": ["black:5", "white:2"]})
        assert service.state()["game"]["status"] == "decided"
        service.submit({"type": "game_started", "t_us": 20, "game": "blitz", "players": ["Ada", "Ben", "Cleo"]})
    assert main(["history", "--data-dir", str(tmp_path)]) == 0
    rows = capsys.readouterr().out.splitlines()[1:3]
    assert "Würfelblitz" in rows[0] and "in progress" in rows[0]
    assert "Banana Moon" in rows[1] and "Ben starts (white 2, black 5)" in rows[1]
    assert "decided" not in rows[1]
    assert main(["history", "--data-dir", str(tmp_path), "--json"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert [g["game"] for g in games] == ["blitz", "banana"]
    assert games[1]["outcome"]["starter"] == "Ben"


def test_history_text_says_the_game_of_each_row(tmp_path, capsys):
    finished_game(tmp_path)
    assert main(["history", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert sum("Laser Frogs" in line for line in out.splitlines()) == 2


def test_a_game_abandoned_before_its_first_turn_counts_for_nobody_and_every_view_numbers_games_alike(
        tmp_path, capsys):
    """An auto-started game nobody played is listed (abandoned) but adds no game or points to anyone;
    ``rig history``, both exports and the BG Stats comment give each game the same number."""
    with EngineService.open(tmp_path, clock="sim") as service:
        service.submit({"type": "game_started", "t_us": 0, "players": ["Ada", "Ben", "Cleo", "Dev", "Eli"]})
    finished_game(tmp_path)  # abandons the first (never played), plays game 2, starts game 3
    assert main(["history", "--data-dir", str(tmp_path), "--json"]) == 0
    history = json.loads(capsys.readouterr().out)
    assert [(g["number"], g["status"]) for g in history["games"]] == [(3, "playing"), (2, "over"), (1, "abandoned")]
    eli = next(row for row in history["players"] if row["name"] == "Eli")
    assert eli["games"] == 1  # game 3 only: not the abandoned game 1
    ada = next(row for row in history["players"] if row["name"] == "Ada")
    assert ada["games"] == 2 and ada["points"] == history["games"][1]["totals"]["Ada"]
    assert main(["history", "--data-dir", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "#2 " in text and "won by" in text.split("#2 ")[1].splitlines()[0]
    assert main(["history", "--data-dir", str(tmp_path), "--export", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("number,game_id,")
    over = [row.split(",") for row in rows[1:] if ",over," in row]
    assert {row[0] for row in over} == {"2"}
    assert main(["history", "--data-dir", str(tmp_path), "--export", "json"]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert [(g["number"], g["status"]) for g in exported["games"]] == [(1, "abandoned"), (2, "over"), (3, "playing")]
    from rig.engine.export import bgstats_play

    assert "game #2," in bgstats_play(history["games"][1])["comments"]


def test_the_state_names_the_game_by_the_number_history_gives_it(tmp_path):
    with EngineService.open(tmp_path, clock="sim") as service:
        service.submit({"type": "game_started", "t_us": 0, "players": ["Ada", "Ben", "Cleo"]})
        service.submit({"type": "game_started", "t_us": 1, "players": ["Ada", "Ben", "Cleo"]})
        state, history = service.state(), service.history()
    assert state["game"]["number"] == 2 == history["games"][0]["number"]
    assert state["game"]["id"] == history["games"][0]["id"]
