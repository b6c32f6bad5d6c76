"""Walk-forward forecasts: no later game touches a forecast; the baselines as specified."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from knockout.backtest.walk import default_start, elo_forecasts, fallback_notes, walk_forward
from knockout.errors import InputError
from knockout.rules.model.strength import davidson
from knockout.strengths.simulate import simulate_field
from knockout.strengths.table import GameRow, GameTable, Outcome, TableClass, parse_table


def _table(seed: int = 2) -> GameTable:
    sim = simulate_field(np.random.default_rng(seed), players=40, events_per_year=5)
    return parse_table(sim.csv, source="sim.csv")


def _game(year: int, red: str, black: str, result: Outcome, n: int) -> GameRow:
    return GameRow(
        f"x{n}", "planted", f"{year}", year, red, black, result, TableClass.UNKNOWN,
        "master", ("以賽事分類",),
    )  # fmt: skip


@pytest.fixture(scope="module")
def table() -> GameTable:
    return _table()


@pytest.fixture(scope="module")
def base(table: GameTable) -> object:
    return walk_forward(table, start=2005)


def test_every_game_from_the_start_is_forecast_and_sums_to_one(table: GameTable, base) -> None:  # type: ignore[no-untyped-def]
    years = [g.year for g in table.games if g.year is not None and g.year >= 2005]
    assert len(base.games) == len(years) and base.start == 2005
    assert [y.year for y in base.years] == sorted(set(years))
    assert np.allclose(base.model.sum(axis=1), 1.0)
    for p in base.baselines.values():
        assert np.allclose(p.sum(axis=1), 1.0)
    assert np.all(base.model > 0)


def test_a_planted_future_game_changes_no_forecast_before_it(table: GameTable, base) -> None:  # type: ignore[no-untyped-def]
    """30 games in 2007 in which a player of 2006 and 2008 beats everyone: no forecast of
    2005-2007 moves by a bit (the other games of 2007 included), some of 2008 on do; planted
    in 2004 instead, the same games move the forecasts of 2005 (so the test can fail)."""
    late = {p for g in table.games if g.year == 2008 for p in (g.red, g.black)}
    star = next(g.red for g in table.games if g.year == 2006 and g.red in late)
    others = sorted({g.black for g in table.games if g.year == 2006} - {star})

    def planted(year: int) -> GameTable:
        extra = [_game(year, star, others[i % len(others)], Outcome.RED, i) for i in range(30)]
        return replace(table, games=table.games + tuple(extra))

    later = walk_forward(planted(2007), start=2005)
    before = np.array([g.year <= 2007 for g in base.games])
    n = int(before.sum())
    assert [g.id for g in later.games[:n]] == [g.id for g in base.games[:n]]
    assert np.array_equal(later.model[:n], base.model[:n])
    for name, p in base.baselines.items():
        assert np.array_equal(later.baselines[name][:n], p[:n])
    after = np.array([g.year >= 2008 for g in base.games])
    star_games = np.array([star in (g.red, g.black) for g in base.games]) & after
    assert star_games.any()
    moved = later.model[np.flatnonzero(after)] - base.model[np.flatnonzero(after)]
    assert np.max(np.abs(moved)) > 0.05
    earlier = walk_forward(planted(2004), start=2005)
    first = np.array([g.year == 2005 for g in earlier.games])
    assert not np.array_equal(earlier.model[first], base.model[: int(first.sum())])


def test_the_baselines_as_specified(table: GameTable, base) -> None:  # type: ignore[no-untyped-def]
    assert np.all(base.baselines["uniform"] == 1 / 3)
    for year in (2005, 2009):
        earlier = [g for g in table.games if g.year is not None and g.year < year]
        shares = np.bincount([g.result.code for g in earlier], minlength=3) / len(earlier)
        rows = np.array([g.year == year for g in base.games])
        assert np.allclose(base.baselines["colour base rates"][rows], shares, rtol=1e-14)


def test_the_elo_baseline_by_hand() -> None:
    games = [
        _game(2000, "A", "B", Outcome.RED, 1),
        _game(2000, "A", "C", Outcome.DRAW, 2),
        _game(2000, "B", "C", Outcome.BLACK, 3),
    ]
    # A beats B from level: A +10, B -10. A (10) draws C (0): E = 1 / (1 + 10^(-10/400)).
    e2 = 1 / (1 + 10 ** (-10 / 400))
    a, c = 10 + 20 * (0.5 - e2), 20 * (e2 - 0.5)
    e3 = 1 / (1 + 10 ** ((c + 10) / 400))  # B (-10) v C: B's expectation
    b, c = -10 - 20 * e3, c + 20 * e3
    forecast = [_game(2001, "A", "B", Outcome.RED, 4), _game(2001, "D", "C", Outcome.RED, 5)]
    delta = 1 / 3
    p = elo_forecasts(games, forecast, delta)
    nu = 2 * delta / (1 - delta)  # equal players draw at the earlier share
    assert float(davidson(0.0, nu).draw) == pytest.approx(delta)
    for row, diff in zip(p, (a - b, 0.0 - c), strict=True):
        q = davidson(diff, nu)
        assert row.tolist() == pytest.approx([float(q.red), float(q.draw), float(q.black)])


def test_bad_starts_are_one_line_each(table: GameTable) -> None:
    with pytest.raises(InputError) as info:
        walk_forward(table, start=2030)
    assert info.value.lines() == [
        "sim.csv: --from: expected a year up to 2009, the last year with games, got 2030"
    ]
    with pytest.raises(InputError, match="expected at least 100 games before 2000 to fit"):
        walk_forward(table, start=2000)
    assert 2001 <= default_start(table) <= 2004
    assert math.isfinite(default_start(table))


def test_a_class_with_too_few_games_is_forecast_with_the_classical_constants(
    table: GameTable,
) -> None:
    games = list(table.games)
    late = [i for i, g in enumerate(games) if g.year == 2008][:12]
    for i in late:
        games[i] = replace(games[i], time_class=TableClass.BLITZ)
    f = walk_forward(replace(table, games=tuple(games)), start=2008)
    assert all("blitz" not in y.red_advantage for y in f.years)
    assert fallback_notes(f) == [
        "blitz: fewer than 100 games before every year forecast: its 12 games were forecast "
        "with the classical constants"
    ]
    assert fallback_notes(walk_forward(table, start=2008, by=None)) == []
