"""One game's log-likelihood under the model, with its derivatives, from the model's own formula.

The probabilities come from :func:`knockout.rules.model.strength.davidson` (the one place the
formula lives); the derivatives follow from Davidson's exponential-family form. With
``u = d * ln(10) / 800`` (so ``g = 10 ** (d / 400) = exp(2u)``) and ``theta = log(nu)``::

    P(Red) = exp(u) / Z,  P(draw) = exp(theta) / Z,  P(Black) = exp(-u) / Z,
    Z = exp(u) + exp(-u) + exp(theta)

so ``log P(y) = t(y) . (u, theta) - log Z`` with ``t(Red) = (1, 0)``, ``t(draw) = (0, 1)``,
``t(Black) = (-1, 0)``. The score is ``t(y) - E t`` and the Hessian of ``-log P`` is the
covariance of ``t``, whatever ``y`` is::

    score_u     = t_u - (p_red - p_black)          h_uu = p_red + p_black - (p_red - p_black)^2
    score_theta = [y = draw] - p_draw              h_ut = -(p_red - p_black) * p_draw
                                                   h_tt = p_draw * (1 - p_draw)

The log-likelihood is therefore concave in ``(u, theta)``, and in anything ``u`` is linear in.
``docs/calibration.md`` derives the same form for the rating-based fit.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from knockout.arrays import FloatArray, IntArray
from knockout.rules.model.strength import davidson

__all__ = ["ELO_TO_U", "GameTerms", "game_terms"]

#: ``u = ELO_TO_U * d``: half the natural logarithm of ``g = 10 ** (d / 400)``.
ELO_TO_U = math.log(10.0) / 800.0


class GameTerms(NamedTuple):
    """Per game: the log-likelihood, the score and the Hessian of ``-log P`` in ``(u, theta)``."""

    loglik: FloatArray
    score_u: FloatArray
    score_theta: FloatArray
    h_uu: FloatArray
    h_ut: FloatArray
    h_tt: FloatArray


def game_terms(d: FloatArray, nu: FloatArray, result: IntArray) -> GameTerms:
    """The terms of games with strength differences ``d`` (Elo, Red minus Black, Red's
    advantage included), draw parameters ``nu`` (> 0) and results ``result`` (0 Red win,
    1 draw, 2 Black win), all of one shape.

    >>> t = game_terms(np.array([0.0]), np.array([1.0]), np.array([1]))
    >>> round(float(t.loglik[0]), 12) == round(math.log(1 / 3), 12), float(t.score_theta[0])
    (True, 0.6666666666666667)
    """
    p = davidson(d, nu)
    probs = np.stack([p.red, p.draw, p.black])
    chosen = np.take_along_axis(probs, result[None, :], axis=0)[0]
    edge = p.red - p.black
    t_u = (result == 0).astype(np.float64) - (result == 2)
    return GameTerms(
        loglik=np.log(chosen),
        score_u=t_u - edge,
        score_theta=(result == 1).astype(np.float64) - p.draw,
        h_uu=p.red + p.black - edge * edge,
        h_ut=-edge * p.draw,
        h_tt=p.draw * (1.0 - p.draw),
    )
