"""Players' strengths that drift over the years, and the model's constants, fitted to results.

The model of one game is MODEL.md's (:mod:`knockout.rules.model.strength`): a game of
group ``c`` (a time class, or every class pooled) between Red ``r`` and Black ``b`` in period
(year) ``t`` has ``d = s[r, t] - s[b, t] + red_advantage[c]`` and Davidson's probabilities with
``draw_nu[c]``.
What is new is that nobody gives the strengths ``s``: they are fitted with the constants.

* **Strengths drift.** A player has one strength per year in which they played. Their first
  year's strength is Normal(0, ``spread``); from one year they played to the next they played,
  ``k`` years later, it moves by Normal(0, ``drift`` * sqrt(k)) (a Gaussian random walk, as in
  Coulom's Whole-History Rating, 2008). The prior makes the scale (0 = the average newcomer's
  first year) and shrinks a player with few games towards it: nobody is dropped for having few
  games, and their strengths carry honest standard errors.
* **The fit** is the maximum a posteriori of strengths and constants (``red_advantage`` in
  Elo, ``log draw_nu``) for given ``drift`` and ``spread``: the negative log-posterior is convex
  (the likelihood is concave in ``u`` and ``log nu``, :mod:`knockout.strengths.likelihood`, and
  the prior is Gaussian), so Newton's method with a line search finds the unique optimum. Each
  Newton step solves the sparse Hessian by conjugate gradients preconditioned with every
  player's own tridiagonal block (their years' chain) and the constants' dense block: about 30
  iterations, a few sparse products each, for 40,000 games.
* **Drift and spread** maximise the Laplace approximation of the marginal likelihood (the
  strengths integrated out): ``l(s^) + log prior(s^) + 1/2 log det P - 1/2 log det H_ss`` at the
  optimum, ``P`` the prior's precision and ``H_ss`` the strengths' block of the Hessian
  (log-determinant from a sparse LU factorisation), by Nelder-Mead over their logarithms.
* **Standard errors of the constants** are the Laplace approximation's: the inverse of the
  Schur complement ``H_cc - H_cs H_ss^-1 H_sc`` (the constants' curvature with the strengths
  profiled out, never a dense inverse of the thousands of strengths; ``H_ss^-1 H_sc`` by the
  same conjugate gradients).
* **A strength's standard error** is its player's own block's (the player's years given the
  opponents' strengths): the diagonal of a tridiagonal inverse, exact for the player's chain,
  a little short where opponents are themselves uncertain.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import scipy.sparse as sp
from scipy.linalg import solveh_banded
from scipy.optimize import minimize
from scipy.sparse.linalg import splu

from knockout.arrays import FloatArray, IntArray
from knockout.errors import KnockoutError
from knockout.rules.model.strength import GameProbabilities, davidson
from knockout.strengths.likelihood import ELO_TO_U, game_terms

__all__ = [
    "Hyper",
    "Layout",
    "StrengthFit",
    "StrengthGames",
    "evidence_gradient",
    "fit_map",
    "fit_strengths",
    "laplace_evidence",
    "layout",
    "marginal",
]

Progress = Callable[[int, int], None]

#: Gauss-Hermite nodes of the forecasts' average over the strengths' uncertainty.
_GH_NODES, _GH_WEIGHTS = np.polynomial.hermite.hermgauss(16)
#: Newton stops when the decrement (the log-posterior still to gain, to second order) is below.
_NEWTON_TOL = 1e-9
_MAX_NEWTON = 60
#: Conjugate gradients stop at this relative residual.
_CG_TOL = 1e-10
#: Hyperparameter search: the box (Elo) and the most evaluations.
_DRIFT_RANGE, _SPREAD_RANGE = (1.0, 400.0), (10.0, 1500.0)
_MAX_EVIDENCE_EVALS = 40
#: Most Newton steps from the joint optimum to the marginal likelihood's maximum.
_MAX_MARGINAL_STEPS = 20


@dataclass(frozen=True)
class StrengthGames:
    """Games as arrays, one entry a game.

    Attributes:
        red: Red's player index (into ``players``).
        black: Black's player index.
        period: The game's period (its year).
        group: The game's group of constants (index into ``groups``).
        result: 0 Red win, 1 draw, 2 Black win.
        weight: How many times the game counts (1; a bootstrap resample's multiplicity).
        players: Player names.
        groups: Names of the groups of constants (time classes, or one pooled group).
    """

    red: IntArray
    black: IntArray
    period: IntArray
    group: IntArray
    result: IntArray
    weight: FloatArray
    players: tuple[str, ...]
    groups: tuple[str, ...]

    @property
    def size(self) -> int:
        """The number of games."""
        return int(self.red.shape[0])

    def reweighted(self, weight: FloatArray) -> StrengthGames:
        """The same games counted ``weight`` times each."""
        return replace(self, weight=np.asarray(weight, dtype=np.float64))


@dataclass(frozen=True)
class Layout:
    """The fit's unknowns: one strength per player and period played, then the constants.

    Player-periods are numbered player by player, periods ascending, so that each player's
    chain of years is a contiguous run (its prior is tridiagonal).

    Attributes:
        games: The games.
        pp_player: Player of each player-period.
        pp_period: Period of each player-period.
        red_pp: Red's player-period in each game.
        black_pp: Black's player-period in each game.
        link: ``link[k]`` for ``k < n - 1``: the periods from player-period ``k`` to ``k + 1`` if
            both are the same player's, else 0 (no link).
        first: The first player-period of each player who played.
    """

    games: StrengthGames
    pp_player: IntArray
    pp_period: IntArray
    red_pp: IntArray
    black_pp: IntArray
    link: FloatArray
    first: IntArray

    @property
    def n_pp(self) -> int:
        """The number of player-periods."""
        return int(self.pp_player.shape[0])

    @property
    def n_groups(self) -> int:
        """The number of groups of constants."""
        return len(self.games.groups)


def layout(games: StrengthGames) -> Layout:
    """The unknowns of a fit of ``games``."""
    periods = np.concatenate([games.period, games.period])
    players = np.concatenate([games.red, games.black])
    lo = int(periods.min()) if periods.size else 0
    span = int(periods.max()) - lo + 1 if periods.size else 1
    key = players.astype(np.int64) * span + (periods - lo)
    unique, inverse = np.unique(key, return_inverse=True)
    pp_player = (unique // span).astype(np.intp)
    pp_period = (unique % span + lo).astype(np.intp)
    n = games.size
    same = pp_player[1:] == pp_player[:-1]
    link = np.where(same, np.diff(pp_period), 0).astype(np.float64)
    first = np.flatnonzero(np.r_[True, ~same]).astype(np.intp)
    return Layout(
        games,
        pp_player,
        pp_period,
        inverse[:n].astype(np.intp),
        inverse[n:].astype(np.intp),
        link,
        first,
    )


@dataclass(frozen=True)
class Hyper:
    """The strengths' prior.

    Attributes:
        drift: Standard deviation (Elo) of a strength's change over one period.
        spread: Standard deviation (Elo) of a player's strength in their first period.
    """

    drift: float
    spread: float


class _Problem:
    """The negative log-posterior of a layout under a prior, with its derivatives."""

    def __init__(self, lay: Layout, hyper: Hyper) -> None:
        self.lay = lay
        self.hyper = hyper
        g = lay.games
        n, groups = lay.n_pp, lay.n_groups
        self.n, self.size = n, n + 2 * groups
        # Each game's strength difference d = x[red] - x[black] + x[advantage]: indices, signs.
        self.d_index = np.stack([lay.red_pp, lay.black_pp, n + g.group])
        self.d_sign = np.array([1.0, -1.0, 1.0])[:, None]
        self.theta_index = n + groups + g.group
        linked = lay.link > 0
        self.link_at = np.flatnonzero(linked)
        self.link_prec = np.zeros(max(n - 1, 0))
        self.link_prec[linked] = 1.0 / (hyper.drift**2 * lay.link[linked])
        self.first_prec = 1.0 / hyper.spread**2
        prior_diag = np.zeros(n)
        prior_diag[lay.first] += self.first_prec
        prior_diag[:-1] += self.link_prec
        prior_diag[1:] += self.link_prec
        self.prior = sp.diags(
            [prior_diag, -self.link_prec, -self.link_prec], [0, 1, -1], shape=(n, n), format="csr"
        )
        # The same games' Hessian entries in COO order (rows, cols), built once.
        idx = self.d_index
        rows = [idx[i] for i in range(3) for _ in range(3)]
        cols = [idx[j] for _ in range(3) for j in range(3)]
        rows += [idx[i] for i in range(3)] + [self.theta_index] * 3 + [self.theta_index]
        cols += [self.theta_index] * 3 + [idx[i] for i in range(3)] + [self.theta_index]
        self.coo_rows = np.concatenate(rows)
        self.coo_cols = np.concatenate(cols)
        self.pair_sign = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0])

    def d_and_nu(self, x: FloatArray) -> tuple[FloatArray, FloatArray]:
        d = np.sum(self.d_sign * x[self.d_index], axis=0)
        return d, np.exp(x[self.theta_index])

    def prior_value(self, s: FloatArray) -> float:
        first = s[self.lay.first]
        steps = s[1:] - s[:-1]
        return 0.5 * self.first_prec * float(first @ first) + 0.5 * float(
            np.sum(self.link_prec * steps * steps)
        )

    def value(self, x: FloatArray) -> float:
        d, nu = self.d_and_nu(x)
        t = game_terms(d, nu, self.lay.games.result)
        return -float(self.lay.games.weight @ t.loglik) + self.prior_value(x[: self.n])

    def loglik(self, x: FloatArray) -> float:
        d, nu = self.d_and_nu(x)
        return float(self.lay.games.weight @ game_terms(d, nu, self.lay.games.result).loglik)

    def derivatives(self, x: FloatArray) -> tuple[float, FloatArray, sp.csr_matrix]:
        """Value, gradient and (sparse) Hessian at ``x``."""
        w = self.lay.games.weight
        d, nu = self.d_and_nu(x)
        t = game_terms(d, nu, self.lay.games.result)
        s = x[: self.n]
        value = -float(w @ t.loglik) + self.prior_value(s)
        k = ELO_TO_U
        grad = np.zeros(self.size)
        su = -k * w * t.score_u
        for i, sign in enumerate((1.0, -1.0, 1.0)):
            grad += np.bincount(self.d_index[i], sign * su, minlength=self.size)
        grad += np.bincount(self.theta_index, -w * t.score_theta, minlength=self.size)
        grad[: self.n] += self.prior @ s
        hdd = w * k * k * t.h_uu
        hdt = w * k * t.h_ut
        htt = w * t.h_tt
        sign3 = np.array([1.0, -1.0, 1.0])
        vals = [self.pair_sign[i] * hdd for i in range(9)]
        vals += [sign3[i] * hdt for i in range(3)] * 2 + [htt]
        hess = sp.coo_matrix(
            (np.concatenate(vals), (self.coo_rows, self.coo_cols)), shape=(self.size, self.size)
        ).tocsr()
        hess = hess + sp.block_diag([self.prior, sp.csr_matrix((self.size - self.n,) * 2)])
        return value, grad, hess.tocsr()

    def tridiagonal(self, hess: sp.csr_matrix) -> FloatArray:
        """The strengths' own chains in ``solveh_banded``'s upper form: the Hessian's diagonal
        and the links' off-diagonal (the prior's: a player never meets themself)."""
        n = self.n
        ab = np.zeros((2, n))
        ab[1] = hess.diagonal()[:n]
        ab[0, 1:] = -self.link_prec
        return ab

    def preconditioner(self, hess: sp.csr_matrix) -> Callable[[FloatArray], FloatArray]:
        """Solve with the players' chains and the constants' dense block (block diagonal)."""
        n = self.n
        ab = self.tridiagonal(hess)
        cc = hess[n:, n:].toarray()
        cc_inv = np.linalg.inv(cc) if cc.size else cc

        def apply(v: FloatArray) -> FloatArray:
            out = np.empty_like(v)
            out[:n] = solveh_banded(ab, v[:n], check_finite=False)
            out[n:] = cc_inv @ v[n:]
            return out

        return apply


def _cg(
    matrix: sp.csr_matrix, rhs: FloatArray, prec: Callable[[FloatArray], FloatArray]
) -> FloatArray:
    """Preconditioned conjugate gradients for a symmetric positive definite ``matrix``."""
    x = np.zeros_like(rhs)
    r = rhs.copy()
    norm = float(np.linalg.norm(rhs))
    if norm == 0.0:
        return x
    z = prec(r)
    p = z.copy()
    rz = float(r @ z)
    for _ in range(10 * rhs.shape[0] + 100):
        ap = matrix @ p
        alpha = rz / float(p @ ap)
        x += alpha * p
        r -= alpha * ap
        if float(np.linalg.norm(r)) <= _CG_TOL * norm:
            return x
        z = prec(r)
        rz_next = float(r @ z)
        p = z + (rz_next / rz) * p
        rz = rz_next
    raise KnockoutError("the strength fit did not converge (conjugate gradients)")


def _start(lay: Layout) -> FloatArray:
    """Strengths 0; each group's constants at their closed form for equal players."""
    g = lay.games
    x = np.zeros(lay.n_pp + 2 * lay.n_groups)
    for c in range(lay.n_groups):
        mine = g.group == c
        r, d, b = (float(g.weight[mine & (g.result == k)].sum()) + 0.5 for k in range(3))
        x[lay.n_pp + c] = 400.0 * math.log10(r / b)
        x[lay.n_pp + lay.n_groups + c] = math.log(d / math.sqrt(r * b))
    return x


def _warm(start: StrengthFit, lay: Layout) -> FloatArray:
    """A starting point for ``lay`` from the fit ``start``: each player-period the strength
    ``start`` has for that player in that period (or their nearest earlier one, else 0),
    each group's constants ``start``'s for the group of that name."""
    if start.layout is lay or (
        start.layout.n_pp == lay.n_pp
        and start.layout.games.players == lay.games.players
        and start.layout.games.groups == lay.games.groups
        and np.array_equal(start.layout.pp_period, lay.pp_period)
    ):
        return start.x.copy()
    x = _start(lay)
    old = start.layout
    names = {name: i for i, name in enumerate(old.games.players)}
    # Each new player-period: the old player's last period at or before it.
    old_key = old.pp_player.astype(np.int64) * 100_000 + old.pp_period
    new_player = np.array([names.get(lay.games.players[p], -1) for p in lay.pp_player])
    new_key = new_player.astype(np.int64) * 100_000 + lay.pp_period
    at = np.searchsorted(old_key, new_key, side="right") - 1
    ok = (new_player >= 0) & (at >= 0)
    ok[ok] &= old.pp_player[at[ok]] == new_player[ok]
    x[: lay.n_pp][ok] = start.strengths[at[ok]]
    for c, name in enumerate(lay.games.groups):
        if name in old.games.groups:
            k = old.games.groups.index(name)
            x[lay.n_pp + c] = start.red_advantage[k]
            x[lay.n_pp + lay.n_groups + c] = start.log_nu[k]
    return x


@dataclass(frozen=True)
class StrengthFit:
    """A maximum a posteriori fit of strengths and constants.

    Attributes:
        layout: The unknowns.
        hyper: The prior used.
        x: The optimum: player-period strengths (Elo), then ``red_advantage`` (Elo) per group,
            then ``log draw_nu`` per group.
        constants_cov: Covariance of the constants (``red_advantage`` per group, then
            ``log draw_nu`` per group) with the strengths profiled out.
        pp_var: Each player-period strength's variance (its player's own block).
        loglik: The log-likelihood at the optimum.
        log_evidence: The Laplace approximation of the marginal likelihood (None if not
            computed).
        map_constants: After :func:`marginal`: the joint optimum's constants (None before).
    """

    layout: Layout
    hyper: Hyper
    x: FloatArray
    constants_cov: FloatArray
    pp_var: FloatArray
    loglik: float
    log_evidence: float | None
    map_constants: FloatArray | None = None

    @property
    def groups(self) -> tuple[str, ...]:
        """The groups of constants."""
        return self.layout.games.groups

    @property
    def red_advantage(self) -> FloatArray:
        """Red's advantage per group (Elo)."""
        n = self.layout.n_pp
        return self.x[n : n + self.layout.n_groups]

    @property
    def log_nu(self) -> FloatArray:
        """``log draw_nu`` per group."""
        n = self.layout.n_pp
        return self.x[n + self.layout.n_groups :]

    @property
    def strengths(self) -> FloatArray:
        """The player-periods' strengths (Elo)."""
        return self.x[: self.layout.n_pp]

    def player_state(self, period: int) -> tuple[FloatArray, FloatArray]:
        """Every player's strength (mean, variance) at ``period``: from their last period at
        or before it, the variance grown by the drift since; a player with no period so early:
        the newcomer's prior (0, ``spread``^2). Indexed like ``layout.games.players``."""
        lay = self.layout
        players = len(lay.games.players)
        mean = np.zeros(players)
        var = np.full(players, self.hyper.spread**2)
        usable = np.flatnonzero(lay.pp_period <= period)
        if usable.size:
            # Player-periods are sorted by player then period: the last usable one of each.
            who = lay.pp_player[usable]
            last = usable[np.r_[who[1:] != who[:-1], True]]
            p = lay.pp_player[last]
            gap = period - lay.pp_period[last]
            mean[p] = self.strengths[last]
            var[p] = self.pp_var[last] + self.hyper.drift**2 * gap
        return mean, var

    def forecast(
        self,
        red: IntArray,
        black: IntArray,
        period: int,
        group: IntArray,
        *,
        mean: FloatArray | None = None,
        var: FloatArray | None = None,
    ) -> GameProbabilities:
        """P(Red wins), P(draw), P(Black wins) of games played in ``period`` between players
        ``red`` and ``black`` (indices into the fit's players, or past its end for players it
        has not seen: newcomers), with the constants of ``group``: the model's probabilities
        averaged over the two strengths' uncertainty (Gauss-Hermite, 16 nodes)."""
        if mean is None or var is None:
            mean, var = self.player_state(period)
        spread2 = self.hyper.spread**2
        known = len(mean)

        def state(i: IntArray) -> tuple[FloatArray, FloatArray]:
            seen = i < known
            j = np.where(seen, i, 0)
            return np.where(seen, mean[j], 0.0), np.where(seen, var[j], spread2)

        m_r, v_r = state(red)
        m_b, v_b = state(black)
        d = m_r - m_b + self.red_advantage[group]
        sd = np.sqrt(2.0 * (v_r + v_b))
        nu = np.exp(self.log_nu[group])
        pts = d[None, :] + sd[None, :] * _GH_NODES[:, None]
        p = davidson(pts, nu[None, :])
        w = _GH_WEIGHTS[:, None] / math.sqrt(math.pi)
        return GameProbabilities(
            np.sum(w * p.red, axis=0), np.sum(w * p.draw, axis=0), np.sum(w * p.black, axis=0)
        )


def _newton(
    problem: _Problem, x: FloatArray, *, constants_fixed: bool = False
) -> tuple[FloatArray, sp.csr_matrix]:
    """The optimum from ``x`` (over the strengths only if ``constants_fixed``), and the
    Hessian there."""
    n = problem.n
    for _ in range(_MAX_NEWTON):
        value, grad, hess = problem.derivatives(x)
        if constants_fixed:
            step = np.zeros_like(x)
            step[:n] = _solve_strengths(problem, hess, -grad[:n, None])[:, 0]
        else:
            step = _cg(hess, -grad, problem.preconditioner(hess))
        decrement = -float(grad @ step)
        if decrement <= 2 * _NEWTON_TOL:
            return x, hess
        t = 1.0
        while problem.value(x + t * step) > value - 1e-4 * t * decrement:
            t /= 2.0
            if t < 1e-10:
                return x, hess
        x = x + t * step
    raise KnockoutError("the strength fit did not converge (Newton's method)")


def _block_variances(problem: _Problem, hess: sp.csr_matrix) -> FloatArray:
    """The diagonal of the inverse of the players' chains (tridiagonal with breaks): with
    forward pivots ``f`` and backward pivots ``b`` of the same matrix, ``inv[i, i] =
    1 / (f[i] + b[i] - a[i])``."""
    ab = problem.tridiagonal(hess)
    a = ab[1].tolist()
    off2 = (ab[0, 1:] ** 2).tolist()  # off2[i]: between i and i + 1
    n = len(a)
    fwd = [0.0] * n
    bwd = [0.0] * n
    for i in range(n):
        fwd[i] = a[i] - (off2[i - 1] / fwd[i - 1] if i > 0 else 0.0)
    for i in range(n - 1, -1, -1):
        bwd[i] = a[i] - (off2[i] / bwd[i + 1] if i < n - 1 else 0.0)
    out: FloatArray = 1.0 / (np.array(fwd) + np.array(bwd) - np.array(a))
    return out


def _constants_cov(problem: _Problem, hess: sp.csr_matrix) -> FloatArray:
    """``(H_cc - H_cs H_ss^-1 H_sc)^-1``: the constants' covariance, strengths profiled out."""
    n = problem.n
    h_sc = hess[:n, n:].toarray()
    h_cc = hess[n:, n:].toarray()
    z = _solve_strengths(problem, hess, h_sc)
    return np.asarray(np.linalg.inv(h_cc - h_sc.T @ z))


def _log_evidence(problem: _Problem, x: FloatArray, hess: sp.csr_matrix) -> float:
    """The Laplace approximation of ``log p(results | constants, prior)`` at the optimum."""
    n = problem.n
    lu = splu(
        hess[:n, :n].tocsc(),
        permc_spec="MMD_AT_PLUS_A",
        diag_pivot_thresh=0.0,
        options={"SymmetricMode": True},
    )
    logdet_h = float(np.sum(np.log(np.abs(lu.U.diagonal()))))
    lay = problem.lay
    links = lay.link[lay.link > 0]
    logdet_prior = -len(lay.first) * math.log(problem.hyper.spread**2) - float(
        np.sum(np.log(problem.hyper.drift**2 * links))
    )
    s = x[:n]
    return problem.loglik(x) - problem.prior_value(s) + 0.5 * logdet_prior - 0.5 * logdet_h


def fit_map(
    games: StrengthGames,
    hyper: Hyper,
    *,
    start: StrengthFit | None = None,
    evidence: bool = False,
) -> StrengthFit:
    """The maximum a posteriori fit of ``games`` under ``hyper``.

    Args:
        games: The games (each group needs a Red win, a draw and a Black win).
        hyper: The prior of the strengths.
        start: A fit to start from (warm start): of the same games, or of others (their
            players' strengths and the groups' constants are matched by name).
        evidence: Also compute the Laplace approximation of the marginal likelihood.
    """
    lay = start.layout if start is not None and start.layout.games is games else layout(games)
    problem = _Problem(lay, hyper)
    x0 = _start(lay) if start is None else _warm(start, lay)
    x, hess = _newton(problem, x0)
    return StrengthFit(
        lay,
        hyper,
        x,
        _constants_cov(problem, hess),
        _block_variances(problem, hess),
        problem.loglik(x),
        _log_evidence(problem, x, hess) if evidence else None,
    )


def fit_strengths(
    games: StrengthGames,
    *,
    hyper: Hyper | None = None,
    start: Hyper = Hyper(drift=40.0, spread=250.0),
    progress: Progress | None = None,
) -> StrengthFit:
    """The fit of ``games``: under ``hyper`` if given, else with the drift and spread that
    maximise the Laplace approximation of the marginal likelihood (Nelder-Mead over their
    logarithms from ``start``, within 1 to 400 Elo of drift and 10 to 1,500 of spread, at the
    joint optimum's constants); the constants then by :func:`marginal`."""
    if hyper is not None:
        return marginal(fit_map(games, hyper))
    best: dict[str, StrengthFit] = {}
    calls = [0]

    def clip(v: FloatArray) -> Hyper:
        drift = min(max(math.exp(v[0]), _DRIFT_RANGE[0]), _DRIFT_RANGE[1])
        spread = min(max(math.exp(v[1]), _SPREAD_RANGE[0]), _SPREAD_RANGE[1])
        return Hyper(drift, spread)

    def objective(v: FloatArray) -> float:
        calls[0] += 1
        if progress is not None:
            progress(min(calls[0], _MAX_EVIDENCE_EVALS), _MAX_EVIDENCE_EVALS)
        h = clip(v)
        fit = fit_map(games, h, start=best.get("last"), evidence=True)
        best["last"] = fit
        assert fit.log_evidence is not None
        if "best" not in best or fit.log_evidence > (best["best"].log_evidence or -math.inf):
            best["best"] = fit
        return -fit.log_evidence

    v0 = np.array([math.log(start.drift), math.log(start.spread)])
    minimize(
        objective,
        v0,
        method="Nelder-Mead",
        options={
            "xatol": 0.01,
            "fatol": 0.01,
            "maxfev": _MAX_EVIDENCE_EVALS,
            "initial_simplex": np.array([v0, v0 + np.array([0.5, 0.0]), v0 + np.array([0.0, 0.5])]),
        },
    )
    if progress is not None:
        progress(_MAX_EVIDENCE_EVALS, _MAX_EVIDENCE_EVALS)
    return marginal(best["best"])


def laplace_evidence(fit: StrengthFit, constants: FloatArray) -> tuple[float, StrengthFit]:
    """The Laplace approximation of the marginal likelihood with the constants held at
    ``constants`` (``red_advantage`` per group, then ``log draw_nu``), the strengths refitted
    from ``fit``'s; and that refit. (Exact but slow: a sparse LU each call; the tests check
    :func:`marginal`'s gradient against its central differences.)"""
    problem = _Problem(fit.layout, fit.hyper)
    x0 = fit.x.copy()
    x0[problem.n :] = constants
    x, hess = _newton(problem, x0, constants_fixed=True)
    refit = replace(fit, x=x, log_evidence=_log_evidence(problem, x, hess))
    assert refit.log_evidence is not None
    return refit.log_evidence, refit


def evidence_gradient(fit: StrengthFit) -> FloatArray:
    """The gradient in the constants of the Laplace evidence at ``fit`` (its constants, its
    strengths the optimum given them), with the strengths' posterior variances of each game's
    difference taken from the players' own blocks.

    With ``H_ss = P + sum_g w_g v_g v_g'`` (``v_g = e_red - e_black``, ``w_g = K^2 h_uu``)::

        dL/dc = d(l + log prior)/dc - 1/2 sum_g V_g dw_g/dc,   V_g = v_g' H_ss^-1 v_g

    where ``dw_g/dc`` follows ``u_g`` (directly and through the strengths, ``ds/dc =
    -H_ss^-1 H_sc``) and ``theta``; ``V_g`` is approximated by ``var[red] + var[black]`` of the
    players' own blocks (a few per cent from the exact trace on the corpus; the tests compare).
    """
    problem = _Problem(fit.layout, fit.hyper)
    _, grad, hess = problem.derivatives(fit.x)
    n = problem.n
    lay = fit.layout
    games = lay.games
    groups = lay.n_groups
    z = _solve_strengths(problem, hess, hess[:n, n:].toarray())
    d, nu = problem.d_and_nu(fit.x)
    p = davidson(d, nu)
    e = p.red - p.black
    m = p.red + p.black
    dh_du = e * p.draw - 2.0 * e * (m - e * e)
    dh_dt = p.draw * (2.0 * e * e - m)
    variance = fit.pp_var[lay.red_pp] + fit.pp_var[lay.black_pp]
    k = ELO_TO_U
    out = -grad[n:].copy()
    for j in range(2 * groups):
        du = -k * (z[lay.red_pp, j] - z[lay.black_pp, j])
        dt = np.zeros(games.size)
        if j < groups:
            du = du + k * (games.group == j)
        else:
            dt = (games.group == j - groups).astype(np.float64)
        dw = k * k * (dh_du * du + dh_dt * dt)
        out[j] -= 0.5 * float(np.sum(games.weight * variance * dw))
    return out


def _solve_strengths(problem: _Problem, hess: sp.csr_matrix, rhs: FloatArray) -> FloatArray:
    """``H_ss^-1 rhs`` column by column (conjugate gradients, the players' chains as
    preconditioner)."""
    n = problem.n
    h_ss = hess[:n, :n].tocsr()
    ab = problem.tridiagonal(hess)

    def prec(v: FloatArray) -> FloatArray:
        return np.asarray(solveh_banded(ab, v, check_finite=False))

    return np.column_stack([_cg(h_ss, rhs[:, j], prec) for j in range(rhs.shape[1])])


def marginal(fit: StrengthFit) -> StrengthFit:
    """The constants that maximise the Laplace approximation of the marginal likelihood (the
    strengths integrated out), from the joint optimum ``fit``: Newton steps ``c += cov @
    grad`` (:func:`evidence_gradient`; ``cov`` the constants' covariance) with the strengths
    refitted at each, until a step is below a hundredth of a standard error. The joint
    optimum understates ``draw_nu`` (and Red's advantage) when many players have few games:
    their strengths, shrunk towards the mean, make games look even, and even games are the
    likeliest draws. The result keeps ``map_constants``, the joint optimum's constants."""
    problem = _Problem(fit.layout, fit.hyper)
    n = problem.n
    at = fit
    for _ in range(_MAX_MARGINAL_STEPS):
        cov = at.constants_cov
        step = cov @ evidence_gradient(at)
        x0 = at.x.copy()
        x0[n:] += step
        x, hess = _newton(problem, x0, constants_fixed=True)
        at = replace(
            at,
            x=x,
            constants_cov=_constants_cov(problem, hess),
            pp_var=_block_variances(problem, hess),
            loglik=problem.loglik(x),
            log_evidence=None,
        )
        if np.all(np.abs(step) <= 0.01 * np.sqrt(np.diag(cov))):
            break
    return replace(at, map_constants=np.r_[fit.red_advantage, fit.log_nu])
