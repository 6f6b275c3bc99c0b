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


def add_arguments(parser) -> None:
    parser.add_argument("--reveals", type=int, default=500, help="reveals to lay (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first reveal (default 1)")
    parser.add_argument("--frames", type=int, default=4, help="still frames the camera sees after each card (default 4)")


def reveal_cards(rng) -> list[str]:
    """4 to 7 cards of same-colour runs of 2 to 4 (a shorter last run where the reveal ends)."""
    colours = ("blue", "pink", "yellow", "blank", "gray")
    n = int(rng.integers(4, 8))
    cards: list[str] = []
    while len(cards) < n:
        colour = str(rng.choice([c for c in colours if not cards or c != cards[-1]]))
        cards += [colour] * int(rng.integers(2, 5))
    return cards[:n]


def lay(seed: int, profile, frames: int) -> dict:
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
                    q = reveal.question
                    waiting = len(booked)
                    truth = len(q.yes) > 0 and cards[waiting:waiting + len(q.yes)] == list(q.yes) and waiting + len(q.yes) <= laid
                    booked += reveal.answer(truth)
    silent = sum(1 for a, b in zip(booked, cards) if a != b) + max(0, len(booked) - len(cards))
    return {"cards": cards, "booked": booked, "layout": layout, "linger": any(lingers), "asked": asked,
            "silent": silent, "missing": max(0, len(cards) - len(booked))}


def run(args) -> int:
    from rig.vision.profile import Profile, default_profile_path

    if args.reveals < 1 or args.frames < 3:
        from rig.errors import RigError

        raise RigError("--reveals must be at least 1 and --frames at least 3 (the reveal settles on 3 still frames)")
    profile = Profile.load(default_profile_path())
    t0 = time.perf_counter()
    results = [lay(args.seed + i, profile, args.frames) for i in range(args.reveals)]
    took = time.perf_counter() - t0
    print(f"card reveals on the virtual table (seeds {args.seed}..{args.seed + args.reveals - 1}, neutral light, "
          f"{args.frames} still frames a card; same-colour runs of 2-4)")
    print(f"{'part':<22}{'reveals':>8}{'cards':>7}{'silent':>8}{'missing':>8}{'asked':>7}{'reveals asked':>15}{'asks/card':>11}")
    parts = {"all": results,
             "pile": [r for r in results if r["layout"] == "pile"],
             "row, then pile": [r for r in results if r["layout"] == "row"],
             "hand stays in view": [r for r in results if r["linger"]],
             "view always clear": [r for r in results if not r["linger"]]}
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
    return 0
