"""calibrate's uncertainty carried on: --write-model writes [model.sd] and the correlations,
which load back and reproduce the fit's standard errors; seed 000's derivation of its scores
with its error (the key scoring), checked against resampled multinomial data."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from knockout.calibration import calibrate, parse_games
from knockout.io.scenario import load_scenario
from knockout.program import app
from knockout.rules.model.sd import design
from tests.calibration.test_calibration_cli import HEADER, PLAYERS, SEED_GAMES
from tests.conftest import run_json

runner = CliRunner()


def _written(tmp_path: Path, games: str) -> tuple[dict[str, object], Path]:
    model_file = tmp_path / "fitted.toml"
    fit = run_json("calibrate", games, "--write-model", str(model_file), "--json")
    scenario = tmp_path / "scenario.toml"
    scenario.write_text(model_file.read_text(encoding="utf-8") + PLAYERS, encoding="utf-8")
    return fit, scenario


def test_the_written_model_loads_back_with_its_standard_errors(tmp_path: Path) -> None:
    fit, scenario = _written(tmp_path, SEED_GAMES)
    sc = load_scenario(scenario)
    classical = fit["classical"]
    assert isinstance(classical, dict)
    assert sc.model_sd.sd("red_advantage.classical") == classical["red_advantage"]["stderr"]
    assert sc.model_sd.sd("draw_nu.classical") == classical["draw_nu"]["stderr"]
    assert sc.model_sd.uncertain == ("red_advantage.classical", "draw_nu.classical")
    ((a, b, rho),) = sc.model_sd.correlation
    assert (a, b) == ("red_advantage.classical", "draw_nu.classical") and 0.1 < rho < 0.15
    # the draws reproduce the fit's errors: sd of red_advantage, sd of log nu = se / nu, rho
    des = design(sc.model, sc.model_sd, draws=8192, replicates=8)
    ra, nu = des.values["red_advantage.classical"], des.values["draw_nu.classical"]
    se_ra, se_nu = classical["red_advantage"]["stderr"], classical["draw_nu"]["stderr"]
    assert abs(ra.std() / se_ra - 1) < 0.01
    assert abs(np.log(nu).std() / (se_nu / sc.model.draw_nu.classical) - 1) < 0.01
    assert abs(np.corrcoef(ra, np.log(nu))[0, 1] - rho) < 0.01
    # and every answer computed with it carries them
    odds = run_json("odds", str(scenario), "--json")
    assert "win.A" in odds["model_uncertainty"]["figures"]  # type: ignore[index]


def test_a_fit_with_time_odds_writes_every_pair(tmp_path: Path) -> None:
    rows = [HEADER + ",count"]
    for red, black, counts in ((25, 15, (60, 25, 15)), (15, 25, (30, 30, 40)),
                               (20, 20, (45, 30, 25))):  # fmt: skip
        for result, count in zip(("red", "draw", "black"), counts, strict=True):
            rows.append(f"2500,2500,rapid,{red},{black},10,{result},{count}")
    games = tmp_path / "g.csv"
    games.write_text("\n".join(rows) + "\n", encoding="utf-8")
    fitted = calibrate(parse_games(games.read_text(encoding="utf-8"), source="g.csv"))
    _, scenario = _written(tmp_path, str(games))
    sc = load_scenario(scenario)
    assert sc.model_sd.uncertain == ("red_advantage.rapid", "draw_nu.rapid",
                                     "elo_per_doubling.rapid")  # fmt: skip
    assert len(sc.model_sd.correlation) == 3
    (fit,) = fitted.classes
    assert sc.model_sd.sd("elo_per_doubling.rapid") == fit.elo_per_doubling.stderr
    assert sc.model_sd.correlation == fit.correlation


def test_seed_000s_derivation_with_its_error() -> None:
    scoring = run_json("calibrate", SEED_GAMES, "--json")["scoring"]
    assert isinstance(scoring, dict)
    assert list(scoring) == ["red_minus_black", "difference", "ratio", "method"]
    keys = ["estimate", "stderr", "q025", "q975"]
    gap = scoring["red_minus_black"]
    assert list(gap) == keys
    r, d, b = 391, 557, 270
    n = r + d + b
    assert math.isclose(gap["estimate"], (r - b) / n, rel_tol=1e-12)
    x = scoring["difference"]["red_win"]
    assert math.isclose(x["estimate"], 2 - (r - b) / n) and x["q025"] < 1.9 < x["q975"]
    y = scoring["ratio"]["red_win"]
    assert math.isclose(y["estimate"], 4 / (1 + r / b)) and y["q025"] < 1.7 < y["q975"]
    assert scoring["ratio"]["black_win"]["q025"] < 2.3 < scoring["ratio"]["black_win"]["q975"]
    # the standard errors against resampled multinomial samples of 1,218 games
    rng = np.random.default_rng(2010)
    counts = rng.multinomial(n, [r / n, d / n, b / n], size=40_000)
    gaps = (counts[:, 0] - counts[:, 2]) / n
    ratio_x = 4 / (1 + counts[:, 0] / counts[:, 2])
    assert abs(gaps.std() / gap["stderr"] - 1) < 0.02
    assert abs(ratio_x.std() / y["stderr"] - 1) < 0.03
    # not two independent proportions: their covariance is negative, so that would understate
    # the gap's error
    independent = math.sqrt((r / n) * (1 - r / n) / n + (b / n) * (1 - b / n) / n)
    assert gap["stderr"] > independent and abs(gaps.std() / independent - 1) > 0.1


def test_the_table_says_whether_the_seeds_scores_lie_inside(tmp_path: Path) -> None:
    out = " ".join(runner.invoke(app, ["calibrate", SEED_GAMES]).stdout.split())
    assert "1.9 / 2.1 lies inside the difference method's intervals" in out
    assert "1.7 / 2.3 lies inside the ratio method's intervals" in out
    assert "The traditional 2 / 2 lies outside" in out
    # contradicting games: as many Black wins as Red wins
    games = tmp_path / "even.csv"
    games.write_text(HEADER + ",count\n" + "".join(
        f"2500,2500,classical,60,60,10,{res},{c}\n" for res, c in
        (("red", 300), ("draw", 600), ("black", 300))), encoding="utf-8")  # fmt: skip
    out = " ".join(runner.invoke(app, ["calibrate", str(games)]).stdout.split())
    assert "1.9 / 2.1 lies outside the difference method's intervals" in out
    assert "The traditional 2 / 2 lies inside" in out
