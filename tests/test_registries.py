"""One contract over every registry entry: each format preset and strategy kind, through every
walker (exact solver, Monte Carlo, SimPy engine) and organiser mode.

Shape and exact checks run for every entry; statistical agreement runs on a fixed sample that
covers each kind of decision (:mod:`knockout.rules.decisions.kinds`), so ``make test`` stays fast.
"""

from __future__ import annotations

import math
import typing
from pathlib import Path
from typing import Any

import pytest

from knockout.engine.match import play_scenario_match
from knockout.event.decisions import bid_answer, choice_answer, cut_answer, sealed_answer
from knockout.event.export import to_scenario_toml
from knockout.event.odds import event_odds
from knockout.event.state import NextGame, PendingDecision
from knockout.event.store import (
    create_event,
    load_event,
    record_decision,
    record_game,
)
from knockout.exact.odds import match_odds
from knockout.io.scenario import load_scenario
from knockout.rules.book.presets import FORMATS
from knockout.rules.chain.match import MatchState, next_decision
from knockout.rules.decisions.kinds import Decision, OtherDecision, decide
from knockout.rules.decisions.strategies import STRATEGIES
from knockout.rules.scenario.aggregate import Scenario, parse_scenario
from sims.match import simulate_match


def _scenario(preset: str, kind: str = "rational", belief_sd: float = 150.0) -> Scenario:
    return parse_scenario(
        {
            "name": f"{preset} {kind}",
            "format": {"preset": preset},
            "strategy": {"kind": kind, "belief_sd": belief_sd},
            "players": [{"name": "A", "rating": 2560}, {"name": "B", "rating": 2500}],
        }
    )


def _decision_kinds(preset: str) -> set[type]:
    """The kinds of decision a preset's games can meet (first game of each stage, and later)."""
    fmt = FORMATS[preset]
    kinds: set[type] = set()
    for s, stage in enumerate(fmt.playable):
        for last_red in (None, 0):
            if s == 0 and last_red is not None:
                continue
            kinds.add(type(next_decision(fmt, MatchState(s, 0, 0, last_red))))
        if stage.games > 1:
            kinds.add(type(decide(stage, game=1, last_red=0)))
    return kinds


def test_the_presets_exercise_every_kind_of_decision() -> None:
    every = set(typing.get_args(Decision)) - {OtherDecision}  # the rule book's own kinds
    reached = set().union(*(_decision_kinds(p) for p in FORMATS))
    assert reached == every


#: Cells that solve grid equilibria or Bayesian cut tables (seconds each): run by make test only.
SLOW_CELLS = {
    ("armageddon-bid", "equilibrium"),
    ("armageddon-vickrey", "equilibrium"),
    ("cut-choose", "equilibrium"),
    ("cut-choose", "bayesian"),
}


@pytest.mark.parametrize(
    ("preset", "kind"),
    [
        pytest.param(p, k, marks=[pytest.mark.slow] if (p, k) in SLOW_CELLS else [])
        for p in sorted(FORMATS)
        for k in sorted(STRATEGIES)
    ],
)
def test_every_preset_and_strategy_walks_to_one_answer(preset: str, kind: str) -> None:
    sc = _scenario(preset, kind)
    exact = match_odds(sc)
    assert math.isclose(sum(exact.win.values()) + exact.unresolved, 1.0, abs_tol=1e-9)
    est, _ = simulate_match(sc, 2048, 3)
    assert est is not None
    assert set(est.to_json()) >= set(exact.to_json()) - {"win_if_ratings_exact"}
    record = play_scenario_match(sc, seed=1)[0]
    assert record.winner in ("A", "B")
    assert record.decided_in in FORMATS[preset].stage_names


#: A fixed sample covering each decision kind under each family of strategies.
SAMPLE = [
    ("official-playoff", "believed"),  # a colour choice on private beliefs
    ("xq-bidding", "bayesian"),  # the bidding rule on private beliefs
    ("armageddon-bid", "believed"),  # sealed bids drawn per match
    ("blitz-pairs", "rational"),  # lots and a repeating stage
    ("xq-bidding", "equilibrium"),  # the bidding rule's perfect Bayesian equilibrium
    ("armageddon-vickrey", "equilibrium"),  # second-price sealed bids, mixed on the grid
    ("cut-choose", "equilibrium"),  # cut-and-choose, mixed on the grid
]


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "kind"), SAMPLE)
def test_monte_carlo_and_engine_agree_with_exact(preset: str, kind: str) -> None:
    sc = _scenario(preset, kind)
    p = match_odds(sc).win["A"]
    runs = 200_000
    est, _ = simulate_match(sc, runs, 11)
    assert est is not None
    assert abs(est.value.win["A"] - p) <= 4 * est.stderr.win["A"]
    plays = 600
    wins = sum(play_scenario_match(sc, seed=s)[0].winner == "A" for s in range(plays))
    assert abs(wins / plays - p) <= 4 * math.sqrt(p * (1 - p) / plays)


def _answer(step: PendingDecision) -> dict[str, Any]:
    """The arbiter's answer to a decision: a bid, a colour choice or a cut, naming the chooser
    (the cutter) when the rules leave it to the arbiter's lot."""
    chooser = step.chooser if step.chooser is not None else step.players[1]
    key = "cutter" if step.kind == "cut" else "chooser"
    return {key: None if step.chooser is not None else chooser}


def _record_decision(db: Path, step: PendingDecision) -> None:
    """Record the arbiter's answer to the open decision of R1-M1."""
    if step.kind == "bid":
        record_decision(db, "R1-M1", bid_answer(announce="black", reply="object", **_answer(step)))
    elif step.kind == "choice":
        record_decision(db, "R1-M1", choice_answer(colour="black", **_answer(step)))
    elif step.kind == "sealed-bid":
        a, b = step.players
        record_decision(db, "R1-M1", sealed_answer(bids=[f"{a}=6.25", f"{b}=8.5"]))
    else:
        record_decision(
            db, "R1-M1", cut_answer(red_minutes="21.75", colour="black", **_answer(step))
        )


@pytest.mark.parametrize("preset", sorted(FORMATS))
def test_organiser_mode_asks_for_every_decision_of_every_preset(
    preset: str, tmp_path: Path
) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_text(
        f'name = "{preset}"\n[format]\npreset = "{preset}"\n'
        '[[players]]\nname = "A"\nrating = 2560\n[[players]]\nname = "B"\nrating = 2500\n',
        encoding="utf-8",
    )
    db = tmp_path / "e.db"
    create_event(db, scenario, command="test", seed=5)
    asked: set[str] = set()
    for _ in range(60):
        ev = load_event(db)
        m = ev.find_match("R1-M1")
        if m.winner is not None:
            break
        step = ev.next_step(m)
        rule = m.next_decision(ev)
        assert step is not None and rule is not None
        if isinstance(step, PendingDecision):
            assert step.kind == rule.kind  # organiser mode asks exactly the open decision
            assert [d.decision_json()["kind"] for d in ev.pending_decisions()] == [step.kind]
            asked.add(step.kind)
            before = event_odds(ev).win
            _record_decision(db, step)
            ev = load_event(db)
            assert event_odds(ev).win != before  # the recorded decision moves the odds
            exported = tmp_path / "export.toml"
            exported.write_text(to_scenario_toml(ev), encoding="utf-8")
            assert match_odds(load_scenario(exported)).win == event_odds(ev).win
            continue
        assert isinstance(step, NextGame)
        record_game(db, "R1-M1", step.number, "1/2")
    expected = {k.kind for k in _decision_kinds(preset) if hasattr(k, "kind")}
    assert asked == expected


@pytest.mark.parametrize("kind", sorted(STRATEGIES))
def test_a_strategy_is_its_hooks(kind: str) -> None:
    """The slim contract: a strategy kind gives the rule of each decision problem (regions of
    the bidding, the colour choice's region, the sealed bid, cut-and-choose); everything else is
    derived once in the base class for every kind."""
    cls = STRATEGIES[kind]
    own = {
        name
        for klass in cls.__mro__
        if klass.__name__ not in ("Strategy", "ABC", "object")
        for name, value in vars(klass).items()
        if callable(value) and not name.startswith("__")
    }
    assert own <= {"regions", "choice_region", "bid", "cut"}, own
