"""rig.config: the config file is read exactly, and every mistake is refused with its key and line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rig.config import (
    DEFAULT_PINS,
    CameraConfig,
    PlayerInput,
    RigConfig,
    ServerConfig,
    normalize_pin,
)
from rig.errors import ConfigError, RigError

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "rig.toml"

THREE = """\
[[players]]
name = "Ada"
pin = "GPIO17"

[[players]]
name = "Ben"
pin = "GPIO27"
kind = "beam"

[[players]]
name = "Cleo"
pin = "GPIO22"
"""


def refused(text: str, source: str = "rig.toml") -> str:
    with pytest.raises(ConfigError) as caught:
        RigConfig.parse(text, source=source)
    return str(caught.value)


# --------------------------------------------------------------------------- what is accepted


def test_default_has_five_simulated_players_on_the_recommended_pins():
    config = RigConfig.default()
    assert [p.name for p in config.players] == ["Ada", "Ben", "Cleo", "Dev", "Eli"]
    assert [p.pin for p in config.players] == list(DEFAULT_PINS[:5])
    assert {p.kind for p in config.players} == {"button"}
    assert config.camera == CameraConfig("virtual", 1280, 960, 30)
    assert config.server == ServerConfig("127.0.0.1", 8080)
    assert config.profile is None and config.data_dir is None
    assert config.warnings() == ()


def test_recommended_pins_have_no_other_job_and_are_distinct():
    assert len(set(DEFAULT_PINS)) == 8
    from rig.config import RESERVED_PINS

    assert not {int(p[4:]) for p in DEFAULT_PINS} & set(RESERVED_PINS)


def test_a_full_file_is_read_into_the_dataclasses(tmp_path):
    (tmp_path / "cal").mkdir()
    path = tmp_path / "rig.toml"
    path.write_text(
        'profile = "cal/p.toml"\ndata_dir = "data"\n' + THREE + """
[camera]
source = "replay:rec/game1"
width = 640
height = 480
fps = 15

[server]
listen = "0.0.0.0"
port = 9000

[game]
name = "frogs"
turns_each = 4
penalty_per_violation = 2

[tosses]
lockout_ms = 12.5
stuck_after_s = 4
hold_confirm_s = 1.5
order_window_ms = 2
""",
        encoding="utf-8",
    )
    config = RigConfig.load(path)
    assert config.players == (
        PlayerInput("Ada", "GPIO17", "button"),
        PlayerInput("Ben", "GPIO27", "beam"),
        PlayerInput("Cleo", "GPIO22", "button"),
    )
    # relative paths resolve against the file's folder, not the working directory
    assert config.profile == (tmp_path / "cal" / "p.toml").resolve()
    assert config.data_dir == (tmp_path / "data").resolve()
    assert config.camera == CameraConfig(f"replay:{(tmp_path / 'rec' / 'game1').resolve()}", 640, 480, 15)
    assert config.server == ServerConfig("0.0.0.0", 9000)
    assert (config.game.name, config.game.turns_each, config.game.penalty_per_violation) == ("frogs", 4, 2)
    assert config.turns_each == 4
    assert (config.tosses.lockout_ms, config.tosses.stuck_after_s, config.tosses.hold_confirm_s) == (12.5, 4.0, 1.5)
    assert isinstance(config.tosses.stuck_after_s, float)
    assert config.tosses.order_window_ms == 2.0 and isinstance(config.tosses.order_window_ms, float)
    assert RigConfig.default().tosses.order_window_ms == 5.0
    assert config.path == path


def test_absolute_and_home_paths_are_kept(tmp_path):
    config = RigConfig.parse(f'profile = "{tmp_path}/p.toml"\ndata_dir = "~/rigdata"\n', base=Path("/elsewhere"))
    assert config.profile == tmp_path / "p.toml"
    assert config.data_dir == (Path.home() / "rigdata").resolve()


def test_turns_each_defaults_to_the_rulebook():
    def with_players(n):
        text = "".join(f'[[players]]\nname = "P{i}"\npin = "{DEFAULT_PINS[i]}"\n' for i in range(n))
        return RigConfig.parse(text)

    assert [with_players(n).turns_each for n in range(3, 9)] == [3, 2, 2, 1, 1, 1]


@pytest.mark.parametrize("written", ["GPIO17", "gpio17", "BCM17", "17", "BOARD11", "J8:11", " GPIO17 "])
def test_every_gpiozero_spelling_of_a_pin_is_one_pin(written):
    assert normalize_pin(written) == "GPIO17"


def test_a_replay_may_loop():
    config = RigConfig.parse('[camera]\nsource = "replay:/rec"\nloop = true\n')
    assert config.camera.loop is True and config.camera.source == "replay:/rec"
    assert RigConfig.parse('[camera]\nsource = "replay:/rec"\n').camera.loop is False
    assert "camera: replay:/rec 1280x960 @ 30 fps, looped" in config.describe()


@pytest.mark.parametrize("source", ["picamera2", "virtual", "usb:0", "usb:12", "usb:/dev/video2"])
def test_camera_sources(source):
    assert RigConfig.parse(f'[camera]\nsource = "{source}"\n').camera.source == source


def test_the_shipped_example_is_valid_and_documents_every_key():
    config = RigConfig.load(EXAMPLE)
    assert len(config.players) == 5 and {p.kind for p in config.players} == {"button", "beam"}
    text = EXAMPLE.read_text(encoding="utf-8")
    keys = ["profile", "data_dir", "[[players]]", "name", "pin", "kind", "[camera]", "source", "width",
            "height", "fps", "loop", "[server]", "listen", "port", "[game]", "turns_each", "penalty_per_violation",
            "[tosses]", "lockout_ms", "stuck_after_s", "hold_confirm_s", "order_window_ms", "tie_window_us",
            "[evidence]", "keep", "max_age_days", "max_mb", "width", "quality", "min_press_ms",
            "camera_num", "rotation", "hflip", "vflip", "crop", "focus", "flicker_hz"]
    for key in keys:
        assert re.search(rf"^#?\s*{re.escape(key)}( =|$)", text, re.M), key


def test_the_packaged_example_is_the_same_file():
    packaged = Path(__file__).resolve().parents[1] / "rig" / "examples" / "rig.toml"
    assert packaged.read_text(encoding="utf-8") == EXAMPLE.read_text(encoding="utf-8")


def test_every_key_is_in_the_reference_doc():
    doc = (Path(__file__).resolve().parents[1] / "docs" / "config.md").read_text(encoding="utf-8")
    for key in ["profile", "data_dir", "name", "pin", "kind", "source", "width", "height", "fps", "loop", "listen",
                "port", "turns_each", "penalty_per_violation", "lockout_ms", "stuck_after_s", "hold_confirm_s",
                "order_window_ms", "min_press_ms", "camera_num", "rotation", "crop", "focus", "flicker_hz"]:
        assert f"`{key}`" in doc, key


# --------------------------------------------------------------------------- every refusal


def test_errors_are_rig_errors():
    assert issubclass(ConfigError, RigError) and issubclass(ConfigError, ValueError)


def test_duplicate_pin_names_the_key_the_line_and_the_other_player():
    text = THREE.replace('pin = "GPIO22"', 'pin = "GPIO27"')
    assert refused(text) == "rig.toml:12: players[2].pin: GPIO27 is already used by Ben"


def test_duplicate_pin_written_differently_is_still_a_duplicate():
    text = THREE.replace('pin = "GPIO22"', 'pin = "BOARD13"')
    assert refused(text) == "rig.toml:12: players[2].pin: BOARD13 (GPIO27) is already used by Ben"


def test_duplicate_player_name_ignores_case():
    text = THREE.replace('name = "Cleo"', 'name = "ada"')
    assert refused(text) == "rig.toml:11: players[2].name: ada is already a player (players[0])"


@pytest.mark.parametrize(
    "text, expected",
    [
        ('colour = "red"\n', "rig.toml:1: colour: unknown key"),
        ('[camera]\nsource = "usb:0"\nwidht = 640\n', "rig.toml:3: camera.widht: unknown key (known: source, width"),
        ("[camera]\nsource = 'virtual'\n\n[camera.extra]\nx = 1\n", "rig.toml:4: camera.extra: unknown key"),
        ('[server]\nport = 80\n[tosses]\nlockout = 3\n', "rig.toml:4: tosses.lockout: unknown key"),
        ('[gaem]\nname = "frogs"\n', "rig.toml:1: gaem: unknown key"),
        ('[camera]\nsorce = "usb:0"\n', "rig.toml:2: camera.sorce: unknown key (known: source, width, height, fps, loop, camera_num, rotation, "
         "hflip, vflip, crop, focus, flicker_hz); "
                                       "did you mean source?"),
        ('[server]\nport = 8080\nprofile = "p.toml"\n',
         "rig.toml:3: server.profile: unknown key (known: listen, port); profile is a top-level key: move it above"),
        (THREE + 'colour = "red"\n', "rig.toml:13: players[2].colour: unknown key (known: name, pin, kind)"),
    ],
)
def test_unknown_keys_are_refused_with_their_line(text, expected):
    assert refused(text).startswith(expected)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("[camera]\nwidth = \"1280\"\n", "rig.toml:2: camera.width: must be a whole number, not a string ('1280')"),
        ("[camera]\nwidth = 1280.0\n", "rig.toml:2: camera.width: must be a whole number, not a number (1280.0)"),
        ("[camera]\nfps = true\n", "rig.toml:2: camera.fps: must be a whole number, not true/false (True)"),
        ("[camera]\nsource = 0\n", "rig.toml:2: camera.source: must be a string in quotes, not a whole number (0)"),
        ("[server]\nport = \"8080\"\n", "rig.toml:2: server.port: must be a whole number"),
        ("[server]\nlisten = 127\n", "rig.toml:2: server.listen: must be a string in quotes"),
        ("[tosses]\nlockout_ms = \"30\"\n", "rig.toml:2: tosses.lockout_ms: must be a number, not a string"),
        ("[tosses]\nstuck_after_s = false\n", "rig.toml:2: tosses.stuck_after_s: must be a number, not true/false"),
        ("[game]\nturns_each = 2.5\n", "rig.toml:2: game.turns_each: must be a whole number"),
        ("profile = 3\n", "rig.toml:1: profile: must be a string in quotes"),
        ("data_dir = [\"a\"]\n", "rig.toml:1: data_dir: must be a string in quotes, not a list"),
        ("camera = \"usb:0\"\n", "rig.toml:1: camera: must be a table ([camera]), not a string"),
        ("players = \"Ada, Ben\"\n", "rig.toml:1: players: must be a list of [[players]] tables"),
        (THREE.replace('pin = "GPIO17"', "pin = 17"), "rig.toml:3: players[0].pin: must be a string in quotes"),
        (THREE.replace('kind = "beam"', "kind = 1"), "rig.toml:8: players[1].kind: must be a string in quotes"),
    ],
)
def test_wrong_types_are_refused_with_their_line(text, expected):
    assert refused(text).startswith(expected)


@pytest.mark.parametrize(
    "text, expected",
    [
        (THREE.replace('kind = "beam"', 'kind = "laser"'),
         "rig.toml:8: players[1].kind: 'laser' is not an input kind (one of: button, beam)"),
        (THREE.replace('pin = "GPIO17"', 'pin = "GPIO40"'),
         "rig.toml:3: players[0].pin: GPIO40 is not a GPIO on the 40-pin header (GPIO0 to GPIO27)"),
        (THREE.replace('pin = "GPIO17"', 'pin = "pin eleven"'),
         "rig.toml:3: players[0].pin: 'pin eleven' is not a pin name"),
        (THREE.replace('pin = "GPIO17"', 'pin = "BOARD6"'),
         "rig.toml:3: players[0].pin: BOARD6: header pin 6 is not a GPIO"),
        (THREE.replace('pin = "GPIO17"', 'pin = "GPIO0"'),
         "rig.toml:3: players[0].pin: GPIO0 is reserved for the HAT ID EEPROM"),
        (THREE.replace('name = "Ben"', 'name = "  "'), "rig.toml:6: players[1].name: is empty"),
        (THREE.replace('name = "Ben"', 'name = "' + "B" * 25 + '"'), "rig.toml:6: players[1].name: 'BBBB"),
        (THREE.replace('name = "Ben"\n', ""), "rig.toml:5: players[1]: has no name"),
        (THREE.replace('pin = "GPIO22"\n', ""), "rig.toml:10: players[2]: has no pin"),
        ('[camera]\nsource = "webcam"\n',
         "rig.toml:2: camera.source: 'webcam' is not a camera (one of: picamera2, usb:N, replay:PATH, virtual)"),
        ('[camera]\nsource = "usb:first"\n', "rig.toml:2: camera.source: 'usb:first': write the USB camera's number"),
        ('[camera]\nsource = "replay:"\n', "rig.toml:2: camera.source: \"replay:\" needs a recording"),
        ("[camera]\nwidth = 0\n", "rig.toml:2: camera.width: 0 is out of range (160 to 4608)"),
        ("[camera]\nheight = 99999\n", "rig.toml:2: camera.height: 99999 is out of range"),
        ("[camera]\nfps = 0\n", "rig.toml:2: camera.fps: 0 is out of range (1 to 120)"),
        ("[server]\nport = 0\n", "rig.toml:2: server.port: 0 is out of range (1 to 65535)"),
        ("[server]\nport = 70000\n", "rig.toml:2: server.port: 70000 is out of range"),
        ('[server]\nlisten = "my rig!"\n', "rig.toml:2: server.listen: 'my rig!' is not an address"),
        ('[game]\nname = "chess"\n', "rig.toml:2: game.name: 'chess' is not a game the rig scores (one of: frogs, blitz, lego, banana)"),
        ("[game]\nturns_each = 0\n", "rig.toml:2: game.turns_each: 0 is out of range (1 to 20)"),
        ("[game]\npenalty_per_violation = -1\n", "rig.toml:2: game.penalty_per_violation: -1 is out of range"),
        ("[tosses]\nlockout_ms = -5\n", "rig.toml:2: tosses.lockout_ms: -5 is out of range (0 to 1000)"),
        ("[tosses]\nlockout_ms = nan\n", "rig.toml:2: tosses.lockout_ms: nan is out of range"),
        ("[tosses]\nstuck_after_s = 0\n", "rig.toml:2: tosses.stuck_after_s: 0 is out of range"),
        ("[tosses]\nhold_confirm_s = 60\n", "rig.toml:2: tosses.hold_confirm_s: 60 is out of range (0.2 to 10)"),
        ("[tosses]\norder_window_ms = -1\n", "rig.toml:2: tosses.order_window_ms: -1 is out of range (0 to 100)"),
        ("[tosses]\norder_window_ms = 500\n", "rig.toml:2: tosses.order_window_ms: 500 is out of range (0 to 100)"),
        ("[tosses]\norder_window_ms = \"5\"\n", "rig.toml:2: tosses.order_window_ms: must be a number, not a string"),
        ('profile = ""\n', "rig.toml:1: profile: is empty"),
        ('[camera]\nsource = "usb:0"\nloop = true\n',
         "rig.toml:3: camera.loop: only a recording (\"replay:PATH\") can loop, not 'usb:0'"),
        ('[camera]\nsource = "replay:/rec"\nloop = "yes"\n', "rig.toml:3: camera.loop: must be true or false, not a string"),
    ],
)
def test_bad_values_are_refused_with_their_line(text, expected):
    assert refused(text).startswith(expected)


def test_too_few_and_too_many_players():
    two = THREE.split("[[players]]\nname = \"Cleo\"")[0]
    assert refused(two) == "rig.toml:1: players: 2 players configured; the rig needs 3 to 8"
    nine = "".join(f'[[players]]\nname = "P{i}"\npin = "GPIO{n}"\n'
                   for i, n in enumerate((17, 27, 22, 5, 6, 26, 23, 24, 13)))
    assert refused(nine) == "rig.toml:1: players: 9 players configured; the rig needs 3 to 8"
    assert refused("players = []\n") == "rig.toml:1: players: 0 players configured; the rig needs 3 to 8"
    one = '[[players]]\nname = "Ada"\npin = "GPIO17"\n'
    assert refused(one) == "rig.toml:1: players: 1 player configured; the rig needs 3 to 8"


def test_players_as_an_inline_array_point_at_the_array():
    text = ('players = [\n  {name = "Ada", pin = "GPIO17"},\n  {name = "Ben", pin = "GPIO17"},\n'
            '  {name = "Cleo", pin = "GPIO22"},\n]\n')
    assert refused(text) == "rig.toml:1: players[1].pin: GPIO17 is already used by Ada"


def test_dotted_keys_and_quoted_keys_find_their_line():
    assert refused('\n\ncamera.sorce = "usb:0"\n').startswith("rig.toml:3: camera.sorce: unknown key")
    assert refused('[camera]\n"source" = "usb:x"\n').startswith("rig.toml:2: camera.source:")


def test_a_multiline_string_does_not_fool_the_line_finder():
    text = 'profile = """\nport = 1\n"""\n[server]\nport = 0\n'
    assert refused(text).startswith("rig.toml:5: server.port: 0 is out of range")


def test_invalid_toml_gives_tomllibs_line_and_column():
    message = refused('[camera]\nsource = "usb:0\n')
    assert message.startswith("rig.toml: not valid TOML: ")
    assert "line 2" in message


def test_missing_unreadable_and_folder_files(tmp_path):
    with pytest.raises(ConfigError, match=r"nope\.toml: no such config file \(`rig config example > .*nope\.toml`"):
        RigConfig.load(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match="is a folder, not a config file"):
        RigConfig.load(tmp_path)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00rig")
    with pytest.raises(ConfigError, match=r"bin\.toml: not a text file \(UTF-8\)"):
        RigConfig.load(binary)


def test_load_names_the_file_in_errors(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text("[server]\nport = -1\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        RigConfig.load(path)
    assert str(caught.value) == f"{path}:2: server.port: -1 is out of range (1 to 65535)"


# --------------------------------------------------------------------------- warnings


def test_a_pin_with_another_job_is_allowed_but_warned_about():
    config = RigConfig.parse(THREE.replace('pin = "GPIO22"', 'pin = "GPIO2"'))
    assert config.players[2].pin == "GPIO2"
    (warning,) = config.warnings()
    assert warning.startswith("players[2].pin: GPIO2 (Cleo) is also I2C (SDA)")
    assert "free pins: GPIO22, GPIO5" in warning


def test_describe_lists_players_and_settings():
    lines = RigConfig.parse(THREE).describe()
    assert lines[0] == "3 players:"
    assert "Ben" in lines[2] and "beam" in lines[2] and "GPIO27" in lines[2] and "header pin 13" in lines[2]
    assert "game: frogs, turns each: auto (3), penalty per violation: 0" in lines


def test_the_default_config_path_is_the_env_then_the_installed_file(tmp_path, monkeypatch):
    from rig.config import default_config_path

    installed = tmp_path / "etc-rig.toml"
    monkeypatch.delenv("RIG_CONFIG", raising=False)
    assert default_config_path(installed) is None
    installed.write_text(THREE)
    assert default_config_path(installed) == installed
    monkeypatch.setenv("RIG_CONFIG", str(tmp_path / "mine.toml"))
    assert default_config_path(installed) == tmp_path / "mine.toml"


# --------------------------------------------------------------------------- [camera] on the Pi (issue 14)


def test_camera_pi_keys():
    text = ('[camera]\nsource = "picamera2"\ncamera_num = 1\nrotation = 180\nhflip = true\n'
            'crop = [0.1, 0, 0.8, 1]\nfocus = 35\nflicker_hz = 60\n')
    cam = RigConfig.parse(text).camera
    assert (cam.camera_num, cam.hflip, cam.vflip, cam.crop, cam.focus, cam.flicker_hz) == (
        1, False, True, (0.1, 0.0, 0.8, 1.0), 35.0, 60)  # rotation 180 flips both; hflip undoes one
    assert RigConfig.parse('[camera]\nfocus = "auto"\n').camera.focus == "auto"
    assert RigConfig.default().camera.options()["flicker_hz"] == 50


@pytest.mark.parametrize(
    "text, expected",
    [
        ("[camera]\nrotation = 90\n", "rig.toml:2: camera.rotation: 90: the camera can be turned by 0 or 180 degrees"),
        ("[camera]\nflicker_hz = 55\n", "rig.toml:2: camera.flicker_hz: 55: the mains frequency, 50 or 60 (0: none)"),
        ("[camera]\ncrop = [0.5, 0, 0.6, 1]\n", "rig.toml:2: camera.crop: [0.5, 0.0, 0.6, 1.0]: x + w and y + h"),
        ("[camera]\ncrop = [0, 0, 1]\n", "rig.toml:2: camera.crop: write [x, y, width, height] as fractions"),
        ("[camera]\nfocus = \"near\"\n", "rig.toml:2: camera.focus: cm from the lens to the box bottom"),
        ("[camera]\nfocus = 2\n", "rig.toml:2: camera.focus: 2 is out of range (5 to 1000)"),
        ("[camera]\ncamera_num = 9\n", "rig.toml:2: camera.camera_num: 9 is out of range (0 to 7)"),
    ],
)
def test_camera_pi_keys_refused_with_their_line(text, expected):
    assert refused(text).startswith(expected)


def test_build_section_is_checked_and_described():
    config = RigConfig.parse('[build]\nbox = [300, 220, 40]\ncamera = "c920"\nheight_cm = 45\nmount = "frame"\n'
                             'seats = 6\nbutton_mm = 24\n')
    assert config.build.box == (300.0, 220.0, 40.0) and config.seats == 6 and config.build.button_mm == 24
    assert "build: box 300 x 220 x 40 mm, camera c920 45 cm above it, frame mount, 6 seats, 24 mm buttons" \
        in config.describe()
    assert RigConfig.default().seats == 5  # one per player by default
    for text, message in [('box = [300, 220]', "build.box"), ('button_mm = 27', "24 or 30"),
                          ('camera = "cm4"', "did you mean cm3"), ('mount = "tripod"', "not a mount"),
                          ('height_cm = 5', "out of range"), ('seats = 9', "out of range"),
                          ('box = [300, 220, 190]\nheight_cm = 20', "above the box"), ('lens = 1', "unknown key")]:
        with pytest.raises(ConfigError, match=message):
            RigConfig.parse(f"[build]\n{text}\n")
