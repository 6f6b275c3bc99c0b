"""``rig bench reveal``: card reveals on the virtual table, laid as players lay them.

Each reveal is 4 to 7 cards made of same-colour runs of 2 to 4 (pink, pink, blue, blue, ...),
laid on one pile or in a row (then on a pile on the row's last card), a hand bringing each card
and then leaving the view clear or staying in view at the box's edge. The frames go through
:func:`rig.vision.cards.read_cards` and :class:`rig.vision.cards.CardReveal` as in the rig (with
the shipped profile, neutral light); a question is answered truthfully (yes when the card asked
about was laid and not yet booked). Prints the cards booked wrong in silence (target 0), the
cards missing at the end (the rig still waits for them: not silent), and how often it asks, per
reveal and per card — for piles, rows, and the hand staying in view or not.
"""

from __future__ import annotations

import time

from rig import argtypes


def add_arguments(parser) -> None:
    parser.add_argument("--reveals", type=argtypes.count, default=500, help="reveals to lay (default 500)")
    parser.add_argument("--seed", type=argtypes.seed, default=1, help="seed of the first reveal (default 1)")
    parser.add_argument("--frames", type=argtypes.count, default=4, help="still frames the camera sees after each card (default 4)")
    parser.add_argument("--wait", type=argtypes.amount, default=12, metavar="N",
                        help="frames the players wait after the last card while one is missing (default 12; 0: none)")
    parser.add_argument("--twin", type=argtypes.amount, default=0, metavar="N",
                        help="also N reveals path-traced on the twin of the table (rig.twin, pip install -e '.[twin]'), "
                        "one per twin table from --first-table, each table calibrated with its ritual and empty box")
    parser.add_argument("--first-table", type=argtypes.seed, default=100, help="--twin: seed of the first twin table (default 100)")
    parser.add_argument("--spp", type=argtypes.count, default=8, help="--twin: path-tracing samples per pixel (default 8)")
    parser.add_argument("--per-table", type=argtypes.count, default=1, help="--twin: reveals laid on each twin table (default 1)")


def reveal_cards(rng) -> list[str]:
    """4 to 7 cards of same-colour runs of 2 to 4 (a shorter last run where the reveal ends)."""
    colours = ("blue", "pink", "yellow", "blank", "gray")
    n = int(rng.integers(4, 8))
    cards: list[str] = []
    while len(cards) < n:
        colour = str(rng.choice([c for c in colours if not cards or c != cards[-1]]))
        cards += [colour] * int(rng.integers(2, 5))
    return cards[:n]


def _answer(reveal, booked: list[str], cards: list[str], laid: int) -> list[str]:
    """The players answer the rig's question truthfully: yes when the cards it asks about were laid
    (in that order) and are not booked yet — and, asked about the next two after those revealed ("were the
    next 2 cards laid gray, then gray?"), the card after them was the one it names; a card it cannot read they
    name ("no — it was: ...", :func:`rig.vision.card_answer.answer_was`)."""
    from rig.vision.card_answer import answer_was

    q = reveal.question
    waiting = len(booked)
    if q.unread:
        return answer_was(reveal, cards[waiting]) if waiting < laid else reveal.answer(False)
    said = [*q.yes, *q.then]  # (the next after those revealed: booked, or entered by hand)
    truth = len(q.yes) > 0 and cards[waiting:waiting + len(said)] == said and waiting + len(said) <= laid
    if not truth and len(q.yes) > 1 and not q.no:  # "n cards together, in that order?" no: entered by hand
        entered = cards[waiting:min(laid, waiting + len(q.yes))]
        return entered + reveal.answer(False)
    return reveal.answer(truth)


def players_wait(reveal, booked: list[str], cards: list[str], views, wait: int) -> tuple[int, list]:
    """After the last card, the players wait: ``views`` (the last shot's frames going on, read) are fed while a card laid
    is not booked yet, at most ``wait`` of them, each question answered truthfully (:func:`_answer`); ``booked`` grows.
    The frames fed and the questions asked."""
    fed, questions = 0, []
    while len(booked) < len(cards) and fed < wait:
        booked += reveal.feed(next(views))
        fed += 1
        while reveal.question is not None:
            questions.append(reveal.question)
            booked += _answer(reveal, booked, cards, len(cards))
    return fed, questions


def view_reading(d: dict):
    """One card reading of a reveal's views as committed (``tests/vision/cards_twin/*-views.json``, written by
    ``scripts/reveal_views.py read``): a :class:`rig.vision.cards.CardReading`."""
    from rig.vision.cards import CardReading

    return CardReading(d["card"], 1.0, d["status"], (), tuple(d["box"]) if d["box"] else None,
                       tuple(map(tuple, d["corners"])) if "corners" in d else None,
                       tuple(d["pile"]) if "pile" in d else None, d.get("hidden", False),
                       tuple(d["mark"]) if "mark" in d else None)


def replay_views(seen: dict) -> tuple[list[str], list[str], list]:
    """A reveal's views (what the reader saw, frame by frame) through :class:`rig.vision.cards.CardReveal`, each
    question answered truthfully (:func:`_answer`): the cards laid, the cards booked and the questions asked. Views
    marked ``wait`` (the last shot's frames going on as the players wait) are fed only while a card is missing
    (:func:`players_wait`)."""
    from rig.vision.cards import CardReveal, CardView

    def view(step: dict) -> CardView:
        size = tuple(step["size"]) if step.get("size") else None
        return CardView(tuple(map(view_reading, step["cards"])), tuple(map(tuple, step["hands"])), size)

    reveal, booked, questions = CardReveal(settle=3), [], []
    for step in (s for s in seen["views"] if not s.get("wait")):
        booked += reveal.feed(view(step))
        while reveal.question is not None:
            questions.append(reveal.question)
            booked += _answer(reveal, booked, seen["cards"], step["laid"])
    tail = [view(s) for s in seen["views"] if s.get("wait")]
    questions += players_wait(reveal, booked, seen["cards"], iter(tail), len(tail))[1]
    return seen["cards"], booked, questions


def lay(seed: int, profile, frames: int, wait: int = 0) -> dict:
    """One reveal on a fresh virtual table: what was laid, what was booked, the questions."""
    import itertools

    import numpy as np

    from rig.hardware.virtual import VirtualTable
    from rig.vision.cards import CardReveal, read_cards

    rng = np.random.default_rng(seed)
    cards = reveal_cards(rng)
    layout = str(rng.choice(["pile", "row"]))
    lingers = [bool(x) for x in rng.random(len(cards)) < 0.35]
    table = VirtualTable(seed=seed, realtime=False)
    reveal = CardReveal(settle=3)
    booked: list[str] = []
    asked, laid = 0, 0
    with table:
        source = table.frames()
        for card, linger in zip(cards, lingers):
            table.show_card(card, layout=layout, linger=linger)
            laid += 1
            for _, frame in itertools.islice(source, 2 + frames):
                booked += reveal.feed(read_cards(frame, profile))
                while reveal.question is not None:
                    asked += 1
                    booked += _answer(reveal, booked, cards, laid)
        waited, more = players_wait(reveal, booked, cards, (read_cards(frame, profile) for _, frame in source), wait)
    silent = sum(1 for a, b in zip(booked, cards) if a != b) + max(0, len(booked) - len(cards))
    return {"cards": cards, "booked": booked, "layout": layout, "linger": any(lingers), "asked": asked + len(more),
            "silent": silent, "missing": max(0, len(cards) - len(booked)), "waited": waited}


def lay_twin(table, r: int, profile, frame, frames: int, spp: int, empty=None, wait: int = 0) -> dict:
    """One reveal path-traced on a twin table: each shot (the hand bringing a card, the card laid)
    seen for ``frames`` frames of fresh sensor noise, the last one up to ``wait`` more while a card is missing
    (:func:`players_wait`); ``empty``: the empty box calibration saw (:class:`rig.vision.card_empty.EmptyBox`)."""
    import itertools

    import numpy as np

    from rig.vision.cards import CardReveal, read_cards

    rng = np.random.default_rng([6173, table.seed, r])
    cards = reveal_cards(rng)
    reveal = CardReveal(settle=3)
    booked: list[str] = []
    asked = 0
    shots = table.reveal(r, cards)
    for i, (shot, laid) in enumerate(shots):
        rgb = table.render(shot, spp=spp)
        for k in range(frames if shot.name.endswith("laid") else 2):
            booked += reveal.feed(read_cards(frame(rgb, "same", 1000 + 10 * i + k), profile, empty))
            while reveal.question is not None:
                asked += 1
                booked += _answer(reveal, booked, cards, laid)
    last = len(shots) - 1
    going_on = (read_cards(frame(rgb, "same", 1000 + 10 * last + frames + k), profile, empty) for k in itertools.count())
    waited, more = players_wait(reveal, booked, cards, going_on, wait)
    layout = "row" if any(s.name.endswith(":1:laid") and s.cards[-1]["x"] - s.cards[0]["x"] > 0.04 for s, _ in shots) else "pile"
    silent = sum(1 for a, b in zip(booked, cards) if a != b) + max(0, len(booked) - len(cards))
    return {"cards": cards, "booked": booked, "layout": layout, "linger": any(s.hand for s, _ in shots if s.name.endswith("laid")),
            "asked": asked + len(more), "silent": silent, "missing": max(0, len(cards) - len(booked)), "waited": waited}


def _twin_reveals(args) -> list[dict]:
    from rig.bench.tables import photo_patch
    from rig.bench.twin import calibrated
    from rig.bench.unseen import textures_dir
    from rig.twin.table import TwinTable
    from rig.vision.card_empty import EmptyBox
    from rig.vision.errors import VisionError

    data = textures_dir(None)
    out = []
    seed = args.first_table
    while len(out) < args.twin and seed < args.first_table + 4 * args.twin:
        table = TwinTable.random(seed, photo=lambda kind, rng: photo_patch(kind, rng, data))
        shots = table.shots(0)
        try:
            profile, frame = calibrated(table, {s.name: table.render(s, spp=args.spp) for s in shots}, seed)
        except VisionError as exc:
            print(f"twin table {seed}: calibration refused ({exc}); no reveal on it")
            seed += 1
            continue
        empty = EmptyBox.of(frame("empty", "same", 9))  # the empty box as calibration saw it
        for k in range(min(args.per_table, args.twin - len(out))):
            out.append(lay_twin(table, k, profile, frame, args.frames, args.spp, empty, args.wait))
            r = out[-1]
            asked = f" ({r['asked']} asked)" if r["asked"] else ""
            waited = f" (players waited {r['waited']} frames)" if r["waited"] else ""
            print(f"twin table {seed}: laid {' '.join(r['cards'])} -> booked {' '.join(r['booked'])}{asked}{waited}", flush=True)
        seed += 1
    return out


def run(args) -> int:
    from rig.vision.profile import Profile, default_profile_path

    if args.frames < 3:
        from rig.errors import RigError

        raise RigError("--frames must be at least 3 (the reveal settles on 3 still frames)")
    profile = Profile.load(default_profile_path())
    t0 = time.perf_counter()
    results = [lay(args.seed + i, profile, args.frames, args.wait) for i in range(args.reveals)]
    took = time.perf_counter() - t0
    print(f"card reveals on the virtual table (seeds {args.seed}..{args.seed + args.reveals - 1}, neutral light, "
          f"{args.frames} still frames a card; same-colour runs of 2-4)")
    print(f"{'part':<22}{'reveals':>8}{'cards':>7}{'silent':>8}{'missing':>8}{'asked':>7}{'reveals asked':>15}{'asks/card':>11}")
    twin = _twin_reveals(args) if args.twin else []
    parts = {"all": results,
             "pile": [r for r in results if r["layout"] == "pile"],
             "row, then pile": [r for r in results if r["layout"] == "row"],
             "hand stays in view": [r for r in results if r["linger"]],
             "view always clear": [r for r in results if not r["linger"]],
             "twin (path-traced)": twin}
    for name, rs in parts.items():
        if not rs:
            continue
        n_cards = sum(len(r["cards"]) for r in rs)
        asked_reveals = sum(1 for r in rs if r["asked"])
        print(f"{name:<22}{len(rs):>8}{n_cards:>7}{sum(r['silent'] for r in rs):>8}{sum(r['missing'] for r in rs):>8}"
              f"{sum(r['asked'] for r in rs):>7}{asked_reveals / len(rs):>14.1%}{sum(r['asked'] for r in rs) / n_cards:>11.2%}")
    runs = [r for r in results if any(a == b for a, b in zip(r["cards"], r["cards"][1:]))]
    print(f"same-colour pairs laid one after the other: {sum(sum(a == b for a, b in zip(r['cards'], r['cards'][1:])) for r in runs)}"
          f"; {took:.0f} s")
    for name, rs in (("virtual", results), ("twin", twin)):
        waited = [r["waited"] for r in rs if r["waited"]]
        if rs:
            print(f"{name}: players waited after the last card (up to --wait {args.wait} frames) on {len(waited)} of {len(rs)} "
                  f"reveals, {sum(waited)} frames in all, at most {max(waited, default=0)}; missing after it: "
                  f"{sum(r['missing'] for r in rs)}")
    return 0
