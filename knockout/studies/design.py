"""Designing the format: ``knockout design``, a search of the schemes for the one that best
separates strength within a time budget.

A design file names a base scenario (its model, strategy and players), a search space, an
objective, constraints and, optionally, several models to be robust across::

    scenario = "../final-2600-vs-2550.toml"      # relative to the design file
    [space]
    slow_games = [1, 2]
    rapid_games = [0, 1, 2]            # rapid 15+10, colours: lot, then alternate
    decider = ["xq-bidding"]           # the seed's bidding sudden death (preset names)
    [objective]
    stronger_advances = { gap = 100 }  # P(stronger advances), 100 Elo apart around the mean
    [constraints]
    expected_minutes = 200             # at most, for equal players

The space has three stage slots before the decider: ``slow``, ``rapid`` and ``super_rapid``,
each with ``<slot>_games``, ``<slot>_clock`` (clocks as arbiters write them: ``60+10``,
``30/10+10``), ``<slot>_colours`` (``lot`` or ``alternate``: the first game's colours; later
games swap) and ``<slot>_repeat`` (``false``; ``true``: repeated until a block is won, which
ends the match; a number N: at most N times, then the next stage); whatever the space leaves
out is as in the base scenario's format (a slot it has no stage for has no games). ``decider``
lists presets (their deciding stage) or tables ``{preset, clock, colours, chooser, priority,
menu}`` whose lists multiply. Every combination that is a playable format is one candidate;
duplicates count once.

Each candidate is evaluated exactly (:mod:`knockout.exact.compose`: every distinct stage walked
once through the match chain for every pair of players, then composed for all formats at once),
under each model of ``[robustness] models`` (named variants, :mod:`knockout.rules.model.variants`,
or tables over the scenario's ``[model]``), and ranked by the worst case or the mean across them.
The figures are those of ``knockout compare`` (equal players at the scenario's mean rating with
equal speeds; the stronger player ``gap / 2`` above the mean and the weaker ``gap / 2`` below),
plus the longest match (every game on its full clocks) and, when constrained, its 99th
percentile. Work is cut into units (a chunk of formats under one model) run by
:func:`sims.runner.run_blocks`, locally or on Dask; Ctrl-C keeps the chunks finished under
every model.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import time
import uuid
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal, Self, TypeVar

import numpy as np
import numpy.typing as npt
from pydantic import Field, ValidationError

from knockout.arrays import FloatArray, IntArray
from knockout.errors import InputError, Problem
from knockout.exact.compose import (
    StageKey,
    StageProfile,
    compose,
    full_minutes,
    reserved_quantile,
    stage_keys,
    stage_profile,
)
from knockout.i18n import _
from knockout.io.scenario import load_scenario
from knockout.io.tomlfile import load_toml
from knockout.rules.book.formats import (
    CHOOSER_RULES,
    BiddingMenu,
    ColourRule,
    Format,
    Priority,
    Stage,
)
from knockout.rules.book.presets import FORMATS
from knockout.rules.book.walkover import walkover_sides
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.strategies import Strategy
from knockout.rules.model.players import Player
from knockout.rules.model.strength import ModelParams
from knockout.rules.model.table import DrawNuIn, EloPerDoublingIn, RedAdvantageIn
from knockout.rules.model.table import model_params as _apply_model
from knockout.rules.model.variants import MODEL_VARIANTS
from knockout.rules.scenario.aggregate import Scenario
from knockout.studies.compare import decider_edge
from knockout.validation import Table, problems_of
from sims.runner import Executor, Workers, run_blocks

__all__ = [
    "QUANTILE",
    "SLOTS",
    "Candidate",
    "Constraints",
    "Design",
    "DesignJob",
    "DesignResult",
    "Objective",
    "Scored",
    "Space",
    "best_within",
    "design_job",
    "enumerate_space",
    "load_design",
    "load_space",
    "pareto_front",
    "parse_clock",
    "parse_design",
    "parse_space",
    "pilot_seconds",
    "pilot_walks",
    "run_design",
    "score_formats",
]

Progress = Callable[[int, int], None]
T = TypeVar("T")

#: The stage slots before the decider, in match order, with their defaults when the base
#: scenario has no stage of that name: (clock, colours).
SLOTS: Mapping[str, tuple[tuple[float, float, float], ColourRule]] = {
    "slow": ((60.0, 60.0, 10.0), ColourRule.LOT),
    "rapid": ((15.0, 15.0, 10.0), ColourRule.LOT),
    "super_rapid": ((5.0, 5.0, 3.0), ColourRule.ALTERNATE),
}
#: The quantile of the reserved time that ``p99_minutes`` bounds.
QUANTILE = 0.99
#: Objectives within this of each other are ties (then the shorter format wins); minutes are
#: compared to this many decimals. The exact figures carry rounding of about 1e-15.
OBJECTIVE_DECIMALS, MINUTES_DECIMALS = 12, 6
#: Most candidates a design may have (each is evaluated under every model).
MAX_CANDIDATES = 2_000_000

ObjectiveKind = Literal["stronger_advances", "top_seed_wins", "champion_rating", "champion_seed"]
Rank = Literal["worst", "mean"]
_CLOCK = re.compile(
    r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:/\s*(\d+(?:\.\d*)?|\.\d+))?\s*\+\s*(\d+(?:\.\d*)?|\.\d+)\s*$"
)


def parse_clock(text: str) -> tuple[float, float, float] | None:
    """``(Red base, Black base, increment seconds)`` of a clock as arbiters write it, or None.

    >>> parse_clock("60+10"), parse_clock("6/4+3")
    ((60.0, 60.0, 10.0), (6.0, 4.0, 3.0))
    >>> parse_clock("0+10") is None, parse_clock("60-10") is None
    (True, True)
    """
    m = _CLOCK.match(text)
    if m is None:
        return None
    red = float(m.group(1))
    black = red if m.group(2) is None else float(m.group(2))
    if not (red > 0 and black > 0):
        return None
    return red, black, float(m.group(3))


def clock_text(stage: Stage) -> str:
    """A stage's clock as arbiters write it (``60+10``, ``6/4+3``)."""
    red, black = stage.minutes
    base = f"{red:g}" if red == black else f"{red:g}/{black:g}"
    return f"{base}+{stage.increment_seconds:g}"


# ---------------------------------------------------------------------------------------------
# The design file

Values = Annotated[list[Any], Field(min_length=1, strict=False)]
NonNegative = Annotated[float, Field(strict=True, ge=0)]
Positive = Annotated[float, Field(strict=True, gt=0)]
ClockPair = Annotated[list[Positive], Field(min_length=2, max_length=2)]


class _MenuIn(Table):
    accept: ClockPair
    object_red: ClockPair
    object_black: ClockPair


class _DeciderIn(Table):
    preset: Annotated[str, Field(min_length=1)]
    clock: Annotated[list[str], Field(min_length=1)] | None = None
    colours: Annotated[list[Literal["lot", "alternate", "choice"]], Field(min_length=1)] | None = (
        None
    )
    chooser: Annotated[list[str], Field(min_length=1)] | None = None
    priority: Annotated[list[Literal["less-time", "lot"]], Field(min_length=1)] | None = None
    menu: Annotated[list[_MenuIn], Field(min_length=1)] | None = None


class _SpaceIn(Table):
    slow_games: Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=1)] | None = None
    slow_clock: Annotated[list[str], Field(min_length=1)] | None = None
    slow_colours: Annotated[list[Literal["lot", "alternate"]], Field(min_length=1)] | None = None
    slow_repeat: Values | None = None
    rapid_games: Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=1)] | None = None
    rapid_clock: Annotated[list[str], Field(min_length=1)] | None = None
    rapid_colours: Annotated[list[Literal["lot", "alternate"]], Field(min_length=1)] | None = None
    rapid_repeat: Values | None = None
    super_rapid_games: Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=1)] | None = (
        None
    )
    super_rapid_clock: Annotated[list[str], Field(min_length=1)] | None = None
    super_rapid_colours: (
        Annotated[list[Literal["lot", "alternate"]], Field(min_length=1)] | None
    ) = None
    super_rapid_repeat: Values | None = None
    decider: Values | None = None


class _GapIn(Table):
    gap: NonNegative | Annotated[list[NonNegative], Field(min_length=1)]


class _ObjectiveIn(Table):
    stronger_advances: _GapIn | None = None
    top_seed_wins: bool | None = None
    champion_rating: bool | None = None
    champion_seed: bool | None = None


class _ConstraintsIn(Table):
    expected_minutes: Positive | Annotated[list[Positive], Field(min_length=1)] | None = None
    decider_edge: Annotated[float, Field(strict=True, ge=0, le=0.5)] | None = None
    max_minutes: Positive | None = None
    p99_minutes: Positive | None = None
    decider_reached: Annotated[float, Field(strict=True, ge=0, le=1)] | None = None


class _ModelIn(Table):
    name: Annotated[str, Field(min_length=1)]
    red_advantage: RedAdvantageIn = RedAdvantageIn()
    draw_nu: DrawNuIn = DrawNuIn()
    elo_per_doubling: EloPerDoublingIn = EloPerDoublingIn()


class _RobustnessIn(Table):
    models: Values
    rank: Literal["worst", "mean"] = "worst"


class _DesignIn(Table):
    name: str | None = None
    scenario: Annotated[str, Field(min_length=1)]
    space: _SpaceIn
    objective: _ObjectiveIn
    constraints: _ConstraintsIn = _ConstraintsIn()
    robustness: _RobustnessIn | None = None


@dataclass(frozen=True)
class Objective:
    """What the search maximises.

    Attributes:
        kind: ``stronger_advances`` (P(the stronger player advances), the mean over ``gaps``),
            ``top_seed_wins``, ``champion_rating`` (the champion's expected rating) or
            ``champion_seed`` (the champion's expected seed: lower is better).
        gaps: Rating gaps around the scenario's mean (``stronger_advances``).
    """

    kind: ObjectiveKind
    gaps: tuple[float, ...] = ()

    @property
    def maximise(self) -> bool:
        """Whether a larger value is better (every objective but the expected seed)."""
        return self.kind != "champion_seed"

    @property
    def is_bracket(self) -> bool:
        """Whether it needs a bracket (more than two players)."""
        return self.kind != "stronger_advances"

    def to_dict(self) -> dict[str, Any]:
        """The ``[objective]`` table."""
        if self.kind == "stronger_advances":
            gap: float | list[float] = self.gaps[0] if len(self.gaps) == 1 else list(self.gaps)
            return {"stronger_advances": {"gap": gap}}
        return {self.kind: True}

    def describe(self) -> str:
        """The objective in words."""
        if self.kind == "stronger_advances":
            gaps = _(", ").join(f"{g:g}" for g in self.gaps)
            mean = _(" (the mean over the gaps)") if len(self.gaps) > 1 else ""
            return _("P(the stronger player advances), {gaps} Elo apart{mean}").format(
                gaps=gaps, mean=mean
            )
        return {
            "top_seed_wins": _("P(the top seed wins the event)"),
            "champion_rating": _("the champion's expected rating"),
            "champion_seed": _("the champion's expected seed (lower is better)"),
        }[self.kind]


@dataclass(frozen=True)
class Constraints:
    """The bounds a format must meet (None: not constrained).

    Attributes:
        budgets: Expected minutes at most, for equal players: one best format per budget.
        decider_edge: ``|decider edge|`` at most (a probability: 0.01 is one point).
        max_minutes: The longest possible match at most (every game on its full clocks).
        p99_minutes: The 99th percentile of that length at most.
        decider_reached: P(the last stage is played) at most, for equal players.
    """

    budgets: tuple[float, ...] = ()
    decider_edge: float | None = None
    max_minutes: float | None = None
    p99_minutes: float | None = None
    decider_reached: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The ``[constraints]`` table (only what is constrained)."""
        out: dict[str, Any] = {}
        if self.budgets:
            out["expected_minutes"] = (
                self.budgets[0] if len(self.budgets) == 1 else list(self.budgets)
            )
        for name in ("decider_edge", "max_minutes", "p99_minutes", "decider_reached"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out


@dataclass(frozen=True)
class Candidate:
    """One format of the space.

    Attributes:
        format: The format (a custom one: its playable stages in order).
        values: The space's value for each dimension (``slow_games``, ..., ``decider``).
        label: A short name (``slow 2×60+10 · rapid 1×15+10 · xq-bidding``).
    """

    format: Format
    values: dict[str, Any]
    label: str


@dataclass(frozen=True)
class Design:
    """A parsed design file.

    Attributes:
        name: Title.
        source: The design file.
        scenario: The base scenario.
        scenario_path: Its file.
        candidates: Every distinct playable format of the space, in enumeration order.
        combinations: Combinations of the space's values (before duplicates and unplayable
            ones are dropped).
        refused: Why combinations were not playable formats (message: count).
        objective: What is maximised.
        constraints: What must hold.
        models: ``(name, model)`` of each model the formats are judged under.
        rank: ``worst`` or ``mean`` across the models.
        dimensions: The space's dimensions that vary, in order (CSV columns).
        table: The design as resolved (the JSON's ``design``).
    """

    name: str
    source: str
    scenario: Scenario
    scenario_path: str
    candidates: tuple[Candidate, ...]
    combinations: int
    refused: dict[str, int]
    objective: Objective
    constraints: Constraints
    models: tuple[tuple[str, ModelParams], ...]
    rank: Rank
    dimensions: tuple[str, ...]
    table: dict[str, Any]


def load_design(path: str | Path, *, encoding: str | None = None) -> Design:
    """Read and check a design file (paths in it are relative to it).

    Raises:
        InputError: Every problem at once, one line each.
    """
    data = load_toml(path, encoding=encoding)
    return parse_design(data, source=str(path), folder=Path(path).parent)


@dataclass(frozen=True)
class Space:
    """A design file read and checked, before its formats are enumerated (which can take a
    while: :func:`knockout.studies.design_size.size_design` times it first).

    Attributes:
        source: The design file.
        parsed: Its tables, validated.
        scenario: The base scenario.
        scenario_path: Its file.
        objective: What is maximised.
        constraints: What must hold.
        models: ``(name, model)`` of each model.
        rank: ``worst`` or ``mean`` across the models.
        slots: Per stage slot, its options (a stage or None, and the space's values).
        deciders: The deciders, each with its label.
    """

    source: str
    parsed: Any
    scenario: Scenario
    scenario_path: str
    objective: Objective
    constraints: Constraints
    models: tuple[tuple[str, ModelParams], ...]
    rank: Rank
    slots: Mapping[str, list[tuple[Stage | None, dict[str, Any]]]]
    deciders: tuple[tuple[Stage, str], ...]

    @property
    def combinations(self) -> int:
        """Combinations of the space's values: every slot's options times the deciders (the
        formats are among them, fewer where some are unplayable or duplicates)."""
        return math.prod(len(v) for v in self.slots.values()) * len(self.deciders)

    def check_size(self) -> None:
        """Refuse, before any enumeration, a space whose combinations times models pass
        :data:`MAX_CANDIDATES`.

        Raises:
            InputError: One line.
        """
        if self.combinations * len(self.models) > MAX_CANDIDATES:
            raise InputError.single(
                self.source,
                "space",
                f"expected at most {MAX_CANDIDATES:,} formats x models, got "
                f"{self.combinations:,} combinations of the space (the formats are among them) "
                f"x {len(self.models)}",
            )

    def design(
        self,
        candidates: Sequence[Candidate],
        combinations: int,
        refused: Mapping[str, int],
        dimensions: tuple[str, ...],
    ) -> Design:
        """The design of these candidates (all the space's, or a pilot's first few)."""
        parsed = self.parsed
        table: dict[str, Any] = {
            "name": parsed.name or Path(self.source).stem,
            "file": self.source,
            "scenario": self.scenario_path,
            "space": parsed.space.model_dump(exclude_none=True),
            "objective": self.objective.to_dict(),
            "constraints": self.constraints.to_dict(),
            "robustness": {"models": [name for name, _ in self.models], "rank": self.rank},
        }
        return Design(
            name=table["name"],
            source=self.source,
            scenario=self.scenario,
            scenario_path=self.scenario_path,
            candidates=tuple(candidates),
            combinations=combinations,
            refused=dict(refused),
            objective=self.objective,
            constraints=self.constraints,
            models=self.models,
            rank=self.rank,
            dimensions=dimensions,
            table=json.loads(json.dumps(table)),
        )


def parse_space(data: Mapping[str, Any], *, source: str, folder: Path) -> Space:
    """A design file's tables read and checked, without enumerating its formats.

    Raises:
        InputError: Every problem at once, one line each.
    """
    try:
        parsed = _DesignIn.model_validate(dict(data))
    except ValidationError as exc:
        raise InputError(problems_of(exc, source, _DesignIn)) from None
    scenario_path = os.path.normpath(folder / parsed.scenario)
    if not Path(scenario_path).is_file():
        raise InputError.single(
            source,
            "scenario",
            f"expected a scenario file (relative to the design file), {scenario_path} is none",
        )
    scenario = load_scenario(scenario_path)
    problems: list[Problem] = []

    def problem(key: str, message: str) -> None:
        problems.append(Problem(source, key, message))

    objective = _objective(parsed.objective, scenario, problem)
    constraints = _constraints(parsed.constraints)
    models, rank = _models(parsed.robustness, scenario, problem, source)
    slots = {name: _slot_options(name, parsed.space, scenario, problem) for name in SLOTS}
    deciders = _decider_options(parsed.space, scenario, problem)
    if scenario.played:
        problem(
            "scenario",
            f"expected a scenario with no games played ({scenario_path} has "
            f"{len(scenario.played)} [[played]] entries): a design compares fresh matches",
        )
    if objective is not None and objective.is_bracket:
        for i, p in enumerate(scenario.players):
            if p.rating_sd > 0:
                problem(
                    "scenario",
                    f"a bracket objective takes the ratings as exact; {scenario_path}: "
                    f"players[{i}].rating_sd is {p.rating_sd:g}",
                )
    if problems:
        raise InputError(problems)
    assert objective is not None
    return Space(
        source=source,
        parsed=parsed,
        scenario=scenario,
        scenario_path=scenario_path,
        objective=objective,
        constraints=constraints,
        models=tuple(models),
        rank=rank,
        slots=slots,
        deciders=tuple(deciders),
    )


def load_space(path: str | Path, *, encoding: str | None = None) -> Space:
    """:func:`parse_space` of a design file.

    Raises:
        InputError: Every problem at once.
    """
    data = load_toml(path, encoding=encoding)
    return parse_space(data, source=str(path), folder=Path(path).parent)


def parse_design(data: Mapping[str, Any], *, source: str, folder: Path) -> Design:
    """A :class:`Design` from a design file's tables.

    Raises:
        InputError: Every problem at once, one line each.
    """
    return enumerate_space(parse_space(data, source=source, folder=folder))


def enumerate_space(space: Space) -> Design:
    """The design of every distinct playable format of ``space``.

    Raises:
        InputError: Too many combinations (before enumerating), or no playable format.
    """
    space.check_size()
    candidates, combinations, refused, dimensions = _candidates(space.slots, space.deciders)
    if not candidates:
        first = next(iter(refused), "the space is empty")
        raise InputError.single(
            space.source,
            "space",
            f"expected at least one playable format; all {combinations} combinations fail "
            f"(first: {first})",
        )
    return space.design(candidates, combinations, refused, dimensions)


def _objective(
    parsed: _ObjectiveIn, scenario: Scenario, problem: Callable[[str, str], None]
) -> Objective | None:
    given = [k for k, v in parsed.model_dump().items() if v not in (None, False)]
    if len(given) != 1:
        names = "stronger_advances = { gap = 100 }, top_seed_wins, champion_rating, champion_seed"
        problem("objective", f"expected exactly one of {names}; got {given or 'none'}")
        return None
    kind: ObjectiveKind = given[0]  # type: ignore[assignment]
    if kind == "stronger_advances":
        assert parsed.stronger_advances is not None
        gap = parsed.stronger_advances.gap
        gaps = tuple(float(g) for g in (gap if isinstance(gap, list) else [gap]))
        return Objective(kind, gaps)
    if not scenario.is_bracket:
        problem(
            f"objective.{kind}",
            f"a bracket objective needs a scenario with more than two players, got "
            f"{len(scenario.players)}",
        )
        return None
    return Objective(kind)


def _constraints(parsed: _ConstraintsIn) -> Constraints:
    minutes = parsed.expected_minutes
    budgets = () if minutes is None else tuple(minutes if isinstance(minutes, list) else [minutes])
    return Constraints(
        budgets=tuple(float(b) for b in budgets),
        decider_edge=parsed.decider_edge,
        max_minutes=parsed.max_minutes,
        p99_minutes=parsed.p99_minutes,
        decider_reached=parsed.decider_reached,
    )


def _models(
    parsed: _RobustnessIn | None,
    scenario: Scenario,
    problem: Callable[[str, str], None],
    source: str,
) -> tuple[list[tuple[str, ModelParams]], Rank]:
    if parsed is None:
        return [("scenario", scenario.model)], "worst"
    out: list[tuple[str, ModelParams]] = []
    for i, raw in enumerate(parsed.models):
        key = f"robustness.models[{i}]"
        if isinstance(raw, str):
            if raw not in MODEL_VARIANTS:
                problem(key, f"expected one of {', '.join(MODEL_VARIANTS)} or a table, got {raw!r}")
                continue
            out.append((raw, MODEL_VARIANTS[raw](scenario.model)))
            continue
        if not isinstance(raw, dict):
            problem(key, f"expected a model's name or a table, got {raw!r}")
            continue
        try:
            table = _ModelIn.model_validate(raw)
        except ValidationError as exc:
            for p in problems_of(exc, source, _ModelIn, prefix=key):
                problem(p.key, p.message)
            continue
        fields = {k: v for k, v in table.model_dump().items() if k != "name"}
        from knockout.rules.model.table import ModelIn  # noqa: PLC0415 (start-up: pydantic, for a model table)

        base = ModelIn.model_validate({**fields, "moves": scenario.model.moves})
        out.append((table.name, _apply_model(base, scenario.model)))
    names = [n for n, _ in out]
    for name, count in Counter(names).items():
        if count > 1:
            problem("robustness.models", f"expected each model once, got {name!r} {count} times")
    return out, parsed.rank


def _clock(
    text: str, key: str, problem: Callable[[str, str], None]
) -> tuple[float, float, float] | None:
    clock = parse_clock(text)
    if clock is None:
        problem(
            key,
            "expected a clock like 60+10 or 30/10+10 (base minutes > 0, Red/Black, + seconds "
            f"a move), got {text!r}",
        )
    return clock


def _repeat_values(raw: Sequence[Any], key: str, problem: Callable[[str, str], None]) -> list[int]:
    """``repeat`` values as max_blocks codes: -1 = no repeat, 0 = until won, N = at most N."""
    out = []
    for i, value in enumerate(raw):
        if isinstance(value, bool):
            out.append(0 if value else -1)
        elif isinstance(value, int) and value >= 1:
            out.append(value)
        else:
            problem(
                f"{key}[{i}]",
                "expected false, true (until a block is won) or a number >= 1 (at most that "
                f"many times), got {value!r}",
            )
    return out


def _slot_options(
    name: str, space: _SpaceIn, scenario: Scenario, problem: Callable[[str, str], None]
) -> list[tuple[Stage | None, dict[str, Any]]]:
    """Every option of one slot: ``(stage or None without games, the values chosen)``."""
    base = next((s for s in scenario.format.stages if s.name == name), None)
    if base is not None and (base.is_decision or base.is_choice):
        base = None  # a decider's clocks are not a slot's
    default_clock, own = SLOTS[name]
    colours: ColourRule | str = own
    if base is not None:
        default_clock = (*base.minutes, base.increment_seconds)
        colours = base.colours
    games = getattr(space, f"{name}_games") or [0 if base is None else base.games]
    clocks: list[tuple[float, float, float]] = []
    for i, text in enumerate(getattr(space, f"{name}_clock") or []):
        clock = _clock(text, f"space.{name}_clock[{i}]", problem)
        if clock is not None:
            clocks.append(clock)
    if getattr(space, f"{name}_clock") is None:
        clocks = [default_clock]
    colour_rules = [ColourRule(c) for c in (getattr(space, f"{name}_colours") or [colours])]
    raw_repeat = getattr(space, f"{name}_repeat")
    if raw_repeat is not None:
        repeats = _repeat_values(raw_repeat, f"space.{name}_repeat", problem)
    elif base is not None and base.repeat:
        repeats = [base.max_blocks]
    else:
        repeats = [-1]
    options: list[tuple[Stage | None, dict[str, Any]]] = []
    for g in games:
        if g == 0:
            options.append((None, {f"{name}_games": 0}))
            continue
        for (r, b, inc), rule, rep in itertools.product(clocks, colour_rules, repeats):
            stage = Stage(name, g, None, (r, b), inc, rule, repeat=rep >= 0, max_blocks=max(rep, 0))
            values = {
                f"{name}_games": g,
                f"{name}_clock": clock_text(stage),
                f"{name}_colours": rule.value,
                f"{name}_repeat": _repeat_value(rep),
            }
            options.append((stage, values))
    return options


def _repeat_value(code: int) -> bool | int:
    return False if code < 0 else True if code == 0 else code


def _decider_options(
    space: _SpaceIn, scenario: Scenario, problem: Callable[[str, str], None]
) -> list[tuple[Stage, str]]:
    """Every decider of the space: ``(stage, label)``."""
    entries = space.decider if space.decider is not None else ["scenario"]
    out: list[tuple[Stage, str]] = []
    for i, raw in enumerate(entries):
        key = f"space.decider[{i}]"
        if isinstance(raw, str):
            stage = _preset_decider(raw, scenario, key, problem)
            if stage is not None:
                out.append((stage, raw))
        elif isinstance(raw, dict):
            try:
                table = _DeciderIn.model_validate(raw)
            except ValidationError as exc:
                for p in problems_of(exc, "", _DeciderIn, prefix=key):
                    problem(p.key, p.message)
                continue
            out += _decider_table(table, scenario, key, problem)
        else:
            problem(key, f"expected a preset's name or a table {{preset, clock, ...}}, got {raw!r}")
    return out


def _preset_decider(
    name: str, scenario: Scenario, key: str, problem: Callable[[str, str], None]
) -> Stage | None:
    """The deciding stage of a preset (its last stage with games), or of the scenario's own
    format (``scenario``); named ``decider`` where its name is a slot's."""
    if name == "scenario":
        fmt = scenario.format
    elif name in FORMATS:
        fmt = FORMATS[name]
    else:
        problem(key, f"expected 'scenario' or a preset ({', '.join(FORMATS)}), got {name!r}")
        return None
    last = fmt.playable[-1]
    return replace(last, name="decider") if last.name in SLOTS else last


def _decider_table(
    table: _DeciderIn, scenario: Scenario, key: str, problem: Callable[[str, str], None]
) -> list[tuple[Stage, str]]:
    """The deciders a table lists: its preset's deciding stage under every combination of the
    table's lists."""
    base = _preset_decider(table.preset, scenario, f"{key}.preset", problem)
    if base is None or not _decider_table_fits(table, base, key, problem):
        return []
    clocks: list[tuple[float, float, float] | None] = []
    for j, text in enumerate(table.clock or []):
        clock = _clock(text, f"{key}.clock[{j}]", problem)
        if clock is not None:
            clocks.append(clock)
    return [
        _decider_variant(table.preset, base, *combo)
        for combo in itertools.product(
            clocks or [None],
            _or_none(table.colours),
            _or_none(table.chooser),
            _or_none(table.priority),
            _or_none(table.menu),
        )
    ]


def _or_none(values: Sequence[T] | None) -> list[T | None]:
    """The values of an optional list, or one None (nothing to vary)."""
    return [None] if values is None else list(values)


def _decider_table_fits(
    table: _DeciderIn, base: Stage, key: str, problem: Callable[[str, str], None]
) -> bool:
    """Whether a decider table's lists fit its preset's decider (reporting what does not)."""
    ok = True
    if table.clock is not None and (base.is_bidding or base.is_sealed_bid):
        problem(
            f"{key}.clock",
            f"{table.preset}'s decider sets its clocks by the players' decisions; give a menu "
            "(bidding) or leave the clock out",
        )
        ok = False
    if (table.menu is not None or table.priority is not None) and not base.is_bidding:
        what = "menu" if table.menu is not None else "priority"
        problem(f"{key}.{what}", f"a {what} is for a bidding decider; {table.preset}'s is not one")
        ok = False
    for j, rule in enumerate(table.chooser or []):
        if rule not in CHOOSER_RULES:
            rules = ", ".join(CHOOSER_RULES)
            problem(f"{key}.chooser[{j}]", f"expected one of {rules}, got {rule!r}")
            ok = False
    return ok


def _decider_variant(
    preset: str,
    base: Stage,
    clock: tuple[float, float, float] | None,
    colours: str | None,
    chooser: str | None,
    priority: Priority | None,
    menu: _MenuIn | None,
) -> tuple[Stage, str]:
    """One decider of a table, with its label."""
    changes: dict[str, Any] = {}
    parts = [preset]
    if clock is not None:
        changes |= {"minutes": (clock[0], clock[1]), "increment_seconds": clock[2]}
    if colours is not None:
        changes["colours"] = ColourRule(colours)
        parts.append(colours)
    if chooser is not None and changes.get("colours", base.colours) is ColourRule.CHOICE:
        changes["chooser"] = chooser
        parts.append(f"chooser {chooser}")
    menu_now = base.bidding or BiddingMenu()
    if priority is not None:
        menu_now = replace(menu_now, priority=priority)
        parts.append(f"priority {priority}")
    if menu is not None:
        menu_now = BiddingMenu(
            (menu.accept[0], menu.accept[1]),
            (menu.object_red[0], menu.object_red[1]),
            (menu.object_black[0], menu.object_black[1]),
            menu_now.priority,
        )
        parts.append(f"menu {menu.accept}/{menu.object_red}/{menu.object_black}")
    if base.bidding is not None:
        changes["bidding"] = menu_now
    stage = replace(base, **changes)
    if clock is not None:
        parts.insert(1, clock_text(stage))
    return stage, " ".join(parts)


def _label(stages: Sequence[Stage], decider_label: str | None) -> str:
    parts = []
    for s in stages:
        if s.name not in SLOTS:
            continue
        text = f"{s.name} {s.games}×{clock_text(s)}"
        if s.repeat:
            text += " until won" if s.max_blocks == 0 else f" up to {s.max_blocks} times"
        parts.append(text)
    if decider_label is not None:
        parts.append(decider_label)
    return " · ".join(parts)


def _candidates(
    slots: Mapping[str, list[tuple[Stage | None, dict[str, Any]]]],
    deciders: Sequence[tuple[Stage, str]],
    limit: int | None = None,
) -> tuple[list[Candidate], int, dict[str, int], tuple[str, ...]]:
    """Every distinct playable format of the space (of its first ``limit`` combinations), the
    number of combinations, why the others were refused, and the dimensions that vary."""
    seen: set[Format] = set()
    out: list[Candidate] = []
    refused: Counter[str] = Counter()
    combinations = 0
    for chosen, (decider, decider_label) in itertools.product(
        itertools.product(*slots.values()), deciders
    ):
        if limit is not None and combinations >= limit:
            break
        combinations += 1
        stages: list[Stage] = []
        values: dict[str, Any] = {}
        ended = False
        for stage, vals in chosen:
            values |= vals
            if stage is not None and not ended:
                stages.append(stage)
                ended = stage.repeat and stage.max_blocks == 0
        if not ended:
            stages.append(decider)
        values["decider"] = None if ended else decider_label
        fmt = Format("custom", tuple(stages))
        problems = fmt.problems()
        if problems:
            where, message = problems[0]
            refused[f"{where}: {message}"] += 1
            continue
        if fmt in seen:
            continue
        seen.add(fmt)
        out.append(Candidate(fmt, values, _label(stages, None if ended else decider_label)))
    dims = [
        d
        for d in dict.fromkeys(k for c in out for k in c.values)
        if len({c.values[d] for c in out if c.values.get(d) is not None}) > 1
    ]
    return out, combinations, dict(refused), tuple(dims)


# ---------------------------------------------------------------------------------------------
# Evaluation


@dataclass(frozen=True)
class BracketSpec:
    """What a bracket objective needs: the draw, and every pair of its players.

    Attributes:
        lines_of: ``(players,)`` the bracket line of each scenario player.
        size: Lines in the bracket (a power of two).
        rounds: Rounds.
        real: ``(size,)`` whether a line holds a player (else a bye).
        fixed: ``(size, size)`` the walkover rule's side (0, 1, or another value: play).
        iu: ``(pairs,)``, ju: ``(pairs,)`` the players of each pair (``iu < ju``).
        ratings: ``(players,)`` classical ratings.
        seeds: ``(players,)`` seeds (1 = top).
    """

    lines_of: IntArray
    size: int
    rounds: int
    real: npt.NDArray[np.bool_]
    fixed: IntArray
    iu: IntArray
    ju: IntArray
    ratings: FloatArray
    seeds: FloatArray

    @classmethod
    def of(cls, scenario: Scenario) -> BracketSpec:
        """The draw of ``scenario`` (no games played)."""
        state = scenario.event_state()
        bracket = state.bracket
        names = [p.name for p in scenario.players]
        lines_of = np.array([bracket.lines.index(n) for n in names], dtype=np.intp)
        size = len(bracket.lines)
        withdrawn = np.zeros(size, dtype=bool)
        seeds_line = np.full(size, np.iinfo(np.int64).max)
        for n, line in zip(names, lines_of, strict=True):
            withdrawn[line] = n in state.withdrawn
            seeds_line[line] = bracket.seeds[n]
        fixed = walkover_sides(
            withdrawn[:, None], withdrawn[None, :], seeds_line[:, None] < seeds_line[None, :]
        )
        iu, ju = np.triu_indices(len(names), k=1)
        return cls(
            lines_of=lines_of,
            size=size,
            rounds=bracket.rounds,
            real=np.array([line is not None for line in bracket.lines]),
            fixed=np.asarray(fixed, dtype=np.intp),
            iu=iu.astype(np.intp),
            ju=ju.astype(np.intp),
            ratings=np.array([p.rating for p in scenario.players], dtype=np.float64),
            seeds=np.array([bracket.seeds[n] for n in names], dtype=np.float64),
        )

    def champion(self, p_up: FloatArray) -> FloatArray:
        """``(F, players)``: P(each player wins the event) from ``p_up`` ``(F, pairs)``, P(the
        first player of each pair wins their match): the bracket DP of
        :func:`knockout.exact.bracket.bracket_odds`, for many formats at once."""
        f = p_up.shape[0]
        li, lj = self.lines_of[self.iu], self.lines_of[self.ju]
        m = np.zeros((f, self.size, self.size))
        m[:, li, lj] = p_up
        m[:, lj, li] = 1.0 - p_up
        m = np.where(self.fixed == 0, 1.0, np.where(self.fixed == 1, 0.0, m))
        lines = np.arange(self.size)
        m[:, lines, lines] = 0.0
        alive = np.broadcast_to(self.real.astype(np.float64), (f, self.size)).copy()
        for k in range(1, self.rounds + 1):
            opponent_block = (lines >> (k - 1)) ^ 1
            same = (lines[None, :] >> (k - 1)) == opponent_block[:, None]
            has_opponent = (same & self.real[None, :]).any(axis=1)
            beat = np.einsum("fij,ij,fj->fi", m, same.astype(np.float64), alive)
            alive = alive * np.where(has_opponent[None, :], beat, 1.0)
        return np.asarray(alive[:, self.lines_of], dtype=np.float64)


@dataclass(frozen=True)
class DesignJob:
    """Everything a unit of work needs (picklable: shipped to helper processes and Dask).

    Pairs (``side_a[i]`` v ``side_b[i]``): 0 is two equal players at the scenario's mean;
    then one per objective gap (the stronger first); then, for a bracket objective, every pair
    of the scenario's players.
    """

    formats: tuple[Format, ...]
    keys: tuple[StageKey, ...]
    ids: IntArray
    lengths: IntArray
    models: tuple[ModelParams, ...]
    strategy: Strategy
    side_a: tuple[Player, ...]
    side_b: tuple[Player, ...]
    objective: Objective
    bracket: BracketSpec | None
    p99: bool
    chunk: int
    token: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def n_chunks(self) -> int:
        return math.ceil(len(self.formats) / self.chunk)

    @property
    def n_units(self) -> int:
        return self.n_chunks * len(self.models)

    def pairing(self, fmt: Format, model: ModelParams) -> Pairing:
        return Pairing.of(fmt, self.side_a, self.side_b, model=model, strategy=self.strategy)


#: Stage profiles computed in this process: (job token, model, key) -> profile.
_PROFILES: dict[tuple[str, int, int], StageProfile] = {}
#: Decider edges of non-bidding last stages: (job token, model, key) -> edge or None.
_EDGES: dict[tuple[str, int, int], float | None] = {}


def _profile(job: DesignJob, model: int, key: int) -> StageProfile:
    token = (job.token, model, key)
    if token not in _PROFILES:
        fmt, index = job.keys[key].format()
        _PROFILES[token] = stage_profile(job.pairing(fmt, job.models[model]), index)
    return _PROFILES[token]


@dataclass(frozen=True)
class _Unit:
    """The figures of one chunk of formats under one model (arrays over the chunk)."""

    objective: FloatArray
    stronger: FloatArray
    minutes: FloatArray
    games: FloatArray
    edge: FloatArray
    reached: FloatArray
    longest: FloatArray
    p99: FloatArray


@dataclass(frozen=True)
class _Units:
    """Finished units by index; adding merges them (each unit's figures depend only on it)."""

    units: dict[int, _Unit]

    def __add__(self, other: Self) -> Self:
        return type(self)({**self.units, **other.units})


def _edge(job: DesignJob, model: int, key: int, share: float) -> float | None:
    stage = job.keys[key].stage
    if stage.is_bidding:
        fmt, _ = job.keys[key].format()
        return (
            None if math.isnan(share) else decider_edge(job.pairing(fmt, job.models[model]), share)
        )
    token = (job.token, model, key)
    if token not in _EDGES:
        fmt, _ = job.keys[key].format()
        _EDGES[token] = decider_edge(job.pairing(fmt, job.models[model]), math.nan)
    return _EDGES[token]


def _objective_values(job: DesignJob, win: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The objective of each format (and P(stronger advances) by gap), from ``win`` (F, pairs)."""
    gaps = len(job.objective.gaps)
    stronger = win[:, 1 : 1 + gaps]
    if job.bracket is None:
        return np.asarray(stronger.mean(axis=1), dtype=np.float64), stronger
    champion = job.bracket.champion(win[:, 1 + gaps :])
    if job.objective.kind == "top_seed_wins":
        top = int(np.argmin(job.bracket.seeds))
        value = champion[:, top]
    elif job.objective.kind == "champion_rating":
        value = champion @ job.bracket.ratings
    else:
        value = champion @ job.bracket.seeds
    return np.asarray(value, dtype=np.float64), stronger


def _evaluate_unit(job: DesignJob, index: int, size: int, seed: int) -> _Units:
    """Units ``index .. index + size - 1``: chunk ``u // models`` under model ``u % models``."""
    del seed  # exact: nothing is drawn
    out: dict[int, _Unit] = {}
    for u in range(index, index + size):
        chunk, model = divmod(u, len(job.models))
        out[u] = _unit(job, chunk, model)
    return _Units(out)


def _unit(job: DesignJob, chunk: int, model: int) -> _Unit:
    lo, hi = chunk * job.chunk, min((chunk + 1) * job.chunk, len(job.formats))
    ids, lengths = job.ids[lo:hi], job.lengths[lo:hi]
    used = np.unique(np.concatenate([ids[f, : lengths[f]] for f in range(hi - lo)]))
    local = {int(k): i for i, k in enumerate(used)}
    profiles = [_profile(job, model, int(k)) for k in used]
    lookup = np.zeros(len(job.keys), dtype=np.intp)
    lookup[used] = np.arange(used.size)
    local_ids = lookup[ids]
    composed = compose(profiles, local_ids, lengths)
    objective, stronger = _objective_values(job, composed.win)
    m = job.models[model]
    full = [full_minutes(job.keys[int(k)].stage, m) for k in used]
    most = [job.keys[int(k)].stage.most_games for k in used]
    span = np.array([math.inf if g is None else g * t for g, t in zip(most, full, strict=True)])
    slots = np.arange(ids.shape[1])[None, :] < lengths[:, None]
    longest = np.where(slots, span[local_ids], 0.0).sum(axis=1)
    share = composed.chooser_share[:, 0].tolist()
    edges, p99 = [], []
    for f in range(hi - lo):
        keys = [int(k) for k in ids[f, : lengths[f]]]
        edge = _edge(job, model, keys[-1], share[f])
        edges.append(math.nan if edge is None else edge)
        if job.p99:
            rows = [local[k] for k in keys]
            p99.append(reserved_quantile(profiles, rows, [full[r] for r in rows], 0, QUANTILE))
        else:
            p99.append(math.nan)
    return _Unit(
        objective=objective,
        stronger=stronger,
        minutes=composed.minutes[:, 0],
        games=composed.games[:, 0],
        edge=np.array(edges),
        reached=composed.last_decided[:, 0],
        longest=np.asarray(longest, dtype=np.float64),
        p99=np.array(p99),
    )


def design_job(design: Design, chunk: int | None = None) -> DesignJob:
    """The work of evaluating ``design``: its formats' stages, pairs and models, in units of
    ``chunk`` formats under one model (default: about 16 MB of arrays a unit)."""
    sc = design.scenario
    mean = float(np.mean([p.rating for p in sc.players]))
    side_a = [Player("stronger", mean)]
    side_b = [Player("weaker", mean)]
    for g in design.objective.gaps:
        side_a.append(Player("stronger", mean + g / 2))
        side_b.append(Player("weaker", mean - g / 2))
    bracket = None
    if design.objective.is_bracket:
        bracket = BracketSpec.of(sc)
        side_a += [sc.players[i] for i in bracket.iu]
        side_b += [sc.players[j] for j in bracket.ju]
    keys: dict[StageKey, int] = {}
    per_format = [stage_keys(c.format) for c in design.candidates]
    for ks in per_format:
        for k in ks:
            keys.setdefault(k, len(keys))
    slots = max(len(ks) for ks in per_format)
    ids = np.zeros((len(per_format), slots), dtype=np.intp)
    for f, ks in enumerate(per_format):
        ids[f, : len(ks)] = [keys[k] for k in ks]
    pairs = len(side_a)
    if chunk is None:  # a chunk's arrays: formats x pairs x 12 numbers, about 16 MB at most
        chunk = int(max(1, min(4096, 150_000 // pairs)))
    return DesignJob(
        formats=tuple(c.format for c in design.candidates),
        keys=tuple(keys),
        ids=ids,
        lengths=np.array([len(ks) for ks in per_format], dtype=np.intp),
        models=tuple(m for _, m in design.models),
        strategy=sc.strategy,
        side_a=tuple(side_a),
        side_b=tuple(side_b),
        objective=design.objective,
        bracket=bracket,
        p99=True,
        chunk=chunk,
    )


# ---------------------------------------------------------------------------------------------
# Ranking and selection


@dataclass(frozen=True)
class Scored:
    """One format's figures.

    Attributes:
        index: Its place in the design's candidates.
        objective: The objective, aggregated across the models (worst case or mean).
        expected_minutes: Expected minutes, equal players, aggregated (the most or the mean).
        decider_edge: The decider's edge, equal players (the largest in size, or the mean);
            None without a single decisive last game.
        decider_reached: P(the last stage is played), aggregated.
        max_minutes: The longest possible match (infinite: a stage repeats without a cap).
        p99_minutes: The 99th percentile of its length (NaN when not asked for).
        expected_games: Expected games, aggregated.
        stronger_advances: P(stronger advances) by gap, aggregated.
        per_model: Each model's figures (``objective``, ``expected_minutes``, ...).
        fails: The constraints it fails, besides the budget.
        feasible: Meets every constraint, the (first) budget included.
    """

    index: int
    objective: float
    expected_minutes: float
    decider_edge: float | None
    decider_reached: float
    max_minutes: float
    p99_minutes: float
    expected_games: float
    stronger_advances: dict[float, float]
    per_model: dict[str, dict[str, Any]]
    fails: tuple[str, ...]
    feasible: bool


@dataclass(frozen=True)
class DesignResult:
    """What a design run found.

    Attributes:
        design: The design.
        scored: Every format evaluated (all of them unless interrupted), in candidate order.
        front: Indices into ``scored`` of the Pareto front (objective against expected minutes,
            among formats meeting the constraints other than the budget), by minutes.
        best: Per budget (or one entry without a budget: None), the index into ``scored`` of
            the best feasible format.
        seconds: Wall time of the evaluation.
        interrupted: Stopped early (Ctrl-C): only finished chunks are in.
        processes: Processes that evaluated units.
        units: Units of work (a chunk of formats under one model).
    """

    design: Design
    scored: tuple[Scored, ...]
    front: tuple[int, ...]
    best: tuple[tuple[float | None, int], ...]
    seconds: float
    interrupted: bool
    processes: int
    units: int

    @property
    def evaluated(self) -> int:
        """Formats evaluated."""
        return len(self.scored)

    @property
    def feasible(self) -> int:
        """Formats meeting every constraint."""
        return sum(s.feasible for s in self.scored)


def _aggregate(values: Sequence[float], rank: Rank, *, worst_is_max: bool) -> float:
    if rank == "mean":
        return math.fsum(values) / len(values)
    return max(values) if worst_is_max else min(values)


def _signed_edge(edges: Sequence[float], rank: Rank) -> float | None:
    known = [e for e in edges if not math.isnan(e)]
    if not known:
        return None
    if rank == "mean":
        return math.fsum(known) / len(known)
    return max(known, key=abs)


_FIGURES = ("objective", "minutes", "games", "edge", "reached", "longest", "p99")


def _score(design: Design, index: int, per_model: Mapping[str, Sequence[Any]]) -> Scored:
    """One format's figures from its per-model values (``per_model[figure]``: one per model;
    ``stronger``: one list over the gaps per model)."""
    rank = design.rank
    maximise = design.objective.maximise
    objective = _aggregate(per_model["objective"], rank, worst_is_max=not maximise)
    edge = _signed_edge(per_model["edge"], rank)
    figures = {
        "objective": objective,
        "expected_minutes": _aggregate(per_model["minutes"], rank, worst_is_max=True),
        "decider_edge": edge,
        "decider_reached": _aggregate(per_model["reached"], rank, worst_is_max=True),
        "max_minutes": max(per_model["longest"]),
        "p99_minutes": _aggregate(per_model["p99"], rank, worst_is_max=True),
        "expected_games": _aggregate(per_model["games"], rank, worst_is_max=True),
    }
    c = design.constraints
    fails = []
    if c.decider_edge is not None and edge is not None and abs(edge) > c.decider_edge:
        fails.append("decider_edge")
    bounds = (
        ("max_minutes", c.max_minutes),
        ("p99_minutes", c.p99_minutes),
        ("decider_reached", c.decider_reached),
    )
    for name, bound in bounds:
        value = figures[name]
        assert value is not None
        if bound is not None and not value <= bound:
            fails.append(name)
    minutes = figures["expected_minutes"]
    assert minutes is not None
    within = not c.budgets or minutes <= c.budgets[0]
    stronger = per_model["stronger"]
    gaps = design.objective.gaps
    names = [n for n, _ in design.models]
    return Scored(
        index=index,
        stronger_advances={
            g: _aggregate([row[j] for row in stronger], rank, worst_is_max=False)
            for j, g in enumerate(gaps)
        },
        per_model={
            name: {
                "objective": per_model["objective"][m],
                "expected_minutes": per_model["minutes"][m],
                "decider_edge": None if math.isnan(per_model["edge"][m]) else per_model["edge"][m],
                "decider_reached": per_model["reached"][m],
                "expected_games": per_model["games"][m],
                "p99_minutes": per_model["p99"][m],
                "stronger_advances": {f"{g:g}": stronger[m][j] for j, g in enumerate(gaps)},
            }
            for m, name in enumerate(names)
        },
        fails=tuple(fails),
        feasible=not fails and within,
        **figures,
    )


def _rank_key(s: Scored, maximise: bool) -> tuple[float, float, int]:
    """Sort key: the better objective first, then fewer minutes, then the enumeration order."""
    value = round(s.objective, OBJECTIVE_DECIMALS)
    return (-value if maximise else value, round(s.expected_minutes, MINUTES_DECIMALS), s.index)


def pareto_front(scored: Sequence[Scored], maximise: bool) -> list[int]:
    """Positions in ``scored`` of the formats no other one beats on both the objective and the
    expected minutes (among those meeting the constraints other than the budget), by minutes.

    A format is beaten when another has at least its objective in no more minutes, one of
    them strictly (objectives equal to 12 decimals and minutes to 6 are equal); of equal
    formats the first in the space stands."""
    order = sorted(
        (i for i, s in enumerate(scored) if not s.fails),
        key=lambda i: (
            round(scored[i].expected_minutes, MINUTES_DECIMALS),
            _rank_key(scored[i], maximise),
        ),
    )
    front: list[int] = []
    best: float | None = None
    for i in order:
        value = round(scored[i].objective, OBJECTIVE_DECIMALS) * (1 if maximise else -1)
        if best is None or value > best:
            front.append(i)
            best = value
    return front


def best_within(scored: Sequence[Scored], budget: float | None, maximise: bool) -> int | None:
    """Position of the best format meeting the constraints within ``budget`` minutes."""
    within = [
        i
        for i, s in enumerate(scored)
        if not s.fails and (budget is None or s.expected_minutes <= budget)
    ]
    if not within:
        return None
    return min(within, key=lambda i: _rank_key(scored[i], maximise))


def _binding(design: Design, scored: Sequence[Scored], budget: float | None) -> Problem:
    """Which constraint leaves no format: the first of them (in the file's order) that, with
    those before it, nothing meets; with the best any format does on it."""
    c = design.constraints
    checks: list[tuple[str, float, Callable[[Scored], float]]] = []
    if c.decider_edge is not None:
        checks.append(
            (
                "decider_edge",
                c.decider_edge,
                lambda s: 0.0 if s.decider_edge is None else abs(s.decider_edge),
            )
        )
    if c.max_minutes is not None:
        checks.append(("max_minutes", c.max_minutes, lambda s: s.max_minutes))
    if c.p99_minutes is not None:
        checks.append(("p99_minutes", c.p99_minutes, lambda s: s.p99_minutes))
    if c.decider_reached is not None:
        checks.append(("decider_reached", c.decider_reached, lambda s: s.decider_reached))
    if budget is not None:
        checks.append(("expected_minutes", budget, lambda s: s.expected_minutes))
    left = list(scored)
    earlier: list[str] = []
    for name, bound, value in checks:
        meeting = [s for s in left if value(s) <= bound]
        if not meeting:
            closest = min(left, key=value)
            among = f" among the formats meeting {', '.join(earlier)}" if earlier else ""
            what = "|decider edge|" if name == "decider_edge" else name.replace("_", " ")
            return Problem(
                design.source,
                f"constraints.{name}",
                f"no format meets {name} <= {bound:g}{among}: the least {what} is "
                f"{value(closest):.4g} ({design.candidates[closest.index].label})",
            )
        left, earlier = meeting, [*earlier, name]
    return Problem(design.source, "constraints", "no format meets the constraints")


def run_design(
    design: Design,
    *,
    executor: Executor = "local",
    workers: Workers = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
    job: DesignJob | None = None,
    require_best: bool = True,
) -> DesignResult:
    """Evaluate every format of the design under every model, then rank them.

    ``job``: the work prepared by :func:`design_job` (and perhaps timed by
    :func:`pilot_seconds`, whose stage walks are then reused). ``require_best=False``: a
    budget no format meets gets no best format instead of an error (a pilot's few formats).

    Raises:
        InputError: When no format meets the constraints (naming the one that binds).
        KnockoutError: Bad executor arguments.
    """
    job = design_job(design) if job is None else job
    start = time.perf_counter()
    run = run_blocks(
        _Evaluator(job),
        job.n_units,
        0,
        executor=executor,
        workers=workers,
        scheduler=scheduler,
        block_size=1,
        progress=progress,
    )
    seconds = time.perf_counter() - start
    for token in [t for t in _PROFILES if t[0] == job.token]:
        del _PROFILES[token]
    units = {} if run.counts is None else run.counts.units
    scored = _scored(design, job, units)
    maximise = design.objective.maximise
    budgets: list[float | None] = list(design.constraints.budgets) or [None]
    best: list[tuple[float | None, int]] = []
    for budget in budgets:
        b = best_within(scored, budget, maximise)
        if b is None:
            if (run.interrupted and not scored) or not require_best:
                continue
            raise InputError([_binding(design, scored, budget)])
        best.append((budget, b))
    return DesignResult(
        design=design,
        scored=tuple(scored),
        front=tuple(pareto_front(scored, maximise)),
        best=tuple(best),
        seconds=seconds,
        interrupted=run.interrupted,
        processes=run.processes,
        units=job.n_units,
    )


@dataclass(frozen=True)
class _Evaluator:
    """The block function of :func:`sims.runner.run_blocks` (a picklable callable)."""

    job: DesignJob

    def __call__(self, index: int, size: int, seed: int) -> _Units:
        return _evaluate_unit(self.job, index, size, seed)


def _scored(design: Design, job: DesignJob, units: Mapping[int, _Unit]) -> list[Scored]:
    """Every format whose chunk is finished under every model, scored."""
    m = len(job.models)
    out: list[Scored] = []
    for chunk in range(job.n_chunks):
        parts = [units.get(chunk * m + k) for k in range(m)]
        if any(p is None for p in parts):
            continue
        done = [p for p in parts if p is not None]
        lo = chunk * job.chunk
        lists = {
            name: [getattr(p, name).tolist() for p in done] for name in (*_FIGURES, "stronger")
        }
        for f in range(done[0].objective.shape[0]):
            per_model = {name: [v[f] for v in values] for name, values in lists.items()}
            out.append(_score(design, lo + f, per_model))
    return out


def pilot_walks(job: DesignJob) -> int:
    """Walk every distinct stage of ``job`` under every model (kept for its run); returns the
    number of stages."""
    for m in range(len(job.models)):
        for k in range(len(job.keys)):
            _profile(job, m, k)
    return len(job.keys)


def pilot_seconds(job: DesignJob) -> float:
    """An estimate of :func:`run_design`'s time on one process: every stage walked under the
    first model (timed, and kept for the run), then one chunk's composition timed; scaled to
    every model and unit."""
    start = time.perf_counter()
    for k in range(len(job.keys)):
        _profile(job, 0, k)
    walks = time.perf_counter() - start
    start = time.perf_counter()
    _unit(job, 0, 0)
    per_unit = time.perf_counter() - start
    return walks * (len(job.models) - 1) + per_unit * job.n_units


def score_formats(design: Design, formats: Sequence[Format]) -> list[Scored]:
    """``formats`` scored as the design scores its own (in this process): e.g. the base
    scenario's format, for reference."""
    candidates = tuple(Candidate(f, {}, "") for f in formats)
    other = replace(design, candidates=candidates)
    job = design_job(other)
    units = {u: _unit(job, *divmod(u, len(job.models))) for u in range(job.n_units)}
    try:
        return _scored(other, job, units)
    finally:
        for token in [t for t in _PROFILES if t[0] == job.token]:
            del _PROFILES[token]
