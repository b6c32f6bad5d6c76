"""The SimPy engine: a scripted trace, consistency of clocks and results, agreement with exact."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import numpy as np
import pytest
from conftest import z_tolerance

from knockout.engine.match import play_match
from knockout.exact.solver import solve
from knockout.game import Colour, Reply, Result
from knockout.rules.book.presets import get_format
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.strategies import Bayesian, Believed, Naive, Rational, Strategy
from knockout.rules.model.players import Player, Speed
from knockout.rules.model.strength import ModelParams, PerClass

ALL_DRAWS = ModelParams(
    PerClass(64.3, 64.3, 64.3), PerClass(1e12, 1e12, 1e12), PerClass(0, 120, 120)
)


def test_scripted_trace_all_draws() -> None:
    """Every game drawn, fixed speeds: the whole timeline is known in advance.

    A uses 70% of each effective clock, B 80%: a slow game (60 min + 10 s a move, effective
    70 min) ends after 0.7*4200 + 0.8*4200 s, and so on. A used less time in the rapid game, so
    A is 甲. Almost every game is drawn and a draw sends Black through, so 乙 answers either
    announcement by making 甲 Red; 甲's only hope is a win as Red, likelier with 35 v 5 minutes
    (effective 45 v 15, a ratio of 3) than with 30 v 10 (40 v 20, a ratio of 2), so 甲 announces
    Black and 乙 objects: A Red on 35 minutes, B Black on 5.
    """
    a = Player("A", 2500, speed=Speed(0.7, 0.0))
    b = Player("B", 2500, speed=Speed(0.8, 0.0))
    record, log = play_match(
        get_format("xq-bidding"), a, b, strategy=Rational(), model=ALL_DRAWS, seed=11
    )
    trace = [(round(e.time, 6), e.kind) for e in log if e.kind != "bid"]
    t1 = 1.5 * 70 * 60
    t2 = 2 * t1
    t3 = t2 + 1.5 * 25 * 60
    t4 = t3 + 0.7 * 45 * 60 + 0.8 * 15 * 60
    assert trace == [
        (0.0, "match_start"),
        (0.0, "game_start"),
        (t1, "game_end"),
        (t1, "game_start"),
        (t2, "game_end"),
        (t2, "game_start"),
        (t3, "game_end"),
        (t3, "game_start"),
        (t4, "game_end"),
        (t4, "match_end"),
    ]
    sd = record.games[-1]
    assert (sd.stage, sd.chooser, sd.announce, sd.reply) == (
        "sudden_death",
        "A",
        Colour.BLACK,
        Reply.OBJECT,
    )
    assert (sd.red, sd.black, sd.clock, sd.result) == ("A", "B", (35.0, 5.0), Result.DRAW)
    assert record.winner == "B" and record.decided_in == "sudden_death"
    assert sd.points == {"A": Decimal(1), "B": Decimal("1.5")}
    assert record.points() == {"A": Decimal(4), "B": Decimal("4.5")}
    assert [g.red for g in record.games[:2]] in (["A", "B"], ["B", "A"])
    bid = next(e for e in log if e.kind == "bid")
    assert "甲 = A announces black" in bid.text and round(bid.time, 6) == t3


def test_same_seed_same_match() -> None:
    fmt = get_format("xq-bidding")
    a, b = Player("甲方", 2550), Player("乙方", 2500)
    one = play_match(fmt, a, b, strategy=Believed(100.0), seed=42)
    two = play_match(fmt, a, b, strategy=Believed(100.0), seed=42)
    assert one == two
    other = [play_match(fmt, a, b, strategy=Believed(100.0), seed=s)[0] for s in range(5)]
    assert len({repr(r.games) for r in other}) > 1


def test_clocks_are_consistent_with_results() -> None:
    fmt = get_format("xq-bidding")
    # Slow players with a wide spread on short clocks: flag falls happen, but only to losers.
    a = Player("A", 2500, speed=Speed(1.3, 0.4))
    b = Player("B", 2450, speed=Speed(1.2, 0.4))
    fmt = fmt.with_stage("slow", minutes=(5.0, 5.0), increment_seconds=2.0)
    flags = 0
    for seed in range(200):
        record, _ = play_match(fmt, a, b, strategy=Rational(), seed=seed)
        for g in record.games:
            assert g.end - g.start == pytest.approx(sum(g.time_used.values()), abs=1e-6)
            if g.flag_fall is not None:
                flags += 1
                loser = g.black if g.result is Result.RED else g.red
                assert g.result is not Result.DRAW and g.flag_fall == loser
            for name, colour_min in ((g.red, g.clock[0]), (g.black, g.clock[1])):
                capacity = colour_min * 60 + g.increment_seconds * (g.moves + 1)
                assert 0 <= g.time_used[name] <= capacity + 1e-6
    assert flags > 0


def test_chooser_used_less_time_in_previous_game() -> None:
    fmt = get_format("xq-bidding")
    a, b = Player("A", 2500), Player("B", 2500)
    seen = 0
    for seed in range(300):
        record, _ = play_match(fmt, a, b, strategy=Rational(), seed=seed)
        if record.decided_in == "sudden_death":
            seen += 1
            prev, sd = record.games[-2], record.games[-1]
            other = "B" if sd.chooser == "A" else "A"
            assert prev.time_used[sd.chooser] < prev.time_used[other]
    assert seen > 10


AGREEMENT_MODEL = ModelParams(PerClass(-30, -30, -30), PerClass(1.0, 1.2, 0.8), PerClass(0, 0, 120))
CASES: list[tuple[str, Strategy, ModelParams]] = [
    ("xq-bidding", Rational(), ModelParams()),
    ("xq-bidding", Naive(), AGREEMENT_MODEL),
    ("xq-bidding", Believed(150.0), AGREEMENT_MODEL),
    ("single-slow", Believed(150.0), AGREEMENT_MODEL),
    ("single-slow", Rational(), AGREEMENT_MODEL),
    ("official-playoff", Rational(), ModelParams()),
    ("blitz-pairs", Rational(), ModelParams()),
    ("armageddon-bid", Believed(150.0), AGREEMENT_MODEL),
    ("xq-bidding", Bayesian(150.0), AGREEMENT_MODEL),
    ("armageddon-bid", Bayesian(150.0), AGREEMENT_MODEL),
    ("official-playoff", Bayesian(150.0), AGREEMENT_MODEL),
]


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "strategy", "model"), CASES)
def test_engine_agrees_with_exact_solver(
    preset: str, strategy: Strategy, model: ModelParams
) -> None:
    """Many engine plays against the exact odds, within 4 standard errors per quantity."""
    fmt = get_format(preset)
    a = Player("A", 2540, speed=Speed(0.7, 0.1))
    b = Player("B", 2500, speed=Speed(0.75, 0.1))
    exact = solve(Pairing.of(fmt, a, b, model=model, strategy=strategy))
    n = 1500
    rng = np.random.default_rng(2024)
    wins = 0
    stages: Counter[str] = Counter()
    games: Counter[int] = Counter()
    sd_reached = chooser_won = 0
    for _ in range(n):
        record, _ = play_match(fmt, a, b, strategy=strategy, model=model, rng=rng)
        wins += record.winner == "A"
        stages[record.decided_in] += 1
        games[len(record.games)] += 1
        last = record.games[-1]
        if last.announce is not None:  # the sudden-death bid (a colour choice has none)
            sd_reached += 1
            chooser_won += last.chooser == record.winner
    p = float(exact.win[0, 0])
    assert wins / n == pytest.approx(p, abs=z_tolerance(p, n))
    for k, name in enumerate(fmt.stage_names):
        q = float(exact.decided[0, k].sum())
        assert stages[name] / n == pytest.approx(q, abs=z_tolerance(q, n)), name
    for k, q_arr in exact.games.items():
        q = float(q_arr[0])
        # one count of continuity allowance: game counts rarer than 1/n are discrete, and the
        # normal approximation behind z_tolerance understates their spread
        assert games[k] / n == pytest.approx(q, abs=z_tolerance(q, n) + 1 / n), k
    if sd_reached:
        c = float(exact.conditional(exact.chooser_advances)[0])
        assert chooser_won / sd_reached == pytest.approx(c, abs=z_tolerance(c, sd_reached))
