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
    ({"type": "toss", "t_us": 1, "source": "x", "player": 7}, "toss.player must be a string"),
    ({"type": "toss", "t_us": 1, "source": "x", "player": "Ben", "card": "pink"}, "unknown field"),
    ({"type": "roll_settled", "t_us": 1, "source": "x", "dice": "pink"}, "a list of die faces"),
    ({"type": "correction", "t_us": 1, "source": "x", "what": "everything"}, "correction.what"),
    ({"type": "game_started", "t_us": 1, "source": "x", "players": ["Ada", 2]}, "list of strings"),
    ({"type": "roll_settled", "t_us": 1, "source": "x", "dice": [None]}, "list of strings"),
    ({"type": "correction", "t_us": 1, "source": "x", "what": "die", "index": 1.5}, "whole number"),
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
