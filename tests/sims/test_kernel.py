"""The vectorised kernel against the exact solver and a scalar reference, in distribution."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from conftest import z_tolerance
from reference import play

from knockout.errors import ScenarioError
from knockout.exact.odds import match_odds
from knockout.exact.solver import solve
from knockout.rules.book.presets import get_format
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.strategies import Bayesian, Believed, Naive, Rational, Strategy
from knockout.rules.model.players import Player, Speed
from knockout.rules.model.strength import ModelParams, PerClass
from knockout.rules.scenario.aggregate import parse_scenario
from sims.kernel import MatchTables, simulate
from sims.match import simulate_match

A = Player("A", 2540, 2500, 2580, Speed(0.7, 0.1))
B = Player("B", 2500, 2520, 2500, Speed(0.75, 0.12))
# Constants under which bidding decisions flip near a zero rating gap, so strategies differ.
TOUGH = ModelParams(PerClass(-30, -30, -30), PerClass(1.0, 1.2, 0.8), PerClass(0, 0, 120))
STRATEGIES: list[Strategy] = [Rational(), Naive(), Believed(150.0), Bayesian(150.0)]
PRESETS = [
    "xq-bidding",
    "single-slow",
    "official-playoff",
    "blitz-pairs",
    "armageddon-bid",
    "armageddon-lot",
    "red-handicap",
]


def check_against_exact(pairing: Pairing, n: int, seed: int) -> None:
    exact = solve(pairing)
    out = simulate(MatchTables.from_pairing(pairing), n, np.random.default_rng(seed))
    p = float(exact.win[0, 0])
    assert float(np.mean(out.winner == 0)) == pytest.approx(p, abs=z_tolerance(p, n))
    for k in range(len(pairing.fmt.playable)):
        q = float(exact.decided[0, k].sum())
        assert float(np.mean(out.stage == k)) == pytest.approx(q, abs=z_tolerance(q, n))
        q_a = float(exact.decided[0, k, 0])
        assert float(np.mean((out.stage == k) & (out.winner == 0))) == pytest.approx(
            q_a, abs=z_tolerance(q_a, n)
        )
    # Games played: categories expected at least 20 times each, the rare tail pooled.
    tail_q, tail_got = 0.0, 0.0
    for g, q_arr in exact.games.items():
        q, got = float(q_arr[0]), float(np.mean(out.games == g))
        if q * n < 20:
            tail_q, tail_got = tail_q + q, tail_got + got
        else:
            assert got == pytest.approx(q, abs=z_tolerance(q, n))
    assert tail_got == pytest.approx(tail_q, abs=z_tolerance(tail_q, n) + 4 / n)
    reached = out.chooser >= 0
    m = int(reached.sum())
    assert m / n == pytest.approx(
        float(exact.bidding_reached[0]), abs=z_tolerance(float(exact.bidding_reached[0]), n)
    )
    if m:
        for got, joint in (
            (np.mean(out.chooser[reached] == out.winner[reached]), exact.chooser_advances),
            (np.mean(out.announce_red[reached]), exact.announce_red),
            (np.mean(out.objects[reached]), exact.objects),
            (np.mean(out.chooser[reached] == 0), exact.chooser_is_a),
        ):
            c = float(exact.conditional(joint)[0])
            assert float(got) == pytest.approx(c, abs=z_tolerance(c, m) + 1e-12)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("strategy", STRATEGIES, ids=lambda s: s.kind)
@pytest.mark.parametrize("model", [ModelParams(), TOUGH], ids=["default", "tough"])
def test_kernel_agrees_with_exact(preset: str, strategy: Strategy, model: ModelParams) -> None:
    pairing = Pairing.of(get_format(preset), A, B, model=model, strategy=strategy)
    check_against_exact(pairing, 200_000, seed=zlib.crc32(f"{preset}/{strategy.kind}".encode()))


def test_kernel_overrides_and_lot_priority() -> None:
    fmt = (
        get_format("xq-bidding")
        .with_stage("slow", games=4, minutes=(90.0, 90.0))
        .with_stage("rapid", games=2)
    )
    sd = fmt.stage("sudden_death")
    assert sd.bidding is not None
    from dataclasses import replace

    fmt = fmt.with_stage(
        "sudden_death", bidding=replace(sd.bidding, priority="lot", object_black=(40.0, 5.0))
    )
    check_against_exact(Pairing.of(fmt, A, B, model=TOUGH, strategy=Believed(80.0)), 200_000, 11)


def test_many_pairs_at_once() -> None:
    rng = np.random.default_rng(0)
    players = [
        Player(f"P{i}", float(r), speed=Speed(0.6 + 0.05 * i, 0.1))
        for i, r in enumerate(rng.uniform(2300, 2700, 6))
    ]
    a_side, b_side = players[:3], players[3:]
    for strategy in (Rational(), Believed(120.0)):
        pairing = Pairing.of(
            get_format("official-playoff" if strategy.kind == "rational" else "xq-bidding"),
            a_side,
            b_side,
            model=TOUGH,
            strategy=strategy,
        )
        tables = MatchTables.from_pairing(pairing)
        n = 300_000
        pair = rng.integers(0, 3, n)
        out = simulate(tables, n, np.random.default_rng(5), pair=pair)
        exact = solve(pairing)
        for i in range(3):
            sel = pair == i
            m = int(sel.sum())
            p = float(exact.win[i, 0])
            assert float(np.mean(out.winner[sel] == 0)) == pytest.approx(p, abs=z_tolerance(p, m))


def test_deterministic_for_a_seed() -> None:
    tables = MatchTables.from_pairing(
        Pairing.of(get_format("xq-bidding"), A, B, strategy=Believed(100.0))
    )
    one = simulate(tables, 10_000, np.random.default_rng(9))
    two = simulate(tables, 10_000, np.random.default_rng(9))
    for field in ("winner", "stage", "games", "chooser", "announce_red", "objects"):
        assert np.array_equal(getattr(one, field), getattr(two, field))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("preset", "strategy", "belief_sd"),
    [
        ("xq-bidding", "rational", 0.0),
        ("single-slow", "believed", 150.0),
        ("official-playoff", "rational", 0.0),
        ("blitz-pairs", "naive", 0.0),
    ],
)
def test_kernel_matches_scalar_reference(preset: str, strategy: str, belief_sd: float) -> None:
    """Two samples, one from the kernel and one from the scalar reference: their proportions
    differ by less than 4 standard errors of the difference."""
    fmt = get_format(preset)
    s: Strategy = {"rational": Rational(), "naive": Naive(), "believed": Believed(belief_sd)}[
        strategy
    ]
    tables = MatchTables.from_pairing(Pairing.of(fmt, A, B, model=TOUGH, strategy=s))
    n_ref, n_fast = 6_000, 200_000
    rng = np.random.default_rng(21)
    ref = [play(fmt, (A, B), TOUGH, strategy, rng, belief_sd) for _ in range(n_ref)]
    fast = simulate(tables, n_fast, np.random.default_rng(22))

    def same(p_ref: float, p_fast: float) -> None:
        p = (p_ref * n_ref + p_fast * n_fast) / (n_ref + n_fast)
        se = (max(p * (1 - p), 1e-12) * (1 / n_ref + 1 / n_fast)) ** 0.5
        assert abs(p_ref - p_fast) < 4 * se + 1e-12

    same(np.mean([o.winner == 0 for o in ref]), float(np.mean(fast.winner == 0)))
    for k, name in enumerate(fmt.stage_names):
        same(np.mean([o.stage == name for o in ref]), float(np.mean(fast.stage == k)))
    for g in range(1, 7):
        same(np.mean([o.games == g for o in ref]), float(np.mean(fast.games == g)))
    sd_ref = [o for o in ref if o.chooser is not None]
    if sd_ref:
        same(
            np.mean([o.chooser == 0 for o in sd_ref]) * len(sd_ref) / n_ref,
            float(np.mean(fast.chooser == 0)),
        )
        same(
            np.mean([o.announce_red for o in sd_ref]) * len(sd_ref) / n_ref,
            float(np.mean(fast.announce_red)),
        )


LONG_STAGE = {
    "name": "a 140-game stage, then one blitz game",
    "format": {
        "preset": "custom",
        "stages": [
            {"name": "long", "games": 140, "time_class": "classical", "minutes": 60},
            {
                "name": "decider",
                "games": 1,
                "time_class": "blitz",
                "minutes": 5,
                "draw_winner": "black",
            },
        ],
    },
    "players": [{"name": "A", "rating": 2500}, {"name": "B", "rating": 2450}],
}


@pytest.mark.slow
def test_a_stage_with_more_exits_than_int8_holds_agrees_with_exact() -> None:
    sc = parse_scenario(LONG_STAGE)
    exact = match_odds(sc)
    est, _ = simulate_match(sc, 200_000, 5)
    assert est is not None
    for name in ("A", "B"):
        assert abs(est.value.win[name] - exact.win[name]) <= 4 * est.stderr.win[name]
    for stage in ("long", "decider"):
        p, se = est.value.decided[stage], est.stderr.decided[stage]
        assert abs(p - exact.decided[stage]) <= 4 * se
    assert max(est.value.games) > 127  # the exit index really went past int8


def test_a_stage_no_layer_could_finish_is_refused() -> None:
    data = {
        **LONG_STAGE,
        "format": {
            "preset": "custom",
            "stages": [
                {"name": "long", "games": 1001, "time_class": "classical", "draw_winner": "black"}
            ],
        },
    }
    with pytest.raises(ScenarioError, match=r"format.long.games: expected at most 1000 games"):
        parse_scenario(data)
