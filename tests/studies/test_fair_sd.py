"""fair over uncertain constants against brute force written from the rules alone, and the
committee's sentences computed from the numbers (contradicting numbers, other verdicts)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from scipy.optimize import brentq

from knockout.io.scenario import load_scenario
from knockout.rules.model.precision import fixed
from knockout.rules.model.sd import FigureSpread
from knockout.studies.fair import FairClockSpread, fair_rules
from knockout.studies.fair_report import SETTLED, how_sure
from tests.conftest import SCENARIOS
from tests.exact.test_uncertain_answers import assert_matches, brute_constants

HOW_SURE = SCENARIOS / "final-how-sure.toml"
INC = 10.0  # the sudden-death stage's increment (seconds): effective clock = base + 10 min


def red_wins(ra: float, nu: float, elo: float, red: float, black: float) -> tuple[float, float]:
    """P(Red wins), P(draw) between equal players on [red, black] base minutes (MODEL.md)."""
    d = ra + elo * math.log2((red + 60 * INC / 60) / (black + 60 * INC / 60))
    g = 10 ** (d / 400)
    z = g + 1 + nu * math.sqrt(g)
    return g / z, nu * math.sqrt(g) / z


def seed_edge(ra: float, nu: float, elo: float) -> float:
    """The chooser's edge between equals under the seed's menu, the rational rule written out:
    accept 30/10 with 甲 on the colour announced; an objection to Red puts 甲 on Black with
    10/30, to Black on Red with 35/5; a draw is Black's; 乙 objects when that is worse for 甲;
    甲 announces the better colour (Red on a tie)."""

    def red(r: float, b: float) -> float:
        return red_wins(ra, nu, elo, r, b)[0]

    def black(r: float, b: float) -> float:
        return 1 - red(r, b)  # Black wins or draws

    red_value = min(red(30, 10), black(10, 30))
    black_value = min(black(30, 10), red(35, 5))
    return max(red_value, black_value) - 0.5


def fair_red(ra: float, nu: float, elo: float, black: float = 10.0) -> float:
    """Red's minutes at which Red advances half the time against Black's: +inf where none up
    to ten times Black's is (more time still helps), -inf where Red is ahead without time."""

    def f(r: float) -> float:
        return red_wins(ra, nu, elo, r, black)[0] - 0.5

    lo, hi = 1e-9, 10 * black
    if f(lo) > 0:
        return -math.inf
    if f(hi) < 0:
        return math.inf
    return float(brentq(f, lo, hi, xtol=1e-10))


def test_the_rules_written_out_give_the_central_answer() -> None:
    sc = load_scenario(HOW_SURE)
    f = fair_rules(sc, verify=False, model_sd=False)
    ra, nu, elo = sc.model.red_advantage.rapid, sc.model.draw_nu.rapid, 120.0
    assert abs(seed_edge(ra, nu, elo) - (f.advantage["seed_menu"] or 0)) < 1e-12
    assert f.red is not None and abs(fair_red(ra, nu, elo) - f.red) < 1e-8


@pytest.mark.slow
def test_fair_against_brute_force() -> None:
    sc = load_scenario(HOW_SURE)
    f = fair_rules(sc, verify=False)
    spread = f.model_uncertainty
    assert spread is not None
    n = 4096
    draws = brute_constants(sc, n, seed=3)
    ra, nu, elo = (draws[p] for p in ("red_advantage.rapid", "draw_nu.rapid",
                                       "elo_per_doubling.rapid"))  # fmt: skip
    edges = np.array([seed_edge(*c) for c in zip(ra, nu, elo, strict=True)])
    reds = np.array([fair_red(*c) for c in zip(ra, nu, elo, strict=True)])
    path = "chooser_advantage.seed_menu"
    assert_matches(spread.figures[path], spread.stderr[path], edges)
    # the fair clock over every draw: the share without one, the open upper end (above the
    # cap in more than 2.5 % of the draws), the lower end among all draws; and where a fair
    # clock exists, its spread there
    red = spread.figures["armageddon.red"]
    err = spread.stderr["armageddon.red"]
    assert isinstance(red, FairClockSpread)
    share = float(np.mean(~np.isfinite(reds)))
    assert 0.025 < float(np.mean(reds == math.inf)) < 0.1  # the bundled case: open-ended
    assert abs(red.share_without_fair_clock - share) < 4 * math.sqrt(share / n) + 0.01
    assert red.q975 == math.inf and math.isnan(red.mean) and math.isnan(red.sd)
    batches = reds.reshape(16, -1)
    low_se = float(np.std([np.quantile(b, 0.025) for b in batches], ddof=1) / 4)
    assert abs(red.q025 - float(np.quantile(reds, 0.025))) <= 4 * math.hypot(err.q025, low_se)
    defined = reds[np.isfinite(reds)]
    where = red.where_fair_clock_exists
    assert where is not None
    # no replicate errors are kept for this conditional spread: each statistic is checked
    # within 4 Monte Carlo errors of as many plain draws (batch means), which QMC beats
    spare = defined[: len(defined) - len(defined) % 16].reshape(16, -1)
    for found, stat in ((where.mean, np.mean), (where.q025, lambda y: np.quantile(y, 0.025)),
                        (where.q975, lambda y: np.quantile(y, 0.975))):  # fmt: skip
        brute_se = float(np.std([stat(b) for b in spare], ddof=1) / 4)
        tolerance = 4 * brute_se * math.sqrt(1 + len(defined) / spread.draws)
        assert abs(found - float(stat(defined))) <= tolerance, (found, stat(defined), tolerance)
    json = red.to_json()
    assert json["q975"] is None and json["mean"] is None
    assert json["share_without_fair_clock"] == pytest.approx(red.share_without_fair_clock)
    # the decomposition: the worth of time matters most, a classical constant hardly at all
    best = spread.main_contributor(path)
    assert best is not None and best[0] == "elo_per_doubling.rapid"
    assert spread.decomposition[path]["draw_nu.classical"]["variance_cut"] < 0.02


def _with(p: float) -> list[str]:
    """how_sure on fair's answer with the seed menu's P(edge > 0) replaced by ``p``."""
    sc = load_scenario(HOW_SURE)
    f = fair_rules(sc, verify=False, draws=64)
    assert f.model_uncertainty is not None
    path = "chooser_advantage.seed_menu"
    edge = replace(f.model_uncertainty.figures[path], p_above_zero=p)
    figures = f.model_uncertainty.figures | {path: edge}
    return how_sure(replace(f, model_uncertainty=replace(f.model_uncertainty, figures=figures)))


def test_the_verdict_follows_the_numbers() -> None:
    assert any("favours 甲 with probability 0.99" in s for s in _with(0.99))
    assert any("favours 乙, the player who replies, with probability 0.98" in s
               for s in _with(0.02))  # fmt: skip
    assert any("cannot be settled by these data: P(edge > 0) = 0.70" in s for s in _with(0.70))
    assert any(f"{SETTLED:.0%}" in s for s in _with(0.5))


def test_the_sentences_carry_the_numbers() -> None:
    sc = load_scenario(HOW_SURE)
    f = fair_rules(sc, verify=False, draws=64)
    text = " ".join(how_sure(f))
    spread = f.model_uncertainty
    assert spread is not None
    edge = spread.figures["chooser_advantage.seed_menu"]
    red = spread.figures["armageddon.red"]
    errors = spread.stderr["chooser_advantage.seed_menu"]
    lo = fixed(100 * edge.q025, 100 * errors.q025, sign=True)
    hi = fixed(100 * edge.q975, 100 * errors.q975, sign=True)
    assert f"between {lo} and {hi} points" in text
    # the fair clock's interval over every draw: open-ended here, the share without one said
    assert isinstance(red, FairClockSpread) and red.q975 == math.inf
    low = fixed(red.q025, spread.stderr["armageddon.red"].q025)
    assert f"between {low} and more than 100 minutes" in text
    assert f"in {100 * red.share_without_fair_clock:.1f} % of them no Red clock" in text
    inside = "inside" if red.contains(30.0) else "outside"
    assert f"the seed's 30 minutes lies {inside}" in text
    # a closed interval is printed with both ends
    closed = replace(red, q975=41.23, share_without_fair_clock=0.01)
    moved = replace(spread, figures=spread.figures | {"armageddon.red": closed})
    assert "and 41" in " ".join(how_sure(replace(f, model_uncertainty=moved)))
    # a Red clock interval that leaves 30 minutes out says so
    narrow = replace(red, q025=20.0, q975=28.0)
    moved = replace(spread, figures=spread.figures | {"armageddon.red": narrow})
    assert "lies outside" in " ".join(how_sure(replace(f, model_uncertainty=moved)))
    # and no spread, no sentences
    assert how_sure(fair_rules(load_scenario(SCENARIOS / "final-2600-vs-2550.toml"),
                               verify=False)) == []  # fmt: skip


def test_a_figure_spread_knows_its_interval() -> None:
    s = FigureSpread(0.0, 1.0, -1.0, 2.0, 0.5)
    assert s.contains(0.0) and not s.contains(2.5)
