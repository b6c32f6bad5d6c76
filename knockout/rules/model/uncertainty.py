"""Rating uncertainty: a player's true strength is their rating plus ``Normal(0, rating_sd)``.

The exact walkers integrate over it with Gauss-Hermite quadrature (:func:`normal_nodes`); the
Monte Carlo and the engine draw it once per simulated or played event. Only differences of
strength enter the model, so a match depends on ``Normal(0, hypot(sd_A, sd_B))``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from knockout.arrays import FloatArray
from knockout.rules.model.players import Player

__all__ = [
    "BRACKET_NODES",
    "MATCH_NODES",
    "bracket_nodes",
    "draw_strengths",
    "normal_nodes",
    "piecewise_normal_nodes",
]

#: Gauss-Legendre nodes per smooth piece of a match's integral over the difference of the two
#: draws (the pieces end where a rational decision flips, so each piece is smooth).
MATCH_NODES = 12
#: The match integral is taken over +-SPAN standard deviations (the mass beyond is 1e-15) ...
SPAN = 8.0
#: ... cut into pieces PIECE standard deviations wide (and at every break): one 16-sd piece
#: leaves errors of 1e-3, 2-sd pieces of 12 nodes about 1e-14 on a smooth win curve.
PIECE = 2.0
#: Gauss-Hermite nodes per player in the bracket's dynamic programme (every pair needs nodes
#: squared solutions), by the largest rating_sd in the field: against a brute-force integral
#: (``tests/exact/test_rating_sd.py``) the error of a title chance is below 1e-5 with 11 nodes
#: up to 200 Elo, 21 nodes up to 350 and 41 nodes up to 500 (the largest rating_sd accepted).
BRACKET_NODES = ((200.0, 11), (350.0, 21), (500.0, 41))


def bracket_nodes(max_sd: float) -> int:
    """Gauss-Hermite nodes per player for a bracket whose largest rating_sd is ``max_sd``."""
    for limit, k in BRACKET_NODES:
        if max_sd <= limit:
            return k
    return BRACKET_NODES[-1][1]


@functools.lru_cache(maxsize=16)
def normal_nodes(k: int) -> tuple[FloatArray, FloatArray]:
    """Nodes ``z`` and weights ``w`` (summing to 1) with ``sum(w f(z)) ~ E[f(Z)]``,
    ``Z ~ Normal(0, 1)`` (probabilists' Gauss-Hermite, exact for polynomials of degree 2k - 1).

    >>> z, w = normal_nodes(5)
    >>> round(float(w @ z**2), 12), round(float(w @ z**4), 12)
    (1.0, 3.0)
    """
    z, w = np.polynomial.hermite_e.hermegauss(k)
    return z, w / w.sum()


def piecewise_normal_nodes(
    sd: float, breaks: npt.ArrayLike = (), k: int = MATCH_NODES
) -> tuple[FloatArray, FloatArray]:
    """Nodes ``x`` and weights ``w`` with ``sum(w f(x)) ~ E[f(X)]``, ``X ~ Normal(0, sd)``, for
    an ``f`` that is smooth except at ``breaks`` (where a decision flips and ``f`` may jump):
    Gauss-Legendre with ``k`` nodes on each piece between the breaks and on every ``PIECE`` sd,
    over ``+-SPAN`` sd, each node weighted by the Normal density (about 1e-14 on a smooth
    curve; tested against a brute-force integral in ``tests/exact/test_rating_sd.py``).

    >>> x, w = piecewise_normal_nodes(100.0, breaks=[30.0])
    >>> round(float(w.sum()), 12), round(float(w @ (x > 30)), 9)
    (1.0, 0.382088578)
    """
    lo, hi = -SPAN * sd, SPAN * sd
    grid = np.arange(-SPAN, SPAN + PIECE / 2, PIECE) * sd
    inner = np.asarray(breaks, dtype=np.float64).ravel()
    edges = np.unique(np.clip(np.concatenate([grid, inner]), lo, hi))
    t, tw = np.polynomial.legendre.leggauss(k)
    xs, ws = [], []
    for a, b in itertools.pairwise(edges):
        if b - a <= 0:
            continue
        x = 0.5 * (b - a) * t + 0.5 * (a + b)
        xs.append(x)
        ws.append(0.5 * (b - a) * tw * np.exp(-0.5 * (x / sd) ** 2))
    x_all, w_all = np.concatenate(xs), np.concatenate(ws)
    return x_all, w_all / w_all.sum()


def draw_strengths(players: Sequence[Player], rng: np.random.Generator) -> tuple[Player, ...]:
    """The players at their true strengths for one event: each rating moved by a
    ``Normal(0, rating_sd)`` draw, in order (no random number is used when every sd is 0)."""
    if all(p.rating_sd == 0 for p in players):
        return tuple(players)
    return tuple(p.shifted(float(rng.normal(0.0, p.rating_sd))) for p in players)
