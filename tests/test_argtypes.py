"""rig.argtypes: every number option of every benchmark is range-checked when the command line is read: a value out of
range is a one-line argparse error with exit 2, never a traceback in the middle of a run."""

from __future__ import annotations

import argparse

import pytest

from rig import argtypes
from rig.cli import build_parser

CHECKED = (argtypes.count, argtypes.amount, argtypes.seed, argtypes.span, argtypes.share, argtypes.positive,
           argtypes.counts)


def _bench_options():
    bench = build_parser("bench")._subparsers._group_actions[0].choices["bench"]
    for name, parser in bench._subparsers._group_actions[0].choices.items():
        for action in parser._actions:
            if action.option_strings and action.type not in (None, str):
                yield name, action


def test_no_benchmark_takes_a_bare_int_or_float():
    bare = [f"{name} {action.option_strings[0]}" for name, action in _bench_options()
            if action.type in (int, float) and action.choices is None]
    assert bare == []
    assert len({name for name, _ in _bench_options()}) >= 10  # the walk found the benchmarks' options


@pytest.mark.parametrize("name, option", [(name, action.option_strings[0]) for name, action in _bench_options()
                                          if action.type in CHECKED])
def test_a_negative_number_is_refused_before_the_run(name, option, capsys):
    from rig.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["bench", name, option, "-1"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}" in err and "-1" in err and "Traceback" not in err


def test_the_types_say_what_they_want():
    with pytest.raises(argparse.ArgumentTypeError, match="a whole number of at least 0"):
        argtypes.seed("-3")
    with pytest.raises(argparse.ArgumentTypeError, match="from 0 to 1"):
        argtypes.share("1.5")
    with pytest.raises(argparse.ArgumentTypeError, match="separated by commas"):
        argtypes.counts("30,,35")
    assert argtypes.span("0") == 0.0 and argtypes.amount("0") == 0


@pytest.mark.parametrize("argv, option", [
    (["run", "--sim", "--seed", "-1"], "--seed"),  # was a traceback from numpy's generator
    (["record", "/nonexistent/x", "--width", "-5"], "--width"),  # was a traceback ("negative dimensions")
    (["record", "/nonexistent/x", "--fps", "-2"], "--fps"),  # recorded frames at negative times
    (["record", "/nonexistent/x", "--height", "0"], "--height"),  # was taken as "the config's"
    (["calibrate", "--virtual", "--out", "/nonexistent/p.toml", "--exposure-us", "-5"], "--exposure-us"),  # was written
    (["calibrate", "--virtual", "--out", "/nonexistent/p.toml", "--analogue-gain", "0.5"], "--analogue-gain"),
    (["calibrate", "--virtual", "--out", "/nonexistent/p.toml", "--lens-position", "-1"], "--lens-position"),
    (["tosses", "--simulate", "--duration", "-1"], "--duration"),
    (["tosses", "--simulate", "--seed", "-1"], "--seed"),
])
def test_a_command_refuses_a_number_out_of_range_before_it_runs(argv, option, capsys):
    from rig.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and f"argument {option}: expected " in err and "Traceback" not in err


def test_the_refusal_is_said_in_the_command_lines_language(capsys, monkeypatch):
    from rig.cli import main

    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    with pytest.raises(SystemExit):
        main(["bench", "vision", "--frames", "0"])
    err = capsys.readouterr().err
    assert "--frames" in err and "expected" not in err and "'0'" in err
