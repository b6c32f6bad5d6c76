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

import numpy as np
from scipy.optimize import brentq

from knockout.arrays import FloatArray
from knockout.errors import KnockoutError
from knockout.exact.odds import default_draws, vectorises
from knockout.game import Colour, Reply
from knockout.rules.book.formats import BiddingMenu, ColourRule, Format, Stage
from knockout.rules.chain.settings import BracketSettings
from knockout.rules.decisions.bidding import BRANCHES, BiddingGame
from knockout.rules.decisions.strategies import Believed, Naive, Strategy
from knockout.rules.model.players import Player
from knockout.rules.model.sd import Design, FigureSpread, ModelSd, Spread, design, spread
from knockout.rules.model.strength import ModelParams, TimeClass, game_probabilities
from knockout.rules.scenario.aggregate import Scenario
from sims.match import simulate_match
from sims.runner import Executor

__all__ = [
    "DECOMPOSED",
    "GAPS",
    "MIN_BLACK_MINUTES",
    "SEARCH_FACTOR",
    "VERIFY_RUNS",
    "FairClockSpread",
    "FairRules",
    "NoSplit",
    "clock_spread",
    "fair_at",
    "fair_rules",
    "fair_spread",
    "search_cap",
    "seed_edges_and_splits",
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
        model_uncertainty: With uncertain constants: the spread of the split
            (``armageddon.red``, found again at each draw) and of every chance and advantage
            under the menus as printed (the seed's, and the fair one found at the central
            constants), with the variance decomposition of the split and the advantages.
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
    model_uncertainty: Spread | None = None

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
        if self.model_uncertainty is not None:
            out["model_uncertainty"] = self.model_uncertainty.to_json()
        return out


def _menu_json(menu: BiddingMenu) -> dict[str, list[float]]:
    return {
        "accept": list(menu.accept),
        "object_red": list(menu.object_red),
        "object_black": list(menu.object_black),
    }


def _sudden_death(scenario: Scenario) -> tuple[Stage, TimeClass]:
    """The decisive stage whose split is sought: the bidding stage, or a stage settled by sealed
    bids or cut-and-choose (their increment, draw rule and time class; the seed-shaped menu is
    then built on the seed's default menu)."""
    stage = scenario.format.decision_stage
    if stage is None or stage.draw_winner is None:
        raise KnockoutError(
            f"{scenario.source}: fair needs a format with a sudden-death stage the players "
            f"decide (bidding, sealed bids or cut-choose; this one is {scenario.format.preset!r})"
        )
    if stage.bidding is None:
        stage = replace(stage, bidding=BiddingMenu())
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


def _chooser_values(game: BiddingGame, strategy: Strategy, x: float) -> FloatArray:
    """:func:`_chooser_value` for a vectorised game: one value per set of constants."""
    joint = strategy.probabilities(game, x).joint()
    values = game.branch_values(x)
    return np.asarray(
        sum(joint[b] * values[..., k] for k, b in enumerate(BRANCHES)), dtype=np.float64
    )


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


def _by_gap_at(
    games: dict[str, BiddingGame], strategies: dict[str, Strategy], n: int
) -> list[dict[str, dict[str, dict[float, tuple[float, float]]]]]:
    """:func:`_by_gap` for vectorised games, one table per set of constants."""
    values = {
        (menu, kind, g): (_chooser_values(game, s, g), _chooser_values(game, s, -g))
        for menu, game in games.items()
        for kind, s in strategies.items()
        for g in GAPS
    }
    return [
        {
            menu: {
                kind: {
                    g: (float(values[menu, kind, g][0][d]), float(values[menu, kind, g][1][d]))
                    for g in GAPS
                }
                for kind in strategies
            }
            for menu in games
        }
        for d in range(n)
    ]


def _splits(
    stage: Stage, tc: TimeClass, model: ModelParams, black: float, cap: float
) -> FloatArray:
    """The fair Red minutes under each set of constants of a vectorised model (NaN where no
    split is fair): P(Red advances) rises with Red's clock, so bisection on ``(0, cap]``
    finds the split to far below 1e-10 minutes (60 halvings)."""
    n = model.size or 1
    red_draws = stage.draw_winner is Colour.RED
    inc = stage.increment_seconds

    def excess(red: FloatArray) -> FloatArray:
        p = game_probabilities(
            np.zeros(n),
            0.0,
            tc,
            model=model,
            red_minutes=model.effective(red, inc),
            black_minutes=float(model.effective(black, inc)),
        )
        return np.asarray(p.red + (p.draw if red_draws else 0.0) - 0.5, dtype=np.float64)

    lo, hi = np.full(n, 1e-9), np.full(n, cap)
    f_lo, f_hi = excess(lo), excess(hi)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        up = excess(mid) >= 0
        hi, lo = np.where(up, mid, hi), np.where(up, lo, mid)
    red = 0.5 * (lo + hi)
    red = np.where(f_lo == 0.0, 1e-9, red)
    return np.asarray(np.where((f_lo > 0) | (f_hi < 0), np.nan, red), dtype=np.float64)


def _censored_splits(
    stage: Stage, tc: TimeClass, model: ModelParams, black: float, cap: float
) -> FloatArray:
    """:func:`_splits` with where each missing split lies: +inf where it lies above the cap
    (more time still helps Red), -inf where Red is ahead even without time, NaN where time
    is worth nothing (no split at any cap)."""
    n = model.size or 1
    red = _splits(stage, tc, model, black, cap)
    red_draws = stage.draw_winner is Colour.RED
    inc = stage.increment_seconds

    def excess(minutes: float) -> FloatArray:
        p = game_probabilities(
            np.zeros(n),
            0.0,
            tc,
            model=model,
            red_minutes=float(model.effective(minutes, inc)),
            black_minutes=float(model.effective(black, inc)),
        )
        return np.asarray(p.red + (p.draw if red_draws else 0.0) - 0.5, dtype=np.float64)

    f_lo, f_hi = excess(1e-9), excess(cap)
    above = (f_hi < 0) & (f_hi - f_lo > FLAT)
    out = np.where(f_lo > 0, -np.inf, red)
    return np.asarray(np.where(above, np.inf, out), dtype=np.float64)


#: The code of a missing split by where it lies (:func:`_censored_splits`).
_CODE: dict[float, NoSplit] = {math.inf: "above_cap", -math.inf: "red_ahead_without_time"}


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
        bracket=BracketSettings(),  # a bracket's own draw (a third place) is not this match's
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
    model_sd: bool = True,
    verify: bool = True,
    draws: int | None = None,
    decompose: bool = True,
) -> FairRules:
    """The fair split, the menu on it, the chooser's advantage and the Monte Carlo check;
    with uncertain constants (``[model.sd]``) their spread (:func:`fair_spread`).

    ``detail=False`` leaves out the table across gaps and the Monte Carlo check (a sweep
    measuring the split at many points needs neither); ``verify=False`` only the check. Red's
    clock is searched up to ``max_minutes`` (default :func:`search_cap`: 10 times Black's).
    ``draws``: draws of the constants (default: :func:`knockout.exact.odds.default_draws`);
    ``decompose=False`` leaves out the variance decomposition.

    Raises:
        KnockoutError: Without a bidding stage, with ``black_minutes`` not a finite number above
            5, or ``max_minutes`` not a finite number above 0.
    """
    cap = search_cap(black_minutes, max_minutes)
    plain = _plain_fair(scenario, black_minutes, seed, executor, workers, detail, verify, cap)
    if model_sd and scenario.model_sd.uncertain:
        spread = fair_spread(scenario, plain, draws=draws, decompose=decompose)
        plain = replace(plain, model_uncertainty=spread)
    return plain


def _plain_fair(
    scenario: Scenario,
    black_minutes: float,
    seed: int,
    executor: Executor,
    workers: int,
    detail: bool,
    verify: bool,
    cap: float,
) -> FairRules:
    """:func:`fair_rules` at the central constants."""
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
        if red is None or not detail or not verify
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


def _strategies(scenario: Scenario) -> dict[str, Strategy]:
    strategy = scenario.strategy
    believed = strategy if strategy.kind == "believed" else Believed(scenario.belief_sd)
    return {strategy.kind: strategy, "believed": believed}


def fair_at(scenario: Scenario, central: FairRules, des: Design) -> list[FairRules]:
    """The fair rules (without spread or check) at every point of ``des``: the split found
    again, the advantages and the table across gaps under the menus of ``central`` (the
    table only for the draws proper, not for the blocks that hold a constant)."""
    stage, tc = _sudden_death(scenario)
    assert stage.bidding is not None and stage.draw_winner is not None
    detail = bool(central.by_gap)
    if not vectorises(scenario):
        return [
            _fixed_menus(
                replace(scenario, model=des.model_at(scenario.model, i), model_sd=ModelSd()),
                central,
                detail and i < des.draws,
            )
            for i in range(des.size)
        ]
    model = des.model(scenario.model)
    reds = _censored_splits(stage, tc, model, central.black, central.max_minutes)
    menus = {"seed_menu": central.seed_menu}
    if central.fair_menu is not None:
        menus["fair_menu"] = central.fair_menu
    games = {
        k: BiddingGame(m, stage.draw_winner, tc, model, stage.increment_seconds)
        for k, m in menus.items()
    }
    advantages = {k: _chooser_values(g, scenario.strategy, 0.0) - 0.5 for k, g in games.items()}
    tables: list[dict[str, dict[str, dict[float, tuple[float, float]]]]] = []
    if detail:
        head = des.model(scenario.model).take(np.arange(des.draws))
        base_games = {
            k: BiddingGame(m, stage.draw_winner, tc, head, stage.increment_seconds)
            for k, m in menus.items()
        }
        tables = _by_gap_at(base_games, _strategies(scenario), des.draws)
    out = []
    for d in range(des.size):
        red = float(reds[d]) if math.isfinite(reds[d]) else None
        out.append(
            replace(
                central,
                red=red,
                no_split=None
                if red is not None
                else _CODE.get(float(reds[d]), "time_worth_nothing"),
                advantage={
                    "seed_menu": float(advantages["seed_menu"][d]),
                    "fair_menu": None
                    if "fair_menu" not in advantages
                    else float(advantages["fair_menu"][d]),
                },
                by_gap=tables[d] if d < len(tables) else {},
                verified=None,
                model_uncertainty=None,
            )
        )
    return out


def _fixed_menus(scenario: Scenario, central: FairRules, detail: bool) -> FairRules:
    """One draw, solved on its own: the split found again, the central menus evaluated."""
    stage, tc = _sudden_death(scenario)
    red, no_split, _ = _split(stage, tc, scenario, central.black, central.max_minutes)
    games = {"seed_menu": _game(stage, tc, scenario, central.seed_menu)}
    if central.fair_menu is not None:
        games["fair_menu"] = _game(stage, tc, scenario, central.fair_menu)
    advantage: dict[str, float | None] = {
        k: _chooser_value(g, scenario.strategy, 0.0) - 0.5 for k, g in games.items()
    }
    advantage.setdefault("fair_menu", None)
    return replace(
        central,
        red=red,
        no_split=no_split,
        advantage=advantage,
        by_gap=_by_gap(games, _strategies(scenario)) if detail else {},
        verified=None,
        model_uncertainty=None,
    )


#: The figures of ``fair`` whose variance is decomposed (each constant held in turn).
DECOMPOSED = ("chooser_advantage.seed_menu", "chooser_advantage.fair_menu", "armageddon.red")


def fair_spread(
    scenario: Scenario, central: FairRules, *, draws: int | None = None, decompose: bool = True
) -> Spread:
    """Every figure of ``central`` over the uncertainty of the constants, with the variance
    decomposition of :data:`DECOMPOSED` (when the draws are vectorised; solved one by one, it
    would cost a fair computation per constant and draw). The menus are rules,
    not figures; the Monte Carlo check is of the central split only."""
    decompose = decompose and vectorises(scenario)
    des = design(
        scenario.model,
        scenario.model_sd,
        draws=draws or default_draws(scenario),
        hold_each=decompose,
    )
    answers = fair_at(scenario, central, des)
    out = spread(
        central.to_json(),
        [a.to_json() for a in answers],
        des,
        scenario.model_sd,
        scenario.model,
        probability=lambda path: path.startswith("by_gap."),
        keep=lambda path: path.startswith(("armageddon.red", "chooser_advantage.", "by_gap.")),
        decompose=DECOMPOSED if decompose else (),
    )
    if "armageddon.red" not in out.figures and "armageddon.red" not in out.undefined:
        return out
    clocks = np.array([_placed(a) for a in answers[: des.draws]], dtype=np.float64)
    found = clock_spread(clocks, des.replicates)
    if found is None:
        return out
    figure, errors = found
    return replace(
        out,
        figures=out.figures | {"armageddon.red": figure},
        stderr=out.stderr | {"armageddon.red": errors},
    )


def _placed(f: FairRules) -> float:
    """The fair Red clock of one draw where it lies: the minutes, +inf above the cap, -inf
    where Red is ahead even without time, NaN where time is worth nothing."""
    if f.red is not None:
        return f.red
    return {"above_cap": math.inf, "red_ahead_without_time": -math.inf}.get(
        f.no_split or "", math.nan
    )


@dataclass(frozen=True)
class FairClockSpread(FigureSpread):
    """The fair Red clock over the constants, over every draw: the 2.5 % and 97.5 % quantiles
    count the draws whose split lies above the search cap as above every clock (so ``q975``
    is +inf, open-ended, when more than 2.5 % of the draws have none up to the cap) and those
    where Red is ahead even without time as below every clock (``q025`` -inf); the mean and sd
    are undefined (NaN) when any draw has no fair clock, and are given over the draws with
    one in ``where_fair_clock_exists``. JSON: non-finite numbers are null.

    Attributes:
        share_without_fair_clock: Share of the draws with no fair clock up to the cap.
        where_fair_clock_exists: The spread over the draws with a fair clock (None: none has).
    """

    share_without_fair_clock: float = 0.0
    where_fair_clock_exists: FigureSpread | None = None

    def to_json(self) -> dict[str, Any]:
        """:meth:`FigureSpread.to_json` with nulls for open ends, and the two keys above."""
        out: dict[str, Any] = dict(super().to_json())
        out["share_without_fair_clock"] = self.share_without_fair_clock
        where = self.where_fair_clock_exists
        out["where_fair_clock_exists"] = None if where is None else where.to_json()
        return out


def _clock_stats(v: FloatArray) -> tuple[list[float], float, FigureSpread | None] | None:
    """Mean, sd, q025, q975 and P(> 0) of :func:`_placed` clocks ``v`` over every draw (see
    :class:`FairClockSpread`), the share without a fair clock, and the spread where one
    exists; None when no draw can be placed (time worth nothing everywhere)."""
    placed = v[~np.isnan(v)]
    if not placed.size:
        return None
    finite = v[np.isfinite(v)]
    share = float(1.0 - finite.size / v.size)
    top = float(finite.max()) if finite.size else 0.0
    bottom = float(finite.min()) if finite.size else 0.0
    # censored draws stand in as values just beyond the finite ones: a quantile that lands
    # among them (or between them and the finite ones) is an open end
    sortable = np.where(
        placed == np.inf, top + 1.0, np.where(placed == -np.inf, bottom - 1.0, placed)
    )
    q025, q975 = (float(q) for q in np.quantile(sortable, [0.025, 0.975]))
    if finite.size == 0 or q975 > top:
        q975 = math.inf
    if finite.size == 0 or q025 < bottom:
        q025 = -math.inf
    whole = share == 0.0
    mean = float(np.mean(finite)) if whole else math.nan
    sd = float(np.std(finite)) if whole else math.nan
    where = None
    if finite.size:
        lo, hi = (float(q) for q in np.quantile(finite, [0.025, 0.975]))
        where = FigureSpread(
            float(np.mean(finite)), float(np.std(finite)), lo, hi, float(np.mean(finite > 0))
        )
    return [mean, sd, q025, q975, float(np.mean(placed > 0))], share, where


def clock_spread(
    clocks: FloatArray, replicates: int
) -> tuple[FairClockSpread, FigureSpread] | None:
    """The fair clock's :class:`FairClockSpread` from its :func:`_placed` value at each draw
    (replicate after replicate), and the standard error of each statistic from the
    replicates (NaN where a replicate's statistic is not finite); None when no draw can be
    placed."""
    whole = _clock_stats(clocks)
    if whole is None:
        return None
    stats, share, where = whole
    parts = [_clock_stats(part) for part in np.split(clocks, replicates)]
    rows = np.array([p[0] if p is not None else [math.nan] * 5 for p in parts])
    with np.errstate(invalid="ignore"):
        se = np.std(rows, axis=0, ddof=1) / math.sqrt(replicates)
    se = np.where(np.isfinite(rows).all(axis=0), se, math.nan)
    mean, sd, q025, q975, above = stats
    e_mean, e_sd, e_q025, e_q975, e_above = (float(x) for x in se)
    return (
        FairClockSpread(
            mean,
            sd,
            q025,
            q975,
            above,
            share_without_fair_clock=share,
            where_fair_clock_exists=where,
        ),
        FigureSpread(e_mean, e_sd, e_q025, e_q975, e_above),
    )


def seed_edges_and_splits(
    scenario: Scenario, model: ModelParams, black_minutes: float, cap: float | None = None
) -> tuple[FloatArray, FloatArray]:
    """The seed menu's edge between equals and the fair Red clock (NaN: none) under each set
    of constants of a vectorised model: what a sweep needs of ``fair`` at many points and
    draws, in one pass (``chooser_advantage.seed_menu``, ``armageddon.red``)."""
    stage, tc = _sudden_death(scenario)
    assert stage.bidding is not None and stage.draw_winner is not None
    game = BiddingGame(stage.bidding, stage.draw_winner, tc, model, stage.increment_seconds)
    edges = _chooser_values(game, scenario.strategy, 0.0) - 0.5
    return edges, _splits(stage, tc, model, black_minutes, search_cap(black_minutes, cap))


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
