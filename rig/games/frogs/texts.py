"""What Lunar Laser Frogs' rules and engine write in English, as the pages show it in another language.

The rules keep plain English texts (they import nothing of :mod:`rig.i18n`); these patterns
(:attr:`rig.registry.Game.text_patterns`) turn the common ones into message ids of the catalogue
(:func:`rig.i18n.by_pattern`). The pages get them with the catalogue (``patterns``) and ``rig.t`` tries
them on a text that is no message id. A named group's value that is a message id itself (``blue``,
``first``) is translated too.
"""

from __future__ import annotations

from rig.i18n import N_, Patterns

_COLOUR = r"(?P<colour>blue|pink|yellow)"
_ORDINAL = r"(?P<ordinal>first|second)"

#: the words the patterns' groups carry, in the catalogue
WORDS = (N_("first"), N_("second"))

#: Lunar Laser Frogs' card reasons (rig.games.frogs.rules ``card_points``), the tosses that do not count
#: (rig.games.frogs.engine) and its dead heats (rig.games.frogs.view)
PATTERNS: Patterns = (
    (rf"{_ORDINAL} {_COLOUR}: (?P<n>1) (?P=colour) die", N_("{ordinal} {colour}: {n} {colour} die")),
    (rf"{_ORDINAL} {_COLOUR}: (?P<n>\d+) (?P=colour) dice", N_("{ordinal} {colour}: {n} {colour} dice")),
    (rf"{_ORDINAL} blank: 2 x (?P<n>1) blank die", N_("{ordinal} blank: 2 x {n} blank die")),
    (rf"{_ORDINAL} blank: 2 x (?P<n>\d+) blank dice", N_("{ordinal} blank: 2 x {n} blank dice")),
    (r"first gray: (?P<n>1) card before it", N_("first gray: {n} card before it")),
    (r"first gray: (?P<n>\d+) cards before it", N_("first gray: {n} cards before it")),
    (r"second gray: (?P<n>1) card since the first gray", N_("second gray: {n} card since the first gray")),
    (r"second gray: (?P<n>\d+) cards since the first gray", N_("second gray: {n} cards since the first gray")),
    (r"only the first (?P<colour>\w+) card scores", N_("only the first {colour} card scores")),
    (r"only the first (?P<n>\d+) (?P<colour>\w+) cards score", N_("only the first {n} {colour} cards score")),
    (r"struck out by a correction", N_("struck out by a correction")),
    (r"before the turn started", N_("before the turn started")),
    (r"after the reveal started", N_("after the reveal started")),
    (r"(?P<name>.+) is rolling and tosses no card", N_("{name} is rolling and tosses no card")),
    (r"(?P<name>.+) had already tossed their card", N_("{name} had already tossed their card")),
    (r"(?P<name>.+) had already tossed all (?P<n>\d+) cards", N_("{name} had already tossed all {n} cards")),
    (r"dead heat \(Δ (?P<gap>[^)]+)\): (?P<first>.+) and (?P<second>.+) within the (?P<window>.+) tie window; "
     r"(?P=first) counts first",
     N_("dead heat (Δ {gap}): {first} and {second} within the {window} tie window; {first} counts first")),
    (r"dead heat \(Δ 0 µs\): (?P<first>.+) and (?P<second>.+) in the same µs; (?P=first) was logged first and "
     r"counts first", N_("dead heat (Δ 0 µs): {first} and {second} in the same µs; {first} was logged first and counts first")),
)
