"""Docs as tests (issue 28): every shell command in README.md and docs/*.md is run, or — marked
illustrative — parsed by the real ``rig`` parser; a wrong flag, a wrong choice, a missing argument,
a ``make`` target that does not exist or a printed result that changed fails here. How a block is
marked: tests/docs_commands.py."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rig.cli import build_parser
from tests.docs_commands import (
    PAGES,
    ROOT,
    SHELL_TAGS,
    COMMAND_START,
    Block,
    blocks,
    commands,
    inline_spans,
    pieces,
    shell_split_pipes,
    variants,
)
from tests.waiting import WAIT_S

ALL_BLOCKS = [block for page in PAGES for block in blocks(page)]
SHELL_BLOCKS = [b for b in ALL_BLOCKS if b.tag in SHELL_TAGS]
RUN = [(c.where, c) for b in SHELL_BLOCKS if not b.illustrative for c in commands(b)]
ILLUSTRATIVE = [(c.where, c) for b in SHELL_BLOCKS if b.illustrative for c in commands(b)]
INLINE = [span for page in PAGES for span in inline_spans(page)]
MAKE_ENV = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "PORT", "RUN_ARGS"}}


def rig_parse_error(words: list[str]) -> str | None:
    """What the ``rig`` parser says about ``rig WORDS`` (None: it takes them)."""
    command = next((w for w in words[1:] if not w.startswith("-")), None)
    parser = build_parser(command, lazy=True)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            parser.parse_args(words[1:])
        except SystemExit as exc:
            if exc.code not in (0, None):
                return err.getvalue().strip().splitlines()[-1]
    return None


def make_error(words: list[str], tmp_path: Path) -> str | None:
    done = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), *words[1:], f"VENV={tmp_path}/venv"],
                          capture_output=True, text=True, env=MAKE_ENV)
    return None if done.returncode == 0 else (done.stderr.strip() or done.stdout.strip())


def is_placeholder(word: str) -> bool:
    """``FILE``, ``N``, ``IMAGE…``, ``CMD:``: a word the reader replaces."""
    return bool(re.fullmatch(r"[A-Z][A-Z0-9_]*(…|\.\.\.)?:?", word))


def subparser(words: list[str]):
    """The parser of the (sub)command ``words`` name (``rig bench vision`` -> its own parser)."""
    parser = build_parser(next((w for w in words[1:] if not w.startswith("-")), None), lazy=True)
    for word in words[1:]:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or word not in subs[0].choices:
            break
        parser = subs[0].choices[word]
    return parser


def tolerable(error: str, words: list[str]) -> bool:
    """A parser error a prose synopsis may cause: files left out (not a required option), a
    placeholder where a value goes."""
    required = re.search(r"the following arguments are required: (.*)", error)
    if required:
        return not any(name.startswith("-") for name in required.group(1).split(", "))
    value = re.search(r"(?:(?:invalid \w+ value|invalid choice):|expected [^']*, got) '([^']*)'", error)
    return bool(value and is_placeholder(value.group(1)))


def check_words(words: list[str], tmp_path: Path, where: str, text: str) -> None:
    """A ``rig`` command as the parser sees it: every option one the command has, and — apart from
    files a sentence leaves out and placeholders — arguments it takes; a ``make`` line dry-run."""
    for variant in variants(words):
        if variant[0] == "make":
            error = make_error(variant, tmp_path)
            assert error is None, f"{where}: `{text}` -> `{' '.join(variant)}`: {error}"
            continue
        parser = subparser(variant)
        for word in variant[1:]:
            for flag in re.findall(r"(?:^|/)(--?[A-Za-z][\w-]*)", word.split("=")[0]) if word.startswith("-") else []:
                assert flag in parser._option_string_actions, f"{where}: `{text}`: {parser.prog} has no {flag}"
        if any("/" in w and w.startswith("--") for w in variant):
            continue  # `--listen/--port`: two options named together
        last = parser._option_string_actions.get(variant[-1])
        if last is not None and last.nargs != 0:
            variant = variant[:-1]  # `rig read --overlay`: the sentence names the option
        error = rig_parse_error(variant)
        assert error is None or tolerable(error, variant), f"{where}: `{text}` -> `{' '.join(variant)}`: {error}"


def test_every_block_that_holds_a_command_says_what_it_is():
    untagged = [b.where for b in ALL_BLOCKS if not b.tag and any(COMMAND_START.match(line.strip()) for line in b.lines)]
    assert untagged == [], "tag these blocks sh / console (run by tests/test_docs.py) or 'sh illustrative'"


def test_the_docs_have_commands_to_check():
    assert len(RUN) >= 5 and len(ILLUSTRATIVE) >= 10 and len(INLINE) >= 30


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A folder that looks like the repository (its files linked in; what a command writes lands
    here), a home of its own, and the ``rig`` of this environment first on PATH."""
    root = tmp_path_factory.mktemp("docs")
    for item in ROOT.iterdir():
        if item.name not in (".git", ".venv", "tests"):
            (root / item.name).symlink_to(item)
    home = root / "home"
    home.mkdir()
    env = {k: v for k, v in MAKE_ENV.items() if not k.startswith("RIG_")}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("XDG_CACHE_HOME", None)
    env["RIG_CACHE_DIR"] = os.environ.get("RIG_CACHE_DIR") or str(Path.home() / ".cache" / "rig")
    return root, env


def same_output(expected: list[str], got: str) -> bool:
    lines = [line for line in got.splitlines() if line.strip()]
    if len(lines) != len(expected):
        return False
    for want, have in zip(expected, lines):
        try:
            if json.loads(want) != json.loads(have):
                return False
        except ValueError:
            if want.rstrip() != have.rstrip():
                return False
    return True


@pytest.mark.parametrize("where, command", RUN, ids=[w for w, _ in RUN])
def test_a_documented_command_runs(where, command, sandbox, tmp_path):
    root, env = sandbox
    for words in pieces(shell_split_pipes(command.text)):
        if words[0] == "make":  # make run / make test themselves: dry-run (tests/test_make.py runs their parts)
            check_words(words, tmp_path, where, command.text)
    if all(words[0] == "make" for words in pieces(shell_split_pipes(command.text))):
        return
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command.text], cwd=root, env=env, capture_output=True,
                          text=True, timeout=WAIT_S, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{where}: `{command.text}` exited {done.returncode}: {done.stderr.strip()[-500:]}"
    if command.output and not any("..." in line or "…" in line for line in command.output):
        assert same_output(command.output, done.stdout), (
            f"{where}: `{command.text}` printed\n{done.stdout}\nthe docs say\n" + "\n".join(command.output))


@pytest.mark.parametrize("where, command", ILLUSTRATIVE, ids=[w for w, _ in ILLUSTRATIVE])
def test_an_illustrative_command_is_one_rig_takes(where, command, tmp_path):
    for words in pieces(shell_split_pipes(command.text)):
        check_words(words, tmp_path, where, command.text)


@pytest.mark.parametrize("where, text", INLINE, ids=[f"{w} {t}" for w, t in INLINE])
def test_a_command_in_the_prose_is_one_rig_takes(where, text, tmp_path):
    """A span that only names a command (`rig score`, `rig config check`, `rig bench NAME`) must name
    one that exists; a span with options must be a whole command the parser takes."""
    for words in pieces(shell_split_pipes(text)):
        if words[0] == "rig":
            if len(words) > 1 and words[1].endswith(":"):
                continue  # `rig CMD: error: MESSAGE`: how a message reads, not a command
            path = []
            for word in words[1:]:
                if word.startswith(("-", "[")) or is_placeholder(word):
                    break
                path.append(word)
            for variant in variants(["rig", *path]):
                error = rig_parse_error([*variant, "--help"])
                assert error is None, f"{where}: `{text}`: no command `{' '.join(variant)}`: {error}"
            if all(is_placeholder(w) for w in words[1 + len(path):]):
                continue  # it names the command
        check_words(words, tmp_path, where, text)


def test_the_checker_catches_a_wrong_flag_a_missing_argument_and_a_wrong_key(tmp_path):
    """The checks themselves: what issue 28 found in the README fails them."""
    assert rig_parse_error(["rig", "calibrate", "--face", "blue=B.png", "--empty", "E.png"])  # --out missing
    assert rig_parse_error(["rig", "run", "--nonsense"])
    assert rig_parse_error(["rig", "bench", "nothing"])
    assert rig_parse_error(["rig", "score", "turn.json"]) is None
    assert make_error(["make", "no-such-target"], tmp_path)
    page = ROOT / "tests" / "artifacts" / "page.md"
    page.parent.mkdir(exist_ok=True)
    page.write_text("```\nrig run\n```\n\n```sh illustrative\nrig run --port 8081 \\\n  --sim\n```\n")
    untagged, illustrative = blocks(page)
    assert untagged.tag == "" and illustrative.illustrative
    assert [c.text for c in commands(illustrative)] == ["rig run --port 8081 --sim"]
    assert variants(["rig", "bench", "rules|vision", "[--overlay", "out/]"]) == [
        ["rig", "bench", "rules"], ["rig", "bench", "vision"],
        ["rig", "bench", "rules", "--overlay", "out/"], ["rig", "bench", "vision", "--overlay", "out/"]]


def test_block_helpers_see_console_output():
    block = Block(ROOT / "README.md", 1, "console", False, ["$ echo '{\"a\":", "1}' | rig score -", '{"x": 1}'])
    (command,) = commands(block)
    assert command.text == "echo '{\"a\":\n1}' | rig score -" and command.output == ['{"x": 1}']
    assert shutil.which("bash")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found, in_fence = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if re.match(r"^\s*```", line):
            in_fence = not in_fence
        elif not in_fence and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
        if not in_fence:
            found.update(re.findall(r'<a id="([^"]+)"', line))  # an anchor of its own
    return found


def test_every_link_between_the_pages_leads_somewhere():
    broken = []
    for page in PAGES:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"^[a-z]+:", target):
                continue  # http:, mailto:
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []
