"""Calibration: the model's constants fitted to recorded games by maximum likelihood.

``knockout calibrate GAMES.csv`` fits, per time class, ``red_advantage``, ``draw_nu`` and (where
the clocks differ) ``elo_per_doubling`` of :mod:`knockout.rules.model.strength` to the games in a
CSV file, with standard errors from the observed information. ``docs/calibration.md`` states the
method; in short:

* **Likelihood.** A game with ratings ``R_red``, ``R_black``, effective clocks ``T_red``,
  ``T_black`` and result ``y`` has probability ``P(y)`` of the model (Davidson with a first-move
  advantage and time odds). With ``u = ln(10) / 800 * d`` (``d`` as in the model) the three
  probabilities are ``exp(u) / Z``, ``nu / Z`` (draw) and ``exp(-u) / Z`` with
  ``Z = exp(u) + exp(-u) + nu``, so the log-likelihood of a class is::

      l = sum (red - black) * u  +  draws * log(nu)  -  sum n * log(exp(u) + exp(-u) + nu)

  It is concave in ``(red_advantage, log(nu), elo_per_doubling)`` (a log-sum-exp of linear
  functions, subtracted), so the maximum is unique when it exists.
* **Optimizer.** ``scipy.optimize.minimize`` (``trust-exact``: Newton steps in a trust region,
  with the analytic gradient and Hessian) on ``alpha = u``-scale red advantage, ``log(nu)`` and
  the ``u``-scale elo per doubling.
* **Standard errors.** The inverse of the observed information (the Hessian of the negative
  log-likelihood at the optimum) over the parameters estimated, carried to Elo and ``nu``
  (exact at an interior optimum, where the gradient is zero).
* **Identifiability and boundaries.** Time odds need games on at least two clock ratios; a
  class without Red wins or without Black wins has no finite maximum; a class without draws has
  its maximum at ``nu = 0`` and a negative unconstrained ``elo_per_doubling`` is held at ``0``
  (the model's range): a parameter on the boundary is reported as its boundary value with no
  standard error and a one-sided 95 % upper bound from the profile likelihood. Whatever the data
  cannot say is ``None`` with the reason, never a default.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import brentq, minimize
from scipy.special import logsumexp, ndtri
from scipy.stats import chi2

from knockout.arrays import FloatArray
from knockout.errors import InputError, Problem
from knockout.game import Result
from knockout.io.csvrows import Row, parse_rows
from knockout.io.text import read_text
from knockout.rules.model.strength import (
    DEFAULT_MOVES,
    TimeClass,
    classify,
    davidson,
    effective_minutes,
)

__all__ = [
    "COLUMNS",
    "OPTIONAL",
    "PARAMETERS",
    "Calibration",
    "ClassFit",
    "ClassGames",
    "Estimate",
    "GameTable",
    "Interval",
    "ObservedScore",
    "ScoreScale",
    "ScoringDerivation",
    "calibrate",
    "fit_class",
    "parse_games",
    "read_games",
    "score_elo",
    "score_scale",
    "scoring_derivation",
    "toml_lines",
]

COLUMNS = (
    "red_rating",
    "black_rating",
    "time_class",
    "red_minutes",
    "black_minutes",
    "increment_seconds",
    "result",
)
"""The required header columns."""
OPTIONAL = ("count",)
"""The optional column: how many games the row stands for (aggregated rows)."""
PARAMETERS = ("red_advantage", "draw_nu", "elo_per_doubling")
"""The fitted constants, in the order they are reported."""

#: ``u = _K * d``: half the natural logarithm of ``g = 10 ** (d / 400)``.
_K = math.log(10.0) / 800.0
#: The drop in log-likelihood from the maximum that ends a one-sided 95 % upper bound:
#: for ``elo_per_doubling`` held at 0, the likelihood-ratio bound (at a boundary the statistic is
#: a 50:50 mixture of 0 and chi-square(1), whose 95 % point is chi-square(1)'s 90 % point);
#: for ``draw_nu`` = 0 (no draws at all), ln 20: ``l(nu) - l(0)`` is exactly the log-probability
#: of seeing no draws under ``nu``, so the bound is the ``nu`` under which a record without draws
#: has probability 5 % (the rule of three; the asymptotic bound is too short for a zero count).
_E_BOUND_DROP = float(chi2.ppf(0.90, 1)) / 2.0
_NU_BOUND_DROP = math.log(20.0)
#: Beyond these the "maximum" is a walk towards infinity, not an estimate.
_MAX_ELO, _MAX_NU = 5000.0, 1.0e6
#: Indices of the internal parameter vector: u-scale red advantage, log(nu), u-scale time odds.
_A, _NU, _E = 0, 1, 2


@dataclass(frozen=True)
class ClassGames:
    """The games of one time class, aggregated by (rating difference, clock ratio).

    Attributes:
        time_class: The class.
        diff: ``R_red - R_black`` of each cell (Elo).
        log_ratio: ``log2(T_red / T_black)`` of each cell (effective clocks).
        red: Red wins in each cell.
        draw: Draws in each cell.
        black: Black wins in each cell.
    """

    time_class: TimeClass
    diff: FloatArray
    log_ratio: FloatArray
    red: FloatArray
    draw: FloatArray
    black: FloatArray

    @property
    def totals(self) -> tuple[int, int, int]:
        """Red wins, draws and Black wins in the class."""
        return (int(self.red.sum()), int(self.draw.sum()), int(self.black.sum()))

    def clock_ratios(self) -> list[float]:
        """The distinct ``log2(T_red / T_black)`` of the games (to 1e-9), ascending."""
        played = (self.red + self.draw + self.black) > 0
        return sorted({round(float(x), 9) + 0.0 for x in self.log_ratio[played]})


@dataclass(frozen=True)
class GameTable:
    """A games file read and grouped by time class.

    Attributes:
        source: The file's name, for messages and outputs.
        moves: Moves per side used for effective clocks and derived time classes.
        classes: One entry per time class that has games, in the order classical, rapid, blitz.
    """

    source: str
    moves: float
    classes: tuple[ClassGames, ...]


@dataclass(frozen=True)
class Estimate:
    """One fitted constant.

    Attributes:
        estimate: The maximum-likelihood estimate; None if the data do not identify it.
        stderr: Its standard error from the observed information; None on a boundary or when
            not identified.
        reason: Why ``estimate`` or ``stderr`` is missing or on a boundary (None otherwise).
        upper_95: For an estimate on the lower boundary of its range: the one-sided 95 % upper
            confidence bound from the profile likelihood.
    """

    estimate: float | None
    stderr: float | None
    reason: str | None = None
    upper_95: float | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"estimate", "stderr"}``, plus ``reason`` and ``upper_95`` when they apply."""
        out: dict[str, Any] = {"estimate": self.estimate, "stderr": self.stderr}
        if self.reason is not None:
            out["reason"] = self.reason
        if self.upper_95 is not None:
            out["upper_95"] = self.upper_95
        return out


def _missing(reason: str) -> Estimate:
    return Estimate(None, None, reason)


@dataclass(frozen=True)
class ClassFit:
    """The fit of one time class.

    Attributes:
        time_class: The class.
        games: Red wins, draws and Black wins.
        red_advantage: Elo.
        draw_nu: Davidson's draw parameter.
        elo_per_doubling: Elo per doubling of Red's effective clock relative to Black's.
        log_likelihood: The maximised log-likelihood (None if there is no maximum).
        correlation: ``(constant, constant, rho)`` for each pair of constants with standard
            errors: the correlation of their estimates (from the inverse observed information
            in the fitted coordinates, ``red_advantage``, ``log draw_nu`` and
            ``elo_per_doubling``, the coordinates ``[model.sd]`` draws in).
        score_scale: ``elo_per_doubling`` on the score scale, and the score-based Elo the
            games themselves give each clock ratio (:func:`score_scale`); None without time
            odds.
    """

    time_class: TimeClass
    games: tuple[int, int, int]
    red_advantage: Estimate
    draw_nu: Estimate
    elo_per_doubling: Estimate
    log_likelihood: float | None
    correlation: tuple[tuple[str, str, float], ...] = ()
    score_scale: ScoreScale | None = None

    def estimates(self) -> dict[str, Estimate]:
        """Parameter name to its estimate, in :data:`PARAMETERS` order."""
        return {name: getattr(self, name) for name in PARAMETERS}


@dataclass(frozen=True)
class Calibration:
    """The fit of every time class in a games file.

    Attributes:
        source: The games file.
        moves: Moves per side used for the effective clocks.
        classes: One fit per time class with games.
    """

    source: str
    moves: float
    classes: tuple[ClassFit, ...]
    scoring: ScoringDerivation | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"source", TIME_CLASS: {PARAMETER: {"estimate", "stderr"}}}``, and ``scoring``
        (:class:`ScoringDerivation`) where the file has classical games on equal clocks;
        ``elo_per_doubling`` also has ``score_scale`` (:class:`ScoreScale`) where it is fitted:
        exactly the public contract, so a reader may take every key but ``source``,
        ``scoring`` (and the envelope's ``version``) for a time class; the counts and
        ``moves`` are in the table view."""
        out: dict[str, Any] = {"source": self.source}
        for c in self.classes:
            out[c.time_class.value] = {k: e.to_json() for k, e in c.estimates().items()}
            if c.score_scale is not None:
                out[c.time_class.value]["elo_per_doubling"]["score_scale"] = c.score_scale.to_json()
        if self.scoring is not None:
            out["scoring"] = self.scoring.to_json()
        return out

    def model_sd_table(self) -> dict[str, Any]:
        """The scenario ``[model.sd]`` table of the fit: the standard error of every constant
        that has one, per class."""
        table: dict[str, Any] = {}
        for name in PARAMETERS:
            per_class = {
                c.time_class.value: est
                for c in self.classes
                if (est := c.estimates()[name].stderr) is not None
            }
            if per_class:
                table[name] = per_class
        return table

    def correlations(self) -> list[tuple[str, str, float]]:
        """``[model] correlation`` of the fit: every pair of estimates in a class."""
        return [pair for c in self.classes for pair in c.correlation]

    def model_table(self) -> dict[str, Any]:
        """The scenario ``[model]`` table of the fit: only the constants estimated, per class."""
        table: dict[str, Any] = {"moves": self.moves}
        for name in PARAMETERS:
            per_class = {
                c.time_class.value: est
                for c in self.classes
                if (est := c.estimates()[name].estimate) is not None
            }
            if per_class:
                table[name] = per_class
        return table

    def model_toml(self) -> str:
        """:meth:`model_table` as a TOML ``[model]`` table, with the fit's notes as comments."""
        source = " ".join(self.source.splitlines())
        lines = [
            f"# Maximum-likelihood fit by knockout calibrate of {source} (moves = {self.moves:g}).",
            "# Only the constants the data estimate are set; a scenario keeps its own values "
            "(or the defaults) for the rest.",
            "# [model.sd] holds their standard errors and correlation the correlations of the "
            "estimates: answers",
            "# computed with this model carry the fit's uncertainty (docs/calibration.md).",
        ]
        for c in self.classes:
            red, draw, black = c.games
            lines.append(f"# {c.time_class}: {red} Red wins, {draw} draws, {black} Black wins.")
            for name, est in c.estimates().items():
                if est.reason is not None:
                    lines.append(f"#   {name}: {' '.join(est.reason.splitlines())}")
        lines.append("[model]")
        lines += toml_lines(self.model_table())
        pairs = self.correlations()
        if pairs:
            cells = ", ".join(f'["{a}", "{b}", {_toml_float(r)}]' for a, b, r in pairs)
            lines.append(f"correlation = [{cells}]")
        sd = self.model_sd_table()
        if sd:
            lines += ["[model.sd]", *toml_lines(sd)]
        return "\n".join(lines) + "\n"


def toml_lines(table: Mapping[str, Any]) -> list[str]:
    """``key = value`` lines of a ``[model]``-shaped table, a per-class table as an inline
    table (shared by the strength fit's model file)."""
    lines = []
    for key, value in table.items():
        if isinstance(value, Mapping):
            cells = ", ".join(f"{tc} = {_toml_float(v)}" for tc, v in value.items())
            lines.append(f"{key} = {{ {cells} }}")
        else:
            lines.append(f"{key} = {_toml_float(value)}")
    return lines


def _toml_float(value: float) -> str:
    """A float as TOML writes it (Python's shortest round-trip form is valid TOML)."""
    return repr(float(value))


# --- reading ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Game:
    """One checked line of the file."""

    time_class: TimeClass
    diff: float
    log_ratio: float
    result: Result
    count: int


def read_games(
    path: str | Path, *, encoding: str | None = None, moves: float = DEFAULT_MOVES
) -> GameTable:
    """The games file at ``path``, grouped by time class.

    Raises:
        InputError: Every problem in the file (unreadable, bad header, one per bad cell).
    """
    return parse_games(read_text(path, encoding=encoding), source=str(path), moves=moves)


def parse_games(text: str, *, source: str, moves: float = DEFAULT_MOVES) -> GameTable:
    """The games in CSV ``text``, grouped by time class.

    Args:
        text: The file's text (header :data:`COLUMNS`, optionally ``count``).
        source: The file's name, for messages.
        moves: Moves per side, for the effective clocks and for time classes left empty.

    >>> table = parse_games(
    ...     "red_rating,black_rating,time_class,red_minutes,black_minutes,increment_seconds,result"
    ...     "\\n2500,2400,,15,15,10,red\\n", source="x.csv")
    >>> table.classes[0].time_class, table.classes[0].totals
    (<TimeClass.RAPID: 'rapid'>, (1, 0, 0))

    Raises:
        InputError: Every problem found, one per bad cell, each naming the line and column.
    """
    problems: list[Problem] = []
    games: list[_Game] = []
    for row in parse_rows(text, source=source, required=COLUMNS, optional=OPTIONAL):
        if isinstance(row, Problem):
            problems.append(row)
            continue
        game = _game(row, source, moves, problems)
        if game is not None:
            games.append(game)
    if not problems and sum(g.count for g in games) == 0:
        problems.append(Problem(source, "", "expected at least one game, got none"))
    if problems:
        raise InputError(problems)
    return GameTable(source, moves, _group(games))


def _number(
    row: Row,
    column: str,
    source: str,
    problems: list[Problem],
    check: tuple[Callable[[float], bool], str] = (math.isfinite, "a number"),
) -> float | None:
    """The cell ``column`` as a float, or None after adding a problem."""
    text = row.cells[column]
    test, expected = check
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and test(value)):
        problems.append(Problem(source, row.where(column), f"expected {expected}, got {text!r}"))
        return None
    return value


def _count(row: Row, source: str, problems: list[Problem]) -> int | None:
    text = row.cells.get("count")
    if text is None:
        return 1
    if not text.isdigit():
        problems.append(
            Problem(source, row.where("count"), f"expected a whole number >= 0, got {text!r}")
        )
        return None
    return int(text)


def _time_class(row: Row, source: str, problems: list[Problem]) -> TimeClass | None:
    """The ``time_class`` cell; None if empty (from the clocks) or bad (a problem added)."""
    text = row.cells["time_class"]
    if not text:
        return None
    try:
        return TimeClass(text.lower())
    except ValueError:
        problems.append(
            Problem(
                source,
                row.where("time_class"),
                f"expected classical, rapid, blitz or nothing (from the clocks), got {text!r}",
            )
        )
        return None


def _result(row: Row, source: str, problems: list[Problem]) -> Result | None:
    text = row.cells["result"]
    try:
        return Result(text.lower())
    except ValueError:
        problems.append(
            Problem(source, row.where("result"), f"expected red, draw or black, got {text!r}")
        )
        return None


def _game(row: Row, source: str, moves: float, problems: list[Problem]) -> _Game | None:
    """The game (or games) of one line, or None after adding one problem per bad cell."""
    before = len(problems)
    red_rating = _number(row, "red_rating", source, problems)
    black_rating = _number(row, "black_rating", source, problems)
    tc = _time_class(row, source, problems)
    positive = (lambda x: x > 0, "minutes > 0")
    red_minutes = _number(row, "red_minutes", source, problems, positive)
    black_minutes = _number(row, "black_minutes", source, problems, positive)
    increment = _number(
        row, "increment_seconds", source, problems, (lambda x: x >= 0, "seconds >= 0")
    )
    result = _result(row, source, problems)
    count = _count(row, source, problems)
    if len(problems) > before:
        return None
    assert red_rating is not None and black_rating is not None
    assert red_minutes is not None and black_minutes is not None and increment is not None
    assert result is not None and count is not None
    if tc is None:
        tc = classify(red_minutes, black_minutes, increment, moves)
    t_red, t_black = effective_minutes([red_minutes, black_minutes], increment, moves)
    return _Game(tc, red_rating - black_rating, float(np.log2(t_red / t_black)), result, count)


def _group(games: Iterable[_Game]) -> tuple[ClassGames, ...]:
    """Games aggregated per class into cells of equal rating difference and clock ratio."""
    cells: dict[TimeClass, dict[tuple[float, float], list[int]]] = {tc: {} for tc in TimeClass}
    column = {Result.RED: 0, Result.DRAW: 1, Result.BLACK: 2}
    for g in games:
        cell = cells[g.time_class].setdefault((g.diff, g.log_ratio), [0, 0, 0])
        cell[column[g.result]] += g.count
    out = []
    for tc, by_cell in cells.items():
        if not any(sum(c) for c in by_cell.values()):
            continue
        keys = np.array(list(by_cell), dtype=np.float64)
        counts = np.array(list(by_cell.values()), dtype=np.float64)
        out.append(ClassGames(tc, keys[:, 0], keys[:, 1], counts[:, 0], counts[:, 1], counts[:, 2]))
    return tuple(out)


# --- the likelihood -----------------------------------------------------------------------------


def _terms(x: FloatArray, games: ClassGames) -> tuple[float, FloatArray, FloatArray]:
    """Negative log-likelihood, its gradient and Hessian at internal parameters ``x``.

    ``x = (alpha, theta, eps)``: ``u = K * diff + alpha + eps * log_ratio``, ``nu = exp(theta)``
    (``theta = -inf`` is ``nu = 0``, allowed only for a class without draws).
    """
    u = _K * games.diff + x[_A] + x[_E] * games.log_ratio
    stack = np.stack([u, -u, np.full_like(u, x[_NU])])
    lse = logsumexp(stack, axis=0)
    p_red, p_black, p_draw = np.exp(stack - lse)
    n = games.red + games.draw + games.black
    draws = float(games.draw.sum())
    loglik = float(np.sum((games.red - games.black) * u - n * lse))
    if draws > 0:
        loglik += draws * float(x[_NU])
    edge = p_red - p_black
    score_u = (games.red - games.black) - n * edge
    grad = -np.array(
        [score_u.sum(), draws - float(np.sum(n * p_draw)), np.sum(games.log_ratio * score_u)]
    )
    h_uu = n * (p_red + p_black - edge**2)
    h_ut = -n * edge * p_draw
    h_tt = n * p_draw * (1.0 - p_draw)
    lr = games.log_ratio
    hess = np.array(
        [
            [h_uu.sum(), h_ut.sum(), np.sum(lr * h_uu)],
            [h_ut.sum(), h_tt.sum(), np.sum(lr * h_ut)],
            [np.sum(lr * h_uu), np.sum(lr * h_ut), np.sum(lr**2 * h_uu)],
        ]
    )
    return -loglik, grad, hess


@dataclass(frozen=True)
class _Optimum:
    """A maximum of the likelihood over the free parameters (the others held fixed)."""

    x: FloatArray
    free: tuple[bool, bool, bool]
    nll: float
    cov: FloatArray  # inverse observed information over the free parameters, internal units

    def stderr(self, index: int) -> float:
        """Standard error of internal parameter ``index`` (a free one)."""
        at = sum(self.free[:index])
        return float(math.sqrt(self.cov[at, at]))


def _optimum(games: ClassGames, x0: FloatArray, free: tuple[bool, bool, bool]) -> _Optimum | None:
    """Maximise the likelihood over the ``free`` entries of ``x0``; None if it has no finite
    maximum (the optimizer walks off, or the information is not positive definite there)."""
    idx = [i for i in range(3) if free[i]]
    n = float((games.red + games.draw + games.black).sum())

    def full(y: FloatArray) -> FloatArray:
        x = x0.astype(np.float64).copy()
        x[idx] = y
        return x

    def fun(y: FloatArray) -> tuple[float, FloatArray]:
        f, g, _ = _terms(full(y), games)
        return f, g[idx]

    def hess(y: FloatArray) -> FloatArray:
        return _terms(full(y), games)[2][np.ix_(idx, idx)]

    res = minimize(
        fun,
        x0[idx],
        jac=True,
        hess=hess,
        method="trust-exact",
        options={"gtol": 1e-10 * max(n, 1.0), "maxiter": 500},
    )
    x = full(np.asarray(res.x, dtype=np.float64))
    nll, grad, h = _terms(x, games)
    info = h[np.ix_(idx, idx)]
    if not _plausible(x) or np.max(np.abs(grad[idx])) > 1e-6 * max(n, 1.0):
        return None
    try:
        chol = np.linalg.cholesky(info)
    except np.linalg.LinAlgError:
        return None
    inv = np.linalg.inv(chol)
    return _Optimum(x, free, nll, inv.T @ inv)


def _plausible(x: FloatArray) -> bool:
    """Whether ``x`` is finite where it must be and inside the bounds of a real estimate."""
    a, theta, e = (float(v) for v in x)
    if not (math.isfinite(a) and math.isfinite(e)) or math.isnan(theta):
        return False
    return abs(a) / _K <= _MAX_ELO and abs(e) / _K <= _MAX_ELO and theta <= math.log(_MAX_NU)


def _upper_bound(
    games: ClassGames,
    best: _Optimum,
    index: int,
    to_internal: Callable[[float], float],
    drop: float,
) -> float | None:
    """The value of parameter ``index`` (natural units), whose maximum is on its lower boundary
    0, at which the profile log-likelihood has fallen by ``drop`` from the maximum; None if it
    has not fallen that far within the plausible range."""

    def excess(value: float) -> float:
        if value == 0.0:
            return -drop
        x = best.x.copy()
        x[index] = to_internal(value)
        fit = _optimum(games, x, best.free)
        return math.inf if fit is None else fit.nll - best.nll - drop

    hi, limit = (0.05, _MAX_NU) if index == _NU else (10.0, _MAX_ELO)
    while excess(hi) <= 0:
        hi *= 2.0
        if hi > limit:
            return None
    lo = hi / 2.0 if excess(hi / 2.0) <= 0 else 0.0
    return float(brentq(excess, lo, hi, xtol=1e-9 * hi, rtol=1e-12))


# --- fitting ------------------------------------------------------------------------------------


def calibrate(table: GameTable) -> Calibration:
    """The maximum-likelihood fit of every time class in ``table``, and seed 000's derivation
    of its scores from the classical games on equal clocks (:func:`scoring_derivation`)."""
    fits = []
    for games in table.classes:
        fit = fit_class(games)
        fits.append(replace(fit, score_scale=score_scale(games, fit)))
    return Calibration(table.source, table.moves, tuple(fits), scoring_derivation(table))


def _no_maximum(games: ClassGames, why: str) -> ClassFit:
    reason = f"no finite maximum-likelihood estimate: {why}"
    return ClassFit(
        games.time_class, games.totals, _missing(reason), _missing(reason), _missing(reason), None
    )


def fit_class(games: ClassGames) -> ClassFit:
    """The maximum-likelihood fit of one time class (see the module docstring).

    Every constant the data identify is estimated; the rest are None with the reason.
    """
    red, draw, black = games.totals
    if red + black == 0:
        return _no_maximum(
            games, "every game was drawn, so the likelihood rises for ever with draw_nu"
        )
    if red == 0 or black == 0:
        missing = "Black" if black == 0 else "Red"
        return _no_maximum(
            games,
            f"there are no {missing} wins, so the likelihood rises for ever as red_advantage "
            f"goes to {'+' if black == 0 else '-'}infinity",
        )
    ratios = games.clock_ratios()
    time_odds = len(ratios) >= 2
    x0 = np.array(
        [
            0.5 * math.log((red + 0.5) / (black + 0.5)),
            math.log((draw + 0.5) / math.sqrt((red + 0.5) * (black + 0.5))) if draw else -math.inf,
            0.0,
        ]
    )
    best = _optimum(games, x0, (True, draw > 0, time_odds))
    if not time_odds or (best is not None and best.x[_E] >= 0):
        if best is None:  # cannot happen: with Red and Black wins the level sets are bounded
            return _no_maximum(games, "the optimizer did not converge")
        return _class_fit(games, best, ratios, None)
    # The unconstrained maximum has elo_per_doubling < 0, or there is none: refit at 0, the
    # constrained maximum when the likelihood falls as elo_per_doubling rises from 0 (concavity).
    x0[_E] = 0.0
    held = _optimum(games, x0, (True, draw > 0, False))
    if held is None:
        return _no_maximum(games, "the optimizer did not converge")
    if best is None and _terms(held.x, games)[1][_E] < 0:
        return _no_maximum(
            games,
            "the likelihood keeps rising as elo_per_doubling goes to infinity (the results "
            "separate by clock ratio)",
        )
    return _class_fit(games, held, ratios, _Boundary(best))


@dataclass(frozen=True)
class _Boundary:
    """``elo_per_doubling`` held at 0: the unconstrained maximum (None: at minus infinity)."""

    unconstrained: _Optimum | None


def _class_fit(
    games: ClassGames, best: _Optimum, ratios: list[float], boundary: _Boundary | None
) -> ClassFit:
    estimates = {
        "red_advantage": _red_advantage(best, ratios),
        "draw_nu": _draw_nu(games, best),
        "elo_per_doubling": _elo_per_doubling(games, best, ratios, boundary),
    }
    return ClassFit(
        games.time_class,
        games.totals,
        estimates["red_advantage"],
        estimates["draw_nu"],
        estimates["elo_per_doubling"],
        -best.nll,
        _correlations(games.time_class, best, estimates),
    )


def _correlations(
    tc: TimeClass, best: _Optimum, estimates: Mapping[str, Estimate]
) -> tuple[tuple[str, str, float], ...]:
    """The correlation of each pair of estimates with standard errors, from the inverse
    observed information (in ``alpha``, ``log nu``, ``eps``: linear in red_advantage and
    elo_per_doubling, so the correlation is theirs and ``log draw_nu``'s)."""
    index = {"red_advantage": _A, "draw_nu": _NU, "elo_per_doubling": _E}
    usable = [
        name for name in PARAMETERS if estimates[name].stderr is not None and best.free[index[name]]
    ]
    at = {name: sum(best.free[: index[name]]) for name in usable}
    out = []
    for i, a in enumerate(usable):
        for b in usable[i + 1 :]:
            cov = best.cov[at[a], at[b]]
            rho = cov / math.sqrt(best.cov[at[a], at[a]] * best.cov[at[b], at[b]])
            out.append((f"{a}.{tc.value}", f"{b}.{tc.value}", float(rho)))
    return tuple(out)


def _red_advantage(best: _Optimum, ratios: list[float]) -> Estimate:
    a, se = best.x[_A] / _K, best.stderr(_A) / _K
    if len(ratios) == 1 and ratios[0] != 0.0:
        return _missing(
            f"every game had the same clock ratio (log2 T_red/T_black = {ratios[0]:.4g}), so "
            "only red_advantage + elo_per_doubling * log2(T_red/T_black) is identified: "
            f"{a:.2f} (stderr {se:.2f}); games on other clocks would separate them"
        )
    return Estimate(float(a), float(se))


def _draw_nu(games: ClassGames, best: _Optimum) -> Estimate:
    if best.free[_NU]:
        nu = math.exp(best.x[_NU])
        return Estimate(nu, nu * best.stderr(_NU))
    bound = _upper_bound(games, best, _NU, math.log, _NU_BOUND_DROP)
    said = (
        ""
        if bound is None
        else f"; one-sided 95% upper bound {bound:.4g}, the draw_nu under which a record "
        "without draws has probability 5% (profile likelihood)"
    )
    return Estimate(
        0.0,
        None,
        f"no draws in {sum(games.totals)} games: the likelihood is highest on the boundary "
        f"draw_nu = 0, where the observed information gives no standard error{said}",
        bound,
    )


def _elo_per_doubling(
    games: ClassGames, best: _Optimum, ratios: list[float], boundary: _Boundary | None
) -> Estimate:
    if len(ratios) == 1:
        if ratios[0] == 0.0:
            return _missing(
                "every game was on equal effective clocks, so the data say nothing about time odds"
            )
        return _missing(
            "every game had the same clock ratio, so time odds cannot be told apart from "
            "red_advantage"
        )
    if boundary is None:
        return Estimate(best.x[_E] / _K, best.stderr(_E) / _K)
    found = boundary.unconstrained
    where = (
        "at minus infinity (the results separate by clock ratio)"
        if found is None
        else f"at {found.x[_E] / _K:.2f} (stderr {found.stderr(_E) / _K:.2f}): the side with "
        "more time did worse"
    )
    bound = _upper_bound(games, best, _E, lambda v: v * _K, _E_BOUND_DROP)
    said = "" if bound is None else f"; one-sided 95% upper bound {bound:.4g} (profile likelihood)"
    return Estimate(
        0.0,
        None,
        f"the unconstrained maximum is {where}; the model allows only elo_per_doubling >= 0, "
        "so the fit holds it at the boundary 0 (the other constants refitted there), where the "
        f"observed information gives no standard error{said}",
        bound,
    )


# --- seed 000's derivation of its scores, with its error -----------------------------------------

#: The two-sided 95 % Normal quantile of the Wald intervals.
_Z95 = float(ndtri(0.975))


@dataclass(frozen=True)
class Interval:
    """An estimate with its standard error and central 95 % interval.

    Attributes:
        estimate: The value (unrounded).
        stderr: Its standard error (delta method, multinomial sampling).
        q025: The interval's lower end.
        q975: Its upper end.
    """

    estimate: float
    stderr: float
    q025: float
    q975: float

    def to_json(self) -> dict[str, float]:
        """``{"estimate", "stderr", "q025", "q975"}``."""
        return {"estimate": self.estimate, "stderr": self.stderr, "q025": self.q025,
                "q975": self.q975}  # fmt: skip

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the interval."""
        return self.q025 <= value <= self.q975


#: How the intervals of :class:`ScoringDerivation` are made (said in its JSON and its view).
SCORING_METHOD = (
    "standard errors by the delta method from the multinomial of one sample of games "
    "(Red win, draw, Black win; not two independent proportions); 95 % intervals: Wald "
    "(estimate +- 1.96 standard errors) for the gap and the difference method's scores, and "
    "the Wald interval of log(Red wins / Black wins) carried through 4 / (1 + ratio) for the "
    "ratio method's (monotone, so its ends map to ends and stay inside 0..4)"
)


@dataclass(frozen=True)
class ScoringDerivation:
    """Seed 000's derivation of Red's and Black's points for a win, with its error.

    From ``n`` classical games on equal clocks with ``r`` Red wins, ``d`` draws and ``b``
    Black wins (one multinomial sample): the gap in win rates ``g = (r - b) / n`` with
    ``Var g = (p_r + p_b - g^2) / n``; the **difference method** (差额法): ``x + y = 4``,
    ``y - x = 2 g``, so Red's win ``x = 2 - g`` and Black's ``y = 2 + g`` (the seed: 9.93 %,
    hence 1.9 / 2.1); the **ratio method** (比值法): ``x + y = 4``, ``y / x = r / b``, so
    ``x = 4 / (1 + r / b)``, with ``Var log(r / b) = 1 / r + 1 / b`` (the seed computes 1.45,
    hence 1.63 / 2.37, and adopts 1.7 / 2.3).

    Attributes:
        games: ``(r, d, b)``.
        red_minus_black: The gap in win rates (a fraction of the games).
        difference: ``{"red_win", "black_win"}`` by the difference method.
        ratio: ``{"red_win", "black_win"}`` by the ratio method (None without Red or Black
            wins).
    """

    games: tuple[int, int, int]
    red_minus_black: Interval
    difference: dict[str, Interval]
    ratio: dict[str, Interval] | None

    def to_json(self) -> dict[str, Any]:
        """``{"red_minus_black", "difference": {"red_win", "black_win"}, "ratio": {...},
        "method"}``, each ``{"estimate", "stderr", "q025", "q975"}``."""
        return {
            "red_minus_black": self.red_minus_black.to_json(),
            "difference": {k: v.to_json() for k, v in self.difference.items()},
            "ratio": None
            if self.ratio is None
            else {k: v.to_json() for k, v in self.ratio.items()},
            "method": SCORING_METHOD,
        }


def scoring_derivation(table: GameTable) -> ScoringDerivation | None:
    """Seed 000's derivation from the file's classical games on equal effective clocks (None
    if there are none)."""
    games = next((c for c in table.classes if c.time_class is TimeClass.CLASSICAL), None)
    if games is None:
        return None
    level = np.abs(games.log_ratio) < 1e-12
    r, d, b = (int(x[level].sum()) for x in (games.red, games.draw, games.black))
    n = r + d + b
    if n == 0:
        return None
    p_r, p_b = r / n, b / n
    gap = p_r - p_b
    se = math.sqrt(max(p_r + p_b - gap * gap, 0.0) / n)
    lo, hi = gap - _Z95 * se, gap + _Z95 * se
    difference = {
        "red_win": Interval(2.0 - gap, se, 2.0 - hi, 2.0 - lo),
        "black_win": Interval(2.0 + gap, se, 2.0 + lo, 2.0 + hi),
    }
    ratio = None
    if r > 0 and b > 0:
        rho = r / b
        se_log = math.sqrt(1.0 / r + 1.0 / b)
        rho_lo, rho_hi = rho * math.exp(-_Z95 * se_log), rho * math.exp(_Z95 * se_log)
        se_x = 4.0 * rho / (1.0 + rho) ** 2 * se_log
        x = 4.0 / (1.0 + rho)
        ratio = {
            "red_win": Interval(x, se_x, 4.0 / (1.0 + rho_hi), 4.0 / (1.0 + rho_lo)),
            "black_win": Interval(
                4.0 - x, se_x, 4.0 - 4.0 / (1.0 + rho_lo), 4.0 - 4.0 / (1.0 + rho_hi)
            ),
        }
    return ScoringDerivation((r, d, b), Interval(gap, se, lo, hi), difference, ratio)


# --- the worth of time on the score scale ---------------------------------------------------------


def score_elo(d: float, nu: float, red_advantage: float = 0.0) -> float:
    """The Elo a score-based rating gives a strength difference ``d`` (the model's Davidson
    parameter) between two players who each have Red half the time: ``400 log10(s / (1 - s))``
    with ``s`` the stronger side's expected score, ``(S(d + a) + S(d - a)) / 2`` and ``S`` Red's
    score (a win 1, a draw 1/2) at Red's strength difference. Draws pull it below ``d``: with
    ``nu = 0`` it is ``d`` itself (a = 0).

    >>> round(score_elo(200.0, 0.0), 6), round(score_elo(200.0, 1.0), 1)
    (200.0, 132.5)
    """

    def red_score(x: float) -> float:
        p = davidson(x, nu)
        return float(p.red) + float(p.draw) / 2

    s = (red_score(d + red_advantage) + red_score(d - red_advantage)) / 2
    return 400.0 * math.log10(s / (1.0 - s))


@dataclass(frozen=True)
class ObservedScore:
    """The score-based Elo of the side with more time, straight from the games at one clock
    ratio (equal ratings only; each game counted from the side with more time).

    Attributes:
        doublings: ``|log2(T_red / T_black)|``.
        games: Games at that ratio.
        score: The side with more time's score a game (a win 1, a draw 1/2).
        elo: ``400 log10(score / (1 - score))``.
        stderr: Its standard error (the delta method on the score's, ``sqrt((p_w + p_d / 4 -
            score^2) / games)``); None for a score of 0 or 1.
    """

    doublings: float
    games: int
    score: float
    elo: float | None
    stderr: float | None

    def to_json(self) -> dict[str, Any]:
        """``{"doublings", "games", "score", "elo", "stderr", "per_doubling",
        "per_doubling_stderr"}``."""
        per = None if self.elo is None else self.elo / self.doublings
        per_se = None if self.stderr is None else self.stderr / self.doublings
        return {
            "doublings": self.doublings,
            "games": self.games,
            "score": self.score,
            "elo": self.elo,
            "stderr": self.stderr,
            "per_doubling": per,
            "per_doubling_stderr": per_se,
        }


@dataclass(frozen=True)
class ScoreScale:
    """``elo_per_doubling`` (a Davidson parameter: Elo of the model's strength difference) on
    the score scale a score-based rating uses, where draws count half a win.

    Attributes:
        estimate: :func:`score_elo` of one doubling at the fitted ``draw_nu`` and
            ``red_advantage`` (each side Red half the time).
        stderr: Its standard error, by the delta method through the fit's covariance of
            ``red_advantage``, ``log draw_nu`` and ``elo_per_doubling`` (None when one of them
            has none).
        observed: The games' own score-based Elo at each clock ratio.
    """

    estimate: float
    stderr: float | None
    observed: tuple[ObservedScore, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"estimate", "stderr", "observed": [...], "method"}``."""
        return {
            "estimate": self.estimate,
            "stderr": self.stderr,
            "observed": [o.to_json() for o in self.observed],
            "method": SCORE_SCALE_METHOD,
        }


SCORE_SCALE_METHOD = (
    "the fitted elo_per_doubling converted to the score scale: 400 log10(s / (1 - s)) with s "
    "the expected score of the side with one doubling more, Red half the time, at the fitted "
    "draw_nu and red_advantage (draws count half, so the score scale is below the Davidson "
    "parameter); standard error by the delta method through the fit's covariance; observed: "
    "the same from the games at each clock ratio between equal ratings"
)


def _observed_scores(games: ClassGames) -> tuple[ObservedScore, ...]:
    level = np.abs(games.diff) < 1e-9
    out = []
    ratios = sorted({round(abs(float(x)), 9) for x in games.log_ratio[level] if abs(x) > 1e-9})
    for doublings in ratios:
        cells = level & (np.abs(np.abs(games.log_ratio) - doublings) < 1e-9)
        red_more = cells & (games.log_ratio > 0)
        black_more = cells & (games.log_ratio < 0)
        wins = float(games.red[red_more].sum() + games.black[black_more].sum())
        losses = float(games.black[red_more].sum() + games.red[black_more].sum())
        draws = float(games.draw[cells].sum())
        n = wins + draws + losses
        if n == 0:
            continue
        score = (wins + draws / 2) / n
        elo = stderr = None
        if 0 < score < 1:
            elo = 400.0 * math.log10(score / (1.0 - score))
            var = max((wins + draws / 4) / n - score * score, 0.0)
            stderr = 400.0 / math.log(10.0) * math.sqrt(var / n) / (score * (1.0 - score))
        out.append(ObservedScore(doublings, int(n), score, elo, stderr))
    return tuple(out)


def score_scale(games: ClassGames, fit: ClassFit) -> ScoreScale | None:
    """``fit``'s ``elo_per_doubling`` on the score scale, with its standard error, and the
    games' own score-based Elo at each clock ratio (None without a fitted elo_per_doubling)."""
    e, a, nu = fit.elo_per_doubling, fit.red_advantage, fit.draw_nu
    if e.estimate is None or a.estimate is None or nu.estimate is None:
        return None
    point = (a.estimate, math.log(nu.estimate) if nu.estimate > 0 else -math.inf, e.estimate)

    def at(x: Sequence[float]) -> float:
        return score_elo(x[2], math.exp(x[1]), x[0])

    estimate = at(point)
    stderr = None
    given = (a.stderr, None if nu.stderr is None else nu.stderr / nu.estimate, e.stderr)
    sds = [float(sd) for sd in given if sd is not None]
    if len(sds) == 3 and nu.estimate > 0:
        names = ("red_advantage", "draw_nu", "elo_per_doubling")
        rho = {frozenset((x.split(".")[0], y.split(".")[0])): r for x, y, r in fit.correlation}
        cov = np.array(
            [
                [
                    (1.0 if i == j else rho.get(frozenset((names[i], names[j])), 0.0))
                    * sds[i]
                    * sds[j]
                    for j in range(3)
                ]
                for i in range(3)
            ]
        )
        steps = (0.5, 1e-3, 0.5)
        grad = np.array(
            [
                (at(_moved(point, k, h)) - at(_moved(point, k, -h))) / (2 * h)
                for k, h in enumerate(steps)
            ]
        )
        stderr = math.sqrt(max(float(grad @ cov @ grad), 0.0))
    return ScoreScale(estimate, stderr, _observed_scores(games))


def _moved(x: Sequence[float], k: int, h: float) -> list[float]:
    out = list(x)
    out[k] += h
    return out
