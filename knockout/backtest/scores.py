"""Scores of probability forecasts of a game's three outcomes, with their standard errors.

A forecast is ``(p_red, p_draw, p_black)``; the outcome is 0 (Red won), 1 (draw) or 2 (Black
won). Per game:

* **log loss** ``-ln p[outcome]`` (natural logarithms; 0 is perfect, ``ln 3 = 1.0986`` is the
  uniform forecast);
* **Brier score** ``sum_k (p_k - o_k)^2`` over the three outcomes (``o`` the outcome's
  indicator; 0 to 2, the uniform forecast 2/3);
* **ranked probability score** ``((P_1 - O_1)^2 + (P_2 - O_2)^2) / 2`` with ``P``, ``O`` the
  cumulative forecast and outcome in the order Red win, draw, Black win (0 to 1; it counts a
  draw as nearer a win than a loss is).

Each score is the mean over the games, its standard error ``sd / sqrt(n)`` (games taken as
independent); a difference between two forecasters is scored game by game (paired), so its
standard error is that of the per-game differences. The **expected calibration error** of one
outcome's probability puts the forecasts into 10 equal-width bins of ``[0, 1]`` and sums, over
the bins, the share of games in the bin times ``|mean forecast - observed share|``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import ndtri

from knockout.arrays import FloatArray, IntArray

__all__ = [
    "ECE_BINS",
    "OUTCOMES",
    "Reliability",
    "Score",
    "Scores",
    "expected_calibration_error",
    "per_game",
    "reliability",
    "scores",
]

#: The outcomes in forecast order.
OUTCOMES = ("red", "draw", "black")
#: Equal-width bins of the expected calibration error and the reliability diagrams.
ECE_BINS = 10
_Z95 = float(ndtri(0.975))


def per_game(p: FloatArray, outcome: IntArray) -> dict[str, FloatArray]:
    """Each game's log loss, Brier score and ranked probability score.

    Args:
        p: Forecasts, shape ``(games, 3)``, rows summing to 1.
        outcome: 0, 1 or 2 per game.

    >>> s = per_game(np.array([[0.5, 0.3, 0.2]]), np.array([1]))
    >>> [round(float(s[k][0]), 6) for k in ("log_loss", "brier", "rps")]
    [1.203973, 0.78, 0.145]
    """
    n = p.shape[0]
    o = np.zeros_like(p)
    o[np.arange(n), outcome] = 1.0
    chosen = p[np.arange(n), outcome]
    cum_p = np.cumsum(p, axis=1)[:, :2]
    cum_o = np.cumsum(o, axis=1)[:, :2]
    return {
        "log_loss": -np.log(chosen),
        "brier": np.sum((p - o) ** 2, axis=1),
        "rps": np.sum((cum_p - cum_o) ** 2, axis=1) / 2.0,
    }


@dataclass(frozen=True)
class Score:
    """A mean over games with its standard error."""

    mean: float
    stderr: float

    @classmethod
    def of(cls, values: FloatArray) -> Score:
        """The mean of ``values`` and ``sd / sqrt(n)`` (0 for one value)."""
        n = values.shape[0]
        sd = float(np.std(values, ddof=1)) if n > 1 else 0.0
        return cls(float(np.mean(values)), sd / math.sqrt(n))

    def to_json(self) -> dict[str, float]:
        """``{"estimate", "stderr"}``."""
        return {"estimate": self.mean, "stderr": self.stderr}


def expected_calibration_error(
    prob: FloatArray, happened: FloatArray, bins: int = ECE_BINS
) -> float:
    """``sum_b n_b / n * |mean forecast_b - observed share_b|`` over ``bins`` equal-width bins
    (a forecast of exactly 1 falls in the last).

    >>> e = expected_calibration_error(np.array([0.05, 0.15, 0.15]), np.array([0.0, 1.0, 0.0]))
    >>> round(e, 12)
    0.25
    """
    at = np.minimum((prob * bins).astype(np.intp), bins - 1)
    total = 0.0
    for b in range(bins):
        mine = at == b
        if mine.any():
            total += float(mine.sum()) * abs(
                float(prob[mine].mean()) - float(happened[mine].mean())
            )
    return total / float(prob.shape[0])


@dataclass(frozen=True)
class Scores:
    """A forecaster's scores over a set of games.

    Attributes:
        n: Games scored.
        log_loss: Mean log loss (natural logarithms).
        brier: Mean Brier score.
        rps: Mean ranked probability score.
        ece: Expected calibration error of P(Red win), 10 equal-width bins.
    """

    n: int
    log_loss: Score
    brier: Score
    rps: Score
    ece: float

    def to_json(self) -> dict[str, float]:
        """``scores.json``'s keys: ``log_loss, log_loss_se, brier, brier_se, rps, rps_se,
        ece``."""
        return {
            "log_loss": self.log_loss.mean,
            "log_loss_se": self.log_loss.stderr,
            "brier": self.brier.mean,
            "brier_se": self.brier.stderr,
            "rps": self.rps.mean,
            "rps_se": self.rps.stderr,
            "ece": self.ece,
        }


def scores(p: FloatArray, outcome: IntArray) -> Scores:
    """The scores of forecasts ``p`` (shape ``(games, 3)``) against ``outcome``."""
    each = per_game(p, outcome)
    return Scores(
        p.shape[0],
        Score.of(each["log_loss"]),
        Score.of(each["brier"]),
        Score.of(each["rps"]),
        expected_calibration_error(p[:, 0], (outcome == 0).astype(np.float64)),
    )


def differences(p: FloatArray, q: FloatArray, outcome: IntArray) -> dict[str, Score]:
    """Score of ``p`` minus score of ``q``, game by game (negative: ``p`` is better)."""
    a, b = per_game(p, outcome), per_game(q, outcome)
    return {name: Score.of(a[name] - b[name]) for name in a}


@dataclass(frozen=True)
class Reliability:
    """One outcome's reliability diagram: per bin of the forecast probability.

    Attributes:
        outcome: ``red``, ``draw`` or ``black``.
        lower: Each bin's lower edge.
        count: Games in the bin.
        forecast: Mean forecast probability in the bin (nan if empty).
        observed: Share of the bin's games with the outcome (nan if empty).
        low: Lower end of the observed share's 95 % Wilson interval.
        high: Upper end.
        ece: The outcome's expected calibration error.
    """

    outcome: str
    lower: FloatArray
    count: IntArray
    forecast: FloatArray
    observed: FloatArray
    low: FloatArray
    high: FloatArray
    ece: float

    def to_json(self) -> dict[str, Any]:
        """Per bin ``{"lower", "games", "forecast", "observed", "low", "high"}`` (non-empty
        bins), and ``ece``."""
        bins = [
            {
                "lower": float(self.lower[b]),
                "games": int(self.count[b]),
                "forecast": float(self.forecast[b]),
                "observed": float(self.observed[b]),
                "low": float(self.low[b]),
                "high": float(self.high[b]),
            }
            for b in range(self.lower.shape[0])
            if self.count[b] > 0
        ]
        return {"outcome": self.outcome, "ece": self.ece, "bins": bins}


def reliability(p: FloatArray, outcome: IntArray, which: int, bins: int = ECE_BINS) -> Reliability:
    """The reliability diagram of outcome ``which`` (0, 1, 2) over ``bins`` equal-width bins,
    the observed shares with 95 % Wilson intervals."""
    prob = p[:, which]
    happened = (outcome == which).astype(np.float64)
    at = np.minimum((prob * bins).astype(np.intp), bins - 1)
    count = np.bincount(at, minlength=bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        forecast = np.bincount(at, prob, minlength=bins) / count
        observed = np.bincount(at, happened, minlength=bins) / count
        z2 = _Z95**2
        centre = (observed + z2 / (2 * count)) / (1 + z2 / count)
        half = (
            _Z95
            * np.sqrt(observed * (1 - observed) / count + z2 / (4 * count**2))
            / (1 + z2 / count)
        )
    return Reliability(
        OUTCOMES[which],
        np.arange(bins) / bins,
        count,
        forecast,
        observed,
        centre - half,
        centre + half,
        expected_calibration_error(prob, happened, bins),
    )
