"""``rig league`` and ``rig bench league`` refuse bad arguments with one line and exit code 2."""

import pytest

from rig.cli import main


@pytest.mark.parametrize("argv, message", [
    (["league", "--ca-file", "ca.pem"], "--ca-file needs --tls"),
    (["league", "--broker", "host:99999"], "port must be a number"),
    (["league", "--password-file", "/nonexistent/pw"], "cannot read the password file"),
    (["league", "--tables", "5"], "--tables is for --demo"),
    (["league", "--demo", "--tables", "0"], "--tables must be 1 to 50"),
    (["bench", "league", "--tables", "51"], "--tables must be 1 to 50"),
    (["league", "--data-dir", "/etc/passwd/x", "--port", "0"], "cannot create the league's data folder"),
    (["league", "--health", "--data-dir", "/nonexistent"], "no league database here"),
    (["league", "--health", "--demo"], "cannot go with --demo"),
])
def test_bad_arguments_exit_2_with_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_a_foreign_file_where_the_league_database_goes_is_left_alone(tmp_path, capsys):
    (tmp_path / "league.sqlite3").write_bytes(b"not a database at all")
    assert main(["league", "--data-dir", str(tmp_path), "--port", "0"]) == 2
    assert "left untouched" in capsys.readouterr().err
    assert (tmp_path / "league.sqlite3").read_bytes() == b"not a database at all"


def test_health_of_a_foreign_file_is_one_line_and_touches_nothing(tmp_path, capsys):
    (tmp_path / "league.sqlite3").write_bytes(b"not a database at all")
    assert main(["league", "--health", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "league" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.sqlite3"]
