from pathlib import Path

from rig.engine.paths import database_path, default_data_dir, resolve_data_dir


def test_systemd_state_directory_wins_over_the_user_directory():
    env = {"STATE_DIRECTORY": "/var/lib/rig", "XDG_DATA_HOME": "/home/ada/.data", "HOME": "/home/ada"}
    assert default_data_dir(env) == Path("/var/lib/rig")


def test_user_directory_without_the_service():
    assert default_data_dir({"HOME": "/home/ada"}) == Path("/home/ada/.local/share/rig")
    assert default_data_dir({"HOME": "/home/ada", "XDG_DATA_HOME": "relative"}) == Path("/home/ada/.local/share/rig")


def test_explicit_then_config_then_default():
    env = {"HOME": "/home/ada"}
    assert resolve_data_dir("/a", configured="/b", env=env) == Path("/a")
    assert resolve_data_dir(None, configured="/b", env=env) == Path("/b")
    assert resolve_data_dir(None, env=env) == Path("/home/ada/.local/share/rig")
    assert database_path("/a").name == "rig.sqlite3"
