"""Würfelblitz rules: the sum, the twister variant, the discs, ``rig score`` requests."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from rig.errors import RigError
from rig.games.blitz import rules as blitz
from rig.games.blitz.rules import BlitzRules, Die, Roll, Scoreboard, TwisterRules, score_request

COLOURS = ["red", "yellow", "green", "blue", "black", "orange"]


def roll(*dice):
    return Roll.parse(list(dice))


def test_rulebook_first_example_black_and_green_excluded():
    r = roll({"color": "red", "pips": 3}, {"color": "yellow", "pips": 4}, {"color": "blue", "pips": 1},
             {"color": "green", "pips": 4}, {"color": "black", "pips": 5}, {"color": "orange", "dot": "green"},
             {"color": "white", "dot": "black"}, {"color": "white", "dot": "red"})
    # red is excluded too: a white die shows a red dot
    s = BlitzRules().score(r)
    assert s.answer == 4 + 1
    assert s.counted == ("yellow", "blue")
    assert s.excluded == ("red", "green", "black")


def test_everything_excluded_gives_zero():
    r = roll({"color": "red", "pips": 6}, {"color": "blue", "pips": 2},
             {"color": "white", "dot": "red"}, {"color": "white", "dot": "blue"})
    assert BlitzRules().score(r).answer == 0


def test_own_dot_does_not_exclude_but_another_dice_dot_does():
    # the dot on the orange die excludes the red die; a die showing a dot has no pips itself
    r = roll({"color": "red", "pips": 6}, {"color": "orange", "dot": "red"}, {"color": "white", "dot": "orange"})
    s = BlitzRules().score(r)
    assert (s.answer, s.counted, s.excluded) == (0, (), ("red",))


def test_twister_rulebook_example_green_twice():
    r = roll({"color": "green", "pips": 4}, {"color": "black", "pips": 4}, {"color": "red", "pips": 3},
             {"color": "yellow", "pips": 1}, {"color": "white", "dot": "green"}, {"color": "white", "dot": "green"},
             {"color": "blue", "dot": "black"})
    standard, twisted = BlitzRules().score(r), TwisterRules().score(r)
    assert standard.answer == 4 and not standard.swapped
    assert twisted.answer == 8 and twisted.swapped
    assert twisted.counted == ("green", "black") and twisted.excluded == ("red", "yellow")


def test_twister_without_repeated_dot_is_standard():
    r = roll({"color": "green", "pips": 4}, {"color": "red", "pips": 2}, {"color": "white", "dot": "green"},
             {"color": "white", "dot": "blue"})
    assert TwisterRules().score(r) == BlitzRules().score(r)


@st.composite
def throws(draw):
    n_col = draw(st.integers(0, 6))
    colours = draw(st.permutations(COLOURS))[:n_col]
    dice = []
    for c in colours:
        if draw(st.booleans()):
            dice.append({"color": c, "pips": draw(st.integers(1, 6))})
        else:
            dice.append({"color": c, "dot": draw(st.sampled_from(COLOURS + ["purple"]))})
    for _ in range(draw(st.integers(0, 3))):
        dice.append({"color": "white", "dot": draw(st.sampled_from(COLOURS + ["purple"]))})
    return Roll.parse(draw(st.permutations(dice)))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(throws())
def test_counted_and_excluded_partition_the_pip_dice(r):
    pip_dice = sorted(d.color for d in r.dice if d.pips is not None)
    for rules in (BlitzRules(), TwisterRules()):
        s = rules.score(r)
        assert sorted(s.counted + s.excluded) == pip_dice
        assert s.answer == sum(d.pips for d in r.dice if d.color in s.counted and d.pips)
        assert 0 <= s.answer <= 36
    # standard + swapped standard = all pips
    total = sum(d.pips for d in r.dice if d.pips)
    hidden = sum(d.pips for d in r.dice if d.pips and d.color in BlitzRules().score(r).excluded)
    assert BlitzRules().score(r).answer == total - hidden


@pytest.mark.parametrize("bad, words", [
    ({"color": "white", "pips": 3}, "white dice carry only colour dots"),
    ({"color": "red", "pips": 7}, "pips must be a whole number 1-6"),
    ({"color": "red", "pips": True}, "pips must be a whole number 1-6"),
    ({"color": "red"}, "exactly one of 'pips'"),
    ({"color": "red", "pips": 2, "dot": "blue"}, "exactly one of 'pips'"),
    ({"color": "", "pips": 2}, "'color' must be a colour name"),
    ({"pips": 2}, "has no 'color'"),
    ({"color": "red", "dot": "white"}, "no die carries a white dot"),
    ({"color": "red", "pip": 2}, "unknown key"),
    ("red", "must be like 'green:4'"),
    ("red:x", "must be like 'green:4'"),
    ("white:3", "white dice carry only colour dots"),
    (3, "must be an object"),
])
def test_bad_die_is_a_clear_rig_error(bad, words):
    with pytest.raises(blitz.BadDieError, match=words):
        Die.parse(bad)


def test_impossible_sets():
    with pytest.raises(blitz.DiceSetError, match="red appears twice"):
        roll({"color": "red", "pips": 1}, {"color": "red", "pips": 2})
    with pytest.raises(blitz.DiceSetError, match="not 4"):
        roll(*[{"color": "white", "dot": "red"}] * 4)
    with pytest.raises(blitz.DiceSetError, match="not 7"):
        roll(*[{"color": c, "pips": 1} for c in COLOURS + ["purple"]])


def test_score_request_round_trips_through_json():
    req = json.loads(json.dumps({"game": "blitz", "variant": "twister", "dice": [
        {"color": "green", "pips": 4}, {"color": "red", "dot": "blue"}, {"color": "white", "dot": "green"},
        {"color": "white", "dot": "green"}, {"color": "blue", "pips": 5}]}))
    out = score_request(req)
    assert out == {"answer": 9, "counted": ["green", "blue"], "excluded": [], "swapped": True}
    json.dumps(out)


@pytest.mark.parametrize("req, words", [
    ({"game": "blitz"}, "no 'dice'"),
    ({"game": "blitz", "variant": "hard", "dice": []}, "variant must be one of standard, twister"),
    ({"game": "blitz", "dice": "red"}, "must be a list"),
    ({"game": "blitz", "dice": [], "players": 3}, "unknown key"),
    ([1, 2], "JSON object"),
])
def test_bad_requests(req, words):
    with pytest.raises(RigError, match=words):
        score_request(req)


def test_discs_three_white_buy_a_black_and_wrong_loses_a_white():
    b = Scoreboard.new(["Ada", "Ben", "Cleo"])
    b = b.answered({"Ada": True, "Ben": True})  # both right at once: both get a white disc
    assert b.discs["Ada"] == b.discs["Ben"] == blitz.Discs(1, 0)
    b = b.answered({"Ada": False, "Cleo": False})
    assert b.discs["Ada"] == blitz.Discs(0, 0) and b.discs["Cleo"] == blitz.Discs(0, 0)
    for _ in range(2):
        b = b.answered({"Ben": True})
    assert b.discs["Ben"] == blitz.Discs(0, 1)
    b = b.answered({"Ben": False})  # black discs are safe
    assert b.discs["Ben"] == blitz.Discs(0, 1)


def test_first_to_three_black_wins_and_handicap():
    b = Scoreboard.new(["Ada", "Ben"], handicap={"Ada": 1, "Ben": 2})
    for _ in range(3):
        b = b.answered({"Ada": True})
    assert b.winners == ("Ada",)
    for _ in range(5):
        b = b.answered({"Ben": True})
    assert b.discs["Ben"] == blitz.Discs(1, 2)
    assert b.to_dict()["winners"] == ["Ada"]


def test_scoreboard_errors():
    with pytest.raises(blitz.UnknownPlayerError):
        Scoreboard.new(["Ada"]).answered({"Zed": True})
    with pytest.raises(blitz.BlitzError, match="distinct"):
        Scoreboard.new(["Ada", "Ada"])
    with pytest.raises(blitz.BlitzError, match="handicap"):
        Scoreboard.new(["Ada"], handicap={"Ada": 0})


def test_short_die_strings_round_trip():
    r = Roll.parse(["green:4", "red:dot=blue", "white:dot=green", " Blue:6 "])
    assert [str(d) for d in r.dice] == ["green:4", "red:dot=blue", "white:dot=green", "blue:6"]
    assert Roll.parse([str(d) for d in r.dice]) == r
    assert score_request({"game": "blitz", "dice": ["green:4", "white:dot=green", "blue:6"]})["answer"] == 6


def test_colour_outside_the_palette_is_refused():
    with pytest.raises(blitz.UnknownColourError, match="'chartreuse' is not in the palette"):
        Roll.parse([{"color": "chartreuse", "pips": 3}])
    with pytest.raises(blitz.UnknownColourError, match="'teal'"):
        score_request({"game": "blitz", "dice": [{"color": "white", "dot": "teal"}]})
    assert score_request({"game": "blitz", "palette": ["teal", "white"],
                          "dice": [{"color": "teal", "pips": 2}]})["answer"] == 2
    with pytest.raises(blitz.BlitzError, match="palette"):
        score_request({"game": "blitz", "palette": "red", "dice": []})
