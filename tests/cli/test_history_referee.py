"""``rig history --dice`` and ``rig history --export csv|json``."""

import csv
import io
import json
import random

from rig.cli import main
from rig.engine.service import EngineService
from rig.games.frogs.rules.fairness import simulate_rolls

PLAYERS = ["Ada", "Ben", "Cleo", "Dev"]


def play(data_dir, dice_per_turn, *, turns_each=1):
    """A whole game whose turns show the given six faces each; every toss 3 ms after the last."""
    turns = iter(dice_per_turn)
    with EngineService.open(data_dir, clock="sim") as service:
        service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS, "options": {"turns_each": turns_each}})
        t = 1_000_000
        while service.state()["game"]["status"] == "playing":
            roller = service.state()["turn"]["roller"]
            others = [p for p in PLAYERS if p != roller]
            service.press(roller, t)
            service.submit({"type": "roll_settled", "t_us": t + 1, "dice": next(turns)})
            for k, p in enumerate(others):
                service.press(p, t + 10 + 3000 * k)
            service.submit({"type": "copy_chosen", "t_us": t + 15_000, "player": others[0]})
            for card in ("pink", "yellow", "gray"):
                service.submit({"type": "card_revealed", "t_us": t + 20_000, "card": card})
            service.submit({"type": "turn_scored", "t_us": t + 40_000})
            t += 1_000_000
        return service.state()


def _chunks(faces):
    return [faces[i:i + 6] for i in range(0, len(faces), 6)]


def test_dice_on_a_loaded_log_says_looks_loaded(tmp_path, capsys):
    play(tmp_path, _chunks(simulate_rolls(random.Random(5), 80, loaded={"pink": 2.0})), turns_each=20)
    assert main(["history", "--data-dir", str(tmp_path), "--dice"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("480 dice\n")
    assert "verdict: looks loaded" in out


def test_dice_on_a_fair_log_says_no_sign_of_bias(tmp_path, capsys):
    play(tmp_path, _chunks(simulate_rolls(random.Random(5), 80)), turns_each=20)
    assert main(["history", "--data-dir", str(tmp_path), "--dice"]) == 0
    assert "verdict: no sign of bias" in capsys.readouterr().out


def test_dice_without_a_log_has_nothing_to_tell(tmp_path, capsys):
    assert main(["history", "--data-dir", str(tmp_path), "--dice"]) == 0
    assert "too few rolls to tell" in capsys.readouterr().out


def test_export_csv_has_a_row_per_player_per_game(tmp_path, capsys):
    state = play(tmp_path, [["pink", "pink", "yellow+pink", "yellow", "blank", "blank"]] * 4)
    assert main(["history", "--data-dir", str(tmp_path), "--export", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["player"] for r in rows] == PLAYERS
    assert {r["player"]: int(r["points"]) for r in rows} == state["totals"]
    assert [r["winner"] for r in rows].count("1") == 1 and rows[0]["game"] == "frogs"


def test_export_json_has_every_turn_with_dice_and_toss_times(tmp_path, capsys):
    play(tmp_path, [["pink", "pink", "yellow+pink", "yellow", "blank", "blank"]] * 4)
    assert main(["history", "--data-dir", str(tmp_path), "--export", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (game,) = data["games"]
    assert len(game["turn_log"]) == 4
    first = game["turn_log"][0]
    assert first["dice"] == ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"]
    counting = [t for t in first["tosses"] if t["counting"]]
    assert [t["margin_us"] for t in counting] == [None, 3000, 3000] and first["copy"] == "Ben"
