"""The terminal sessions in docs/organiser.md run as tests: each ``$ knockout ...`` line of a
``console`` block, in order, in one folder, must print what the page shows (stdout, then
stderr; a line ``...`` stands for any number of lines) and exit 2 exactly when it shows an
``error:`` line; ``> FILE`` writes stdout to the file. A ``$ sqlite3 FILE ...`` line (a copy,
a deliberate damage) runs in-process.
The page's events use ``event new --seed``, so the colours are the page's."""

from __future__ import annotations

import re
import shlex
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockout.cli import app

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "organiser.md"
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def transcripts(text: str) -> list[tuple[str, list[str]]]:
    """``(command, expected lines)`` for every command of every console block, in order."""
    out: list[tuple[str, list[str]]] = []
    for block in BLOCK.findall(text):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1
                continue
            command = lines[i][2:]
            while command.endswith("\\"):
                i += 1
                command = command[:-1].rstrip() + " " + lines[i].strip()
            i += 1
            expected = []
            while i < len(lines) and not lines[i].startswith("$ "):
                expected.append(lines[i].rstrip())
                i += 1
            out.append((command, expected))
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """``actual`` is ``expected`` with each ``...`` line standing for any lines."""
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and matches(expected[1:], actual[1:])


@pytest.mark.slow
def test_the_organisers_day_runs_as_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")
    steps = transcripts(PAGE.read_text(encoding="utf-8"))
    assert len(steps) >= 15
    run_as_shown(steps)


def test_the_games_page_runs_as_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/games.md: the summaries of the bundled table, as the page shows them."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")
    steps = transcripts((ROOT / "docs" / "games.md").read_text(encoding="utf-8"))
    assert len(steps) >= 3
    run_as_shown(steps)


def run_as_shown(steps: list[tuple[str, list[str]]]) -> None:
    """Run each command; its output must match what the page shows (see the module's note)."""
    runner = CliRunner()
    for command, expected in steps:
        argv = shlex.split(command)
        if argv[0] == "sqlite3":
            assert not expected, command
            sqlite3_shell(argv[1:])
            continue
        assert argv[0] == "knockout", command
        into = None
        if ">" in argv:  # stdout into a file: the page shows only stderr
            at = argv.index(">")
            argv, into = argv[:at], Path(argv[at + 1])
        result = runner.invoke(app, argv[1:])
        shown = result.stdout
        if into is not None:
            into.write_text(result.stdout, encoding="utf-8")
            shown = ""
        actual = [x.rstrip() for x in (shown + result.stderr).splitlines()]
        while actual and not actual[-1]:
            actual.pop()
        while expected and not expected[-1]:
            expected.pop()
        fails = any(x.startswith("error: ") for x in expected)
        assert result.exit_code == (2 if fails else 0), (command, result.output)
        assert matches(expected, actual), (command, "\n".join(actual))


def sqlite3_shell(args: list[str]) -> None:
    """``sqlite3 FILE ".backup COPY"`` or ``sqlite3 FILE "SQL; ..."``, as the sqlite3 shell
    runs them (the page damages a copy of its event to show the way out), without a process."""
    conn = sqlite3.connect(args[0], isolation_level=None)
    try:
        if args[1].startswith(".backup "):
            copy = sqlite3.connect(args[1].split(None, 1)[1])
            conn.backup(copy)
            copy.close()
        else:
            conn.executescript(args[1])
    finally:
        conn.close()
