"""What the players should know that is not a game event: the rig's notices, its yes/no questions, and
the light watch (one notice while the light is beyond what the reader corrects)."""

from __future__ import annotations

from dataclasses import dataclass

from rig.errors import AnswerError


@dataclass(frozen=True)
class Notice:
    """Something the players should know that is not a game event (camera lost, input stuck)."""

    key: str
    text: str
    kind: str = "warn"  # "warn" | "bad" | "info"
    action: str | None = None  # a one-tap fix: the button's label ...
    href: str | None = None  # ... and where it leads
    ask: bool = False  # a yes/no question: answered by POST /api/answer {"key": key, "answer": "yes"|"no"}
    #: a question about a card: the cards it may have been, answered {"key": key, "answer": "no", "was": card}
    cards: tuple[str, ...] = ()
    #: (of them, one about a card the camera cannot read: "which card was just laid?" — its yes says "entered by hand")
    unread: bool = False

    def to_dict(self) -> dict:
        out = {"key": self.key, "text": self.text, "kind": self.kind}
        if self.action and self.href:
            out.update(action=self.action, href=self.href)
        if self.ask:
            out.update(ask="/api/answer", answers=["yes", "no"])
            if self.cards:
                out.update(cards=list(self.cards))
                if self.unread:
                    out.update(unread=True)
        return out


class Notices:
    """The notices part of :class:`rig.app.runner.Rig` (its ``_lock``, ``_notices`` and ``game``)."""

    def notice(self, key: str, text: str | None, kind: str = "warn", *, action: str | None = None,
               href: str | None = None, ask: bool = False, cards: tuple[str, ...] = (), unread: bool = False) -> None:
        """Show (``text``) or clear (None) a notice on the display (``ask``: a yes/no question; ``cards``: the
        cards a question about a card offers as "no — it was: ..."; ``unread``: it names no card, the camera cannot
        read it)."""
        with self._lock:
            if text is None:
                self._notices.pop(key, None)
            else:
                self._notices[key] = Notice(key, text, kind, action, href, ask, tuple(cards), unread)

    def answer(self, key: str, yes: bool, was: str | None = None) -> bool:
        """The players' answer to the question notice ``key`` (False: no such question is open); ``was``: "no — it
        was this card" (:class:`rig.errors.AnswerError` when the question does not offer it)."""
        with self._lock:
            notice = self._notices.get(key)
        if notice is None or not notice.ask:
            return False
        if was is None:
            return bool(self.game.on_answer(self, key, yes))
        if yes or was not in notice.cards:
            offered = ", ".join(notice.cards) or "none"
            raise AnswerError(f"this question takes as the card it was one of: {offered} (not {was[:40]!r})")
        return bool(self.game.on_answer(self, key, False, was=was))

    def _watch_light(self, light) -> None:
        """One notice, with a one-tap recalibration, while the light is beyond what the reader
        corrects (a frame whose floor is mostly hidden says nothing either way)."""
        if light is None or not light.reliable:
            return
        if light.correctable:
            if "light" in self._notices:
                self.notice("light", None)
        elif "light" not in self._notices:
            from rig.vision.light import drift_text

            self.notice("light", drift_text(light), "warn", action="Recalibrate", href="/calibrate?recalibrate=1")
