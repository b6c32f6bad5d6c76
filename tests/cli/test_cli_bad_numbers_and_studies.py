"""Bad numbers and study files: options and study files that could give a traceback, a table of
nan % or a misattributed message get one line each and exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockout.program import app

ROOT = Path(__file__).resolve().parents[2]
FINAL = str(ROOT / "scenarios" / "final-2600-vs-2550.toml")
runner = CliRunner()


def _one_line_exit_2(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    return lines[0]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["compare", FINAL, "--formats", ""], "error: --formats: expected at least one format"),
        (["compare", FINAL, "--formats", " , "], "error: --formats: expected at least one format"),
        (["compare", FINAL, "--base", "nan"], "error: --base: expected a finite rating, got nan"),
        (["compare", FINAL, "--base", "inf"], "error: --base: expected a finite rating, got inf"),
        (["compare", FINAL, "--base", "-inf"], "error: --base: expected a finite rating"),
        (["compare", FINAL, "--gaps", "0,nan"], "error: --gaps: expected finite numbers"),
        (["compare", FINAL, "--gaps", "0,inf"], "error: --gaps: expected finite numbers"),
        (["compare", FINAL, "--gaps", ""], "error: --gaps: expected at least one gap"),
        (["compare", FINAL, "--gaps", ","], "error: --gaps: expected at least one gap"),
        (
            ["fair", FINAL, "--black-minutes", "inf", "--seed", "1"],
            "error: --black-minutes: expected a finite number more than 5",
        ),
        (
            ["fair", FINAL, "--black-minutes", "nan", "--seed", "1"],
            "error: --black-minutes: expected a finite number more than 5",
        ),
        (
            ["fair", FINAL, "--max-minutes", "inf", "--seed", "1"],
            "error: --max-minutes: expected a finite number",
        ),
        (
            ["fair", FINAL, "--max-minutes", "0", "--seed", "1"],
            "error: --max-minutes: expected a number > 0",
        ),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_bad_numbers_are_one_line_and_exit_2(args: list[str], expected: str) -> None:
    line = _one_line_exit_2(args)
    assert line.startswith(expected), line


def _study(tmp_path: Path, body: str) -> str:
    path = tmp_path / "study.toml"
    path.write_text(f'scenario = "{Path(FINAL).as_posix()}"\n{body}', encoding="utf-8")
    return str(path)


def test_a_range_without_steps_asks_for_steps_or_step(tmp_path: Path) -> None:
    study = _study(
        tmp_path,
        'metrics = ["odds.win.王天一"]\n[grid]\n"model.draw_nu.rapid" = {from = 0.3, to = 2.0}\n',
    )
    line = _one_line_exit_2(["study", study, "--out", str(tmp_path / "o")])
    assert "grid.model.draw_nu.rapid: expected steps (how many values) or step" in line
    assert "not both" not in line
    both = _study(
        tmp_path,
        'metrics = ["odds.win.王天一"]\n[grid]\n'
        '"model.draw_nu.rapid" = {from = 0.3, to = 2.0, steps = 3, step = 0.5}\n',
    )
    line = _one_line_exit_2(["study", both, "--out", str(tmp_path / "o")])
    assert "grid.model.draw_nu.rapid: expected steps or step, not both" in line


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('metrics = []\n[grid]\n"model.draw_nu.rapid" = [1.0]\n', "metrics: expected at least one"),
        ('metrics = ["odds.win.王天一"]\ngrid = {}\n', "grid: expected at least one"),
    ],
    ids=["metrics", "grid"],
)
def test_an_empty_list_is_called_empty(tmp_path: Path, body: str, expected: str) -> None:
    line = _one_line_exit_2(["study", _study(tmp_path, body), "--out", str(tmp_path / "o")])
    assert expected in line and "[red, black]" not in line, line


def test_each_grid_path_gets_its_own_problem(tmp_path: Path) -> None:
    study = _study(
        tmp_path,
        'metrics = ["odds.win.王天一"]\n[grid]\n"model.draw_nuu.rapid" = [0.5, 1.0]\n'
        '"players.Nobody.rating" = [2500, 2600]\n',
    )
    result = runner.invoke(app, ["study", study, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2, lines
    nuu, nobody = lines
    assert "grid.model.draw_nuu.rapid:" in nuu and "did you mean 'draw_nu'" in nuu
    assert "Nobody" not in nuu
    assert "grid.players.Nobody.rating:" in nobody and "no player named 'Nobody'" in nobody


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("black_minutes = inf\n", "black_minutes: expected a finite number"),
        ("base = nan\n", "base: expected a finite number"),
        ("gaps = [0, inf]\n", "gaps[1]: expected a finite number"),
        ("max_minutes = inf\n", "max_minutes: expected a finite number"),
    ],
)
def test_study_numbers_must_be_finite(tmp_path: Path, body: str, expected: str) -> None:
    study = _study(
        tmp_path, f'metrics = ["odds.win.王天一"]\n{body}[grid]\n"model.draw_nu.rapid" = [1.0]\n'
    )
    line = _one_line_exit_2(["study", study, "--out", str(tmp_path / "o")])
    assert expected in line, line


@pytest.mark.system
def test_an_all_undefined_metric_prints_no_numpy_warning(tmp_path: Path) -> None:
    """As a user runs it (a process of its own, warnings shown as Python shows them)."""
    import subprocess
    import sys

    study = _study(
        tmp_path,
        'metrics = ["fair.armageddon.red", "odds.win.王天一"]\n[grid]\n'
        '"model.elo_per_doubling.rapid" = [0]\n"model.draw_nu.rapid" = [0.5, 1.0, 1.5]\n',
    )
    done = subprocess.run(
        [sys.executable, "-c", "from knockout.program import main; main()", "study", study,
         "--out", str(tmp_path / "o")],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr, done.stderr
    assert "Undefined at every point measured" in (tmp_path / "o" / "summary.md").read_text(
        encoding="utf-8"
    )
