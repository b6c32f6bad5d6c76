"""A sudden-death bid recorded for a game not yet played (a ``[[played]]`` bid entry).

The match then comes down to one game whose colours and clocks the bid fixed, so P(A advances)
has a closed form, written here from the model with math only: effective clocks (base + 60
moves of increment), the stage's time class, Davidson's probabilities from
:func:`knockout.rules.model.strength.game_probabilities`, and the stage's draw winner. The exact
solver, the Monte Carlo and the SimPy engine must all give it, in a match and in a bracket, whatever
the strategy and with uncertain ratings.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np
import pytest
from conftest import z_tolerance

from knockout.engine.event import play_event
from knockout.engine.match import play_scenario_match
from knockout.exact.bracket import bracket_odds
from knockout.exact.odds import match_odds
from knockout.game import Colour, Reply
from knockout.rules.decisions.bidding import BRANCHES
from knockout.rules.model.strength import TimeClass, game_probabilities
from knockout.rules.scenario.aggregate import Scenario, parse_scenario
from sims.bracket import simulate_bracket
from sims.match import simulate_match

MOVES = 60
MENU = {"accept": (30.0, 10.0), "object_red": (10.0, 30.0), "object_black": (35.0, 5.0)}
INCREMENT = 10.0
PLAYERS = [
    # rapid ratings differ from the classical ones: the game must use the rapid class
    {"name": "A", "rating": 2540, "rating_rapid": 2480, "speed": {"mean": 0.7, "sd": 0.1}},
    {"name": "B", "rating": 2500, "rating_rapid": 2530, "speed": {"mean": 0.75, "sd": 0.12}},
]


def to_sudden_death(a: str, b: str, chooser: str) -> list[dict[str, Any]]:
    """Three games between ``a`` and ``b`` that leave the match level, ``chooser`` having used
    less time in the rapid game."""
    other = b if chooser == a else a
    return [
        {"red": a, "black": b, "stage": "slow", "result": "red"},
        {"red": b, "black": a, "stage": "slow", "result": "red"},
        {
            "red": a,
            "black": b,
            "stage": "rapid",
            "result": "draw",
            "time_used": {chooser: 650, other: 720},
        },
    ]


def bid(chooser: str, announce: Colour, reply: Reply) -> dict[str, Any]:
    return {
        "stage": "sudden_death",
        "chooser": chooser,
        "announce": announce.value,
        "reply": reply.value,
    }


def match(
    chooser: str,
    announce: Colour,
    reply: Reply,
    *,
    draw_winner: str = "black",
    strategy: dict[str, Any] | None = None,
    sd: tuple[float, float] = (0.0, 0.0),
) -> Scenario:
    players = [{**p, "rating_sd": s} for p, s in zip(PLAYERS, sd, strict=True)]
    return parse_scenario(
        {
            "format": {"sudden_death": {"draw_winner": draw_winner}},
            "strategy": strategy or {"kind": "rational"},
            "players": players,
            "played": [*to_sudden_death("A", "B", chooser), bid(chooser, announce, reply)],
        }
    )


def by_hand(
    ratings: dict[str, float],
    chooser: str,
    announce: Colour,
    reply: Reply,
    draw_winner: Colour,
    shift: float | np.ndarray = 0.0,
) -> Any:
    """P(A advances) in the one sudden-death game the bid sets up (A's rapid rating moved by
    ``shift``): the bidding rule's table, the effective clocks, the model, the draw rule."""
    other = "B" if chooser == "A" else "A"
    if reply is Reply.ACCEPT:
        chooser_red, clocks = announce is Colour.RED, MENU["accept"]
    elif announce is Colour.RED:
        chooser_red, clocks = False, MENU["object_red"]
    else:
        chooser_red, clocks = True, MENU["object_black"]
    red, black = (chooser, other) if chooser_red else (other, chooser)
    rating = {"A": ratings["A"] + shift, "B": ratings["B"] + 0.0 * shift}
    # 40/20 effective minutes on accept: a mean of 30, the rapid class
    assert (clocks[0] + clocks[1]) / 2 + MOVES * INCREMENT / 60 < 60
    p = game_probabilities(
        rating[red],
        rating[black],
        TimeClass.RAPID,
        red_minutes=clocks[0] + MOVES * INCREMENT / 60,
        black_minutes=clocks[1] + MOVES * INCREMENT / 60,
    )
    red_through = p.red + (p.draw if draw_winner is Colour.RED else 0.0)
    return red_through if red == "A" else 1.0 - red_through


RAPID = {"A": 2480.0, "B": 2530.0}
CASES = [
    (chooser, announce, reply, draw_winner)
    for chooser in ("A", "B")
    for announce, reply in BRANCHES
    for draw_winner in ("black", "red")
]


@pytest.mark.parametrize(("chooser", "announce", "reply", "draw_winner"), CASES)
def test_exact_odds_are_the_one_games(
    chooser: str, announce: Colour, reply: Reply, draw_winner: str
) -> None:
    sc = match(chooser, announce, reply, draw_winner=draw_winner)
    expected = float(by_hand(RAPID, chooser, announce, reply, Colour(draw_winner)))
    odds = match_odds(sc)
    assert odds.win["A"] == pytest.approx(expected, abs=1e-12)
    assert odds.win["B"] == pytest.approx(1 - expected, abs=1e-12)
    data = odds.to_json()["match"]
    # everything is decided in the one sudden-death game (to rounding of P(R)+P(D)+P(B))
    assert data["decided"] == pytest.approx({"slow": 0, "rapid": 0, "sudden_death": 1}, abs=1e-12)
    assert data["games"] == pytest.approx({"4": 1.0}, abs=1e-12)
    assert data["sudden_death"]["reached"] == pytest.approx(1.0, abs=1e-12)
    other = "B" if chooser == "A" else "A"
    assert data["sudden_death"]["chooser"] == pytest.approx({chooser: 1, other: 0}, abs=1e-12)
    assert data["sudden_death"]["as_chooser"][other]["advances"] is None
    assert data["bidding"] == {
        "announce_red": 1.0 if announce is Colour.RED else 0.0,
        "object": 1.0 if reply is Reply.OBJECT else 0.0,
    }
    chooser_wins = expected if chooser == "A" else 1 - expected
    assert data["chooser_advances"] == pytest.approx(chooser_wins, abs=1e-12)
    # the strategy has nothing left to decide
    for strategy in ({"kind": "naive"}, {"kind": "believed"}, {"kind": "bayesian"}):
        sc = match(chooser, announce, reply, draw_winner=draw_winner, strategy=strategy)
        assert match_odds(sc).win == pytest.approx(odds.win, abs=1e-12)


def test_the_bid_changes_the_odds() -> None:
    """Without the bid entry the odds count the choice as still to be made (the rational one:
    Red, accept, by A): a recorded objection moves them, as it must."""
    sc = match("A", Colour.RED, Reply.OBJECT)
    before = parse_scenario({**sc.to_dict(), "played": sc.to_dict()["played"][:-1]})
    assert match_odds(before).win["A"] == pytest.approx(
        float(by_hand(RAPID, "A", Colour.RED, Reply.ACCEPT, Colour.BLACK)), abs=1e-12
    )
    assert abs(match_odds(before).win["A"] - match_odds(sc).win["A"]) > 0.05


def test_uncertain_ratings_integrate_the_one_game() -> None:
    """``rating_sd``: the single game's chance averaged over the difference of the two
    strength draws (a brute-force integral on a fine grid)."""
    sd = (120.0, 60.0)
    sc = match("B", Colour.BLACK, Reply.OBJECT, sd=sd, strategy={"kind": "believed"})
    sigma = math.hypot(*sd)
    z = np.linspace(-9, 9, 40_001)
    w = np.exp(-0.5 * z**2)
    w /= w.sum()
    values = by_hand(RAPID, "B", Colour.BLACK, Reply.OBJECT, Colour.BLACK, shift=sigma * z)
    expected = float(np.sum(w * values))
    odds = match_odds(sc)
    assert odds.win["A"] == pytest.approx(expected, abs=1e-7)
    assert odds.win_if_ratings_exact is not None
    assert odds.win_if_ratings_exact["A"] == pytest.approx(
        float(by_hand(RAPID, "B", Colour.BLACK, Reply.OBJECT, Colour.BLACK)), abs=1e-12
    )


MC_CASES = [
    ("A", Colour.RED, Reply.OBJECT, {"kind": "rational"}, (0.0, 0.0)),
    ("B", Colour.BLACK, Reply.ACCEPT, {"kind": "believed", "belief_sd": 150}, (0.0, 0.0)),
    ("B", Colour.BLACK, Reply.OBJECT, {"kind": "bayesian", "belief_sd": 150}, (120.0, 60.0)),
]


@pytest.mark.parametrize(("chooser", "announce", "reply", "strategy", "sd"), MC_CASES)
def test_monte_carlo_agrees_with_the_exact_value(
    chooser: str, announce: Colour, reply: Reply, strategy: dict[str, Any], sd: tuple[float, float]
) -> None:
    sc = match(chooser, announce, reply, strategy=strategy, sd=sd)
    exact = match_odds(sc)
    n = 400_000
    est, _ = simulate_match(sc, n, seed=17)
    assert est is not None
    v, se, x = est.value.win["A"], est.stderr.win["A"], exact.win["A"]
    assert abs(v - x) <= 4 * se, (v, x, (v - x) / se)
    assert est.value.decided == {"slow": 0.0, "rapid": 0.0, "sudden_death": 1.0}
    assert est.value.chooser == {chooser: 1.0, "B" if chooser == "A" else "A": 0.0}
    assert est.value.announce_red == (1.0 if announce is Colour.RED else 0.0)
    assert est.value.objects == (1.0 if reply is Reply.OBJECT else 0.0)
    assert est.value.games == {4: 1.0}


@pytest.mark.slow
@pytest.mark.parametrize(("chooser", "announce", "reply", "strategy", "sd"), MC_CASES)
def test_engine_plays_the_recorded_game(
    chooser: str, announce: Colour, reply: Reply, strategy: dict[str, Any], sd: tuple[float, float]
) -> None:
    sc = match(chooser, announce, reply, strategy=strategy, sd=sd)
    p = match_odds(sc).win["A"]
    stage = sc.format.stage("sudden_death")
    assert stage.bidding is not None
    colour, clocks = stage.bidding.assignment(announce, reply)
    other = "B" if chooser == "A" else "A"
    red = chooser if colour is Colour.RED else other
    n = 1500
    wins = 0
    for seed in range(n):
        record, log = play_scenario_match(sc, seed=seed)
        wins += record.winner == "A"
        assert len(record.games) == 4 and record.decided_in == "sudden_death"
        game = record.games[-1]
        assert (game.red, game.clock, game.chooser, game.announce, game.reply) == (
            red,
            clocks,
            chooser,
            announce,
            reply,
        )
        assert not game.replayed
    told = [e.text for e in log if e.kind == "bid"]
    assert len(told) == 1 and told[0].startswith(f"甲 = {chooser} announces {announce.value}")
    assert told[0].endswith("(recorded)")
    assert wins / n == pytest.approx(p, abs=z_tolerance(p, n))


def bracket(*, sd: float = 0.0) -> Scenario:
    """Eight players; round 1: P1 v P8 at its sudden-death game with P8's recorded bid,
    P4 v P5 one game in."""
    players = [
        {"name": f"P{i + 1}", "rating": 2600 - 40 * i, "rating_sd": sd if i % 2 else 0.0}
        for i in range(8)
    ]
    return parse_scenario(
        {
            "strategy": {"kind": "believed", "belief_sd": 100},
            "players": players,
            "played": [
                *to_sudden_death("P1", "P8", "P8"),
                {"red": "P4", "black": "P5", "stage": "slow", "result": "black"},
                bid("P8", Colour.BLACK, Reply.ACCEPT),
            ],
        }
    )


@pytest.mark.parametrize("sd", [0.0, 80.0])
def test_bracket_odds_start_from_the_recorded_game(sd: float) -> None:
    """The exact bracket odds and the Monte Carlo start from the recorded games and bid.

    The bid's own effect on any reach is 0.0007 (sd 0) to 0.0033 (sd 80): below what a sample
    resolves, so it is checked exactly (by hand, sd 0). The Monte Carlo is checked for the
    recorded games: leaving out P4 v P5's game moves a reach by 0.41-0.43, P1 v P8's three
    games and bid by 0.10-0.11. 20,000 runs put a standard error at 0.0035 or less (4 of them,
    the tolerance, at 0.014), so such an error lies 25 standard errors or more beyond the
    tolerance; 200,000 runs took ten times as long and could not catch the bid either."""
    sc = bracket(sd=sd)
    exact = bracket_odds(sc)
    if sd == 0:
        ratings = {"A": 2600.0, "B": 2320.0}  # P1 is A, P8 is B
        p = float(by_hand(ratings, "B", Colour.BLACK, Reply.ACCEPT, Colour.BLACK))
        assert exact.reach["P1"][1] == pytest.approx(p, abs=1e-12)
        assert exact.reach["P8"][1] == pytest.approx(1 - p, abs=1e-12)
    est, _ = simulate_bracket(sc, 20_000, 5)
    assert est is not None
    for name in exact.players:
        pairs = zip(est.value.reach[name], est.stderr.reach[name], exact.reach[name], strict=True)
        for v, se, x in pairs:
            assert abs(v - x) <= 4 * max(se, 1e-12) + 1e-12, (name, v, x)


def test_event_engine_plays_the_recorded_game() -> None:
    sc = bracket()
    through: Counter[str] = Counter()
    for seed in range(20):
        record, _ = play_event(sc, seed=seed)
        first = record.rounds[0].matches[0]
        assert set(first.players) == {"P1", "P8"}
        game = first.games[-1]
        # 甲 P8 announces Black, P1 accepts: P1 Red on 30 v 10
        assert (game.red, game.black, game.clock) == ("P1", "P8", (30.0, 10.0))
        assert (game.chooser, game.announce, game.reply) == ("P8", Colour.BLACK, Reply.ACCEPT)
        through[first.winner] += 1
    assert set(through) <= {"P1", "P8"}
