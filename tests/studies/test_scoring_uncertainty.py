"""The scoring study's figures over the fitted constants' uncertainty (uncertainty.py): the game
scores against the Davidson model's derivatives in closed form, the exact figures' standard
deviations against the multinomial of seed 000's own counts, and the likelihood-ratio gradient
of a simulated figure against finite differences of re-simulated events (common numbers)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from knockout.points import get_scoring
from knockout.rules.model.sd import ModelSd
from knockout.rules.model.strength import DEFAULT_MODEL, PerClass, TimeClass
from knockout.studies.scoring.events import PointsTable, simulate_round_robin
from knockout.studies.scoring.study import exact_value
from knockout.studies.scoring.uncertainty import (
    constants_covariance,
    exact_sd,
    game_scores,
    simulated_gradient,
)

#: knockout calibrate on seed 000's 1,218 games (391 / 557 / 270).
SEED_SD = ModelSd(
    red_advantage=PerClass(13.74595037145674, 0.0, 0.0),
    draw_nu=PerClass(0.0993793622138056, 0.0, 0.0),
    correlation=(("red_advantage.classical", "draw_nu.classical", 0.12493183337029884),),
)
K = math.log(10) / 800


def test_game_scores_are_the_davidson_derivatives() -> None:
    """With u = K d and Z = e^u + e^-u + nu: d log P/d a is K (1 - t), -K t, K (-1 - t) for
    Red win, draw, Black win (t = (e^u - e^-u) / Z), and d log P/d log nu is -nu/Z, 1 - nu/Z,
    -nu/Z."""
    red = np.array([2400.0, 2500.0, 2300.0, 2450.0])
    black = np.array([2400.0, 2350.0, 2500.0, 2450.0])
    results = np.array([0, 1, 2, 1])
    got = game_scores(red, black, results, DEFAULT_MODEL)
    a = DEFAULT_MODEL.red_advantage[TimeClass.CLASSICAL]
    nu = DEFAULT_MODEL.draw_nu[TimeClass.CLASSICAL]
    u = K * (red - black + a)
    z = np.exp(u) + np.exp(-u) + nu
    t = (np.exp(u) - np.exp(-u)) / z
    d_a = np.choose(results, [K * (1 - t), -K * t, K * (-1 - t)])
    d_nu = np.choose(results, [-nu / z, 1 - nu / z, -nu / z])
    assert got[:, 0] == pytest.approx(d_a, rel=1e-6)
    assert got[:, 1] == pytest.approx(d_nu, rel=1e-6)


@pytest.mark.parametrize(
    ("system", "red_win", "black_win"),
    [("traditional", 2.0, 2.0), ("difference", 1.9, 2.1), ("ratio", 1.7, 2.3)],
)
def test_exact_sd_is_the_multinomial_of_seed_000s_counts(
    system: str, red_win: float, black_win: float
) -> None:
    """Red's edge a game between equal players is x p_r - y p_b; over one multinomial sample of
    n games its standard error is sqrt((x^2 p_r + y^2 p_b - edge^2) / n). The model is a
    reparametrisation of the trinomial, so the delta method through the fit's covariance gives
    the same."""
    r, d, b = 391, 557, 270
    n = r + d + b
    p_r, p_b = r / n, b / n
    edge = red_win * p_r - black_win * p_b
    multinomial = math.sqrt((red_win**2 * p_r + black_win**2 * p_b - edge**2) / n)
    cov = constants_covariance(DEFAULT_MODEL, SEED_SD)
    scoring = get_scoring(system)
    got = exact_sd(lambda m: exact_value(scoring, m)[0], DEFAULT_MODEL, cov)
    assert exact_value(scoring, DEFAULT_MODEL)[0] == pytest.approx(edge, abs=1e-9)
    assert got == pytest.approx(multinomial, rel=2e-3)
    if system == "ratio":
        assert (round(edge, 3), round(got, 3)) == (0.036, 0.042)


def test_the_likelihood_ratio_gradient_matches_finite_differences() -> None:
    """Round robins of 8 players: the gradient of a simulated figure (the mean Red edge a game,
    and the extra Red's gain) from the events' own scores against central differences of the
    same events re-simulated at moved constants on the same uniforms, within 4 standard errors
    of the likelihood-ratio estimate plus the differences' own noise."""
    rng = np.random.default_rng(5)
    events = 20_000
    ratings = rng.normal(2400, 100, (events, 8))
    u = rng.random((events, 7, 4))
    table = [PointsTable.from_system(get_scoring("ratio"), 100)]
    base = simulate_round_robin(ratings, table, u, model=DEFAULT_MODEL, with_scores=True)[0]
    assert base.scores is not None

    def figures(sample):  # type: ignore[no-untyped-def]
        """Red's edge a game (moves with a) and points a game (moves with the draws)."""
        per_game = sample.game_points / sample.scale / (sample.games.sum(axis=1) / 2)
        return [sample.red_edge, per_game]

    a = DEFAULT_MODEL.red_advantage[TimeClass.CLASSICAL]
    nu = DEFAULT_MODEL.draw_nu[TimeClass.CLASSICAL]
    steps = (20.0, 0.2)
    for k, h in enumerate(steps):
        values = figures(base)[k]
        grad, grad_se = simulated_gradient(values, base.scores)
        means = []
        for sign in (1, -1):
            if k == 0:
                model = DEFAULT_MODEL.with_overrides(red_advantage={"classical": a + sign * h})
            else:
                model = DEFAULT_MODEL.with_overrides(draw_nu={"classical": nu * math.exp(sign * h)})
            means.append(figures(simulate_round_robin(ratings, table, u, model=model)[0])[k])
        diff = (means[0] - means[1]) / (2 * h)
        fd, fd_se = float(diff.mean()), float(diff.std(ddof=1) / math.sqrt(events))
        assert abs(fd) > 4 * fd_se  # the figure does depend on the constant
        assert abs(grad[k] - fd) < 4 * math.hypot(grad_se[k], fd_se), (k, grad[k], fd)
