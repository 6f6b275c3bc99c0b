"""The shell commands written in README.md and docs/*.md, found for the docs-as-tests (issue 28).

Fenced blocks say what they are by their info string (GitHub highlights by its first word):

- ```` ```sh ```` / ```` ```console ```` — run by ``tests/test_docs.py``, every command must exit 0; in a
  ``console`` block the lines after a ``$ `` command are its output, compared with what it prints.
- ```` ```sh illustrative ```` / ```` ```console illustrative ```` — needs a Pi, a network or runs for
  ever: not run, but every ``rig`` command in it is parsed by the real ``rig`` parser (an unknown
  flag, a wrong choice or a missing required argument fails) and every ``make`` target is dry-run.
- any other tag (``text``, ``json``, ``toml``, ``python`` ...) — not a command; a block with no tag
  that holds a command line is refused, so nothing slips through untagged.

Inline spans in the prose (`` `rig ...` ``, `` `make ...` ``) are parsed the same way as an
illustrative block: placeholders are fine, wrong flags and missing arguments are not.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_TAGS = {"sh", "console", "shell", "bash"}
COMMAND_START = re.compile(r"^(\$ |rig |make |sudo |curl |cat |echo )")


@dataclass
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    tag: str
    illustrative: bool
    lines: list[str]

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@dataclass
class Command:
    where: str
    text: str  # the whole command as a shell would get it
    output: list[str] = field(default_factory=list)  # console blocks: the lines printed


def blocks(page: Path) -> list[Block]:
    found, current = [], None
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        fence = re.match(r"^\s*```(.*)$", line)
        if fence and current is None:
            words = fence.group(1).split()
            current = Block(page, number, words[0] if words else "", "illustrative" in words[1:], [])
        elif fence:
            found.append(current)
            current = None
        elif current is not None:
            current.lines.append(line)
    return found


def commands(block: Block) -> list[Command]:
    """The commands of a shell block: ``\\`` continuations and open quotes joined, comments dropped;
    in a console block only ``$`` lines are commands, the lines after one its output."""
    result: list[Command] = []
    pending = ""
    continued = False  # the last line ended in a backslash: this one goes on the same line
    console = block.tag == "console"
    for line in block.lines:
        if not pending:
            if console and not line.startswith("$ "):
                if result and line.strip():
                    result[-1].output.append(line)
                continue
            line = line[2:] if console else line
            if not line.strip() or line.lstrip().startswith("#"):
                continue
        if continued:
            pending += line.strip()
        else:
            pending = f"{pending}\n{line}" if pending else line
        continued = pending.endswith("\\")
        if continued:
            pending = pending[:-1].rstrip() + " "
            continue
        try:
            shlex.split(pending, comments=True)
        except ValueError:  # an open quote: the command goes on
            continue
        result.append(Command(f"{block.where}+{len(result) + 1}", pending))
        pending = ""
    assert not pending, f"{block.where}: unfinished command {pending!r}"
    return result


def inline_spans(page: Path) -> list[tuple[str, str]]:
    """(where, text) of every inline code span in the prose that starts with ``rig `` or ``make ``."""
    spans, in_fence = [], False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        if re.match(r"^\s*```", line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for span in re.findall(r"(?<!`)`([^`]+)`(?!`)", line.replace("\\|", "\x00")):
            span = span.replace("\x00", "|").strip()
            if span.startswith(("rig ", "make ")) or span in ("rig", "make"):
                spans.append((f"{page.relative_to(ROOT)}:{number}", span))
    return spans


def pieces(text: str) -> list[list[str]]:
    """The ``rig`` / ``make`` invocations in a shell line, as words: pipes, ``&&``, ``;`` split it;
    redirections, ``sudo`` and environment assignments are left out."""
    words = shlex.split(text, comments=True)
    runs, current = [], []
    for word in [*words, "&&"]:
        if word in ("|", "&&", ";", "||"):
            if current:
                runs.append(current)
            current = []
            continue
        current.append(word)
    found = []
    for run in runs:
        while run and (run[0] == "sudo" or re.match(r"^[A-Z_][A-Z0-9_]*=", run[0])):
            run = run[1:]
        if not run or run[0] not in ("rig", "make"):
            continue
        kept, skip = [], False
        for word in run:
            if skip:
                skip = False
                continue
            if word in (">", ">>", "<", "2>", "2>&1"):
                skip = word != "2>&1"
                continue
            if re.match(r"^\d?[<>]", word):
                continue
            kept.append(word)
        found.append(kept)
    return found


def shell_split_pipes(text: str) -> str:
    """A line's words again, with pipes and ``&&`` kept apart (``a|b`` written without spaces)."""
    return re.sub(r"(?<=[^\s\\|])\|(?=[^\s|])", " | ", text)


def variants(words: list[str]) -> list[list[str]]:
    """A documented synopsis as concrete command lines: ``a|b|c`` alternatives one by one,
    ``[--opt X]`` optional groups left out and put in, ``…`` / ``...`` dropped."""
    words = [w.rstrip("…") for w in words if w not in ("…", "...")]
    words = [w[:-3] if w.endswith("...") else w for w in words]
    words = [w for w in words if w]
    without, with_, depth = [], [], 0
    for word in words:
        opening = word.startswith("[")
        closing = word.endswith("]") and not re.search(r"\[[^\]]*\]$", word[1:] if opening else word)
        bare = word.lstrip("[").rstrip("]") if (opening or closing) else word
        if opening:
            depth += 1
        if depth == 0:
            without.append(word)
        if bare:
            with_.append(bare)
        if closing and depth:
            depth -= 1
    result = []
    for base in ([without, with_] if without != with_ else [without]):
        choices = [w.split("|") if "|" in w and not w.startswith("-") and "=" not in w else [w] for w in base]
        width = max(len(c) for c in choices)
        for k in range(width):
            result.append([c[min(k, len(c) - 1)] for c in choices])
    return result
