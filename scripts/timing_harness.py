"""The command line two speed scripts share (``speed_corpus.py`` for ``read_dice``, ``pip_speed.py`` for the pip
reader): build a frame corpus, time two checkouts frame by frame in one process (who goes first alternating), record
one checkout's readings and CPU time, compare two records — and say whether every reading stayed the same."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

import cv2


def print_table(rows: dict[str, dict[str, list[float]]], names: list[str]) -> None:
    """The median CPU ms per set and version; for two versions their ratio, the median of the ratios frame by frame
    (the two reads of a frame were made back to back: on a loaded machine the steadier figure) and the ratio of the
    set's total CPU times (a pass run on a few frames of a set moves the total, not the medians)."""
    two = len(names) == 2
    print(f"{'set':<27} {'frames':>6} " + " ".join(f"{n:>10}" for n in names)
          + ("   after/before  per frame  total" if two else ""))
    for name, spent in rows.items():
        meds = [statistics.median(spent[n]) for n in names]
        paired = statistics.median(b / a for a, b in zip(spent[names[0]], spent[names[1]])) if two else 0.0
        total = sum(spent[names[1]]) / max(sum(spent[names[0]]), 1e-9) if two else 0.0
        ratio = f"   {meds[1] / meds[0]:12.2f}  {paired:9.2f}  {total:5.2f}" if two else ""
        print(f"{name:<27} {len(spent[names[0]]):>6} " + " ".join(f"{m:>7.2f} ms" for m in meds) + ratio)


def kinds_of(pairs: dict[str, tuple[dict, dict]], differences: Callable) -> dict[str, list[str]]:
    """The frames' keys by each kind of difference ``differences(before, after)`` names."""
    kinds: dict[str, list[str]] = {}
    for key, (a, b) in pairs.items():
        for kind in differences(a, b):
            kinds.setdefault(kind, []).append(key)
    return kinds


def main(argv: list[str] | None, doc: str, *, root: Path, corpus: Path, reads: int, build: Callable, load: Callable,
         version: Callable, sameness: Callable, frame: Callable, key: Callable, what: str = "") -> int:
    """``version(root)`` has ``.root`` and ``.read(frame(item), reads) -> (reading, ms)``; ``key(item)`` names a
    frame in the records; ``sameness(pairs)`` prints the comparison and returns the exit code."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("build")
    p.add_argument("--dir", type=Path, default=corpus)
    p = sub.add_parser("run")
    p.add_argument("--before", type=Path, required=True)
    p.add_argument("--after", type=Path, default=root)
    p.add_argument("--reads", type=int, default=reads)
    p.add_argument("--dir", type=Path, default=corpus)
    p.add_argument("--sets", default="", help="comma-separated set names (default all)")
    p = sub.add_parser("record")
    p.add_argument("--code", type=Path, default=root)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--reads", type=int, default=reads)
    p.add_argument("--dir", type=Path, default=corpus)
    p = sub.add_parser("compare")
    p.add_argument("a", type=Path)
    p.add_argument("b", type=Path)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.cmd == "build":
        build(args.dir)
        return 0
    if args.cmd == "compare":
        a, b = json.loads(args.a.read_text()), json.loads(args.b.read_text())
        return sameness({k: (a[k]["reading"], b[k]["reading"]) for k in a if k in b})
    items = load(args.dir)
    rows: dict[str, dict[str, list[float]]] = {}
    if args.cmd == "record":
        this, out = version(args.code), {}
        for item in items:
            reading, ms = this.read(frame(item), args.reads)
            out[key(item)] = {"reading": reading, "ms": ms}
            rows.setdefault(item["set"], {"this": []})["this"].append(ms)
        args.out.write_text(json.dumps(out, indent=0))
        print_table(rows, ["this"])
        return 0
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
    versions = {"before": version(args.before), "after": version(args.after)}
    print(f"before: {versions['before'].root}\nafter:  {versions['after'].root}\n"
          f"CPU ms per frame, one thread{what}, least of {args.reads} reads, median over frames; load "
          f"{os.getloadavg()[0]:.1f} at the start")
    pairs = {}
    for j, item in enumerate(i for i in items if not wanted or i["set"] in wanted):
        order = ("before", "after") if j % 2 == 0 else ("after", "before")  # who goes first alternates too
        got = {name: versions[name].read(frame(item), args.reads) for name in order}
        for name in versions:
            rows.setdefault(item["set"], {"before": [], "after": []})[name].append(got[name][1])
        pairs[key(item)] = (got["before"][0], got["after"][0])
    print(f"load {os.getloadavg()[0]:.1f} at the end")
    print_table(rows, ["before", "after"])
    return sameness(pairs)


def import_from(root: Path, *names: str, package: dict | None = None) -> list:
    """The modules ``names`` (``rig.…``) imported from the checkout at ``root`` as a ``rig`` package of its own:
    sys.modules is put back afterwards, and the functions keep their own modules. ``package``, when given, is filled
    with that package's modules (name: module), for :func:`in_place`."""
    mine = _take_rig()
    sys.path.insert(0, str(root))
    try:
        modules = [importlib.import_module(name) for name in names]
        if not Path(modules[0].__file__).resolve().is_relative_to(root):
            raise SystemExit(f"{root}: imported {modules[0].__file__} instead")
    finally:
        sys.path.remove(str(root))
        theirs = _take_rig()
        sys.modules.update(mine)
    if package is not None:
        package.update(theirs)
    return modules


@contextlib.contextmanager
def in_place(package: dict):
    """``package`` (:func:`import_from`'s) in sys.modules while the block runs: an import made inside a function
    at call time (``from rig.vision.card_empty import kept``) finds that checkout's module, not another ``rig`` on
    the path (issue 24, round 28: until then the corpus timed the side-face checks of neither version, their empty
    box's picture kept in the checkout's module but looked up in a fresh one). Modules first imported in the block
    are kept in ``package``."""
    mine = _take_rig()
    sys.modules.update(package)
    try:
        yield
    finally:
        package.update(_take_rig())
        sys.modules.update(mine)


def _take_rig() -> dict:
    """The ``rig`` package's modules, taken out of sys.modules."""
    taken = {k: v for k, v in sys.modules.items() if k == "rig" or k.startswith("rig.")}
    for k in taken:
        del sys.modules[k]
    return taken
