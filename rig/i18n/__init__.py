"""The rig in English and German: one gettext catalogue per language, for the command line and the pages.

``rig/locale/<lang>/LC_MESSAGES/rig.po`` is the source (committed, edited by hand or through
``python -m rig.i18n.extract``, which brings in new message ids). It is compiled with Babel at its first
use in a process (no build step: a fresh clone speaks German). The message ids are the English texts;
placeholders are ``{name}`` (``str.format`` in Python, ``rig.t`` in the pages), plurals are ``ngettext``
entries (``rig.nt`` in the pages).

The pages get the catalogue of their language from the server: embedded in the page
(``<script id="rig-i18n">``) and at ``GET /api/messages?lang=de``. Numbers and dates: Babel here,
``Intl`` in the pages.

The rules core (``rig.rules``, ``rig.engine``) keeps plain English texts; translation happens here and
in the layers that show them (the display, the command line).
"""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

#: The languages the rig's pages and command line speak (``[display] language``; a catalogue each).
LANGUAGES = ("en", "de")
#: the catalogues' folder (``<lang>/LC_MESSAGES/rig.po``)
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "rig"
DEFAULT = "en"
#: the language's own name (the page's switch)
NAMES = {"en": "English", "de": "Deutsch"}


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.lru_cache(maxsize=None)
def catalog(lang: str):
    """The language's Babel catalogue, read from its ``.po``."""
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


@functools.lru_cache(maxsize=None)
def translations(lang: str):
    """The language's compiled translations (``gettext``/``ngettext``), compiled from the ``.po`` in memory."""
    import gettext

    if lang not in LANGUAGES or lang == DEFAULT or not po_path(lang).is_file():
        return gettext.NullTranslations()  # English: the ids are the English texts
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, catalog(lang))
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def language(lang: str | None) -> str:
    """``lang`` if the rig speaks it (``de-AT`` → ``de``), else English."""
    if lang:
        code = lang.replace("_", "-").split("-")[0].split(".")[0].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT


def fill(text: str, values: Mapping[str, Any]) -> str:
    """``text``'s ``{placeholders}`` named in ``values`` filled in; any other brace stays as it is (a text
    may show a JSON object, ``{'white': 4}``), as the pages' ``rigFill`` does."""
    import re

    if not values:
        return text
    return re.sub(r"\{(\w+)\}", lambda m: str(values[m[1]]) if m[1] in values else m[0], text)


def gettext(message: str, lang: str, /, **values: Any) -> str:
    """``message`` in ``lang``, its ``{placeholders}`` filled with ``values``."""
    return fill(translations(language(lang)).gettext(message), values)


def ngettext(singular: str, plural: str, n: int, lang: str, /, **values: Any) -> str:
    """The form of ``n`` (``{n} card`` / ``{n} cards``) in ``lang``; ``{n}`` is filled in."""
    return fill(translations(language(lang)).ngettext(singular, plural, n), dict(values, n=n))


def messages(lang: str) -> dict[str, Any]:
    """The catalogue as the pages take it: ``{"lang", "name", "messages": {id: text or [forms]}}``.

    English has only its plural forms (an id is its own text); a German entry not yet translated is left
    out (the page shows the English id).
    """
    lang = language(lang)
    table: dict[str, Any] = {}
    if po_path(lang).is_file():
        for message in catalog(lang):
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, (tuple, list)):
                forms = [s for s in message.string if s] if message.string else []
                table[message.id[0]] = forms or list(message.id)
            elif message.string:
                table[message.id] = message.string
    return {"lang": lang, "name": NAMES[lang], "languages": {code: NAMES[code] for code in LANGUAGES},
            "messages": table}


def negotiate(accept_language: str | None, default: str = DEFAULT) -> str:
    """The first language of an ``Accept-Language`` header the rig speaks, else ``default``."""
    if not accept_language:
        return default
    ranked = []
    for i, part in enumerate(accept_language.split(",")):
        code, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if code and q > 0:
            ranked.append((-q, i, code.strip()))
    for _q, _i, code in sorted(ranked):
        if code == "*":
            return default
        found = language(code)
        if found != DEFAULT or code.lower().startswith(DEFAULT):
            return found
    return default


def cli_language(environ: Mapping[str, str] | None = None) -> str:
    """The command line's language: the first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` set
    (gettext's order), if the rig speaks it; ``C``/``POSIX`` and others: English."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            return language(value.split(":")[0])
    return DEFAULT


def locale_of(lang: str):
    from babel import Locale

    return Locale.parse({"de": "de_DE", "en": "en_GB"}.get(language(lang), "en_GB"))


def format_number(value: float, lang: str, digits: int | None = None) -> str:
    """``272,0`` in German, ``272.0`` in English (``digits``: fixed decimals)."""
    from babel.numbers import format_decimal

    if digits is None:
        return format_decimal(value, locale=locale_of(lang))
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=locale_of(lang), decimal_quantization=True)


def format_ms(value_ms: float, lang: str, digits: int = 1) -> str:
    """``272,0 ms`` / ``272.0 ms``."""
    return f"{format_number(value_ms, lang, digits)}\u00a0ms"


def format_date(value, lang: str) -> str:
    """``25.11.2026`` / ``25 Nov 2026`` (a date or datetime, or an ISO text)."""
    from datetime import date, datetime

    from babel.dates import format_date as babel_date

    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if isinstance(value, datetime):
        value = value.date()
    assert isinstance(value, date)
    return babel_date(value, format="medium", locale=locale_of(lang))


def format_datetime(value, lang: str) -> str:
    """``25.11.2026, 21:14`` / ``25 Nov 2026, 21:14``."""
    from datetime import datetime

    from babel.dates import format_datetime as babel_datetime

    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return babel_datetime(value, format="medium", locale=locale_of(lang)).rsplit(":", 1)[0]


class Translator:
    """``_`` and ``ngettext`` bound to one language (the command line's, or a request's)."""

    def __init__(self, lang: str) -> None:
        self.lang = language(lang)

    def __call__(self, message: str, /, **values: Any) -> str:
        return gettext(message, self.lang, **values)

    def n(self, singular: str, plural: str, n: int, /, **values: Any) -> str:
        return ngettext(singular, plural, n, self.lang, **values)


def cli_gettext(message: str, /, **values: Any) -> str:
    """``message`` in the command line's language (:func:`cli_language`): a command's ``--help`` texts,
    called as ``_()`` when its parser is built."""
    return gettext(message, cli_language(), **values)


def N_(message: str) -> str:  # noqa: N802 (gettext's name for "mark for extraction, translate later")
    """Mark ``message`` for the catalogue without translating it here (it is translated where shown)."""
    return message


def said(text: str) -> str:
    """A text said as it is, in English, and translated where it is shown (a warning of ``rig config check``): a
    message id of its own (:data:`rig.i18n.extract.CORE_CALLS`)."""
    return text


def translate_all(values: Iterable[str], lang: str) -> list[str]:
    return [gettext(v, lang) for v in values]


#: the cookie the page's language switch sets (with localStorage ``rig-lang``), so the server renders it
COOKIE = "rig-lang"


def request_language(query: Mapping[str, str], cookies: Mapping[str, str], accept_language: str | None,
                     *, local: bool, configured: str) -> str:
    """A viewer's language: ``?lang=`` > the page's switch (cookie) > the rig's own display (the kiosk):
    the config's ``[display] language`` > the browser's ``Accept-Language`` > the config's."""
    for chosen in (query.get("lang"), cookies.get(COOKIE)):
        if chosen and language(chosen) == chosen.lower()[:2] and chosen.lower()[:2] in LANGUAGES:
            return language(chosen)
    if local:
        return language(configured)
    return negotiate(accept_language, language(configured))


# --------------------------------------------------------------------------- texts said in English
# What the rules core and the games write is plain English (the core imports nothing of this). The
# layers that show it translate the common ones by pattern: a regular expression over the English text,
# its named groups the placeholders of a message id; a group's value that is itself a message id (a
# colour, "first") is translated too.

Patterns = tuple[tuple[str, str], ...]
#: the catalogues' flag on a text the rig shows as it is (:func:`rig.i18n.extract.core_texts`)
CORE_FLAG = "core-text"


def by_pattern(text: str, lang: str, patterns: Patterns) -> str:
    """``text`` in ``lang`` by the first of ``patterns`` it matches whole; unmatched, as it is."""
    import re

    lang = language(lang)
    if lang == DEFAULT:
        return text
    for pattern, message_id in patterns:
        found = re.fullmatch(pattern, text)
        if found:
            values = {k: _value(v, lang, patterns) for k, v in found.groupdict().items()}
            said = gettext(message_id, lang, **values)
            return said[:1].upper() + said[1:] if text[:1].isupper() else said  # "Was that …?" as a notice says it
    return text


def _value(text: str | None, lang: str, patterns: Patterns) -> str:
    """A group's value in ``lang``: a decimal number in the language's form (``2.7`` -> ``2,7``), a message id's
    text, else by the patterns (a text inside a text).

    >>> _value("2.70", "de", ())
    '2,70'
    """
    import re

    if not text:
        return ""
    decimal = re.fullmatch(r"[-+]?\d+\.(\d+)", text)
    if decimal:
        return format_number(float(text), lang, digits=len(decimal[1]))
    said = gettext(text, lang)
    return said if said != text else by_pattern(text, lang, patterns)


def id_pattern(message_id: str, groups: Mapping[str, str] | None = None) -> str:
    """The regular expression matching what ``message_id`` says in English, a named group for each
    ``{placeholder}`` (the texts the rig shows as they are: :func:`rig.i18n.extract.core_texts`); ``groups``:
    what a placeholder may be (a regular expression; anything by default)."""
    import re

    out, seen = [], set()
    for i, part in enumerate(re.split(r"\{(\w+)\}", message_id)):
        if i % 2 == 0:
            escaped = re.sub(r"[\\.^$*+?()\[\]{}|]", lambda m: "\\" + m[0], part)
            if i == 0 and part[:1].isalpha():  # a notice may say it capitalised ("Was that …?")
                escaped = f"[{part[0].upper()}{part[0].lower()}]{escaped[1:]}"
            out.append(escaped)
        elif part in seen:
            out.append(f"(?P={part})")
        else:
            seen.add(part)
            out.append(f"(?P<{part}>{(groups or {}).get(part, '.*?')})")
    return "".join(out)


@functools.lru_cache(maxsize=None)
def core_patterns() -> Patterns:
    """The texts the rig shows as they are: the pattern of each id flagged ``core-text`` in the catalogue
    (:func:`rig.i18n.extract.core_texts`), the most specific (the most words of its own) first."""
    import re

    ids = [m.id for m in catalog(DEFAULT) if m.id and isinstance(m.id, str) and CORE_FLAG in m.flags]
    ids.sort(key=lambda m: -len(re.sub(r"\{\w+\}", "", m)))
    return tuple((id_pattern(m), m) for m in ids)


def page_patterns(lang: str, patterns: Patterns) -> list[list[str]]:
    """``patterns`` for the pages (``rig.t`` tries them when a text is no message id): each
    ``[JavaScript regular expression, the message in lang]``."""
    import re

    def js(pattern: str) -> str:
        return re.sub(r"\(\?P=(\w+)\)", r"\\k<\1>", pattern).replace("(?P<", "(?<")

    return [[js(pattern), gettext(message_id, lang)] for pattern, message_id in patterns]
