"""Fair rules for the sudden-death game: ``knockout fair``.

For the scenario's model and sudden-death stage (its increment, its draw winner and its time
class, held fixed while searching):

* the fixed Armageddon split: the Red minutes R in (0, cap] at which equal players have
  P(Red advances) = 1/2 against Black's B minutes, found with Brent's method to 0.01 minute (or
  none, with the reason: Red ahead even without time, the split above the cap, or clocks that
  do not change the odds); the cap is 10 x B unless ``max_minutes`` sets it;
* the seed-shaped menu built on it: ``accept`` [R, B], ``object_red`` [B, R], ``object_black``
  [R + 5, B - 5];
* the chooser's advantage, P(甲 advances | sudden death) - 1/2 for equal players under the
  scenario's strategy, for the scenario's own menu and for the fair one (exact). Under
  ``rational`` the fair menu gives 0 by construction (accepting Red or Black on [R, B] is worth
  exactly 1/2 to 甲, and 乙 has no better reply), so the table also shows both menus under
  ``believed`` and across rating gaps;
* a Monte Carlo check of the split: the game on [R, B] simulated by the project's Monte Carlo
  layer until the standard error of P(Red advances) is below 0.001.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Literal

from scipy.optimize import brentq

from knockout.errors import KnockoutError
from knockout.game import Colour, Reply
from knockout.rules.bidding import BRANCHES, Believed, BiddingGame, Naive, Strategy
from knockout.rules.formats import BiddingMenu, ColourRule, Format, Stage
from knockout.rules.model import TimeClass
from knockout.rules.players import Player
from knockout.rules.scenario import Scenario
from sims.match import simulate_match
from sims.runner import Executor

__all__ = [
    "GAPS",
    "MIN_BLACK_MINUTES",
    "SEARCH_FACTOR",
    "VERIFY_RUNS",
    "FairRules",
    "NoSplit",
    "fair_rules",
    "search_cap",
]

#: Black's clock must leave room for the seed-shaped menu's 5-minute shift.
MIN_BLACK_MINUTES = 5.0
#: Simulated games for the check: the standard error of a proportion near 1/2 is then
#: 0.5 / sqrt(262,144) = 0.00098 < 0.001.
VERIFY_RUNS = 2**18
#: Rating gaps of the table of 甲's chances.
GAPS = (0.0, 50.0, 100.0, 150.0, 200.0)
#: The Red clock is searched in (0, SEARCH_FACTOR x Black] unless the cap is given.
SEARCH_FACTOR = 10.0
#: P(Red advances) that moves by no more than this from almost no time to the cap does not
#: depend on the clock (time is worth nothing): no split exists at any cap.
FLAT = 1e-12

#: Why there is no fair split: Red is ahead even with almost no time; the split lies above the
#: search cap (more time still helps Red); or the clocks do not change the odds at all.
NoSplit = Literal["red_ahead_without_time", "above_cap", "time_worth_nothing"]


@dataclass(frozen=True)
class FairRules:
    """The fair rules found for a scenario's sudden-death stage.

    Attributes:
        black: Black's minutes of the split (the ``--black-minutes`` asked for).
        red: The Red minutes that make the split fair, or None.
        reason: Why there is none (None when there is one).
        no_split: The reason's code (None when there is a split).
        max_minutes: The cap of the search: Red's clock was searched in (0, max_minutes].
        time_class: The sudden-death game's time class, held fixed.
        seed_menu: The scenario's own menu.
        fair_menu: The seed-shaped menu on the split (None without a split).
        advantage: P(甲 advances | sudden death) - 1/2 for equal players under the scenario's
            strategy: ``{"seed_menu": x, "fair_menu": x or None}``.
        by_gap: ``{menu: {strategy: {gap: (P(甲 advances) as the stronger, as the weaker)}}}``.
        verified: ``(runs, P(Red advances), standard error)`` of the Monte Carlo check.
        seed: The check's seed.
    """

    black: float
    red: float | None
    reason: str | None
    time_class: TimeClass
    seed_menu: BiddingMenu
    fair_menu: BiddingMenu | None
    advantage: dict[str, float | None]
    by_gap: dict[str, dict[str, dict[float, tuple[float, float]]]]
    verified: tuple[int, float, float] | None
    seed: int
    no_split: NoSplit | None = None
    max_minutes: float = SEARCH_FACTOR * 10.0

    def to_json(self) -> dict[str, Any]:
        """The keys of ``knockout fair --json`` (``seed`` and ``version`` come from the
        envelope)."""
        out: dict[str, Any] = {
            "armageddon": None if self.red is None else {"red": self.red, "black": self.black},
        }
        if self.reason is not None:
            out["reason"] = self.reason
            out["no_split"] = self.no_split
        out["max_minutes"] = self.max_minutes
        out["time_class"] = self.time_class.value
        out["menu"] = None if self.fair_menu is None else _menu_json(self.fair_menu)
        out["chooser_advantage"] = dict(self.advantage)
        out["by_gap"] = {
            menu: {
                kind: {f"{g:g}": {"stronger": s, "weaker": w} for g, (s, w) in rows.items()}
                for kind, rows in strategies.items()
            }
            for menu, strategies in self.by_gap.items()
        }
        out["verified"] = (
            None
            if self.verified is None
            else dict(zip(("runs", "red_advances", "stderr"), self.verified, strict=True))
        )
        return out


def _menu_json(menu: BiddingMenu) -> dict[str, list[float]]:
    return {
        "accept": list(menu.accept),
        "object_red": list(menu.object_red),
        "object_black": list(menu.object_black),
    }


def _sudden_death(scenario: Scenario) -> tuple[Stage, TimeClass]:
    stage = scenario.format.bidding_stage
    if stage is None or stage.bidding is None or stage.draw_winner is None:
        raise KnockoutError(
            f"{scenario.source}: fair needs a format with a bidding sudden-death stage "
            f"(this one is {scenario.format.preset!r})"
        )
    return stage, stage.time_class_for(scenario.model.moves)


def _game(stage: Stage, tc: TimeClass, scenario: Scenario, menu: BiddingMenu) -> BiddingGame:
    assert stage.draw_winner is not None
    return BiddingGame(menu, stage.draw_winner, tc, scenario.model, stage.increment_seconds)


def _red_advances(
    stage: Stage, tc: TimeClass, scenario: Scenario, red: float, black: float
) -> float:
    """P(Red advances) between equal players on [red, black] (the stage's increment, draw
    winner and time class)."""
    game = _game(stage, tc, scenario, BiddingMenu(accept=(red, black)))
    return float(game.chooser_advances(Colour.RED, Reply.ACCEPT, 0.0))


def _split(
    stage: Stage, tc: TimeClass, scenario: Scenario, black: float, cap: float
) -> tuple[float | None, NoSplit | None, str | None]:
    """The fair Red minutes in (0, cap], or None with why there is none (a code and words)."""

    def f(red: float) -> float:
        return _red_advances(stage, tc, scenario, red, black) - 0.5

    lo = 1e-9
    f_lo, f_hi = f(lo), f(cap)
    if f_lo == 0.0:
        return lo, None, None
    if f_lo > 0:
        return (
            None,
            "red_ahead_without_time",
            (
                f"Red advances {100 * (f_lo + 0.5):.2f} % even with almost no time against "
                f"{black:g} minutes: no split is fair"
            ),
        )
    if f_hi < 0:
        if f_hi - f_lo <= FLAT:
            return (
                None,
                "time_worth_nothing",
                (
                    f"Red advances only {100 * (f_hi + 0.5):.2f} % even with {cap:g} minutes "
                    f"against {black:g}, as with any clock (more time does not change the odds "
                    "here): no split is fair"
                ),
            )
        return (
            None,
            "above_cap",
            (
                f"Red advances only {100 * (f_hi + 0.5):.2f} % with {cap:g} minutes against "
                f"{black:g}, and more time helps: the fair split lies above the {cap:g}-minute cap "
                "(raise it with --max-minutes)"
            ),
        )
    return float(brentq(f, lo, cap, xtol=1e-10)), None, None


def _chooser_value(game: BiddingGame, strategy: Strategy, x: float) -> float:
    """P(甲 advances) when 甲's advantage is ``x``, under ``strategy``'s decisions."""
    joint = strategy.probabilities(game, x).joint()
    values = game.branch_values(x)
    return float(sum(float(joint[b]) * float(values[k]) for k, b in enumerate(BRANCHES)))


def _by_gap(
    games: dict[str, BiddingGame], strategies: dict[str, Strategy]
) -> dict[str, dict[str, dict[float, tuple[float, float]]]]:
    return {
        menu: {
            kind: {g: (_chooser_value(game, s, g), _chooser_value(game, s, -g)) for g in GAPS}
            for kind, s in strategies.items()
        }
        for menu, game in games.items()
    }


def _verify(
    scenario: Scenario,
    stage: Stage,
    tc: TimeClass,
    red: float,
    black: float,
    seed: int,
    executor: Executor,
    workers: int,
) -> tuple[int, float, float]:
    """P(Red advances) on [red, black] estimated by the Monte Carlo layer: one game, where a
    named player (who always takes Red) chooses the colours."""
    decider = Stage(
        "armageddon",
        1,
        tc,
        (red, black),
        stage.increment_seconds,
        ColourRule.CHOICE,
        draw_winner=stage.draw_winner,
        chooser="Red",
    )
    check = replace(
        scenario,
        format=Format("custom", (decider,), stage.increment_seconds),
        strategy=Naive(),  # the naive chooser always takes Red
        players=(Player("Red", 2500.0), Player("Black", 2500.0)),
        played=(),
    )
    est, _ = simulate_match(check, VERIFY_RUNS, seed, executor=executor, workers=workers)
    assert est is not None
    return est.runs, est.value.win["Red"], est.stderr.win["Red"]


def fair_rules(
    scenario: Scenario,
    *,
    black_minutes: float = 10.0,
    seed: int = 0,
    executor: Executor = "local",
    workers: int = 1,
    detail: bool = True,
    max_minutes: float | None = None,
) -> FairRules:
    """The fair split, the menu on it, the chooser's advantage and the Monte Carlo check.

    ``detail=False`` leaves out the table across gaps and the Monte Carlo check (a sweep
    measuring the split at many points needs neither). Red's clock is searched up to
    ``max_minutes`` (default :func:`search_cap`: 10 times Black's).

    Raises:
        KnockoutError: Without a bidding stage, with ``black_minutes`` not a finite number above
            5, or ``max_minutes`` not a finite number above 0.
    """
    cap = search_cap(black_minutes, max_minutes)
    stage, tc = _sudden_death(scenario)
    assert stage.bidding is not None
    red, no_split, reason = _split(stage, tc, scenario, black_minutes, cap)
    seed_menu = stage.bidding
    fair_menu = (
        None
        if red is None
        else replace(
            seed_menu,
            accept=(red, black_minutes),
            object_red=(black_minutes, red),
            object_black=(red + 5.0, black_minutes - 5.0),
        )
    )
    games = {"seed_menu": _game(stage, tc, scenario, seed_menu)}
    if fair_menu is not None:
        games["fair_menu"] = _game(stage, tc, scenario, fair_menu)
    strategy = scenario.strategy
    advantage: dict[str, float | None] = {
        "seed_menu": _chooser_value(games["seed_menu"], strategy, 0.0) - 0.5,
        "fair_menu": None
        if fair_menu is None
        else _chooser_value(games["fair_menu"], strategy, 0.0) - 0.5,
    }
    believed = strategy if strategy.kind == "believed" else Believed(scenario.belief_sd)
    strategies = {strategy.kind: strategy, "believed": believed}
    verified = (
        None
        if red is None or not detail
        else _verify(scenario, stage, tc, red, black_minutes, seed, executor, workers)
    )
    return FairRules(
        black=black_minutes,
        red=red,
        reason=reason,
        time_class=tc,
        seed_menu=seed_menu,
        fair_menu=fair_menu,
        advantage=advantage,
        by_gap=_by_gap(games, strategies) if detail else {},
        verified=verified,
        seed=seed,
        no_split=no_split,
        max_minutes=cap,
    )


def search_cap(black_minutes: float, max_minutes: float | None = None) -> float:
    """The largest Red clock searched: ``max_minutes``, or 10 times Black's minutes.

    Raises:
        KnockoutError: ``black_minutes`` not a finite number above 5, or ``max_minutes`` not a
            finite number above 0.
    """
    if not (math.isfinite(black_minutes) and black_minutes > MIN_BLACK_MINUTES):
        raise KnockoutError(
            f"--black-minutes: expected a finite number more than {MIN_BLACK_MINUTES:g} (the "
            f"menu's Black objection takes 5 minutes off), got {black_minutes:g}"
        )
    if max_minutes is None:
        return SEARCH_FACTOR * black_minutes
    if not math.isfinite(max_minutes):
        raise KnockoutError(
            f"--max-minutes: expected a finite number of Red minutes, got {max_minutes:g}"
        )
    if not max_minutes > 0:
        raise KnockoutError(f"--max-minutes: expected a number > 0, got {max_minutes:g}")
    return float(max_minutes)
