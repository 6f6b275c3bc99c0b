"""Corrections of a Lunar Laser Frogs turn (a die, the dice, a card, a toss, two tosses swapped) as the
fold applies them, with the checks they share (issue 29: split from :mod:`rig.games.frogs.engine`,
which re-exports every name).
"""

from __future__ import annotations

from typing import Any, Mapping

from rig.engine.errors import EventRefused
from rig.games.frogs.rules import Card, Face, FrogsError
from rig.games.frogs.turn import DICE, TableInTurn, TurnState, counting_tosses, ordered_tosses


def _need_started(game: TableInTurn, what: str) -> TurnState:
    turn = game.turn
    if not turn.started:
        raise EventRefused(f"{what} before {turn.roller}'s turn has started")
    return turn


def _check_cards(game: TableInTurn, turn: TurnState) -> None:
    """Refuse a player holding two of the same card (everyone has one card of each kind)."""
    seen: set[tuple[str, str]] = set()
    for toss, card in zip(counting_tosses(game, turn), turn.cards):
        if (toss.player, card) in seen:
            raise EventRefused(f"{toss.player} has only one {card} card, and it is already revealed")
        seen.add((toss.player, card))


def _correction(game: TableInTurn, event: Mapping[str, Any]) -> None:
    what = event["what"]
    if what == "undo":
        raise EventRefused("undo is handled by the engine")  # never reaches here
    turn = _need_started(game, f"a {what} correction")
    if what == "die":
        index, face = _need(event, "index", what), _need(event, "face", what)
        if not turn.dice:
            raise EventRefused("no dice have been read yet: correct the whole set with what='dice'")
        if index == len(turn.dice) < DICE:  # a die the camera did not see (in deep shade, under a card)
            turn.dice.append(_face(face))
        elif 0 <= index < len(turn.dice):
            turn.dice[index] = _face(face)
        elif len(turn.dice) < DICE:
            raise EventRefused(f"there is no die {index} (the box has {len(turn.dice)} dice: index 0 to "
                               f"{len(turn.dice) - 1} corrects one, {len(turn.dice)} adds one)")
        else:
            raise EventRefused(f"there is no die {index} (the box has {len(turn.dice)} dice, "
                               f"index 0 to {len(turn.dice) - 1})")
        turn.corrected_dice.add(index)
        _check_dice(game, turn)
        _all_dice_cast(turn)
    elif what == "dice":
        faces = _need(event, "faces", what)
        if len(faces) != DICE:
            raise EventRefused(f"a dice correction lists all {DICE} faces, not {len(faces)}")
        turn.dice = [_face(face) for face in faces]
        turn.corrected_dice = set(range(DICE))
        _check_dice(game, turn)
        _all_dice_cast(turn)
    elif what == "card":
        index, card = _need(event, "index", what), _need(event, "card", what)
        if not 0 <= index < len(turn.cards):
            raise EventRefused(f"there is no revealed card {index} ({len(turn.cards)} revealed)")
        try:
            turn.cards[index] = Card.parse(card).value
        except FrogsError as exc:
            raise EventRefused(str(exc)) from None
        turn.corrected_cards.add(index)
        _check_cards(game, turn)
    elif what == "toss":
        index = _need(event, "index", what)
        ordered = ordered_tosses(turn)
        if not 0 <= index < len(ordered):
            raise EventRefused(f"there is no toss {index} ({len(ordered)} tosses)")
        toss = ordered[index]
        if event.get("remove"):
            toss.removed = True
        else:
            player = _need(event, "player", what)
            if player not in game.players:
                raise EventRefused(f"{player!r} is not playing")
            toss.player = player
            toss.removed = False
        if len(counting_tosses(game, turn)) < len(turn.cards):
            raise EventRefused("that would leave a revealed card without its toss")
        _check_cards(game, turn)
    elif what == "swap":
        _swap_tosses(game, turn, _need(event, "index", what), _need(event, "other", what))


def _swap_tosses(game: TableInTurn, turn: TurnState, index: int, other: int) -> None:
    """Exchange the places of tosses ``index`` and ``other`` (in landing order), each with its card.

    The button times put them in the wrong order (found at the reveal, or before): each
    player keeps their own card, and the two move to each other's place in the stack.
    """
    ordered = ordered_tosses(turn)
    for k in (index, other):
        if not 0 <= k < len(ordered):
            if len(ordered) == 1:
                raise EventRefused(f"there is no toss {k + 1} (1 toss)")
            raise EventRefused(f"there is no toss {k + 1} ({len(ordered)} tosses)")
    if index == other:
        raise EventRefused("a swap needs two different tosses")
    a, b = ordered[index], ordered[other]
    position = {toss.order: k for k, toss in enumerate(counting_tosses(game, turn))}
    revealed = [position.get(t.order) is not None and position[t.order] < len(turn.cards) for t in (a, b)]
    if revealed[0] != revealed[1]:
        up, down = (a, b) if revealed[0] else (b, a)
        raise EventRefused(f"{up.player}'s card is turned over and {down.player}'s is not yet: "
                           "swap them once both cards are up")
    a.player, b.player = b.player, a.player
    a.removed, b.removed = b.removed, a.removed
    a.swapped = b.swapped = True
    if revealed[0]:
        i, j = position[a.order], position[b.order]
        turn.cards[i], turn.cards[j] = turn.cards[j], turn.cards[i]
        moved = {j for k, j in ((i, j), (j, i)) if k in turn.corrected_cards}  # the marks go with the cards
        turn.corrected_cards = (turn.corrected_cards - {i, j}) | moved
    if len(counting_tosses(game, turn)) < len(turn.cards):
        raise EventRefused("that would leave a revealed card without its toss")
    _check_cards(game, turn)


def _need(event: Mapping[str, Any], key: str, what: str) -> Any:
    if key not in event:
        raise EventRefused(f"a {what} correction needs {key!r}")
    return event[key]


def _face(text: str) -> str:
    try:
        return str(Face.parse(text))
    except FrogsError as exc:
        raise EventRefused(str(exc)) from None


def _all_dice_cast(turn: TurnState) -> None:
    """The players' correction completed the set: the camera's "not all six dice after three rolls" was a
    die it did not see, not a rule broken (its penalty goes with it)."""
    if len(turn.dice) == DICE:
        turn.violations = [v for v in turn.violations if v["kind"] != NOT_ALL_CAST]


#: the camera's violation when it sees fewer than six dice after the third roll
NOT_ALL_CAST = "not_all_dice_after_three"


def _check_dice(game: TableInTurn, turn: TurnState) -> None:
    if len(turn.dice) == DICE:
        try:
            game.rules.check_dice(tuple(Face.parse(face) for face in turn.dice))
        except FrogsError as exc:
            raise EventRefused(str(exc)) from None
