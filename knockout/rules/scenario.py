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
import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from knockout.errors import Problem, ScenarioError
from knockout.game import Colour, Reply, Result
from knockout.points import canonical_tiebreak
from knockout.rules.bidding import Strategy, get_strategy
from knockout.rules.formats import (
    CHOOSER_RULES,
    FORMATS,
    BiddingMenu,
    ColourRule,
    CutChoose,
    Format,
    SealedBid,
    Stage,
)
from knockout.rules.match import (
    PlayedGame,
    Position,
    bid_colours,
    initial_state,
)
from knockout.rules.model import ModelParams, PerClass, TimeClass, model_params
from knockout.rules.model_sd import ModelSd, parse_correlation
from knockout.rules.players import MAX_RATING_SD, Player, Speed
from knockout.rules.progress import EventState
from knockout.rules.scenario_schema import SCHEMAS
from knockout.rules.settings import (
    BracketSettings,
    IncentiveSettings,
    RankingSettings,
    ScheduleSettings,
)
from knockout.schema import Record, check, dedupe, unknown_key

if TYPE_CHECKING:
    from knockout.rules.modeltable import PerClassNonNegIn
    from knockout.rules.scenario_models import _ModelSdIn, _PlayedIn, _StageIn

__all__ = ["Scenario", "format_to_dict", "parse_scenario"]


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
        if _model_problems(model, where) or sd.problems(model):
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
            "played": [_played_to_dict(g) for g in self.played],
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
        *_domain_player_problems(sc.players, source),
        *_model_problems(sc.model, source),
        *(Problem(source, key, message) for key, message in sc.model_sd.problems(sc.model)),
        *_strategy_problems(sc.strategy, source),
        *fmt_problems,
        *_bracket_problems(sc.bracket, sc.players, source),
        *_schedule_problems(sc.schedule, source),
        *_incentive_problems(sc.incentives, source),
        *_tiebreak_problems(sc.ranking, source),
        *_chooser_problems(sc.format, sc.players, source),
        *(
            []
            if fmt_problems
            else _played_problems(sc.format, sc.players, list(enumerate(sc.played)), source)
        ),
    ]


def _number_problem(
    key: str, value: object, *, low: float, high: float = math.inf, low_open: bool = False
) -> str | None:
    """Why ``value`` is not a number in the range, or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"expected a number, got {value!r}"
    ok = math.isfinite(value) or (value == high == math.inf)
    ok = ok and (value > low if low_open else value >= low) and value <= high
    if ok:
        return None
    lower = f"> {low:g}" if low_open else f">= {low:g}"
    upper = "" if high == math.inf else f" and <= {high:g}"
    return f"expected a number {lower}{upper}, got {value!r}"


def _domain_player_problems(players: Sequence[Player], source: str) -> list[Problem]:
    out: list[Problem] = []
    if len(players) < 2:
        out.append(Problem(source, "players", f"expected at least 2 players, got {len(players)}"))
    seen: dict[str, int] = {}
    for i, p in enumerate(players):
        key = f"players[{i}]"
        if not isinstance(p, Player):
            out.append(Problem(source, key, f"expected a Player, got {p!r}"))
            continue
        if not isinstance(p.name, str) or not p.name.strip():
            out.append(Problem(source, f"{key}.name", "expected a non-blank name"))
        elif p.name in seen:
            out.append(
                Problem(
                    source,
                    f"{key}.name",
                    f"duplicate name {p.name!r} (also players[{seen[p.name]}])",
                )
            )
        else:
            seen[p.name] = i
        checks: list[tuple[str, object, float, float, bool]] = [
            ("rating", p.rating, 0, math.inf, False),
            ("rating_sd", p.rating_sd, 0, MAX_RATING_SD, False),
            ("speed.mean", p.speed.mean, 0, 1, True),
            ("speed.sd", p.speed.sd, 0, 0.5, False),
        ]
        checks += [
            (name, value, 0, math.inf, False)
            for name, value in (("rating_rapid", p.rating_rapid), ("rating_blitz", p.rating_blitz))
            if value is not None
        ]
        for name, value, low, high, low_open in checks:
            why = _number_problem(name, value, low=low, high=high, low_open=low_open)
            if why is not None:
                out.append(Problem(source, f"{key}.{name}", why))
        if p.seed is not None and not (isinstance(p.seed, int) and p.seed >= 1):
            out.append(
                Problem(source, f"{key}.seed", f"expected a whole number >= 1, got {p.seed!r}")
            )
    return out


def _model_problems(model: ModelParams, source: str) -> list[Problem]:
    out: list[Problem] = []
    for table, low in (("red_advantage", -math.inf), ("draw_nu", 0.0), ("elo_per_doubling", 0.0)):
        per_class = getattr(model, table)
        for tc in TimeClass:
            raw = getattr(per_class, tc.value)
            plain = isinstance(raw, int | float) and not isinstance(raw, bool)  # the usual case
            if plain and math.isfinite(raw) and raw >= low:
                continue
            value = np.asarray(raw, dtype=np.float64)
            if not (np.all(np.isfinite(value)) and np.all(value >= low)):
                bound = "finite" if low == -math.inf else f">= {low:g}"
                shown = value.tolist()
                out.append(
                    Problem(
                        source,
                        f"model.{table}.{tc.value}",
                        f"expected a number {bound}, got {shown!r}",
                    )
                )
    moves = np.asarray(model.moves, dtype=np.float64)
    if not (np.all(np.isfinite(moves)) and np.all(moves >= 1)):
        out.append(
            Problem(source, "model.moves", f"expected a number >= 1, got {moves.tolist()!r}")
        )
    return out


def _strategy_problems(strategy: Strategy, source: str) -> list[Problem]:
    if not isinstance(strategy, Strategy):
        return [Problem(source, "strategy", f"expected a Strategy, got {strategy!r}")]
    why = _number_problem("belief_sd", strategy.belief_sd, low=0)
    return [] if why is None else [Problem(source, "strategy.belief_sd", why)]


def _schedule_problems(schedule: ScheduleSettings, source: str) -> list[Problem]:
    out: list[Problem] = []
    if not (isinstance(schedule.boards, int) and schedule.boards >= 1):
        out.append(
            Problem(
                source, "schedule.boards", f"expected a whole number >= 1, got {schedule.boards!r}"
            )
        )
    for name in ("gap_minutes", "round_gap_minutes"):
        why = _number_problem(name, getattr(schedule, name), low=0)
        if why is not None:
            out.append(Problem(source, f"schedule.{name}", why))
    return out


def _incentive_problems(incentives: IncentiveSettings, source: str) -> list[Problem]:
    why = _number_problem("pace_min", incentives.pace_min, low=0, high=1, low_open=True)
    return [] if why is None else [Problem(source, "incentives.pace_min", why)]


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


def _played_to_dict(g: PlayedGame) -> dict[str, Any]:
    """A ``[[played]]`` entry; a bid entry without its colours, which follow from the bid."""
    out: dict[str, Any] = {} if g.is_bid else {"red": g.red, "black": g.black}
    out["stage"] = g.stage
    if g.result is not None:
        out["result"] = g.result.value
    if g.time_used is not None:
        out["time_used"] = dict(g.time_used)
    if g.chooser is not None and g.announce is not None and g.reply is not None:
        out |= {"chooser": g.chooser, "announce": g.announce.value, "reply": g.reply.value}
    if g.chooser is not None and g.colour is not None:
        out |= {"chooser": g.chooser, "colour": g.colour.value}
    if g.cutter is not None and g.red_minutes is not None and g.colour is not None:
        out |= {"cutter": g.cutter, "red_minutes": g.red_minutes, "colour": g.colour.value}
    if g.bids is not None:
        out["bids"] = dict(g.bids)
    if g.lot_black is not None:
        out["lot_black"] = g.lot_black
    return out


def _minutes_value(m: tuple[float, float]) -> float | list[float]:
    return m[0] if m[0] == m[1] else [m[0], m[1]]


def _stage_fields(s: Stage) -> dict[str, Any]:
    out: dict[str, Any] = {} if s.time_class is None else {"time_class": s.time_class.value}
    out |= {
        "colours": s.colours.value,
        "draw_winner": "none" if s.draw_winner is None else s.draw_winner.value,
        "repeat": s.repeat,
        "increment_seconds": s.increment_seconds,
    }
    if s.repeat:
        out["max_blocks"] = s.max_blocks
    if s.bidding is not None:
        out.update(s.bidding.to_dict())
    if s.sealed_bid is not None:
        out.update(s.sealed_bid.to_dict())
    if s.cut is not None:
        out.update(s.cut.to_dict())
    if s.is_choice:
        out["chooser"] = s.chooser
    return out


def format_to_dict(fmt: Format) -> dict[str, Any]:
    """The ``[format]`` table of a resolved scenario."""
    if fmt.preset == "custom":
        return {
            "preset": "custom",
            "increment_seconds": fmt.increment_seconds,
            "stages": [
                {"name": s.name, "games": s.games, "minutes": _minutes_value(s.minutes)}
                | _stage_fields(s)
                for s in fmt.stages
            ],
        }
    out: dict[str, Any] = {"preset": fmt.preset, "increment_seconds": fmt.increment_seconds}
    for s in fmt.stages:
        if not s.is_decision:
            out[f"{s.name}_games"] = s.games
            out[f"{s.name}_minutes"] = _minutes_value(s.minutes)
    for s in fmt.stages:
        out[s.name] = _stage_fields(s)
    return out


def _table(name: str, data: Any, source: str, prefix: str = "") -> tuple[Any, list[Problem]]:
    """Table ``name`` of a scenario file validated: the table (None if it is bad) and its
    problems. Checked without pydantic (:mod:`knockout.schema`), against the schema compiled
    from the models, until pydantic is loaded; a table that check cannot accept goes to
    pydantic, which accepts it too or says what is wrong. Both accept the same tables with the
    same values (tests/rules/test_scenario_schema.py)."""
    if "pydantic" not in sys.modules:  # a valid table need not load pydantic
        record: Record | None = check(SCHEMAS[name], data)
        if record is not None:
            return record, []
    # once loaded, pydantic's compiled validator is faster than the check (a study's points)
    from knockout.rules.scenario_models import validated  # noqa: PLC0415  (slow to load)

    return validated(name, data, source, prefix)


def parse_scenario(data: Mapping[str, Any], *, source: str = "<scenario>") -> Scenario:
    """Validate a scenario given as a mapping (parsed TOML or :meth:`Scenario.to_dict`).

    Raises:
        ScenarioError: Listing every problem found.
    """
    problems: list[Problem] = []
    parsed, table_problems = _table("scenario", dict(data), source)
    problems.extend(table_problems)
    raw_format = data.get("format", {})
    fmt: Format | None = None
    if isinstance(raw_format, Mapping):
        fmt, format_problems = _format_of(raw_format, source)
        problems.extend(format_problems)
    raw_players = data.get("players")
    if isinstance(raw_players, list):
        problems.extend(_player_problems(raw_players, source))
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
    entries, entry_problems = _played_entries(parsed.played, fmt, players, source)
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

    def per_class(t: PerClassNonNegIn) -> PerClass:
        given = {k: v for k, v in t.model_dump().items() if v is not None}
        return replace(PerClass(0.0, 0.0, 0.0), **given)

    return ModelSd(
        per_class(table.red_advantage),
        per_class(table.draw_nu),
        per_class(table.elo_per_doubling),
        correlation,
    )


def _chooser_problems(fmt: Format, players: tuple[Player, ...], source: str) -> list[Problem]:
    """A ``choice`` stage's chooser is ``lot`` or a player of the scenario."""
    names = [p.name for p in players]
    rules = ", ".join(repr(r) for r in CHOOSER_RULES)
    return [
        Problem(
            source,
            f"format.{s.name}.chooser",
            f"expected {rules} or a player's name ({', '.join(names)}), got {s.chooser!r}",
        )
        for s in fmt.stages
        if s.is_choice and s.chooser not in CHOOSER_RULES and s.chooser not in names
    ]


def _bracket_problems(
    bracket: BracketSettings, players: tuple[Player, ...], source: str
) -> list[Problem]:
    out: list[Problem] = []
    n = len(players)
    if bracket.seeding == "given":
        seeds = [p.seed for p in players]
        if sorted(s for s in seeds if s is not None) != list(range(1, n + 1)):
            out.append(
                Problem(
                    source,
                    "bracket.seeding",
                    f"'given' needs every player's seed, 1 to {n} once each; got {seeds}",
                )
            )
    if bracket.third_place and n < 4:
        out.append(
            Problem(
                source,
                "bracket.third_place",
                f"a match for third place needs two semi-finals (at least 4 players), got {n}",
            )
        )
    return out


def _tiebreak_problems(ranking: RankingSettings, source: str) -> list[Problem]:
    out: list[Problem] = []
    for i, code in enumerate(ranking.tiebreaks):
        try:
            canonical_tiebreak(code)
        except ValueError as exc:
            out.append(Problem(source, f"ranking.tiebreaks[{i}]", str(exc)))
    return out


def _game_problems(
    i: int, g: PlayedGame, names: set[str], fmt: Format, source: str
) -> tuple[list[Problem], bool]:
    """Problems of played game ``i`` on its own, and whether it can be replayed at all."""
    out: list[Problem] = []
    for key, name in (("red", g.red), ("black", g.black)):
        if name not in names:
            out.append(Problem(source, f"played[{i}].{key}", f"unknown player {name!r}"))
    if g.red == g.black:
        out.append(Problem(source, f"played[{i}]", f"{g.red!r} cannot play themself"))
    if g.stage not in fmt.stage_names:
        expected = ", ".join(fmt.stage_names)
        out.append(
            Problem(source, f"played[{i}].stage", f"expected one of {expected}, got {g.stage!r}")
        )
    fatal = bool(out)
    out += _decision_range_problems(f"played[{i}]", g, fmt, source)
    for name in g.time_used or {}:
        if name not in (g.red, g.black):
            out.append(
                Problem(
                    source,
                    f"played[{i}].time_used",
                    f"{name!r} did not play this game ({g.red} v {g.black})",
                )
            )
    return out, not fatal


def _decision_range_problems(key: str, g: PlayedGame, fmt: Format, source: str) -> list[Problem]:
    """A recorded cut's Red minutes and sealed bids within the stage's bounds (a scenario
    built in Python; the file path checks them when it reads the entry)."""
    cut = fmt.cut_stage.cut if fmt.cut_stage is not None else None
    sealed = fmt.sealed_bid_stage.sealed_bid if fmt.sealed_bid_stage is not None else None
    return [
        *_red_minutes_problems(key, g.red_minutes, cut, source),
        *_bid_range_problems(key, g.bids, sealed, source),
    ]


def _red_minutes_problems(
    key: str, red_minutes: float | None, cut: CutChoose | None, source: str
) -> list[Problem]:
    """A cut's Red minutes outside the stage's ``min_red_minutes`` .. ``max_red_minutes``."""
    if red_minutes is None or cut is None:
        return []
    low, high = cut.min_red_minutes, cut.max_red_minutes
    if math.isfinite(red_minutes) and low <= red_minutes <= high:
        return []
    return [
        Problem(
            source,
            f"{key}.red_minutes",
            f"expected Red's minutes from {low:g} (min_red_minutes) to {high:g} "
            f"(max_red_minutes), got {red_minutes:g}",
        )
    ]


def _bid_range_problems(
    key: str, bids: Mapping[str, float] | None, sealed: SealedBid | None, source: str
) -> list[Problem]:
    """Sealed bids outside the stage's ``min_black_minutes`` .. ``red_minutes``."""
    if bids is None or sealed is None:
        return []
    low, high = sealed.min_black_minutes, sealed.red_minutes
    return [
        Problem(
            source,
            f"{key}.bids.{name}",
            f"expected Black's minutes from {low:g} (min_black_minutes) to {high:g} "
            f"(red_minutes), got {value:g}",
        )
        for name, value in bids.items()
        if not (math.isfinite(value) and low <= value <= high)
    ]


def _played_problems(
    fmt: Format,
    players: tuple[Player, ...],
    played: Sequence[tuple[int, PlayedGame]],
    source: str,
) -> list[Problem]:
    """Every played game checked alone (each match's games are then replayed through the
    chain once, when the scenario places them on the draw: :class:`EventState`)."""
    names = {p.name for p in players}
    return [p for i, g in played for p in _game_problems(i, g, names, fmt, source)[0]]


_BID_KEYS = {
    "chooser": "甲's name",
    "announce": "'red' or 'black'",
    "reply": "'accept' or 'object'",
}


def _played_entries(
    raw: Sequence[_PlayedIn], fmt: Format, players: tuple[Player, ...], source: str
) -> tuple[list[tuple[int, PlayedGame]], list[Problem]]:
    """The ``[[played]]`` entries that can be read, with their indices, and the problems of
    those that cannot. A bid entry (no result) without ``red`` and ``black`` gets them from the
    bid: its match is that of the chooser's last game listed before it (with two players, the
    other player), and the bidding rule says who has Red."""
    out: list[tuple[int, PlayedGame]] = []
    problems: list[Problem] = []
    for i, g in enumerate(raw):
        found = _entry_problems(i, g, fmt, players, source)
        if found:
            problems += found
            continue
        red, black = g.red, g.black
        chooser = None if g.chooser is None else g.chooser.strip()
        cutter = None if g.cutter is None else g.cutter.strip()
        bids = None if g.bids is None else {k.strip(): float(v) for k, v in g.bids.items()}
        lot_black = None if g.lot_black is None else g.lot_black.strip()
        if (red is None or black is None) and bids is not None:
            red, black = _sealed_colours(bids, lot_black)
        elif red is None or black is None:
            decider = chooser if cutter is None else cutter
            assert decider is not None
            other = _bid_opponent(decider, [e for _, e in out], players)
            if other is None:
                what = "cut" if cutter else "colour choice" if g.colour is not None else "bid"
                problems.append(
                    Problem(
                        source,
                        f"played[{i}].{'cutter' if cutter else 'chooser'}",
                        f"expected a game of {decider}'s listed before this {what} (the games "
                        "of its match come first), got none",
                    )
                )
                continue
            red, black = _decided_colours(fmt, g, decider, other)
        out.append(
            (
                i,
                PlayedGame(
                    red.strip(),
                    black.strip(),
                    g.stage,
                    None if g.result is None else Result(g.result),
                    None if g.time_used is None else dict(g.time_used),
                    chooser,
                    None if g.announce is None else Colour(g.announce),
                    None if g.reply is None else Reply(g.reply),
                    None if g.colour is None else Colour(g.colour),
                    cutter,
                    None if g.red_minutes is None else float(g.red_minutes),
                    bids,
                    lot_black,
                ),
            )
        )
    return out, problems


def _sealed_colours(bids: Mapping[str, float], lot_black: str | None) -> tuple[str, str]:
    """``(Red, Black)`` of sealed bids: the lower bid plays Black (equal: the lot's)."""
    (a, bid_a), (b, bid_b) = bids.items()
    if bid_a == bid_b:
        black = lot_black if lot_black in (a, b) else b
    else:
        black = a if bid_a < bid_b else b
    return (b, a) if black == a else (a, b)


def _decided_colours(fmt: Format, g: _PlayedIn, chooser: str, other: str) -> tuple[str, str]:
    """``(Red, Black)`` of a decision entry given without them: the chooser's colour, the
    colours a cut gives (``chooser`` is then the cutter; the other player took ``colour``), or
    the colours the bid gives."""
    if g.cutter is not None and g.colour is not None:
        return (other, chooser) if g.colour == "red" else (chooser, other)
    if g.colour is not None:
        return (chooser, other) if g.colour == "red" else (other, chooser)
    menu = fmt.bidding_stage.bidding if fmt.bidding_stage is not None else None
    assert menu is not None and g.announce is not None and g.reply is not None
    return bid_colours(menu, chooser, other, Colour(g.announce), Reply(g.reply))


def _entry_problems(
    i: int, g: _PlayedIn, fmt: Format, players: tuple[Player, ...], source: str
) -> list[Problem]:
    """What keeps ``[[played]]`` entry ``i`` from being read: a game without both players, a
    decision (bid, colour choice) without its keys or outside the stage it belongs to, an entry
    without a result that records no decision."""
    key = f"played[{i}]"
    if _is_sealed_entry(g) and _is_cut_entry(g):
        return [
            Problem(
                source,
                key,
                "expected the keys of one decision: bids (and lot_black) for sealed bids, or "
                "cutter, red_minutes and colour for a cut; got both",
            )
        ]
    if _is_sealed_entry(g):
        out = _sealed_entry_problems(key, g, fmt, players, source)
        decision = True
    elif _is_cut_entry(g):
        out = _cut_entry_problems(key, g, fmt, players, source)
        decision = True
    elif _is_choice_entry(g, fmt):
        out = _choice_entry_problems(key, g, fmt, source)
        decision = True
    else:
        out = _bid_entry_problems(key, g, fmt, source)
        decision = g.chooser is not None or g.announce is not None or g.reply is not None
    if g.result is None and not decision:
        out.append(
            Problem(
                source,
                f"{key}.result",
                f"expected red, draw or black (only {_decisions_recordable(fmt)}, can be given "
                "without its result), got nothing",
            )
        )
    if g.result is not None:
        out += [
            Problem(source, f"{key}.{k}", "required key is missing")
            for k in ("red", "black")
            if getattr(g, k) is None
        ]
    elif (g.red is None) != (g.black is None):
        out.append(
            Problem(
                source,
                f"{key}.{'black' if g.black is None else 'red'}",
                "expected both red and black or neither (a decision's colours follow from the "
                "rule), got one",
            )
        )
    names = [p.name for p in players]
    if g.result is None and g.chooser is not None and g.chooser.strip() not in names:
        out.append(Problem(source, f"{key}.chooser", f"unknown player {g.chooser!r}"))
    if g.result is None and g.time_used is not None:
        out.append(
            Problem(
                source,
                f"{key}.time_used",
                "expected no times: a decision without a result is for a game not played yet",
            )
        )
    return out


def _decisions_recordable(fmt: Format) -> str:
    """What a ``[[played]]`` entry without a result may record, in words."""
    parts = (
        [
            f"the {s.name} game's bid, with chooser, announce and reply"
            for s in fmt.playable
            if s.is_bidding
        ]
        + [
            f"the {s.name} game's colour choice, with chooser and colour"
            for s in fmt.playable
            if s.is_choice
        ]
        + [
            f"the {s.name} game's cut, with cutter, red_minutes and colour"
            for s in fmt.playable
            if s.is_cut
        ]
        + [
            f"the {s.name} game's sealed bids, with bids (and lot_black for equal bids)"
            for s in fmt.playable
            if s.is_sealed_bid
        ]
    )
    return " or ".join(parts) or "a game whose players decide its colours (this format has none)"


def _is_choice_entry(g: _PlayedIn, fmt: Format) -> bool:
    """An entry recording a colour choice: it gives ``colour``, or a chooser at a stage whose
    colours a player chooses (and no bid keys)."""
    if g.colour is not None:
        return True
    stage = next((s for s in fmt.stages if s.name == g.stage), None)
    return (
        stage is not None
        and stage.is_choice
        and g.chooser is not None
        and g.announce is None
        and g.reply is None
    )


def _is_sealed_entry(g: _PlayedIn) -> bool:
    """An entry recording sealed bids: it gives ``bids`` or ``lot_black``."""
    return g.bids is not None or g.lot_black is not None


def _is_cut_entry(g: _PlayedIn) -> bool:
    """An entry recording a cut: it gives ``cutter`` or ``red_minutes``."""
    return g.cutter is not None or g.red_minutes is not None


def _foreign_keys(
    key: str, g: _PlayedIn, keys: Sequence[str], what: str, source: str
) -> list[Problem]:
    """The keys of other decisions an entry of ``what`` gives (each refused)."""
    return [
        Problem(source, f"{key}.{k}", f"expected no {k}: {what}")
        for k in keys
        if getattr(g, k) is not None
    ]


def _sealed_entry_problems(
    key: str, g: _PlayedIn, fmt: Format, players: tuple[Player, ...], source: str
) -> list[Problem]:
    what = "sealed bids give bids (and lot_black for equal bids)"
    out = _foreign_keys(
        key, g, ("chooser", "announce", "reply", "colour", "cutter", "red_minutes"), what, source
    )
    stage = fmt.sealed_bid_stage
    if stage is None or g.stage != stage.name:
        where = repr(stage.name) if stage is not None else "none: the format has no sealed bids"
        out.append(
            Problem(
                source,
                f"{key}.stage",
                f"expected the stage whose colours sealed bids settle ({where}), got {g.stage!r}",
            )
        )
    if g.bids is None:
        return [
            *out,
            Problem(
                source,
                f"{key}.bids",
                "expected bids = {NAME = MINUTES, NAME = MINUTES} (lot_black comes with them), "
                "got nothing",
            ),
        ]
    names = [p.name for p in players]
    bids = {k.strip(): float(v) for k, v in g.bids.items()}
    if len(bids) != 2 or len(g.bids) != 2:
        out.append(
            Problem(
                source,
                f"{key}.bids",
                f"expected the two players' bids, got {len(g.bids)}: {', '.join(g.bids) or 'none'}",
            )
        )
    out += [
        Problem(source, f"{key}.bids.{name}", f"unknown player {name!r}")
        for name in bids
        if name not in names
    ]
    out += _bid_range_problems(key, bids, None if stage is None else stage.sealed_bid, source)
    values = list(bids.values())
    equal = len(values) == 2 and values[0] == values[1]
    lot = None if g.lot_black is None else g.lot_black.strip()
    if equal and lot is None:
        out.append(
            Problem(
                source,
                f"{key}.lot_black",
                f"expected the player the lot gave Black (equal bids of {values[0]:g} min), "
                "got nothing",
            )
        )
    elif not equal and lot is not None and len(values) == 2:
        out.append(
            Problem(
                source,
                f"{key}.lot_black",
                "expected no lot_black: the bids differ, so the lower bid plays Black",
            )
        )
    elif lot is not None and lot not in bids:
        out.append(Problem(source, f"{key}.lot_black", f"expected one of the bidders, got {lot!r}"))
    return out


def _cut_entry_problems(
    key: str, g: _PlayedIn, fmt: Format, players: tuple[Player, ...], source: str
) -> list[Problem]:
    what = "a cut gives cutter, red_minutes and colour (the colour the other player took)"
    out = _foreign_keys(key, g, ("chooser", "announce", "reply", "bids", "lot_black"), what, source)
    needed = {
        "cutter": "who cut (named Red's minutes)",
        "red_minutes": "Red's base minutes the cutter named",
        "colour": "'red' or 'black' (the colour the other player took)",
    }
    out += [
        Problem(source, f"{key}.{k}", f"expected {why} ({what}), got nothing")
        for k, why in needed.items()
        if getattr(g, k) is None
    ]
    stage = fmt.cut_stage
    if stage is None or g.stage != stage.name:
        where = repr(stage.name) if stage is not None else "none: the format has no cut"
        out.append(
            Problem(
                source,
                f"{key}.stage",
                f"expected the stage settled by cut-and-choose ({where}), got {g.stage!r}",
            )
        )
    if g.cutter is not None and g.cutter.strip() not in [p.name for p in players]:
        out.append(Problem(source, f"{key}.cutter", f"unknown player {g.cutter!r}"))
    out += _red_minutes_problems(key, g.red_minutes, None if stage is None else stage.cut, source)
    return out


def _choice_entry_problems(key: str, g: _PlayedIn, fmt: Format, source: str) -> list[Problem]:
    out: list[Problem] = []
    if g.chooser is None:
        out.append(
            Problem(
                source,
                f"{key}.chooser",
                "expected who chose the colours (a colour choice gives chooser and colour), "
                "got nothing",
            )
        )
    if g.colour is None:
        out.append(
            Problem(
                source,
                f"{key}.colour",
                "expected 'red' or 'black' (a colour choice gives chooser and colour), got nothing",
            )
        )
    for k in ("announce", "reply"):
        if getattr(g, k) is not None:
            out.append(
                Problem(
                    source,
                    f"{key}.{k}",
                    f"expected no {k}: a colour choice gives chooser and colour, a bid "
                    "chooser, announce and reply",
                )
            )
    choosing = [s.name for s in fmt.playable if s.is_choice]
    if g.stage not in choosing:
        where = f"one of {choosing}" if choosing else "none: the format has no colour choice"
        out.append(
            Problem(
                source,
                f"{key}.stage",
                f"expected a stage whose colours a player chooses ({where}), got {g.stage!r}",
            )
        )
    return out


def _bid_entry_problems(key: str, g: _PlayedIn, fmt: Format, source: str) -> list[Problem]:
    out: list[Problem] = []
    given = {k: getattr(g, k) is not None for k in _BID_KEYS}
    if any(given.values()) and not all(given.values()):
        out += [
            Problem(
                source,
                f"{key}.{k}",
                f"expected {what} (a bid gives chooser, announce and reply), got nothing",
            )
            for k, what in _BID_KEYS.items()
            if not given[k]
        ]
    bidding = fmt.bidding_stage
    if any(given.values()) and bidding is None:
        out.append(
            Problem(
                source,
                f"{key}.chooser",
                "expected no bid: chooser, announce and reply belong to a sudden-death "
                f"bidding stage, and the format has none; got {g.chooser!r}",
            )
        )
    elif any(given.values()) and bidding is not None and g.stage != bidding.name:
        out.append(
            Problem(
                source,
                f"{key}.stage",
                f"expected {bidding.name!r} (only the sudden-death game has a bid: chooser, "
                f"announce, reply), got {g.stage!r}",
            )
        )
    return out


def _bid_opponent(
    chooser: str, before: Sequence[PlayedGame], players: tuple[Player, ...]
) -> str | None:
    """The other player of a bid's match: the chooser's opponent in their last game listed
    before it, or with two players the other one (None: not known)."""
    for g in reversed(before):
        if chooser in (g.red, g.black):
            return g.black if g.red == chooser else g.red
    if len(players) == 2:
        a, b = (p.name for p in players)
        return b if chooser == a else a if chooser == b else None
    return None


def _player_problems(players: Iterable[Any], source: str) -> list[Problem]:
    out: list[Problem] = []
    seen: dict[str, int] = {}
    for i, p in enumerate(players):
        raw = p.get("name") if isinstance(p, Mapping) else None
        if not isinstance(raw, str):
            continue
        name = raw.strip()
        if not name and raw:  # an empty name is already refused by the field's min_length
            out.append(Problem(source, f"players[{i}].name", "expected a non-blank name"))
        elif name in seen:
            out.append(
                Problem(
                    source,
                    f"players[{i}].name",
                    f"duplicate name {name!r} (also players[{seen[name]}])",
                )
            )
        else:
            seen[name] = i
    return out


# ---------------------------------------------------------------------------------------------
# [format]


#: Formats already parsed from the same table, by its JSON text: a study parses the same
#: ``[format]`` at each of thousands of points. Only good formats are kept (problems name the
#: file), and a Format is frozen, so sharing one is safe.
_FORMATS_SEEN: dict[str, Format] = {}
_FORMATS_KEPT = 64


def _format_of(raw: Mapping[str, Any], source: str) -> tuple[Format | None, list[Problem]]:
    """:func:`_parse_format`, remembered for a table parsed before without problems."""
    try:
        key = json.dumps(raw, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):  # not plain data: parse it, and let the parse say why
        return _parse_format(raw, source)
    seen = _FORMATS_SEEN.get(key)
    if seen is not None:
        return seen, []
    fmt, problems = _parse_format(raw, source)
    if fmt is not None and not problems:
        if len(_FORMATS_SEEN) >= _FORMATS_KEPT:
            _FORMATS_SEEN.clear()
        _FORMATS_SEEN[key] = fmt
    return fmt, problems


def _parse_format(raw: Mapping[str, Any], source: str) -> tuple[Format | None, list[Problem]]:
    problems: list[Problem] = []

    def problem(key: str, message: str) -> None:
        problems.append(Problem(source, f"format.{key}" if key else "format", message))

    preset = raw.get("preset", "xq-bidding")
    known = [*FORMATS, "custom"]
    if preset not in known:
        problem("preset", f"expected one of {', '.join(known)}, got {preset!r}")
        return None, problems
    increment = raw.get("increment_seconds")
    head, head_problems = _table("format_head", {"increment_seconds": increment}, source, "format")
    if head is None:
        problems.extend(head_problems)
        increment = None
    if preset == "custom":
        fmt = _custom_format(raw, increment, source, problems)
    else:
        fmt = _preset_format(FORMATS[preset], raw, increment, source, problems)
    if fmt is None:
        return None, problems
    for key, message in fmt.problems():
        problem(key, message)
    return (None if problems else fmt), problems


def _custom_format(
    raw: Mapping[str, Any], increment: Any, source: str, problems: list[Problem]
) -> Format | None:
    for key in raw:
        if key not in ("preset", "increment_seconds", "stages"):
            problems.append(
                Problem(
                    source,
                    f"format.{key}",
                    unknown_key(key, ["preset", "increment_seconds", "stages"]),
                )
            )
    stages_raw = raw.get("stages")
    if not isinstance(stages_raw, list) or not stages_raw:
        problems.append(
            Problem(source, "format.stages", "a custom format needs a list of [[format.stages]]")
        )
        return None
    default_increment = 10.0 if increment is None else float(increment)
    stages: list[Stage] = []
    for i, item in enumerate(stages_raw):
        st, stage_problems = _table("custom_stage", item, source, f"format.stages[{i}]")
        if st is None:
            problems.extend(stage_problems)
            continue
        tc = None if st.time_class is None else TimeClass(st.time_class)
        base = Stage(st.name, st.games, tc, increment_seconds=default_increment)
        stages.append(_apply_stage(base, st))
    if len(stages) != len(stages_raw):
        return None
    return Format("custom", tuple(stages), default_increment)


def _preset_keys(preset: Format) -> list[str]:
    """The keys a preset's ``[format]`` table may have."""
    allowed = ["preset", "increment_seconds"]
    for s in preset.stages:
        if not s.is_decision:
            allowed += [f"{s.name}_games", f"{s.name}_minutes"]
    return allowed + [s.name for s in preset.stages]


def _shortcuts(
    stage: Stage, raw: Mapping[str, Any], table: _StageIn, source: str, problems: list[Problem]
) -> dict[str, Any] | None:
    """``<stage>_games`` / ``<stage>_minutes`` of a preset's table (None if one is bad)."""
    found: dict[str, Any] = {}
    ok = True
    for field_name in ("games", "minutes"):
        key = f"{stage.name}_{field_name}"
        if key not in raw:
            continue
        checked, field_problems = _table("stage", {field_name: raw[key]}, source)
        if checked is None:
            problems += [Problem(source, f"format.{key}", p.message) for p in field_problems]
            ok = False
            continue
        value = getattr(checked, field_name)
        given = getattr(table, field_name)
        if given is not None and given != value:
            problems.append(
                Problem(
                    source,
                    f"format.{key}",
                    f"disagrees with format.{stage.name}.{field_name} "
                    f"({raw[key]!r} vs {given!r}): give it once",
                )
            )
            ok = False
        found[field_name] = value
    return found if ok else None


def _preset_format(
    preset: Format, raw: Mapping[str, Any], increment: Any, source: str, problems: list[Problem]
) -> Format | None:
    allowed = _preset_keys(preset)
    for key in raw:
        if key not in allowed:
            problems.append(Problem(source, f"format.{key}", unknown_key(key, allowed)))
    stages: list[Stage] = []
    for s in preset.stages:
        stage = s if increment is None else replace(s, increment_seconds=float(increment))
        table, stage_problems = _table("stage", raw.get(s.name, {}), source, f"format.{s.name}")
        if table is None:
            problems.extend(stage_problems)
            continue
        shortcut = _shortcuts(s, raw, table, source, problems)
        if shortcut is not None:
            merged = table.model_copy(update={k: v for k, v in shortcut.items() if v is not None})
            stages.append(_apply_stage(stage, merged))
    if len(stages) != len(preset.stages):
        return None
    return Format(
        preset.preset,
        tuple(stages),
        preset.increment_seconds if increment is None else float(increment),
    )


def _apply_stage(stage: Stage, table: _StageIn) -> Stage:
    """``stage`` with every field its table gives replaced."""
    changes: dict[str, Any] = {}
    if table.games is not None:
        changes["games"] = table.games
    if table.minutes is not None:
        m = table.minutes
        changes["minutes"] = (float(m), float(m)) if isinstance(m, float | int) else (m[0], m[1])
    if table.increment_seconds is not None:
        changes["increment_seconds"] = table.increment_seconds
    if table.time_class is not None:
        changes["time_class"] = TimeClass(table.time_class)
    if table.colours is not None:
        changes["colours"] = ColourRule(table.colours)
    if table.draw_winner is not None:
        changes["draw_winner"] = None if table.draw_winner == "none" else Colour(table.draw_winner)
    if table.repeat is not None:
        changes["repeat"] = table.repeat
    if table.max_blocks is not None:
        changes["max_blocks"] = table.max_blocks
    if table.chooser is not None:
        changes["chooser"] = table.chooser.strip()
    changes.update(_decision_fields(stage, table, changes.get("colours", stage.colours)))
    return replace(stage, **changes)


def _decision_fields(stage: Stage, table: _StageIn, colours: ColourRule) -> dict[str, Any]:
    """The bidding menu, sealed-bid and cut-and-choose clocks the table gives the stage."""
    found = {
        "bidding": _menu(stage, table, colours),
        "sealed_bid": _sealed_bid(stage, table, colours),
        "cut": _cut(stage, table, colours),
    }
    return {k: v for k, v in found.items() if v is not None}


def _menu(stage: Stage, table: _StageIn, colours: ColourRule) -> BiddingMenu | None:
    """The bidding menu with the table's clocks and priority (None: the stage has none)."""
    keys = ("accept", "object_red", "object_black")
    unused = colours is not ColourRule.BIDDING and all(getattr(table, k) is None for k in keys)
    if unused and (table.priority is None or colours is ColourRule.CUT_CHOOSE):
        return None
    changes: dict[str, Any] = {
        k: (float(getattr(table, k)[0]), float(getattr(table, k)[1]))
        for k in keys
        if getattr(table, k) is not None
    }
    if table.priority is not None:
        changes["priority"] = table.priority
    return replace(stage.bidding or BiddingMenu(), **changes)


def _sealed_bid(stage: Stage, table: _StageIn, colours: ColourRule) -> SealedBid | None:
    """The sealed-bid clocks with the table's values (None: the stage has none)."""
    keys = ("red_minutes", "min_black_minutes")
    if colours is not ColourRule.SEALED_BID and all(
        getattr(table, k) is None for k in (*keys, "price")
    ):
        return None
    changes: dict[str, Any] = {
        k: float(getattr(table, k)) for k in keys if getattr(table, k) is not None
    }
    if table.price is not None:
        changes["price"] = table.price
    return replace(stage.sealed_bid or SealedBid(), **changes)


def _cut(stage: Stage, table: _StageIn, colours: ColourRule) -> CutChoose | None:
    """The cut-and-choose clocks with the table's values (None: the stage has none)."""
    keys = ("black_minutes", "min_red_minutes", "max_red_minutes")
    if colours is not ColourRule.CUT_CHOOSE and all(getattr(table, k) is None for k in keys):
        return None
    changes: dict[str, Any] = {
        k: float(getattr(table, k)) for k in keys if getattr(table, k) is not None
    }
    if table.priority is not None and colours is ColourRule.CUT_CHOOSE:
        changes["priority"] = table.priority
    return replace(stage.cut or CutChoose(), **changes)
