"""The Lunar Laser Frogs rules core: rulebook examples, player counts, edge cases, invariants."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rig.errors import RigError
from rig.games.frogs.rules import (
    FACE_NAMES,
    BadCardError,
    BadFaceError,
    BigTableFrogs,
    Card,
    CardCountError,
    CopyError,
    DiceCountError,
    DuplicatePlayerError,
    Face,
    FrogsRules,
    ImpossibleDiceError,
    PlayerCountError,
    RollerTossedError,
    ThreePlayerFrogs,
    Toss,
    TossTimeError,
    Turn,
    TurnFormatError,
    UnknownPlayerError,
    dice_counts,
    rules_for,
    score_request,
    score_turn,
)

FIVE = ["Ada", "Ben", "Cleo", "Dev", "Eli"]


def turn(dice, tosses, players=FIVE, roller="Ada", copy="Ben", **extra):
    return Turn.parse(
        {
            "players": list(players),
            "roller": roller,
            "dice": list(dice),
            "tosses": [{"player": p, "card": c, "t_us": t} for p, c, t in tosses],
            "copy": copy,
            **extra,
        }
    )


def card_points(score):
    return [(c.player, c.card.value, c.points) for c in score.cards]


# -- the rulebook's examples ------------------------------------------------------------

FOUR_CARDS_AND_GRAY = [("Ben", "blue", 1), ("Cleo", "pink", 2), ("Dev", "yellow", 3), ("Eli", "gray", 4)]


def test_example_a_blue_missing_is_lasered_onto_all_dice():
    score = score_turn(turn(["pink", "pink", "yellow+pink", "yellow", "blank", "blank"], FOUR_CARDS_AND_GRAY))
    assert score.missing == ("blue",)
    assert dict(score.counts) == {"blue": 6, "pink": 3, "yellow": 2, "blank": 0}
    assert card_points(score) == [("Ben", "blue", 6), ("Cleo", "pink", 3), ("Dev", "yellow", 2), ("Eli", "gray", 3)]
    # blank dice were lasered blue: a blank card earns nothing
    blank = score_turn(
        turn(["pink", "pink", "yellow+pink", "yellow", "blank", "blank"],
             [("Ben", "blank", 1), ("Cleo", "pink", 2), ("Dev", "yellow", 3), ("Eli", "gray", 4)])
    )
    assert blank.points["Ben"] == 0


def test_example_b_no_colour_missing_blank_counts_double():
    dice = ["pink+blue", "pink", "pink", "yellow", "blank", "blank"]
    tosses = [("Ben", "blue", 1), ("Cleo", "pink", 2), ("Dev", "yellow", 3), ("Eli", "blank", 4)]
    score = score_turn(turn(dice, tosses))
    assert score.missing == ()
    assert card_points(score) == [("Ben", "blue", 1), ("Cleo", "pink", 3), ("Dev", "yellow", 1), ("Eli", "blank", 4)]


def test_example_c_blank_is_never_lasered():
    dice = ["blue", "blue", "pink+blue", "pink", "yellow+pink", "yellow"]
    tosses = [("Ben", "blue", 1), ("Cleo", "pink", 2), ("Dev", "yellow", 3), ("Eli", "blank", 4)]
    score = score_turn(turn(dice, tosses))
    assert score.missing == ()
    assert card_points(score) == [("Ben", "blue", 3), ("Cleo", "pink", 3), ("Dev", "yellow", 2), ("Eli", "blank", 0)]


def test_the_roller_copies_the_chosen_players_points():
    score = score_turn(turn(["pink", "pink", "yellow+pink", "yellow", "blank", "blank"], FOUR_CARDS_AND_GRAY, copy="Cleo"))
    assert score.points["Ada"] == score.points["Cleo"] == 3
    assert score.points["Ben"] == 6  # copied, not stolen


def test_only_the_first_card_of_a_type_scores_in_the_basic_game():
    tosses = [("Ben", "pink", 1), ("Cleo", "pink", 2), ("Dev", "pink", 3), ("Eli", "gray", 4)]
    score = score_turn(turn(["pink"] * 6, tosses))
    assert [c.points for c in score.cards] == [6, 0, 0, 3]


def test_order_is_by_time_not_by_list_position():
    tosses = [("Ben", "pink", 900), ("Cleo", "pink", 100), ("Dev", "gray", 50), ("Eli", "yellow", 20)]
    score = score_turn(turn(["pink"] * 6, tosses))
    assert [c.player for c in score.cards] == ["Eli", "Dev", "Cleo", "Ben"]
    assert score.points["Cleo"] == 6 and score.points["Ben"] == 0
    assert score.points["Dev"] == 1  # one card before the gray
    assert score.points["Eli"] == 6  # yellow missing: lasered onto all six


def test_equal_times_dead_heat_the_earlier_logged_counts_first():
    tosses = [("Ben", "pink", 500), ("Cleo", "pink", 500), ("Dev", "gray", 600), ("Eli", "yellow", 700)]
    score = score_turn(turn(["pink"] * 6, tosses))
    assert score.points["Ben"] == 6 and score.points["Cleo"] == 0
    assert score.cards[1].dead_heat and score.cards[1].margin_us == 0
    assert not score.cards[0].dead_heat and score.cards[0].margin_us is None


def test_all_blank_dice_laser_every_colour():
    score = score_turn(turn(["blank"] * 6, [("Ben", "blue", 1), ("Cleo", "pink", 2), ("Dev", "blank", 3), ("Eli", "yellow", 4)]))
    assert score.missing == ("blue", "pink", "yellow")
    assert [c.points for c in score.cards] == [6, 6, 0, 6]


def test_first_gray_counts_every_card_before_it():
    score = score_turn(turn(["blue"] * 6, [("Ben", "pink", 1), ("Cleo", "blue", 2), ("Dev", "blank", 3), ("Eli", "gray", 4)]))
    assert score.points["Eli"] == 3


def test_gray_tossed_first_scores_zero():
    score = score_turn(turn(["blue"] * 6, [("Ben", "gray", 1), ("Cleo", "blue", 2), ("Dev", "blank", 3), ("Eli", "gray", 4)]))
    assert score.points["Ben"] == 0 and score.points["Eli"] == 0


# -- 3 players ---------------------------------------------------------------------------


def test_three_players_each_other_player_tosses_two_cards_and_copy_takes_both():
    players = ["Ada", "Ben", "Cleo"]
    tosses = [("Ben", "blue", 1), ("Cleo", "pink", 2), ("Ben", "gray", 3), ("Cleo", "gray", 3)]
    score = score_turn(turn(["blue", "blue", "pink", "yellow", "blank", "blank"], tosses, players=players))
    assert score.points["Ben"] == 2 + 2  # blue (2 dice) + first gray (2 cards before)
    assert score.points["Cleo"] == 1  # pink; the second gray does not score with 3 players
    assert score.points["Ada"] == 4


def test_three_players_one_card_each_is_too_few():
    with pytest.raises(CardCountError, match="Ben tossed 1 card"):
        score_turn(turn(["blue"] * 6, [("Ben", "blue", 1), ("Cleo", "pink", 2)], players=["Ada", "Ben", "Cleo"]))


def test_three_players_same_card_twice_is_refused():
    with pytest.raises(CardCountError, match="two blue cards"):
        score_turn(
            turn(["blue"] * 6, [("Ben", "blue", 1), ("Ben", "blue", 2), ("Cleo", "pink", 2), ("Cleo", "gray", 3)],
                 players=["Ada", "Ben", "Cleo"])
        )


# -- 6 to 8 players ----------------------------------------------------------------------

EIGHT = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


def test_big_table_first_two_of_each_type_score_and_second_gray_counts_since_first():
    tosses = [
        ("Ben", "pink", 1),
        ("Cleo", "gray", 2),  # 1 card before
        ("Dev", "pink", 3),  # second pink scores
        ("Eli", "pink", 4),  # third pink does not
        ("Fay", "blank", 5),
        ("Gus", "gray", 6),  # Dev, Eli, Fay since the first gray: 3
        ("Hal", "gray", 7),  # third gray: nothing
    ]
    score = score_turn(turn(["pink", "pink", "blank", "blue", "yellow", "blank"], tosses, players=EIGHT))
    assert [c.points for c in score.cards] == [2, 1, 2, 0, 4, 3, 0]


def test_big_table_grays_right_on_top_of_each_other_slower_gets_zero():
    tosses = [("Ben", "blue", 1), ("Cleo", "gray", 2), ("Dev", "gray", 3), ("Eli", "pink", 4), ("Fay", "yellow", 5)]
    score = score_turn(turn(["blue"] * 6, tosses, players=EIGHT[:6]))
    assert score.points["Cleo"] == 1 and score.points["Dev"] == 0


@pytest.mark.parametrize("n", range(3, 9))
def test_every_player_count_scores_and_picks_its_variant(n):
    players = EIGHT[:n]
    cards = ["blue", "pink", "yellow", "blank", "gray"]
    rules = rules_for(n)
    tosses = []
    t = 0
    for i, name in enumerate(players[1:]):
        for k in range(rules.cards_per_opponent):
            t += 10
            tosses.append((name, cards[(i + k) % 5], t))
    score = score_turn(turn(["pink", "blue", "yellow+pink", "blank", "blank", "yellow"], tosses, players=players, copy=players[1]))
    assert set(score.points) == set(players)
    assert score.points[players[0]] == score.points[players[1]]
    expected = {3: ThreePlayerFrogs, 4: FrogsRules, 5: FrogsRules}.get(n, BigTableFrogs)
    assert type(rules) is expected
    assert rules.recommended_turns == {3: 3, 4: 2, 5: 2}.get(n, 1)


# -- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "change, error, text",
    [
        (dict(dice=["blue"] * 5), DiceCountError, "exactly 6 dice, not 5"),
        (dict(dice=["blue"] * 5 + ["green"]), BadFaceError, "unknown die face 'green'"),
        (dict(dice=["pink+blue"] * 3 + ["blue"] * 3), ImpossibleDiceError, "only 2 dice carry"),
        (dict(tosses=[("Ben", "purple", 1)]), BadCardError, "unknown card 'purple'"),
        (dict(tosses=FOUR_CARDS_AND_GRAY[:3] + [("Zed", "gray", 4)]), UnknownPlayerError, "'Zed'"),
        (dict(tosses=FOUR_CARDS_AND_GRAY + [("Ada", "pink", 5)]), RollerTossedError, "Ada is rolling"),
        (dict(tosses=FOUR_CARDS_AND_GRAY + [("Ben", "pink", 5)]), CardCountError, "Ben tossed 2"),
        (dict(tosses=FOUR_CARDS_AND_GRAY[:3]), CardCountError, "Eli tossed 0"),
        (dict(copy="Ada"), CopyError, "cannot copy themself"),
        (dict(copy=None), CopyError, "copy"),
        (dict(copy="Zed"), CopyError, "'Zed'"),
        (dict(players=["Ada", "Ben"]), PlayerCountError, "3 to 8 players, not 2"),
        (dict(players=EIGHT + ["Ivy"]), PlayerCountError, "not 9"),
        (dict(players=["Ada", "Ben", "Ben", "Dev", "Eli"]), DuplicatePlayerError, "Ben"),
        (dict(tosses=FOUR_CARDS_AND_GRAY[:3] + [("Eli", "gray", -4)]), TossTimeError, "non-negative"),
        (dict(tosses=FOUR_CARDS_AND_GRAY[:3] + [("Eli", "gray", 4.5)]), TossTimeError, "whole number"),
        (dict(roller="Zed"), UnknownPlayerError, "roller"),
    ],
)
def test_bad_turns_raise_specific_errors(change, error, text):
    args = dict(dice=["pink", "pink", "yellow+pink", "yellow", "blank", "blank"], tosses=FOUR_CARDS_AND_GRAY)
    args.update(change)
    with pytest.raises(error, match=text) as caught:
        score_turn(turn(**args))
    assert isinstance(caught.value, RigError) and isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    "data, text",
    [
        ([], "JSON object"),
        ({"players": FIVE, "roller": "Ada", "dice": []}, "missing 'tosses'"),
        ({"players": FIVE, "roller": "Ada", "dice": "blue", "tosses": []}, "'dice' must be a list"),
        ({"players": FIVE, "roller": "Ada", "dice": [], "tosses": [5]}, "a toss must be an object"),
        ({"players": FIVE, "roller": "Ada", "dice": [], "tosses": [{"player": "Ben"}]}, "missing 'card'"),
        ({"players": FIVE, "roller": "Ada", "dice": [], "tosses": [], "colour": 1}, "unknown field"),
        ({"players": FIVE, "roller": "Ada", "dice": [3], "tosses": []}, "die face"),
    ],
)
def test_malformed_turns_are_refused(data, text):
    with pytest.raises(TurnFormatError if "face" not in text else BadFaceError, match=text):
        Turn.parse(data)


def test_combo_faces_may_be_written_in_either_order():
    assert Face.parse("blue+pink") == Face.parse("pink+blue") == Face.parse(" Pink + Blue ")
    assert str(Face.parse("pink+yellow")) == "yellow+pink"
    assert [str(Face.parse(n)) for n in FACE_NAMES] == list(FACE_NAMES)
    with pytest.raises(BadFaceError):
        Face.parse("blue+blue")
    with pytest.raises(BadFaceError):
        Face.parse("blue+pink+yellow")


def test_penalties_are_separate_from_points():
    data = {
        "players": FIVE, "roller": "Ada", "copy": "Ben",
        "dice": ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"],
        "tosses": [{"player": p, "card": c, "t_us": t} for p, c, t in FOUR_CARDS_AND_GRAY],
        "violations": {"Ada": 2}, "options": {"penalty_per_violation": 1},
    }
    result = score_request(data)
    assert result["points"]["Ada"] == 6 and result["penalties"] == {"Ada": 2} and result["net"]["Ada"] == 4
    data["options"] = {}
    assert score_request(data)["penalties"] == {}


# -- invariants (hypothesis) --------------------------------------------------------------

faces = st.sampled_from(FACE_NAMES)
cards = st.sampled_from([c.value for c in Card])


@st.composite
def turns(draw):
    n = draw(st.integers(3, 8))
    players = [f"P{i}" for i in range(n)]
    roller = draw(st.sampled_from(players))
    per = rules_for(n).cards_per_opponent
    dice = draw(st.lists(faces, min_size=6, max_size=6).filter(
        lambda d: all(d.count(c) <= 2 for c in ("pink+blue", "yellow+pink", "blue+yellow"))))
    tosses = []
    for name in players:
        if name == roller:
            continue
        for card in draw(st.lists(cards, min_size=per, max_size=per, unique=True)):
            tosses.append({"player": name, "card": card, "t_us": draw(st.integers(0, 10_000))})
    copy = draw(st.sampled_from([p for p in players if p != roller]))
    return {"players": players, "roller": roller, "dice": dice, "tosses": tosses, "copy": copy}


@settings(max_examples=300, deadline=None)
@given(turns())
def test_invariants(data):
    score = score_turn(Turn.parse(data))
    # points are never negative; the roller has exactly the copied player's points
    assert all(p >= 0 for p in score.points.values())
    assert score.points[data["roller"]] == score.points[data["copy"]]
    # a missing colour scores 6 for the first card of that colour
    for colour in score.missing:
        assert score.counts[colour] == 6
        firsts = [c for c in score.cards if c.card.value == colour]
        if firsts:
            assert firsts[0].points == 6
    # the stack is ordered by time only
    times = [c.t_us for c in score.cards]
    assert times == sorted(times)
    # no card is worth more than 12 (2 x 6 blanks) or than the stack before it (gray)
    assert all(c.points <= 12 for c in score.cards)


@settings(max_examples=100, deadline=None)
@given(turns(), st.randoms(use_true_random=False))
def test_the_order_the_tosses_are_listed_in_does_not_matter_when_times_differ(data, rnd):
    times = [t["t_us"] for t in data["tosses"]]
    if len(set(times)) != len(times):
        return
    shuffled = dict(data, tosses=rnd.sample(data["tosses"], len(data["tosses"])))
    assert dict(score_turn(Turn.parse(data)).points) == dict(score_turn(Turn.parse(shuffled)).points)


@given(st.lists(faces, min_size=6, max_size=6))
def test_counts_are_between_0_and_6_and_blank_vanishes_when_anything_is_lasered(dice):
    missing, counts = dice_counts(Face.parse(f) for f in dice)
    assert all(0 <= n <= 6 for n in counts.values())
    if missing:
        assert counts["blank"] == 0
    else:
        assert counts["blank"] == dice.count("blank")


def test_toss_values_are_immutable_and_readable():
    toss = Toss("Ben", Card.BLUE, 12)
    with pytest.raises(AttributeError):
        toss.t_us = 3
    assert repr(toss) == "Toss(player='Ben', card=<Card.BLUE: 'blue'>, t_us=12)"
