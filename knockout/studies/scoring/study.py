"""The scoring-reform study: do seed 000's claims hold under the shared game model?

A study file (TOML) names the scoring systems to compare, the events to simulate (round robins by
Berger tables; Swiss events paired by FIDE's Dutch system, :mod:`knockout.studies.scoring.dutch`,
or by the vectorised simplification, :mod:`knockout.studies.scoring.pairings`), the model and a
sensitivity grid. :func:`run_study` simulates every event under every system with common
random numbers and measures, per event and system, each figure with its standard error (over
simulated events):

======================================  ==========================================================
metric                                  meaning
======================================  ==========================================================
``extra_red_points``                    mean points of the players with more Reds than Blacks
                                        minus those with more Blacks (11 rounds: 6 v 5 Reds)
``extra_red_rank``                      mean rank of the more-Black players minus that of the
                                        more-Red ones (places the extra Red is worth)
``extra_red_share``                     share of the players with more Reds than Blacks
``red_game_value``                      Red's points minus Black's, per game played
``top_tie``                             P(two or more players share the top score)
``top_tie_after_progressive``           P(they also share the progressive score)
``top_tie_minus_baseline``              ``top_tie`` minus the baseline system's, event by event
``top_tie_excess``                      ``top_tie`` minus ``TIE_SHARE`` (1/2) of the baseline's,
                                        event by event (below 0: "greatly reduces" ties)
``top8_sharing``                        players of the top eight whose score another of the top
                                        eight also has (seed 000 counts six, then two)
``spearman_strength``                   rank correlation of the final order with true strength
``spearman_strength_minus_baseline``    the same minus the baseline system's, event by event
``strongest_first``                     P(the strongest player is ranked first, alone or tied)
``spearman_vs_baseline``                rank correlation with the baseline system's order
``winner_changed_vs_baseline``          P(the first place differs from the baseline's)
``points_per_game``                     both players' points per game (byes left out)
``rematches``                           rematches the Swiss pairing could not avoid, per event
======================================  ==========================================================

A Swiss event paired by the Dutch system (``pairing_system = "dutch"``) with an even number of
players is also paired by the simplification from the same ratings and uniforms (common random
numbers): its figures are rows of event ``<name> (simplified)``, and the event-by-event
differences, Dutch minus simplified, with their standard errors, rows of event
``<name> (dutch - simplified)``: how far the simplification moves each figure.

In a round robin the colours come from the Berger table, fixed before any game, so
``extra_red_points`` measures what one extra Red game is worth. In a Swiss event colours follow the
results (the colour rule and the score groups interact), so there it is an association, not an
effect; ``red_game_value`` is the per-game figure. The last two ``*_vs_baseline`` metrics need the
same games under both systems: round robins, and Swiss events whose pairings use one fixed
system's points (``pairing = "traditional"``, as the seed re-scores the 2010 games) rather than
each system's own (``pairing = "own"``).

Final order: points, then progressive score; ties share the best rank. Exact rows (no sampling)
give, for two equal players under the model, ``red_minus_black`` (expected points with Red minus
with Black) and ``points_per_game``: event ``model`` for the study's model, event
``sensitivity`` over the grid of Red advantages and draw parameters.
:func:`write_outputs` writes a tidy CSV, PNG plots and a Markdown summary that states which of the
seed's claims hold.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
import numpy.typing as npt
from pydantic import Field, ValidationError
from scipy.stats import rankdata

from knockout.arrays import FloatArray
from knockout.errors import InputError, Problem
from knockout.game import Colour, Result
from knockout.io.tomlfile import load_toml
from knockout.points import SCORING, ScoringSystem, get_scoring
from knockout.rules.model.sd import ModelSd, parse_correlation
from knockout.rules.model.strength import (
    DEFAULT_MODEL,
    ModelParams,
    PerClass,
    TimeClass,
    game_probabilities,
)
from knockout.scoring.files import custom_systems
from knockout.studies.scoring.dutch import DutchProgress, simulate_dutch
from knockout.studies.scoring.events import (
    EventSample,
    PointsTable,
    draw_ratings,
    scale_for,
    simulate_round_robin,
    simulate_swiss,
)
from knockout.studies.scoring.uncertainty import (
    constants_covariance,
    exact_sd,
    has_uncertainty,
    simulated_sd,
)
from knockout.validation import Table, dedupe, problems_of
from sims.runner import pilot_seconds

__all__ = [
    "CSV_COLUMNS",
    "DIFFERENTIAL_SUFFIX",
    "SIMPLIFIED_SUFFIX",
    "TIE_SHARE",
    "EventSpec",
    "Study",
    "StudyResult",
    "TidyRow",
    "event_numbers",
    "exact_probabilities",
    "exact_rows",
    "exact_value",
    "load_study",
    "parse_study",
    "run_study",
    "sample_metrics",
]

EventFormat = Literal["round-robin", "swiss"]
PairingSystem = Literal["dutch", "simplified"]
#: Label suffixes of the rows of a Dutch event's simplified twin and of the differential.
SIMPLIFIED_SUFFIX = " (simplified)"
DIFFERENTIAL_SUFFIX = " (dutch - simplified)"
Progress = Callable[[str], None]
#: "Greatly reduces ties" (seed 000, 五): P(tie for first) at most this share of the baseline's.
TIE_SHARE = 0.5
#: Seconds between two progress lines of a Dutch pairing run.
PROGRESS_SECONDS = 30.0
CSV_COLUMNS = (
    "event",
    "format",
    "players",
    "rounds",
    "simulations",
    "system",
    "metric",
    "value",
    "se",
    "method",
    "red_advantage",
    "draw_nu",
    "sd_constants",
)


@dataclass(frozen=True)
class EventSpec:
    """One kind of event to simulate.

    Attributes:
        name: Label in outputs.
        format: ``round-robin`` (Berger tables, ``players - 1`` rounds) or ``swiss``.
        players: Number of players (even).
        rounds: Rounds (a round robin has ``players - 1``).
        simulations: Simulated events.
        rating_mean: Mean of the players' ratings, drawn Normal per event.
        rating_sd: Their standard deviation (0: equal players).
        pairing: Swiss only: the scoring system whose points make the score groups, or ``own``
            (each system pairs by its own points).
        pairing_system: Swiss only: ``dutch`` (FIDE's Dutch system, by the caissify-pairings
            engine; any number of players, byes for an odd one) or ``simplified`` (the vectorised
            simplification, much faster; an even number of players).
    """

    name: str
    format: EventFormat
    players: int
    rounds: int
    simulations: int
    rating_mean: float = 2400.0
    rating_sd: float = 150.0
    pairing: str = "traditional"
    pairing_system: PairingSystem = "simplified"

    @property
    def dutch(self) -> bool:
        """Whether the event is a Swiss paired by the Dutch system."""
        return self.format == "swiss" and self.pairing_system == "dutch"

    @property
    def differential(self) -> bool:
        """Whether the event is also paired by the simplification (a Dutch Swiss event with an
        even number of players), for the differential."""
        return self.dutch and self.players % 2 == 0

    @property
    def shares_games(self) -> bool:
        """Whether every system ranks the same games."""
        return self.format == "round-robin" or self.pairing != "own"


@dataclass(frozen=True)
class Study:
    """A parsed study file.

    Attributes:
        name: Title.
        seed: Seed of the random numbers (each event gets its own child stream).
        systems: Scoring systems compared.
        baseline: Name of the system the others are compared with.
        events: Events to simulate.
        model: The game model (classical games).
        red_advantages: Sensitivity grid of the classical Red advantage (Elo).
        draw_nus: Sensitivity grid of the classical draw parameter.
        source: The file it came from.
        custom: The study's own scoring systems (``[scoring.NAME]``).
        model_sd: The uncertainty of the model's classical constants (``[model.sd]``,
            ``[model] correlation``): every figure's ``sd_constants``.
    """

    name: str
    seed: int
    systems: tuple[ScoringSystem, ...]
    baseline: str
    events: tuple[EventSpec, ...]
    model: ModelParams = DEFAULT_MODEL
    red_advantages: tuple[float, ...] = ()
    draw_nus: tuple[float, ...] = ()
    source: str = ""
    custom: tuple[ScoringSystem, ...] = ()
    model_sd: ModelSd = field(default_factory=ModelSd)

    def system(self, name: str) -> ScoringSystem:
        """The study's system (compared or custom) called ``name``.

        Raises:
            ValueError: For an unknown name.
        """
        for system in (*self.systems, *self.custom):
            if system.name == name:
                return system
        return get_scoring(name)


@dataclass(frozen=True)
class TidyRow:
    """One figure of the study (a row of the tidy CSV).

    ``se`` is the simulation's standard error (0 for an exact row); ``sd_constants`` the
    figure's standard deviation over the model constants' uncertainty (``[model.sd]``; 0 without
    one; NaN where it is not computed: a difference between two pairings' events, or a
    comparison with the baseline's own events under ``pairing = "own"``).
    """

    event: str
    format: str
    players: int
    rounds: int
    simulations: int
    system: str
    metric: str
    value: float
    se: float
    method: Literal["simulation", "exact"]
    red_advantage: float
    draw_nu: float
    sd_constants: float = 0.0

    def to_csv(self) -> list[str]:
        """The CSV cells, numbers to 6 significant digits (``nan`` where undefined)."""
        cells = []
        for name in CSV_COLUMNS:
            value = getattr(self, name)
            cells.append(f"{value:.6g}" if isinstance(value, float) else str(value))
        return cells


@dataclass(frozen=True)
class StudyResult:
    """Every figure of a study run.

    Attributes:
        study: The study, its events those that finished (all of them unless interrupted).
        rows: Every figure.
        interrupted: Ctrl-C stopped the run: only the events that finished are in ``study``
            and ``rows``.
        planned: Events the study file asked for (``len(study.events)`` unless interrupted).
    """

    study: Study
    rows: tuple[TidyRow, ...] = field(default=())
    interrupted: bool = False
    planned: int | None = None

    def value(self, event: str, system: str, metric: str) -> TidyRow:
        """The simulation row of ``metric`` for ``event`` and ``system``.

        Raises:
            KeyError: If there is none.
        """
        for row in self.rows:
            if (row.event, row.system, row.metric, row.method) == (
                event,
                system,
                metric,
                "simulation",
            ):
                return row
        raise KeyError((event, system, metric))


# --- study files ---------------------------------------------------------------------------


Number = Annotated[float, Field(strict=True)]
NonNegative = Annotated[float, Field(strict=True, ge=0)]
Positive = Annotated[float, Field(strict=True, gt=0)]
DEFAULT_SYSTEMS = ["traditional", "difference", "ratio", "ratio-computed"]


class _EventIn(Table):
    name: Annotated[str, Field(min_length=1)]
    format: Literal["round-robin", "swiss"]
    players: Annotated[int, Field(ge=2)]
    rounds: Annotated[int, Field(ge=1)] | None = None
    simulations: Annotated[int, Field(ge=2)]
    rating_mean: Number = 2400.0
    rating_sd: NonNegative = 150.0
    pairing: str = "traditional"
    pairing_system: PairingSystem = "simplified"


class _StudySdIn(Table):
    red_advantage: NonNegative = 0.0
    draw_nu: NonNegative = 0.0


class _StudyModelIn(Table):
    red_advantage: Number | None = None
    draw_nu: Positive | None = None
    sd: _StudySdIn = _StudySdIn()
    correlation: list[Any] = Field(default_factory=list, strict=False)


class _SensitivityIn(Table):
    red_advantage: list[Number] = Field(default_factory=list)
    draw_nu: list[Positive] = Field(default_factory=list)


class _StudyIn(Table):
    name: str = "scoring study"
    seed: Annotated[int, Field(ge=0)] = 0
    systems: Annotated[list[str], Field(min_length=1)] = Field(
        default_factory=lambda: list(DEFAULT_SYSTEMS)
    )
    baseline: str | None = None
    events: Annotated[list[Any], Field(min_length=1, strict=False)]
    model: _StudyModelIn = _StudyModelIn()
    sensitivity: _SensitivityIn = _SensitivityIn()
    scoring: dict[str, Any] = Field(default_factory=dict, strict=False)


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _event(
    raw: object, key: str, source: str, systems: Sequence[str]
) -> tuple[EventSpec | None, list[Problem]]:
    """One ``[[events]]`` table: its keys validated, then the checks across them (players even
    unless paired by the Dutch system, rounds for the format, the pairing), made on whatever
    values are usable."""
    problems: list[Problem] = []
    event: _EventIn | None = None
    table = raw if isinstance(raw, dict) else {}
    if table.get("format") == "league":  # a league study: knockout.studies.scoring.league_study
        message = "a league goes in a study file whose events are all leagues"
        return None, [Problem(source, f"{key}.format", message)]
    try:
        event = _EventIn.model_validate(raw)
    except ValidationError as exc:
        problems += problems_of(exc, source, _EventIn, prefix=key)
    players, rounds = _whole(table.get("players")), _whole(table.get("rounds"))
    fmt, pairing = table.get("format"), table.get("pairing", "traditional")
    system = table.get("pairing_system", "simplified")
    problems += _pairing_system_problems(fmt, system, players, key, source)
    if fmt == "swiss" and players is not None and (rounds is None or not 1 <= rounds < players):
        problems.append(
            Problem(
                source,
                f"{key}.rounds",
                f"expected a whole number from 1 to players - 1, got {table.get('rounds')!r}",
            )
        )
    if fmt == "round-robin" and players is not None and rounds not in (None, players - 1):
        problems.append(
            Problem(
                source,
                f"{key}.rounds",
                f"a round robin of {players} players has {players - 1} rounds, got {rounds}",
            )
        )
    if isinstance(pairing, str) and pairing != "own" and pairing not in systems:
        problems.append(
            Problem(
                source,
                f"{key}.pairing",
                f"expected 'own' or one of the systems ({', '.join(systems)}), got {pairing!r}",
            )
        )
    if event is None or problems:
        return None, problems
    return (
        EventSpec(
            name=event.name.strip(),
            format=event.format,
            players=event.players,
            rounds=event.rounds if event.format == "swiss" and event.rounds else event.players - 1,
            simulations=event.simulations,
            rating_mean=event.rating_mean,
            rating_sd=event.rating_sd,
            pairing=event.pairing,
            pairing_system=event.pairing_system,
        ),
        [],
    )


def _pairing_system_problems(
    fmt: object, system: object, players: int | None, key: str, source: str
) -> list[Problem]:
    """Odd numbers of players need byes, which only the Dutch pairing gives; round robins keep
    the Berger tables."""
    problems = []
    if fmt == "round-robin" and system == "dutch":
        problems.append(
            Problem(
                source,
                f"{key}.pairing_system",
                "a round robin is paired by the Berger tables: pairing_system is for Swiss "
                "events, got 'dutch'",
            )
        )
    if players is not None and players >= 2 and players % 2:
        if fmt != "swiss":
            problems.append(
                Problem(source, f"{key}.players", f"expected an even number, got {players}")
            )
        elif system != "dutch":
            problems.append(
                Problem(
                    source,
                    f"{key}.players",
                    f"expected an even number with pairing_system = {system!r} (odd numbers "
                    f"need byes: pairing_system = 'dutch'), got {players}",
                )
            )
    return problems


def _systems(
    names: Sequence[str], known: Mapping[str, ScoringSystem], source: str
) -> tuple[list[ScoringSystem], list[Problem]]:
    systems: list[ScoringSystem] = []
    problems: list[Problem] = []
    for i, name in enumerate(names):
        system = known.get(name)
        if system is None:
            problems.append(
                Problem(
                    source,
                    f"systems[{i}]",
                    f"unknown scoring system {name!r} (known: {', '.join(known)})",
                )
            )
        elif system.needs_details:
            problems.append(
                Problem(
                    source,
                    f"systems[{i}]",
                    f"{name!r} scores draws by moves and material, which the model does not "
                    "simulate",
                )
            )
        else:
            systems.append(system)
    return systems, problems


def parse_study(data: Mapping[str, Any], *, source: str = "study") -> Study:
    """A :class:`Study` from a study file's tables.

    Raises:
        InputError: Listing every problem, each naming its key.
    """
    problems: list[Problem] = []
    try:
        parsed = _StudyIn.model_validate(dict(data))
    except ValidationError as exc:
        problems += problems_of(exc, source, _StudyIn)
        parsed = None
    raw_scoring = data.get("scoring", {})
    custom, scoring_problems = custom_systems(
        raw_scoring if isinstance(raw_scoring, dict) else {}, source
    )
    known: dict[str, ScoringSystem] = {**SCORING, **custom}
    raw_names = data.get("systems", DEFAULT_SYSTEMS)
    names = [n for n in raw_names if isinstance(n, str)] if isinstance(raw_names, list) else []
    systems, system_problems = _systems(names, known, source)
    baseline = data.get("baseline") or (systems[0].name if systems else "traditional")
    if baseline not in [s.name for s in systems]:
        system_problems.append(
            Problem(source, "baseline", f"expected one of the systems, got {baseline!r}")
        )
    raw_events = data.get("events")
    events: list[EventSpec] = []
    event_problems: list[Problem] = []
    for i, raw in enumerate(raw_events if isinstance(raw_events, list) else []):
        spec, found = _event(raw, f"events[{i}]", source, list(known))
        event_problems += found
        if spec is not None:
            events.append(spec)
    sd, sd_problems = _model_sd(parsed, source)
    problems = dedupe(
        [*problems, *scoring_problems, *system_problems, *event_problems, *sd_problems]
    )
    if problems or parsed is None or sd is None:
        raise InputError(problems)
    classical = (
        {} if parsed.model.red_advantage is None else {"classical": parsed.model.red_advantage}
    )
    nu = {} if parsed.model.draw_nu is None else {"classical": parsed.model.draw_nu}
    return Study(
        name=parsed.name,
        seed=parsed.seed,
        systems=tuple(systems),
        baseline=str(baseline),
        events=tuple(events),
        model=DEFAULT_MODEL.with_overrides(red_advantage=classical, draw_nu=nu),
        red_advantages=tuple(parsed.sensitivity.red_advantage),
        draw_nus=tuple(parsed.sensitivity.draw_nu),
        source=source,
        custom=tuple(s for name, s in known.items() if name not in SCORING),
        model_sd=sd,
    )


_CLASSICAL_PAIR = frozenset({"red_advantage.classical", "draw_nu.classical"})


def _model_sd(parsed: _StudyIn | None, source: str) -> tuple[ModelSd | None, list[Problem]]:
    """``[model.sd]`` and ``[model] correlation`` (classical games: the one pair of constants
    ``red_advantage.classical``, ``draw_nu.classical``)."""
    if parsed is None:
        return None, []
    triples, bad = parse_correlation(parsed.model.correlation)
    problems = [Problem(source, key, message) for key, message in bad]
    problems += [
        Problem(
            source,
            f"model.correlation[{i}]",
            "a study has classical games only: expected the pair red_advantage.classical, "
            f"draw_nu.classical, got {a}, {b}",
        )
        for i, (a, b, _) in enumerate(triples)
        if frozenset((a, b)) != _CLASSICAL_PAIR
    ]
    sd = ModelSd(
        red_advantage=PerClass(parsed.model.sd.red_advantage, 0.0, 0.0),
        draw_nu=PerClass(parsed.model.sd.draw_nu, 0.0, 0.0),
        correlation=triples,
    )
    return (None if problems else sd), problems


def load_study(path: Path, *, encoding: str | None = None) -> Study:
    """:func:`parse_study` of the TOML file at ``path`` (any encoding: :mod:`knockout.io.text`).

    Raises:
        InputError: If the file cannot be read or parsed, or any value is wrong.
    """
    return parse_study(load_toml(path, encoding=encoding), source=str(path))


# --- figures -------------------------------------------------------------------------------


def _mean_se(values: FloatArray) -> tuple[float, float]:
    """Mean and its standard error over simulated events (NaNs, undefined cases, dropped)."""
    values = values[np.isfinite(values)]
    if values.size < 2:
        return math.nan, math.nan
    return float(values.mean()), float(values.std(ddof=1) / math.sqrt(values.size))


def _order_key(sample: EventSample) -> npt.NDArray[np.int64]:
    """One integer per player ordering by points, then progressive score."""
    width = int(sample.progressive.max()) + 1
    return np.asarray(sample.points * width + sample.progressive, dtype=np.int64)


def _row_corr(x: FloatArray, y: FloatArray) -> FloatArray:
    """Pearson correlation of each row of ``x`` with the same row of ``y``."""
    xc = x - x.mean(axis=1, keepdims=True)
    yc = y - y.mean(axis=1, keepdims=True)
    den = np.sqrt((xc**2).sum(axis=1) * (yc**2).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray((xc * yc).sum(axis=1) / den, dtype=np.float64)


def _spearman(a: npt.ArrayLike, b: npt.ArrayLike) -> FloatArray:
    return _row_corr(
        np.asarray(rankdata(a, axis=1), dtype=np.float64),
        np.asarray(rankdata(b, axis=1), dtype=np.float64),
    )


def _group_difference(
    values: FloatArray, more: npt.NDArray[np.bool_], fewer: npt.NDArray[np.bool_]
) -> FloatArray:
    with np.errstate(invalid="ignore", divide="ignore"):
        hi = (values * more).sum(axis=1) / more.sum(axis=1)
        lo = (values * fewer).sum(axis=1) / fewer.sum(axis=1)
    return np.asarray(hi - lo, dtype=np.float64)


def sample_metrics(sample: EventSample, baseline: EventSample | None) -> dict[str, FloatArray]:
    """Per-event values of every simulated metric (``(E,)`` each) for one system.

    Args:
        sample: The events under the system.
        baseline: The same events under the baseline system (common random numbers), or None
            for the baseline itself.
    """
    points = sample.points / sample.scale
    n = sample.points.shape[1]
    key = _order_key(sample)
    rank = rankdata(-key, axis=1, method="min").astype(np.float64)
    blacks = sample.games - sample.reds
    more, fewer = sample.reds > blacks, sample.reds < blacks
    top = points.max(axis=1, keepdims=True)
    top_key = key.max(axis=1, keepdims=True)
    strength = _spearman(key, sample.ratings)
    out = {
        "extra_red_points": _group_difference(points, more, fewer),
        "extra_red_rank": _group_difference(rank, fewer, more),
        "extra_red_share": more.mean(axis=1),
        "red_game_value": sample.red_edge,
        "top_tie": ((points == top).sum(axis=1) > 1).astype(np.float64),
        "top_tie_after_progressive": ((key == top_key).sum(axis=1) > 1).astype(np.float64),
        "spearman_strength": strength,
        "strongest_first": (rank[np.arange(len(rank)), sample.ratings.argmax(axis=1)] == 1).astype(
            np.float64
        ),
        "points_per_game": sample.game_points / sample.scale / (sample.games.sum(axis=1) / 2),
    }
    out["rematches"] = sample.rematches.astype(np.float64)
    if n >= 8:
        order = np.argsort(rank, axis=1, kind="stable")[:, :8]
        top8 = np.take_along_axis(points, order, 1)
        shared = (top8[:, :, None] == top8[:, None, :]).sum(axis=2) > 1
        out["top8_sharing"] = shared.sum(axis=1).astype(np.float64)
    if baseline is not None:
        base_key = _order_key(baseline)
        out["spearman_strength_minus_baseline"] = strength - _spearman(base_key, baseline.ratings)
        # Paired with the baseline's top_tie, this row's standard error gives the covariance, so
        # the report can test any combination of the two (common random numbers) event by event.
        base_points = baseline.points / baseline.scale
        base_tie = (base_points == base_points.max(axis=1, keepdims=True)).sum(axis=1) > 1
        out["top_tie_minus_baseline"] = out["top_tie"] - base_tie.astype(np.float64)
        # Seed 000's "greatly reduces ties", tested event by event: below 0 when the system's
        # ties for first are fewer than TIE_SHARE of the baseline's.
        out["top_tie_excess"] = out["top_tie"] - TIE_SHARE * base_tie.astype(np.float64)
    return out


def exact_probabilities(model: ModelParams) -> tuple[float, float, float]:
    """P(Red wins), P(draw), P(Black wins) of a classical game between equal players."""
    p = game_probabilities(0.0, 0.0, TimeClass.CLASSICAL, model=model)
    return float(p.red), float(p.draw), float(p.black)


def exact_value(system: ScoringSystem, model: ModelParams) -> tuple[float, float]:
    """Equal players: expected points with Red minus with Black, and points per game."""
    red_p, draw_p, black_p = exact_probabilities(model)
    probs = {Result.RED: red_p, Result.DRAW: draw_p, Result.BLACK: black_p}
    red = sum(probs[r] * float(system.points_for(Colour.RED, r)) for r in probs)
    black = sum(probs[r] * float(system.points_for(Colour.BLACK, r)) for r in probs)
    return red - black, red + black


def _exact_figure(system: ScoringSystem, index: int, model: ModelParams) -> float:
    return exact_value(system, model)[index]


def exact_rows(study: Study) -> list[TidyRow]:
    """The exact (model, no sampling) rows: the study's model, then the sensitivity grid; each
    with its ``sd_constants`` over ``[model.sd]`` (the grid's points carry the same covariance
    of the constants, around themselves)."""
    base_adv = study.model.red_advantage[TimeClass.CLASSICAL]
    base_nu = study.model.draw_nu[TimeClass.CLASSICAL]
    grid = [(base_adv, base_nu)]
    grid += [(a, nu) for a in study.red_advantages for nu in study.draw_nus]
    rows = []
    for i, (adv, nu) in enumerate(grid):
        model = study.model.with_overrides(
            red_advantage={"classical": adv}, draw_nu={"classical": nu}
        )
        cov = constants_covariance(model, study.model_sd)
        label = "model" if i == 0 else "sensitivity"
        for system in study.systems:
            diff, per_game = exact_value(system, model)
            for k, (metric, value) in enumerate(
                (("red_minus_black", diff), ("points_per_game", per_game))
            ):
                sd = exact_sd(partial(_exact_figure, system, k), model, cov)
                rows.append(
                    TidyRow(
                        label,
                        "",
                        2,
                        1,
                        0,
                        system.name,
                        metric,
                        value,
                        0.0,
                        "exact",
                        adv,
                        nu,
                        sd,
                    )
                )
    return rows


def _dutch_progress(name: str, workers: int, progress: Progress | None) -> DutchProgress:
    """Progress lines of a Dutch pairing run: the first event with an estimate of the whole,
    then at most one line every :data:`PROGRESS_SECONDS`, and the last."""
    last = [-math.inf]

    def update(done: int, total: int, seconds: float) -> None:
        if progress is None or done == 0:
            return
        if done in (1, total) or seconds - last[0] >= PROGRESS_SECONDS:
            last[0] = seconds
            left = seconds / done * (total - done)
            progress(
                f"{name}: Dutch pairing, {done}/{total} events in {_duration(seconds)}"
                + ("" if done == total else f", about {_duration(left)} left")
                + f" ({workers} process{'es' if workers > 1 else ''})"
            )

    return update


def _duration(seconds: float) -> str:
    """``42 s``, ``12 min``, ``3.5 h``."""
    if seconds < 100:
        return f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def event_numbers(spec: EventSpec, rng: np.random.Generator) -> tuple[FloatArray, FloatArray]:
    """The event's ratings ``(E, n)`` and game uniforms ``(E, R, n // 2)``, ``E`` its simulations.

    Each is drawn row by row from its own stream (the uniforms from one spawned off ``rng``
    first), so the first ``K`` events are the same whatever ``E``: a run of ``K`` events is the
    start of a longer one on the same seed (a short Dutch run previews the bundled one).
    """
    games = rng.spawn(1)[0]
    ratings = draw_ratings(
        rng, spec.simulations, spec.players, mean=spec.rating_mean, sd=spec.rating_sd
    )
    return ratings, games.random((spec.simulations, spec.rounds, spec.players // 2))


def _simulate(
    spec: EventSpec,
    study: Study,
    rng: np.random.Generator,
    workers: int = 1,
    progress: Progress | None = None,
) -> dict[str, list[EventSample]]:
    """The event's samples by row label: the event's own, and for a Dutch event with an even
    number of players also its simplified twin, on the same numbers."""
    scale = scale_for(study.systems)
    tables = [PointsTable.from_system(s, scale) for s in study.systems]
    ratings, u = event_numbers(spec, rng)
    scores = has_uncertainty(study.model_sd)
    if spec.format == "round-robin":
        # Berger numbers by lot: shuffle each event's ratings.
        shuffled = np.asarray(rng.permuted(ratings, axis=1), dtype=np.float64)
        return {
            spec.name: simulate_round_robin(
                shuffled, tables, u, model=study.model, with_scores=scores
            )
        }
    pairing = None
    if spec.pairing != "own":
        pairing = PointsTable.from_system(study.system(spec.pairing), scale)
    out = {}
    if spec.dutch:
        out[spec.name] = simulate_dutch(
            ratings,
            tables,
            u,
            pairing=pairing,
            model=study.model,
            workers=workers,
            progress=_dutch_progress(spec.name, workers, progress),
            with_scores=scores,
        )
    if not spec.dutch or spec.differential:
        label = spec.name + (SIMPLIFIED_SUFFIX if spec.dutch else "")
        out[label] = simulate_swiss(
            ratings, tables, u, pairing=pairing, model=study.model, with_scores=scores
        )
    return out


def _metrics(
    spec: EventSpec, study: Study, samples: Sequence[EventSample]
) -> dict[str, dict[str, FloatArray]]:
    """Per-event values of every metric, by system, for one set of samples."""
    names = [s.name for s in study.systems]
    base = samples[names.index(study.baseline)]
    base_key = _order_key(base)
    base_first = rankdata(-base_key, axis=1, method="min") == 1
    out = {}
    for system, sample in zip(study.systems, samples, strict=True):
        is_base = system.name == study.baseline
        metrics = sample_metrics(sample, None if is_base else base)
        if spec.shares_games:
            key = _order_key(sample)
            first = rankdata(-key, axis=1, method="min") == 1
            metrics["spearman_vs_baseline"] = _spearman(key, base_key)
            metrics["winner_changed_vs_baseline"] = (
                (first != base_first).any(axis=1).astype(np.float64)
            )
        out[system.name] = metrics
    return out


def _scores(samples: Sequence[EventSample] | None, study: Study, system: str) -> FloatArray | None:
    """The events' score vectors of ``system``'s games (None for a differential, whose two
    pairings' events are not one set of games)."""
    if samples is None:
        return None
    names = [s.name for s in study.systems]
    return samples[names.index(system)].scores


def _constants_sd(
    spec: EventSpec, metric: str, values: FloatArray, scores: FloatArray | None, cov: FloatArray
) -> float:
    """A simulated figure's ``sd_constants`` (:func:`simulated_sd`): 0 without ``[model.sd]``;
    NaN where the events' games are not one set (a differential; a comparison with the
    baseline's own events under ``pairing = "own"``)."""
    if not cov.any():
        return 0.0
    if scores is None or (not spec.shares_games and "baseline" in metric):
        return math.nan
    return simulated_sd(values, scores, cov)


def study_time_estimate(
    study: Study,
    *,
    simulations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
    progress: Callable[[int, int], None] | None = None,
) -> float:
    """About how many seconds :func:`run_study` takes (one process): each event timed on a few
    simulated events after its set-up (:func:`sims.runner.pilot_seconds`: a warm-up, then
    pilots doubling to a quarter of a second) and scaled to its number of simulations;
    ``progress`` is called with (events timed, events)."""
    total = 0.0
    for k, event in enumerate(study.events):
        if progress is not None:
            progress(k, len(study.events))
        runs = event.simulations if simulations is None else simulations
        alone = replace(study, events=(event,))

        def pilot(k: int, alone: Study = alone) -> StudyResult:
            result = run_study(alone, simulations=k)
            if result.interrupted:  # Ctrl-C in the pilot stops the estimate too
                raise KeyboardInterrupt
            return result

        total += pilot_seconds(pilot, runs, first=1, clock=clock)[0]
    if progress is not None:
        progress(len(study.events), len(study.events))
    return total


def run_study(
    study: Study,
    *,
    simulations: int | None = None,
    progress: Progress | None = None,
    workers: int = 1,
) -> StudyResult:
    """Simulate every event of ``study`` under every system and measure everything.

    Args:
        study: The parsed study file.
        simulations: Overrides every event's number of simulations.
        progress: Called with a short message as each event starts and ends, and as a Dutch
            pairing run goes (with an estimate of the time left).
        workers: Most processes to share a Dutch pairing run among (the other events are
            vectorised in this process).
    """
    children = np.random.SeedSequence(study.seed).spawn(len(study.events))
    finished: list[EventSpec] = []
    rows: list[TidyRow] = []
    try:
        for event, child in zip(study.events, children, strict=True):
            rows += _event_rows(study, event, child, simulations, progress, workers)
            finished.append(event)
    except KeyboardInterrupt:  # keep the events that finished, as a sweep keeps its points
        done = replace(study, events=tuple(finished))
        exact = exact_rows(done) if finished else []
        return StudyResult(done, tuple(rows + exact), True, len(study.events))
    return StudyResult(study, tuple(rows + exact_rows(study)))


def _event_rows(
    study: Study,
    event: EventSpec,
    child: np.random.SeedSequence,
    simulations: int | None,
    progress: Progress | None,
    workers: int,
) -> list[TidyRow]:
    """Every simulated figure of one event of the study, under every system."""
    adv = study.model.red_advantage[TimeClass.CLASSICAL]
    nu = study.model.draw_nu[TimeClass.CLASSICAL]
    rows: list[TidyRow] = []
    spec = event if simulations is None else replace(event, simulations=simulations)
    if progress is not None:
        pairing = f", {spec.pairing_system} pairing" if spec.format == "swiss" else ""
        progress(
            f"{spec.name}: {spec.simulations} {spec.format} events of {spec.players} "
            f"players, {spec.rounds} rounds, {len(study.systems)} systems{pairing}"
        )
    samples = _simulate(spec, study, np.random.default_rng(child), workers, progress)
    measured = {label: _metrics(spec, study, s) for label, s in samples.items()}
    if spec.differential:
        dutch, simple = measured[spec.name], measured[spec.name + SIMPLIFIED_SUFFIX]
        measured[spec.name + DIFFERENTIAL_SUFFIX] = {
            system: {m: v - simple[system][m] for m, v in values.items()}
            for system, values in dutch.items()
        }
    cov = constants_covariance(study.model, study.model_sd)
    for label, by_system in measured.items():
        for system_name, metrics in by_system.items():
            scores = _scores(samples.get(label), study, system_name)
            for metric, values in metrics.items():
                mean, se = _mean_se(values)
                rows.append(
                    TidyRow(
                        label,
                        spec.format,
                        spec.players,
                        spec.rounds,
                        spec.simulations,
                        system_name,
                        metric,
                        mean,
                        se,
                        "simulation",
                        adv,
                        nu,
                        _constants_sd(spec, metric, values, scores, cov),
                    )
                )
    if progress is not None:
        progress(f"{spec.name}: done")
    return rows
