"""How far the fitted constants' own uncertainty (``[model.sd]``) moves the scoring study's figures.

The study's model has two constants that matter for classical games between any two players:
Red's advantage ``a`` (Elo) and the draw parameter ``nu``. Seed 000's 1,218 games pin them only
so far (``knockout calibrate``: 64.3 ± 13.7 Elo and 1.714 ± 0.099, correlation 0.125). A study
file may say so in ``[model.sd]`` (and ``[model] correlation``), as a scenario does; every figure
then carries ``sd_constants``: its standard deviation over the constants' uncertainty, by the
delta method, ``sqrt(g' C g)``, with

* ``C`` the covariance of ``theta = (a, log nu)``, the coordinates in which ``[model.sd]``
  draws (``a`` Normal, ``nu`` log-normal with ``sd(log nu) = sd / nu``; knockout.rules.model.sd);
* ``g`` the figure's gradient in ``theta``: for an exact figure (a function of the constants
  alone) by central differences (:func:`exact_sd`); for a simulated figure by the likelihood-ratio
  (score-function) estimator (:func:`simulated_sd`): the derivative of an expectation
  ``E_theta[f]`` is ``Cov(f, s)``, ``s`` the derivative of the log-probability of the event's
  games (:func:`game_scores`, summed over the event's games), estimated over the simulated events
  themselves, so no event is simulated again. This holds for Swiss events too: the pairings are
  a function of the earlier results, so the probability of an event's whole course is the product
  of its games' probabilities.

For equal players the model is a reparametrisation of the trinomial of Red win, draw, Black win,
so the delta method through ``C`` gives the multinomial standard errors of seed 000's own
counts (the ratio method's Red edge, +0.036 ± 0.042 a game; tests check this).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from knockout.rules.model.sd import ModelSd
from knockout.rules.model.strength import ModelParams, TimeClass, game_probabilities

__all__ = [
    "ALONG",
    "constants_covariance",
    "exact_sd",
    "game_scores",
    "has_uncertainty",
    "simulated_gradient",
    "simulated_sd",
]

FloatArray = npt.NDArray[np.float64]
#: The two coordinates, in order.
ALONG = ("red_advantage", "log draw_nu")
#: Central-difference steps: Elo, and log draw_nu.
_STEPS = (0.5, 1e-3)
_CLASSICAL = TimeClass.CLASSICAL


def has_uncertainty(sd: ModelSd) -> bool:
    """Whether the classical Red advantage or draw parameter has a standard deviation."""
    return sd.red_advantage[_CLASSICAL] > 0 or sd.draw_nu[_CLASSICAL] > 0


def constants_covariance(model: ModelParams, sd: ModelSd) -> FloatArray:
    """``(2, 2)`` the covariance of ``(red_advantage, log draw_nu)`` (classical)."""
    nu = float(model.draw_nu[_CLASSICAL])
    sd_a = float(sd.red_advantage[_CLASSICAL])
    sd_l = float(sd.draw_nu[_CLASSICAL]) / nu if nu > 0 else 0.0
    rho = sd.rho("red_advantage.classical", "draw_nu.classical")
    return np.array(
        [[sd_a * sd_a, rho * sd_a * sd_l], [rho * sd_a * sd_l, sd_l * sd_l]], dtype=np.float64
    )


def _shifted(model: ModelParams, along: int, step: float) -> ModelParams:
    """``model`` with ``red_advantage`` (``along`` 0) or ``log draw_nu`` (1) moved by ``step``."""
    if along == 0:
        a = float(model.red_advantage[_CLASSICAL])
        return model.with_overrides(red_advantage={"classical": a + step})
    nu = float(model.draw_nu[_CLASSICAL])
    return model.with_overrides(draw_nu={"classical": nu * math.exp(step)})


def exact_sd(figure: Callable[[ModelParams], float], model: ModelParams, cov: FloatArray) -> float:
    """The standard deviation of ``figure(model)`` over the constants (central differences)."""
    if not cov.any():
        return 0.0
    grad = np.array(
        [
            (figure(_shifted(model, k, h)) - figure(_shifted(model, k, -h))) / (2 * h)
            for k, h in enumerate(_STEPS)
        ]
    )
    return math.sqrt(max(float(grad @ cov @ grad), 0.0))


def game_scores(
    red_rating: npt.ArrayLike, black_rating: npt.ArrayLike, results: npt.ArrayLike,
    model: ModelParams,
) -> FloatArray:  # fmt: skip
    """``(..., 2)`` each classical game's derivative of ``log P(its result)`` in
    ``(red_advantage, log draw_nu)``, by central differences of the model's own probabilities
    (results coded 0 Red wins, 1 draw, 2 Black wins; any shape, broadcast)."""
    codes = np.asarray(results, dtype=np.int64)
    out = []
    for k, h in enumerate(_STEPS):
        logs = []
        for step in (h, -h):
            p = game_probabilities(
                red_rating, black_rating, _CLASSICAL, model=_shifted(model, k, step)
            )
            chosen = np.choose(codes, [p.red, p.draw, p.black])
            logs.append(np.log(chosen))
        out.append((logs[0] - logs[1]) / (2 * h))
    return np.stack(out, axis=-1)


def simulated_gradient(values: FloatArray, scores: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The gradient in ``(red_advantage, log draw_nu)`` of the mean of ``values`` (one per
    simulated event), ``Cov(values, scores)``, and its standard error (events whose value is
    undefined, NaN, are left out; NaN with fewer than two)."""
    keep = np.isfinite(values)
    n = int(keep.sum())
    if n < 2:
        return np.full(2, math.nan), np.full(2, math.nan)
    f = values[keep] - values[keep].mean()
    s = scores[keep] - scores[keep].mean(axis=0)
    products = f[:, None] * s
    grad = products.sum(axis=0) / (n - 1)
    return grad, products.std(axis=0, ddof=1) / math.sqrt(n)


def simulated_sd(values: FloatArray, scores: FloatArray, cov: FloatArray) -> float:
    """The standard deviation over the constants of the mean of ``values`` (one per simulated
    event), ``sqrt(g' C g)`` with ``g`` from :func:`simulated_gradient` (the likelihood-ratio
    estimator). NaN with fewer than two events."""
    if np.isfinite(values).sum() < 2:
        return math.nan
    if not cov.any():
        return 0.0
    grad, _ = simulated_gradient(values, scores)
    return math.sqrt(max(float(grad @ cov @ grad), 0.0))
