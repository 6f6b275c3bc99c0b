"""Which texts the rig shows, and bringing them into the catalogues.

The message ids come from the source, by Babel's extractors:

- Python: ``_("…")``, ``N_("…")``, ``gettext("…")``, ``ngettext("…", "…", n)`` (and ``_.n("…", "…", n)``);
- the pages' scripts: ``rig.t("…")`` and ``rig.nt("…", "…", n)`` (``rigI18n.t``, ``rigI18n.nt`` on the league page);
- the pages' HTML: the text, ``title``, ``aria-label``, ``placeholder`` and ``alt`` of every element marked ``data-i18n``
  (:func:`extract_html`; the server translates those same texts when it serves the page,
  :func:`translate_html`);
- each registered game's title, description, key line, keys and player hint (the Game menu);
- the texts the rig says as they are, in English, and translates where it shows them (:func:`core_texts`):
  refusals, notices, the rules modules' errors, the API's error bodies, ``rig plan``'s notes.

``python -m rig.i18n.extract`` writes every id into ``rig/locale/*/LC_MESSAGES/rig.po`` (keeping the
translations there, marking the ids no longer in the source obsolete); ``tests/test_i18n.py`` counts the
German translations and fails below 100 %.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Iterator
from pathlib import Path

from rig.i18n import CORE_FLAG, DOMAIN, LANGUAGES, gettext, po_path

ROOT = Path(__file__).resolve().parent.parent
PY_KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "n": (1, 2)}
JS_KEYWORDS = {"rig.t": None, "rig.nt": (1, 2), "rigI18n.t": None, "rigI18n.nt": (1, 2)}

# an element marked data-i18n: its attributes and its text (no child elements: mark the child instead)
_MARKED = re.compile(r"<(?P<tag>[a-zA-Z0-9]+)(?P<attrs>[^>]*\sdata-i18n(?=[\s=>])[^>]*)>(?P<text>[^<]*)", re.S)
_ATTR = re.compile(r'\s(?P<name>title|aria-label|placeholder|alt)="(?P<value>[^"]*)"')


def _norm(text: str) -> str:
    return " ".join(html.unescape(text).split())


def html_messages(text: str) -> Iterator[tuple[int, str]]:
    """``(line, message id)`` of each text marked ``data-i18n`` in a page."""
    for match in _MARKED.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        body = _norm(match["text"])
        if body:
            yield line, body
        for attr in _ATTR.finditer(match["attrs"]):
            if _norm(attr["value"]):
                yield line, _norm(attr["value"])


def translate_html(text: str, lang: str) -> str:
    """The page with every ``data-i18n`` text in ``lang`` (the rest as it is; the marks taken out)."""

    def element(match: re.Match) -> str:
        attrs = _ATTR.sub(lambda a: f' {a["name"]}="{html.escape(gettext(_norm(a["value"]), lang))}"'
                          if _norm(a["value"]) else a[0], match["attrs"])
        body = match["text"]
        if _norm(body):
            lead = body[: len(body) - len(body.lstrip())]
            trail = body[len(body.rstrip()):]
            body = f"{lead}{html.escape(gettext(_norm(body), lang), quote=False)}{trail}"
        attrs = re.sub(r"\sdata-i18n(?=[\s>]|$)", "", attrs)  # the mark has done its work
        return f"<{match['tag']}{attrs}>{body}"

    return _MARKED.sub(element, text)


def render_page(text: str, lang: str, catalogue: dict) -> str:
    """A page in ``lang``: ``<html lang>``, its ``data-i18n`` texts, and ``catalogue`` embedded for its
    scripts (``<script id="rig-i18n">``, read by ``static/i18n.js``)."""
    import json

    text = re.sub(r'<html lang="[^"]*"', f'<html lang="{lang}"', translate_html(text, lang), count=1)
    embedded = json.dumps(catalogue, ensure_ascii=False).replace("</", "<\\/")
    return text.replace("</head>", f'<script type="application/json" id="rig-i18n">{embedded}</script>\n</head>', 1)


def extract_html(fileobj, keywords, comment_tags, options):
    """A Babel extraction method for the pages' HTML (``data-i18n``)."""
    text = fileobj.read().decode("utf-8")
    for line, message in html_messages(text):
        yield line, "_", message, []


def _files() -> Iterator[tuple[Path, str]]:
    core = (ROOT / "rules", ROOT / "engine")
    for path in sorted(ROOT.rglob("*.py")):
        if not any(path.is_relative_to(c) for c in core):
            yield path, "python"
    for path in sorted(ROOT.rglob("*.js")):
        yield path, "javascript"
    for path in sorted(ROOT.rglob("*.html")):
        yield path, "html"


_JS_STRING = r'"((?:[^"\\]|\\.)*)"'
_JS_T = re.compile(rf"\b(?:rig|rigI18n)\.t\(\s*{_JS_STRING}")
_JS_NT = re.compile(rf"\b(?:rig|rigI18n)\.nt\(\s*{_JS_STRING}\s*,\s*{_JS_STRING}")


def _js_calls(text: str) -> Iterator[tuple[int, str | tuple[str, str]]]:
    """``(line, id)`` of every ``rig.t("…")`` and ``rig.nt("…", "…")`` with literal ids, by a plain scan."""
    import json

    for match in _JS_T.finditer(text):
        yield text.count("\n", 0, match.start()) + 1, json.loads(f'"{match[1]}"')
    for match in _JS_NT.finditer(text):
        yield text.count("\n", 0, match.start()) + 1, (json.loads(f'"{match[1]}"'), json.loads(f'"{match[2]}"'))


def _game_messages() -> Iterator[tuple[str, str]]:
    from rig import registry

    for game in registry.games():
        where = f"rig.games.{game.name}"
        for text in (game.title, game.short_title, game.description, game.key_hint, game.player_hint):
            if text:
                yield where, text
        for _key, what in game.keys:
            yield where, what


def source_messages() -> dict[str | tuple[str, str], list[tuple[str, int]]]:
    """Every message id the rig shows, with where it is (``(file, line)``); a plural is ``(one, many)``."""
    from babel.messages.extract import extract

    found: dict[str | tuple[str, str], list[tuple[str, int]]] = {}
    for path, method in _files():
        with path.open("rb") as fh:
            if method == "html":
                items = ((line, message) for line, _f, message, _c in extract_html(fh, None, None, None))
            else:
                keywords = PY_KEYWORDS if method == "python" else JS_KEYWORDS
                options = {"parse_template_string": "true"} if method == "javascript" else {}  # rig.t inside `${…}` too
                items = ((line, message) for line, message, _c, _x in extract(method, fh, keywords=keywords,
                                                                              options=options))
            if method == "javascript":  # and every call Babel's lexer misses (inside `${…}` with an object)
                items = [*items, *_js_calls(path.read_text(encoding="utf-8"))]
            for line, message in items:
                if isinstance(message, tuple):
                    message = tuple(m for m in message if m)[:2]
                    if len(message) == 1:
                        message = message[0]
                if message:
                    found.setdefault(message, []).append((str(path.relative_to(ROOT.parent)), line))
    for where, text in _game_messages():
        found.setdefault(text, []).append((where, 0))
    for message, where in core_texts().items():
        found.setdefault(message, []).extend(where)
    return found


#: the calls whose text argument the rig shows as it is, in English (the rules core and the rig's layers stay
#: plain English and I/O-free): the call's name and the argument's position. Each literal or f-string there is
#: a message id of its own (its ``{…}`` named, :func:`core_texts`), flagged :data:`CORE_FLAG` in the
#: catalogues; the pages and the command line match the English text with it (:func:`rig.i18n.id_pattern`)
CORE_CALLS = {"EventRefused": 0, "EventFormatError": 0, "NoSuchGame": 0, "Violation": 2, "RollCancelled": 1, "Question": 0,
              "Notice": 1, "notice": 1, "said": 0,
              "fail": 1}  # the config layer's errors: ``self.fail(key, "…")`` says "{where}: {key}: …" (rig.cli.ERROR_LINES)
#: the functions whose returned texts (and ``{"error": …}`` answers) are shown as they are: the copy problem,
#: the lost events' notice, the live stream's refusals (the viewer cap), the roll tracker's violation details
CORE_RETURNS = {"score_problem", "loss_text", "stream", "not_all_cast", "rolls_over"}
#: the rules modules (and the camera planner): the text of every error they raise (``raise PlayerCountError(f"…")``)
#: is passed on as a refusal, an API error or a command's error line, as it is
RULES_MODULES = ("rig/rules/*.py", "rig/games/*/rules.py", "rig/games/*/rules/*.py", "rig/plan.py",
                 "rig/config/*.py",  # the config file's errors (`rig config check`, `rig run`)
                 "rig/cli/*.py")  # and the commands: their errors, one line each (rig.cli.localise_error)
#: errors not shown by :func:`rig.cli.localise_error` as their first argument (argparse prints them itself: they go
#: through ``_()``; the config parser's ``fail(key, text)``: its text is the second, :data:`CORE_CALLS`)
NOT_SAID_AS_IS = {"ArgumentTypeError", "fail"}
#: the web layers: every ``{"error": …}`` they answer, every error they raise, and the texts of
#: :data:`WEB_CALLS` are API error bodies (translated into the request's language: rig.display.speak)
WEB_MODULES = ("rig/display/*.py", "rig/league/app.py")
WEB_CALLS = {"BadBody", "error", "_error", "_json"}


#: calls a placeholder is named through (``{sorted(unknown)}`` is ``{unknown}``)
_WRAPPERS = {"sorted", "list", "dict", "str", "repr", "tuple", "set"}


def _placeholder(node) -> str:
    """A ``{…}``'s name in the message id: the variable's or attribute's name, ``n`` for ``len(…)``."""
    import ast

    if isinstance(node, ast.Name):
        return node.id.strip("_") or "value"
    if isinstance(node, ast.Attribute):
        return node.attr.strip("_") or "value"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
        return "n"
    if isinstance(node, ast.Call) and node.args and (  # {', '.join(sorted(names))}, {list(counts)}: names, counts
            (isinstance(node.func, ast.Attribute) and node.func.attr == "join")
            or (isinstance(node.func, ast.Name) and node.func.id in _WRAPPERS)):
        return _placeholder(node.args[0])
    if isinstance(node, ast.Subscript):  # {body['step']}: step; {dice[0]}: dice
        if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            return node.slice.value
        return _placeholder(node.value)
    if isinstance(node, ast.BinOp):  # {k + 1}
        return _placeholder(node.left)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args
            and isinstance(node.args[0], ast.Constant)):
        return str(node.args[0].value)
    return "value"


def _message_id(node) -> str | None:
    """The message id of a literal or f-string (``{turn.roller}`` → ``{roller}``); None for anything else."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if not isinstance(node, ast.JoinedStr):
        return None
    parts, seen = [], {}
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
            continue
        name = _placeholder(value.value).lower()
        seen[name] = seen.get(name, 0) + 1
        parts.append("{" + (name if seen[name] == 1 else f"{name}{seen[name]}") + "}")
    return "".join(parts)


def core_texts() -> dict[str, list[tuple[str, int]]]:
    """Every English text the rig shows as it is (a refusal's reason, a violation's detail, a question, a
    notice, a note of ``rig plan``: :data:`CORE_CALLS`; the copy problem: :data:`CORE_RETURNS`; every error
    the rules modules raise: :data:`RULES_MODULES`; every error body of the web layers: :data:`WEB_MODULES`),
    as a message id, with where it is said. Counted with the rest by ``tests/test_i18n.py``: a new one
    without German fails it."""
    import ast

    found: dict[str, list[tuple[str, int]]] = {}

    def add(node, path: Path) -> None:
        if isinstance(node, ast.IfExp):  # one text or the other
            add(node.body, path)
            add(node.orelse, path)
            return
        message = _message_id(node)
        if message and message.strip("{}") and not re.fullmatch(r"\{\w+\}", message):
            found.setdefault(message, []).append((str(path.relative_to(ROOT.parent)), node.lineno))

    def matches(path: Path, globs: tuple[str, ...]) -> bool:
        return any(path.relative_to(ROOT.parent).match(glob) for glob in globs)

    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rules, web = matches(path, RULES_MODULES), matches(path, WEB_MODULES)
        for node in ast.walk(tree):
            if ((rules or web) and isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args
                    and getattr(node.exc.func, "attr", getattr(node.exc.func, "id", None)) not in NOT_SAID_AS_IS):
                add(node.exc.args[0], path)
            if web and isinstance(node, ast.Call) and getattr(node.func, "id", None) in WEB_CALLS:
                for arg in node.args:
                    add(arg, path)
            if web and isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if isinstance(key, ast.Constant) and key.value == "error":
                        add(value, path)
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if name in CORE_CALLS and len(node.args) > CORE_CALLS[name]:
                    add(node.args[CORE_CALLS[name]], path)
                    for keyword in node.keywords:
                        if keyword.arg == "action":  # a notice's button ("Recalibrate")
                            add(keyword.value, path)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in CORE_RETURNS:
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Return) and inner.value is not None:
                        add(inner.value, path)
                    elif isinstance(inner, ast.Dict):
                        for key, value in zip(inner.keys, inner.values):
                            if isinstance(key, ast.Constant) and key.value == "error":
                                add(value, path)
    return found


def template():
    """The catalogue template: every id of :func:`source_messages`."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(domain=DOMAIN, project="rig", charset="utf-8")
    core = core_texts()
    for message, where in source_messages().items():
        flags = ("python-brace-format",) if "{" in (message if isinstance(message, str) else message[0]) else ()
        if message in core:
            flags += (CORE_FLAG,)
        catalog.add(message, locations=where, flags=flags)
    return catalog


def update() -> dict[str, int]:
    """Bring every id into each language's ``.po``; English says each id as it is (the ids are English). Returns the ids counted."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    counts = {}
    for lang in LANGUAGES:
        pot = template()  # a template of its own: the catalogue takes its new messages over as they are
        path = po_path(lang)
        if path.is_file():
            with path.open("rb") as fh:
                catalog = read_po(fh, locale=lang, domain=DOMAIN)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="rig", charset="utf-8")
        catalog.update(pot, no_fuzzy_matching=True, update_creation_date=False)
        catalog.obsolete.clear()
        catalog.fuzzy = False
        catalog.project, catalog.version = "rig", ""
        catalog.copyright_holder = "the rig's authors"
        if lang == "en":  # the ids are English: each says itself
            for message in catalog:
                if message.id:
                    message.string = tuple(message.id) if isinstance(message.id, (tuple, list)) else message.id
        path.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        write_po(buffer, catalog, width=120, omit_header=False, sort_output=False, include_lineno=False)
        path.write_bytes(buffer.getvalue())
        counts[lang] = len([m for m in catalog if m.id])
    return counts


if __name__ == "__main__":  # pragma: no cover
    print(update())
