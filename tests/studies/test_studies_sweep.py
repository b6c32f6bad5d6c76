"""knockout study: grids over --set paths, metrics from every output, files and summaries."""

from __future__ import annotations

import csv
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockout.errors import InputError
from knockout.exact.odds import match_odds
from knockout.program import app
from knockout.studies.output import write_study
from knockout.studies.report import summary_markdown, sweep_files
from knockout.studies.sweep import Axis, Sweep, load_sweep, parse_sweep, run_sweep

ROOT = Path(__file__).resolve().parents[2]
STUDIES = ROOT / "scenarios" / "studies"
FINAL_PATH = ROOT / "scenarios" / "final-2600-vs-2550.toml"
HOW_SURE_PATH = ROOT / "scenarios" / "final-how-sure.toml"
runner = CliRunner()


def small(metrics: list[str], grid: dict[str, object], **extra: object) -> Sweep:
    data = {
        "name": "small",
        "scenario": "../final-2600-vs-2550.toml",
        "metrics": metrics,
        "grid": grid,
        **extra,
    }
    return parse_sweep(data, source="s.toml", folder=STUDIES)


def test_the_vectorised_grid_equals_one_solve_per_point() -> None:
    sweep = small(
        ["odds.match.chooser_advances", "odds.win.王天一", "odds.match.sudden_death.reached"],
        {"model.elo_per_doubling.rapid": [0, 60, 200], "model.draw_nu.rapid": [0.4, 1.7]},
    )
    result = run_sweep(sweep)
    assert len(result.points) == 6
    for pr in result.points:
        odds = match_odds(sweep.scenario_at(pr.point))
        assert pr.values["odds.win.王天一"][0] == pytest.approx(odds.win["王天一"], abs=1e-12)
        assert pr.values["odds.match.chooser_advances"][0] == pytest.approx(
            odds.chooser_advances, abs=1e-12
        )
        assert pr.values["odds.win.王天一"][1:] == (0.0, "exact")


def test_ranges_and_lists() -> None:
    sweep = small(
        ["odds.win.王天一"],
        {"model.draw_nu.rapid": {"from": 0.5, "to": 1.0, "step": 0.25}, "strategy.kind": ["naive"]},
    )
    axes = sweep.axes
    assert axes == (
        Axis("model.draw_nu.rapid", (0.5, 0.75, 1.0)),
        Axis("strategy.kind", ("naive",)),
    )
    assert not axes[1].numeric


def test_study_file_problems_are_all_reported() -> None:
    with pytest.raises(InputError) as err:
        parse_sweep(
            {
                "scenario": "../final-2600-vs-2550.toml",
                "metrics": ["odds", "golf.win"],
                "grid": {
                    "model.draw_nu.rapid": {"from": 0, "to": 1},
                    "model.elo_per_doubling.rapid": [-5],
                },
                "colour": 1,
            },
            source="s.toml",
            folder=STUDIES,
        )
    keys = sorted(p.key for p in err.value.problems)
    assert keys == ["colour"]  # structure first: the unknown key stops the rest
    with pytest.raises(InputError) as err:
        small(
            ["odds", "golf.win"],
            {"model.draw_nu.rapid": {"from": 0, "to": 1}, "model.elo_per_doubling.rapid": [-5]},
        )
    lines = err.value.lines()
    assert any("metrics[0]: expected OUTPUT.key.path" in line for line in lines)
    assert any("metrics[1]" in line for line in lines)
    steps = "grid.model.draw_nu.rapid: expected steps (how many values) or step"
    assert any(steps in line for line in lines)
    assert any(
        "grid.model.elo_per_doubling.rapid: expected a number >= 0, got -5" in line
        for line in lines
    )


def test_a_metric_that_is_not_in_its_output_says_so() -> None:
    from knockout.errors import KnockoutError

    sweep = small(["odds.match.nope"], {"model.draw_nu.rapid": [1.0]})
    with pytest.raises(KnockoutError, match=r"metric 'odds\.match\.nope': no such key"):
        run_sweep(sweep)


def test_monte_carlo_metrics_use_common_random_numbers() -> None:
    sweep = small(
        ["simulate.win.王天一", "odds.win.王天一"],
        {"players.郑惟桐.rating": [2550, 2550.0001]},
        runs=20_000,
        seed=4,
    )
    a, b = run_sweep(sweep).points
    (va, sa, ma), (vb, _, _) = a.values["simulate.win.王天一"], b.values["simulate.win.王天一"]
    assert ma == "monte-carlo" and sa > 0
    assert va == vb  # a hair's change in rating, the same random numbers: the same estimate
    assert abs(va - a.values["odds.win.王天一"][0]) <= 4 * sa


def test_a_simulate_study_measures_the_estimates_without_the_exact_companion() -> None:
    """A ``simulate.`` study runs the Monte Carlo alone (its exact companion is what ``odds.``
    metrics measure): the estimates are ``knockout simulate``'s, and a path of the companion
    is refused naming the odds. metric to use."""
    from knockout.errors import KnockoutError
    from sims.run import simulate_scenario

    grid = {"model.draw_nu.rapid": [0.8]}
    sweep = small(["simulate.win.王天一"], grid, runs=20_000, seed=3)
    point = run_sweep(sweep).points[0]
    full = simulate_scenario(sweep.scenario_at((0.8,)), 20_000, 3, model_sd=False).to_json()
    assert point.values["simulate.win.王天一"][:2] == (
        full["win"]["王天一"],
        full["stderr"]["win"]["王天一"],
    )
    with pytest.raises(KnockoutError, match=r"use 'odds\.win\.王天一'"):
        run_sweep(small(["simulate.exact.win.王天一"], grid, runs=20_000, seed=3))


def test_interrupted_runs_keep_the_points_finished(tmp_path: Path) -> None:
    sweep = small(["odds.win.王天一"], {"model.draw_nu.rapid": [0.5, 0.75, 1.0, 1.25]})

    def stop_after_first(done: int, total: int) -> None:
        if done >= 2:
            raise KeyboardInterrupt

    result = run_sweep(sweep, progress=stop_after_first, chunk=2)
    assert result.interrupted and len(result.points) == 2
    files = write_study(sweep_files(result, {}), tmp_path)
    assert "(interrupted: the summary covers the points finished)" in files[-1].read_text(
        encoding="utf-8"
    )


def test_the_summary_follows_the_numbers() -> None:
    sweep = small(["fair.chooser_advantage.seed_menu"], {"model.draw_nu.rapid": [0.5, 1.0, 2.0]})
    result = run_sweep(sweep)
    text = summary_markdown(result)
    assert "Above zero at 2 of 3 points, below zero at 1" in text
    flipped = replace(
        result,
        points=tuple(
            replace(pr, values={k: (-v, se, m) for k, (v, se, m) in pr.values.items()})
            for pr in result.points
        ),
    )
    assert "Above zero at 1 of 3 points, below zero at 2" in summary_markdown(flipped)


@pytest.mark.slow
def test_cli_writes_every_file(tmp_path: Path) -> None:
    study = tmp_path / "s.toml"
    study.write_text(
        f'scenario = "{ROOT / "scenarios" / "final-2600-vs-2550.toml"}"\n'
        'metrics = ["odds.match.chooser_advances", "compare.rows.xq-bidding.decider_edge"]\n'
        '[grid]\n"model.elo_per_doubling.rapid" = [0, 120, 200]\n'
        '"model.draw_nu.rapid" = [0.5, 1.0]\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    result = runner.invoke(app, ["study", str(study), "--out", str(out), "--seed", "3"])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        "compare-rows-xq-bidding-decider_edge.png".replace("_", "-"),
        "odds-match-chooser-advances.png",
        "results.csv",
        "results.json",
        "summary.md",
    ]
    with (out / "results.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == [
        "model.elo_per_doubling.rapid",
        "model.draw_nu.rapid",
        "metric",
        "estimate",
        "stderr",
        "method",
        # a metric's spread over uncertain constants (empty: the scenario has none)
        "model_mean",
        "model_sd",
        "model_q025",
        "model_q975",
        "model_p_above_zero",
        "model_undefined",
    ]
    assert {r["model_mean"] for r in rows} == {""}
    assert len(rows) == 12 and {r["method"] for r in rows} == {"exact"}
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert doc["seed"] == 3 and len(doc["points"]) == 6 and doc["interrupted"] is False


@pytest.mark.system
def test_the_scoring_study_runs_on_the_same_runner(tmp_path: Path) -> None:
    # The bundled file with 12 players and 5 Swiss rounds in every event, and 3 Dutch events
    # (its Dutch event of 80 players takes half a minute an event, 50 of them).
    text = (STUDIES / "scoring-reform.toml").read_text(encoding="utf-8")
    text = re.sub(r"players = \d+", "players = 12", text).replace("rounds = 11", "rounds = 5")
    dutch = re.compile(r"(simulations = )\d+(\n(?:[^\[\n][^\n]*\n)*pairing_system = \"dutch\")")
    assert len(dutch.findall(text)) == 1  # the Dutch event
    text = dutch.sub(r"\g<1>3\g<2>", text)
    study = tmp_path / "scoring-reform.toml"
    study.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    # --yes: the pilot's estimate grows with the machine's load (about 44 min at load 18), and
    # the size check is tested on its own (test_a_long_scoring_study_runs_only_with_yes)
    result = runner.invoke(app, ["study", str(study), "--out", str(out), "--workers", "2", "--yes"])
    assert result.exit_code == 0, result.output
    names = {p.name for p in out.iterdir()}
    assert {"results.csv", "results.json", "summary.md"} <= names


@pytest.mark.parametrize("name", ["chooser-edge", "fair-split", "schemes", "beliefs"])
def test_bundled_studies_parse(name: str) -> None:
    sweep = load_sweep(STUDIES / f"{name}.toml")
    assert sweep.points and sweep.metrics


def test_a_scenario_given_as_a_study_is_named_as_such() -> None:
    scenario = ROOT / "scenarios" / "equal-speeds-2600-vs-2550.toml"
    with pytest.raises(InputError) as err:
        load_sweep(scenario)
    (line,) = err.value.lines()
    assert "this looks like a scenario" in line
    assert "equal-speeds-2600-vs-2550.toml: players:" in line


def test_study_files_and_scenarios_live_apart() -> None:
    """Every file in scenarios/studies/ is a study file, and every scenario a study names lives
    outside it (scenarios/), so that `knockout study` on any file of the studies folder runs."""
    from knockout.io.scenario import load_scenario
    from knockout.io.tomlfile import load_toml

    for path in sorted(STUDIES.glob("*.toml")):
        if "events" in load_toml(path):  # a Swiss, round-robin or league study: no scenario
            continue
        sweep = load_sweep(path)
        assert Path(sweep.scenario_path).resolve().parent == ROOT / "scenarios", path.name
        load_scenario(sweep.scenario_path)


def test_a_path_in_both_set_and_grid_gets_a_note(tmp_path: Path) -> None:
    """The grid's values win at every point (checked against odds at a point), the [set]
    value only in the base; the study says so in one line on stderr and in its summary."""
    sweep = small(
        ["odds.win.王天一"],
        {"model.draw_nu.rapid": [0.5, 1.5]},
        set={"model.draw_nu.rapid": 0.8, "model.elo_per_doubling.rapid": 60},
    )
    assert len(sweep.notes) == 1
    note = sweep.notes[0]
    assert "`model.draw_nu.rapid` is set both in [set] (0.8) and in [grid]" in note
    assert "the grid's values are used at every point" in note
    assert sweep.scenario_at((0.5,)).model.draw_nu.rapid == 0.5
    result = run_sweep(sweep)
    assert f"Note: {note}." in summary_markdown(result)
    study = tmp_path / "both.toml"
    study.write_text(
        f'scenario = "{(ROOT / "scenarios" / "final-2600-vs-2550.toml").as_posix()}"\n'
        'metrics = ["odds.win.王天一"]\n[set]\n"model.draw_nu.rapid" = 0.8\n'
        '[grid]\n"model.draw_nu.rapid" = [0.5, 1.5]\n',
        encoding="utf-8",
    )
    out = runner.invoke(app, ["study", str(study), "--out", str(tmp_path / "o")])
    assert out.exit_code == 0, out.output
    notes = [line for line in out.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "is set both in [set]" in notes[0]
    # a path in one of them only: no note
    assert small(["odds.win.王天一"], {"model.draw_nu.rapid": [0.5]}).notes == ()


def test_a_correlation_without_an_sd_gets_a_note() -> None:
    """A correlation of constants one of which has no sd changes nothing: one line says so,
    for a scenario read by any command and for a study's base; none where both have an sd."""
    corr = 'model.correlation=[["red_advantage.rapid", "draw_nu.rapid", 0.3]]'
    result = runner.invoke(app, ["odds", str(FINAL_PATH), "--set", corr])
    assert result.exit_code == 0
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert notes == [
        f"note: {FINAL_PATH}: model.correlation[0]: red_advantage.rapid and "
        "draw_nu.rapid correlated 0.3, but [model.sd] gives no constant an sd, so every constant "
        "is taken as exact: the correlation has no effect"
    ]
    one = runner.invoke(app, ["odds", str(HOW_SURE_PATH),
                              "--set", "model.sd.red_advantage.rapid=0"])  # fmt: skip
    assert "red_advantage.rapid has no sd in [model.sd]" in one.stderr
    both = runner.invoke(app, ["odds", str(HOW_SURE_PATH)])
    assert "note:" not in both.stderr
    pair = [["red_advantage.rapid", "draw_nu.rapid", 0.3]]
    sweep = small(["odds.win.王天一"], {"model.draw_nu.rapid": [0.5]},
                  set={"model.correlation": pair})  # fmt: skip
    assert any("the correlation has no effect" in n for n in sweep.notes)
