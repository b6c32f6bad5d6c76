"""Scenario files (TOML): validation at the boundary, then frozen config objects.

:func:`load_scenario` reads a file, checks every key and value, and either returns a
:class:`Scenario` or raises :class:`~knockout.errors.ScenarioError` listing *every* problem, one
per line, each naming the file and the key. :meth:`Scenario.to_dict` gives the fully resolved
scenario (every default filled in), which loads back to an equal scenario, so any output that
embeds it can be reproduced.

Layout (public interface; see README and ``docs/scenarios.md``)::

    name = "Example"
    [format]
    preset = "xq-bidding"             # or single-slow, official-playoff, blitz-pairs, ...
    slow_games = 2                    # <stage>_games / <stage>_minutes shortcuts, any stage
    increment_seconds = 10            # every stage, unless its own table says otherwise
    [format.sudden_death]             # a table per stage overrides any of its fields
    accept = [30, 10]
    [model]                           # per time class: classical, rapid, blitz
    draw_nu = { blitz = 0.8 }
    [strategy]
    kind = "rational"                 # rational, naive, believed
    belief_sd = 100
    [[players]]
    name = "Alpha"
    rating = 2600
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from knockout.errors import Problem, ScenarioError
from knockout.rules.book.formats import (
    Format,
)
from knockout.rules.chain.match import Position, initial_state
from knockout.rules.chain.progress import EventState
from knockout.rules.chain.replay import PlayedGame
from knockout.rules.chain.settings import (
    BracketSettings,
    IncentiveSettings,
    RankingSettings,
    ScheduleSettings,
)
from knockout.rules.decisions.strategies import Strategy, get_strategy
from knockout.rules.model.players import Player, Speed
from knockout.rules.model.sd import ModelSd, parse_correlation
from knockout.rules.model.strength import ModelParams, PerClass, TimeClass, model_params
from knockout.rules.scenario.schema import validated_table
from knockout.schema import dedupe

if TYPE_CHECKING:
    from knockout.rules.model.table import SdDrawNuIn, SdEloIn
    from knockout.rules.scenario.models import _ModelSdIn
from knockout.rules.scenario.checks import (
    bracket_problems,
    chooser_problems,
    domain_player_problems,
    incentive_problems,
    model_problems,
    player_problems,
    schedule_problems,
    strategy_problems,
    tiebreak_problems,
)
from knockout.rules.scenario.format_tables import format_of, format_to_dict
from knockout.rules.scenario.played import played_entries, played_problems, played_to_dict

__all__ = [
    "Scenario",
    "parse_scenario",
]


@dataclass(frozen=True)
class Scenario:
    """A scenario: everything a match or a bracket needs, valid by construction.

    Building one (in Python, by :func:`parse_scenario`, or by :func:`dataclasses.replace`)
    checks what a scenario file is checked for and raises :class:`~knockout.errors.ScenarioError`
    listing every problem (players, model, strategy, format, draw, tie-breaks, games already
    played and where they fall on the draw). The draw and each match's position after its
    played games are then computed once (:meth:`event_state`, :attr:`position`) and handed to
    every walker.

    Attributes:
        name: Free text.
        format: The match format.
        model: Model constants.
        strategy: The bidding strategy (its kind and ``belief_sd`` are the ``[strategy]`` table).
        players: At least two, names unique.
        bracket: ``[bracket]`` settings (more than two players).
        schedule: ``[schedule]`` settings for the event engine.
        ranking: ``[ranking]`` settings for the final ranking.
        incentives: ``[incentives]`` settings for the pace game (``knockout incentives``).
        played: Games already played (``[[played]]``), in order.
        source: Where the scenario came from (for messages).
        model_sd: How uncertain the model's constants are (``[model.sd]``, ``[model]
            correlation``): every answer is also integrated over them.
    """

    name: str
    format: Format
    model: ModelParams
    strategy: Strategy
    players: tuple[Player, ...]
    bracket: BracketSettings = field(default_factory=BracketSettings)
    schedule: ScheduleSettings = field(default_factory=ScheduleSettings)
    ranking: RankingSettings = field(default_factory=RankingSettings)
    incentives: IncentiveSettings = field(default_factory=IncentiveSettings)
    played: tuple[PlayedGame, ...] = ()
    source: str = field(default="<scenario>", compare=False)
    model_sd: ModelSd = field(default_factory=ModelSd)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "played", tuple(self.played))
        problems = scenario_problems(self)
        if not problems:
            # The draw and the played games replayed, once, by the rules' placement: games a
            # match's chain refuses, and games between players who cannot have met.
            try:
                state = EventState.of(
                    self.players, self.format, self.bracket, self.played, source=self.source
                )
            except ScenarioError as exc:
                problems += exc.problems
        if problems:
            raise ScenarioError(dedupe(problems))
        object.__setattr__(self, "_state", state)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "<scenario>") -> Scenario:
        """The scenario of a scenario-file mapping (parsed TOML, or :meth:`to_dict`'s output,
        whose inverse this is).

        Raises:
            ScenarioError: Listing every problem found.
        """
        return parse_scenario(data, source=source)

    def with_constants(
        self, constants: Mapping[str, float], *, source: str | None = None
    ) -> Scenario | None:
        """This scenario with some model constants set, as parsing it with them would give,
        checking only what they touch: ``constants`` maps ``CONSTANT.CLASS`` (``draw_nu.rapid``)
        or ``sd.CONSTANT.CLASS`` to a number. Nothing else of a scenario depends on them, so the
        draw and the played games are this one's (a study's points, swept over constants, skip
        parsing and replaying them again).

        Returns None where parsing might say more than "valid": a value that is not a finite
        number (a bool, text, infinity), or constants that make the scenario invalid; parse the
        scenario's tables then, for its exact messages.
        """
        model, sd = self.model, self.model_sd
        for path, value in constants.items():
            finite = isinstance(value, float) and math.isfinite(value)
            whole = isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53
            if not (finite or whole):
                return None
            parts = path.split(".")
            of_sd = parts[0] == "sd"
            rest = parts[1:] if of_sd else parts
            if len(rest) != 2 or rest[0] not in _CONSTANTS or rest[1] not in _CLASS_NAMES:
                return None
            name, tc = rest
            table = replace(getattr(sd if of_sd else model, name), **{tc: float(value)})
            if of_sd:
                sd = replace(sd, **{name: table})
            else:
                model = replace(model, **{name: table})
        where = self.source if source is None else source
        if model_problems(model, where) or sd.problems(model):
            return None
        out = copy.copy(self)  # no __post_init__: its checks and replay are this scenario's
        object.__setattr__(out, "model", model)
        object.__setattr__(out, "model_sd", sd)
        object.__setattr__(out, "source", where)
        return out

    @property
    def strategy_kind(self) -> str:
        """``rational``, ``naive``, ``believed`` or ``bayesian`` (the strategy's kind)."""
        return self.strategy.kind

    @property
    def belief_sd(self) -> float:
        """Belief noise (Elo), used by the kinds with private beliefs."""
        return self.strategy.belief_sd

    @property
    def is_bracket(self) -> bool:
        """More than two players: a knockout bracket."""
        return len(self.players) > 2

    def event_state(self) -> EventState:
        """The draw with the games already played and the walkovers placed on it (computed
        once, when the scenario is built)."""
        state: EventState = self.__dict__["_state"]
        return state

    @property
    def position(self) -> Position:
        """A two-player match's position after its played games (what every walker starts
        from; the initial position when nothing is played).

        Raises:
            ValueError: For a bracket (its matches' positions are in :meth:`event_state`).
        """
        if self.is_bracket:
            raise ValueError("a bracket has a position per match: see event_state()")
        progress = self.event_state().progress.get((1, 0))
        if progress is not None and progress.replayed is not None:
            return progress.replayed
        return Position(initial_state(), 0)

    def player(self, name: str) -> Player:
        """The player called ``name``."""
        for p in self.players:
            if p.name == name:
                return p
        raise ValueError(f"unknown player: {name!r}")

    def to_dict(self) -> dict[str, Any]:
        """The fully resolved scenario (every default filled in), in scenario-file layout."""
        return {
            "name": self.name,
            "format": format_to_dict(self.format),
            "model": self.model.to_dict()
            | {"sd": self.model_sd.to_dict(), "correlation": self.model_sd.correlation_list()},
            "strategy": self.strategy.to_dict(),
            "players": [_player_to_dict(p) for p in self.players],
            "bracket": self.bracket.to_dict(),
            "schedule": self.schedule.to_dict(),
            "ranking": self.ranking.to_dict(),
            "incentives": self.incentives.to_dict(),
            "played": [played_to_dict(g) for g in self.played],
        }


#: The model constants a scenario's points may set (:meth:`Scenario.with_constants`).
_CONSTANTS = ("red_advantage", "draw_nu", "elo_per_doubling")


_CLASS_NAMES = tuple(tc.value for tc in TimeClass)


def scenario_problems(sc: Scenario) -> list[Problem]:
    """Everything that makes ``sc`` impossible, each problem naming its scenario key."""
    source = sc.source
    fmt_problems = [
        Problem(source, f"format.{key}", message) for key, message in sc.format.problems()
    ]
    return [
        *domain_player_problems(sc.players, source),
        *model_problems(sc.model, source),
        *(Problem(source, key, message) for key, message in sc.model_sd.problems(sc.model)),
        *strategy_problems(sc.strategy, source),
        *fmt_problems,
        *bracket_problems(sc.bracket, sc.players, source),
        *schedule_problems(sc.schedule, source),
        *incentive_problems(sc.incentives, source),
        *tiebreak_problems(sc.ranking, source),
        *chooser_problems(sc.format, sc.players, source),
        *(
            []
            if fmt_problems
            else played_problems(sc.format, sc.players, list(enumerate(sc.played)), source)
        ),
    ]


def _player_to_dict(p: Player) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": p.name,
        "rating": p.rating,
        "speed": p.speed.to_dict(),
    }
    # Only the ratings the input gave: a resolved scenario edited with --set rating=... still
    # lets the rapid and blitz ratings follow the classical one (MODEL.md's fallbacks).
    if p.rating_rapid is not None:
        out["rating_rapid"] = p.rating_rapid
    if p.rating_blitz is not None:
        out["rating_blitz"] = p.rating_blitz
    out["rating_sd"] = p.rating_sd
    if p.seed is not None:
        out["seed"] = p.seed
    out["withdrawn"] = p.withdrawn
    return out


def parse_scenario(data: Mapping[str, Any], *, source: str = "<scenario>") -> Scenario:
    """Validate a scenario given as a mapping (parsed TOML or :meth:`Scenario.to_dict`).

    Raises:
        ScenarioError: Listing every problem found.
    """
    problems: list[Problem] = []
    parsed, table_problems = validated_table("scenario", dict(data), source)
    problems.extend(table_problems)
    raw_format = data.get("format", {})
    fmt: Format | None = None
    if isinstance(raw_format, Mapping):
        fmt, format_problems = format_of(raw_format, source)
        problems.extend(format_problems)
    raw_players = data.get("players")
    if isinstance(raw_players, list):
        problems.extend(player_problems(raw_players, source))
    raw_model = data.get("model", {})
    correlation, correlation_problems = parse_correlation(
        raw_model.get("correlation", []) if isinstance(raw_model, Mapping) else []
    )
    problems += [Problem(source, key, message) for key, message in correlation_problems]
    if problems or parsed is None or fmt is None:
        raise ScenarioError(dedupe(problems))
    model = model_params(parsed.model)
    model_sd = _model_sd(parsed.model.sd, correlation)
    players = tuple(
        Player(
            name=p.name.strip(),
            rating=p.rating,
            rating_rapid=p.rating_rapid,
            rating_blitz=p.rating_blitz,
            rating_sd=p.rating_sd,
            speed=Speed(p.speed.mean, p.speed.sd),
            seed=p.seed,
            withdrawn=p.withdrawn,
        )
        for p in parsed.players
    )
    entries, entry_problems = played_entries(parsed.played, fmt, players, source)
    if entry_problems:
        raise ScenarioError(dedupe(entry_problems))
    return Scenario(
        name=parsed.name,
        format=fmt,
        model=model,
        strategy=get_strategy(parsed.strategy.kind, belief_sd=parsed.strategy.belief_sd),
        players=players,
        bracket=BracketSettings(
            parsed.bracket.seeding, parsed.bracket.draw_seed, parsed.bracket.third_place
        ),
        schedule=ScheduleSettings(
            parsed.schedule.boards, parsed.schedule.gap_minutes, parsed.schedule.round_gap_minutes
        ),
        ranking=RankingSettings(
            tuple(parsed.ranking.tiebreaks), parsed.ranking.lots, parsed.ranking.rules
        ),
        incentives=IncentiveSettings(parsed.incentives.pace_min),
        played=tuple(g for _, g in entries),
        source=source,
        model_sd=model_sd,
    )


def _model_sd(table: _ModelSdIn, correlation: tuple[tuple[str, str, float], ...]) -> ModelSd:
    """``[model.sd]`` with the (checked) correlations."""

    def per_class(t: SdEloIn | SdDrawNuIn) -> PerClass:
        given = {k: v for k, v in t.model_dump().items() if v is not None}
        return replace(PerClass(0.0, 0.0, 0.0), **given)

    return ModelSd(
        per_class(table.red_advantage),
        per_class(table.draw_nu),
        per_class(table.elo_per_doubling),
        correlation,
    )
