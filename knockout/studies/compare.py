"""Compare match formats under one model and strategy: ``knockout compare``.

Each format is a row. Two players with equal (default) speeds, rated ``base`` and ``base - gap``,
meet under the scenario's model and strategy; everything is exact (the solver, vectorised over
the gaps):

* ``stronger_advances``: P(the higher-rated player advances), one value per gap;
* for equal players (gap 0): ``decider_edge``, what the last stage's decision is worth to the
  side it favours: P(甲 advances | decider reached) - 1/2 for a bidding stage, P(the chooser
  advances) - 1/2 for a colour choice, P(Red advances | decider reached) - 1/2 for a decider
  coloured by lot or by sealed bids; ``None`` for formats without a single decisive game (a
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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from knockout.errors import KnockoutError
from knockout.exact.solver import MatchSolution, solve
from knockout.io.scenario import load_scenario
from knockout.rules.bidding import ChoiceGame
from knockout.rules.formats import FORMATS, RED_HANDICAP_SHARE, Format, Stage
from knockout.rules.match import Pairing
from knockout.rules.model import game_probabilities
from knockout.rules.players import Player
from knockout.rules.scenario import Scenario

__all__ = ["DEFAULT_GAPS", "Comparison", "SchemeRow", "compare_formats", "resolve_formats"]

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
    """Every format's row, for the given gaps and base rating."""

    gaps: tuple[float, ...]
    base: float
    rows: tuple[SchemeRow, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"gaps", "base", "rows"}``."""
        return {
            "gaps": list(self.gaps),
            "base": self.base,
            "rows": [r.to_json() for r in self.rows],
        }


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


def _decider_edge(pairing: Pairing, sol: MatchSolution, i: int) -> float | None:
    """The decision's worth between equal players (pair ``i``); see the module docstring."""
    fmt = pairing.fmt
    last = _single_decider(fmt)
    if last is None:
        return None
    k = len(fmt.playable) - 1
    if last.is_bidding:
        return float(sol.chooser_advances[i] / sol.bidding_reached[i]) - 0.5
    if last.is_sealed_bid:
        game = pairing.sealed_bid_game
        assert game is not None
        values, probs = pairing.strategy.lower_bid(game, 0.0)
        return float(np.sum(probs * game.red_advances(0.0, values))) - 0.5
    if last.is_choice:
        choice = ChoiceGame.from_stage(last, pairing.model, pairing.time_classes[k])
        p_red = float(pairing.strategy.choice_probability(choice, 0.0))
        value = p_red * choice.value(True, 0.0) + (1 - p_red) * choice.value(False, 0.0)
        return float(value) - 0.5
    red_min, black_min = (
        float(pairing.model.effective(m, last.increment_seconds)) for m in last.minutes
    )
    p = game_probabilities(
        0.0,
        0.0,
        pairing.time_classes[k],
        model=pairing.model,
        red_minutes=red_min,
        black_minutes=black_min,
    )
    draw_for_red = last.draw_winner is not None and last.draw_winner.value == "red"
    return float(p.red) + (float(p.draw) if draw_for_red else 0.0) - 0.5


def compare_formats(
    scenario: Scenario,
    formats: Sequence[tuple[str, Format]],
    *,
    gaps: Sequence[float] = DEFAULT_GAPS,
    base: float = 2500.0,
) -> Comparison:
    """Every format's row under the scenario's model and strategy (exact).

    Raises:
        KnockoutError: No gaps, gaps or a base that are not finite, negative gaps, or a
            format whose colours a two-player comparison cannot play (a ``choice`` stage with a
            named chooser).
    """
    if not math.isfinite(base):
        raise KnockoutError(f"--base: expected a finite rating, got {base:g}")
    if not gaps:
        raise KnockoutError("--gaps: expected at least one gap, like 0,50,100")
    if not all(math.isfinite(g) for g in gaps):
        raise KnockoutError(f"--gaps: expected finite numbers, got {list(gaps)}")
    if any(g < 0 for g in gaps):
        raise KnockoutError(f"--gaps: expected gaps >= 0, got {list(gaps)}")
    all_gaps = tuple(sorted({0.0, *(float(g) for g in gaps)}))
    stronger = [Player("stronger", base) for _ in all_gaps]
    weaker = [Player("weaker", base - g) for g in all_gaps]
    rows = []
    for label, fmt in formats:
        named = [s.name for s in fmt.playable if s.is_choice and s.chooser != "lot"]
        if named:
            raise KnockoutError(f"{label}: the colour choice of {named[0]} needs a named player")
        pairing = Pairing.of(
            fmt, stronger, weaker, model=scenario.model, strategy=scenario.strategy
        )
        sol = solve(pairing)
        i = all_gaps.index(0.0)
        last = len(fmt.playable) - 1
        rows.append(
            SchemeRow(
                format=label,
                stronger_advances={
                    float(g): float(sol.win[all_gaps.index(float(g)), 0]) for g in gaps
                },
                decider_edge=_decider_edge(pairing, sol, i),
                decider_reached=float(sol.decided[i, last].sum()),
                expected_games=float(sum(k * p[i] for k, p in sol.games.items())),
                expected_minutes=float(sol.expected_minutes[i]),
                own=fmt == scenario.format,
            )
        )
    return Comparison(tuple(float(g) for g in gaps), base, tuple(rows))
