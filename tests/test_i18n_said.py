"""What the rig says as it is, in German too (issue 27): the rules modules' errors passed on as refusals, the
API's error bodies (by the request's language) and the commands' result lines (by LANG). Each kind is found
in the source, so a new English-only one fails the 100 % count of tests/test_i18n.py or the scan here."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest

from rig import i18n
from rig.i18n import extract

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]


def german(message: str) -> str:
    found = i18n.catalog("de").get(message)
    return found.string if found is not None and not found.fuzzy else ""


def raised_texts(path: Path) -> list[str]:
    """The message id of every error ``path`` raises with a text (the rules modules' refusals)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args
                and getattr(node.exc.func, "attr", None) not in extract.NOT_SAID_AS_IS):  # argparse says those
            message = extract._message_id(node.exc.args[0])
            if message:
                out.append(message)
    return out


def test_every_error_of_the_rules_modules_is_a_german_message():
    """Counted here on their own: about ninety texts the games' rules raise (and those of the camera planner and
    the commands), each a whole sentence with named placeholders, flagged core-text, in German."""
    paths = [p for glob in extract.RULES_MODULES for p in ROOT.glob(glob)]
    said = {m for p in paths for m in raised_texts(p)}
    assert len(said) > 85
    assert "Lunar Laser Frogs needs 3 to 8 players, not {n}" in said
    assert not [m for m in said if "{value}" in m and "{value2}" in m]  # placeholders are named
    core = extract.core_texts()
    assert said <= set(core)
    missing = sorted(m for m in said if not german(m))
    assert missing == [], f"rules errors without German: {missing[:10]}"


def test_a_new_english_only_refusal_is_found(tmp_path, monkeypatch):
    """A game's rules module raising a new text: it becomes a message id the catalogue does not have yet (so the
    100 % count fails until it is translated)."""
    rules = tmp_path / "rig" / "games" / "toy" / "rules.py"
    rules.parent.mkdir(parents=True)
    rules.write_text('def check(n):\n    raise ToyError(f"Toy needs {n} cats, not {len(n)}")\n', encoding="utf-8")
    web = tmp_path / "rig" / "display" / "toy.py"
    web.parent.mkdir(parents=True)
    web.write_text('def answer(x):\n    return JSONResponse({"error": f"no toy {x.name!r}"}, status_code=404)\n',
                   encoding="utf-8")
    monkeypatch.setattr(extract, "ROOT", tmp_path / "rig")
    found = extract.core_texts()
    assert set(found) == {"Toy needs {n} cats, not {n2}", "no toy {name}"}
    assert not any(german(m) for m in found)


def test_placeholders_are_filled_by_name_and_other_braces_stay():
    assert i18n.gettext("a die must be an object like {'color': 'red', 'pips': 3}, not {data}", "de", data="7") == (
        "ein Würfel muss ein Objekt wie {'color': 'red', 'pips': 3} sein, nicht 7")
    assert i18n.gettext("'tosses' must be a list of {player, card, t_us} objects", "en") == (
        "'tosses' must be a list of {player, card, t_us} objects")


def test_rules_refusals_by_pattern_in_german():
    """What the rules modules raise, as the pages, the API and the command line say it in German (a word of
    the game inside, a colour or a die, in German too)."""
    from rig.display.texts import rules_texts

    said = {
        "Lunar Laser Frogs needs 3 to 8 players, not 2": "Lunar Laser Frogs braucht 3 bis 8 Spieler, nicht 2",
        "Jürgen tossed 3 cards; each other player tosses 2": "Jürgen hat 3 Karten geworfen; jeder andere Spieler wirft 2",
        "Ada tossed two blue cards but has only one of each": "Ada hat zwei Karten blau geworfen, hat aber von jeder nur eine",
        "die 'red': pips must be a whole number 1-6, not 9":
            "Würfel 'red': die Augen müssen eine ganze Zahl von 1-6 sein, nicht 9",
        "handicap for 'Weiß' must be 1-3 white discs per black, not 7":
            "das Handicap für 'Weiß' muss 1-3 weiße Wertungsscheiben je schwarzer sein, nicht 7",
        "the white die must show 1-6 pips, not 0": "der Würfel weiß muss 1-6 Augen zeigen, nicht 0",
        "no value for the white and black die": "kein Wert für den Würfel weiß und schwarz",
        "a χ² test needs at least 1 degree of freedom, not 0": "ein χ²-Test braucht mindestens 1 Freiheitsgrad, nicht 0",
    }
    assert {english: i18n.by_pattern(english, "de", rules_texts()) for english in said} == said
    assert all(i18n.by_pattern(english, "en", rules_texts()) == english for english in said)


# --------------------------------------------------------------------------- the API's error bodies


@pytest.fixture
def service():
    from rig.engine import EngineService

    service = EngineService.in_memory(clock="sim")
    yield service
    service.close()


PIN = "42424242"


def clients(service, language="en"):
    from rig.display.app import create_app

    app = create_app(service, pin=PIN, language=language)
    phone = TestClient(app, client=("192.168.1.23", 4000), base_url="http://192.168.1.2:8080")
    kiosk = TestClient(app, client=("127.0.0.1", 5000), base_url="http://127.0.0.1:8080")
    return phone, kiosk


def test_a_rules_refusal_through_the_api_in_the_viewers_language(service):
    phone, kiosk = clients(service)
    two = {"game": "frogs", "players": ["Ada", "Jürgen"]}
    said = phone.post("/api/games", json=two, headers={"x-rig-pin": PIN, "accept-language": "de-DE,de;q=0.9"})
    assert said.status_code == 409
    assert said.json() == {"error": "Lunar Laser Frogs braucht 3 bis 8 Spieler, nicht 2"}
    assert int(said.headers["content-length"]) == len(said.content)
    english = phone.post("/api/games", json=two, headers={"x-rig-pin": PIN, "accept-language": "en-GB"})
    assert english.json() == {"error": "Lunar Laser Frogs needs 3 to 8 players, not 2"}
    # the kiosk follows the config, unless its page was opened in another language (the page says which)
    assert kiosk.post("/api/games", json=two, headers={"accept-language": "de"}).json()["error"].startswith("Lunar Laser Frogs needs")
    assert kiosk.post("/api/games", json=two, headers={"x-rig-lang": "de"}).json()["error"].startswith("Lunar Laser Frogs braucht")
    blitz = phone.post("/api/games", json={"game": "blitz", "players": ["Weiß", "Weiß"]},
                       headers={"x-rig-pin": PIN, "cookie": "rig-lang=de"})
    assert blitz.status_code == 409 and blitz.json()["error"] == "die Spielernamen müssen verschieden sein: Weiß, Weiß"
    assert service.state()["game"] is None


def test_german_4xx_bodies(service):
    phone, kiosk = clients(service, language="de")
    assert kiosk.post("/api/games", json={"players": 3}).json() == {
        "error": "ein neues Spiel braucht 'players': eine Liste der Namen in Sitzreihenfolge"}
    refused = phone.post("/api/games", json={"players": ["A", "B", "C"]}, headers={"accept-language": "de"})
    assert refused.status_code == 403 and refused.json()["error"].startswith("von hier aus darf das Spiel nicht")
    bad = phone.get("/api/messages?lang=fr", headers={"accept-language": "de"})
    assert bad.status_code == 400 and bad.json() == {"error": "lang muss eine von en, de sein, nicht 'fr'"}
    assert phone.get("/api/messages?lang=fr", headers={"accept-language": "en"}).json()["error"].startswith("lang must")
    from rig.league.app import create_league_app
    from rig.league.store import LeagueStore

    league = TestClient(create_league_app(LeagueStore(":memory:")))
    assert league.get("/api/games?status=x", headers={"accept-language": "de"}).json() == {
        "error": "status muss einer von playing, over, abandoned, unreadable sein"}
    missing = league.get("/api/nothing", headers={"accept-language": "de"})
    assert missing.status_code == 404 and missing.json() == {"error": "Nicht gefunden"}


def test_every_error_body_of_the_web_layers_is_a_german_message():
    """Each ``{"error": "…"}`` text the display and the league answer is a message id with German."""
    core = extract.core_texts()
    web = {m for m, where in core.items() if any(Path(f).match(g) for f, _l in where for g in extract.WEB_MODULES)}
    assert len(web) > 40 and "no question {key} is open" in web
    assert [m for m in web if not german(m)] == []


# --------------------------------------------------------------------------- the commands' lines


def english_prints(source: str) -> list[str]:
    """The ``print()`` calls of a module that print a literal English text (not through the catalogue)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print" and node.args:
            first = node.args[0]
            parts = ([first.value] if isinstance(first, ast.Constant) and isinstance(first.value, str)
                     else [v.value for v in first.values if isinstance(v, ast.Constant)]
                     if isinstance(first, ast.JoinedStr) else [])
            if any(c.isalpha() for part in parts for c in str(part)):
                found.append(ast.unparse(first))
    return found


def test_every_commands_line_goes_through_the_catalogue():
    """A command's result lines are said through ``_()``; only the commands listed in
    ``rig.cli.ENGLISH_OUTPUT`` (developer and diagnostic output) print English as it is."""
    from rig.cli import COMMAND_MODULES, ENGLISH_OUTPUT

    assert set(ENGLISH_OUTPUT) <= set(COMMAND_MODULES)
    assert english_prints('print(f"wrote {out}")\nprint(_("wrote {path}", path=out))\nprint(f"  {line}")') == [
        "f'wrote {out}'"]
    english = {name: english_prints((ROOT / "rig" / "cli" / f"{name}.py").read_text(encoding="utf-8"))
               for name in COMMAND_MODULES if name not in ENGLISH_OUTPUT}
    assert {name: lines for name, lines in english.items() if lines} == {}


def rig_cli(*args, lang="de_DE.UTF-8", cwd=None):
    from tests.test_i18n import rig_cli as run

    return run(*args, lang=lang)


def test_rig_plan_says_its_result_in_german():
    args = ("plan", "--camera", "c270", "--height", "90", "--box", "280", "200", "45", "--size", "1280x960")
    done = rig_cli(*args)
    english = rig_cli(*args, lang="C.UTF-8")
    assert done.returncode == english.returncode == 1 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == "Kamera: Logitech C270 (USB) (c270), Objektiv 90 cm über dem Schachtelboden"
    assert "Sensormodus: MJPG 1280x960 mit 30 fps (die Webcam um genau diese Größe bitten)" in lines
    assert any(line.startswith("Hinweis: Würfel mit 34 px sind zu klein zum Lesen") for line in lines)
    assert lines[-1] == "Ergebnis: passt nicht (siehe die Hinweise)" and "2,09 px/mm" in done.stdout
    assert english.stdout.splitlines()[-1] == "verdict: does not fit (see the notes)"
    assert len(lines) == len(english.stdout.splitlines())


def test_a_rules_error_on_the_command_line_in_german(tmp_path):
    turn = tmp_path / "turn.json"
    turn.write_text('{"players": ["Ada", "Jürgen"], "roller": "Ada", "dice": ["pink", "pink", "blue", "blue", '
                    '"yellow", "blank"], "tosses": [], "copy": "Jürgen"}', encoding="utf-8")
    done = rig_cli("score", str(turn))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "rig score: Fehler: Lunar Laser Frogs braucht 3 bis 8 Spieler, nicht 2\n"
    limit = rig_cli("history", "--limit", "0")
    assert limit.returncode == 2 and limit.stderr == "rig history: Fehler: --limit muss mindestens 1 sein\n"
    port = rig_cli("run", "--port", "abc")
    assert port.returncode == 2 and port.stderr.splitlines()[-1] == (
        "rig run: Fehler: Argument --port: 'abc' ist keine Portnummer")
    bad = rig_cli("plan", "--height", "400")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "Höhe 400 cm liegt außerhalb des Bereichs" in bad.stderr


def test_rig_history_in_german(tmp_path):
    from rig.cli.history import format_history

    history = {"games": [
        {"id": 9, "number": 2, "game": "frogs", "status": "over", "winner": "Jürgen", "turns": 1,
         "started_at": "2026-11-25T21:14:00", "totals": {"Jürgen": 12, "Weiß": 9}, "players": ["Jürgen", "Weiß"]},
        {"id": 1, "number": 1, "game": "banana", "status": "decided", "winner": None, "turns": 3,
         "started_at": "2026-11-24T20:00:00", "totals": {}, "players": ["Ada", "Ben"],
         "outcome": {"starter": "Ben", "white_start": 2, "black_start": 5}},
    ], "players": [{"game": "frogs", "name": "Jürgen", "games": 1, "wins": 1, "points": 12, "best": 12}]}
    text = format_history(history, limit=1, _=i18n.Translator("de"))
    assert text.startswith("2 Spiele, neueste zuerst:\n")
    assert "25.11.2026, 21:14" in text and "1 Zug" in text and "gewonnen von Jürgen: Jürgen 12, Weiß 9" in text
    assert "... 1 älteres Spiel (--limit N zeigt mehr)" in text and "Spieler:" in text and "Siege" in text
    english = format_history(history, limit=2)
    assert "2 games, newest first:" in english and "Ben starts (white 2, black 5)" in english and "3 turns" in english
    empty = rig_cli("history", "--data-dir", str(tmp_path / "nichts"))
    assert empty.returncode == 0 and empty.stdout.startswith("noch keine Spiele (kein Ereignisprotokoll unter ")


def test_rig_config_check_in_german(tmp_path):
    config = tmp_path / "rig.toml"
    config.write_text('[display]\nlanguage = "de"\n', encoding="utf-8")
    done = rig_cli("config", "check", str(config))
    english = rig_cli("config", "check", str(config), lang="C.UTF-8")
    assert done.returncode == english.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == f"{config}: in Ordnung" and lines[1] == "  5 Spieler:"
    assert "    Ada          button GPIO17 (Pin 11 der Stiftleiste)" in lines
    assert "  Kamera: virtual 1280x960 mit 30 fps" in lines and "  Profil: (keins: eingebaute Farben)" in lines
    assert english.stdout.splitlines()[:2] == [f"{config}: OK", "  5 players:"]
    assert len(lines) == len(english.stdout.splitlines())


# --------------------------------------------------------------------------- the config file's errors, rig calibrate


def test_every_error_of_the_config_layer_is_a_german_message():
    """What a wrong config file gets (``rig config check``, ``rig run``): the errors the config modules raise and
    the texts of the parser's ``fail(key, "…")``, each a message id with German, and its warnings (``said()``)."""
    core = extract.core_texts()
    config = {m for m, where in core.items() if any(f.startswith("rig/config/") for f, _l in where)}
    assert len(config) > 45
    assert {"must be a whole number, not {value} ({value2})", "{source}: not valid TOML: {exc}",
            "players[{index}].pin: {pin} ({name}) is also {job}; free pins: {value}",
            "; did you mean {close}?"} <= config
    assert [m for m in config if not german(m)] == []
    for name in ("a whole number", "I2C (SDA), used by touch screens and sensors"):  # what a placeholder says
        assert german(name)


def test_a_new_english_only_config_error_is_found(tmp_path, monkeypatch):
    parser = tmp_path / "rig" / "config" / "toy.py"
    parser.parent.mkdir(parents=True)
    parser.write_text('def check(self, n):\n    if n:\n        raise self.fail("toy.cats", f"{n} cats is too many")\n'
                      '    raise ToyConfigError(f"{self.source}: no toy")\n'
                      'def notes(pin):\n    return [said(f"{pin} is a toy pin")]\n', encoding="utf-8")
    monkeypatch.setattr(extract, "ROOT", tmp_path / "rig")
    found = extract.core_texts()
    assert set(found) == {"{n} cats is too many", "{source}: no toy", "{pin} is a toy pin"}  # not the key "toy.cats"
    assert not any(german(m) for m in found)


def test_a_config_error_in_german_is_one_line_and_exit_2(tmp_path):
    said = {
        '[camera]\nfps = "x"\n': "{f}:2: camera.fps: muss eine ganze Zahl sein, nicht ein Text ('x')",
        "plyers = 3\n": "{f}:1: plyers: unbekannter Schlüssel (bekannt: players, camera, profile, data_dir, server, "
                        "display, game, tosses, evidence, league, build); meinten Sie players?",
        "[camera]\nrotation = 90\n": "{f}:2: camera.rotation: 90: die Kamera lässt sich um 0 oder 180 Grad drehen "
                                     "(zum Spiegeln hflip/vflip)",
        "[display\n": None,  # not valid TOML: the parser's own reason stays English
    }
    for i, (text, german_line) in enumerate(said.items()):
        config = tmp_path / f"rig{i}.toml"
        config.write_text(text, encoding="utf-8")
        done = rig_cli("config", "check", str(config))
        english = rig_cli("config", "check", str(config), lang="C.UTF-8")
        assert done.returncode == english.returncode == 2 and done.stdout == english.stdout == ""
        assert done.stderr.count("\n") == 1 and english.stderr.count("\n") == 1
        assert done.stderr.startswith("rig config: Fehler: ") and english.stderr.startswith("rig config: error: ")
        if german_line is None:
            assert f"{config}: kein gültiges TOML: " in done.stderr
        else:
            assert done.stderr == f"rig config: Fehler: {german_line.format(f=config)}\n"
            assert done.stderr != english.stderr.replace("error", "Fehler")


def test_rig_config_checks_warning_in_german(tmp_path):
    config = tmp_path / "rig.toml"
    config.write_text('[[players]]\nname = "Ada"\npin = "GPIO2"\n[[players]]\nname = "Ben"\npin = "GPIO17"\n'
                      '[[players]]\nname = "Cy"\npin = "GPIO27"\n', encoding="utf-8")
    done = rig_cli("config", "check", str(config))
    english = rig_cli("config", "check", str(config), lang="C.UTF-8")
    assert done.returncode == english.returncode == 0
    assert done.stdout.splitlines()[-1] == ("Warnung: players[0].pin: GPIO2 (Ada) ist auch I2C (SDA), von Touchscreens "
                                            "und Sensoren benutzt; freie Pins: GPIO22, GPIO5, GPIO6, GPIO26")
    assert english.stdout.splitlines()[-1] == ("warning: players[0].pin: GPIO2 (Ada) is also I2C (SDA), used by touch "
                                               "screens and sensors; free pins: GPIO22, GPIO5, GPIO6, GPIO26")


def test_rig_calibrate_reports_in_german(tmp_path, monkeypatch, capsys):
    import dataclasses

    from rig.cli import main
    from rig.cli.calibrate import virtual_ritual
    from rig.vision.calibrate import fit_profile

    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert main(["calibrate", "--virtual", "--out", str(tmp_path / "p.toml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    frames, empty = virtual_ritual("neutral")
    report = fit_profile(frames, empty=empty, name="virtual-table (neutral)")
    english = report.lines()
    assert lines[:-2] == report.lines(i18n.Translator("de")) and len(lines) == len(english) + 2
    assert lines[0] == "Profil 'virtual-table (neutral)': 640x480, Würfel 52 px breit"
    assert english[0] == "profile 'virtual-table (neutral)': 640x480, die 52 px wide"
    assert lines[1] == "gefundene Würfel: blau 6, pink 6, gelb 6, blanko 6"
    assert lines[2].startswith("Froschanteil an der Oberseite eines Würfels: blau ") and "\u00a0%" in lines[2]
    assert english[2].startswith("frog share of a die's top: blue ") and english[2].endswith("%")
    assert lines[4] == "Trennung der Klassen (Mahalanobis, abgelehnt unter 3,0):"
    assert "zurückgelesen gelb: ok ['yellow', 'yellow', 'yellow', 'yellow', 'yellow', 'yellow']" in lines
    assert lines[-2:] == [f"{tmp_path / 'p.toml'} geschrieben", f"{tmp_path / 'p.empty.npy'} geschrieben"]
    warned = dataclasses.replace(report, warnings=("blue frame reads back uncertain: a die's frog is faint",
                                                   "body/pink separation only 4.2"))
    assert warned.lines(i18n.Translator("de"))[-2:] == [
        "Warnung: Bild blau wird unsicher zurückgelesen: a die's frog is faint", "Warnung: Trennung body/pink nur 4,2"]
    assert warned.lines()[-2:] == ["warning: blue frame reads back uncertain: a die's frog is faint",
                                   "warning: body/pink separation only 4.2"]
