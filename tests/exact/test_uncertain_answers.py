"""Exact answers over uncertain constants against brute force: the constants drawn here
independently (plain Monte Carlo, scipy.stats' own Normal, log-normal and truncated Normal, a
Cholesky factor for the correlations: the distributions the docs state), the plain solver at
each draw, and the same statistics; within the stated accuracy (the replicates' standard
errors) plus the brute force's own."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from scipy import stats

from knockout.arrays import FloatArray
from knockout.exact.bracket import bracket_odds
from knockout.exact.odds import (
    _plain_match_odds,
    from_solution,
    match_figures_at,
    match_odds,
    solution_figures,
    sudden_deaths,
)
from knockout.exact.solver import solve
from knockout.io.scenario import load_scenario
from knockout.rules.chain.pairing import Pairing
from knockout.rules.model.sd import FigureSpread, ModelSd, Spread, design, flatten
from knockout.rules.model.strength import ModelParams, PerClass
from knockout.rules.scenario.aggregate import Scenario, parse_scenario
from tests.conftest import SCENARIOS, run_json


def brute_constants(sc: Scenario, n: int, seed: int = 7) -> dict[str, FloatArray]:
    """Plain Monte Carlo draws of the scenario's uncertain constants, from the docs alone."""
    sd = sc.model_sd
    paths = [p for p in sd.uncertain]
    corr = np.eye(len(paths))
    for a, b, rho in sd.correlation:
        if a in paths and b in paths:
            i, j = paths.index(a), paths.index(b)
            corr[i, j] = corr[j, i] = rho
    z = np.random.default_rng(seed).standard_normal((n, len(paths))) @ np.linalg.cholesky(corr).T
    u = stats.norm.cdf(z)
    out = {}
    for k, path in enumerate(paths):
        name, tc = path.split(".")
        mu, s = float(getattr(sc.model, name)[tc]), sd.sd(path)
        if name == "red_advantage":
            dist: Any = stats.norm(mu, s)
        elif name == "draw_nu":
            dist = stats.lognorm(s=s / mu, scale=mu)
        else:
            dist = stats.truncnorm((0 - mu) / s, np.inf, loc=mu, scale=s)
        out[path] = dist.ppf(u[:, k])
    return out


def vector_model(sc: Scenario, values: Mapping[str, FloatArray], n: int) -> ModelParams:
    def table(name: str) -> PerClass:
        cells: list[Any] = []
        for tc in ("classical", "rapid", "blitz"):
            path = f"{name}.{tc}"
            cells.append(values.get(path, np.full(n, float(getattr(sc.model, name)[tc]))))
        return PerClass(*cells)

    return ModelParams(table("red_advantage"), table("draw_nu"), table("elo_per_doubling"))


def assert_matches(
    found: FigureSpread, err: FigureSpread, y: FloatArray, *, z: float = 4.0
) -> None:
    """The spread against brute-force values ``y``: the mean, the sd, both quantiles (their
    brute-force errors by batch means) and P(> 0), within ``z`` combined standard errors."""
    n = len(y)
    batches = y[: n - n % 20].reshape(20, -1)

    def batch_se(f: Any) -> float:
        return float(np.std([f(b) for b in batches], ddof=1) / math.sqrt(20))

    checks = [
        (found.mean, float(np.mean(y)), err.mean, float(np.std(y)) / math.sqrt(n)),
        (found.sd, float(np.std(y)), err.sd, batch_se(np.std)),
        (found.q025, float(np.quantile(y, 0.025)), err.q025,
         batch_se(lambda b: np.quantile(b, 0.025))),
        (found.q975, float(np.quantile(y, 0.975)), err.q975,
         batch_se(lambda b: np.quantile(b, 0.975))),
    ]  # fmt: skip
    if found.p_above_zero is not None:
        p = float(np.mean(y > 0))
        assert err.p_above_zero is not None
        checks.append((found.p_above_zero, p, err.p_above_zero, math.sqrt(p * (1 - p) / n)))
    for i, (value, brute, se, se_brute) in enumerate(checks):
        tolerance = z * math.hypot(se, se_brute) + 1e-9
        assert abs(value - brute) <= tolerance, (i, value, brute, tolerance)


HOW_SURE = SCENARIOS / "final-how-sure.toml"


@pytest.mark.slow
def test_a_match_against_brute_force() -> None:
    sc = load_scenario(HOW_SURE)
    odds = match_odds(sc)
    spread = odds.model_uncertainty
    assert spread is not None and spread.draws == 512 and spread.method == "sobol-rqmc"
    n = 8192
    draws = brute_constants(sc, n)
    a, b = sc.players
    sol = solve(Pairing.of(sc.format, [a] * n, [b] * n, model=vector_model(sc, draws, n),
                           strategy=sc.strategy))  # fmt: skip
    brute = {
        f"win.{a.name}": sol.win[:, 0],
        "match.decided.sudden_death": sol.decided[:, 2].sum(axis=1),
        "match.chooser_advances": sol.chooser_advances / sol.bidding_reached,
    }
    for path, y in brute.items():
        assert_matches(spread.figures[path], spread.stderr[path], y)


@pytest.mark.slow
def test_a_bracket_against_brute_force() -> None:
    """Four players: P(seed 1 wins) = M14 (M23 M12 + M32 M13), the match chances M solved at
    each brute-force draw."""
    data = {
        "format": {"preset": "xq-bidding"},
        "model": {"sd": {"red_advantage": {"classical": 14, "rapid": 25},
                         "draw_nu": {"rapid": 0.25}, "elo_per_doubling": {"rapid": 40}}},
        "players": [{"name": f"P{i}", "rating": r}
                    for i, r in enumerate((2600, 2560, 2530, 2480), start=1)],
    }  # fmt: skip
    sc = parse_scenario(data)
    spread = bracket_odds(sc).model_uncertainty
    assert spread is not None
    n = 4096
    draws = brute_constants(sc, n, seed=11)
    model = vector_model(sc, draws, n)
    p = {q.name: q for q in sc.players}

    def m(x: str, y: str) -> FloatArray:
        pairing = Pairing.of(sc.format, [p[x]] * n, [p[y]] * n, model=model, strategy=sc.strategy)
        return solve(pairing).win[:, 0]

    m14, m23, m12, m13 = m("P1", "P4"), m("P2", "P3"), m("P1", "P2"), m("P1", "P3")
    y = m14 * (m23 * m12 + (1 - m23) * m13)
    assert_matches(spread.figures["win.P1"], spread.stderr["win.P1"], y)
    assert not any(k.startswith("bracket.") for k in spread.figures)


def test_all_sd_zero_is_the_plain_answer_exactly() -> None:
    """A [model.sd] of zeros: no spread, and every number the plain answer's."""
    plain = run_json("odds", str(SCENARIOS / "final-2600-vs-2550.toml"), "--json")
    zeros = run_json("odds", str(SCENARIOS / "final-2600-vs-2550.toml"), "--json",
                     "--set", "model.sd.elo_per_doubling.rapid=0",
                     "--set", "model.sd.red_advantage.classical=0.0")  # fmt: skip
    assert "model_uncertainty" not in zeros
    for doc in (plain, zeros):
        doc.pop("scenario")
    assert zeros == plain


def test_the_integration_collapses_onto_the_plain_answer() -> None:
    """Constants all but certain (sd 1e-9): the spread's mean and quantiles are the answer."""
    sc = load_scenario(HOW_SURE)
    tiny = ModelSd(*(PerClass(1e-9, 1e-9, 1e-9) for _ in range(3)))
    sc = replace(sc, model_sd=tiny)
    odds = match_odds(sc)
    assert odds.model_uncertainty is not None
    for path, value in flatten(odds.to_json()).items():
        found = odds.model_uncertainty.get(path)
        if found is None or value is None:
            continue
        assert abs(found.mean - value) < 1e-7 and found.sd < 1e-7, path
        assert found.q025 <= value + 1e-7 and found.q975 >= value - 1e-7


def test_the_vectorised_draws_are_the_plain_answers_at_those_constants() -> None:
    """The one vectorised solve over the draws equals the plain solver at each draw's
    constants, for rational and believed decisions, with and without rating uncertainty."""
    for sets in ([], ["strategy.kind=believed", "players.王天一.rating_sd=80"]):
        sc = load_scenario(HOW_SURE, overrides=sets)
        des = design(sc.model, sc.model_sd, draws=16, replicates=8)
        figures = match_figures_at(sc, des)
        assert figures is not None
        for i in (0, 5, 11):
            one = _plain_match_odds(replace(sc, model=des.model_at(sc.model, i),
                                            model_sd=ModelSd()), rating_sd=True)  # fmt: skip
            for path, value in flatten(one.to_json()).items():
                if value is None or path not in figures:
                    continue
                # 6 Gauss-Legendre nodes a piece over the draws, 12 for one answer: 1e-8
                assert abs(figures[path][i] - value) < 1e-8, (sets, path)


def test_solution_figures_are_the_json_of_every_pair() -> None:
    sc = load_scenario(HOW_SURE)
    des = design(sc.model, sc.model_sd, draws=16, replicates=8)
    a, b = sc.players
    names = (a.name, b.name)
    pairing = Pairing.of(sc.format, [a] * 16, [b] * 16, model=des.model(sc.model),
                         strategy=sc.strategy)  # fmt: skip
    sol = solve(pairing)
    figures = solution_figures(sol, names, pairing)
    laid_open = sudden_deaths(pairing, names, sol)
    assert laid_open is not None
    for i in range(16):
        doc = flatten(from_solution(sol, names, i, sudden_death=laid_open[i]).to_json())
        assert set(doc) == set(figures)
        for path, value in doc.items():
            assert value is not None and abs(figures[path][i] - value) < 1e-15


@pytest.mark.slow
def test_a_strategy_that_needs_one_model_at_a_time_is_solved_draw_by_draw() -> None:
    sc = load_scenario(HOW_SURE, overrides=["strategy.kind=bayesian", "strategy.belief_sd=60",
                                            "model.sd.red_advantage.classical=0"])  # fmt: skip
    des = design(sc.model, sc.model_sd, draws=8, replicates=8)
    assert match_figures_at(sc, des) is None
    spread = match_odds(sc, draws=16).model_uncertainty
    assert isinstance(spread, Spread) and spread.draws == 16


def test_simulate_reports_its_exact_companion_spread() -> None:
    doc = run_json("simulate", str(HOW_SURE), "--runs", "20000", "--seed", "3", "--json")
    spread = doc["model_uncertainty"]
    assert isinstance(spread, dict) and set(spread) >= {"draws", "method", "figures"}
    figures = spread["figures"]
    assert "exact.win.王天一" in figures and "win.王天一" not in figures
    assert set(figures["exact.win.王天一"]) == {"mean", "sd", "q025", "q975", "p_above_zero"}
    assert figures["exact.win.王天一"]["p_above_zero"] is None


def test_odds_json_has_the_key_as_specified() -> None:
    doc = run_json("odds", str(HOW_SURE), "--json")
    spread = doc["model_uncertainty"]
    assert isinstance(spread, dict)
    assert spread["draws"] == 512 and spread["method"] == "sobol-rqmc"
    for path in ("win.王天一", "match.chooser_advances", "match.decided.slow"):
        fig = spread["figures"][path]
        assert list(fig) == ["mean", "sd", "q025", "q975", "p_above_zero"]
        assert fig["p_above_zero"] is None and 0 <= fig["q025"] <= fig["q975"] <= 1
