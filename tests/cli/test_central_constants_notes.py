"""Commands that work at the central constants of a scenario with [model.sd] say so in one
line (play, schedule, design's base scenario), instead of dropping the uncertainty in silence;
commands that integrate over it (odds, fair, ...) say nothing of the kind."""

from __future__ import annotations

from pathlib import Path

from conftest import SCENARIOS
from typer.testing import CliRunner

from knockout.program import app

HOW_SURE = str(SCENARIOS / "final-how-sure.toml")
FINAL = str(SCENARIOS / "final-2600-vs-2550.toml")
runner = CliRunner()


def _notes(result: object) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("note:")]  # type: ignore[attr-defined]


def test_play_says_it_draws_at_the_central_constants() -> None:
    result = runner.invoke(app, ["play", HOW_SURE, "--seed", "1"])
    assert result.exit_code == 0
    assert _notes(result) == [
        f"note: {HOW_SURE}: play draws its games at the central constants: [model.sd] is not "
        "sampled (odds, compare, fair, incentives, equilibrium and simulate's exact companion "
        "integrate over it)"
    ]
    assert _notes(runner.invoke(app, ["play", FINAL, "--seed", "1"])) == []
    assert _notes(runner.invoke(app, ["odds", HOW_SURE])) == []


def test_a_design_on_an_uncertain_base_says_it_does_not_sample_it(tmp_path: Path) -> None:
    design = tmp_path / "d.toml"
    design.write_text(
        f'scenario = "{Path(HOW_SURE).as_posix()}"\n[space]\nslow_games = [1, 2]\n'
        'decider = ["xq-bidding"]\n[objective]\nstronger_advances = { gap = 100 }\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["design", str(design), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    (note,) = _notes(result)
    assert "the scenario's [model.sd] is not sampled" in note
