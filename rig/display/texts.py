"""What the rig writes in English, as the pages show it in another language (:func:`rig.i18n.by_pattern`).

- each registered game's patterns (:attr:`rig.registry.Game.text_patterns`);
- :data:`PATTERNS`: the texts the rig composes from parts (where a die lies, the light's drift, a question
  with cards waiting);
- the texts the rig shows as they are (a refusal's reason, a violation's detail, a question, a notice, the
  copy problem, the viewer cap): each is a message id of its own, flagged ``core-text`` in the catalogue
  (:func:`rig.i18n.extract.core_texts`), and matched by the pattern of its id (:func:`rig.i18n.id_pattern`).
"""

from __future__ import annotations


from rig import registry
from rig.i18n import N_, Patterns, core_patterns, id_pattern

#: where a die lies in the box (rig.vision.rolls.place_in_box)
PLACES = (N_("top left"), N_("top right"), N_("bottom left"), N_("bottom right"), N_("top"), N_("bottom"),
          N_("left"), N_("right"), N_("middle"), N_("in the box"))
#: a die's face as the rig names it in a violation (its colours)
FACES = (N_("blue+yellow"), N_("pink+blue"), N_("yellow+pink"), N_("blue"), N_("pink"), N_("yellow"), N_("blank"))

_PLACE = "top left|top right|bottom left|bottom right|top|bottom|left|right"
#: what the placeholders of a die's description may be
_DIE = {"face": "[a-z+]+", "now": "[a-z+]+", "where": f"{_PLACE}|middle|in the box", "there": f"{_PLACE}|in the box"}
#: a die's description (RollTracker._describe), one id each
_MOVED = (N_("the {face} die, {where}, moved"), N_("the {face} die, {where}, moved to the middle"),
          N_("the {face} die, {where}, moved to {there}"), N_("the {face} die, {where}, moved and now shows {now}"),
          N_("the {face} die, {where}, moved to the middle and now shows {now}"),
          N_("the {face} die, {where}, moved to {there} and now shows {now}"))

#: the texts the rig composes from parts
PATTERNS: Patterns = (
    # a violation's detail (rig.vision.rolls RollTracker._describe): one part per die, joined by "; "
    (r"(?P<first>the [a-z+]+ die, [^;]+?, moved[^;]*); (?P<rest>.+)", N_("{first}; {rest}")),
    (r"dice rolled again without a new die: (?P<detail>.+)", N_("dice rolled again without a new die: {detail}")),
    *((id_pattern(moved, _DIE), moved) for moved in _MOVED),
    # the light's drift (rig.vision.light.drift_text)
    (r"The light changed — recalibrate", N_("The light changed — recalibrate")),
    (r"The light changed — recalibrate \((?P<what>.+)\)", N_("The light changed — recalibrate ({what})")),
    (r"(?P<first>(?:brighter|darker|warmer white balance|cooler white balance) x[\d.]+), (?P<rest>.+)",
     N_("{first}, {rest}")),
    (r"brighter x(?P<x>[\d.]+)", N_("brighter x{x}")), (r"darker x(?P<x>[\d.]+)", N_("darker x{x}")),
    (r"warmer white balance x(?P<x>[\d.]+)", N_("warmer white balance x{x}")),
    (r"cooler white balance x(?P<x>[\d.]+)", N_("cooler white balance x{x}")),
    # a question of the reveal (rig.vision.cards) as its notice says it: capitalised, cards waiting
    (r"(?P<question>.+?) \((?P<n>1) later card waits? for the answer\)",
     N_("{question} ({n} later card waits for the answer)")),
    (r"(?P<question>.+?) \((?P<n>\d+) later cards wait for the answer\)",
     N_("{question} ({n} later cards wait for the answer)")),
    (r"[Ww]ere the next 2 cards laid (?P<card>\w+), then (?P<later>\w+)\?", N_("were the next 2 cards laid {card}, then {later}?")),
    (r"[Ww]as the next card laid (?P<card>\w+)\?", N_("was the next card laid {card}?")),
    (r"(?P<first>blue|pink|yellow|blank|gray) and a (?P<second>.+)", N_("{first} and a {second}")),
    (r"(?P<first>blue|pink|yellow|blank|gray), (?P<rest>.+)", N_("{first}, {rest}")),
    # the log's outage with inputs waiting (rig.runner)
    (r"(?P<outage>.+) — (?P<n>\d+) input\(s\) kept until it works again",
     N_("{outage} — {n} input(s) kept until it works again")),
    # the seats at a game's start (rig.runner): "toss input" or "toss inputs"
    (r"(?P<n>\d+) players but only (?P<have>\d+) toss inputs?: (?P<names>.+?) would have no button or beam\. "
     r"Wire one more input per extra seat and add a \[\[players\]\] entry with its pin to the config \(rig config "
     r"wiring shows the free pins\), or start with at most (?P=have) players",
     N_("{n} players but only {have} toss inputs: {names} would have no button or beam. Wire one more input per "
        "extra seat and add a [[players]] entry with its pin to the config (rig config wiring shows the free pins), "
        "or start with at most {have} players")),
)


def rules_texts() -> Patterns:
    """Every registered game's patterns (in the registry's order), the rig's own, then the texts it shows
    as they are."""
    return tuple(pattern for game in registry.games() for pattern in game.patterns()) + PATTERNS + core_patterns()
