"""``rig bench reveal``: reveals that were booked wrong in silence (seeds 1-500 of the bench), laid again."""

import pytest


@pytest.mark.parametrize("seed", [111, 235, 315, 416, 458])
def test_a_reveal_once_booked_wrong_in_silence_is_booked_right(seed):
    # 111, 416: a blue card laid on a blue one with nearly the same edges; 235: a pile of askew yellow cards
    # that is no card's shape; 458: a blank pile read only in two still frames in a row (noise); 315: a pile
    # touching the row's first card, gray on top: the pile vanished from the view (found in the final run)
    from rig.bench.reveal import lay
    from rig.vision.profile import Profile, default_profile_path

    r = lay(seed, Profile.load(default_profile_path()), 4)
    assert r["silent"] == 0
    assert r["booked"] == r["cards"]


def test_bad_arguments_are_refused_in_one_line(capsys):
    from rig.cli import main

    assert main(["bench", "reveal", "--frames", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--frames" in err


def test_twin_reveals_per_table_must_be_at_least_one(capsys):
    from rig.cli import main

    assert main(["bench", "reveal", "--twin", "1", "--per-table", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--per-table must be at least 1" in err.replace("--reveals and ", "")
