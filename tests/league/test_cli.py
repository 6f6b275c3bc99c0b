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
])
def test_bad_arguments_exit_2_with_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
