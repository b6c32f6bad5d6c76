"""The pydantic models of a scenario file's tables: the keys, their types and defaults.

:mod:`knockout.rules.scenario.aggregate` checks a table first against these models' JSON schemas
(:mod:`knockout.rules.scenario.schema`, compiled from here) without importing pydantic, and
comes here only for a table that check cannot accept: pydantic then accepts it too or says
what is wrong, in the project's words (:func:`knockout.validation.problems_of`).

``python -m knockout.rules.scenario.models`` rewrites the compiled schemas
(knockout/rules/scenario/schema.json, ``make schema``); a test keeps the two equal.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationError

from knockout.errors import Problem
from knockout.rules.decisions.pace import DEFAULT_PACE_MIN
from knockout.rules.model.players import MAX_BELIEF_SD, MAX_RATING, MAX_RATING_SD
from knockout.rules.model.table import ModelIn as _ModelIn
from knockout.rules.model.table import SdDrawNuIn, SdEloIn
from knockout.validation import Table, problems_of

__all__ = ["MODELS", "compiled_schemas", "validated"]

Number = Annotated[float, Field(strict=True)]
NonNegative = Annotated[float, Field(strict=True, ge=0)]
Positive = Annotated[float, Field(strict=True, gt=0)]
ClockPair = Annotated[list[Positive], Field(min_length=2, max_length=2)]
Rating = Annotated[float, Field(strict=True, ge=0, le=MAX_RATING)]
DrawWinner = Literal["none", "red", "black"]
TimeClassName = Literal["classical", "rapid", "blitz"]
#: A stage's colour rule: the rule book's own (lot, alternate, bidding, sealed-bid, choice,
#: cut-choose) or one added to it; the stage's checks name the rules it may be.
ColourRuleName = Annotated[str, Field(min_length=1)]


class _SpeedIn(Table):
    """The fraction of the effective clock a player uses: Normal(mean, sd) per game."""

    mean: Annotated[float, Field(strict=True, gt=0, le=1)] = 0.75
    sd: Annotated[float, Field(strict=True, ge=0, le=0.5)] = 0.10


class _PlayerIn(Table):
    name: Annotated[str, Field(min_length=1)]
    rating: Rating
    rating_rapid: Rating | None = None
    rating_blitz: Rating | None = None
    #: a new player's Glicko deviation is 350; the bracket integral is tested to 500
    rating_sd: Annotated[float, Field(strict=True, ge=0, le=MAX_RATING_SD)] = 0.0
    speed: _SpeedIn = _SpeedIn()
    seed: Annotated[int, Field(ge=1)] | None = None
    withdrawn: bool = False


class _BracketIn(Table):
    seeding: Literal["rating", "given", "random"] = "rating"
    draw_seed: int = 1
    third_place: bool = False


class _ScheduleIn(Table):
    boards: Annotated[int, Field(ge=1)] = 8
    gap_minutes: NonNegative = 15.0
    round_gap_minutes: NonNegative = 60.0


class _RankingIn(Table):
    tiebreaks: list[str] = Field(default_factory=lambda: ["WON", "BWG"])
    lots: bool = False
    rules: Literal["2024", "2026"] = "2026"


class _IncentivesIn(Table):
    """``[incentives]``: the pace game (``knockout incentives``)."""

    pace_min: Annotated[float, Field(strict=True, gt=0, le=1)] = DEFAULT_PACE_MIN


class _PlayedIn(Table):
    """A ``[[played]]`` entry: a game, or (no result) the decision of a game still to be
    played, whose colours then follow from it (``red``/``black`` may be left out): the
    sudden-death bid (``chooser``, ``announce``, ``reply``), a colour choice (``chooser``,
    ``colour``), a cut (``cutter``, ``red_minutes``, ``colour``: the colour the other player
    took) or sealed bids (``bids``, and ``lot_black`` when they are equal)."""

    red: Annotated[str, Field(min_length=1)] | None = None
    black: Annotated[str, Field(min_length=1)] | None = None
    stage: Annotated[str, Field(min_length=1)]
    result: Literal["red", "draw", "black"] | None = None
    time_used: dict[str, NonNegative] | None = None
    moves: Annotated[int, Field(strict=True, ge=1, le=1000)] | None = None
    chooser: Annotated[str, Field(min_length=1)] | None = None
    announce: Literal["red", "black"] | None = None
    reply: Literal["accept", "object"] | None = None
    colour: Literal["red", "black"] | None = None
    cutter: Annotated[str, Field(min_length=1)] | None = None
    red_minutes: Positive | None = None
    bids: dict[str, Positive] | None = None
    lot_black: Annotated[str, Field(min_length=1)] | None = None


class _WithdrawalIn(Table):
    """A withdrawal of ``[event]``: who, and after how many of the ``[[played]]`` entries."""

    name: Annotated[str, Field(min_length=1)]
    after: Annotated[int, Field(strict=True, ge=0)]


class _EventIn(Table):
    """``[event]``: what organiser mode keeps beside the rules so that ``knockout event new``
    carries an exported event on exactly (the walkers ignore it): the event's seed (its colour
    lots), its language, the players' federations, and when each withdrawal came."""

    seed: Annotated[int, Field(strict=True, ge=0)] | None = None
    language: Annotated[str, Field(min_length=1)] | None = None
    federations: dict[str, str] = Field(default_factory=dict)
    withdrawals: list[_WithdrawalIn] = Field(default_factory=list)


class _StrategyIn(Table):
    kind: Literal["rational", "naive", "believed", "bayesian", "equilibrium"] = "rational"
    belief_sd: Annotated[float, Field(strict=True, ge=0, le=MAX_BELIEF_SD)] = 100.0


class _StageIn(Table):
    """A per-stage override table: every field optional."""

    games: Annotated[int, Field(ge=0)] | None = None
    minutes: Positive | ClockPair | None = None
    increment_seconds: NonNegative | None = None
    time_class: TimeClassName | None = None
    colours: ColourRuleName | None = None
    draw_winner: DrawWinner | None = None
    repeat: bool | None = None
    accept: ClockPair | None = None
    object_red: ClockPair | None = None
    object_black: ClockPair | None = None
    priority: Literal["less-time", "lot"] | None = None
    red_minutes: Positive | None = None
    min_black_minutes: Positive | None = None
    price: Literal["first", "second"] | None = None
    black_minutes: Positive | None = None
    min_red_minutes: Positive | None = None
    max_red_minutes: Positive | None = None
    chooser: Annotated[str, Field(min_length=1)] | None = None
    max_blocks: Annotated[int, Field(ge=0)] | None = None


class _FormatHead(Table):
    """The keys every ``[format]`` table shares (the rest depend on the preset)."""

    increment_seconds: NonNegative | None = None


class _CustomStageIn(_StageIn):
    name: Annotated[str, Field(min_length=1)]
    games: Annotated[int, Field(ge=0)]


class _ModelSdIn(Table):
    """``[model.sd]``: a standard deviation per constant and time class (0: known exactly)."""

    red_advantage: SdEloIn = SdEloIn()
    draw_nu: SdDrawNuIn = SdDrawNuIn()
    elo_per_doubling: SdEloIn = SdEloIn()


class _ScenarioModelIn(_ModelIn):
    """A scenario's ``[model]``: the constants, and how uncertain they are."""

    sd: _ModelSdIn = _ModelSdIn()
    #: ``[[PATH_A, PATH_B, RHO], ...]``, checked by :func:`model_sd.parse_correlation`
    correlation: Any = Field(default_factory=list)


class _ScenarioIn(Table):
    name: str = "Unnamed scenario"
    format: dict[str, Any] = Field(default_factory=dict, strict=False)
    model: _ScenarioModelIn = _ScenarioModelIn()
    strategy: _StrategyIn = _StrategyIn()
    players: Annotated[list[_PlayerIn], Field(min_length=2)]
    bracket: _BracketIn = _BracketIn()
    schedule: _ScheduleIn = _ScheduleIn()
    ranking: _RankingIn = _RankingIn()
    incentives: _IncentivesIn = _IncentivesIn()
    played: list[_PlayedIn] = Field(default_factory=list)
    event: _EventIn | None = None


#: The tables :mod:`knockout.rules.scenario.aggregate` validates, by the name it asks for.
MODELS: dict[str, type[Table]] = {
    "scenario": _ScenarioIn,
    "stage": _StageIn,
    "custom_stage": _CustomStageIn,
    "format_head": _FormatHead,
}


def validated(
    name: str, data: Any, source: str, prefix: str = ""
) -> tuple[BaseModel | None, list[Problem]]:
    """Table ``name`` validated by pydantic: the model, or None and every problem."""
    model = MODELS[name]
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, problems_of(exc, source, model, prefix=prefix)


def compiled_schemas() -> dict[str, Any]:
    """Each table's JSON schema, with the defaults pydantic computes by factory filled in
    and the words for people (``title``, ``description``) left out."""
    out: dict[str, Any] = {}
    for name, model in MODELS.items():
        schema = model.model_json_schema()
        defs = schema.get("$defs", {})
        for cls in _models_in(model):
            target = schema if cls is model else defs[cls.__name__]
            for field_name, info in cls.model_fields.items():
                if info.default_factory is not None:
                    value = info.default_factory()  # type: ignore[call-arg]
                    target["properties"][field_name]["default"] = value
        out[name] = _for_machines(schema)
    return out


def _models_in(model: type[BaseModel]) -> list[type[BaseModel]]:
    """``model`` and every model its fields hold, each once."""
    found: list[type[BaseModel]] = []

    def visit(annotation: Any) -> None:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if annotation not in found:
                found.append(annotation)
                for info in annotation.model_fields.values():
                    visit(info.annotation)
            return
        for arg in getattr(annotation, "__args__", ()):
            visit(arg)

    visit(model)
    return found


def _for_machines(schema: Any) -> Any:
    """``schema`` without ``title`` and ``description`` (property names kept)."""
    if isinstance(schema, list):
        return [_for_machines(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("title", "description"):
            continue
        if key in ("properties", "$defs"):
            out[key] = {k: _for_machines(v) for k, v in value.items()}
        elif key == "default":
            out[key] = value
        else:
            out[key] = _for_machines(value)
    return out


def write_schema(path: Path) -> None:
    """Write the schemas :mod:`knockout.rules.scenario.schema` reads (``scenario_schema.json``)."""
    text = json.dumps(compiled_schemas(), indent=1, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    here = Path(__file__).with_name("schema.json")
    write_schema(Path(sys.argv[1]) if len(sys.argv) > 1 else here)
