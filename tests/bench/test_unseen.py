"""The unseen-table generator (independent of the virtual table) and ``rig bench vision --unseen``."""

import inspect
from pathlib import Path

import numpy as np
import pytest

from rig.bench import tables
from rig.bench.tables import DRIFTS, Table
from rig.bench.unseen import score
from rig.cli import main
from rig.vision.calibrate import fit_profile
from rig.vision.dice import read_dice

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


def test_the_generator_shares_nothing_with_the_virtual_table():
    source = inspect.getsource(tables)
    assert "from rig.vision" not in source and "import rig.vision" not in source


def test_tables_are_seeded_and_varied():
    a, b = Table.random(4, data=None), Table.random(4, data=None)
    fa, ta = a.turn(2)
    fb, tb = b.turn(2)
    assert np.array_equal(fa, fb) and ta == tb
    sizes = {round(Table.random(s, data=None).die) for s in range(12)}
    assert min(sizes) < 50 and max(sizes) > 90


def test_the_ritual_shows_six_dice_and_an_empty_box():
    table = Table.random(2, data=None)
    frames, empty = table.ritual()
    assert set(frames) == {"blue", "pink", "yellow", "blank"}
    assert all(f.shape == empty.shape for f in frames.values())


@pytest.mark.skipif(not (DATA / "real-pip-dice").is_dir(), reason="needs the photographs in ../shared/data")
def test_wood_floors_are_cut_from_the_photographs():
    kinds = {Table.random(s, data=DATA).texture for s in range(12)}
    assert "wood" in kinds or "tray" in kinds


def test_an_unseen_table_calibrates_and_reads_after_drift():
    table = Table.random(7, data=None)  # 640x480, tuning set
    frames, empty = table.ritual()
    profile = fit_profile(frames, empty=empty).profile
    right = counted = silent = 0
    for drift in ("same", "exp x0.8", "wb warmer"):
        for k in range(3):
            frame, truth = table.turn(k, DRIFTS[drift])
            reading = read_dice(frame, profile)
            r, c, wrong, _ = score(truth, reading, 0.6 * table.die)
            right, counted = right + r, counted + c
            silent += wrong and reading.ok
    assert silent == 0 and right >= counted - 1


def test_bench_unseen_prints_per_table_and_per_light(capsys):
    assert main(["bench", "vision", "--unseen", "--tables", "1", "--first-table", "7", "--turns", "1",
                 "--textures", "/nonexistent"]) == 0
    out = capsys.readouterr().out
    assert "calibration accepted" in out and "all tables: calibration accepted on 1 of 1" in out
    for name in DRIFTS:
        assert name in out
    assert "ms per frame" in out
