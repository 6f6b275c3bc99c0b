"""A whole game's progress: recommended length, seat order, totals, tie-break rounds."""

import pytest

from rig.games.frogs.rules import DuplicatePlayerError, PlayerCountError
from rig.games.frogs.rules.game import GameLengthError, GameSetup, add_turn


@pytest.mark.parametrize("n, turns", [(3, 3), (4, 2), (5, 2), (6, 1), (7, 1), (8, 1)])
def test_recommended_game_length(n, turns):
    setup = GameSetup.create([f"P{i}" for i in range(n)])
    assert setup.turns_each == turns


def test_rollers_go_clockwise_from_the_starting_player():
    setup = GameSetup.create(["Ada", "Ben", "Cleo", "Dev"])
    assert [setup.roller_of(i) for i in range(6)] == ["Ada", "Ben", "Cleo", "Dev", "Ada", "Ben"]


def test_game_ends_after_the_configured_turns_with_a_single_leader():
    setup = GameSetup.create(["Ada", "Ben", "Cleo", "Dev"], turns_each=1)
    nets = [{"Ada": 1}, {"Ben": 5}, {"Cleo": 2}]
    assert not setup.progress(nets).is_over
    progress = setup.progress(nets + [{"Dev": 0}])
    assert progress.is_over and progress.outcome.winner == "Ben"
    assert progress.outcome.extra_rounds == 0 and progress.next_roller is None


def test_a_tie_for_the_lead_adds_full_rounds_until_one_leads_alone():
    setup = GameSetup.create(["Ada", "Ben", "Cleo", "Dev"], turns_each=1)
    nets = [{"Ada": 3}, {"Ben": 3}, {}, {}]
    progress = setup.progress(nets)
    assert not progress.is_over and progress.extra_rounds == 1 and progress.next_roller == "Ada"
    # mid-round the game goes on even if someone now leads alone
    assert not setup.progress(nets + [{"Ada": 1}]).is_over
    still_tied = nets + [{"Ada": 1}, {"Ben": 1}, {}, {}]
    assert setup.progress(still_tied).extra_rounds == 2
    done = setup.progress(still_tied + [{}, {"Ben": 2}, {}, {}])
    assert done.outcome.winner == "Ben" and done.outcome.extra_rounds == 2


def test_a_tie_between_trailing_players_does_not_extend_the_game():
    setup = GameSetup.create(["Ada", "Ben", "Cleo"], turns_each=1)
    assert setup.progress([{"Ada": 5}, {}, {}]).outcome.winner == "Ada"


def test_penalties_never_take_a_total_below_zero():
    assert add_turn({"Ada": 2, "Ben": 0}, {"Ada": -5, "Ben": -1}) == {"Ada": 0, "Ben": 0}


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(players=["Ada", "Ben"]), PlayerCountError),
        (dict(players=["Ada", "Ada", "Ben"]), DuplicatePlayerError),
        (dict(players=["Ada", "Ben", "Cleo"], turns_each=0), GameLengthError),
        (dict(players=["Ada", "Ben", "Cleo"], turns_each="2"), GameLengthError),
    ],
)
def test_bad_setups_are_refused(kwargs, error):
    players = kwargs.pop("players")
    with pytest.raises(error):
        GameSetup.create(players, **kwargs)
