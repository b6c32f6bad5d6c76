"""Knockout matches in a games table: found, decided, and forecast by the exact solver."""

from __future__ import annotations

import math

import numpy as np
import pytest

from knockout.backtest.matches import (
    MatchModel,
    _format,
    find_matches,
    match_forecasts,
    model_params,
)
from knockout.exact.solver import solve
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.strategies import get_strategy
from knockout.rules.model.players import Player
from knockout.strengths.table import GameRow, Outcome, TableClass, event_of

R, D, B = Outcome.RED, Outcome.DRAW, Outcome.BLACK


def _g(n: int, event: str, red: str, black: str, result: Outcome, tc: TableClass) -> GameRow:
    return GameRow(str(n), event, "", 1999, red, black, result, tc, "master", ())


GAMES = [
    # A knockout: two slow draws, then a tie-break game: 呂欽 through.
    _g(1, "1999年銀荔杯 第五輪 許銀川先和呂欽", "許銀川", "呂欽", D, TableClass.UNKNOWN),
    _g(2, "1999年銀荔杯 第五輪 呂欽先和許銀川", "呂欽", "許銀川", D, TableClass.UNKNOWN),
    _g(3, "1999年銀荔杯 第五輪 呂欽先勝許銀川(加賽)", "呂欽", "許銀川", R, TableClass.TIEBREAK),
    # A double round robin's two games: not a match.
    _g(4, "1999年甲級聯賽第一輪 胡榮華 先勝 柳大華", "胡榮華", "柳大華", R, TableClass.UNKNOWN),
    _g(5, "1999年甲級聯賽第九輪 柳大華 先勝 胡榮華", "柳大華", "胡榮華", R, TableClass.UNKNOWN),
    # A final level on points: left out.
    _g(6, "1999年棋王賽 決賽 趙國榮先勝徐天紅", "趙國榮", "徐天紅", R, TableClass.UNKNOWN),
    _g(7, "1999年棋王賽 決賽 徐天紅先勝趙國榮", "徐天紅", "趙國榮", R, TableClass.UNKNOWN),
]


def test_events_matches_and_who_went_through() -> None:
    assert event_of(GAMES[0]) == (1999, "1999年銀荔杯")
    assert event_of(GAMES[3]) == (1999, "1999年甲級聯賽")
    matches, left = find_matches(GAMES, 1999)
    assert [(m.event, m.players, m.winner, len(m.games)) for m in matches] == [
        ("1999年銀荔杯", ("呂欽", "許銀川"), 0, 3)
    ]
    assert matches[0].slow_games == 2
    assert left == {"level on points (decided by a game not in the table, or by draw odds)": 1}
    assert find_matches(GAMES, 2000) == ([], {})


def test_the_forecast_is_the_solvers_averaged_over_the_strengths() -> None:
    matches, _ = find_matches(GAMES, 1999)
    model = model_params({"classical": 80.0, "rapid": 60.0}, {"classical": 1.4, "rapid": 1.0})
    sharp = MatchModel(model, {"呂欽": (50.0, 0.0), "許銀川": (10.0, 0.0)}, (0.0, 200.0**2))
    p = match_forecasts(matches, {1999: sharp})
    direct = solve(
        Pairing.of(
            _format(2), Player("A", 40.0), Player("B", 0.0), model=model,
            strategy=get_strategy("rational"),
        )
    ).win[0, 0]  # fmt: skip
    assert p[0] == pytest.approx(direct, rel=1e-10) and p[0] > 0.5
    # Uncertain strengths pull the forecast towards a coin; equal ones give a coin.
    vague = MatchModel(model, {"呂欽": (50.0, 150.0**2), "許銀川": (10.0, 150.0**2)}, (0.0, 1.0))
    q = match_forecasts(matches, {1999: vague})
    assert 0.5 < q[0] < p[0]
    level = MatchModel(model, {"呂欽": (0.0, 0.0), "許銀川": (0.0, 0.0)}, (0.0, 0.0))
    assert math.isclose(float(match_forecasts(matches, {1999: level})[0]), 0.5, abs_tol=1e-12)
    assert np.all(np.isfinite(p))
