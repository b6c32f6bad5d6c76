"""The sudden-death game laid open (match.sudden_death), checked against MODEL.md by hand.

Everything here is written from the model's text with math only: effective clocks, the time
class from the mean effective clock, Davidson probabilities, P(X is 甲) from the effective clocks
of the rapid game, and the rational rule (乙 objects when that is strictly worse for 甲; 甲
announces the better colour after 乙's best reply, Red on a tie).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from conftest import SCENARIOS, run_json, z_tolerance

from knockout.exact.odds import match_odds
from knockout.rules.book.presets import FORMATS
from knockout.rules.scenario.aggregate import parse_scenario
from sims.match import simulate_match


def davidson(d: float, nu: float) -> tuple[float, float, float]:
    g = 10 ** (d / 400)
    z = g + 1 + nu * math.sqrt(g)
    return g / z, nu * math.sqrt(g) / z, 1 / z


def phi(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def by_hand(params: dict[str, Any]) -> dict[str, Any]:
    """Branch values, 甲's rational value and P(A is 甲) for the xq-bidding format."""
    moves, inc = params["moves"], params["increment"]
    accept, object_red, object_black = params["menu"]

    def eff(base: float) -> float:
        return base + moves * inc / 60

    mean = (eff(accept[0]) + eff(accept[1])) / 2
    tc = "classical" if mean >= 60 else "blitz" if mean <= 10 else "rapid"
    adv, nu, epd = params["adv"], params["nu"], params["epd"]
    rating = {"A": params["ra"], "B": params["rb"]}

    def value(x: float, chooser_red: bool, clocks: tuple[float, float]) -> float:
        d = (x if chooser_red else -x) + adv + epd * math.log2(eff(clocks[0]) / eff(clocks[1]))
        r, dr, b = davidson(d, nu)
        return r if chooser_red else dr + b  # a draw counts for Black

    out: dict[str, Any] = {"time_class": tc, "as_chooser": {}}
    for me, other in (("A", "B"), ("B", "A")):
        x = rating[me] - rating[other]
        ra = value(x, True, accept)
        ro = value(x, False, object_red)
        ba = value(x, False, accept)
        bo = value(x, True, object_black)
        red = ro if ro < ra else ra
        black = bo if bo < ba else ba
        out["as_chooser"][me] = {
            "red_accept": ra,
            "red_object": ro,
            "black_accept": ba,
            "black_object": bo,
            "advances": red if red >= black else black,
        }
    # The rapid game before it (15 + 10 s, equal clocks): effective clocks cancel out.
    (ma, sa), (mb, sb) = params["speeds"]
    t = eff(15)
    q = phi((t * mb - t * ma) / math.hypot(t * sa, t * sb))
    out["chooser"] = {"A": q, "B": 1 - q}
    out["chooser_advances"] = (
        q * out["as_chooser"]["A"]["advances"] + (1 - q) * out["as_chooser"]["B"]["advances"]
    )
    return out


PARAMETER_SETS = [
    # the defaults: a rapid game, 甲 Red on 40 v 20
    {
        "ra": 2600, "rb": 2550, "adv": 400 * math.log10(391 / 270), "nu": 1.0, "epd": 120,
        "moves": 60, "increment": 10, "menu": ((30, 10), (10, 30), (35, 5)),
        "speeds": ((0.75, 0.10), (0.70, 0.08)), "set": {},
    },
    # time worth little, draws rare, the seed's menu on 30/15
    {
        "ra": 2500, "rb": 2540, "adv": 40.0, "nu": 0.4, "epd": 30,
        "moves": 60, "increment": 10, "menu": ((30, 15), (15, 30), (35, 5)),
        "speeds": ((0.6, 0.2), (0.8, 0.05)),
        "set": {"model.red_advantage.rapid": 40.0, "model.draw_nu.rapid": 0.4,
                "model.elo_per_doubling.rapid": 30, "format.sudden_death.accept": [30, 15],
                "format.sudden_death.object_red": [15, 30]},
    },
    # a Red handicap, time worth much, 40 moves: 甲 takes Black
    {
        "ra": 2450, "rb": 2450, "adv": -100.0, "nu": 1.2, "epd": 200,
        "moves": 40, "increment": 10, "menu": ((30, 10), (10, 30), (35, 5)),
        "speeds": ((0.75, 0.10), (0.75, 0.10)),
        "set": {"model.red_advantage.rapid": -100.0, "model.draw_nu.rapid": 1.2,
                "model.elo_per_doubling.rapid": 200, "model.moves": 40},
    },
]  # fmt: skip


def _scenario(params: dict[str, Any]) -> dict[str, Any]:
    (ma, sa), (mb, sb) = params["speeds"]
    return {
        "players": [
            {"name": "A", "rating": params["ra"], "speed": {"mean": ma, "sd": sa}},
            {"name": "B", "rating": params["rb"], "speed": {"mean": mb, "sd": sb}},
        ]
    }


def _with_sets(data: dict[str, Any], sets: dict[str, Any]) -> dict[str, Any]:
    for key, value in sets.items():
        node = data
        *parents, last = key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    return data


@pytest.mark.parametrize("params", PARAMETER_SETS, ids=["defaults", "cheap-time", "handicap"])
def test_sudden_death_matches_a_hand_computation(params: dict[str, Any]) -> None:
    sc = parse_scenario(_with_sets(_scenario(params), params["set"]))
    odds = match_odds(sc)
    sd = odds.sudden_death
    assert sd is not None
    hand = by_hand(params)
    assert sd.time_class == hand["time_class"] == "rapid"
    for name in ("A", "B"):
        for key, v in hand["as_chooser"][name].items():
            assert sd.as_chooser[name][key] == pytest.approx(v, abs=1e-12), (name, key)
    assert sd.chooser is not None
    assert sd.chooser["A"] == pytest.approx(hand["chooser"]["A"], abs=1e-12)
    assert odds.chooser_advances == pytest.approx(hand["chooser_advances"], abs=1e-12)


def test_the_handicap_set_makes_the_chooser_take_black() -> None:
    hand = by_hand(PARAMETER_SETS[2])["as_chooser"]["A"]
    red = min(hand["red_accept"], hand["red_object"])
    black = min(hand["black_accept"], hand["black_object"])
    assert black > red


def test_sudden_death_is_null_without_a_bidding_stage(tmp_path: Any) -> None:
    data = run_json("odds", str(SCENARIOS / "official-playoff.toml"), "--json")
    assert data["match"]["sudden_death"] is None  # type: ignore[index]


@pytest.mark.slow
def test_simulate_estimates_the_sudden_death_keys_and_carries_the_exact_values() -> None:
    path = str(SCENARIOS / "final-2600-vs-2550.toml")
    exact = run_json("odds", path, "--json")["match"]["sudden_death"]  # type: ignore[index]
    sim = run_json("simulate", path, "--runs", "400000", "--seed", "3", "--json")
    est = sim["match"]["sudden_death"]  # type: ignore[index]
    se = sim["stderr"]["match"]["sudden_death"]  # type: ignore[index]
    assert sim["exact"]["match"]["sudden_death"] == exact  # type: ignore[index]
    assert abs(est["reached"] - exact["reached"]) <= 4 * se["reached"]
    for name, p in exact["chooser"].items():
        assert abs(est["chooser"][name] - p) <= 4 * se["chooser"][name]
        mine = est["as_chooser"][name]
        assert (
            abs(mine["advances"] - exact["as_chooser"][name]["advances"])
            <= 4 * se["as_chooser"][name]["advances"]
        )
        for branch in ("red_accept", "red_object", "black_accept", "black_object"):
            # ratings are given: every match has the same branch values, no spread
            assert mine[branch] == pytest.approx(exact["as_chooser"][name][branch], abs=1e-12)
            assert se["as_chooser"][name][branch] == 0.0


@pytest.mark.parametrize("preset", sorted(FORMATS))
def test_sudden_death_reached_is_one_fact(preset: str) -> None:
    """``match.sudden_death_reached`` is P(the sudden-death game is reached) for every preset:
    where the match ends in one game that always decides (the bidding, a cut, sealed bids, an
    Armageddon decider), 1 - P(decided before it), the mass decided in it; 0 without one; and
    the laid-open game's ``reached`` says the same."""
    sc = parse_scenario(
        {
            "format": {"preset": preset},
            "players": [{"name": "A", "rating": 2600}, {"name": "B", "rating": 2550}],
        }
    )
    odds = match_odds(sc).to_json()["match"]
    playable = FORMATS[preset].playable
    last = playable[-1]
    one_decisive_game = last.games == 1 and not last.repeat and last.draw_winner is not None
    before = sum(p for name, p in odds["decided"].items() if name != last.name)
    expected = 1.0 - before if one_decisive_game or last.is_decision else 0.0
    assert odds["sudden_death_reached"] == pytest.approx(expected, abs=1e-12)
    if one_decisive_game or last.is_decision:
        assert odds["decided"][last.name] == pytest.approx(expected, abs=1e-12)
        assert expected > 0.0
    if odds["sudden_death"] is not None:
        assert odds["sudden_death"]["reached"] == odds["sudden_death_reached"]


@pytest.mark.parametrize("preset", ["cut-choose", "official-playoff", "armageddon-bid"])
def test_sudden_death_reached_simulated_agrees(preset: str) -> None:
    """The Monte Carlo counts the same fact: its estimate lies within 4 standard errors of the
    exact value (it once counted only the bidding stage, 0 beside a cut's 0.117)."""
    runs = 40_000
    sc = parse_scenario(
        {
            "format": {"preset": preset},
            "players": [{"name": "A", "rating": 2600}, {"name": "B", "rating": 2550}],
        }
    )
    est, _ = simulate_match(sc, runs, 3)
    assert est is not None
    exact = match_odds(sc).sudden_death_reached
    assert exact > 0.01
    assert est.value.sudden_death_reached == pytest.approx(exact, abs=z_tolerance(exact, runs))
