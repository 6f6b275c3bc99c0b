"""The players' answer to a card question that names the card laid: "no — it was a gray card" (issue 24 part 3).

Asked "was the next card laid blue?" where the card truly laid was another colour (a glimpse misread, the arm's shadow
read as a card), a truthful "no" books nothing and the real card is lost; asked about a card the camera cannot read,
the players had to find the face-down card on the scoreboard and enter it there first. A question about one card
offers the card colours instead: the card named is booked in the place of the one asked about, then the cards that
waited for the answer.
"""

from __future__ import annotations

from dataclasses import replace

from rig.vision.card_view import Question


class NoCardQuestion(LookupError):
    """No question is open that takes the card it was as its answer."""


def offers_cards(question: Question | None) -> bool:
    """Whether a "no" to the question may leave a laid card unbooked, so it offers the card it was: a question about
    one card (or about a card the camera cannot read). Not "n cards laid together: ... in that order?", whose order
    the players enter card by card."""
    return question is not None and len(question.yes) <= 1 and not question.no


def cards_offered(question: Question | None, colours: tuple[str, ...]) -> tuple[str, ...]:
    """The card colours a "no, it was…" to the question offers: all but the one it asks about ("was that pink?" — "no,
    it was pink" is a yes); none for a question that does not offer cards (:func:`offers_cards`)."""
    if not offers_cards(question):
        return ()
    return tuple(colour for colour in colours if colour not in question.yes)


def answer_was(reveal, card: str) -> list[str]:
    """The players' answer "no — it was a ``card`` card" to the open question of ``reveal`` (a
    :class:`rig.vision.card_reveal.CardReveal`): that card booked where the one asked about would have been, then the
    cards that waited. Raises :class:`NoCardQuestion` when no such question is open (nothing changes)."""
    asked = reveal.question
    if not offers_cards(asked):
        raise NoCardQuestion("no open card question takes the card it was")
    # (asked about the next two, "then" the card seen after it: that card waits as it did, booked after this one; a
    # card glimpsed, then gone: the card named lies where it was glimpsed, as on a yes — :meth:`CardReveal.answer`)
    reveal.question = replace(asked, yes=(card,), then=())
    return reveal.answer(True)
