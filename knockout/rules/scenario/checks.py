"""The domain checks of a scenario: values each key accepts alone, and what the keys say together.

Each check returns the :class:`~knockout.errors.Problem` list of one part of the scenario (one
line per problem, naming the key);
:func:`~knockout.rules.scenario.aggregate.scenario_problems` gathers them for a whole scenario.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from knockout.errors import Problem
from knockout.points import canonical_tiebreak
from knockout.rules.book.formats import (
    CHOOSER_RULES,
    Format,
)
from knockout.rules.chain.settings import (
    BracketSettings,
    IncentiveSettings,
    RankingSettings,
    ScheduleSettings,
)
from knockout.rules.decisions.strategies import Strategy
from knockout.rules.model.players import MAX_BELIEF_SD, MAX_RATING, MAX_RATING_SD, Player
from knockout.rules.model.strength import BOUNDS, MAX_MOVES, ModelParams, TimeClass

if TYPE_CHECKING:
    pass


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


def domain_player_problems(players: Sequence[Player], source: str) -> list[Problem]:
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
            ("rating", p.rating, 0, MAX_RATING, False),
            ("rating_sd", p.rating_sd, 0, MAX_RATING_SD, False),
            ("speed.mean", p.speed.mean, 0, 1, True),
            ("speed.sd", p.speed.sd, 0, 0.5, False),
        ]
        checks += [
            (name, value, 0, MAX_RATING, False)
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


def model_problems(model: ModelParams, source: str) -> list[Problem]:
    out: list[Problem] = []
    for table, (low, high) in BOUNDS.items():
        per_class = getattr(model, table)
        for tc in TimeClass:
            raw = getattr(per_class, tc.value)
            plain = isinstance(raw, int | float) and not isinstance(raw, bool)  # the usual case
            if plain and math.isfinite(raw) and low <= raw <= high:
                continue
            value = np.asarray(raw, dtype=np.float64)
            if not (np.all(np.isfinite(value)) and np.all((value >= low) & (value <= high))):
                shown = value.tolist()
                out.append(
                    Problem(
                        source,
                        f"model.{table}.{tc.value}",
                        f"expected a number >= {low:g} and <= {high:g}, got {shown!r}",
                    )
                )
    moves = np.asarray(model.moves, dtype=np.float64)
    if not (np.all(np.isfinite(moves)) and np.all((moves >= 1) & (moves <= MAX_MOVES))):
        out.append(
            Problem(
                source,
                "model.moves",
                f"expected a number >= 1 and <= {MAX_MOVES:g}, got {moves.tolist()!r}",
            )
        )
    return out


def strategy_problems(strategy: Strategy, source: str) -> list[Problem]:
    if not isinstance(strategy, Strategy):
        return [Problem(source, "strategy", f"expected a Strategy, got {strategy!r}")]
    why = _number_problem("belief_sd", strategy.belief_sd, low=0, high=MAX_BELIEF_SD)
    return [] if why is None else [Problem(source, "strategy.belief_sd", why)]


def schedule_problems(schedule: ScheduleSettings, source: str) -> list[Problem]:
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


def incentive_problems(incentives: IncentiveSettings, source: str) -> list[Problem]:
    why = _number_problem("pace_min", incentives.pace_min, low=0, high=1, low_open=True)
    return [] if why is None else [Problem(source, "incentives.pace_min", why)]


def chooser_problems(fmt: Format, players: tuple[Player, ...], source: str) -> list[Problem]:
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


def bracket_problems(
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


def tiebreak_problems(ranking: RankingSettings, source: str) -> list[Problem]:
    out: list[Problem] = []
    for i, code in enumerate(ranking.tiebreaks):
        try:
            canonical_tiebreak(code)
        except ValueError as exc:
            out.append(Problem(source, f"ranking.tiebreaks[{i}]", str(exc)))
    return out


def player_problems(players: Iterable[Any], source: str) -> list[Problem]:
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
