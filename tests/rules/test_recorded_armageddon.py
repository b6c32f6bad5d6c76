"""Recorded sealed Armageddon bids and cut-and-choose decisions in ``[[played]]``: the keys
(``bids``, ``lot_black``; ``cutter``, ``red_minutes``, ``colour``), their checks (one line per
problem, naming the key), the round trip through ``to_dict``, and every walker honouring them:
the exact solver against a game computed by hand from the model, the Monte Carlo kernel and the
SimPy engine within 4 standard errors of it."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest

from knockout.engine.match import play_scenario_match
from knockout.errors import ScenarioError
from knockout.exact.odds import match_odds
from knockout.game import Colour
from knockout.rules.decisions.kinds import Cut, CutChoice, SealedBids, SealedMade
from knockout.rules.model.strength import game_probabilities
from knockout.rules.scenario.aggregate import Scenario, parse_scenario
from sims.match import simulate_match

#: Three drawn games: the rapid game's times make A the cutter (less time used).
LEVEL = [
    {"red": "A", "black": "B", "stage": "slow", "result": "draw"},
    {"red": "B", "black": "A", "stage": "slow", "result": "draw"},
    {"red": "A", "black": "B", "stage": "rapid", "result": "draw",
     "time_used": {"A": 900, "B": 1000}},
]  # fmt: skip


def scenario(preset: str, *decisions: dict[str, Any], kind: str = "rational") -> Scenario:
    return parse_scenario(
        {
            "name": "recorded",
            "format": {"preset": preset},
            "strategy": {"kind": kind},
            "players": [{"name": "A", "rating": 2560}, {"name": "B", "rating": 2500}],
            "played": [*LEVEL, *decisions],
        }
    )


def by_hand(sc: Scenario, red: str, clocks: tuple[float, float]) -> float:
    """P(A advances) in the last game, from the model alone: ``red`` has Red on ``clocks``,
    a draw counts for Black."""
    stage = sc.format.playable[-1]
    tc = stage.time_class_for(sc.model.moves)
    ra, rb = (p.rating_for(tc) for p in sc.players)
    red_r, black_r = (ra, rb) if red == "A" else (rb, ra)
    p = game_probabilities(
        red_r,
        black_r,
        tc,
        model=sc.model,
        red_minutes=sc.model.effective(clocks[0], stage.increment_seconds),
        black_minutes=sc.model.effective(clocks[1], stage.increment_seconds),
    )
    red_wins = float(p.red)
    return red_wins if red == "A" else 1.0 - red_wins


SEALED = {"stage": "armageddon", "bids": {"A": 6.5, "B": 8.25}}
EQUAL = {"stage": "armageddon", "bids": {"A": 7.0, "B": 7.0}, "lot_black": "B"}
CUT = {"stage": "sudden_death", "cutter": "A", "red_minutes": 17.375, "colour": "black"}

CASES = [
    # preset, decision, Red, (Red's clock, Black's clock)
    ("armageddon-bid", SEALED, "B", (10.0, 6.5)),  # first price: Black on the lower bid
    ("armageddon-vickrey", SEALED, "B", (10.0, 8.25)),  # second price: on the higher bid
    ("armageddon-vickrey", EQUAL, "A", (10.0, 7.0)),  # equal bids: the lot's Black
    ("armageddon-bid", EQUAL, "A", (10.0, 7.0)),
    ("cut-choose", CUT, "A", (17.375, 10.0)),  # B chose Black: the cutter has Red
    ("cut-choose", CUT | {"colour": "red"}, "B", (17.375, 10.0)),
]


@pytest.mark.parametrize(("preset", "decision", "red", "clocks"), CASES)
def test_the_exact_solver_plays_the_recorded_game(
    preset: str, decision: dict[str, Any], red: str, clocks: tuple[float, float]
) -> None:
    sc = scenario(preset, decision)
    made = sc.position.decision(sc.format)
    assert isinstance(made, SealedBids | CutChoice) and made.made is not None
    assert match_odds(sc).win["A"] == pytest.approx(by_hand(sc, red, clocks), abs=1e-12)


def test_the_recorded_decisions_ride_on_the_decision() -> None:
    first = scenario("armageddon-bid", SEALED).position.decision(scenario("armageddon-bid").format)
    assert isinstance(first, SealedBids)
    assert first.made == SealedMade((6.5, 8.25), black=0)
    assert first.made.black_minutes("first") == 6.5
    assert first.made.black_minutes("second") == 8.25
    cut = scenario("cut-choose", CUT).position
    assert cut.made == Cut(0, 17.375, Colour.BLACK) and cut.recorded and not cut.is_fresh
    assert cut.p_a_chooses == 1.0


@pytest.mark.parametrize("kind", ["rational", "believed"])
@pytest.mark.parametrize(("preset", "decision", "red", "clocks"), CASES[1::2])
def test_monte_carlo_and_engine_honour_the_recorded_decision(
    preset: str, decision: dict[str, Any], red: str, clocks: tuple[float, float], kind: str
) -> None:
    sc = scenario(preset, decision, kind=kind)
    p = match_odds(sc).win["A"]
    assert p == pytest.approx(by_hand(sc, red, clocks), abs=1e-12)  # beliefs no longer matter
    est, _ = simulate_match(sc, 20_000, 5)
    assert est is not None
    assert abs(est.value.win["A"] - p) <= 4 * est.stderr.win["A"]
    plays = 400
    records = [play_scenario_match(sc, seed=s)[0] for s in range(plays)]
    assert all(r.games[-1].red == red and r.games[-1].clock == clocks for r in records)
    wins = sum(r.winner == "A" for r in records)
    assert abs(wins / plays - p) <= 4 * math.sqrt(p * (1 - p) / plays)


def test_the_engine_narrates_and_records_the_decision() -> None:
    record, log = play_scenario_match(scenario("armageddon-vickrey", SEALED), seed=2)[:2]
    game = record.games[-1]
    assert game.bids == {"A": 6.5, "B": 8.25} and game.clock == (10.0, 8.25)
    assert any("sealed bids" in e.text and "(recorded)" in e.text for e in log)
    record, log = play_scenario_match(scenario("cut-choose", CUT), seed=2)[:2]
    game = record.games[-1]
    assert (game.cutter, game.chooser, game.colour) == ("A", "B", Colour.BLACK)
    assert game.to_json()["cutter"] == "A"
    assert any("A cuts: Red 17.38 min" in e.text and "(recorded)" in e.text for e in log)


def test_the_engine_plays_a_second_price_armageddon_on_the_higher_bid() -> None:
    """Without a recorded bid too: Black's clock is the higher of the two bids drawn."""
    sc = scenario("armageddon-vickrey", kind="believed")
    for seed in range(20):
        game = play_scenario_match(sc, seed=seed)[0].games[-1]
        assert game.bids is not None and game.clock[1] == max(game.bids.values())


@pytest.mark.parametrize(
    "decision",
    [
        SEALED,
        EQUAL,
        CUT,
        SEALED | {"red": "B", "black": "A", "result": "black"},
        CUT | {"red": "A", "black": "B", "result": "red"},
    ],
)
def test_a_recorded_decision_round_trips(decision: dict[str, Any]) -> None:
    preset = "cut-choose" if "cutter" in decision else "armageddon-vickrey"
    sc = scenario(preset, decision)
    data = sc.to_dict()
    assert Scenario.from_dict(data) == sc
    entry = data["played"][-1]
    assert {k: entry[k] for k in decision if k not in ("red", "black")} == {
        k: v for k, v in decision.items() if k not in ("red", "black")
    }


def test_a_played_armageddon_with_its_bids_decides_the_match() -> None:
    sc = scenario("armageddon-vickrey", SEALED | {"red": "B", "black": "A", "result": "draw"})
    assert match_odds(sc).win == {"A": 1.0, "B": 0.0}  # a draw: Black (A) advances
    assert play_scenario_match(sc, seed=1)[0].winner == "A"


BAD = [
    ("armageddon-vickrey", SEALED | {"bids": {"A": 6.5, "B": 12}}, "played[3].bids.B", "from 1"),
    ("armageddon-vickrey", SEALED | {"bids": {"A": 0.5, "B": 8}}, "played[3].bids.A", "to 10"),
    ("armageddon-vickrey", SEALED | {"bids": {"A": 6.5}}, "played[3].bids", "two players"),
    ("armageddon-vickrey", SEALED | {"bids": {"A": 6, "C": 7}}, "played[3].bids.C", "unknown"),
    ("armageddon-vickrey", SEALED | {"bids": {"A": 7, "B": 7}}, "played[3].lot_black", "equal"),
    ("armageddon-vickrey", SEALED | {"lot_black": "A"}, "played[3].lot_black", "bids differ"),
    ("armageddon-vickrey", EQUAL | {"lot_black": "C"}, "played[3].lot_black", "bidders"),
    ("armageddon-vickrey", SEALED | {"stage": "rapid"}, "played[3].stage", "armageddon"),
    ("armageddon-vickrey", SEALED | {"chooser": "A"}, "played[3].chooser", "expected no"),
    ("armageddon-vickrey", {"stage": "armageddon", "lot_black": "A"}, "played[3].bids", "bids ="),
    ("armageddon-vickrey", SEALED | {"bids": {"A": "x", "B": 7}}, "played[3].bids.A", "number"),
    ("armageddon-bid", CUT | {"stage": "armageddon"}, "played[3].stage", "no cut"),
    ("cut-choose", CUT | {"red_minutes": 0.5}, "played[3].red_minutes", "from 1"),
    ("cut-choose", CUT | {"red_minutes": 250}, "played[3].red_minutes", "to 100"),
    ("cut-choose", CUT | {"red_minutes": "17"}, "played[3].red_minutes", "number"),
    ("cut-choose", CUT | {"cutter": "C"}, "played[3].cutter", "unknown"),
    ("cut-choose", CUT | {"cutter": "B"}, "played[3].cutter", "less time"),
    ("cut-choose", {k: v for k, v in CUT.items() if k != "colour"}, "played[3].colour", "colour"),
    ("cut-choose", {k: v for k, v in CUT.items() if k != "cutter"}, "played[3].cutter", "who cut"),
    ("cut-choose", CUT | {"bids": {"A": 6, "B": 7}}, "played[3]", "one decision"),
    ("cut-choose", CUT | {"chooser": "B"}, "played[3].chooser", "expected no"),
    ("cut-choose", CUT | {"red": "B", "black": "A", "result": "red"}, "played[3].red", "as Red"),
]


@pytest.mark.parametrize(("preset", "decision", "key", "says"), BAD)
def test_a_bad_recorded_decision_is_one_line_naming_its_key(
    preset: str, decision: dict[str, Any], key: str, says: str
) -> None:
    with pytest.raises(ScenarioError) as err:
        scenario(preset, decision)
    problems = err.value.problems
    assert len(problems) == 1, problems
    assert problems[0].key == key and says in problems[0].message, problems[0]


def test_a_scenario_built_in_python_checks_the_recorded_minutes() -> None:
    sc = scenario("cut-choose", CUT)
    last = sc.played[-1]
    assert last.made is not None
    cut = replace(last, made=replace(last.made, red_minutes=500.0))
    with pytest.raises(ScenarioError, match=r"played\[3\]\.red_minutes: .* to 100"):
        replace(sc, played=(*sc.played[:-1], cut))
    sealed = scenario("armageddon-vickrey", SEALED)
    last = sealed.played[-1]
    assert last.made is not None
    bids = replace(last, made=replace(last.made, bids={"A": 6.5, "B": 30.0}))
    with pytest.raises(ScenarioError, match=r"played\[3\]\.bids\.B: .* to 10"):
        replace(sealed, played=(*sealed.played[:-1], bids))
