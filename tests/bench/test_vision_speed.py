"""``rig bench vision`` prints the reader's CPU time beside its wall-clock median (issue 24, round 10): on a
shared machine the wall clock is what the other jobs leave, the CPU time what the reader costs."""

from __future__ import annotations

from rig.cli import main


def test_the_speed_table_has_the_least_cpu_time(capsys):
    assert main(["bench", "vision", "--conditions", "neutral", "--frames", "2", "--timing-frames", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(out) if line.startswith("size "))
    assert out[head].split()[:3] == ["size", "read_dice", "CPU"]
    for row in out[head + 1 : head + 3]:
        size, wall, cpu = row.split()[:3]
        assert size in ("640x480", "1280x960") and 0 < float(cpu) and 0 < float(wall)
    assert "(CPU, one thread)" in out[-1]
