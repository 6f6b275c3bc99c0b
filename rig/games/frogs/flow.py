"""Lunar Laser Frogs' turn flow on the camera side: whole sets of dice, evidence, card reveals.

The runner (:class:`rig.runner.Rig`, ``table`` here) calls these through the game's hooks with
itself; they use its public camera-side state (``tracker``, ``resuming``, ``roll_started_us``,
``cards``) and :meth:`~rig.runner.Rig.submit_event` / :meth:`~rig.runner.Rig.keep_evidence`.
"""

from __future__ import annotations

from typing import Any

from rig.errors import RigError


def on_camera_event(table: Any, event: Any) -> bool:
    """A settled roll (a whole set of dice, kept as evidence) or a three-rolls violation."""
    kind = getattr(event, "type", None)
    if kind == "roll_settled":
        faces = [str(die.face) for die in event.reading.dice]
        resuming, table.resuming = table.resuming, None
        if resuming is not None and len(faces) == resuming[1]:
            table.tracker.resume(event.reading, resuming[0])  # the dice already in the box at a restart
            return True
        reading = event.reading.to_dict() if hasattr(event.reading, "to_dict") else None
        if event.new_dice == 0:  # a knocked die re-read: the engine takes whole sets only
            if len(faces) == 6:
                table.keep_evidence(table.submit_event({"type": "correction", "t_us": event.t_us, "what": "dice",
                                                        "faces": faces}), event.t_us, reading)
            return True
        payload = {"type": "roll_settled", "t_us": event.t_us, "dice": faces, "reading": reading}
        started, table.roll_started_us = table.roll_started_us, None
        if started is not None:
            payload["started_us"] = started
        table.keep_evidence(table.submit_event(payload), event.t_us, reading)
        return True
    if kind == "violation":
        state = table.service.state()
        turn = state.get("turn")
        if turn and turn["started"]:
            table.submit_event({"type": "violation", "t_us": event.t_us, "kind": event.kind,
                                "player": turn["roller"], "detail": event.detail})
        return True
    return False


def on_frame(table: Any, t_us: int, frame: Any, state: dict) -> None:
    """In the reveal phase, read the card laid beside the dice."""
    turn = state.get("turn")
    if turn and turn["phase"] == "reveal":
        read_card(table, t_us, frame)


def read_card(table: Any, t_us: int, frame: Any) -> None:
    from rig.vision.cards import CardReveal
    from rig.vision.cards import read_card as read

    try:
        reading = read(frame, table.profile)
    except RigError:
        return
    if table.cards is None:
        table.cards = CardReveal(settle=table.card_frames)
    laid = table.cards.feed(reading)
    if laid is not None:
        table.submit_event({"type": "card_revealed", "t_us": t_us, "card": laid,
                            "confidence": round(float(reading.confidence), 3)})
