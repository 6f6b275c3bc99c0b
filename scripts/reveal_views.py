"""Twin card reveals read once, replayed through the reveal's bookkeeping as often as wanted (issue 24 part 3).

``read``: the twin reveals ``rig bench reveal --twin N --first-table T --per-table P`` lays (the same tables, cards,
shots and developed frames; renders cached in ~/.cache/rig/twin), each frame read with the ``read_cards`` on
``PYTHONPATH`` (and ``--wait`` more of the last shot, marked ``wait``: the players wait, as the bench's ``--wait``) and
written, one JSON a reveal, as ``t<table>-reveal<r>-views.json`` in the form of ``tests/vision/cards_twin`` (each
reading's print ``mark`` kept). ``replay``: those readings fed to the ``CardReveal`` on ``PYTHONPATH``, each question
answered truthfully as the bench answers it: one line a reveal and the totals — so two readers' readings (``read`` with
each) or two reveals' bookkeeping (``replay`` with each) are compared on the same frames.

    PYTHONPATH=/work/wt-base python scripts/reveal_views.py read --first-table 3700 --tables 19 --per-table 2 --out DIR
    PYTHONPATH=/work/wt-NAME python scripts/reveal_views.py replay DIR [--save booked.json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def _reading_dict(c) -> dict:
    d = {"card": c.card, "status": c.status, "box": list(c.box) if c.box else None}
    if c.corners is not None:
        d["corners"] = [[round(float(x), 1), round(float(y), 1)] for x, y in c.corners]
    if c.pile is not None:
        d["pile"] = list(c.pile)
    if c.hidden:
        d["hidden"] = True
    if getattr(c, "mark", None) is not None:
        d["mark"] = [round(float(c.mark[0]), 2), round(float(c.mark[1]), 2)]
    return d


def _view_dict(view, shot: str, laid: int) -> dict:
    return {"shot": shot, "laid": laid, "cards": [_reading_dict(c) for c in view.cards],
            "hands": [list(h) for h in view.hands], "size": list(view.size) if view.size else None}


def read(args) -> int:
    import numpy as np

    from rig.bench.reveal import reveal_cards
    from rig.bench.tables import photo_patch
    from rig.bench.twin import calibrated
    from rig.bench.unseen import textures_dir
    from rig.twin.table import TwinTable
    from rig.vision.card_empty import EmptyBox
    from rig.vision.cards import read_cards
    from rig.vision.errors import VisionError

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data = textures_dir(None)
    for seed in range(args.first_table, args.first_table + args.tables):
        table = TwinTable.random(seed, photo=lambda kind, rng: photo_patch(kind, rng, data))
        try:
            profile, frame = calibrated(table, {s.name: table.render(s, spp=args.spp) for s in table.shots(0)}, seed)
        except VisionError as exc:
            print(f"twin table {seed}: calibration refused ({exc})", flush=True)
            continue
        empty = EmptyBox.of(frame("empty", "same", 9))
        for r in range(args.per_table):
            cards = reveal_cards(np.random.default_rng([6173, table.seed, r]))
            views = []
            for i, (shot, laid) in enumerate(table.reveal(r, cards)):
                rgb = table.render(shot, spp=args.spp)
                for k in range(args.frames if shot.name.endswith("laid") else 2):
                    views.append(_view_dict(read_cards(frame(rgb, "same", 1000 + 10 * i + k), profile, empty), shot.name, laid))
            for k in range(args.wait):  # (the players wait: the last shot's frames go on, as ``rig bench reveal``'s)
                view = read_cards(frame(rgb, "same", 1000 + 10 * i + args.frames + k), profile, empty)
                views.append({**_view_dict(view, shot.name, laid), "wait": True})
            (out / f"t{seed}-reveal{r}-views.json").write_text(json.dumps({"table": seed, "reveal": r, "cards": cards, "views": views}))
            print(f"twin table {seed} reveal {r}: {len(views)} frames read", flush=True)
    return 0


def virtual(args) -> int:
    """The virtual table's reveals as ``rig bench reveal --reveals N`` lays them (``rig.bench.reveal.lay``: the same seeds,
    cards, layouts and frames), each frame read once and written as a views JSON (``v<seed>-views.json``); each reveal
    also booked with the ``CardReveal`` on the path as it is read, one line a reveal — so the bench's figures with the
    tree that reads, and the same frames replayed (``replay``) with another tree's bookkeeping."""
    import itertools
    import time

    import numpy as np

    from rig.bench.reveal import replay_views, reveal_cards
    from rig.hardware.virtual import VirtualTable
    from rig.vision.cards import read_cards
    from rig.vision.profile import Profile, default_profile_path

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    profile = Profile.load(default_profile_path())
    t0 = time.perf_counter()
    for seed in range(args.seed, args.seed + args.reveals):
        path = out / f"v{seed:04d}-views.json"
        if not path.exists():
            rng = np.random.default_rng(seed)
            cards = reveal_cards(rng)
            layout = str(rng.choice(["pile", "row"]))
            lingers = [bool(x) for x in rng.random(len(cards)) < 0.35]
            views = []
            with VirtualTable(seed=seed, realtime=False) as table:
                source = table.frames()
                for laid, (card, linger) in enumerate(zip(cards, lingers), 1):
                    table.show_card(card, layout=layout, linger=linger)
                    for _, frame in itertools.islice(source, 2 + args.frames):
                        view = read_cards(frame, profile)
                        views.append({"shot": f"virtual:{laid}", "laid": laid, "cards": [_reading_dict(c) for c in view.cards],
                                      "hands": [list(h) for h in view.hands], "size": list(view.size) if view.size else None})
            path.write_text(json.dumps({"seed": seed, "cards": cards, "layout": layout, "linger": any(lingers), "views": views}))
        _, booked, questions = replay_views(json.loads(path.read_text()))
        print(f"virtual reveal {seed}: booked {' '.join(booked)}{f' ({len(questions)} asked)' if questions else ''}; "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


def replay_one(seen: dict) -> dict:
    """One reveal's readings through the ``CardReveal`` on the path: what it booked and asked."""
    from rig.bench.reveal import replay_views

    cards, booked, questions = replay_views(seen)
    silent = sum(1 for a, b in zip(booked, cards) if a != b) + max(0, len(booked) - len(cards))
    return {"cards": cards, "booked": booked, "questions": [q.text for q in questions], "silent": silent,
            "missing": max(0, len(cards) - len(booked))}


def replay(args) -> int:
    results = {}
    for path in sorted(Path(args.views).glob("*-views.json")):
        r = replay_one(json.loads(path.read_text()))
        results[path.name.removesuffix("-views.json")] = r
        flag = f" silent {r['silent']}" if r["silent"] else ""
        flag += f" missing {r['missing']}" if r["missing"] else ""
        asked = f" | asked: {' / '.join(r['questions'])}" if r["questions"] else ""
        print(f"{path.name.removesuffix('-views.json')}: laid {' '.join(r['cards'])} -> booked {' '.join(r['booked'])}{flag}{asked}")
    rs = list(results.values())
    print(f"reveals {len(rs)}, cards {sum(len(r['cards']) for r in rs)}, silent {sum(r['silent'] for r in rs)}, "
          f"missing {sum(r['missing'] for r in rs)}, questions {sum(len(r['questions']) for r in rs)}, "
          f"reveals asked {sum(1 for r in rs if r['questions'])}")
    if args.save:
        Path(args.save).write_text(json.dumps(results, indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="verb", required=True)
    r = sub.add_parser("read", help="render (cached) and read twin reveals, one views JSON a reveal")
    r.add_argument("--first-table", type=int, required=True)
    r.add_argument("--tables", type=int, default=1)
    r.add_argument("--per-table", type=int, default=2)
    r.add_argument("--frames", type=int, default=4)
    r.add_argument("--spp", type=int, default=8)
    r.add_argument("--wait", type=int, default=0, help="frames of the last shot read after it (marked wait: the players "
                   "wait; replayed only while a card is missing, as rig bench reveal --wait)")
    r.add_argument("--out", required=True)
    v = sub.add_parser("virtual", help="read the virtual table's reveals (rig bench reveal), one views JSON a reveal")
    v.add_argument("--seed", type=int, default=1)
    v.add_argument("--reveals", type=int, default=500)
    v.add_argument("--frames", type=int, default=4)
    v.add_argument("--out", required=True)
    p = sub.add_parser("replay", help="a folder of views JSON through CardReveal")
    p.add_argument("views")
    p.add_argument("--save", default=None, help="write each reveal's bookings and questions here (JSON)")
    args = parser.parse_args(argv)
    return {"read": read, "virtual": virtual, "replay": replay}[args.verb](args)


if __name__ == "__main__":
    raise SystemExit(main())
