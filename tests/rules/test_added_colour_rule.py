"""A made-up colour rule, added from this module alone: its decision, its walker handlers, its
made decision and its organiser command. Nothing else in the code knows it.

The rule, ``last-red-picks``: the player who had Red in the previous game picks the colours of
the stage's first game. Its own strategy picks Black when a drawn game counts for Black (else
Red), so unrecorded it gives the same games as ``alternate`` (the first game swaps the previous
game's colours): the exact odds must equal the rule book's own ``alternate`` to the last bit of
a sum, the Monte Carlo and the SimPy engine must agree with them, a pick recorded the other way
must give the odds of a colour choice recorded the same way, and organiser mode must ask for it,
record it as a decision entry, replay it and undo it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, ClassVar

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

import knockout
from knockout.cli.event import event_app
from knockout.engine import match as engine_match
from knockout.errors import ScenarioError
from knockout.event.decisions import Answer
from knockout.event.state import Event, NextGame, PendingDecision
from knockout.event.store import create_event, load_event, record_decision, record_game, undo
from knockout.exact import solver
from knockout.game import Colour, Result
from knockout.program import app
from knockout.rules.book.formats import Stage
from knockout.rules.chain.match import MatchState
from knockout.rules.chain.pairing import Pairing
from knockout.rules.chain.replay import PlayedGame
from knockout.rules.decisions.kinds import (
    ChoiceMade,
    Decision,
    OtherDecision,
    OtherSettled,
    Side,
    add_colour_rule,
    other,
    remove_colour_rule,
)
from knockout.rules.decisions.made import MADE, Made, MadeChoice, MadeError, Settled
from knockout.rules.scenario.aggregate import Scenario, parse_scenario

RULE = "last-red-picks"
runner = CliRunner()

# --- the rule: its decision and the walkers' form of a pick ---------------------------------


@dataclass(frozen=True)
class Picked(OtherSettled):
    """The pick as the walkers read it: who picked (a side) and the colour taken."""

    picker: Side
    colour: Colour

    @property
    def red(self) -> Side:  # type: ignore[override]
        return self.picker if self.colour is Colour.RED else other(self.picker)


@dataclass(frozen=True)
class LastRedPicks(OtherDecision):
    """The player who had Red in the previous game (``picker``) picks the colours; ``black``:
    the stage's draw counts for Black (the picker's own rule then takes Black)."""

    picker: Side
    black: bool
    made: Picked | None = None  # type: ignore[assignment]

    kind: ClassVar[str] = "last-red-pick"


def _decide(
    stage: Stage,
    *,
    last_red: Side | None,
    made: Settled | None = None,
    **_: object,
) -> LastRedPicks:
    picked = made if isinstance(made, Picked) else None
    # without a previous game (a walker asking which kind of decision the stage has): A
    return LastRedPicks(last_red or 0, stage.draw_winner is Colour.BLACK, picked)


def _reds(decision: LastRedPicks) -> Side:
    """Who has Red: as recorded, else the picker's own rule."""
    if decision.made is not None:
        return decision.made.red
    return other(decision.picker) if decision.black else decision.picker


def exact_handler(
    pairing: Pairing, state: MatchState, decision: OtherDecision
) -> Sequence[tuple[float, Side]]:
    assert isinstance(decision, LastRedPicks)
    return [(1.0, _reds(decision))]


def engine_handler(
    pairing: Pairing, state: MatchState, decision: OtherDecision, rng: np.random.Generator
) -> Side:
    assert isinstance(decision, LastRedPicks)
    return _reds(decision)


# --- the made decision ---------------------------------------------------------------------


@dataclass(frozen=True)
class MadePick(Made, register=False):  # registered by the fixture, for these tests only
    """The pick, the players named: who picked, and the colour they took."""

    picker: str
    colour: Colour

    kind: ClassVar[str] = "pick"
    decision_kind: ClassVar[str] = "last-red-pick"
    rule: ClassVar[str] = RULE
    decision: ClassVar[type] = LastRedPicks
    words: ClassVar[str] = "last Red's pick"
    keys: ClassVar[tuple[str, ...]] = ("picker", "colour")
    decider_key: ClassVar[str | None] = "picker"
    recordable: ClassVar[str] = "picker and colour"
    decider_words: ClassVar[str] = "the picker"
    at_words: ClassVar[str] = "the pick of last game's Red"
    usage: ClassVar[str] = "red|black"

    def to_fields(self) -> dict[str, Any]:
        return {"picker": self.picker, "colour": self.colour.value}

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> MadePick:
        return cls(str(fields["picker"]).strip(), Colour(str(fields["colour"])))

    def settle(
        self, decision: Decision, names: tuple[str, str], times: Mapping[str, float], red: str
    ) -> Picked:
        assert isinstance(decision, LastRedPicks)
        if self.picker != names[decision.picker]:
            raise MadeError(
                f"expected {names[decision.picker]!r} (had Red in the previous game), got "
                f"{self.picker!r}",
                key="picker",
            )
        picked = Picked(decision.picker, self.colour)
        if names[picked.red] != red:
            raise MadeError(f"expected {names[picked.red]!r} as Red, got {red!r}", key="red")
        return picked

    def colours(self, stage: Stage, names: tuple[str, str]) -> tuple[str, str]:
        rest = names[1] if self.picker == names[0] else names[0]
        return (self.picker, rest) if self.colour is Colour.RED else (rest, self.picker)

    def clock(self, stage: Stage) -> tuple[float, float]:
        return stage.minutes

    def text(self, red: str, black: str, clock: tuple[float, float]) -> str:
        return f"{self.picker} picks {self.colour.value}: {red} Red v {black} Black"


# --- the organiser's command: it only parses into an answer ---------------------------------


def pick_answer(colour: str) -> Answer:
    def read(event: Event, step: PendingDecision) -> tuple[Made, str | None]:
        m = event.find_match(step.match)
        return MadePick(m.games[-1].red, Colour(colour.strip().lower())), "rule"

    return Answer(MadePick, read)


def pick(
    event: Annotated[Path, typer.Argument()],
    match: Annotated[str, typer.Argument()],
    colour: Annotated[str, typer.Argument()],
) -> None:
    """Record the pick of the player who had Red in the previous game."""
    record_decision(event, match, pick_answer(colour), command=f"pick {match} {colour}")


@pytest.fixture(autouse=True)
def added_rule() -> Iterator[None]:
    """The rule added for this module's tests only, and taken out again."""
    add_colour_rule(RULE, _decide)
    solver.OTHER_DECISIONS[LastRedPicks] = exact_handler
    engine_match.OTHER_DECISIONS[LastRedPicks] = engine_handler
    MADE["pick"] = MadePick
    event_app.command("pick")(pick)
    yield
    remove_colour_rule(RULE)
    del solver.OTHER_DECISIONS[LastRedPicks]
    del engine_match.OTHER_DECISIONS[LastRedPicks]
    del MADE["pick"]
    event_app.registered_commands[:] = [
        c for c in event_app.registered_commands if c.callback is not pick
    ]


# --- the walkers ---------------------------------------------------------------------------


def _toml(colours: str) -> str:
    return (
        f'name = "added"\n[format]\npreset = "official-1"\n[format.decider]\ncolours = '
        f'"{colours}"\n[[players]]\nname = "A"\nrating = 2560\n[[players]]\nname = "B"\n'
        "rating = 2500\n"
    )


def _scenario(colours: str) -> Scenario:
    import tomllib

    return parse_scenario(tomllib.loads(_toml(colours)), source="added.toml")


def test_the_rule_reads_from_a_file_and_its_odds_are_the_rule_books_own() -> None:
    added, own = _scenario(RULE), _scenario("alternate")
    assert added.format.stage("decider").colours == RULE
    assert added.to_dict()["format"]["decider"]["colours"] == RULE
    got, expected = knockout.odds(added), knockout.odds(own)
    for name in ("A", "B"):
        assert got.win[name] == pytest.approx(expected.win[name], abs=1e-12)
    assert got.decided == pytest.approx(expected.decided, abs=1e-12)


def test_a_stage_naming_no_rule_is_refused_with_the_rules_it_may_name() -> None:
    with pytest.raises(ScenarioError) as info:
        _scenario("lots")
    assert str(info.value) == (
        "added.toml: format.decider.colours: expected one of 'lot', 'alternate', 'bidding', "
        f"'sealed-bid', 'choice', 'cut-choose' or '{RULE}', got 'lots'"
    )


def test_the_monte_carlo_and_the_engine_agree_with_the_exact_odds() -> None:
    sc = _scenario(RULE)
    exact = knockout.odds(sc).win["A"]
    run = knockout.simulate(sc, runs=40_000, seed=3)
    est = run.estimates
    assert est is not None
    assert abs(est.value.win["A"] - exact) <= 5 * est.stderr.win["A"]
    plays = 300
    wins = sum(knockout.play(sc, seed=s).record.winner == "A" for s in range(plays))
    assert abs(wins / plays - exact) <= 5 * math.sqrt(exact * (1 - exact) / plays)
    lines = next(
        lines
        for lines in ([e.text for e in knockout.play(sc, seed=s).log] for s in range(100))
        if any("last-red-pick" in line for line in lines)
    )  # the engine narrates the decision with its handler's colours
    said = next(line for line in lines if "last-red-pick" in line)
    assert " Red " in said and " Black " in said


def test_a_recorded_pick_rides_on_the_decision_like_a_recorded_choice() -> None:
    base = _scenario(RULE)
    games = (
        PlayedGame("A", "B", "slow", Result.DRAW),
        PlayedGame("B", "A", "rapid", Result.DRAW),
    )
    # B had Red last, picks Red (against the rule's own Black): B Red in the decider
    picked = replace(
        base,
        played=(*games, PlayedGame("B", "A", "decider", None, None, MadePick("B", Colour.RED))),
    )
    assert picked.position.made == Picked(1, Colour.RED)
    chosen = replace(
        _scenario("choice"),
        played=(*games, PlayedGame("B", "A", "decider", None, None, MadeChoice("B", Colour.RED))),
    )
    assert chosen.position.made == ChoiceMade(1, Colour.RED)
    got, expected = knockout.odds(picked), knockout.odds(chosen)
    assert got.win["A"] == pytest.approx(expected.win["A"], abs=1e-12)
    with pytest.raises(ScenarioError, match="picker"):
        replace(
            base,
            played=(*games, PlayedGame("A", "B", "decider", None, None, MadePick("A", Colour.RED))),
        )


# --- organiser mode ------------------------------------------------------------------------


def test_organiser_mode_asks_records_replays_and_undoes_the_pick(tmp_path: Path) -> None:
    scenario = tmp_path / "added.toml"
    scenario.write_text(_toml(RULE), encoding="utf-8")
    db = tmp_path / "added.db"
    create_event(db, scenario, command="test", seed=5)
    record_game(db, "R1-M1", 1, "1/2")
    event = record_game(db, "R1-M1", 2, "1/2")[1]
    step = event.next_step(event.find_match("R1-M1"))
    assert isinstance(step, PendingDecision) and step.made is MadePick
    last_red = event.find_match("R1-M1").games[-1].red
    # wide: the command names a temporary path, longer under pytest-xdist
    out = runner.invoke(app, ["event", "next", str(db)], env={"COLUMNS": "400"})
    assert out.exit_code == 0, out.output
    assert f"knockout event pick {db} R1-M1 red|black" in " ".join(out.output.split())
    data = json.loads(runner.invoke(app, ["event", "next", str(db), "--json"]).output)
    assert data["decisions"] == [
        {"match": "R1-M1", "game": 3, "kind": "last-red-pick", "chooser": None}
    ]
    done = runner.invoke(app, ["event", "pick", str(db), "R1-M1", "red"])
    assert done.exit_code == 0, done.output
    event = load_event(db)
    entry = event.entries[-1]
    assert entry.kind == "decision" and entry.fields["kind"] == "pick"
    nxt = event.next_step(event.find_match("R1-M1"))
    assert isinstance(nxt, NextGame) and nxt.colours == "pick" and nxt.red == last_red
    log = runner.invoke(app, ["event", "log", str(db)])
    assert f"{last_red} picks red" in log.output
    undo(db, command="test")
    again = load_event(db)
    assert isinstance(again.next_step(again.find_match("R1-M1")), PendingDecision)
