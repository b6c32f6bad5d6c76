"""The cut-and-choose equilibrium checked from scratch: every deviation of either player, from
its own information, against the solver's equilibrium, by direct numerical integration.

Nothing of :mod:`knockout.rules.decisions.cut`'s or the solver's arithmetic is used: the game's
chance comes from the game model itself (``game_probabilities`` with the stage's clocks), beliefs
are Normal densities (scipy.stats) on a 10-Elo lattice of true advantages, the estimate cells'
masses are Normal cdf differences at the cell edges, and the chooser's reply to a cut nobody names
is its own posterior's, integrated here. The solver's equilibrium enters only as its tables: each
cutter type's distribution over cut cells (a cut is uniform in its cell) and each chooser type's
P(Red) after each named cut cell.

Deviations are finer than the solver's grid: a cutter with any estimate (a 7-Elo grid) naming
any cut (0.02 minute); a chooser with any estimate replying to the exact cut it sees (8 points in
each cut cell), not to its cell. Gains are in the decisive game; the stated tolerance
(:data:`VERIFIED` ``["grid"]``) is a share of the match, so it is divided by the chance that the
decisive game is reached in the final it is reported for.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

from knockout.exact.solver import solve
from knockout.game import Colour
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.cut import CutChooseGame
from knockout.rules.decisions.gridgames import cut_equilibrium
from knockout.rules.model.strength import game_probabilities
from knockout.rules.scenario.aggregate import parse_scenario
from knockout.studies.equilibrium import VERIFIED

SD = 200.0
FINAL = parse_scenario(
    {
        "name": "t",
        "format": {"preset": "cut-choose"},
        "strategy": {"kind": "equilibrium", "belief_sd": SD},
        "players": [{"name": "A", "rating": 2600}, {"name": "B", "rating": 2550}],
    }
)
STAGE = FINAL.format.cut_stage
assert STAGE is not None and STAGE.cut is not None
MODEL = FINAL.model
TIME_CLASS = STAGE.time_class_for(MODEL.moves)
#: True advantages (the cutter's), 10 Elo apart, beyond the solver's estimates by 8 sd.
X = np.arange(-1500 - 8 * SD, 1500 + 8 * SD + 0.1, 10.0)
#: The deviators' estimates.
ESTIMATES = np.arange(-1000.0, 1001.0, 7.0)


def _red(d: np.ndarray, r: np.ndarray) -> np.ndarray:
    """P(Red advances): Red's rating minus Black's ``d``, Red's base minutes ``r``."""
    assert STAGE is not None and STAGE.cut is not None
    inc = STAGE.increment_seconds
    p = game_probabilities(
        d,
        0.0,
        TIME_CLASS,
        model=MODEL,
        red_minutes=MODEL.effective(r, inc),
        black_minutes=MODEL.effective(STAGE.cut.black_minutes, inc),
    )
    return np.asarray(p.red + p.draw if STAGE.draw_winner is Colour.RED else p.red)


def _kernel(centre: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Rows: Normal(centre, SD) densities on ``grid``, each summing to 1."""
    k = norm.pdf((grid[None, :] - centre[:, None]) / SD)
    return np.asarray(k / k.sum(axis=1, keepdims=True))


@pytest.fixture(scope="module")
def solved() -> tuple[object, float]:
    game = CutChooseGame.from_stage(STAGE, MODEL, TIME_CLASS)
    pairing = Pairing.of(FINAL.format, *FINAL.players, model=MODEL, strategy=FINAL.strategy)
    sol = solve(pairing)
    reached = float(sol.decided[0, len(FINAL.format.playable) - 1].sum())
    return cut_equilibrium(game, SD), reached


def test_the_model_here_is_the_games() -> None:
    """The game's chance computed here is the one the solver plays (a wiring check)."""
    game = CutChooseGame.from_stage(STAGE, MODEL, TIME_CLASS)
    d, r = np.array([-300.0, 0.0, 120.0]), np.array([20.0, 26.0, 40.0])
    assert _red(d, r) == pytest.approx(game.red_advances(d, r), abs=1e-15)


@pytest.mark.slow
def test_no_cutter_or_chooser_deviation_gains_against_the_cut_equilibrium(
    solved: tuple[object, float],
) -> None:
    eq, reached = solved
    tolerance = VERIFIED["grid"] / reached  # a share of the decisive game
    centres = eq.lattice.centers  # type: ignore[attr-defined]
    inner = 0.5 * (centres[1:] + centres[:-1])
    cell_edges = np.concatenate([[-np.inf], inner, [np.inf]])

    def cell_mass(mean: np.ndarray) -> np.ndarray:  # P(an estimate ~ Normal(mean, SD) per cell)
        return np.diff(norm.cdf((cell_edges[None, :] - mean[:, None]) / SD), axis=1)

    def type_of(e: np.ndarray) -> np.ndarray:
        return np.searchsorted(inner, e, side="right")

    edges, on_path = eq.edges, eq.on_path  # type: ignore[attr-defined]
    cutter, chooser_red = eq.cutter, eq.chooser_red  # type: ignore[attr-defined]

    def cutter_values(cuts: np.ndarray) -> np.ndarray:
        """(X, cuts): the cutter's chance naming each cut, by truth, against the chooser."""
        cell = np.searchsorted(edges, cuts, side="right") - 1
        inside = np.clip(cell, 0, len(on_path) - 1)
        named = (cell >= 0) & (cell < len(on_path)) & on_path[inside]
        q_named = cell_mass(-X) @ chooser_red[inside].T  # the chooser's estimate ~ N(-x, SD)
        # elsewhere the chooser keeps its own posterior: Red when its expected gain is >= 0
        z, rr = X[:, None], cuts[None, :]
        gain = _red(z, rr) + _red(-z, rr) - 1.0
        red_by_estimate = (_kernel(X, X) @ gain) >= 0
        q_own = _kernel(-X, X) @ red_by_estimate
        q = np.where(named[None, :], q_named, q_own)
        return q * (1.0 - _red(-z, rr)) + (1.0 - q) * _red(z, rr)

    sub = (np.arange(8) + 0.5) / 8
    points = edges[:-1, None] + np.diff(edges)[:, None] * sub  # (cut cells, 8)
    cell_value = cutter_values(points.ravel()).reshape(len(X), -1, 8).mean(axis=2)
    cuts = np.arange(edges[0] - 0.5, edges[-1] + 0.5, 0.02)
    belief = _kernel(ESTIMATES, X)  # the cutter's belief over its advantage
    best = (belief @ cutter_values(cuts)).max(axis=1)

    def cutter_gain(table: np.ndarray) -> float:
        played = np.sum(table[type_of(ESTIMATES)] * (belief @ cell_value), axis=1)
        return float(np.max(best - played))

    # the chooser (own advantage -x) sees the exact cut; its belief over x weighs its estimate's
    # density by the chance that the cutter names that cut's cell
    reach = cell_mass(X) @ cutter  # (X, cut cells)
    chooser_gain = np.zeros(len(ESTIMATES))
    seen = _kernel(ESTIMATES, -X)
    for k in np.flatnonzero(on_path):
        r = points[k][None, :]
        w = seen * reach[:, k][None, :]  # P(x and this cut cell | the chooser's estimate)
        with_red, with_black = w @ _red(-X[:, None], r), w @ (1.0 - _red(X[:, None], r))
        p = chooser_red[k, type_of(ESTIMATES)][:, None]
        now = p * with_red + (1 - p) * with_black
        chooser_gain += np.mean(np.maximum(with_red, with_black) - now, axis=1)

    assert cutter_gain(cutter) <= tolerance, (cutter_gain(cutter), tolerance)
    assert float(chooser_gain.max()) <= tolerance, (float(chooser_gain.max()), tolerance)
    # the check has teeth: a cutter naming the rational cut of its estimate's cell (the solver's
    # starting point) against the same chooser gains more than the tolerance by deviating
    game = CutChooseGame.from_stage(STAGE, MODEL, TIME_CLASS)
    start = np.clip(np.searchsorted(edges, game.rational_cut(centres)) - 1, 0, len(on_path) - 1)
    naive = np.zeros_like(cutter)
    naive[np.arange(len(centres)), start] = 1.0
    assert cutter_gain(naive) > tolerance
