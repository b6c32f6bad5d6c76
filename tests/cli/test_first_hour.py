"""What a new organiser and a new rule designer hit in their first hour (the field-test issue):
bad input gets one line and exit code 2, options that do nothing are refused, and the words of
every message and help text come out whole."""

from __future__ import annotations

from pathlib import Path

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
