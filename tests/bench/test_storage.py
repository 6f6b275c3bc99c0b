"""The CI-sized storage campaign (`rig bench storage --flips 100` for the figures): seeded bit flips in the
db and its -wal, cuts, a deleted -wal, foreign and newer files with a live -wal, a full disk."""

from rig.bench.storage import campaign


def test_a_bounded_storage_campaign_changes_no_refused_file_and_loses_nothing_in_silence(tmp_path):
    figures = campaign(tmp_path, 12, seed=16)
    assert figures["refused_changed"] == 0 and figures["crashes"] == 0, figures["examples"]
    assert figures["lost_silently"] == 0, figures["examples"]
    assert figures["lost_noticed"] >= 1  # the deleted -wal at least: the notice is really exercised
    assert figures["outcomes"].get("refused", 0) >= 3  # the foreign and newer files, the emptied db
    first, healthy = figures["full_first"], figures["full_healthy"]
    assert first["code"] == 75 and not first["empty_left"] and first["restarted"] and not first["says_damaged"]
    assert healthy["restarted"] and not healthy["says_damaged"] and not healthy["changed"]
