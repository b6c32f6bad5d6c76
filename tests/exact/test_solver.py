"""The exact solver against hand-written closed forms, and its invariants."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from knockout.exact.solver import solve
from knockout.rules.book.presets import get_format
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.strategies import Bayesian, Believed, Naive, Rational, Strategy
from knockout.rules.model.players import Player, Speed
from knockout.rules.model.strength import ModelParams, PerClass


def davidson(d: float, nu: float) -> tuple[float, float, float]:
    g = 10 ** (d / 400)
    z = g + 1 + nu * math.sqrt(g)
    return g / z, nu * math.sqrt(g) / z, 1 / z


def phi(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def by_hand_xq(
    ra: float, rb: float, m: ModelParams, speed_a: Speed, speed_b: Speed, slow: int
) -> dict[str, float]:
    """xq-bidding / single-slow under ``rational``, written out without the chain."""
    adv, nu, epd = m.red_advantage, m.draw_nu, m.elo_per_doubling

    # A's (win, draw, loss) with Red and with Black, per time class and equal clocks.
    def wdl(tc: str, a_red: bool) -> tuple[float, float, float]:
        d = (ra - rb if a_red else rb - ra) + adv[tc]
        r, dr, b = davidson(d, nu[tc])
        return (r, dr, b) if a_red else (b, dr, r)

    if slow == 2:
        w1, d1, l1 = wdl("classical", True)
        w2, d2, l2 = wdl("classical", False)
        a_slow = w1 * (w2 + d2) + d1 * w2
        level = w1 * l2 + l1 * w2 + d1 * d2
        b_slow = 1 - a_slow - level
        wr, dr_, _ = (np.array(wdl("rapid", True)) + np.array(wdl("rapid", False))) / 2
        a_rapid, rapid_level = wr, dr_
        b_rapid = 1 - wr - dr_
    else:
        w, d, _ = (np.array(wdl("classical", True)) + np.array(wdl("classical", False))) / 2
        a_slow, level, b_slow = w, d, 1 - w - d
        a_rapid, rapid_level, b_rapid = 0.0, 1.0, 0.0

    # The sudden-death game (30/10 +10 s): effective clocks T = base + moves * 10 / 60; its mean
    # effective clock 20 + moves / 6 is 30 minutes at 60 moves: a rapid game.
    def eff(base: float) -> float:
        return base + m.moves * 10 / 60

    assert 10 < (eff(30) + eff(10)) / 2 < 60

    def chooser_value(x: float) -> float:
        def v(chooser_red: bool, t_red: float, t_black: float) -> float:
            d = (
                (x if chooser_red else -x)
                + adv["rapid"]
                + epd["rapid"] * math.log2(eff(t_red) / eff(t_black))
            )
            r, dr, b = davidson(d, nu["rapid"])
            return r if chooser_red else dr + b

        red = min(v(True, 30, 10), v(False, 10, 30))
        black = min(v(False, 30, 10), v(True, 35, 5))
        return max(red, black)

    q = phi((speed_b.mean - speed_a.mean) / math.hypot(speed_a.sd, speed_b.sd))
    a_sd = q * chooser_value(ra - rb) + (1 - q) * (1 - chooser_value(rb - ra))
    reach_sd = level * rapid_level
    return {
        "a": a_slow + level * a_rapid + reach_sd * a_sd,
        "slow": a_slow + b_slow,
        "rapid": level * (a_rapid + b_rapid),
        "sudden_death": reach_sd,
        "chooser": q * chooser_value(ra - rb) + (1 - q) * chooser_value(rb - ra),
    }


MODELS = [
    ModelParams(),
    ModelParams(PerClass(-100, 30, -200), PerClass(0.5, 1.5, 0.8), PerClass(0, 40, 120)),
    ModelParams(
        PerClass(64.3, 64.3, 64.3), PerClass(1.714, 0.3, 0.0), PerClass(0, 200, 120), moves=30
    ),
]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("preset", ["xq-bidding", "single-slow"])
@pytest.mark.parametrize(("ra", "rb"), [(2600, 2550), (2400, 2650), (2500, 2500)])
def test_matches_closed_form(model: ModelParams, preset: str, ra: float, rb: float) -> None:
    sa, sb = Speed(0.7, 0.12), Speed(0.8, 0.05)
    a, b = Player("A", ra, speed=sa), Player("B", rb, speed=sb)
    fmt = get_format(preset)
    sol = solve(Pairing.of(fmt, a, b, model=model, strategy=Rational()))
    hand = by_hand_xq(ra, rb, model, sa, sb, slow=2 if preset == "xq-bidding" else 1)
    assert float(sol.win[0, 0]) == pytest.approx(hand["a"], abs=1e-12)
    names = list(fmt.stage_names)
    for stage in names:
        assert float(sol.decided[0, names.index(stage)].sum()) == pytest.approx(
            hand[stage], abs=1e-12
        )
    assert float(sol.conditional(sol.chooser_advances)[0]) == pytest.approx(
        hand["chooser"], abs=1e-12
    )


def test_official_playoff_decider_by_hand() -> None:
    """The last two stages by hand: super-rapid with colours swapped, then the 6/4 decider."""
    a, b = Player("A", 2550), Player("B", 2500)
    sol = solve(Pairing.of(get_format("official-playoff"), a, b, strategy=Rational()))
    adv, nu = 400 * math.log10(391 / 270), 0.8
    # Decider: colours by lot; 6 v 4 minutes + 3 s a move, effective 9 v 7 minutes (mean 8:
    # blitz) with 120 Elo per doubling; draw -> Black.
    odds = 120 * math.log2(9 / 7)
    a_red = davidson(50 + adv + odds, nu)[0]
    _, d, bl = davidson(-50 + adv + odds, nu)
    a_black = d + bl
    decider_share = float(sol.decided[0, 3, 0] / sol.decided[0, 3].sum())
    assert decider_share == pytest.approx((a_red + a_black) / 2, abs=1e-12)


STRATEGIES: list[Strategy] = [Rational(), Naive(), Believed(120.0), Bayesian(120.0)]
PRESETS = [
    "xq-bidding",
    "single-slow",
    "official-playoff",
    "blitz-pairs",
    "armageddon-bid",
    "armageddon-lot",
    "red-handicap",
]


@st.composite
def matches(draw: st.DrawFn) -> tuple[Player, Player, ModelParams, str, Strategy]:
    def rating() -> float:
        return draw(st.floats(2000, 2800))

    def speed() -> Speed:
        return Speed(draw(st.floats(0.3, 1.0)), draw(st.floats(0.0, 0.2)))

    a = Player("A", rating(), rating(), rating(), speed())
    b = Player("B", rating(), rating(), rating(), speed())
    per = lambda lo, hi: PerClass(*(draw(st.floats(lo, hi)) for _ in range(3)))  # noqa: E731
    model = ModelParams(per(-150, 150), per(0, 3), per(0, 250))
    return a, b, model, draw(st.sampled_from(PRESETS)), draw(st.sampled_from(STRATEGIES))


@given(matches())
def test_probabilities_sum_to_one(m: tuple[Player, Player, ModelParams, str, Strategy]) -> None:
    a, b, model, preset, strategy = m
    sol = solve(Pairing.of(get_format(preset), a, b, model=model, strategy=strategy))
    assert float(sol.win.sum() + sol.unresolved[0]) == pytest.approx(1.0, abs=1e-12)
    assert float(sol.decided.sum()) == pytest.approx(float(sol.win.sum()), abs=1e-12)
    assert sum(float(p[0]) for p in sol.games.values()) == pytest.approx(
        float(sol.win.sum()), abs=1e-12
    )
    assert float(sol.unresolved[0]) < 1e-14


@given(matches())
def test_swapping_players_swaps_the_answer(
    m: tuple[Player, Player, ModelParams, str, Strategy],
) -> None:
    a, b, model, preset, strategy = m
    fmt = get_format(preset)
    ab = solve(Pairing.of(fmt, a, b, model=model, strategy=strategy))
    ba = solve(Pairing.of(fmt, b, a, model=model, strategy=strategy))
    assert np.allclose(ab.win[0], ba.win[0, ::-1], atol=1e-12)
    assert np.allclose(ab.decided[0], ba.decided[0, :, ::-1], atol=1e-12)
    assert np.allclose(ab.chooser_advances, ba.chooser_advances, atol=1e-12)
    assert np.allclose(ab.chooser_is_a, ab.bidding_reached - ba.chooser_is_a, atol=1e-12)


@given(matches(), st.floats(0.5, 300), st.sampled_from(["rating", "rating_rapid", "rating_blitz"]))
def test_higher_rating_never_lowers_the_chance_under_rational(
    m: tuple[Player, Player, ModelParams, str, Strategy], gain: float, which: str
) -> None:
    a, b, model, preset, _ = m
    fmt = get_format(preset)
    stronger = Player(
        "A",
        a.rating + (gain if which == "rating" else 0),
        a.rating_rapid + (gain if which == "rating_rapid" else 0),  # type: ignore[operator]
        a.rating_blitz + (gain if which == "rating_blitz" else 0),  # type: ignore[operator]
        a.speed,
    )
    before = solve(Pairing.of(fmt, a, b, model=model, strategy=Rational()))
    after = solve(Pairing.of(fmt, stronger, b, model=model, strategy=Rational()))
    assert float(after.win[0, 0]) >= float(before.win[0, 0]) - 1e-12


def test_vectorised_pairs_equal_single_solves() -> None:
    rng = np.random.default_rng(3)
    players = [Player(f"P{i}", float(r)) for i, r in enumerate(rng.uniform(2200, 2700, 6))]
    a_side, b_side = players[:3], players[3:]
    fmt = get_format("xq-bidding")
    together = solve(Pairing.of(fmt, a_side, b_side, strategy=Believed(80.0)))
    for i in range(3):
        alone = solve(Pairing.of(fmt, a_side[i], b_side[i], strategy=Believed(80.0)))
        assert np.allclose(together.win[i], alone.win[0], atol=1e-14)


def test_equal_players_equal_chances_and_lot_priority() -> None:
    fmt = get_format("xq-bidding")
    a, b = Player("A", 2500), Player("B", 2500)
    sol = solve(Pairing.of(fmt, a, b, strategy=Rational()))
    assert float(sol.win[0, 0]) == pytest.approx(0.5, abs=1e-14)
    # The chooser's edge with the defaults: 甲 announces Red and 乙 accepts, Red on 30 v 10
    # minutes + 10 s, effective 40 v 20 (a rapid game: nu = 1, 120 Elo per doubling). Objecting
    # would leave 甲 Black on 20 v 40 (better for 甲), so 乙 accepts; announcing Black would give
    # 甲 at best min(Black on 40 v 20, Red on 45 v 15).
    adv = 400 * math.log10(391 / 270)
    red_accept = davidson(adv + 120 * math.log2(40 / 20), 1.0)[0]
    _, d, b = davidson(adv + 120 * math.log2(20 / 40), 1.0)
    red_object = d + b
    _, d, b = davidson(adv + 120 * math.log2(40 / 20), 1.0)
    black_accept = d + b
    black_object = davidson(adv + 120 * math.log2(45 / 15), 1.0)[0]
    assert red_object > red_accept and black_accept < black_object
    expected = max(min(red_accept, red_object), min(black_accept, black_object))
    assert expected == red_accept
    assert float(sol.conditional(sol.chooser_advances)[0]) == pytest.approx(expected, abs=1e-12)


def test_repeat_stage_geometric_series() -> None:
    """Blitz pairs: P(A wins a pair) / (1 - P(level pair)), checked by hand."""
    fmt = get_format("blitz-pairs")
    a, b = Player("A", 2550), Player("B", 2500)
    sol = solve(Pairing.of(fmt, a, b, strategy=Rational()))
    adv, nu = 400 * math.log10(391 / 270), 0.8
    w1, d1, l1 = davidson(50 + adv, nu)
    r, d2, bl = davidson(-50 + adv, nu)
    w2, l2 = bl, r
    a_pair = w1 * (w2 + d2) + d1 * w2
    level = w1 * l2 + l1 * w2 + d1 * d2
    share = float(sol.decided[0, 1, 0] / sol.decided[0, 1].sum())
    assert share == pytest.approx(a_pair / (1 - level), abs=1e-13)
