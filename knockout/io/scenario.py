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

import difflib
import math
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from knockout.errors import Problem, ScenarioError
from knockout.game import Colour, Result
from knockout.rules.bidding import Strategy, get_strategy
from knockout.rules.formats import FORMATS, BiddingMenu, ColourRule, Format, SealedBid, Stage
from knockout.rules.match import PlayedGame, ReplayError, replay
from knockout.rules.model import DEFAULT_MODEL, ModelParams, TimeClass
from knockout.rules.players import Player, Speed
from knockout.rules.settings import BracketSettings, RankingSettings, ScheduleSettings
from knockout.standings.tiebreaks import get_tiebreak

__all__ = ["Scenario", "format_to_dict", "load_scenario", "parse_scenario"]

Number = Annotated[float, Field(strict=True)]
NonNegative = Annotated[float, Field(strict=True, ge=0)]
Positive = Annotated[float, Field(strict=True, gt=0)]
ClockPair = Annotated[list[Positive], Field(min_length=2, max_length=2)]
DrawWinner = Literal["none", "red", "black"]
TimeClassName = Literal["classical", "rapid", "blitz"]
ColourRuleName = Literal["lot", "alternate", "bidding", "sealed-bid"]


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, strict=True, frozen=True)


class _SpeedIn(_Table):
    mean: NonNegative = 0.75
    sd: NonNegative = 0.10


class _PlayerIn(_Table):
    name: Annotated[str, Field(min_length=1)]
    rating: NonNegative
    rating_rapid: NonNegative | None = None
    rating_blitz: NonNegative | None = None
    speed: _SpeedIn = _SpeedIn()
    seed: Annotated[int, Field(ge=1)] | None = None
    withdrawn: bool = False


class _BracketIn(_Table):
    seeding: Literal["rating", "given", "random"] = "rating"
    draw_seed: int = 1
    third_place: bool = False


class _ScheduleIn(_Table):
    boards: Annotated[int, Field(ge=1)] = 8
    gap_minutes: NonNegative = 15.0
    round_gap_minutes: NonNegative = 60.0


class _RankingIn(_Table):
    tiebreaks: list[str] = Field(default_factory=lambda: ["WON", "BWG"])
    lots: bool = False
    rules: Literal["2024", "2026"] = "2026"


class _PlayedIn(_Table):
    red: Annotated[str, Field(min_length=1)]
    black: Annotated[str, Field(min_length=1)]
    stage: Annotated[str, Field(min_length=1)]
    result: Literal["red", "draw", "black"]
    time_used: dict[str, NonNegative] | None = None


class _PerClassIn(_Table):
    classical: Number | None = None
    rapid: Number | None = None
    blitz: Number | None = None


class _PerClassNonNegIn(_Table):
    classical: NonNegative | None = None
    rapid: NonNegative | None = None
    blitz: NonNegative | None = None


class _ModelIn(_Table):
    red_advantage: _PerClassIn = _PerClassIn()
    draw_nu: _PerClassNonNegIn = _PerClassNonNegIn()
    elo_per_doubling: _PerClassIn = _PerClassIn()


class _StrategyIn(_Table):
    kind: Literal["rational", "naive", "believed"] = "rational"
    belief_sd: NonNegative = 100.0


class _StageIn(_Table):
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


class _CustomStageIn(_StageIn):
    name: Annotated[str, Field(min_length=1)]
    games: Annotated[int, Field(ge=0)]
    time_class: TimeClassName


class _ScenarioIn(_Table):
    name: str = "Unnamed scenario"
    format: dict[str, Any] = Field(default_factory=dict, strict=False)
    model: _ModelIn = _ModelIn()
    strategy: _StrategyIn = _StrategyIn()
    players: Annotated[list[_PlayerIn], Field(min_length=2)]
    bracket: _BracketIn = _BracketIn()
    schedule: _ScheduleIn = _ScheduleIn()
    ranking: _RankingIn = _RankingIn()
    played: list[_PlayedIn] = Field(default_factory=list)


@dataclass(frozen=True)
class Scenario:
    """A validated scenario: everything a match or a bracket needs.

    Attributes:
        name: Free text.
        format: The match format.
        model: Model constants.
        strategy: The bidding strategy object.
        players: At least two, names unique.
        strategy_kind: ``rational``, ``naive`` or ``believed``.
        belief_sd: Belief noise (Elo) for ``believed``.
        bracket: ``[bracket]`` settings (more than two players).
        schedule: ``[schedule]`` settings for the event engine.
        ranking: ``[ranking]`` settings for the final ranking.
        played: Games already played (``[[played]]``), in order.
        source: Where the scenario came from (for messages).
    """

    name: str
    format: Format
    model: ModelParams
    strategy: Strategy
    players: tuple[Player, ...]
    strategy_kind: str = "rational"
    belief_sd: float = 100.0
    bracket: BracketSettings = field(default_factory=BracketSettings)
    schedule: ScheduleSettings = field(default_factory=ScheduleSettings)
    ranking: RankingSettings = field(default_factory=RankingSettings)
    played: tuple[PlayedGame, ...] = ()
    source: str = field(default="<scenario>", compare=False)

    @property
    def is_bracket(self) -> bool:
        """More than two players: a knockout bracket."""
        return len(self.players) > 2

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
            "model": self.model.to_dict(),
            "strategy": {"kind": self.strategy_kind, "belief_sd": self.belief_sd},
            "players": [_player_to_dict(p) for p in self.players],
            "bracket": self.bracket.to_dict(),
            "schedule": self.schedule.to_dict(),
            "ranking": self.ranking.to_dict(),
            "played": [_played_to_dict(g) for g in self.played],
        }


def _player_to_dict(p: Player) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": p.name,
        "rating": p.rating,
        "rating_rapid": p.rating_for(TimeClass.RAPID),
        "rating_blitz": p.rating_for(TimeClass.BLITZ),
        "speed": p.speed.to_dict(),
    }
    if p.seed is not None:
        out["seed"] = p.seed
    out["withdrawn"] = p.withdrawn
    return out


def _played_to_dict(g: PlayedGame) -> dict[str, Any]:
    out: dict[str, Any] = {
        "red": g.red,
        "black": g.black,
        "stage": g.stage,
        "result": g.result.value,
    }
    if g.time_used is not None:
        out["time_used"] = dict(g.time_used)
    return out


def _minutes_value(m: tuple[float, float]) -> float | list[float]:
    return m[0] if m[0] == m[1] else [m[0], m[1]]


def _stage_fields(s: Stage) -> dict[str, Any]:
    out: dict[str, Any] = {
        "time_class": s.time_class.value,
        "colours": s.colours.value,
        "draw_winner": "none" if s.draw_winner is None else s.draw_winner.value,
        "repeat": s.repeat,
        "increment_seconds": s.increment_seconds,
    }
    if s.bidding is not None:
        out.update(s.bidding.to_dict())
    if s.sealed_bid is not None:
        out.update(s.sealed_bid.to_dict())
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


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file.

    Raises:
        ScenarioError: Listing every problem found (unreadable file, bad TOML, bad keys/values).
    """
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ScenarioError.single(source, "", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError.single(source, "", f"cannot read the file: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError.single(source, "", f"not valid TOML: {exc}") from None
    return parse_scenario(data, source=source)


def parse_scenario(data: Mapping[str, Any], *, source: str = "<scenario>") -> Scenario:
    """Validate a scenario given as a mapping (parsed TOML or :meth:`Scenario.to_dict`).

    Raises:
        ScenarioError: Listing every problem found.
    """
    problems: list[Problem] = []
    try:
        parsed = _ScenarioIn.model_validate(dict(data))
    except ValidationError as exc:
        problems.extend(_pydantic_problems(exc, source, _ScenarioIn))
        parsed = None
    raw_format = data.get("format", {})
    fmt: Format | None = None
    if isinstance(raw_format, Mapping):
        fmt, format_problems = _parse_format(raw_format, source)
        problems.extend(format_problems)
    raw_players = data.get("players")
    if isinstance(raw_players, list):
        problems.extend(_player_problems(raw_players, source))
    if problems or parsed is None or fmt is None:
        raise ScenarioError(_dedupe(problems))
    model = DEFAULT_MODEL.with_overrides(
        red_advantage=_present(parsed.model.red_advantage),
        draw_nu=_present(parsed.model.draw_nu),
        elo_per_doubling=_present(parsed.model.elo_per_doubling),
    )
    players = tuple(
        Player(
            name=p.name.strip(),
            rating=p.rating,
            rating_rapid=p.rating if p.rating_rapid is None else p.rating_rapid,
            rating_blitz=_blitz(p),
            speed=Speed(p.speed.mean, p.speed.sd),
            seed=p.seed,
            withdrawn=p.withdrawn,
        )
        for p in parsed.players
    )
    played = tuple(
        PlayedGame(
            g.red.strip(),
            g.black.strip(),
            g.stage,
            Result(g.result),
            None if g.time_used is None else dict(g.time_used),
        )
        for g in parsed.played
    )
    event_problems = _event_problems(parsed, fmt, players, played, source)
    if event_problems:
        raise ScenarioError(event_problems)
    return Scenario(
        name=parsed.name,
        format=fmt,
        model=model,
        strategy=get_strategy(parsed.strategy.kind, belief_sd=parsed.strategy.belief_sd),
        players=players,
        strategy_kind=parsed.strategy.kind,
        belief_sd=parsed.strategy.belief_sd,
        bracket=BracketSettings(
            parsed.bracket.seeding, parsed.bracket.draw_seed, parsed.bracket.third_place
        ),
        schedule=ScheduleSettings(
            parsed.schedule.boards, parsed.schedule.gap_minutes, parsed.schedule.round_gap_minutes
        ),
        ranking=RankingSettings(
            tuple(parsed.ranking.tiebreaks), parsed.ranking.lots, parsed.ranking.rules
        ),
        played=played,
        source=source,
    )


def _event_problems(
    parsed: _ScenarioIn,
    fmt: Format,
    players: tuple[Player, ...],
    played: tuple[PlayedGame, ...],
    source: str,
) -> list[Problem]:
    """Cross-field checks: seeds, tie-break codes, and games that could have been played."""
    out: list[Problem] = []
    names = {p.name for p in players}
    if parsed.bracket.seeding == "given":
        seeds = [p.seed for p in players]
        if sorted(s for s in seeds if s is not None) != list(range(1, len(players) + 1)):
            out.append(
                Problem(
                    source,
                    "bracket.seeding",
                    f"'given' needs every player's seed, 1 to {len(players)} once each; got "
                    f"{[s for s in seeds]}",
                )
            )
    for i, code in enumerate(parsed.ranking.tiebreaks):
        try:
            get_tiebreak(code)
        except ValueError as exc:
            out.append(Problem(source, f"ranking.tiebreaks[{i}]", str(exc)))
    by_pair: dict[frozenset[str], list[tuple[int, PlayedGame]]] = {}
    for i, g in enumerate(played):
        bad = False
        for key, name in (("red", g.red), ("black", g.black)):
            if name not in names:
                out.append(Problem(source, f"played[{i}].{key}", f"unknown player {name!r}"))
                bad = True
        if g.red == g.black:
            out.append(Problem(source, f"played[{i}]", f"{g.red!r} cannot play themself"))
            bad = True
        if g.time_used is not None:
            for name in g.time_used:
                if name not in (g.red, g.black):
                    out.append(
                        Problem(
                            source,
                            f"played[{i}].time_used",
                            f"{name!r} did not play this game ({g.red} v {g.black})",
                        )
                    )
        if g.stage not in [s.name for s in fmt.playable]:
            out.append(
                Problem(
                    source,
                    f"played[{i}].stage",
                    f"expected one of {', '.join(fmt.stage_names)}, got {g.stage!r}",
                )
            )
            bad = True
        if not bad:
            by_pair.setdefault(frozenset((g.red, g.black)), []).append((i, g))
    for games in by_pair.values():
        first = games[0][1]
        try:
            replay(fmt, first.red, first.black, [g for _, g in games])
        except ReplayError as exc:
            out.append(Problem(source, f"played[{games[exc.index][0]}]", exc.reason))
    return out


def _blitz(p: _PlayerIn) -> float:
    if p.rating_blitz is not None:
        return p.rating_blitz
    return p.rating if p.rating_rapid is None else p.rating_rapid


def _present(table: BaseModel) -> dict[str, float]:
    return {k: v for k, v in table.model_dump().items() if v is not None}


def _player_problems(players: Iterable[Any], source: str) -> list[Problem]:
    out: list[Problem] = []
    seen: dict[str, int] = {}
    for i, p in enumerate(players):
        raw = p.get("name") if isinstance(p, Mapping) else None
        if not isinstance(raw, str):
            continue
        name = raw.strip()
        if not name:
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
    if increment is not None and not _is_number(increment, minimum=0.0):
        problem("increment_seconds", f"expected a number >= 0, got {increment!r}")
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
                    _unknown(key, ["preset", "increment_seconds", "stages"]),
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
        try:
            st = _CustomStageIn.model_validate(item)
        except ValidationError as exc:
            problems.extend(
                _pydantic_problems(exc, source, _CustomStageIn, prefix=f"format.stages[{i}]")
            )
            continue
        base = Stage(
            st.name, st.games, TimeClass(st.time_class), increment_seconds=default_increment
        )
        stages.append(_apply_stage(base, st))
    if len(stages) != len(stages_raw):
        return None
    return Format("custom", tuple(stages), default_increment)


def _preset_format(
    preset: Format, raw: Mapping[str, Any], increment: Any, source: str, problems: list[Problem]
) -> Format | None:
    names = [s.name for s in preset.stages]
    allowed = ["preset", "increment_seconds"]
    for s in preset.stages:
        if not s.is_decision:
            allowed += [f"{s.name}_games", f"{s.name}_minutes"]
    allowed += names
    for key in raw:
        if key not in allowed:
            problems.append(Problem(source, f"format.{key}", _unknown(key, allowed)))
    stages: list[Stage] = []
    ok = True
    for s in preset.stages:
        stage = s if increment is None else replace(s, increment_seconds=float(increment))
        table_raw = raw.get(s.name, {})
        try:
            table = _StageIn.model_validate(table_raw)
        except ValidationError as exc:
            problems.extend(_pydantic_problems(exc, source, _StageIn, prefix=f"format.{s.name}"))
            ok = False
            continue
        shortcut = {}
        for field_name in ("games", "minutes"):
            key = f"{s.name}_{field_name}"
            if key not in raw:
                continue
            try:
                value = _StageIn.model_validate({field_name: raw[key]})
            except ValidationError as exc:
                for p in _pydantic_problems(exc, source, _StageIn):
                    problems.append(Problem(source, f"format.{key}", p.message))
                ok = False
                continue
            given = getattr(table, field_name)
            if given is not None and given != getattr(value, field_name):
                problems.append(
                    Problem(
                        source,
                        f"format.{key}",
                        f"disagrees with format.{s.name}.{field_name} "
                        f"({raw[key]!r} vs {given!r}): give it once",
                    )
                )
                ok = False
            shortcut[field_name] = getattr(value, field_name)
        merged = table.model_copy(update={k: v for k, v in shortcut.items() if v is not None})
        stages.append(_apply_stage(stage, merged))
    if not ok:
        return None
    return Format(
        preset.preset,
        tuple(stages),
        preset.increment_seconds if increment is None else float(increment),
    )


def _apply_stage(stage: Stage, table: _StageIn) -> Stage:
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
    bidding_keys = ("accept", "object_red", "object_black", "priority")
    colours = changes.get("colours", stage.colours)
    if colours is ColourRule.BIDDING or any(getattr(table, k) is not None for k in bidding_keys):
        menu = stage.bidding or BiddingMenu()
        menu_changes: dict[str, Any] = {}
        for key in ("accept", "object_red", "object_black"):
            value = getattr(table, key)
            if value is not None:
                menu_changes[key] = (float(value[0]), float(value[1]))
        if table.priority is not None:
            menu_changes["priority"] = table.priority
        changes["bidding"] = replace(menu, **menu_changes)
    sealed_keys = ("red_minutes", "min_black_minutes")
    if colours is ColourRule.SEALED_BID or any(getattr(table, k) is not None for k in sealed_keys):
        sealed = stage.sealed_bid or SealedBid()
        sealed_changes = {
            k: float(getattr(table, k)) for k in sealed_keys if getattr(table, k) is not None
        }
        changes["sealed_bid"] = replace(sealed, **sealed_changes)
    return replace(stage, **changes)


# ---------------------------------------------------------------------------------------------
# Messages


def _is_number(value: Any, *, minimum: float) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= minimum
    )


def _unknown(key: str, allowed: Iterable[str]) -> str:
    close = difflib.get_close_matches(key, list(allowed), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown key{hint}; expected one of: {', '.join(allowed)}"


def _loc(loc: tuple[int | str, ...], prefix: str) -> str:
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("list[constrained-float]", "constrained-float", "float", "int"):
            continue  # union branch names pydantic adds; not keys the user wrote
        else:
            out += f".{part}" if out else str(part)
    return out


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, dict):
        return "a table"
    return repr(value)


def _pydantic_problems(
    exc: ValidationError, source: str, model: type[BaseModel], *, prefix: str = ""
) -> list[Problem]:
    out: list[Problem] = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        key = _loc(loc, prefix)
        kind = err["type"]
        ctx = err.get("ctx", {})
        got = _shown(err.get("input"))
        if kind == "extra_forbidden":
            parent = _fields_at(model, loc[:-1])
            message = _unknown(str(loc[-1]), parent) if parent else "unknown key"
        elif kind == "missing":
            message = "required key is missing"
        elif kind in ("float_type", "float_parsing"):
            message = f"expected a number, got {got}"
        elif kind in ("int_type", "int_parsing", "int_from_float"):
            message = f"expected a whole number, got {got}"
        elif kind == "bool_type":
            message = f"expected true or false, got {got}"
        elif kind == "string_type":
            message = f"expected text, got {got}"
        elif kind == "finite_number":
            message = f"expected a finite number, got {got}"
        elif kind == "greater_than":
            message = f"expected a number > {ctx.get('gt'):g}, got {got}"
        elif kind == "greater_than_equal":
            message = f"expected a number >= {ctx.get('ge'):g}, got {got}"
        elif kind in ("literal_error", "enum"):
            message = f"expected one of {ctx.get('expected')}, got {got}"
        elif kind in ("too_short", "too_long"):
            if key == "players" or key.endswith(".players"):
                message = f"expected at least two players, got {ctx.get('actual_length')}"
            else:
                message = f"expected a list of 2 numbers [red, black], got {got}"
        elif kind == "list_type":
            message = f"expected a list, got {got}"
        elif kind in ("model_type", "dict_type", "model_attributes_type"):
            message = f"expected a table, got {got}"
        elif kind == "string_too_short":
            message = "expected non-empty text"
        else:
            message = f"{err['msg']}, got {got}"
        out.append(Problem(source, key, message))
    return _drop_union_mismatches(out)


_MISMATCH = ("expected a list, got", "expected a number, got", "expected a whole number, got")


def _drop_union_mismatches(problems: list[Problem]) -> list[Problem]:
    """A value checked against ``number | [red, black]`` fails both branches; keep the one that
    says what is wrong with the value as given, not that it is of the other branch's type."""
    by_key: dict[str, list[Problem]] = {}
    for p in problems:
        by_key.setdefault(p.key, []).append(p)
    out: list[Problem] = []
    for p in problems:
        same = by_key[p.key]
        if len(same) > 1 and p.message.startswith(_MISMATCH):
            if any(not q.message.startswith(_MISMATCH) for q in same):
                continue
            if p is not same[0]:
                continue
            got = p.message.split(", got ", 1)[-1]
            out.append(
                Problem(p.source, p.key, f"expected a number or a list [red, black], got {got}")
            )
            continue
        out.append(p)
    return out


def _fields_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """Field names of the (nested) model at ``loc``, for 'did you mean' hints."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return []
        info = current.model_fields.get(str(part))
        if info is None:
            return []
        current = _model_in(info.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _model_in(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen: set[Problem] = set()
    out = []
    for p in problems:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out
