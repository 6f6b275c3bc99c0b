"""Every twin turn read, die by die: why dice are wrong and why right turns are flagged (issue 24, eighth round).

Reads the thrown turns of twin tables exactly as ``rig bench vision --twin`` does (the same cached renders, the
same development, calibration and :func:`rig.bench.unseen.tally`), and writes one JSON line per turn (table,
light, truth, the dice read with the tests that call them cocked, the reasons) to ``--out``, then tabulates:

- per set and light, the bench's figures (dice right, 6-of-6 turns, silent turns, needless flags, cocked flagged);
- why dice are wrong: not seen / misread as what / a die read where none is, flat or cocked, flagged by which
  reason (the reasons said at the die's place), its size and place (in a wall's deep shade, under the floor's
  glare);
- why right turns are flagged: reason counts (turns, and turns where it is the only reason).

Run it with another checkout first on ``PYTHONPATH`` to read the same renders with that reader (before/after).

    .venv/bin/python scripts/twin_turns.py --sets 100:17,1000:12 --out ~/.cache/rig/m24d/after
    .venv/bin/python scripts/twin_turns.py --tabulate ~/.cache/rig/m24d/before   # tables only, from the lines
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

SETS = "100:17,1000:12,2000:12,4000:12,6000:12,7000:12,8000:12,8100:12,8200:12,8300:12"


def seeds(spec: str) -> list[tuple[int, int]]:
    """``100:17,1000:12`` -> [(first, n), ...]."""
    return [tuple(int(v) for v in part.split(":")) for part in filter(None, spec.split(","))]


def reason_kind(text: str) -> str:
    """A reason without its place and counts: ``cocked die``, ``unclear pink``, ``5 of the 6 dice ...`` -> ``N of 6``.
    A reason that names a place is a flag's kind (:meth:`rig.vision.dice_flag.Flag.parse`: what comes before it)."""
    from rig.vision.dice_flag import Flag

    flag = Flag.parse(text)
    kind = text if flag is None else flag.kind
    kind = re.sub(r"^\d+ of the \d+", "N of the 6", kind)
    kind = re.sub(r" \(warmer white balance x[\d.]+\)| \(.*x[\d.]+.*\)$", "", kind)
    return re.sub(r"^\d+ dice", "N dice", kind)


def reason_places(reasons) -> list[tuple[str, float, float]]:
    """The reasons that name a place: ``(kind, x, y)`` each, the place as the flag gives it."""
    from rig.vision.dice_flag import Flag

    flags = (Flag.parse(text) for text in reasons)
    return [(reason_kind(flag), *flag.at) for flag in flags if flag is not None]


def each_turn(seed: int, turns: int, spp: int, propped: bool = False, table=None):
    """Twin table ``seed``'s thrown (or propped) turns in every light, read as the bench reads them: yields
    ``(profile, die_px, drift, shot, k, work, truth, reading)``. Raises VisionError when calibration refuses.
    ``table``: the table as :func:`_table` draws it, when the caller has it."""
    import cv2

    from rig.bench.twin import calibrated
    from rig.twin.table import DRIFTS
    from rig.vision.dice import prepare, read_labels

    cv2.setNumThreads(1)
    table = table if table is not None else _table(seed)
    shots = table.shots(turns, propped=4) if propped else table.shots(turns)
    renders = {s.name: table.render(s, spp=spp) for s in shots}
    profile, frame = calibrated(table, renders, seed)
    die_px = table.notes["die_px"]
    for d, drift in enumerate(DRIFTS):
        for shot in shots:
            if not shot.name.startswith("propped:" if propped else "turn:"):
                continue
            k = int(shot.name.split(":")[1])
            work = prepare(frame(shot.name, drift, 10 + k + 100 * d), profile)
            truth = table.truth(shot)
            yield profile, die_px, drift, shot, k, work, truth, read_labels(work, profile, len(truth))


def _table(seed: int):
    """Twin table ``seed`` as the bench draws it (its camera and tray: where dice hide one another; the floor's
    photo draws from the same generator, so it is drawn too)."""
    from rig.bench.tables import photo_patch
    from rig.bench.unseen import textures_dir
    from rig.twin.table import TwinTable

    data = textures_dir(None)
    return TwinTable.random(seed, photo=lambda kind, rng: photo_patch(kind, rng, data))


def read_table(seed: int, turns: int, spp: int, propped: bool = False) -> list[dict]:
    from rig.bench.twin_hidden import HIDDEN, hidden_shares, score
    from rig.vision.dice import _radius
    from rig.vision.dice_cocked import _leaning
    from rig.vision.dice_overall import under_glare
    from rig.vision.errors import VisionError

    lines, table, hiding = [], _table(seed), {}
    try:
        for profile, die_px, drift, shot, k, work, truth, reading in each_turn(seed, turns, spp, propped, table):
            t, walls = profile.thresholds, profile.walls
            if shot.name not in hiding:  # (the same throw in every light)
                hiding[shot.name] = [share > HIDDEN for share in hidden_shares(table, shot.dice)]
            hidden = hiding[shot.name]
            right, counted, wrong, cocked, hid = score(truth, hidden, reading, 0.6 * die_px)
            f = work.factor
            seen = []
            for obs in reading.dice:
                cx, cy = (obs.x + 0.5) / f - 0.5, (obs.y + 0.5) / f - 0.5
                gx, gy = min(work.labels.shape[1] - 1, int(cx)), min(work.labels.shape[0] - 1, int(cy))
                small = obs.area < t.die_area_min
                aspect = not small and obs.aspect + walls[3] * _radius(cx, cy, work) < t.cocked_aspect
                lean = not small and _leaning(obs, work, t, walls, reading.dice)
                seen.append({"face": obs.face, "x": obs.x, "y": obs.y, "cocked": obs.cocked, "area": obs.area,
                             "confidence": obs.confidence,
                             "aspect": obs.aspect, "small": bool(small), "aspect_test": bool(aspect), "lean": bool(lean),
                             "deep": bool(work.deep is not None and work.deep[gy, gx]),
                             "glare": bool(under_glare(cx, cy, work))})
            lines.append({"seed": seed, "drift": drift, "turn": k, "shot": shot.name, "die_px": die_px, "status": reading.status,
                          "reasons": list(reading.reasons), "right": right, "counted": counted, "wrong": wrong,
                          "has_cocked": cocked, "has_hidden": hid, "six": len(truth) == 6,
                          "truth": [{"face": d_.face, "x": d_.x, "y": d_.y, "cocked": d_.cocked, "hidden": h}
                                    for d_, h in zip(truth, hidden)],
                          "seen": seen})
    except VisionError as exc:
        return [{"seed": seed, "refused": str(exc)}]
    return lines


def truth_poses(truth, dice, shot, die_px: float) -> dict:
    """The dice read (``dice``) each paired with its thrown die and pose (``truth``, ``shot.dice``): index → (die, pose)."""
    from rig.bench.vision import pairs

    return {best: (d, shot.dice[j]) for j, (d, best) in enumerate(zip(truth, pairs(truth, dice, 0.6 * die_px)))
            if best is not None}


def dump_tables(sets: str, propped: bool, out: Path, row) -> None:
    """Each table of ``sets``: its turns read (4 turns, 8 spp) and made rows by ``row(seed, table, *turn)``
    (``turn`` as :func:`each_turn` yields it), one JSON file a table in ``out`` (``<seed>p.json`` propped); a table
    calibration refuses is said and left out."""
    from rig.vision.errors import VisionError

    out.mkdir(parents=True, exist_ok=True)
    for first, n in seeds(sets):
        for seed in range(first, first + n):
            table = _table(seed)
            try:
                rows = [row(seed, table, *turn) for turn in each_turn(seed, 4, 8, propped, table)]
            except VisionError as exc:
                print(seed, "refused", exc, flush=True)
                continue
            (out / f"{seed}{'p' if propped else ''}.json").write_text(json.dumps(rows))
            print(seed, len(rows), flush=True)


def study_parser(doc: str):
    """A twin study's command line: ``dump`` (``--sets``, ``--propped``, ``--out``: rows by :func:`dump_tables`) and
    ``report`` (``--dir``, the rest added by the study); returns the parser and the report's."""
    import argparse

    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--sets", required=True)
    d.add_argument("--propped", action="store_true")
    d.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("report")
    r.add_argument("--dir", type=Path, required=True)
    return ap, r


def dumped(folder: Path, spec: str):
    """The rows :func:`dump_tables` wrote for ``spec`` (``5000p:24`` for propped tables), table by table."""
    for part in filter(None, spec.split(",")):
        first, n = part.split(":")
        start = int(first.rstrip("p"))
        for seed in range(start, start + int(n)):
            path = folder / f"{seed}{'p' if first.endswith('p') else ''}.json"
            yield from json.loads(path.read_text()) if path.exists() else []


def shot_kind(lines: list[dict]) -> str:
    """Which shots ``lines`` read: ``thrown`` (``turn:k``), ``propped`` (``propped:k``), ``both`` or ``-`` (none read).
    Round 23 read twin tables 5000-5023's thrown turns without ``--propped`` and reported them as the propped sets (a
    silent turn, 5014 turn 1, that the propped turns do not have): the table says which it read."""
    kinds = {s["shot"].split(":")[0] for s in lines if "shot" in s}
    kinds = {"thrown" if k == "turn" else k for k in kinds}
    return "-" if not kinds else kinds.pop() if len(kinds) == 1 else "both"


def collect(spec: str, turns: int, spp: int, out: Path, propped: bool = False) -> None:
    out.mkdir(parents=True, exist_ok=True)
    want = "propped" if propped else "thrown"
    for first, n in seeds(spec):
        for seed in range(first, first + n):
            path = out / f"{seed}.jsonl"
            if path.exists():  # kept, but only when it read the same shots (a table's file is named alike for both)
                kind = shot_kind([json.loads(s) for s in path.read_text().splitlines()])
                if kind not in (want, "-"):
                    raise SystemExit(f"{path} holds {kind} turns, asked for {want} ones: another --out folder")
                continue
            lines = read_table(seed, turns, spp, propped)
            path.write_text("".join(json.dumps(line) + "\n" for line in lines))
            print(f"table {seed}: {len(lines)} lines", flush=True)


def load(out: Path, spec: str) -> dict[int, list[dict]]:
    sets = {}
    for first, n in seeds(spec):
        lines = []
        for seed in range(first, first + n):
            path = out / f"{seed}.jsonl"
            if path.exists():
                lines += [json.loads(s) for s in path.read_text().splitlines()]
        sets[first] = lines
    return sets


def match(line: dict) -> tuple[list, list]:
    """Each true die's reading (index into ``seen`` or None), as :func:`rig.bench.unseen.score` matches them;
    and the readings matched to no true die."""
    tol, used, pairs = 0.6 * line["die_px"], set(), [None] * len(line["truth"])
    for k in sorted(range(len(line["truth"])), key=lambda k: bool(line["truth"][k].get("hidden"))):  # visible first
        d, best, best_dist = line["truth"][k], None, tol
        for i, o in enumerate(line["seen"]):
            dist = ((o["x"] - d["x"]) ** 2 + (o["y"] - d["y"]) ** 2) ** 0.5
            if i not in used and dist < best_dist:
                best, best_dist = i, dist
        if best is not None:
            used.add(best)
        pairs[k] = best
    return pairs, [i for i in range(len(line["seen"])) if i not in used]


def near_reasons(line: dict, x: float, y: float) -> list[str]:
    r = 0.8 * line["die_px"]
    return sorted({k for k, rx, ry in reason_places(line["reasons"]) if (rx - x) ** 2 + (ry - y) ** 2 < r * r})


def needless(line: dict) -> bool:
    """The bench's needless turn-light: calibrated, flagged, nothing wrong, no truly cocked or hidden die."""
    return ("refused" not in line and line["status"] != "ok" and not line["wrong"] and not line["has_cocked"]
            and not line.get("has_hidden", False))


def cocked_by(seen: dict) -> str:
    """Which test called a read die cocked: small top, aspect, flank, or ``?`` (none of these, e.g. a side-face check)."""
    return "small top" if seen["small"] else "aspect" if seen["aspect_test"] else "flank" if seen["lean"] else "?"


def figures(lines: list[dict]) -> dict:
    row = Counter()
    for s in lines:
        if "refused" in s:
            continue
        flagged = s["status"] != "ok"
        row["frames"] += 1
        row["right"] += s["right"]
        row["dice"] += s["counted"]
        hid = s.get("has_hidden", False)
        row["silent"] += (s["wrong"] or hid) and not flagged
        row["needless"] += needless(s)
        row["cocked"] += s["has_cocked"]
        row["cocked_flagged"] += s["has_cocked"] and flagged
        row["hidden"] += hid
        row["hidden_flagged"] += hid and flagged
        if s["six"] and not s["has_cocked"] and not hid:
            row["turns6"] += 1
            row["right6"] += not s["wrong"]
    return row


def _pct(a, b) -> str:
    return f"{100 * a / b:.1f} %" if b else "-"


def tabulate(out: Path, spec: str) -> None:
    sets = load(out, spec)
    print("turns read:", ", ".join(f"{first} {shot_kind(lines)}" for first, lines in sets.items()))
    print(f"{'set':<10} {'light':<10} {'accepted':>8} {'dice':>8} {'6/6':>8} {'silent':>6} {'needless':>9} {'cocked flagged':>14}"
          f" {'hidden flagged':>14}")
    for first, lines in sets.items():
        tables = {s["seed"] for s in lines}
        refused = {s["seed"] for s in lines if "refused" in s}
        for name, part in (("same", [s for s in lines if s.get("drift") == "same"]),
                           ("all drift", [s for s in lines if s.get("drift") not in (None, "same")])):
            r = figures(part)
            acc = f"{len(tables) - len(refused)}/{len(tables)}" if name == "same" else ""
            print(f"{first:<10} {name:<10} {acc:>8} {_pct(r['right'], r['dice']):>8} {r['right6']:>3}/{r['turns6']:<4} "
                  f"{r['silent']:>6} {_pct(r['needless'], r['frames']):>9} {r['cocked_flagged']:>6}/{r['cocked']:<7} "
                  f"{r['hidden_flagged']:>6}/{r['hidden']:<7}")
    every = [s for lines in sets.values() for s in lines if "refused" not in s]
    for name, part in (("same light", [s for s in every if s["drift"] == "same"]),
                       ("after drift", [s for s in every if s["drift"] != "same"])):
        r = figures(part)
        print(f"ALL {name}: dice {_pct(r['right'], r['dice'])}, 6/6 {r['right6']}/{r['turns6']}, silent {r['silent']}, "
              f"needless {r['needless']}/{r['frames']} = {_pct(r['needless'], r['frames'])}, "
              f"cocked flagged {r['cocked_flagged']}/{r['cocked']}, hidden flagged {r['hidden_flagged']}/{r['hidden']}")
    # (a) why dice are wrong
    kinds: dict = defaultdict(lambda: {"n": 0, "silent": 0, "place": Counter(), "size": Counter(), "why": Counter(),
                                       "as": Counter(), "e.g.": []})
    for s in every:
        pairs, extra = match(s)
        wrongs = []
        for d, i in zip(s["truth"], pairs):
            o = s["seen"][i] if i is not None else None
            if o is not None and o["face"] == d["face"]:
                continue
            what = "not seen" if o is None else "misread"
            wrongs.append((f"{what}, {'cocked' if d['cocked'] else 'flat'}", d, o, f"{d['face']} as {o['face']}" if o else ""))
        for i in extra:
            o = s["seen"][i]
            wrongs.append(("a die read where none is", o, o, f"as {o['face']}"))
        for key, d, o, as_ in wrongs:
            k = kinds[key]
            k["n"] += 1
            k["silent"] += s["status"] == "ok"
            k["place"]["—" if o is None else "deep shade" if o["deep"] else "floor's glare" if o["glare"] else "open floor"] += 1
            px = s["die_px"]
            k["size"]["< 40 px" if px < 40 else "40-45 px" if px <= 45 else "> 45 px"] += 1
            if o is not None and key != "a die read where none is":
                k["size"]["lit top < 0.6"] += o["small"]
            for why in near_reasons(s, d["x"], d["y"]) or ["(only elsewhere in the turn)" if s["status"] != "ok" else "SILENT"]:
                k["why"][why] += 1
            if as_:
                k["as"][as_] += 1
            k["e.g."].append(f"{s['seed']} {s['drift']} t{s['turn']}")
    print("\n(a) dice wrong (all lights): what, how many, silent, where, die size, reasons said at its place")
    for key, k in sorted(kinds.items(), key=lambda kv: -kv[1]["n"]):
        print(f"  {key}: {k['n']} ({k['silent']} silent); place {dict(k['place'].most_common())}; "
              f"size {dict(k['size'].most_common())}")
        print(f"      reasons: {', '.join(f'{w} {n}' for w, n in k['why'].most_common(6))}")
        if k["as"]:
            print(f"      read: {', '.join(f'{w} {n}' for w, n in k['as'].most_common(8))}")
        print(f"      e.g. {'; '.join(k['e.g.'][:3])}")
    by_size(every)
    # (b) why right turns are flagged
    turns, only = Counter(), Counter()
    needless = [s for s in every if s["status"] != "ok" and not s["wrong"] and not s["has_cocked"]]
    for s in needless:
        kinds_ = sorted({reason_kind(r) for r in s["reasons"]})
        for k in kinds_:
            turns[k] += 1
        if len(kinds_) == 1:
            only[kinds_[0]] += 1
    cocked = Counter()
    for s in every:
        pairs, _ = match(s)
        for d, i in zip(s["truth"], pairs):
            if d["cocked"]:
                cocked["truly cocked dice"] += 1
                cocked["called cocked or partly hidden"] += i is not None and s["seen"][i]["cocked"]
                cocked["in a flagged turn"] += s["status"] != "ok"
                cocked["read wrong"] += i is None or s["seen"][i]["face"] != d["face"]
                cocked["read wrong, turn not flagged"] += (i is None or s["seen"][i]["face"] != d["face"]) and s["status"] == "ok"
    print("\ntruly cocked dice:", dict(cocked))
    print(f"\n(b) needless flags, {len(needless)} of {len(every)} turns: reason, turns (as the only reason)")
    for k, n in turns.most_common():
        print(f"  {n:4d} ({only[k]:3d})  {k}")
    # the dice called cocked on needless turns: which test
    tests = Counter()
    for s in needless:
        pairs, _ = match(s)
        for d, i in zip(s["truth"], pairs):
            if i is not None and s["seen"][i]["cocked"]:
                tests[cocked_by(s["seen"][i])] += 1
    print("  flat dice called cocked/partly hidden on those turns, by test:", dict(tests))


#: die sides (frame px) the size table parts the dice at; the reader halves a frame whose dice are over ~36.8 px
#: (``round(log2(die_px / work_die_px))`` >= 1 with the default 26): below it they are read at full resolution
SIZES = (36.8, 38.0, 40.0, 42.0)


def by_size(lines: list[dict]) -> None:
    """The flat, visible dice read wrong (not found, misread, and dice read where none is) by the table's die side
    in frame pixels, same light and after drift (round 17: is it the small dice?)."""
    print("\ndice wrong by die size (flat, visible dice; a die read where none is counts as one wrong):")
    edges = (0.0, *SIZES, 1e9)
    for name, part in (("same", [s for s in lines if s["drift"] == "same"]),
                       ("drift", [s for s in lines if s["drift"] != "same"])):
        dice, wrong, tables = Counter(), Counter(), defaultdict(set)
        for s in part:
            b = next(k for k in range(len(edges) - 1) if edges[k] <= s["die_px"] < edges[k + 1])
            tables[b].add(s["seed"])
            pairs, extra = match(s)
            for d, i in zip(s["truth"], pairs):
                if not d["cocked"] and not d.get("hidden"):
                    dice[b] += 1
                    wrong[b] += i is None or s["seen"][i]["face"] != d["face"]
            wrong[b] += len(extra)
        for b in sorted(dice):
            lo, hi = edges[b], edges[b + 1]
            span = f"< {hi:g} px" if lo == 0 else f">= {lo:g} px" if hi >= 1e9 else f"{lo:g}-{hi:g} px"
            print(f"  {name:<5} {span:<12} tables {len(tables[b]):3d}  dice {dice[b]:5d}  wrong {wrong[b]:4d} "
                  f"({_pct(wrong[b], dice[b])})")


def compare(before: Path, after: Path, spec: str) -> None:
    """Turns whose reading changed between two folders of lines (the same renders): status, faces, reasons."""
    a, b = load(before, spec), load(after, spec)
    changed = Counter()
    for first in a:
        old = {(s["seed"], s.get("drift"), s.get("turn")): s for s in a[first]}
        for s in b[first]:
            o = old.get((s["seed"], s.get("drift"), s.get("turn")))
            if o is None or "refused" in s or "refused" in o:
                if ("refused" in s) != (o is None or "refused" in o):
                    print(f"  {s['seed']}: calibration {'refused' if 'refused' in s else 'accepted'} only after")
                continue
            if (o["status"], o["wrong"], o["reasons"]) == (s["status"], s["wrong"], s["reasons"]):
                continue
            silent = s["wrong"] and s["status"] == "ok"
            kind = ("NOW SILENT" if silent and not (o["wrong"] and o["status"] == "ok") else
                    "freed" if o["status"] != "ok" and s["status"] == "ok" else
                    "newly flagged" if o["status"] == "ok" and s["status"] != "ok" else "reasons changed")
            changed[kind] += 1
            print(f"  {kind}: {s['seed']} {s['drift']} {s.get('shot', 't%d' % s['turn'])} wrong {o['wrong']}->{s['wrong']} "
                  f"cocked {s['has_cocked']}: {sorted({reason_kind(r) for r in o['reasons']})} -> "
                  f"{sorted({reason_kind(r) for r in s['reasons']})}")
    print("turns changed:", dict(changed))


def rescore(src: Path, dst: Path, spec: str, turns: int) -> None:
    """Lines read before the bench knew hidden dice (round 14) scored again as it scores now: each true die's
    ``hidden`` (:mod:`rig.bench.twin_hidden`, the turn thrown again) and the turn's right, counted, wrong, has_hidden
    from the stored readings, to ``dst``."""
    from rig.bench.twin_hidden import HIDDEN, hidden_shares

    dst.mkdir(parents=True, exist_ok=True)
    for first, n in seeds(spec):
        for seed in range(first, first + n):
            path = src / f"{seed}.jsonl"
            if not path.exists():
                continue
            lines, shares = [json.loads(s) for s in path.read_text().splitlines()], {}
            if "refused" not in lines[0]:
                table = _table(seed)
                shots = {s.name: s for s in table.shots(turns)}
                for s in lines:
                    if s["shot"] not in shares:
                        shares[s["shot"]] = hidden_shares(table, shots[s["shot"]].dice)
                    for d, share in zip(s["truth"], shares[s["shot"]]):
                        d["hidden"] = share > HIDDEN
                    pairs, extra = match(s)
                    ok = [i is not None and s["seen"][i]["face"] == d["face"] for d, i in zip(s["truth"], pairs)]
                    seen = [(d, k) for d, k in zip(s["truth"], ok) if not d["hidden"]]
                    s["right"] = sum(k for d, k in seen if not d["cocked"])
                    s["counted"] = sum(not d["cocked"] for d, k in seen)
                    s["wrong"] = bool(extra) or not all(k for d, k in seen)
                    s["has_hidden"] = any(d["hidden"] for d in s["truth"])
            (dst / path.name).write_text("".join(json.dumps(s) + "\n" for s in lines))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=SETS, help=f"FIRST:N,... (default {SETS})")
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--spp", type=int, default=8)
    ap.add_argument("--out", type=Path, help="folder of the turn lines, a file per table (kept: delete to read again)")
    ap.add_argument("--tabulate", type=Path, help="only tabulate the lines in this folder")
    ap.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"), help="the turns whose reading changed")
    ap.add_argument("--propped", action="store_true",
                    help="read the tables' propped turns (--turns of them; fit_cocked.py reads 6) instead of the thrown ones")
    ap.add_argument("--rescore", type=Path, nargs=2, metavar=("FROM", "TO"),
                    help="score lines read before round 14 again, hidden dice apart")
    args = ap.parse_args(argv)
    if args.rescore:
        rescore(*args.rescore, args.sets, args.turns)
        tabulate(args.rescore[1], args.sets)
        return 0
    if args.compare:
        compare(*args.compare, args.sets)
        return 0
    if args.tabulate:
        tabulate(args.tabulate, args.sets)
        return 0
    if args.out is None:
        ap.error("--out or --tabulate")
    collect(args.sets, args.turns, args.spp, args.out, args.propped)
    tabulate(args.out, args.sets)
    return 0


if __name__ == "__main__":
    sys.exit(main())
