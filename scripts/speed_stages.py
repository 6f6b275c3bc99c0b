"""Where ``read_dice``'s CPU time goes, stage by stage, on the speed corpus (issue 24, round 16).

    .venv/bin/python scripts/speed_stages.py --set "twin 640x480" [--code DIR] [--dir ~/.cache/rig/speed/corpus12]

Each stage (a function of the reader) is wrapped by a timer of CPU time; every frame of the set is read once unwrapped
(the profile's maps made), then ``--reads`` times timed. Printed per stage: its inclusive CPU time a frame (nested
stages inside their callers: ``judge`` holds ``_around``, ``leans`` and ``wrong_way``) and its calls a frame.
Round 20 added the stages rounds 17-19 brought (the light's ``measure``, ``dark_tops``, ``shade_tops``, ``cut_tops``,
the combo half's ``half_partner`` and ``_one_frog``, the second look's ``look``, ``crop`` and ``whole_in_shade``, ...),
and wraps a stage wherever a module of ``rig.vision`` holds it by name; round 25 the wall-side check (``wall_side_flags``,
``body_share``); round 26 round 25's new steps (``held_blob``, ``surrounded``, ``deeply_veiled``, ``cut_by_shade``) and
``speckless``, ``_shade_blobs``. The
wrappers cost a little each call: compare stages within one run, not with ``scripts/speed_corpus.py``'s times.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import collections  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

#: (module, function) of the reader timed as a stage (every reference to it in rig.vision's modules is wrapped: a
#: stage imported by name elsewhere is timed there too)
STAGES = [("dice_frames", n) for n in ("shrink", "_measured", "measure", "apply_change", "_censored", "label_pixels",
                                       "_lift_shade")] + \
    [("dice", n) for n in ("prepare", "read_labels", "_die", "_blob", "_wall_hulls", "_full_counts", "_crop", "_one_frog",
                           "_split", "one_place_twice")] + \
    [("dice_missed", n) for n in ("dark_dice", "dark_tops", "shade_dice", "shade_tops", "cut_tops", "glared_die",
                                  "print_spot")] + \
    [("dice_overall", "overall_counts"), ("dice_hue", "off_hue"), ("dice_hue", "veiled"), ("dice_combo", "half_partner"),
     ("dice_blobs", "unsplit")] + \
    [("dice_second_look", n) for n in ("second_look", "look", "crop", "whole_in_shade")] + \
    [("dice_upright", n) for n in ("judge", "wrong_way", "side_faces")] + \
    [("dice_cocked", n) for n in ("leans", "_around", "_joined", "flank_shape")] + \
    [("dice_lampside", n) for n in ("side_face_flags", "turned_to_lens", "empty_lightness")] + \
    [("dice_wallside", n) for n in ("wall_side_flags", "body_share")] + \
    [("dice_missed", "_shade_blobs"), ("dice_blobs", "held_blob"), ("dice_surround", "surrounded"),
     ("dice_hue", "deeply_veiled"), ("dice_specks", "speckless"), ("dice_shade_cut", "cut_by_shade"),
     ("dice_unchanged", "unchanged_flags"), ("dice_crease", "creased_dice"), ("dice_wallside", "wall_side_faces")]


def stages(items: list[dict], reads: int) -> tuple[dict, dict]:
    """CPU seconds and calls per stage over ``reads`` reads of every item (the ``rig`` package imported now)."""
    import importlib

    from rig.vision import card_empty
    from rig.vision.dice import read_dice
    from rig.vision.profile import Profile

    spent, calls = collections.Counter(), collections.Counter()
    on = [0]

    def wrap(mod, name, f):
        def timed(*a, **k):
            t0 = time.process_time()
            out = f(*a, **k)
            spent[name] += (time.process_time() - t0) * on[0]
            calls[name] += on[0]
            return out

        setattr(mod, name, timed)

    for module, name in STAGES:
        try:
            mod = importlib.import_module(f"rig.vision.{module}")
        except ModuleNotFoundError:  # a stage an older tree lacks
            continue
        if not hasattr(mod, name):
            continue
        f = getattr(mod, name)
        for other in [m for k, m in list(sys.modules.items()) if k.startswith("rig.vision.") and m is not None]:
            if getattr(other, name, None) is f:
                wrap(other, name, f)
    profiles: dict[str, Profile] = {}
    for item in items:
        if item["profile"] not in profiles:
            profiles[item["profile"]] = Profile.parse(item["toml"])
            card_empty.recall(profiles[item["profile"]], item["profile_path"])  # kept by the corpus (round 22)
        profile = profiles[item["profile"]]
        read_dice(item["frame"], profile, thrown=item["thrown"])
        on[0] = 1
        for _ in range(reads):
            read_dice(item["frame"], profile, thrown=item["thrown"])
        on[0] = 0
    return spent, calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", required=True, help='a set of the corpus, e.g. "twin 640x480"')
    parser.add_argument("--code", type=Path, default=ROOT, help="a tree holding rig/ (default: this one)")
    parser.add_argument("--dir", type=Path, default=Path.home() / ".cache" / "rig" / "speed" / "corpus12")
    parser.add_argument("--reads", type=int, default=3)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    sys.path.insert(0, str(args.code.resolve()))
    import speed_corpus

    items = [i for i in speed_corpus.load_corpus(args.dir) if i["set"] == args.set]
    spent, calls = stages(items, args.reads)
    n = args.reads * max(1, len(items))
    import rig

    print(f"{args.set}: {len(items)} frames, {args.reads} reads each, load {os.getloadavg()[0]:.1f} "
          f"({Path(rig.__file__).parents[1]})")
    for name, s in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {name:16s} {1000 * s / n:6.2f} ms   calls a frame {calls[name] / n:5.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
