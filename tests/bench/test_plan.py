"""`rig bench plan` runs and prints its figures (a small run: one height, one frame per lighting)."""

from __future__ import annotations

import re

from rig.cli import main


def test_bench_plan_prints_die_error_and_flag_rates(capsys):
    assert main(["bench", "plan", "--no-parts", "--frames", "1", "--heights", "40"]) == 0
    out = capsys.readouterr().out
    assert "40 cm: plan 54.8 px; measured: neutral" in out
    assert re.search(r"die px within 5 % of the plan: \d+/\d+ calibrated", out)
    assert re.search(r"calibration refused \d+/5", out)
    assert re.search(r"in view wrongly flagged \d+/8 .*moved camera caught \d+/8", out)
