"""The tie window: tosses closer than the inputs' measured jitter are a dead heat, not a silent winner."""

import pytest

from rig.games.frogs.rules import FrogsError, Turn, is_dead_heat, rules_for, score_request, score_turn

PLAYERS = ["Ada", "Ben", "Cleo", "Dev", "Eli"]


def _turn(gap_us: int) -> Turn:
    return Turn.parse({
        "players": PLAYERS, "roller": "Ada",
        "dice": ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"],
        "tosses": [{"player": "Ben", "card": "blue", "t_us": 10_000},
                   {"player": "Cleo", "card": "pink", "t_us": 10_000 + gap_us},
                   {"player": "Dev", "card": "yellow", "t_us": 50_000},
                   {"player": "Eli", "card": "gray", "t_us": 90_000}],
        "copy": "Ben"})


def test_a_3_us_gap_is_a_dead_heat_within_a_50_us_window():
    score = score_turn(_turn(3), tie_window_us=50)
    ben, cleo = score.cards[0], score.cards[1]
    assert (ben.player, cleo.player) == ("Ben", "Cleo")  # the earlier timestamp still counts first
    assert cleo.margin_us == 3 and cleo.dead_heat is True
    assert not any(card.dead_heat for card in score.cards[2:])


def test_a_3_ms_gap_is_an_order_within_the_same_window():
    score = score_turn(_turn(3_000), tie_window_us=50)
    assert [c.player for c in score.cards] == ["Ben", "Cleo", "Dev", "Eli"]
    assert score.cards[1].margin_us == 3_000 and not any(card.dead_heat for card in score.cards)


def test_without_a_window_only_the_same_microsecond_is_a_dead_heat():
    assert score_turn(_turn(3)).cards[1].dead_heat is False
    assert score_turn(_turn(0)).cards[1].dead_heat is True


def test_the_window_edge_is_inclusive():
    assert is_dead_heat(50, 50) and not is_dead_heat(51, 50)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "40", 2_000_000])
def test_a_bad_window_is_refused(bad):
    with pytest.raises(FrogsError, match="tie_window_us must be a whole number"):
        rules_for(5, tie_window_us=bad)


def test_rig_score_takes_the_window_as_an_option():
    data = {"players": PLAYERS, "roller": "Ada", "dice": ["blue"] * 6, "copy": "Ben",
            "tosses": [{"player": p, "card": c, "t_us": t} for p, c, t in
                       [("Ben", "blue", 100), ("Cleo", "pink", 103), ("Dev", "yellow", 900), ("Eli", "gray", 5000)]],
            "options": {"tie_window_us": 5}}
    assert [c["dead_heat"] for c in score_request(data)["cards"]] == [False, True, False, False]
