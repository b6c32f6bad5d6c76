"""The terminal examples of docs/league.md run as shown (a ``...`` line stands for any lines)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockout.program import app

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "league.md"
SEASON = ROOT / "scenarios" / "data" / "league-season.toml"


def _matches(expected: list[str], actual: list[str]) -> bool:
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(_matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and _matches(expected[1:], actual[1:])


def test_the_pages_commands_print_what_it_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's season.toml is the bundled league file with two more changes for 广东."""
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    (tmp_path / "league-example.csv").symlink_to(SEASON.parent / "league-example.csv")
    text = SEASON.read_text(encoding="utf-8")
    for r in (1, 3):
        text += f'\n[[changes]]\nround = {r}\nteam = "广东"\ncaptain = "张华"\n'
    (tmp_path / "season.toml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```console\n\$ (.*?)\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 2
    for command, shown in blocks:
        result = CliRunner().invoke(app, shlex.split(command)[1:], env={"COLUMNS": "80"})
        expected = shown.rstrip("\n").splitlines()
        error = expected[0].startswith("error:")
        assert result.exit_code == (2 if error else 0), result.stderr
        printed = result.stderr if error else result.stdout
        actual = [line.rstrip() for line in printed.rstrip("\n").splitlines()]
        assert _matches(expected, actual), (command, actual)
