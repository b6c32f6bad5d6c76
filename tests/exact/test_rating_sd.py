"""Rating uncertainty (``rating_sd``): the exact integrals against brute force and against the
Monte Carlo and the engine, which draw each player's strength once per match or event."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import SCENARIOS, run_json, z_tolerance
from typer.testing import CliRunner

from knockout.arrays import FloatArray
from knockout.engine.event import play_event
from knockout.engine.match import play_scenario_match
from knockout.errors import ScenarioError
from knockout.exact.bracket import bracket_odds
from knockout.exact.odds import match_odds
from knockout.exact.solver import solve
from knockout.program import app
from knockout.rules.chain.pairing import Pairing
from knockout.rules.model.players import MAX_RATING_SD, Player
from knockout.rules.scenario.aggregate import Scenario, parse_scenario
from sims.bracket import simulate_bracket
from sims.match import simulate_match


def duel(
    sd_a: float, sd_b: float, strategy: str = "rational", belief_sd: float = 0.0, **extra: Any
) -> Scenario:
    kind: dict[str, Any] = {"kind": strategy}
    if belief_sd:
        kind["belief_sd"] = belief_sd
    return parse_scenario(
        {
            "format": {"preset": extra.pop("preset", "xq-bidding")},
            "strategy": kind,
            "players": [
                {"name": "A", "rating": 2560, "rating_sd": sd_a},
                {"name": "B", "rating": 2500, "rating_sd": sd_b},
            ],
            **extra,
        }
    )


def brute_force_win(scenario: Scenario, nodes: int = 20001) -> float:
    """P(A advances) integrated over the difference of the two draws on a fine uniform grid
    (the trapezoid rule, blind to where decisions flip: slow, obvious and independent)."""
    a, b = scenario.players
    sigma = float(np.hypot(a.rating_sd, b.rating_sd))
    x = np.linspace(-8 * sigma, 8 * sigma, nodes)
    pairing = Pairing.of(scenario.format, a, b, model=scenario.model, strategy=scenario.strategy)
    win = solve(pairing.expanded(np.zeros(nodes, dtype=np.intp), x)).win[:, 0]
    density = np.exp(-0.5 * (x / sigma) ** 2)
    return float(np.trapezoid(win * density, x) / np.trapezoid(density, x))


@pytest.mark.parametrize(
    ("strategy", "extra"),
    [
        ("rational", {}),  # bids flip with the truth: the integral is split there
        ("believed", {"belief_sd": 120.0}),
        ("rational", {"preset": "official-playoff"}),  # a colour choice flips
    ],
)
def test_match_integral_agrees_with_brute_force(strategy: str, extra: dict[str, Any]) -> None:
    scenario = duel(80.0, 60.0, strategy, **extra)
    got = match_odds(scenario).win["A"]
    assert got == pytest.approx(brute_force_win(scenario), abs=1e-9)


def test_no_uncertainty_is_the_plain_answer() -> None:
    plain, zero = match_odds(duel(0.0, 0.0)), match_odds(duel(0.0, 0.0))
    uncertain = match_odds(duel(100.0, 0.0))
    assert zero.win == plain.win and zero.win_if_ratings_exact is None
    assert uncertain.win_if_ratings_exact == pytest.approx(plain.win, abs=1e-15)
    # not knowing the ratings well pulls the favourite towards evens
    assert 0.5 < uncertain.win["A"] < plain.win["A"]
    assert sum(uncertain.win.values()) + uncertain.unresolved == pytest.approx(1.0, abs=1e-12)


def test_only_the_combined_sd_matters_for_a_match() -> None:
    one = match_odds(duel(100.0, 0.0)).win["A"]
    split = match_odds(duel(60.0, 80.0)).win["A"]
    assert one == pytest.approx(split, abs=1e-12)


def field(sds: list[float], **extra: Any) -> Scenario:
    ratings = np.linspace(2600, 2350, len(sds))
    players = [
        {"name": f"P{i + 1:02d}", "rating": float(r), "rating_sd": sd}
        for i, (r, sd) in enumerate(zip(ratings, sds, strict=True))
    ]
    return parse_scenario({"players": players, **extra})


def test_two_player_bracket_is_the_match() -> None:
    """A two-player bracket (product Gauss-Hermite nodes) against the match's split integral."""
    scenario = field([120.0, 90.0], strategy={"kind": "believed", "belief_sd": 100.0})
    odds = bracket_odds(scenario)
    match = match_odds(scenario)
    assert odds.win["P01"] == pytest.approx(match.win["P01"], abs=1e-5)
    assert odds.win_if_ratings_exact == pytest.approx(match.win_if_ratings_exact, abs=1e-12)


def shared_draw_title(scenario: Scenario) -> tuple[float, float]:
    """P01's title chance in a four-player bracket where only P01's rating is uncertain, by
    brute force from single-match solutions: the integral over P01's one draw of
    P(semi-final won) x P(final won), and what drawing afresh for each match would give."""
    one, two, three, four = scenario.players
    sd = one.rating_sd
    x = np.linspace(-8 * sd, 8 * sd, 40001)

    def pairing(a: Player, b: Player) -> Pairing:
        return Pairing.of(scenario.format, a, b, model=scenario.model, strategy=scenario.strategy)

    def beats(opponent: Player) -> FloatArray:  # P(P01 beats opponent | P01's draw x)
        return solve(pairing(one, opponent).expanded(np.zeros(x.size, dtype=np.intp), x)).win[:, 0]

    two_v_three = float(solve(pairing(two, three)).win[0, 0])
    final = two_v_three * beats(two) + (1 - two_v_three) * beats(three)
    density = np.exp(-0.5 * (x / sd) ** 2)
    mass = np.trapezoid(density, x)
    shared = np.trapezoid(beats(four) * final * density, x) / mass
    fresh = np.trapezoid(beats(four) * density, x) * np.trapezoid(final * density, x) / mass**2
    return float(shared), float(fresh)


@pytest.mark.parametrize("strategy", ["rational", "believed"])
@pytest.mark.parametrize("sd", [200.0, 350.0, MAX_RATING_SD])
def test_a_players_draw_is_shared_by_their_matches(sd: float, strategy: str) -> None:
    """The bracket DP against brute force, at the largest rating_sd of each step of
    BRACKET_NODES: within 1e-5 as documented, and far from drawing afresh for each match."""
    scenario = field([sd, 0.0, 0.0, 0.0], strategy={"kind": strategy})
    got = bracket_odds(scenario).win["P01"]
    shared, fresh = shared_draw_title(scenario)
    assert got == pytest.approx(shared, abs=1e-5)
    assert abs(shared - fresh) > 100 * 1e-5  # the test can tell the two apart


def test_rating_sd_beyond_the_tested_range_is_refused() -> None:
    with pytest.raises(ScenarioError, match="rating_sd"):
        field([MAX_RATING_SD + 1, 0.0])


@pytest.mark.slow
def test_monte_carlo_match_agrees_with_the_integral() -> None:
    scenario = duel(120.0, 80.0, "bayesian", belief_sd=100.0)
    exact = match_odds(scenario)
    runs = 200_000
    est, _ = simulate_match(scenario, runs, seed=11)
    assert est is not None
    for name, p in exact.win.items():
        assert est.value.win[name] == pytest.approx(p, abs=z_tolerance(p, runs)), name
    q = exact.sudden_death_reached
    assert est.value.sudden_death_reached == pytest.approx(q, abs=z_tolerance(q, runs))


@pytest.mark.slow
def test_monte_carlo_bracket_agrees_with_the_dp() -> None:
    scenario = field([150.0, 0.0, 100.0, 200.0, 0.0, 120.0, 80.0])
    exact = bracket_odds(scenario)
    runs = 60_000
    est, _ = simulate_bracket(scenario, runs, seed=5)
    assert est is not None
    for name, reach in exact.reach.items():
        for k, p in enumerate(reach):
            got = est.value.reach[name][k]
            assert got == pytest.approx(p, abs=z_tolerance(p, runs)), (name, k)


@pytest.mark.slow
def test_engine_match_agrees_with_the_integral() -> None:
    scenario = duel(150.0, 0.0, preset="single-slow")
    p = match_odds(scenario).win["A"]
    n = 1500
    wins = sum(play_scenario_match(scenario, seed=s)[0].winner == "A" for s in range(n))
    assert wins / n == pytest.approx(p, abs=z_tolerance(p, n))


@pytest.mark.slow
def test_engine_event_agrees_with_the_dp() -> None:
    scenario = field([250.0, 0.0, 0.0, 0.0], format={"preset": "single-slow"})
    p = bracket_odds(scenario).win["P01"]
    n = 600
    wins = sum(play_event(scenario, seed=s)[0].champion == "P01" for s in range(n))
    assert wins / n == pytest.approx(p, abs=z_tolerance(p, n))


def test_cli_shows_the_odds_with_ratings_exact_beside() -> None:
    odds = run_json("odds", str(SCENARIOS / "newcomer.toml"), "--json")
    sim = run_json(
        "simulate", str(SCENARIOS / "newcomer.toml"), "--runs", "5000", "--seed", "1", "--json"
    )
    assert sim["win_if_ratings_exact"] == odds["win_if_ratings_exact"]
    assert odds["win"]["Established"] < odds["win_if_ratings_exact"]["Established"]
    shown = CliRunner().invoke(app, ["odds", str(SCENARIOS / "newcomer.toml")]).stdout
    assert "2450±150" in shown and "If exact" in shown
    plain = CliRunner().invoke(app, ["odds", str(SCENARIOS / "final-2600-vs-2550.toml")]).stdout
    assert "±" not in plain and "If exact" not in plain
