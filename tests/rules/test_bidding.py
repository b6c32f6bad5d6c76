"""The bidding rule: all four branches, the three strategies, the belief thresholds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from knockout.game import Colour, Reply
from knockout.rules.book.formats import BiddingMenu
from knockout.rules.decisions.bidding import BiddingGame
from knockout.rules.decisions.strategies import Believed, Naive, Rational, get_strategy
from knockout.rules.model.strength import DEFAULT_MODEL, ModelParams, PerClass


def game_with(adv: float, nu: float, epd: float) -> BiddingGame:
    model = ModelParams(PerClass(adv, adv, adv), PerClass(nu, nu, nu), PerClass(epd, epd, epd))
    return BiddingGame(BiddingMenu(), Colour.BLACK, model=model)


def test_menu_has_all_four_branches() -> None:
    menu = BiddingMenu()
    assert menu.assignment(Colour.RED, Reply.ACCEPT) == (Colour.RED, (30, 10))
    assert menu.assignment(Colour.RED, Reply.OBJECT) == (Colour.BLACK, (10, 30))
    assert menu.assignment(Colour.BLACK, Reply.ACCEPT) == (Colour.BLACK, (30, 10))
    assert menu.assignment(Colour.BLACK, Reply.OBJECT) == (Colour.RED, (35, 5))


def _davidson_by_hand(d: float, nu: float) -> tuple[float, float, float]:
    g = 10 ** (d / 400)
    z = g + 1 + nu * g**0.5
    return g / z, nu * g**0.5 / z, 1 / z


def test_values_follow_the_menu() -> None:
    """Model version 2: effective clocks count the increment (base + 60 moves x 10 s), so the
    seed's 30/10 is 40 v 20 minutes, a rapid game (nu = 1, 120 Elo per doubling)."""
    g = BiddingGame(BiddingMenu(), Colour.BLACK)
    assert g.time_class.value == "rapid" and g.effective((30, 10)) == (40.0, 20.0)
    adv, nu = DEFAULT_MODEL.red_advantage.rapid, 1.0
    # Red, accept: 甲 is Red on 40/20 and advances only by winning (a draw goes to Black).
    red, _, _ = _davidson_by_hand(adv + 120 * np.log2(40 / 20), nu)
    assert float(g.chooser_advances(Colour.RED, Reply.ACCEPT, 50.0)) == pytest.approx(
        _davidson_by_hand(50 + adv + 120, nu)[0]
    )
    assert float(g.chooser_advances(Colour.RED, Reply.ACCEPT, 0.0)) == pytest.approx(red)
    # Red, object: 甲 is Black with 40 against Red's 20 and advances on a draw too.
    red, draw, black = _davidson_by_hand(adv + 120 * np.log2(20 / 40), nu)
    assert float(g.chooser_advances(Colour.RED, Reply.OBJECT, 0.0)) == pytest.approx(draw + black)
    # Black, object: 甲 is Red with 35 + 10 = 45 against 5 + 10 = 15.
    red, _, _ = _davidson_by_hand(adv + 120 * np.log2(45 / 15), nu)
    assert float(g.chooser_advances(Colour.BLACK, Reply.OBJECT, 0.0)) == pytest.approx(red)


# Model constants (red advantage, draw nu, Elo per doubling) under which each branch is the
# rational choice at equal ratings, and why.
BRANCHES = [
    # The defaults: Red with 40 v 20 effective minutes is worth more than anything Black gets.
    ((DEFAULT_MODEL.red_advantage.rapid, 1.0, 120), Colour.RED, Reply.ACCEPT),
    # No draws: a draw no longer helps Black, so 乙 takes Red even at 20 v 40.
    ((64.3, 0.0, 120), Colour.RED, Reply.OBJECT),
    # Red's first move is a large handicap and time is worth a lot: 甲 takes Black on 20 v 40
    # and 乙 lets them (objecting would make 甲 Red with 45 v 15, better still for 甲).
    ((-320, 0.8, 400), Colour.BLACK, Reply.ACCEPT),
    # A moderate handicap: 甲 takes Black, and 乙 objects and pushes 甲 to Red with 45 v 15.
    ((-100, 1.0, 120), Colour.BLACK, Reply.OBJECT),
]


@pytest.mark.parametrize(("constants", "announce", "reply"), BRANCHES)
def test_every_branch_is_rational_somewhere(
    constants: tuple[float, float, float], announce: Colour, reply: Reply
) -> None:
    g = game_with(*constants)
    p = Rational().probabilities(g, 0.0)
    joint = p.joint()
    assert float(joint[(announce, reply)]) == 1.0
    # and with a clear margin, so the branch is not a tie artefact
    other = Reply.ACCEPT if reply is Reply.OBJECT else Reply.OBJECT
    margin = abs(
        float(g.chooser_advances(announce, reply, 0.0))
        - float(g.chooser_advances(announce, other, 0.0))
    )
    assert margin > 0.05
    v_red = float(g.value_of_announcing(Colour.RED, 0.0))
    v_black = float(g.value_of_announcing(Colour.BLACK, 0.0))
    # 甲's margin: at least 3 points (the defaults' is 3.4: 51.7 % v 48.3 %)
    assert (v_red - v_black > 0.03) if announce is Colour.RED else (v_black - v_red > 0.03)
    sample = Rational().sample(g, np.zeros(3), np.random.default_rng(0))
    assert bool(sample.announce_red.all()) == (announce is Colour.RED)
    assert bool(sample.objects.all()) == (reply is Reply.OBJECT)


@pytest.mark.parametrize("x", np.arange(-250, 251, 25))
def test_defaults_play_red_accept_for_realistic_gaps(x: float) -> None:
    p = Rational().probabilities(BiddingGame(BiddingMenu(), Colour.BLACK), x)
    assert float(p.joint()[(Colour.RED, Reply.ACCEPT)]) == 1.0


@pytest.mark.parametrize("x", [-300.0, 300.0])
def test_defaults_beyond_about_268_elo_the_chooser_takes_black(x: float) -> None:
    g = BiddingGame(BiddingMenu(), Colour.BLACK)
    # Black on 40 v 20 with a draw counting for Black beats Red on 40 v 20 for a big gap
    assert float(g.value_of_announcing(Colour.BLACK, x)) > float(
        g.value_of_announcing(Colour.RED, x)
    )
    ((lo, hi),) = g.regions["announce_red"].intervals
    assert lo == pytest.approx(-hi) and hi == pytest.approx(267.7, abs=0.05)
    # the figures docs/rules-and-model.md gives for 乙's objection to Black
    (_, low), (high, _) = g.regions["object_black"].intervals
    assert low == pytest.approx(-515.6, abs=0.05) and high == pytest.approx(445.4, abs=0.05)


def test_bidder_objects_only_when_strictly_worse_for_chooser() -> None:
    # An exact tie in values (the two clock pairs mirror each other and time odds are off):
    # the bidder must accept.
    menu = BiddingMenu(accept=(20, 20), object_red=(20, 20), object_black=(20, 20))
    model = ModelParams(PerClass(0, 0, 0), PerClass(0.8, 0.8, 0.8), PerClass(0, 0, 0))
    g = BiddingGame(menu, Colour.RED, model=model)
    assert float(g.chooser_advances(Colour.RED, Reply.ACCEPT, 0.0)) == float(
        g.chooser_advances(Colour.BLACK, Reply.OBJECT, 0.0)
    )
    p = Rational().probabilities(g, 0.0)
    assert float(p.object_if_black) == 0.0
    assert float(p.announce_red) == 1.0  # Red on a tie


def test_naive_always_red_accept() -> None:
    g = game_with(-200, 0.8, 120)
    p = Naive().probabilities(g, np.array([-300.0, 0.0, 300.0]))
    assert np.all(p.announce_red == 1) and np.all(p.object_if_red == 0)


def test_believed_with_zero_noise_is_rational() -> None:
    g = game_with(-100, 0.8, 120)
    xs = np.linspace(-500, 500, 41)
    assert all(
        np.array_equal(u, v)
        for u, v in zip(
            Believed(0.0).probabilities(g, xs), Rational().probabilities(g, xs), strict=True
        )
    )


@pytest.mark.parametrize("constants", [c for c, _, _ in BRANCHES])
def test_regions_agree_with_the_rule_pointwise(constants: tuple[float, float, float]) -> None:
    g = game_with(*constants)
    ys = np.linspace(-2500, 2500, 20_001)
    for key, rule in (
        ("announce_red", g.rational_announces_red(ys)),
        ("object_red", g.rational_objects(Colour.RED, ys)),
        ("object_black", g.rational_objects(Colour.BLACK, ys)),
    ):
        inside = g.regions[key].contains(ys)
        assert np.array_equal(inside, rule), key


def test_believed_probabilities_match_sampled_beliefs() -> None:
    # The defaults: 甲's announcement flips at about +-268 Elo, so the noise matters there.
    g = game_with(DEFAULT_MODEL.red_advantage.rapid, 1.0, 120)
    strategy = Believed(150.0)
    xs = np.array([-300.0, -250.0, 0.0, 250.0, 300.0])
    exact = strategy.probabilities(g, xs)
    n = 100_000
    rng = np.random.default_rng(5)
    for i, x in enumerate(xs):
        s = strategy.sample(g, np.full(n, x), rng)
        red = s.announce_red
        tol_red = 4 * 0.5 / n**0.5
        assert float(np.mean(red)) == pytest.approx(float(exact.announce_red[i]), abs=tol_red)
        # P(object | announcement): compare the joint, which is what sampling gives directly
        p_joint = float(exact.announce_red[i] * exact.object_if_red[i])
        assert float(np.mean(red & s.objects)) == pytest.approx(p_joint, abs=tol_red)


def test_believed_thresholds_move_decisions() -> None:
    g = game_with(DEFAULT_MODEL.red_advantage.rapid, 1.0, 120)
    p = Believed(150.0).probabilities(g, np.array([-300.0, 300.0]))
    assert 0 < float(p.announce_red[0]) < 1 and 0 < float(p.announce_red[1]) < 1


@given(x=st.floats(-800, 800), sd=st.floats(1, 400))
def test_believed_probabilities_are_probabilities(x: float, sd: float) -> None:
    p = Believed(sd).probabilities(game_with(-30, 0.8, 120), x)
    for v in p:
        assert 0.0 <= float(v) <= 1.0


def test_get_strategy() -> None:
    assert isinstance(get_strategy("believed", belief_sd=50), Believed)
    with pytest.raises(ValueError, match="unknown strategy: 'clever'"):
        get_strategy("clever")
