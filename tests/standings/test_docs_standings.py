"""The examples in docs/tiebreaks.md and in the standings modules' docstrings still hold."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import knockout.dashboard.standings
import knockout.standings.records
import knockout.standings.tiebreaks
from knockout.program import app

ROOT = Path(__file__).resolve().parents[2]


def test_console_examples_in_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``console`` block of the page: its command prints what the page shows."""
    text = (ROOT / "docs" / "tiebreaks.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n\$ (.*?)\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    monkeypatch.chdir(ROOT)
    for line, expected in blocks:
        command = line.split()
        assert command[0] == "knockout"
        result = CliRunner().invoke(app, command[1:], env={"COLUMNS": "80"})
        assert result.exit_code == 0, result.stderr
        got = [row.rstrip() for row in result.stdout.rstrip().splitlines()]
        assert got == expected.rstrip().splitlines(), line


@pytest.mark.parametrize(
    "module",
    [knockout.standings.records, knockout.standings.tiebreaks, knockout.dashboard.standings],
)
def test_docstring_examples(module: object) -> None:
    failures, tests = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert tests > 0
    assert failures == 0
