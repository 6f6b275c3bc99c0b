import pytest

from rig.engine.errors import EventFormatError, EventRefused
from rig.engine.events import EVENT_TYPES, make_event, parse_event


def test_every_type_from_the_issue_is_known():
    assert EVENT_TYPES == ("game_started", "turn_started", "roll_settled", "toss", "copy_chosen",
                           "card_revealed", "correction", "violation", "turn_scored", "game_ended")


@pytest.mark.parametrize("event, message", [
    ([], "JSON object"),
    ({"type": "dance", "t_us": 1, "source": "x"}, "unknown event type"),
    ({"type": "toss", "t_us": -1, "source": "x", "player": "Ben"}, "t_us"),
    ({"type": "toss", "t_us": True, "source": "x", "player": "Ben"}, "t_us"),
    ({"type": "toss", "t_us": 1, "source": "", "player": "Ben"}, "source"),
    ({"type": "toss", "t_us": 1, "source": "x", "player": 7}, r"toss.player: expected `str`, got `int`"),
    ({"type": "toss", "t_us": 1, "source": "x", "player": "Ben", "card": "pink"}, "unknown field `card`"),
    ({"type": "roll_settled", "t_us": 1, "source": "x", "dice": "pink"}, r"roll_settled.dice: expected `array`, got `str`"),
    ({"type": "correction", "t_us": 1, "source": "x", "what": "everything"}, r"correction.what: invalid enum value 'everything'"),
    ({"type": "game_started", "t_us": 1, "source": "x", "players": ["Ada", 2]}, r"game_started.players\[1\]: expected `str`"),
    ({"type": "roll_settled", "t_us": 1, "source": "x", "dice": [None]}, r"roll_settled.dice\[0\]: expected `str`, got `null`"),
    ({"type": "correction", "t_us": 1, "source": "x", "what": "die", "index": 1.5}, r"correction.index: expected `int \| null`, got `float`"),
])
def test_malformed_events_are_refused_with_a_reason(event, message):
    with pytest.raises(EventFormatError, match=message):
        parse_event(event)


def test_format_errors_are_refusals_and_value_errors():
    assert issubclass(EventFormatError, EventRefused) and issubclass(EventFormatError, ValueError)


def test_defaults_are_filled_in():
    event = make_event("game_started", 0, "api", players=["Ada", "Ben", "Cleo"])
    assert event["game"] == "frogs"
    assert make_event("copy_chosen", 1, "api", player="Ben", confirmed=False)["confirmed"] is False
