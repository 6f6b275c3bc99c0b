"""A frogs turn in its reveal, the rig's card side and the display's API over it, for the card-question tests: the
real engine, the real notices and answer route, the reveal fed views as the camera reads them."""

from __future__ import annotations

import threading
import warnings

from rig import registry
from rig.app.notices import Notices
from rig.display.app import create_app
from rig.engine.errors import EventRefused
from rig.engine.service import EngineService
from rig.games.frogs import flow
from rig.vision.cards import CardReading, CardView

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

S = 1_000_000
#: a hand over the box between the cards
HAND = CardView((), ((150, 200, 200, 200),))


class CardTable(Notices):
    """What the frogs flow and ``POST /api/answer`` use of :class:`rig.app.runner.Rig`: its notices, its reveal, the
    engine it books into."""

    def __init__(self, service: EngineService):
        self.service = service
        self.game = registry.get("frogs")
        self._lock = threading.RLock()
        self._notices = {}
        self.cards = None
        self.cards_lock = threading.RLock()
        self.card_frames = 3
        self.profile = None

    def submit_event(self, event: dict) -> dict | None:
        try:
            return self.service.submit(event, default_source="camera", keep=True)
        except EventRefused:
            return None

    def status(self) -> dict:
        with self._lock:
            return {"notices": [n.to_dict() for n in self._notices.values()]}

    def feed(self, monkeypatch, views) -> None:
        for view in views:
            monkeypatch.setattr("rig.vision.cards.read_cards", lambda frame, profile, v=view: v)
            flow.read_card(self, 1000, None)


def in_reveal() -> EngineService:
    """A game of Ann, Bob and Cid: Ann's turn, Bob and Cid tossed two cards each (Bob, Cid, Bob, Cid), the copy
    chosen: the reveal of 4 cards begins."""
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 10 * S, "source": "sim", "clock": "sim",
                    "players": ["Ann", "Bob", "Cid"], "options": {}})
    t = 15 * S
    service.press("Ann", t, source="gpio")
    service.release("Ann", t + 80_000, 80_000, source="gpio")
    tosses = [("Bob", t + S // 2), ("Cid", t + S), ("Bob", t + 3 * S // 2), ("Cid", t + 2 * S)]
    dice = ["blue", "pink", "yellow", "blank", "blank", "pink+blue"]
    for i in range(3):
        for player, at in tosses[i::3]:
            service.press(player, at, source="gpio")
        service.submit({"type": "roll_settled", "t_us": t + (i + 1) * S, "source": "camera", "clock": "sim",
                        "dice": dice[:2 * (i + 1)]})
    t += 4 * S + 300_000  # the copy: one short press, then a hold
    service.press("Ann", t, source="gpio")
    service.release("Ann", t + 90_000, 90_000, source="gpio")
    service.press("Ann", t + 300_000, source="gpio")
    service.release("Ann", t + 1_500_000, 1_200_000, source="gpio")
    assert service.state()["turn"]["phase"] == "reveal"
    return service


def web(service: EngineService, table: CardTable) -> TestClient:
    """The display's API on the rig's own display (no PIN)."""
    app = create_app(service, pin="424242", info={"lan": True}, answer=table.answer, status=table.status)
    return TestClient(app, client=("127.0.0.1", 40000), base_url="http://127.0.0.1")


def booked(client: TestClient) -> list[str]:
    """The cards the engine holds for the turn, in order."""
    turn = client.get("/api/state").json()["turn"]
    return [t["card"] for t in turn["tosses"] if t["counting"] and t.get("card")]


def question(client: TestClient) -> dict | None:
    """The card question on the display (``GET /api/rig``), if one is open."""
    return next((n for n in client.get("/api/rig").json()["notices"] if n["key"] == flow.QUESTION), None)


def card(colour: str, x: float = 100.0) -> CardReading:
    """A card's reading with its field's corners (a 200 x 280 px card at x)."""
    corners = ((x, 100), (x + 200, 100), (x + 200, 380), (x, 380))
    return CardReading(colour, 1.0, "ok", (), (int(x), 100, 200, 280), corners)
