"""The virtual table's player cards: laid face up under the camera as players do (a row or a pile,
a hand bringing each), and taken away again. A part of :class:`rig.hardware.virtual.VirtualTable`
(its ``_lock``, ``_scene``, ``_rng``, ``_render``, ``_push``, ``_edge_point`` and ``_hand_at``)."""

from __future__ import annotations

import math

import numpy as np


class CardLaying:
    """:meth:`show_card` and :meth:`hide_card` of the virtual table, and where its cards go."""

    def show_card(self, card: str, *, layout: str | None = None, linger: bool | None = None) -> None:
        """Lay a revealed player card face up under the camera, as players do: the first card of a
        reveal where it covers the fewest dice, each next one beside the last (``layout="row"``,
        while the box has room) or on top of it (``"pile"``, a little askew); a hand brings each
        card, and then either leaves the view clear or stays in view at the box's edge
        (``linger``). ``None``: chosen at random (the layout once per reveal)."""
        with self._lock:
            side = self._scene.die_side
            rng = self._rng
            top = self._scene.card
            if top is None or layout not in (None, self._card_layout):
                self._card_layout = layout or str(rng.choice(["row", "pile"]))
            if linger is None:
                linger = bool(rng.random() < 0.35)
            if top is None:
                self._pile = None
                x, y = self._card_spot(left=self._card_layout == "row")
                angle = float(rng.uniform(-20, 20)) if self._card_layout == "pile" else float(rng.normal(0, 6))
            else:
                x, y, angle = self._next_card_spot(top)
            placed = self._render.PlacedCard(str(card), float(x), float(y), float(angle))
            laid = self._scene.laid + ((top,) if top is not None else ())
            edge = self._edge_point(x, y)
            sliding = self._render.PlacedCard(str(card), (x + edge[0]) / 2, (y + edge[1]) / 2, placed.angle + 15)
            base = self._scene.replace(laid=laid)
            self._push(base.replace(card=sliding, hand=self._hand_at(edge, (x, y), 0.5)))
            self._push(base.replace(card=placed, hand=self._hand_at(edge, (x + side, y), 0.6)))
            self._scene = base.replace(card=placed, hand=self._waiting_hand(placed) if linger else None)

    def _next_card_spot(self, top) -> tuple[float, float, float]:
        """Beside the last card (a row) while the box has room, else on top of it, askew as a hand lays it."""
        side = self._scene.die_side
        rng = self._rng
        x0, y0, x1, y1 = self._render.floor_rect(self._scene.size)
        if self._card_layout == "row":
            x = top.x + 5.2 * side  # a hand's width apart: a pile on the last card stays clear of the row
            if x + 2.4 * side <= x1:
                self._pile = None
                return x, top.y + float(rng.normal(0, 0.3 * side)), float(rng.normal(0, 6))
        if self._pile is None:  # the pile grows on the last card laid
            self._pile = (top.x, top.y, top.angle)
        px, py, pa = self._pile
        x = float(np.clip(px + rng.normal(0, 0.3 * side), x0 + 2.2 * side, x1 - 2.2 * side))
        y = float(np.clip(py + rng.normal(0, 0.3 * side), y0 + 2.9 * side, y1 - 2.9 * side))
        return x, y, pa + float(rng.normal(0, 6))

    def _waiting_hand(self, card):
        """A hand that stays in view holding the rest of the stack, at the box edge away from the cards."""
        w, h = self._scene.size
        corners = [(0.0, 0.0), (w + 0.0, 0.0), (0.0, h + 0.0), (w + 0.0, h + 0.0)]
        cards = [(c.x, c.y) for c in (*self._scene.laid, card)]
        far = max(corners, key=lambda p: min(math.hypot(p[0] - a, p[1] - b) for a, b in cards))
        return self._render.Hand(far[0] + (w / 2 - far[0]) * 0.08, far[1] + (h / 2 - far[1]) * 0.08)

    def hide_card(self) -> None:
        """Take the cards away again (the players take them back)."""
        with self._lock:
            card = self._scene.card or (self._scene.laid[-1] if self._scene.laid else None)
            if card is None:
                return
            edge = self._edge_point(card.x, card.y)
            self._push(self._scene.replace(hand=self._hand_at(edge, (card.x, card.y), 0.8)))
            self._scene = self._scene.replace(card=None, laid=(), hand=None)

    def _card_spot(self, *, left: bool = False) -> tuple[float, float]:
        """Where a card (about 3.9 x 5.5 die sides) covers the fewest dice: furthest from them all
        (``left``: at the box's left, room for a row)."""
        side = self._scene.die_side
        x0, y0, x1, y1 = self._render.floor_rect(self._scene.size)
        mx, my = min(3.4 * side, (x1 - x0) / 2), min(3.4 * side, (y1 - y0) / 2)  # room to turn a card
        if left:
            return float(x0 + 2.3 * side), float(self._rng.uniform(y0 + my, max(y0 + my, y1 - my)))
        xs = self._rng.uniform(x0 + mx, x1 - mx, 300)
        ys = self._rng.uniform(y0 + my, y1 - my, 300)
        dice = [(d.x, d.y) for d in self._scene.dice]
        if not dice:
            return float(xs[0]), float(ys[0])
        # distance to the card's rectangle rather than its centre: dice beside the long side count
        clear = [min(max(abs(x - a) - 1.95 * side, abs(y - b) - 2.75 * side) for a, b in dice) for x, y in zip(xs, ys)]
        best = int(np.argmax(clear))
        return float(xs[best]), float(ys[best])
