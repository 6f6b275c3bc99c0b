"""The rig in English and German (issue 27): every text shown is in the catalogues, German 100 %
translated, plurals, numbers and dates in the viewer's locale, the pages and the command line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from datetime import date, datetime

import pytest

from rig import i18n
from rig.config import RigConfig
from rig.errors import ConfigError
from rig.i18n.extract import html_messages, source_messages, translate_html

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PLACEHOLDER = re.compile(r"\{(\w+)\}|%\((\w+)\)[sdr]|%[sd]")


def catalogue_entries(lang):
    return {(tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id): m for m in i18n.catalog(lang) if m.id}


def translated(message) -> bool:
    if message.fuzzy:
        return False
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return bool(strings) and all(strings)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_text_shown_is_translated(lang):
    """Counted from the source (Babel's extractors over the Python, the pages' scripts and HTML, the games'
    menu texts) against the language's catalogue: 100 % or the missing ones are named."""
    shown = source_messages()
    entries = catalogue_entries(lang)
    assert len(shown) > 250  # the scoreboard, the four games' pages, the menu, rig --help, the errors
    done = [m for m in shown if m in entries and translated(entries[m])]
    missing = [m for m in shown if m not in done]
    share = len(done) / len(shown)
    assert missing == [], (f"{lang}: {len(done)} of {len(shown)} texts translated ({share:.1%}); add these to "
                           f"rig/locale/{lang}/LC_MESSAGES/rig.po (python -m rig.i18n.extract brings new ids in): "
                           f"{missing[:20]}")
    assert share == 1.0


#: German texts that are the English ones (names, loan words, symbols); any other German text equal to its
#: id was not translated (an id copied over)
SAME_IN_GERMAN = {
    "pink", "PIN", "PIN {pin}", "Lunar Laser Frogs", "Laser Frogs", "Würfelblitz", "LEGO Lunar Command", "LEGO Lunar",
    "Banana Moon", "SIMULATION", "●", "Handicap", "auto", "argument %(argument_name)s: %(message)s", "Export",
    "ok", "UFO +2", "Ritual", "live", "online", "offline",
    "{first}; {rest}", "{first}, {rest}", "{where}: {key}: {message}", "true/false",
}


def test_no_german_text_is_its_english_id():
    same = [key for key, message in catalogue_entries("de").items()
            if (tuple(message.string) if isinstance(key, tuple) else message.string) == key and key not in SAME_IN_GERMAN]
    assert same == [], f"German texts that are still English: {same[:20]}"


def test_a_translation_keeps_the_placeholders_of_its_id():
    for key, message in catalogue_entries("de").items():
        ids = key if isinstance(key, tuple) else (key,)
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        want = sorted(PLACEHOLDER.findall(ids[-1]))
        for text in strings:
            assert sorted(PLACEHOLDER.findall(text)) == want, (key, text)


def test_the_german_words_are_the_rulebooks():
    """Laser Frogs' colours and cards as the German rulebook names them; Würfelblitz's discs and twister."""
    de = i18n.Translator("de")
    assert [de(c) for c in ("blue", "pink", "yellow", "blank", "gray")] == ["blau", "pink", "gelb", "blanko", "grau"]
    assert de("Discs") == "Wertungsscheiben" and de("Hirnverdreher (twister)") == "Hirnverdreher"
    assert de("{name}'s turn", name="Jürgen") == "Jürgen am Zug"


def test_plurals_in_both_languages():
    assert [i18n.ngettext("{n} turn", "{n} turns", n, "en") for n in (0, 1, 2)] == ["0 turns", "1 turn", "2 turns"]
    assert [i18n.ngettext("{n} turn", "{n} turns", n, "de") for n in (0, 1, 2)] == ["0 Züge", "1 Zug", "2 Züge"]


def test_numbers_and_dates_in_the_locale():
    assert i18n.format_ms(272.0, "de") == "272,0\u00a0ms" and i18n.format_ms(272.0, "en") == "272.0\u00a0ms"
    assert i18n.format_number(1234.5, "de", 1) == "1.234,5"
    assert i18n.format_date(date(2026, 11, 25), "de") == "25.11.2026"
    assert i18n.format_date("2026-11-25T21:14:00", "en") == "25 Nov 2026"
    assert i18n.format_datetime(datetime(2026, 11, 25, 21, 14), "de") == "25.11.2026, 21:14"


@pytest.mark.parametrize("header, want", [
    ("de-DE,de;q=0.9,en;q=0.8", "de"), ("en-US,en;q=0.9,de;q=0.5", "en"), ("fr-FR,de;q=0.7", "de"),
    ("fr-FR", "en"), ("", "en"), ("de;q=0", "en"), ("*", "en"), ("de-AT", "de"), ("xx;q=abc,de", "de"),
])
def test_the_browser_language_is_negotiated(header, want):
    assert i18n.negotiate(header) == want


def test_the_viewer_language_order():
    ask = i18n.request_language
    assert ask({"lang": "de"}, {"rig-lang": "en"}, "en", local=True, configured="en") == "de"
    assert ask({}, {"rig-lang": "de"}, "en", local=False, configured="en") == "de"
    assert ask({}, {}, "de-DE", local=True, configured="en") == "en"  # the kiosk follows the config
    assert ask({}, {}, "de-DE", local=False, configured="en") == "de"  # a phone its browser
    assert ask({"lang": "fr"}, {"rig-lang": "<script>"}, None, local=False, configured="de") == "de"


def test_the_cli_language_is_that_of_the_environment():
    assert i18n.cli_language({"LANG": "de_DE.UTF-8"}) == "de"
    assert i18n.cli_language({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "C"}) == "en"
    assert i18n.cli_language({"LANGUAGE": "de:en", "LANG": "C.UTF-8"}) == "de"
    assert i18n.cli_language({"LC_ALL": "fr_FR.UTF-8"}) == "en"
    assert i18n.cli_language({}) == "en"


def rig_cli(*args, lang="de_DE.UTF-8"):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env["LANG"] = lang
    code = "import sys\nfrom rig.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)


def test_rig_help_in_german():
    done = rig_cli("--help")
    assert done.returncode == 0
    assert done.stdout.startswith("Aufruf: rig") and "Optionen:" in done.stdout
    assert "einen Zug als JSON werten" in done.stdout  # rig score's line
    assert "Scoring rig" not in done.stdout


def test_rig_errors_in_german_stay_one_line_with_exit_code_2(tmp_path):
    done = rig_cli("config", "check", str(tmp_path / "nicht-da.toml"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("rig config: Fehler: ") and "keine solche Konfigurationsdatei" in done.stderr
    bad = tmp_path / "rig.toml"
    bad.write_text('[display]\nlanguage = "fr"\n', encoding="utf-8")
    done = rig_cli("config", "check", str(bad))
    assert done.returncode == 2 and "ist keine Sprache, die das Rig spricht" in done.stderr
    done = rig_cli("score", "--no-such-option", "x.json")
    assert done.returncode == 2 and "unbekannte Argumente: --no-such-option" in done.stderr
    english = rig_cli("config", "check", str(bad), lang="C.UTF-8")
    assert english.returncode == 2 and "is not a language the rig speaks" in english.stderr


@pytest.mark.parametrize("command", [["plan"], ["score"], ["run"], ["config", "check"], ["tosses"], ["history"]])
def test_each_commands_help_in_german(command):
    """A command's own --help: its description and every option's line come from the catalogue."""
    german = rig_cli(*command, "--help")
    english = rig_cli(*command, "--help", lang="C.UTF-8")
    assert german.returncode == english.returncode == 0
    assert german.stdout.startswith("Aufruf: rig") and "Optionen:" in german.stdout
    assert english.stdout.startswith("usage: rig") and "options:" in english.stdout
    lines = {line.split("  ")[-1].strip() for line in english.stdout.splitlines()[1:]}
    english_words = re.compile(r"\b(the|a|of|and|or|to|default|with|from)\b")
    same = [line for line in german.stdout.splitlines() if line.split("  ")[-1].strip() in lines
            and english_words.search(line) and not line.lstrip().startswith(("[", "-"))]  # usage lines, metavars
    assert same == [], f"still English in rig {' '.join(command)} --help: {same}"


def test_rig_plan_help_and_its_errors_in_german():
    done = rig_cli("plan", "--help")
    assert "das Kameramodell (Standard: [build] camera)" in done.stdout
    assert "die Konfigurationsdatei des Rigs (Standard:" in done.stdout and "simulated players" not in done.stdout
    done = rig_cli("plan", "--size", "12")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.splitlines()[-1] == (
        "rig plan: Fehler: Argument --size: '12': die Bildgröße wie 1280x960 schreiben")


def test_the_display_language_is_checked_in_the_config():
    assert RigConfig.parse('[display]\nlanguage = "de"\n').display.language == "de"
    assert RigConfig.parse("").display.language == "en"
    for bad in ('"fr"', '"DE"', "1", '""'):
        with pytest.raises(ConfigError, match="display.language"):
            RigConfig.parse(f"[display]\nlanguage = {bad}\n")


def test_a_page_is_served_in_the_viewers_language():
    html = '<html lang="en"><head></head><button id="b" title="undo the last change" data-i18n>Undo</button></html>'
    assert [m for _line, m in html_messages(html)] == ["Undo", "undo the last change"]
    out = translate_html(html, "de")
    assert '<button id="b" title="die letzte Änderung zurücknehmen">Rückgängig</button>' in out


@pytest.fixture
def service():
    from rig.engine import EngineService

    service = EngineService.in_memory(clock="sim")
    yield service
    service.close()


def test_the_pages_and_the_catalogue_route(service):
    from rig.display.app import create_app

    app = create_app(service, pin="42424242", language="de")
    kiosk = TestClient(app, client=("127.0.0.1", 5000), base_url="http://127.0.0.1:8080")
    page = kiosk.get("/", headers={"accept-language": "en-GB"})  # the kiosk follows the config
    assert page.status_code == 200 and page.text.startswith('<!doctype html>\n<html lang="de">')
    assert ">Neues Spiel</button>" in page.text and 'id="rig-i18n"' in page.text
    assert page.headers["content-language"] == "de"
    phone = TestClient(app, client=("192.168.1.23", 4000), base_url="http://192.168.1.2:8080")
    english = phone.get("/", headers={"accept-language": "en-US,en;q=0.9"})
    assert '<html lang="en">' in english.text and ">New game</button>" in english.text
    switcher = TestClient(app, client=("192.168.1.24", 4000), base_url="http://192.168.1.2:8080", cookies={"rig-lang": "de"})
    switched = switcher.get("/", headers={"accept-language": "en-US"})  # the page's switch
    assert '<html lang="de">' in switched.text
    assert '<html lang="de">' in phone.get("/calibrate?lang=de").text
    messages = phone.get("/api/messages?lang=de").json()
    assert messages["lang"] == "de" and messages["messages"]["New game"] == "Neues Spiel"
    assert messages["messages"]["{n} turn"] == ["{n} Zug", "{n} Züge"]
    assert phone.get("/api/messages?lang=fr").status_code == 400
    assert phone.get("/api/messages", headers={"accept-language": "de"}).json()["lang"] == "de"
    games = {g["name"]: g for g in phone.get("/api/display", headers={"accept-language": "de"}).json()["games"]}
    assert games["blitz"]["key_hint"].startswith("Tasten:") and games["frogs"]["title"] == "Lunar Laser Frogs"


def test_what_the_rules_core_says_is_translated_by_pattern():
    """The card reasons, the tosses that do not count and the dead heats: English from the core, German
    on the page (each pattern matches what the core writes; the page gets the same patterns)."""
    from rig.display.texts import rules_texts
    from rig.games.frogs.rules import Card, FrogsRules
    from rig.games.frogs.view import dead_heat_text

    rules = FrogsRules()
    said = [
        rules.card_points(Card.BLUE, 1, 0, [], {"blue": 1})[1], rules.card_points(Card.PINK, 2, 3, [], {"pink": 3})[1],
        rules.card_points(Card.BLANK, 1, 2, [], {"blank": 2})[1], rules.card_points(Card.GRAY, 1, 1, [], {})[1],
        rules.card_points(Card.GRAY, 1, 3, [], {})[1], rules.card_points(Card.GRAY, 2, 4, [1], {})[1],
        rules.card_points(Card.YELLOW, 9, 5, [], {"yellow": 1})[1],
        dead_heat_text("Jürgen", "Weiß", 3, 50), dead_heat_text("Jürgen", "Weiß", 0, 0),
        "Weiß is rolling and tosses no card", "before the turn started",
    ]
    german = [i18n.by_pattern(text, "de", rules_texts()) for text in said]
    assert german[:4] == ["erste Karte blau: 1 Würfel blau", "nur die erste Karte pink zählt",
                          "erste Karte blanko: 2 × 2 Würfel blanko", "erste Karte grau: 1 Karte davor"]
    assert german[7].startswith("gleichauf (Δ 3 µs): Jürgen und Weiß im Gleichstandsfenster")
    unmatched = [text for text, out in zip(said, german) if out == text]
    assert unmatched == []
    assert all(i18n.by_pattern(text, "en", rules_texts()) == text for text in said)
    page = i18n.page_patterns("de", rules_texts())
    assert all("(?P" not in source for source, _text in page)  # JavaScript's named groups and back-references


def test_a_number_inside_a_text_said_in_english_takes_the_languages_decimal_comma():
    """A warning's or a notice's figure (``2.7``, ``x0.40``) in German as the language writes it, its decimals
    kept; whole numbers and places as they are; English untouched."""
    from rig.display.texts import rules_texts

    said = {
        "yellow separation only 2.7": "Trennung gelb nur 2,7",
        "The light changed — recalibrate (darker x0.40)": "Das Licht hat sich geändert — neu kalibrieren (dunkler ×0,40)",
    }
    assert {english: i18n.by_pattern(english, "de", rules_texts()) for english in said} == said
    assert all(i18n.by_pattern(english, "en", rules_texts()) == english for english in said)


def test_the_league_page_in_the_viewers_language():
    from rig.league.app import create_league_app
    from rig.league.store import LeagueStore

    client = TestClient(create_league_app(LeagueStore(":memory:")))
    german = client.get("/", headers={"accept-language": "de-CH,de;q=0.9"})
    assert '<html lang="de">' in german.text and "<h2>Tabelle</h2>" in german.text and 'id="rig-i18n"' in german.text
    assert '<html lang="en">' in client.get("/", headers={"accept-language": "en"}).text
    assert client.get("/static/i18n.js").status_code == 200


def test_the_texts_the_rig_shows_as_they_are_are_counted():
    """A refusal's reason, a violation's detail, a question, a notice, the copy problem, the viewer cap: each
    literal or f-string the rig shows is a message id of its own (flagged core-text) that the 100 % count
    above includes, and its pattern matches what the rig says."""
    from rig.display.texts import core_patterns
    from rig.i18n.extract import CORE_FLAG, core_texts

    core = core_texts()
    assert len(core) > 90 and set(core) <= set(source_messages())
    assert "a card reveal before the copy choice: {roller} has not chosen whom to copy (the cards stay face down " \
           "until then)" in core and "was that a second {card} card?" in core and "Camera lost ({reason}): retrying " \
           "— the game is safe" in core
    flagged = {m.id for m in i18n.catalog("en") if CORE_FLAG in m.flags}
    assert flagged == set(core) and len(core_patterns()) == len(core)


def refusal(service, event) -> str:
    from rig.engine.errors import EventRefused

    with pytest.raises(EventRefused) as refused:
        service.submit(event)
    return str(refused.value)


def test_what_the_rig_says_as_it_is_is_german_on_the_page(service):
    """The engine's refusals, a violation's detail, the reveal's questions as the notice says them, the rig's
    notices and the viewer cap: English from the core, German by the catalogue's patterns."""
    from types import SimpleNamespace

    from rig.display.texts import rules_texts
    from rig.vision.rolls import RollTracker, place_in_box

    service.submit({"type": "game_started", "t_us": 0, "players": ["Ada", "Jürgen", "Weiß"]})
    service.press("Ada", 100)
    for k, n in enumerate((2, 4, 6)):
        service.submit({"type": "roll_settled", "t_us": 200 + k, "dice": ["pink"] * n})
    tracker = RollTracker.__new__(RollTracker)
    tracker._size = (480, 360)
    die = SimpleNamespace
    said = {
        refusal(service, {"type": "card_revealed", "t_us": 500, "card": "pink"}):
            "eine aufgedeckte Karte vor allen Würfen: noch zu werfen: Jürgen, Weiß",
        "a card reveal before the copy choice: Ada has not chosen whom to copy (the cards stay face down until then)":
            "eine aufgedeckte Karte vor der Wahl, wen man kopiert: Ada hat noch nicht gewählt, wen er kopiert (bis dahin "
            "bleiben die Karten verdeckt)",
        refusal(service, {"type": "copy_chosen", "t_us": 501, "player": "Ada"}): "Ada kann sich nicht selbst kopieren",
        tracker._describe([die(x=60, y=60, face="pink+blue")], [], set()):
            "der Würfel pink+blau, oben links, wurde bewegt",
        tracker._describe([die(x=60, y=60, face="blue"), die(x=240, y=180, face="blank")],
                          [die(x=460, y=300, face="yellow"), die(x=250, y=170, face="blank")], set(), follow=True):
            "der Würfel blau, oben links, wurde in die Mitte bewegt und zeigt jetzt blanko; "
            "der Würfel blanko, Mitte, wurde nach unten rechts bewegt und zeigt jetzt gelb",
        f"the blue die, {place_in_box(240, 180, (480, 360))}, moved to the middle": "der Würfel blau, Mitte, wurde in die Mitte bewegt",
        "Was that a second pink card? (2 later cards wait for the answer)":
            "War das eine zweite Karte pink? (2 spätere Karten warten auf die Antwort)",
        "Were the next 2 cards laid gray, then gray? (1 later card waits for the answer)":
            "Waren die nächsten 2 Karten grau, dann grau? (1 spätere Karte wartet auf die Antwort)",
        "Was the next card laid blank?": "War die nächste Karte blanko?",
        "3 cards laid together: pink, blue, gray in that order? (no: enter them by hand)":
            "3 Karten zusammen gelegt: pink, blau, grau in dieser Reihenfolge? (Nein: von Hand eingeben)",
        "all 4 cards are revealed already: correct a card instead":
            "alle 4 Karten sind schon aufgedeckt: stattdessen eine Karte korrigieren",
        "Camera lost (no frame for 2.0 s): retrying — the game is safe":
            "Kamera verloren (no frame for 2.0 s): neuer Versuch läuft — das Spiel ist sicher",
        "The light changed — recalibrate (brighter x1.40, cooler white balance x0.80)":
            "Das Licht hat sich geändert — neu kalibrieren (heller ×1,40, kühlerer Weißabgleich ×0,80)",
        "2 players but only 1 toss input: Jürgen would have no button or beam. Wire one more input per extra seat and "
        "add a [[players]] entry with its pin to the config (rig config wiring shows the free pins), or start with at "
        "most 1 players": "2 Spieler, aber nur 1 Wurfeingänge: Jürgen hätte keinen Taster und keine Lichtschranke. "
        "Einen Eingang je weiteren Platz verdrahten und einen [[players]]-Eintrag mit seinem Pin in die Konfiguration "
        "schreiben (rig config wiring zeigt die freien Pins), oder mit höchstens 1 Spielern beginnen",
        "the rig shows the live scoreboard to at most 8 other devices and every place is taken; the players' phones "
        "(with the PIN) and the rig's own display come first; try again in 30 s":
            "das Rig zeigt die Live-Anzeigetafel höchstens 8 anderen Geräten, und alle Plätze sind belegt; die Handys der "
            "Spieler (mit der PIN) und die eigene Anzeige des Rigs gehen vor; in 30 s erneut versuchen",
        "the turn cannot be scored yet: still to toss: Jürgen":
            "der Zug kann noch nicht gewertet werden: noch zu werfen: Jürgen",
    }
    assert {english: i18n.by_pattern(english, "de", rules_texts()) for english in said} == said
    assert all(i18n.by_pattern(english, "en", rules_texts()) == english for english in said)
