"""Compare match formats under one model and strategy: ``knockout compare``.

Each format is a row. Two players with equal (default) speeds, rated ``base`` and ``base - gap``,
meet under the scenario's model and strategy; everything is exact (the solver, vectorised over
the gaps):

* ``stronger_advances``: P(the higher-rated player advances), one value per gap;
* for equal players (gap 0): ``decider_edge``, what the last stage's decision is worth to the
  side it favours: P(甲 advances | decider reached) - 1/2 for a bidding stage, P(the chooser
  advances) - 1/2 for a colour choice, P(the cutter advances) - 1/2 for cut-and-choose,
  P(Red advances | decider reached) - 1/2 for a decider coloured by lot or by sealed bids;
  ``None`` for formats without a single decisive game (a
  repeating or multi-game last stage, e.g. ``blitz-pairs``);
* ``decider_reached``: P(the last stage is played), ``expected_games`` and ``expected_minutes``
  (each game's effective clocks times the players' mean speeds).

Two presets follow the scenario where the rules say so: ``red-handicap`` plays its one game on
the scenario's rapid base (Red's base cut by 40 %), and ``armageddon-lot`` takes the scenario's
slow and rapid stages and its sudden-death stage's ``accept`` clocks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from knockout.arrays import FloatArray
from knockout.errors import KnockoutError
from knockout.exact.odds import default_draws, vectorises
from knockout.exact.solver import MatchSolution, solve
from knockout.io.scenario import load_scenario
from knockout.rules.book.formats import CHOOSER_RULES, Format, Stage
from knockout.rules.book.presets import FORMATS, RED_HANDICAP_SHARE
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.choice import ChoiceGame
from knockout.rules.decisions.cut import CutChooseGame
from knockout.rules.decisions.sealed import SealedBidGame
from knockout.rules.model.players import Player
from knockout.rules.model.sd import PATHS, Design, ModelSd, Spread, design, spread
from knockout.rules.model.strength import ModelParams, game_probabilities
from knockout.rules.scenario.aggregate import Scenario

__all__ = [
    "DEFAULT_GAPS",
    "Comparison",
    "SchemeRow",
    "compare_formats",
    "constants_of",
    "decider_edge",
    "resolve_formats",
]

DEFAULT_GAPS: tuple[float, ...] = (0.0, 50.0, 100.0, 200.0)


@dataclass(frozen=True)
class SchemeRow:
    """One format's figures.

    Attributes:
        format: Its name (a preset, ``scenario``, or a scenario file).
        stronger_advances: P(the higher-rated player advances), by gap.
        decider_edge: The last stage's decision's worth between equal players, or None.
        decider_reached: P(the last stage is played), equal players.
        expected_games: Expected games, equal players.
        expected_minutes: Expected playing time, equal players.
        own: Whether it is the scenario's own format.
    """

    format: str
    stronger_advances: dict[float, float]
    decider_edge: float | None
    decider_reached: float
    expected_games: float
    expected_minutes: float
    own: bool = False

    def to_json(self) -> dict[str, Any]:
        """The row as ``knockout compare --json`` writes it (``name``: ``scenario`` for the
        scenario's own format, else the label; a study addresses a row by either)."""
        return {
            "name": "scenario" if self.own else self.format,
            "format": self.format,
            "stronger_advances": {f"{g:g}": p for g, p in self.stronger_advances.items()},
            "decider_edge": self.decider_edge,
            "decider_reached": self.decider_reached,
            "expected_games": self.expected_games,
            "expected_minutes": self.expected_minutes,
        }


@dataclass(frozen=True)
class Comparison:
    """Every format's row, for the given gaps and base rating (and, with uncertain constants,
    every figure's spread over them)."""

    gaps: tuple[float, ...]
    base: float
    rows: tuple[SchemeRow, ...]
    model_uncertainty: Spread | None = None
    without_sd: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"gaps", "base", "rows"}``, and ``model_uncertainty`` where there is one (figure
        paths ``rows.FORMAT.KEY``, e.g. ``rows.xq-bidding.decider_edge``), with
        ``without_sd``: per format whose games use constants that carry no sd, those
        constants (its intervals leave their uncertainty out)."""
        out: dict[str, Any] = {
            "gaps": list(self.gaps),
            "base": self.base,
            "rows": [r.to_json() for r in self.rows],
        }
        if self.model_uncertainty is not None:
            out["model_uncertainty"] = self.model_uncertainty.to_json() | {
                "without_sd": {k: list(v) for k, v in self.without_sd.items()}
            }
        return out


def constants_of(fmt: Format, moves: float) -> tuple[str, ...]:
    """The model's constants a format's games use (``red_advantage.blitz``, ...), in the order
    of :data:`~knockout.rules.model.sd.PATHS`: every stage's time class gives its Red advantage
    and draw parameter, and the worth of time where its clocks can differ (unequal clocks, or
    clocks the players decide)."""
    used: set[str] = set()
    for stage in fmt.playable:
        tc = stage.time_class_for(moves).value
        used |= {f"red_advantage.{tc}", f"draw_nu.{tc}"}
        if stage.is_decision or stage.minutes[0] != stage.minutes[1]:
            used.add(f"elo_per_doubling.{tc}")
    return tuple(p for p in PATHS if p in used)


def _rapid_stage(fmt: Format) -> Stage | None:
    return next((s for s in fmt.stages if s.name == "rapid"), None)


def _adapted(name: str, scenario: Format) -> Format:
    """The preset ``name``, following the scenario's format where the rules say so."""
    preset = FORMATS[name]
    if name == "red-handicap":
        rapid = _rapid_stage(scenario)
        if rapid is None:
            return preset
        base = rapid.minutes[1]
        return preset.with_stage(
            "decider",
            minutes=(base * RED_HANDICAP_SHARE, base),
            increment_seconds=rapid.increment_seconds,
        )
    if name == "armageddon-lot":
        bidding = scenario.bidding_stage
        if bidding is None or bidding.bidding is None:
            return preset
        stages = [s for s in scenario.stages if s.name in ("slow", "rapid")]
        decider = replace(
            preset.stage("decider"),
            minutes=bidding.bidding.accept,
            increment_seconds=bidding.increment_seconds,
            draw_winner=bidding.draw_winner,
        )
        return replace(preset, stages=(*stages, decider))
    return preset


def _own_label(fmt: Format) -> str:
    """The scenario's own format's label: its preset's name while it is that preset unchanged,
    else ``scenario`` (a changed preset is not the preset)."""
    preset = FORMATS.get(fmt.preset)
    return fmt.preset if preset is not None and fmt == preset else "scenario"


def resolve_formats(
    scenario: Scenario, names: Sequence[str] | None, *, encoding: str | None = None
) -> list[tuple[str, Format]]:
    """The formats to compare: ``scenario`` (the scenario's own), presets, or scenario files.

    Default: the scenario's own format, then every preset (each once). The scenario's own format
    keeps its preset's name only while it is that preset unchanged; a changed one is labelled
    ``scenario`` and the preset itself is a row of its own.

    Raises:
        KnockoutError: For a name that is neither a preset nor a readable scenario file.
    """
    own = _own_label(scenario.format)
    if names is None:
        names = ["scenario", *(n for n in FORMATS if n != own)]
    out: list[tuple[str, Format]] = []
    for name in names:
        if name == "scenario":
            out.append((own, scenario.format))
        elif name in FORMATS:
            out.append((name, _adapted(name, scenario.format)))
        elif Path(name).suffix.lower() in (".toml", ".json"):
            out.append((name, load_scenario(name, encoding=encoding).format))
        else:
            known = ", ".join(["scenario", *FORMATS])
            raise KnockoutError(
                f"--formats: unknown format {name!r}: expected one of {known} or a scenario file"
            )
    return out


def _single_decider(fmt: Format) -> Stage | None:
    """The last stage if it is one decisive game (one game, a draw winner, no repeat)."""
    last = fmt.playable[-1]
    if last.games == 1 and last.draw_winner is not None and not last.repeat:
        return last
    return None


def _decider_edges(
    pairing: Pairing, sol: MatchSolution, idx: npt.NDArray[np.intp]
) -> FloatArray | None:
    """The decision's worth between equal players at pairs ``idx`` (one per set of constants
    of a vectorised model, or one pair); see the module docstring."""
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.asarray(sol.chooser_advances[idx] / sol.bidding_reached[idx], dtype=np.float64)
    return _edges(pairing, share, idx)


def decider_edge(pairing: Pairing, bidding_share: float) -> float | None:
    """What the last stage's decision is worth between equal players (module docstring) under
    a plain model, or None without a single decisive last game; ``bidding_share``: P(甲
    advances | the bidding stage is reached), used when the last stage is a bidding one."""
    edges = _edges(pairing, np.array([bidding_share]), np.zeros(1, dtype=np.intp))
    return None if edges is None else float(edges[0])


def _edges(
    pairing: Pairing, bidding_share: FloatArray, idx: npt.NDArray[np.intp]
) -> FloatArray | None:
    fmt = pairing.fmt
    last = _single_decider(fmt)
    if last is None:
        return None
    k = len(fmt.playable) - 1
    model = pairing.model.take(idx)
    zero = np.zeros(idx.size)
    if last.is_bidding:
        return np.asarray(bidding_share - 0.5)
    if last.is_sealed_bid:
        game = SealedBidGame.from_stage(last, model, pairing.time_classes[k])
        if model.size is not None:  # a strategy that knows the truth: one bid, Black's clock
            black = pairing.strategy.expected_black_minutes(game, zero)
            return np.asarray(game.red_advances(zero, black) - 0.5)
        values, probs = pairing.strategy.black_clock(game, 0.0)
        return np.array([float(np.sum(probs * game.red_advances(0.0, values))) - 0.5])
    if last.is_cut:
        cut = CutChooseGame.from_stage(last, model, pairing.time_classes[k])
        return np.asarray(pairing.strategy.cut_advances(cut, zero) - 0.5)
    if last.is_choice:
        choice = ChoiceGame.from_stage(last, model, pairing.time_classes[k])
        p_red = pairing.strategy.choice_probability(choice, zero)
        value = p_red * choice.value(True, zero) + (1 - p_red) * choice.value(False, zero)
        return np.asarray(value - 0.5)
    red_min, black_min = (
        float(pairing.model.effective(m, last.increment_seconds)) for m in last.minutes
    )
    p = game_probabilities(
        zero,
        zero,
        pairing.time_classes[k],
        model=model,
        red_minutes=red_min,
        black_minutes=black_min,
    )
    draw_for_red = last.draw_winner is not None and last.draw_winner.value == "red"
    return np.asarray(p.red + (p.draw if draw_for_red else 0.0) - 0.5)


def _format_rows(
    label: str,
    fmt: Format,
    scenario: Scenario,
    gaps: Sequence[float],
    base: float,
    model: ModelParams,
) -> list[SchemeRow]:
    """One format's row under each set of constants of ``model`` (one row for a plain model):
    every gap of every set in one solver call."""
    named = [s.name for s in fmt.playable if s.is_choice and s.chooser not in CHOOSER_RULES]
    if named:
        raise KnockoutError(f"{label}: the colour choice of {named[0]} needs a named player")
    all_gaps = tuple(sorted({0.0, *(float(g) for g in gaps)}))
    n = model.size or 1
    stronger = [Player("stronger", base) for g in all_gaps for _ in range(n)]
    weaker = [Player("weaker", base - g) for g in all_gaps for _ in range(n)]
    pairs = model if model.size is None else model.take(np.tile(np.arange(n), len(all_gaps)))
    pairing = Pairing.of(fmt, stronger, weaker, model=pairs, strategy=scenario.strategy)
    sol = solve(pairing)
    at = {g: np.arange(n) + n * all_gaps.index(g) for g in all_gaps}
    equal = at[0.0]
    last = len(fmt.playable) - 1
    edges = _decider_edges(pairing, sol, equal)
    games = np.asarray(sum(k * p[equal] for k, p in sol.games.items()), dtype=np.float64)
    return [
        SchemeRow(
            format=label,
            stronger_advances={float(g): float(sol.win[at[float(g)][d], 0]) for g in gaps},
            decider_edge=None if edges is None else float(edges[d]),
            decider_reached=float(sol.decided[equal[d], last].sum()),
            expected_games=float(games[d]),
            expected_minutes=float(sol.expected_minutes[equal[d]]),
            own=fmt == scenario.format,
        )
        for d in range(n)
    ]


def _checked_gaps(gaps: Sequence[float], base: float) -> None:
    if not math.isfinite(base):
        raise KnockoutError(f"--base: expected a finite rating, got {base:g}")
    if not gaps:
        raise KnockoutError("--gaps: expected at least one gap, like 0,50,100")
    if not all(math.isfinite(g) for g in gaps):
        raise KnockoutError(f"--gaps: expected finite numbers, got {list(gaps)}")
    if any(g < 0 for g in gaps):
        raise KnockoutError(f"--gaps: expected gaps >= 0, got {list(gaps)}")


def compare_formats(
    scenario: Scenario,
    formats: Sequence[tuple[str, Format]],
    *,
    gaps: Sequence[float] = DEFAULT_GAPS,
    base: float = 2500.0,
    model_sd: bool = True,
    draws: int | None = None,
) -> Comparison:
    """Every format's row under the scenario's model and strategy (exact); with uncertain
    constants (``[model.sd]``) each figure's spread over them (``model_uncertainty``).

    Raises:
        KnockoutError: No gaps, gaps or a base that are not finite, negative gaps, or a
            format whose colours a two-player comparison cannot play (a ``choice`` stage with a
            named chooser).
    """
    _checked_gaps(gaps, base)
    rows = tuple(
        _format_rows(label, fmt, scenario, gaps, base, scenario.model)[0] for label, fmt in formats
    )
    out = Comparison(tuple(float(g) for g in gaps), base, rows)
    if model_sd and scenario.model_sd.uncertain:
        uncertain = set(scenario.model_sd.uncertain)
        without = {
            label: tuple(p for p in constants_of(fmt, scenario.model.moves) if p not in uncertain)
            for label, fmt in formats
        }
        out = replace(
            out,
            model_uncertainty=compare_spread(scenario, formats, out, draws=draws),
            without_sd={k: v for k, v in without.items() if v},
        )
    return out


def compare_at(
    scenario: Scenario,
    formats: Sequence[tuple[str, Format]],
    des: Design,
    *,
    gaps: Sequence[float],
    base: float,
) -> list[Comparison]:
    """The comparison (without its spread) at every point of ``des``."""
    if not vectorises(scenario):
        return [
            compare_formats(
                replace(scenario, model=des.model_at(scenario.model, i), model_sd=ModelSd()),
                formats,
                gaps=gaps,
                base=base,
                model_sd=False,
            )
            for i in range(des.size)
        ]
    model = des.model(scenario.model)
    per_format = [_format_rows(label, fmt, scenario, gaps, base, model) for label, fmt in formats]
    g = tuple(float(x) for x in gaps)
    return [Comparison(g, base, tuple(rows[d] for rows in per_format)) for d in range(des.size)]


#: Figures of a comparison that are not probabilities (P(> 0) is given for them).
_NOT_PROBABILITIES = ("decider_edge", "expected_games", "expected_minutes")


def compare_spread(
    scenario: Scenario,
    formats: Sequence[tuple[str, Format]],
    central: Comparison,
    *,
    draws: int | None = None,
) -> Spread:
    """Every figure of ``central`` over the uncertainty of the scenario's constants (the gaps
    and the base rating are inputs, not figures)."""
    des = design(scenario.model, scenario.model_sd, draws=draws or default_draws(scenario))
    answers = compare_at(scenario, formats, des, gaps=central.gaps, base=central.base)
    return spread(
        central.to_json(),
        [c.to_json() for c in answers],
        des,
        scenario.model_sd,
        scenario.model,
        probability=lambda path: not path.endswith(_NOT_PROBABILITIES),
        keep=lambda path: path.startswith("rows."),
    )
