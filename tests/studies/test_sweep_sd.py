"""A study over a scenario with uncertain constants: every point's spread over the constants
the grid does not sweep (against brute force), the swept constant held, and the committee's
section at the scenario's own constants."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from knockout.exact.solver import solve
from knockout.rules.chain.pairing import Pairing
from knockout.studies.output import write_study
from knockout.studies.report import sweep_files
from knockout.studies.sweep import load_sweep, run_sweep
from tests.conftest import SCENARIOS
from tests.exact.test_uncertain_answers import assert_matches, brute_constants, vector_model
from tests.studies.test_fair_sd import seed_edge

STUDY = """
name = "edge over the draw rate"
scenario = "{scenario}"
metrics = ["fair.chooser_advantage.seed_menu", "odds.win.王天一"]
model_draws = 256
[grid]
"model.draw_nu.rapid" = [0.8, 1.2]
"""


@pytest.fixture
def sweep(tmp_path: Path):  # type: ignore[no-untyped-def]
    path = tmp_path / "study.toml"
    path.write_text(STUDY.format(scenario=SCENARIOS / "final-how-sure.toml"), encoding="utf-8")
    return load_sweep(path)


@pytest.mark.slow
def test_every_point_against_brute_force(sweep) -> None:  # type: ignore[no-untyped-def]
    assert sweep.held_constants == ("model.sd.draw_nu.rapid",)
    result = run_sweep(sweep)
    n = 4096
    for pr in result.points:
        sc = sweep.scenario_at(pr.point)
        assert sc.model_sd.sd("draw_nu.rapid") == 0  # held at the point's value
        draws = brute_constants(sc, n, seed=21)
        ra, elo = draws["red_advantage.rapid"], draws["elo_per_doubling.rapid"]
        nu = sc.model.draw_nu.rapid
        edges = np.array([seed_edge(a, nu, e) for a, e in zip(ra, elo, strict=True)])
        found, err, undefined = pr.spread["fair.chooser_advantage.seed_menu"]
        assert undefined == 0
        assert_matches(found, err, edges)
        a, b = sc.players
        model = vector_model(sc, draws, n)
        win = solve(Pairing.of(sc.format, [a] * n, [b] * n, model=model,
                               strategy=sc.strategy)).win[:, 0]  # fmt: skip
        found, err, _ = pr.spread["odds.win.王天一"]
        assert_matches(found, err, win)
    base = result.base
    assert base is not None and base.draws == 512
    assert base.how_sure and "above zero with probability" in base.how_sure[0]


def test_the_files_carry_the_spread(sweep, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_sweep(sweep)
    scenario = {"name": "x"}
    files = write_study(sweep_files(result, scenario), tmp_path / "out")
    with (tmp_path / "out" / "results.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert all(r["model_q025"] and float(r["model_q025"]) <= float(r["model_q975"]) for r in rows)
    edge_rows = [r for r in rows if r["metric"] == "fair.chooser_advantage.seed_menu"]
    assert all(r["model_p_above_zero"] != "" for r in edge_rows)
    assert all(r["model_p_above_zero"] == "" for r in rows if r["metric"] == "odds.win.王天一")
    doc = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    point = doc["points"][0]["metrics"]["fair.chooser_advantage.seed_menu"]
    assert set(point["model_uncertainty"]) >= {"mean", "sd", "q025", "q975", "p_above_zero"}
    assert doc["base"]["how_sure"] == list(result.base.how_sure)
    summary = (tmp_path / "out" / "summary.md").read_text(encoding="utf-8")
    assert "## How sure, at the scenario's own constants" in summary
    assert "`draw_nu.rapid` held at each point's value" in summary
    assert any(str(p).endswith(".png") for p in files)


def test_a_study_without_uncertain_constants_has_no_spread(tmp_path: Path) -> None:
    path = tmp_path / "study.toml"
    path.write_text(STUDY.format(scenario=SCENARIOS / "final-2600-vs-2550.toml"),
                    encoding="utf-8")  # fmt: skip
    result = run_sweep(load_sweep(path))
    assert result.base is None and all(not pr.spread for pr in result.points)


def test_model_draws_must_be_replicates_of_a_power_of_two(tmp_path: Path) -> None:
    from knockout.errors import InputError

    path = tmp_path / "study.toml"
    path.write_text(STUDY.format(scenario=SCENARIOS / "final-how-sure.toml").replace(
        "model_draws = 256", "model_draws = 100"), encoding="utf-8")  # fmt: skip
    with pytest.raises(InputError, match="model_draws: expected 8 times a power of two"):
        load_sweep(path)
