"""`rig bench start` prints the start-up figures against their targets (it asserts no time)."""

from __future__ import annotations

import re

from rig.cli import main


def test_bench_start_prints_a_line_per_command_with_its_target(capsys):
    assert main(["bench", "start", "--repeat", "1", "--no-run"]) == 0
    out = capsys.readouterr().out
    assert "load average" in out
    for label, target in (("rig --help", "0.3"), ("rig score FILE", "0.3"), ("rig doctor", "1")):
        assert re.search(rf"^  {re.escape(label)} +[\d.]+s +[\d.]+s +[\d.]+s  ≤ {target} s (met|NOT met)", out, re.M), out
    assert "(exit" not in out.split("rig score FILE")[1].splitlines()[0]  # the example was scored
