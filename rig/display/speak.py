"""The web apps' error answers in the viewer's language (pure ASGI, around the rig's display and the league).

Every ``{"error": "…"}`` an app answers (a 4xx: a body of the wrong shape, a refusal of the rules, a wrong PIN;
a 5xx with its incident) is written in English where it is raised, and is a message id of the catalogue
(:func:`rig.i18n.extract.core_texts`: the web layers' error texts, the rules modules' errors, the engine's
refusals). :class:`Speak` says it in the request's language, as a page would be served
(:func:`rig.i18n.request_language`: ``?lang=`` or the page's own language in the ``X-Rig-Lang`` header, the
page's switch, the rig's own display, ``Accept-Language``),
matching the English text whole with the patterns of :func:`rig.display.texts.rules_texts`. A text no pattern
matches is passed on in English; anything but a JSON error answer is passed on untouched.

>>> from rig.display.speak import said_in
>>> said_in(b'{"error": "no camera frame yet"}', "de").decode()
'{"error": "noch kein Kamerabild"}'
"""

from __future__ import annotations

import json
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qsl

from rig import i18n


#: the header a page sends its own language in (``static/common.js`` ``rig.post``): its refusals in that language
PAGE_HEADER = "x-rig-lang"


def said_in(body: bytes, lang: str) -> bytes:
    """A JSON answer's ``error`` in ``lang`` (the body as it is when it is no JSON object with a text ``error``)."""
    from rig.display.texts import rules_texts

    try:
        answer = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return body
    if not isinstance(answer, dict) or not isinstance(answer.get("error"), str):
        return body
    english = answer["error"]
    said = i18n.Translator(lang)(english)  # a message id ("Not Found"), else by the patterns
    if said == english:
        said = i18n.by_pattern(english, lang, rules_texts())
    if said == english:
        return body
    return json.dumps(dict(answer, error=said), ensure_ascii=False).encode()


def request_language(scope, configured: str) -> str:
    """The language of an ASGI HTTP request, as :func:`rig.i18n.request_language` chooses it."""
    from rig.display.middleware import is_loopback

    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or ()}
    query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
    if "lang" not in query and headers.get(PAGE_HEADER):  # the page's own language, as ?lang= says it
        query["lang"] = headers[PAGE_HEADER]
    cookies: dict[str, str] = {}
    try:
        jar = SimpleCookie(headers.get("cookie", ""))
        cookies = {key: morsel.value for key, morsel in jar.items()}
    except CookieError:
        pass
    client = scope.get("client")
    app = scope.get("app")
    configured = getattr(getattr(app, "state", None), "language", None) or configured
    return i18n.request_language(query, cookies, headers.get("accept-language"),
                                 local=is_loopback(client[0] if client else None), configured=configured)


class Speak:
    """ASGI middleware: a JSON error answer (status 400 and up) in the request's language (see the module).
    ``language``: the rig's configured one (``[display] language``; the app's ``state.language`` wins)."""

    def __init__(self, app, *, language: str = i18n.DEFAULT) -> None:
        self.app = app
        self.language = language

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lang = request_language(scope, self.language)
        if lang == i18n.DEFAULT:
            await self.app(scope, receive, send)
            return
        held: dict = {}

        async def speaking(message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or ())
                kind = dict(headers).get(b"content-type", b"")
                if message["status"] >= 400 and kind.startswith(b"application/json"):
                    held.update(start=message, headers=headers, body=b"")
                    return
            elif message["type"] == "http.response.body" and "start" in held:
                held["body"] += message.get("body", b"")
                if message.get("more_body"):
                    return
                body = said_in(held.pop("body"), lang)
                headers = [(k, v) for k, v in held["headers"] if k != b"content-length"]
                headers.append((b"content-length", str(len(body)).encode()))
                await send(dict(held.pop("start"), headers=headers))
                await send({"type": "http.response.body", "body": body})
                return
            await send(message)

        await self.app(scope, receive, speaking)
