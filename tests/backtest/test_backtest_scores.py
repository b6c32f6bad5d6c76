"""Scores of three-outcome forecasts against a hand computation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from knockout.backtest.scores import (
    differences,
    expected_calibration_error,
    per_game,
    reliability,
    scores,
)

# Four games: forecasts (Red, draw, Black) and what happened.
P = np.array([[0.5, 0.3, 0.2], [0.25, 0.5, 0.25], [0.6, 0.3, 0.1], [0.05, 0.15, 0.8]])
OUTCOME = np.array([0, 1, 2, 2])


def test_each_score_by_hand() -> None:
    each = per_game(P, OUTCOME)
    # log loss: -ln of the probability given to what happened
    assert each["log_loss"].tolist() == pytest.approx(
        [-math.log(0.5), -math.log(0.5), -math.log(0.1), -math.log(0.8)]
    )
    # Brier: (0.5-1)^2 + 0.3^2 + 0.2^2 = 0.38; 0.0625 + 0.25 + 0.0625 = 0.375;
    # 0.36 + 0.09 + 0.81 = 1.26; 0.0025 + 0.0225 + 0.04 = 0.065
    assert each["brier"].tolist() == pytest.approx([0.38, 0.375, 1.26, 0.065])
    # RPS: cumulative (Red, Red+draw) against the outcome's: game 1 (0.5, 0.8) v (1, 1):
    # (0.25 + 0.04) / 2; game 2 (0.25, 0.75) v (0, 1): (0.0625 + 0.0625) / 2;
    # game 3 (0.6, 0.9) v (0, 0): (0.36 + 0.81) / 2; game 4 (0.05, 0.2) v (0, 0)
    assert each["rps"].tolist() == pytest.approx([0.145, 0.0625, 0.585, 0.02125])


def test_means_standard_errors_and_the_ece() -> None:
    s = scores(P, OUTCOME)
    brier = np.array([0.38, 0.375, 1.26, 0.065])
    assert s.n == 4
    assert s.brier.mean == pytest.approx(brier.mean())
    assert s.brier.stderr == pytest.approx(brier.std(ddof=1) / 2)
    # ECE of P(Red): bins [0.0-0.1): 0.05 (no Red win); [0.2-0.3): 0.25 (no); [0.5-0.6): 0.5
    # (won); [0.6-0.7): 0.6 (no): (0.05 + 0.25 + 0.5 + 0.6) / 4
    assert s.ece == pytest.approx((0.05 + 0.25 + 0.5 + 0.6) / 4)
    json = s.to_json()
    assert list(json) == ["log_loss", "log_loss_se", "brier", "brier_se", "rps", "rps_se", "ece"]


def test_paired_differences_are_scored_game_by_game() -> None:
    uniform = np.full_like(P, 1 / 3)
    d = differences(P, uniform, OUTCOME)["log_loss"]
    each = -np.log(P[np.arange(4), OUTCOME]) - math.log(3)
    assert d.mean == pytest.approx(each.mean()) and d.stderr == pytest.approx(each.std(ddof=1) / 2)


def test_reliability_bins_and_wilson_intervals() -> None:
    prob = np.array([0.05, 0.15, 0.15, 0.95, 1.0])
    outcome = np.array([1, 0, 2, 0, 0])  # Red won games 2, 4 and 5
    p = np.column_stack([prob, (1 - prob) / 2, (1 - prob) / 2])
    r = reliability(p, outcome, 0)
    assert r.count.tolist() == [1, 2, 0, 0, 0, 0, 0, 0, 0, 2]  # 1.0 falls in the last bin
    assert r.forecast[1] == pytest.approx(0.15) and r.observed[1] == pytest.approx(0.5)
    # Wilson: n = 2, observed 1/2: centre 1/2, half-width z sqrt(1/8 + z^2/16) / (1 + z^2/2)
    z = 1.959963984540054
    half = z * math.sqrt(0.25 / 2 + z * z / 16) / (1 + z * z / 2)
    assert r.low[1] == pytest.approx(0.5 - half) and r.high[1] == pytest.approx(0.5 + half)
    assert r.ece == expected_calibration_error(prob, (outcome == 0).astype(float))
    assert [b["lower"] for b in r.to_json()["bins"]] == [0.0, 0.1, 0.9]
