"""What a new organiser and a new rule designer hit in their first hour (the field-test issue):
bad input gets one line and exit code 2, options that do nothing are refused, and the words of
every message and help text come out whole."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer.main
from rich.errors import StyleSyntaxError
from rich.style import Style
from typer.testing import CliRunner

from knockout.cli import app

ROOT = Path(__file__).resolve().parents[2]
FINAL = str(ROOT / "scenarios" / "final-2600-vs-2550.toml")
OPEN12 = str(ROOT / "scenarios" / "open-12-in-progress.toml")
runner = CliRunner()


def test_one_event_is_not_one_events() -> None:
    result = runner.invoke(app, ["schedule", OPEN12, "--runs", "1", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "(1 event," in result.stdout and "1 events" not in result.stdout


def _commands() -> list[tuple[list[str], Any]]:
    """Every command and sub-command, with the arguments that reach it."""
    root = typer.main.get_command(app)
    out: list[tuple[list[str], Any]] = []

    def walk(path: list[str], command: Any) -> None:
        out.append((path, command))
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            walk([*path, name], sub)

    walk([], root)
    return out


COMMANDS = _commands()
COMMAND_IDS = [" ".join(path) or "knockout" for path, _ in COMMANDS]
_BRACKETED = re.compile(r"\\?\[+[^\[\]\s][^\[\]]*\]+")


def _visible(text: str) -> str:
    """Help as a reader sees it: box lines and line breaks gone, spaces collapsed."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def _is_markup(tag: str) -> bool:
    inner = tag.strip("[]")
    if inner.startswith("/"):
        return True
    try:
        Style.parse(inner)
    except StyleSyntaxError:
        return False
    return True


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=COMMAND_IDS)
def test_help_keeps_every_bracketed_word(path: list[str], command: Any) -> None:
    texts = [command.help or ""] + [getattr(p, "help", None) or "" for p in command.params]
    words = [
        " ".join(w.replace("\\[", "[").split())
        for text in texts
        for w in _BRACKETED.findall(text)
        if not _is_markup(w.replace("\\[", "["))
    ]
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    shown = _visible(result.stdout)
    lost = [w for w in words if w not in shown]
    assert not lost, f"{' '.join(path)} --help loses {lost}"


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=COMMAND_IDS)
def test_help_at_80_columns_cuts_nothing_and_flags_show_no_type(
    path: list[str], command: Any
) -> None:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    assert "<bool>" not in result.stdout
    assert "…" not in result.stdout
