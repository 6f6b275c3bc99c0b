"""Fuzzed input for the commands that read files: every one exits 0 or 2 with one line, no traceback."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.bench.fuzz import _png, _run_cli, fuzz_cli
from rig.vision.profile import default_profile_path
from tests.strategies import ANY_TEXT, BODIES, JSON, dumps

FUZZ = settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
TURNS = st.fixed_dictionaries({"game": st.sampled_from(["frogs", "blitz", "lego", "banana"]) | JSON,
                               "players": st.lists(ANY_TEXT, max_size=9) | JSON,
                               "roller": ANY_TEXT, "dice": st.lists(ANY_TEXT, max_size=8) | JSON,
                               "tosses": st.lists(st.dictionaries(st.sampled_from(["player", "card", "t_us"]), JSON),
                                                  max_size=8)})


def one_line_or_ok(code, err):
    assert code in (0, 2), code
    assert code == 0 or err.count("\n") == 1, err


@FUZZ
@given(data=BODIES | TURNS.map(dumps))
def test_rig_score_exits_0_or_2(data):
    one_line_or_ok(*_run_cli(["score", "-"], data))


@FUZZ
@given(text=ANY_TEXT | st.sampled_from(["x = " + "[" * 3000, "[[players]]\nname = 5", "a = 1e999999"]))
def test_rig_config_check_exits_0_or_2(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("cfg") / "rig.toml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    one_line_or_ok(*_run_cli(["config", "check", "-q", str(path)]))


def test_rig_read_refuses_bombs_truncation_and_grayscale_in_one_line(tmp_path):
    profile = str(default_profile_path())
    cases = {"bomb.png": (_png(20000, 20000, body=b"x"), "MP"), "gray.png": (_png(64, 64, mode=0), "grayscale"),
             "cut.png": (_png(120, 90)[:200], "damaged or cut short")}
    for name, (data, words) in cases.items():
        (tmp_path / name).write_bytes(data)
        code, err = _run_cli(["read", "--profile", profile, str(tmp_path / name)])
        assert code == 2 and err.count("\n") == 1 and words in err, (name, err)
    (tmp_path / "ok.png").write_bytes(_png(120, 90))
    assert _run_cli(["read", "--profile", profile, str(tmp_path / "ok.png")])[0] == 0


def test_a_seeded_campaign_over_score_config_and_read(tmp_path):
    """The CI-sized run of `rig bench fuzz --cli`."""
    figures = fuzz_cli(tmp_path, 60, seed=16)
    assert figures["other_exits"] == 0, figures["examples"]
    odd = figures["codes"].pop("odd files")
    assert all(0 in codes and 2 in codes for codes in figures["codes"].values())
    assert odd.get(2, 0) >= 3 and figures["not_one_line"] == 0  # /dev/zero, a FIFO, huge, a folder: refused
