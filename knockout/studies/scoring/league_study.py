"""The league study: seed 001's team league simulated over seasons, and its claims computed exactly.

A scoring-study file whose ``[[events]]`` all have ``format = "league"`` is a league study
(``knockout scoring-study``; see docs/scoring-study.md)::

    name = "Seed 001's team league"
    seed = 2007
    [clocks]                          # optional: the seed's 60+10 captains, 40+10 the others
    minutes = [60, 40, 40, 40]
    increment_seconds = 10
    [model]                           # optional, as in a scenario: per time class
    red_advantage = { rapid = 30 }
    [[events]]
    name = "league-8"
    format = "league"
    teams = 8                         # a double round robin: 56 matches
    simulations = 10000               # seasons
    rating_mean = 2450                # team strength Normal(mean, rating_sd) per season
    rating_sd = 50
    board_sd = 30                     # each player: team strength + Normal(0, board_sd); the
                                      # best of the squad is the captain
    squad = 5                         # players a team has (default 4: no reserve)
    captain_absence = 0.05            # P(the captain misses a match); needs squad >= 5
    policies = ["lot", "red", "black", "best"]   # the home side's captain colour; the first is
                                                 # the baseline the others are compared with
    [sensitivity]
    red_advantage = [0, 32, 64.3, 100, 150]      # exact rows: every time class at once
    rating_gap = [0, 50, 100, 150, 200, 300]     # exact rows: a weaker team aiming for draws

Simulated rows (``method = "simulation"``, mean over seasons and its standard error) per event
and policy:

==================================  =======================================================
metric                              meaning
==================================  =======================================================
``home_win`` ... ``home_loss``      share of matches the home side wins 3 : 0, wins 1 : 0.5,
                                    loses 0.5 : 1, loses 0 : 3
``home_edge``                       home side's match points minus the away side's, a match
``captain_red_edge``                match points of the side whose captain had Red minus the
                                    other side's, a match
``captain_red_share``               share of matches in which the home captain had Red
``equal_board_totals``              share of matches with equal board totals (no winner)
``strongest_first``                 P(the strongest team, by mean rating, ranks first)
``spearman_strength``               rank correlation of the final table with team strength
``reached_<step>``                  P(the ranking needs that step of the cascade anywhere in
                                    the table); ``reached_still_tied``: teams tied after it
``title_reached_<step>``            the same for first place
``winner_changed_vs_baseline``      P(first place differs from the baseline policy's)
``captain_absences``                matches a team's declared captain missed, a season
``captain_changes``                 captain changes a team made (at most three), a season
``captain_forfeits``                board-1 forfeits a team, a season (its captain absent after
                                    its three changes); the three rows only with absences
==================================  =======================================================

Captains and the lot follow seed 001's rules as
:mod:`knockout.studies.scoring.league_season` reads them: the next strongest player captains a
match the captain misses, at most three times a season, then the captain's board is forfeited;
boards 2-4 are paired by lot.

Exact rows (``method = "exact"``, no sampling), between equal teams unless said: event ``model``
(each captain colour's odds), ``sensitivity`` (the captain-Red side's expected match points
minus the captain-Black side's as the Red advantage of every time class varies), ``draw-aim``
(a team weaker by ``rating_gap`` on every board: its expected match points playing normally
against drawing every board, and the gap where drawing starts to pay) and ``rules`` (board
totals that are equal over all 162 outcomes).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import Field, ValidationError
from scipy.optimize import brentq
from scipy.stats import rankdata

from knockout.arrays import FloatArray
from knockout.errors import InputError, Problem
from knockout.game import Colour
from knockout.io.teams import SEED_CLOCKS, BoardClock, ClocksIn, clocks_from
from knockout.io.tomlfile import load_toml
from knockout.rules.model.strength import DEFAULT_MODEL, ModelParams, TimeClass
from knockout.rules.model.table import ModelIn, model_params
from knockout.scoring.league import LEAGUE_RULES, RANKING_CHAIN, LeagueRules
from knockout.standings.records import Outcome
from knockout.studies.scoring.league_season import (
    PAIRINGS,
    POLICIES,
    SeasonSample,
    line_ups,
    play_seasons,
)
from knockout.studies.scoring.team_match import (
    KINDS,
    OUTCOMES,
    MatchOdds,
    board_probabilities,
    match_odds,
    outcome_table,
)
from knockout.validation import Table, dedupe, problems_of

__all__ = [
    "LEAGUE_CSV_COLUMNS",
    "STEPS",
    "LeagueEvent",
    "LeagueRow",
    "LeagueStudy",
    "LeagueStudyResult",
    "all_draws_points",
    "break_even_gap",
    "captain_gap",
    "equal_team_odds",
    "is_league_study",
    "load_league_study",
    "parse_league_study",
    "run_league_study",
    "season_metrics",
    "weaker_team_points",
]

Progress = Callable[[str], None]
LEAGUE_CSV_COLUMNS = (
    "event",
    "format",
    "teams",
    "simulations",
    "policy",
    "metric",
    "value",
    "se",
    "method",
    "red_advantage",
    "rating_gap",
)
#: Names of the cascade's steps after match points, and of a tie that survives all of them.
STEPS = (*RANKING_CHAIN[1:], "still_tied")
#: Ratings of the equal teams of the exact rows (only differences matter).
EQUAL_RATING = 2500.0
_ALL_DRAWS = OUTCOMES.index((Outcome.DRAW,) * 4)
DEFAULT_GAPS = (0.0, 50.0, 100.0, 150.0, 200.0, 300.0)
MAX_GAP = 1000.0
#: The largest squad a league event may have (a captain, three boards and reserves).
MAX_SQUAD = 12


@dataclass(frozen=True)
class LeagueEvent:
    """A league to simulate.

    Attributes:
        name: Label in outputs.
        teams: Teams (a double round robin: ``teams * (teams - 1)`` matches).
        simulations: Simulated seasons.
        rating_mean: Mean team strength.
        rating_sd: Standard deviation of the team strengths (drawn per season).
        board_sd: Standard deviation of a player around the team strength.
        policies: How home sides choose the captain's colour; the first is the baseline.
        squad: Players a team has (the best is the declared captain; beyond four, reserves).
        captain_absence: P(the declared captain misses a match), match by match.
    """

    name: str
    teams: int
    simulations: int
    rating_mean: float = 2450.0
    rating_sd: float = 50.0
    board_sd: float = 30.0
    policies: tuple[str, ...] = POLICIES
    squad: int = 4
    captain_absence: float = 0.0

    @property
    def matches(self) -> int:
        """Matches in a season."""
        return self.teams * (self.teams - 1)


@dataclass(frozen=True)
class LeagueStudy:
    """A parsed league study file."""

    name: str
    seed: int
    events: tuple[LeagueEvent, ...]
    model: ModelParams = DEFAULT_MODEL
    clocks: tuple[BoardClock, ...] = SEED_CLOCKS
    red_advantages: tuple[float, ...] = ()
    rating_gaps: tuple[float, ...] = DEFAULT_GAPS
    source: str = ""
    rules: LeagueRules = field(default=LEAGUE_RULES, repr=False)

    @property
    def classes(self) -> tuple[TimeClass, ...]:
        """Each board's time class."""
        return tuple(c.time_class(self.model) for c in self.clocks)


@dataclass(frozen=True)
class LeagueRow:
    """One figure of the league study (a row of the tidy CSV)."""

    event: str
    format: str
    teams: int
    simulations: int
    policy: str
    metric: str
    value: float
    se: float
    method: Literal["simulation", "exact"]
    red_advantage: float
    rating_gap: float

    def to_csv(self) -> list[str]:
        """The CSV cells, numbers to 6 significant digits (``nan`` where undefined)."""
        cells = []
        for name in LEAGUE_CSV_COLUMNS:
            value = getattr(self, name)
            cells.append(f"{value:.6g}" if isinstance(value, float) else str(value))
        return cells


@dataclass(frozen=True)
class LeagueStudyResult:
    """Every figure of a league study run."""

    study: LeagueStudy
    rows: tuple[LeagueRow, ...] = ()

    def value(self, event: str, policy: str, metric: str) -> LeagueRow:
        """The row of ``metric`` for ``event`` and ``policy`` (simulated, or exact for the exact
        events ``model``, ``sensitivity``, ``draw-aim``, ``rules``).

        Raises:
            KeyError: If there is none.
        """
        for row in self.rows:
            if (row.event, row.policy, row.metric) == (event, policy, metric):
                return row
        raise KeyError((event, policy, metric))

    def exact(self, event: str, metric: str) -> list[LeagueRow]:
        """Every exact row of ``metric`` in ``event``."""
        return [r for r in self.rows if (r.event, r.metric, r.method) == (event, metric, "exact")]


# --- exact figures -------------------------------------------------------------------------


def _odds(
    home: float, away: float, captain: Colour, study: LeagueStudy, model: ModelParams
) -> MatchOdds:
    probs = board_probabilities([home] * 4, [away] * 4, captain, study.classes, model)
    return match_odds(probs, captain, study.rules)


def equal_team_odds(
    study: LeagueStudy, model: ModelParams | None = None
) -> dict[Colour, MatchOdds]:
    """Equal teams: the match's odds for each colour of the home captain."""
    m = study.model if model is None else model
    return {c: _odds(EQUAL_RATING, EQUAL_RATING, c, study, m) for c in (Colour.RED, Colour.BLACK)}


def captain_gap(study: LeagueStudy, model: ModelParams | None = None) -> float:
    """Equal teams: the captain-Red side's expected match points minus the captain-Black side's."""
    red = equal_team_odds(study, model)[Colour.RED]
    return red.home.match_points - red.away.match_points


def weaker_team_points(study: LeagueStudy, gap: float, captain: Colour) -> float:
    """Expected match points of a team ``gap`` Elo weaker on every board, its captain on
    ``captain``, playing normally."""
    return _odds(EQUAL_RATING - gap, EQUAL_RATING, captain, study, study.model).home.match_points


def all_draws_points(study: LeagueStudy, captain: Colour) -> float:
    """Match points of a side whose captain has ``captain`` when all four boards are drawn."""
    table = outcome_table(captain, study.rules)
    return float(table.match_points[_ALL_DRAWS, 0]) / table.scale


def break_even_gap(study: LeagueStudy, captain: Colour) -> float | None:
    """The rating gap (0 to :data:`MAX_GAP` Elo) beyond which drawing every board gives the weaker
    team more match points than playing normally, or None if there is none in that range."""
    target = all_draws_points(study, captain)

    def gain(gap: float) -> float:
        return target - weaker_team_points(study, gap, captain)

    if gain(0.0) >= 0:
        return 0.0
    if gain(MAX_GAP) < 0:
        return None
    return float(brentq(gain, 0.0, MAX_GAP, xtol=1e-6))


def _exact_row(
    event: str, policy: str, metric: str, value: float, adv: float, gap: float = 0.0
) -> LeagueRow:
    return LeagueRow(event, "", 2, 0, policy, metric, value, 0.0, "exact", adv, gap)


def exact_rows(study: LeagueStudy) -> list[LeagueRow]:
    """The exact rows: equal teams under the model, the Red-advantage grid, draw-aiming, rules."""
    adv = study.model.red_advantage[TimeClass.CLASSICAL]
    rows = []
    odds = equal_team_odds(study)
    for colour, o in odds.items():
        for side_name, side in (("home", o.home), ("away", o.away)):
            for key in (*KINDS, "match_points", "board_points"):
                rows.append(
                    _exact_row("model", str(colour), f"{side_name}_{key}", getattr(side, key), adv)
                )
    gap = captain_gap(study)
    rows.append(_exact_row("model", "", "captain_red_minus_black", gap, adv))
    for a in study.red_advantages:
        model = study.model.with_overrides(
            red_advantage=dict.fromkeys(("classical", "rapid", "blitz"), a)
        )
        rows.append(
            _exact_row("sensitivity", "", "captain_red_minus_black", captain_gap(study, model), a)
        )
    for colour in (Colour.RED, Colour.BLACK):
        draws = all_draws_points(study, colour)
        for g in study.rating_gaps:
            rows.append(
                _exact_row(
                    "draw-aim",
                    str(colour),
                    "normal_match_points",
                    weaker_team_points(study, g, colour),
                    adv,
                    g,
                )
            )
            rows.append(
                _exact_row("draw-aim", str(colour), "all_draws_match_points", draws, adv, g)
            )
        even = break_even_gap(study, colour)
        rows.append(
            _exact_row(
                "draw-aim", str(colour), "break_even_gap", math.nan if even is None else even, adv
            )
        )
    equal = sum(outcome_table(c, study.rules).equal_totals for c in (Colour.RED, Colour.BLACK))
    rows.append(_exact_row("rules", "", "equal_board_totals", float(equal), adv))
    rows.append(_exact_row("rules", "", "outcomes", float(2 * len(OUTCOMES)), adv))
    return rows


# --- simulated figures ---------------------------------------------------------------------


def _mean_se(values: FloatArray) -> tuple[float, float]:
    values = values[np.isfinite(values)]
    if values.size < 2:
        return math.nan, math.nan
    return float(values.mean()), float(values.std(ddof=1) / math.sqrt(values.size))


def _spearman(a: FloatArray, b: FloatArray) -> FloatArray:
    """Row-wise rank correlation (NaN for a row without spread)."""
    x = rankdata(a, axis=1) - (a.shape[1] + 1) / 2
    y = rankdata(b, axis=1) - (b.shape[1] + 1) / 2
    den = np.sqrt((x**2).sum(axis=1) * (y**2).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray((x * y).sum(axis=1) / den, dtype=np.float64)


def season_metrics(sample: SeasonSample, baseline: SeasonSample | None) -> dict[str, FloatArray]:
    """Per-season values (``(E,)`` each) of every simulated metric of one policy."""
    s = sample.scale
    home_mp = sample.match_points[..., 0] / s
    away_mp = sample.match_points[..., 1] / s
    red = sample.captain_red
    out: dict[str, FloatArray] = {
        f"home_{k}": (sample.kind[..., 0] == i).mean(axis=1) for i, k in enumerate(KINDS)
    }
    out["home_edge"] = (home_mp - away_mp).mean(axis=1)
    out["captain_red_edge"] = np.where(red, home_mp - away_mp, away_mp - home_mp).mean(axis=1)
    out["captain_red_share"] = red.mean(axis=1)
    out["equal_board_totals"] = (sample.kind[..., 0] == -1).mean(axis=1).astype(np.float64)
    strength = sample.strength
    top = strength.max(axis=1)
    alone = (strength == top[:, None]).sum(axis=1) == 1
    best = strength.argmax(axis=1)
    first = sample.ranks[np.arange(len(best)), best] == 1
    out["strongest_first"] = np.where(alone, first.astype(np.float64), np.nan)
    out["spearman_strength"] = _spearman(-sample.ranks.astype(np.float64), strength)
    for k, step in enumerate(STEPS, start=1):
        out[f"reached_{step}"] = sample.reached[:, k].astype(np.float64)
        out[f"title_reached_{step}"] = sample.title_reached[:, k].astype(np.float64)
    if baseline is not None:
        changed = ((sample.ranks == 1) != (baseline.ranks == 1)).any(axis=1)
        out["winner_changed_vs_baseline"] = changed.astype(np.float64)
    return {k: np.asarray(v, dtype=np.float64) for k, v in out.items()}


def draw_teams(rng: np.random.Generator, event: LeagueEvent, simulations: int) -> FloatArray:
    """``(E, N, S)`` ratings: team strength plus each player's own Normal, best player first
    (``S`` the squad; the first four drawn as before a squad had reserves, so a four-player
    event's numbers are unchanged)."""
    strength = rng.normal(event.rating_mean, event.rating_sd, size=(simulations, event.teams, 1))
    players = strength + rng.normal(0.0, event.board_sd, size=(simulations, event.teams, 4))
    if event.squad > 4:
        extra = rng.normal(0.0, event.board_sd, size=(simulations, event.teams, event.squad - 4))
        players = np.concatenate([players, strength + extra], axis=2)
    return np.asarray(-np.sort(-players, axis=2), dtype=np.float64)


def run_league_study(
    study: LeagueStudy, *, simulations: int | None = None, progress: Progress | None = None
) -> LeagueStudyResult:
    """Simulate every league of ``study`` under each of its policies; add the exact rows.

    Args:
        study: The parsed study file.
        simulations: Overrides every event's number of seasons.
        progress: Called with a short message as each event starts and ends.
    """
    children = np.random.SeedSequence(study.seed).spawn(len(study.events))
    adv = study.model.red_advantage[TimeClass.CLASSICAL]
    rows: list[LeagueRow] = []
    if simulations is not None:
        study = replace(
            study, events=tuple(replace(e, simulations=simulations) for e in study.events)
        )
    for spec, child in zip(study.events, children, strict=True):
        if progress is not None:
            progress(
                f"{spec.name}: {spec.simulations} seasons of {spec.teams} teams "
                f"({spec.matches} matches), policies {', '.join(spec.policies)}"
            )
        rng = np.random.default_rng(child)
        ratings = draw_teams(rng, spec, spec.simulations)
        u = rng.random((spec.simulations, spec.matches, 4))
        lot = rng.random((spec.simulations, spec.matches)) < 0.5
        absent = rng.random((spec.simulations, spec.matches, 2)) < spec.captain_absence
        pairing = rng.integers(0, len(PAIRINGS), size=(spec.simulations, spec.matches))
        teams = line_ups(ratings, absent, pairing)
        samples = {
            p: play_seasons(
                ratings,
                u,
                lot,
                p,
                classes=study.classes,
                model=study.model,
                rules=study.rules,
                line_ups=teams,
            )
            for p in spec.policies
        }
        base = samples[spec.policies[0]]
        forfeits = teams.absences - teams.changes
        captains = (
            {
                "captain_absences": teams.absences.mean(axis=1).astype(np.float64),
                "captain_changes": teams.changes.mean(axis=1).astype(np.float64),
                "captain_forfeits": forfeits.mean(axis=1).astype(np.float64),
            }
            if spec.captain_absence > 0
            else {}
        )
        for policy, sample in samples.items():
            metrics = season_metrics(sample, None if sample is base else base) | captains
            for metric, values in metrics.items():
                mean, se = _mean_se(values)
                rows.append(
                    LeagueRow(
                        spec.name,
                        "league",
                        spec.teams,
                        spec.simulations,
                        policy,
                        metric,
                        mean,
                        se,
                        "simulation",
                        adv,
                        math.nan,
                    )
                )
        if progress is not None:
            progress(f"{spec.name}: done")
    return LeagueStudyResult(study, tuple(rows + exact_rows(study)))


# --- study files ---------------------------------------------------------------------------

Number = Annotated[float, Field(strict=True)]
NonNegative = Annotated[float, Field(strict=True, ge=0)]
PolicyName = Literal["lot", "red", "black", "best"]
DEFAULT_POLICIES: tuple[PolicyName, ...] = ("lot", "red", "black", "best")


class _LeagueEventIn(Table):
    name: Annotated[str, Field(min_length=1)]
    format: Literal["league"]
    teams: Annotated[int, Field(ge=2)]
    simulations: Annotated[int, Field(ge=2)]
    rating_mean: Number = 2450.0
    rating_sd: NonNegative = 50.0
    board_sd: NonNegative = 30.0
    policies: Annotated[list[PolicyName], Field(min_length=1)] = Field(
        default_factory=lambda: list(DEFAULT_POLICIES)
    )
    squad: Annotated[int, Field(strict=True, ge=4, le=MAX_SQUAD)] = 4
    captain_absence: Annotated[float, Field(strict=True, ge=0, le=1)] = 0.0


class _LeagueSensitivityIn(Table):
    red_advantage: list[Number] = Field(default_factory=list)
    rating_gap: list[Annotated[float, Field(strict=True, ge=0, le=MAX_GAP)]] = Field(
        default_factory=lambda: list(DEFAULT_GAPS)
    )


class _LeagueStudyIn(Table):
    name: str = "league study"
    seed: Annotated[int, Field(ge=0)] = 0
    events: Annotated[list[_LeagueEventIn], Field(min_length=1)]
    model: ModelIn = ModelIn()
    clocks: ClocksIn = ClocksIn()
    sensitivity: _LeagueSensitivityIn = _LeagueSensitivityIn()


def is_league_study(data: Mapping[str, Any]) -> bool:
    """Whether a study file's tables are a league study (every event has ``format = "league"``)."""
    events = data.get("events")
    return (
        isinstance(events, list)
        and bool(events)
        and all(isinstance(e, dict) and e.get("format") == "league" for e in events)
    )


def _event_problems(raw_events: object, source: str) -> list[Problem]:
    problems = []
    seen: dict[str, int] = {}
    for i, e in enumerate(raw_events if isinstance(raw_events, list) else []):
        if not isinstance(e, dict):
            continue
        name = e.get("name")
        if isinstance(name, str) and name.strip():
            if name.strip() in seen:
                problems.append(
                    Problem(
                        source,
                        f"events[{i}].name",
                        f"duplicate name {name.strip()!r} (also events[{seen[name.strip()]}])",
                    )
                )
            seen.setdefault(name.strip(), i)
        absence, squad = e.get("captain_absence", 0), e.get("squad", 4)
        if (
            isinstance(absence, int | float)
            and absence > 0
            and isinstance(squad, int)
            and squad < 5
        ):
            problems.append(
                Problem(
                    source,
                    f"events[{i}].squad",
                    "expected at least 5 players when a captain may be absent (captain_absence "
                    f"{absence:g}): the next strongest captains and a reserve takes board 4; "
                    f"got {squad}",
                )
            )
        policies = e.get("policies")
        if isinstance(policies, list):
            twice = sorted({p for p in policies if isinstance(p, str) and policies.count(p) > 1})
            if twice:
                problems.append(
                    Problem(
                        source,
                        f"events[{i}].policies",
                        f"expected each policy once, got {', '.join(map(repr, twice))} twice",
                    )
                )
    return problems


def parse_league_study(data: Mapping[str, Any], *, source: str = "study") -> LeagueStudy:
    """A :class:`LeagueStudy` from a study file's tables.

    Raises:
        InputError: Listing every problem, each naming its key.
    """
    problems: list[Problem] = []
    parsed: _LeagueStudyIn | None = None
    try:
        parsed = _LeagueStudyIn.model_validate(dict(data))
    except ValidationError as exc:
        problems += problems_of(exc, source, _LeagueStudyIn)
    problems += _event_problems(data.get("events"), source)
    clocks: tuple[BoardClock, ...] = ()
    if parsed is not None:
        clocks, clock_problems = clocks_from(parsed.clocks, source)
        problems += clock_problems
    if problems or parsed is None:
        raise InputError(dedupe(problems))
    return LeagueStudy(
        name=parsed.name,
        seed=parsed.seed,
        events=tuple(
            LeagueEvent(
                e.name.strip(),
                e.teams,
                e.simulations,
                e.rating_mean,
                e.rating_sd,
                e.board_sd,
                tuple(e.policies),
                e.squad,
                e.captain_absence,
            )
            for e in parsed.events
        ),
        model=model_params(parsed.model),
        clocks=clocks,
        red_advantages=tuple(parsed.sensitivity.red_advantage),
        rating_gaps=tuple(parsed.sensitivity.rating_gap),
        source=source,
    )


def load_league_study(path: Path, *, encoding: str | None = None) -> LeagueStudy:
    """:func:`parse_league_study` of the TOML file at ``path``.

    Raises:
        InputError: If the file cannot be read or parsed, or any value is wrong.
    """
    return parse_league_study(load_toml(path, encoding=encoding), source=str(path))
