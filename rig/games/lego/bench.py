"""``rig bench vision --game lego``: the LEGO Dice's top colour on rendered frames."""

from __future__ import annotations

import statistics
import time


def run(args) -> int:
    """The LEGO Dice's top colour on rendered frames (every colour equally often)."""
    from collections import Counter

    from rig.games.lego.reader import LEGO_PALETTE, read_lego, render_lego
    from rig.vision.pips import PipParams

    params = PipParams.load(getattr(args, "params", None))
    names = list(LEGO_PALETTE)
    n = max(1, getattr(args, "rendered", 100))
    right, flagged, wrong = 0, 0, Counter()
    times = []
    for k in range(n):
        face = names[k % len(names)]
        frame, _ = render_lego(args.seed * 100_003 + k, face)
        t = time.perf_counter()
        reading = read_lego(frame, params)
        times.append(time.perf_counter() - t)
        right += reading.face == face
        flagged += reading.status != "ok"
        if reading.face != face:
            wrong[f"{face} read as {reading.face}"] += 1
    print(f"rig bench vision --game lego: {n} rendered frames, seed {args.seed}")
    print(f"[rendered LEGO Dice] face right {right}/{n} = {100 * right / n:.1f}%, flagged {flagged}, "
          f"{statistics.median(times) * 1000:.2f} ms per frame")
    for what, count in wrong.most_common():
        print(f"  {count} x {what}")
    return 0
