"""Walk-forward forecasts: every game forecast from games of earlier years only.

For each year from ``start`` to the last, the model is refitted to every game of the years
before it (strengths, Red's advantage and ``draw_nu``: :func:`knockout.strengths.fit.marginal`)
and forecasts each game of that year: the model's probabilities averaged over the two players'
strengths' uncertainty (a player's last fitted year carried forward, the drift widening it; a
player never seen before is a newcomer, Normal(0, spread)). The drift and spread are fitted once,
to the games before ``start``, so nothing from the years forecast touches them. The games are
those :func:`knockout.strengths.calibrate.select_games` keeps (master games with a result and
a year, no tie-breaks); with ``by="time_class"`` each class has its own constants where the
earlier games hold enough of it (else the classical ones), with ``by=None`` one set for all.

The baselines see the same earlier games:

* ``uniform``: 1/3 each;
* ``colour base rates``: the shares of Red wins, draws and Black wins over all earlier years;
* ``elo``: an Elo rating without a colour term: every player starts at 0 and after each earlier
  game (in table order within a year) moves by ``K (score - E)``, ``K`` = 20 (FIDE's usual
  factor), ``E = 1 / (1 + 10^(-(R_red - R_black) / 400))``. Its forecast is the model's
  Davidson formula on the rating difference alone (no Red advantage) with the draw parameter
  ``nu = 2 delta / (1 - delta)`` under which equal players draw at the earlier years' draw
  share ``delta``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from knockout.arrays import FloatArray, IntArray
from knockout.backtest.matches import MatchModel, model_params
from knockout.errors import InputError
from knockout.rules.model.strength import ModelParams, PerClass, TimeClass, davidson
from knockout.strengths.calibrate import (
    MIN_CLASS_GAMES,
    By,
    class_of,
    constant_groups,
    select_games,
    strength_games,
)
from knockout.strengths.fit import Hyper, StrengthFit, fit_map, fit_strengths, marginal
from knockout.strengths.table import GameRow, GameTable

__all__ = [
    "BASELINES",
    "ELO_K",
    "Forecasts",
    "YearFit",
    "default_start",
    "elo_draw_nu",
    "elo_forecasts",
    "elo_ratings",
    "fallback_notes",
    "walk_forward",
]

Progress = Callable[[int, int], None]

#: The Elo baseline's K factor.
ELO_K = 20.0
#: The baselines, in report order.
BASELINES = ("uniform", "colour base rates", "elo")


@dataclass(frozen=True)
class YearFit:
    """One refit: the year it forecast and what it was fitted on.

    Attributes:
        year: The year forecast.
        games: Games fitted (all of earlier years).
        red_advantage: Group name to Red's advantage (Elo).
        draw_nu: Group name to ``draw_nu``.
    """

    year: int
    games: int
    red_advantage: dict[str, float]
    draw_nu: dict[str, float]


@dataclass(frozen=True)
class Forecasts:
    """The forecasts of a walk-forward backtest.

    Attributes:
        source: The games file.
        start: The first year forecast.
        by: How the constants were grouped.
        games: The games forecast, in table order within each year, years ascending.
        outcome: 0 Red won, 1 draw, 2 Black won.
        model: The model's forecasts, shape ``(games, 3)``.
        baselines: Each baseline's forecasts, same shape.
        hyper: The drift and spread (fitted before ``start``).
        years: One entry per refit.
        left_out: Games of the table left out, by reason.
        match_models: Per year forecast, what the model knew (for the match forecasts).
        elo_models: The same for the Elo baseline.
        experience: Per game forecast, the fewer of its two players' games in earlier years.
    """

    source: str
    start: int
    by: By
    games: tuple[GameRow, ...]
    outcome: IntArray
    model: FloatArray
    baselines: dict[str, FloatArray]
    hyper: Hyper
    years: tuple[YearFit, ...]
    left_out: dict[str, int]
    match_models: dict[int, MatchModel]
    elo_models: dict[int, MatchModel]
    experience: IntArray


def _base_rates(earlier: Sequence[GameRow]) -> FloatArray:
    counts = np.bincount([g.result.code for g in earlier], minlength=3).astype(np.float64)
    shares: FloatArray = counts / counts.sum()
    return shares


def elo_ratings(earlier: Sequence[GameRow]) -> dict[str, float]:
    """The Elo baseline's ratings after the games ``earlier``, in their order (from 0,
    ``K`` = :data:`ELO_K`, no colour term)."""
    rating: dict[str, float] = {}
    for g in earlier:
        r, b = rating.get(g.red, 0.0), rating.get(g.black, 0.0)
        e = 1.0 / (1.0 + 10.0 ** (-(r - b) / 400.0))
        score = (1.0, 0.5, 0.0)[g.result.code]
        rating[g.red] = r + ELO_K * (score - e)
        rating[g.black] = b - ELO_K * (score - e)
    return rating


def elo_draw_nu(draw_share: float) -> float:
    """The draw parameter under which equal players draw at ``draw_share``: ``nu / (2 + nu)``
    is the draw chance at ``d = 0``."""
    return 2.0 * draw_share / (1.0 - draw_share)


def elo_forecasts(
    earlier: Sequence[GameRow], forecast: Sequence[GameRow], draw_share: float
) -> FloatArray:
    """The Elo baseline's forecasts of ``forecast`` after the games ``earlier`` (see the module
    docstring), shape ``(len(forecast), 3)``."""
    rating = elo_ratings(earlier)
    diff = np.array([rating.get(g.red, 0.0) - rating.get(g.black, 0.0) for g in forecast])
    p = davidson(diff, elo_draw_nu(draw_share))
    return np.column_stack([p.red, p.draw, p.black])


def _baselines(earlier: Sequence[GameRow], now: Sequence[GameRow]) -> dict[str, FloatArray]:
    """Each baseline's forecasts of the games ``now`` from the games ``earlier``."""
    rates = _base_rates(earlier)
    return {
        "uniform": np.full((len(now), 3), 1.0 / 3.0),
        "colour base rates": np.tile(rates, (len(now), 1)),
        "elo": elo_forecasts(earlier, now, float(rates[1])),
    }


def _model_knowledge(fit: StrengthFit, players: Sequence[str], year: int) -> MatchModel:
    """What the fit knows in ``year``: its constants and every player's strength."""
    groups = fit.groups
    mean, var = fit.player_state(year)
    return MatchModel(
        model_params(
            dict(zip(groups, map(float, fit.red_advantage), strict=True)),
            dict(zip(groups, map(float, np.exp(fit.log_nu)), strict=True)),
        ),
        {name: (float(mean[i]), float(var[i])) for i, name in enumerate(players)},
        (0.0, fit.hyper.spread**2),
    )


def _elo_knowledge(earlier: Sequence[GameRow]) -> MatchModel:
    """What the Elo baseline knows after the games ``earlier``: no Red advantage, draws at
    their share, its ratings taken as exact."""
    nu = elo_draw_nu(float(_base_rates(earlier)[1]))
    return MatchModel(
        ModelParams(red_advantage=PerClass(0.0, 0.0, 0.0), draw_nu=PerClass(nu, nu, nu)),
        {name: (r, 0.0) for name, r in elo_ratings(earlier).items()},
        (0.0, 0.0),
    )


def _check(table: GameTable, games: Sequence[GameRow], start: int) -> None:
    """Refuse a start no fit or no forecast can use."""
    if not games:
        raise InputError.single(
            table.source, "", "expected master games with a result and a year, got none"
        )
    first, last = (
        min(g.year for g in games if g.year is not None),
        max(g.year for g in games if g.year is not None),
    )
    if start > last:
        raise InputError.single(
            table.source,
            "--from",
            f"expected a year up to {last}, the last year with games, got {start}",
        )
    before = [g for g in games if g.year is not None and g.year < start]
    if len(before) < MIN_CLASS_GAMES:
        raise InputError.single(
            table.source,
            "--from",
            f"expected at least {MIN_CLASS_GAMES} games before {start} to fit the model on, "
            f"got {len(before)} (the games start in {first}): choose a later year",
        )


def walk_forward(
    table: GameTable,
    *,
    start: int,
    by: By = "time_class",
    hyper: Hyper | None = None,
    progress: Progress | None = None,
) -> Forecasts:
    """The walk-forward forecasts of ``table``'s games from year ``start`` (see the module
    docstring).

    Args:
        table: The games.
        start: The first year forecast.
        by: ``"time_class"`` (constants per class) or None (one set).
        hyper: The strengths' drift and spread; None: fitted to the games before ``start``.
        progress: Called with (refits done, refits planned).

    Raises:
        InputError: If ``start`` is after the last year with games, or too few games come
            before it.
    """
    selection = select_games(table)
    games = sorted(selection.games, key=lambda g: g.year or 0)  # stable: table order kept
    _check(table, games, start)
    years = sorted({g.year for g in games if g.year is not None and g.year >= start})
    planned = len(years) + (1 if hyper is None else 0)
    done = 0
    if hyper is None:
        before = [g for g in games if g.year is not None and g.year < start]
        groups, group_of, _ = constant_groups(before, by)
        hyper = fit_strengths(strength_games(before, groups, group_of)).hyper
        done += 1
        if progress is not None:
            progress(done, planned)
    forecast_games: list[GameRow] = []
    model_rows: list[FloatArray] = []
    base: dict[str, list[FloatArray]] = {name: [] for name in BASELINES}
    fits: list[YearFit] = []
    experience: list[int] = []
    match_models: dict[int, MatchModel] = {}
    elo_models: dict[int, MatchModel] = {}
    previous: StrengthFit | None = None
    for year in years:
        earlier = [g for g in games if g.year is not None and g.year < year]
        now = [g for g in games if g.year == year]
        groups, group_of, _ = constant_groups(earlier, by)
        data = strength_games(earlier, groups, group_of)
        fit = marginal(fit_map(data, hyper, start=previous))
        previous = fit
        index = {name: i for i, name in enumerate(data.players)}
        unseen = len(data.players)
        red = np.array([index.get(g.red, unseen) for g in now], dtype=np.intp)
        black = np.array([index.get(g.black, unseen) for g in now], dtype=np.intp)
        group = np.array([groups.index(group_of(g)) for g in now], dtype=np.intp)
        p = fit.forecast(red, black, year, group)
        model_rows.append(np.column_stack([p.red, p.draw, p.black]))
        for name, forecast in _baselines(earlier, now).items():
            base[name].append(forecast)
        match_models[year] = _model_knowledge(fit, data.players, year)
        elo_models[year] = _elo_knowledge(earlier)
        played = Counter(g.red for g in earlier)
        played.update(g.black for g in earlier)
        experience += [min(played[g.red], played[g.black]) for g in now]
        forecast_games += now
        fits.append(
            YearFit(
                year,
                len(earlier),
                dict(zip(groups, map(float, fit.red_advantage), strict=True)),
                dict(zip(groups, map(float, np.exp(fit.log_nu)), strict=True)),
            )
        )
        done += 1
        if progress is not None:
            progress(done, planned)
    return Forecasts(
        table.source,
        start,
        by,
        tuple(forecast_games),
        np.array([g.result.code for g in forecast_games], dtype=np.intp),
        np.vstack(model_rows),
        {name: np.vstack(rows) for name, rows in base.items()},
        hyper,
        tuple(fits),
        selection.left_out,
        match_models,
        elo_models,
        np.array(experience, dtype=np.intp),
    )


def default_start(table: GameTable) -> int:
    """The first year with at least a quarter of the usable games before it (``--from``'s
    default).

    Raises:
        InputError: If the table has no usable game.
    """
    years = sorted(g.year for g in select_games(table).games if g.year is not None)
    if not years:
        raise InputError.single(
            table.source, "", "expected master games with a result and a year, got none"
        )
    quarter = years[(len(years) + 3) // 4 - 1] if len(years) >= 4 else years[-1]
    later = [y for y in years if y > quarter]
    return later[0] if later else quarter


def fallback_notes(f: Forecasts) -> list[str]:
    """One sentence per time class whose forecast games were, in some years, forecast with
    another class's constants (too few of its games before them)."""
    if f.by is None:
        return []
    out = []
    counts = Counter(class_of(g.time_class) for g in f.games)
    for tc in (TimeClass.RAPID, TimeClass.BLITZ):
        if not counts[tc]:
            continue
        own = [y.year for y in f.years if tc.value in y.red_advantage]
        if len(own) == len(f.years):
            continue
        if not own:
            out.append(
                f"{tc.value}: fewer than {MIN_CLASS_GAMES} games before every year forecast: its "
                f"{counts[tc]} games were forecast with the classical constants"
            )
        else:
            out.append(
                f"{tc.value}: constants of its own from {own[0]} on ({MIN_CLASS_GAMES} games "
                "before it); earlier years forecast with the classical constants"
            )
    return out
