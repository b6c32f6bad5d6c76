"""The CLI's messages and help: bad input gets one line and exit code 2, options that do nothing
are refused, and the words of every message and help text come out whole at 80 columns."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer.main
from rich.cells import cell_len
from rich.errors import StyleSyntaxError
from rich.style import Style
from typer.testing import CliRunner

from knockout.program import app

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


SWISS = str(ROOT / "scenarios" / "data" / "swiss-9.csv")
RESULTS = str(ROOT / "scenarios" / "data" / "2010-national-individual-men.csv")
STUDY = str(ROOT / "scenarios" / "studies" / "scoring-reform.toml")


def _one_line_exit_2(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    return lines[0]


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", FINAL, "--runs", "10"],
        ["play", FINAL],
        ["schedule", OPEN12, "--runs", "1"],
        ["standings", SWISS, "--lots"],
        ["rescore", RESULTS],
        ["scoring-study", STUDY],
    ],
    ids=lambda args: args[0],
)
def test_negative_seed_is_one_line_and_exit_2(args: list[str]) -> None:
    line = _one_line_exit_2([*args, "--seed", "-1"])
    assert line == "error: --seed: expected a whole number 0 or more, got -1"


@pytest.mark.parametrize(
    "args",
    [
        ["odds", FINAL],
        ["play", FINAL, "--seed", "1"],
        ["simulate", FINAL, "--runs", "10", "--seed", "1"],
        ["schedule", OPEN12, "--runs", "1", "--seed", "1"],
        ["compare", FINAL, "--gaps", "0"],
    ],
    ids=lambda args: args[0],
)
def test_export_into_a_missing_folder_is_refused_before_any_work(
    args: list[str], tmp_path: Path
) -> None:
    target = tmp_path / "nodir" / "out.svg"
    line = _one_line_exit_2([*args, "--export", str(target)])
    assert line == f"error: --export: the folder {str(target.parent)!r} does not exist"
    assert not target.parent.exists()


@pytest.mark.parametrize(
    "args", [["odds", FINAL], ["play", FINAL, "--seed", "1"]], ids=lambda args: args[0]
)
def test_export_with_json_is_refused(args: list[str], tmp_path: Path) -> None:
    target = tmp_path / "x.svg"
    line = _one_line_exit_2([*args, "--json", "--export", str(target)])
    assert "--export" in line and "--json" in line
    assert not target.exists()


def test_export_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    target = tmp_path / "taken.svg"
    target.mkdir()  # a folder where the file should go
    result = runner.invoke(app, ["odds", FINAL, "--export", str(target)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: --export: cannot write {str(target)!r}: Is a directory"
    ]


def test_speed_without_live_is_refused() -> None:
    line = _one_line_exit_2(["play", FINAL, "--seed", "1", "--speed", "3000"])
    assert "--speed" in line and "--live" in line


@pytest.mark.parametrize("name", ["", "   "], ids=["empty", "blank"])
def test_an_empty_player_name_is_one_line(name: str, tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(
        f'name = "x"\n[[players]]\nname = "{name}"\nrating = 2500\n'
        '[[players]]\nname = "B"\nrating = 2400\n',
        encoding="utf-8",
    )
    line = _one_line_exit_2(["odds", str(path)])
    assert line.startswith(f"error: {path}: players[0].name: expected")


def test_trf_points_that_disagree_are_a_warning_naming_the_line(tmp_path: Path) -> None:
    lines = (ROOT / "scenarios" / "data" / "swiss-9.trf").read_text(encoding="utf-8").split("\n")
    lines[2] = lines[2][:80] + " 3.0" + lines[2][84:]
    path = tmp_path / "bad.trf"
    path.write_text("\n".join(lines), encoding="utf-8")
    result = runner.invoke(app, ["standings", str(path)])
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        f"warning: {path}: line 3, columns 81-84 (points): 周涛 has 3 points here, but the "
        "results add up to 2; ranking by the results"
    ]
    assert "周涛" in result.stdout


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=COMMAND_IDS)
def test_help_paragraphs_fill_80_columns(path: list[str], command: Any) -> None:
    """A docstring's own line breaks are not kept: at 80 columns they left short, ragged lines."""
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    head = result.stdout.split("╭")[0].splitlines()
    prose = [line.rstrip() for line in head if not line.strip() or not line.startswith("     ")]
    for line, after in zip(prose, [*prose[1:], ""], strict=True):
        if line.strip() and after.strip() and not line.lstrip().startswith("Usage:"):
            next_word = after.split()[0]
            fits = cell_len(line) + 1 + cell_len(next_word) <= 79  # it would have fitted
            assert not fits, f"{' '.join(path)}: ragged help line {line!r}"
