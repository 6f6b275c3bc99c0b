"""Würfelblitz's turn flow on the camera side: a round nobody answers times out."""

from __future__ import annotations

from typing import Any


def check_timeout(table: Any, t_us: int, state: dict) -> None:
    """A round nobody is answering ends ``answer_timeout_s`` after the throw was read."""
    turn, game = state.get("turn"), state.get("game")
    if not turn or not game or turn["phase"] != "buzz" or turn.get("settled_t_us") is None:
        return
    limit = float(game["options"].get("answer_timeout_s", 30)) * 1e6
    waited = t_us - turn["settled_t_us"]
    key = (game["id"], turn["number"])
    if 0 <= waited and waited >= limit and table.timed_out != key:
        table.timed_out = key
        table.submit_event({"type": "answer_timeout", "t_us": t_us})
