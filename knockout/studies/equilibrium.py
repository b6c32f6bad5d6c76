"""``knockout equilibrium``: equilibrium play of a match's decisive decision, and how far each
way of playing it can be exploited.

For a two-player scenario whose last stage is decided by the players (the bidding rule, sealed
bids of either price, cut-and-choose, or a colour choice), at the scenario's ``belief_sd``:

* the equilibria (:mod:`knockout.rules.decisions.equilibrium` for the bidding rule, every distinct
one
  found; :mod:`knockout.rules.decisions.gridgames` for the sealed bids and cut-and-choose; the
  Bayesian choice for a colour choice, the chooser's only decision), each as readable thresholds or
  a bid table, with the match odds under it and P(甲 advances | the decisive game is reached);
* for every strategy kind, the exploitability: the gain of the flat-prior Bayesian best
  response of each role to the other role's strategy (:mod:`knockout.studies.exploit`), at the
  scenario's ratings, as a fraction of the whole match's P(advance) (the decisive game's gain
  times the chance that it is reached with that role), clipped at 0, the larger of the two
  with who gains;
* ``max_deviation_gain``: the equilibrium's own exploitability, its verification figure
  (verified when it is at most :data:`VERIFIED` for the kind of equilibrium).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from knockout.answers import MatchOdds
from knockout.errors import KnockoutError
from knockout.exact.odds import default_draws, match_odds
from knockout.exact.solver import solve
from knockout.i18n import _
from knockout.rules.book.formats import Stage
from knockout.rules.chain.match import MatchState
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.bidding import BiddingGame
from knockout.rules.decisions.choice import bayesian_choice_region
from knockout.rules.decisions.regions import Regions
from knockout.rules.decisions.strategies import STRATEGIES, Equilibrium, Strategy, get_strategy
from knockout.rules.model.sd import Spread
from knockout.rules.scenario.aggregate import Scenario
from knockout.studies.exploit import RoleGain, bidding_gains, choice_gains, cut_gains, sealed_gains

if TYPE_CHECKING:
    from knockout.rules.decisions.gridgames import Lattice

__all__ = ["VERIFIED", "EquilibriumReport", "equilibrium_report", "rule_of", "verdict"]

#: The equilibrium is verified when no role gains more than this share of the match: threshold
#: equilibria (the bidding rule, a colour choice) reach about 1e-8; the grid equilibria of the
#: sealed bids and cut-and-choose are as good as their clock cells allow (a point bid between
#: two 0.1-minute cells can gain a few 1e-4 of the decisive game, a few 1e-5 of the match).
VERIFIED = {"threshold": 1e-5, "grid": 1e-4}
#: Estimates at which bid and cut tables are shown (Elo, the player's own advantage).
TABLE_AT = (-600.0, -300.0, -100.0, 0.0, 100.0, 300.0, 600.0)


@dataclass(frozen=True)
class EquilibriumReport:
    """What ``knockout equilibrium`` prints.

    Attributes:
        scenario: The scenario.
        rule: The decisive decision's rule.
        equilibria: ``[{"strategies", "win", "chooser_advances"}]``.
        exploitability: ``{kind: {"gain", "by"}}``.
        max_deviation_gain: The equilibrium's exploitability.
        win_by_kind: P(each player advances) under each strategy kind.
        notes: Sentences on uniqueness, purity and convergence, computed from the results.
        seconds: The run time.
        tolerance: The verification tolerance: the equilibrium is verified when
            ``max_deviation_gain`` is at most this (:data:`VERIFIED`).
        model_uncertainty: With uncertain constants (``[model.sd]``): the spread of the odds
            under each kind (``win_by_kind.KIND.NAME``, the equilibrium solved again at each
            draw) and of the first equilibrium's (``equilibria.0.win.NAME``,
            ``equilibria.0.chooser_advances``); the strategies and the exploitability are at
            the central constants, and a note says so.
    """

    scenario: Scenario
    rule: str
    equilibria: list[dict[str, Any]]
    exploitability: dict[str, dict[str, Any]]
    max_deviation_gain: float
    win_by_kind: dict[str, dict[str, float]]
    notes: list[str]
    seconds: float
    tolerance: float = VERIFIED["threshold"]
    model_uncertainty: Spread | None = None

    @property
    def verified(self) -> bool:
        """Whether no role gains more than :attr:`tolerance` of the match against it."""
        return self.max_deviation_gain <= self.tolerance

    def to_json(self) -> dict[str, Any]:
        """The keys of ``knockout equilibrium --json`` (``version`` and ``scenario`` come from
        the envelope): what the text prints, the odds under each kind and the verification
        tolerance included."""
        out: dict[str, Any] = {
            "rule": self.rule,
            "equilibria": self.equilibria,
            "exploitability": self.exploitability,
            "max_deviation_gain": self.max_deviation_gain,
            "tolerance": self.tolerance,
            "verified": self.verified,
            "win_by_kind": {kind: dict(win) for kind, win in self.win_by_kind.items()},
            "notes": list(self.notes),
        }
        if self.model_uncertainty is not None:
            out["model_uncertainty"] = self.model_uncertainty.to_json()
        return out


def rule_of(stage: Stage) -> str:
    """The name of a decisive stage's rule."""
    if stage.is_sealed_bid:
        assert stage.sealed_bid is not None
        return "sealed-bid" if stage.sealed_bid.price == "first" else "sealed-bid-second-price"
    return str(stage.colours)


def _decisive(scenario: Scenario) -> Stage:
    if scenario.is_bracket:
        raise KnockoutError(
            f"{scenario.source}: equilibrium needs a match of two players, got "
            f"{len(scenario.players)}"
        )
    last = scenario.format.playable[-1]
    if not (last.is_decision or last.is_choice):
        raise KnockoutError(
            f"{scenario.source}: equilibrium needs a format whose last stage the players decide "
            f"(bidding, sealed bids, cut-choose or a colour choice); {last.name} is "
            f"{last.colours}"
        )
    return last


def _intervals(r: Regions) -> list[list[float | None]]:
    return [
        [None if not np.isfinite(lo) else lo, None if not np.isfinite(hi) else hi]
        for lo, hi in r.intervals
    ]


@dataclass(frozen=True)
class _Fixed(Equilibrium):
    """The equilibrium strategy with the bidding regions of one given equilibrium."""

    fixed: tuple[tuple[str, Regions], ...] = ()

    def regions(self, game: BiddingGame) -> dict[str, Regions]:
        return dict(self.fixed)


def _bidding_equilibria(game: BiddingGame, sd: float) -> tuple[list[dict[str, Regions]], list[str]]:
    if sd == 0:
        return [dict(game.regions)], [_("belief_sd = 0: the rational rule is the equilibrium")]
    from knockout.rules.decisions.equilibrium import bidding_equilibria  # noqa: PLC0415 (start-up: scipy, for the equilibria)

    found = bidding_equilibria(game, sd)
    notes = [
        (
            _("{n} equilibrium found from 4 starting rules")
            if len(found) == 1
            else _("{n} distinct equilibria found from 4 starting rules: not unique")
        ).format(n=len(found)),
        _("largest interim gain of any type: {gain:.1e}").format(
            gain=max(e.interim_gain for e in found)
        ),
    ]
    return [dict(e.regions) for e in found], notes


def _gains(rows: Sequence[tuple[float, tuple[RoleGain, ...]]]) -> dict[str, Any]:
    """Weighted role gains (weight: P(reached with this assignment)) → the larger, clipped."""
    totals: dict[str, float] = {}
    for weight, gains in rows:
        for g in gains:
            totals[g.role] = totals.get(g.role, 0.0) + weight * g.gain
    role, gain = max(totals.items(), key=lambda kv: kv[1])
    return {"gain": max(0.0, gain), "by": role if gain > 0 else None}


def _chooser_advances(pairing: Pairing, stage: Stage, strategy: Strategy) -> float | None:
    k = len(pairing.fmt.playable) - 1
    if stage.is_bidding:
        sol = solve(pairing)
        return float(sol.chooser_advances[0] / sol.bidding_reached[0])
    if stage.is_cut:
        game = pairing.cut_game
        assert game is not None
        p_a = float(pairing.p_a_chooses(MatchState(k, 0, 0, 0))[0])
        adv = [float(strategy.cut_advances(game, pairing.cut_advantage(s))[0]) for s in (0, 1)]
        return p_a * adv[0] + (1 - p_a) * adv[1]
    return None


def _exploitability(scenario: Scenario, stage: Stage, strategy: Strategy) -> dict[str, Any]:
    a, b = scenario.players[0], scenario.players[1]
    pairing = Pairing.of(scenario.format, a, b, model=scenario.model, strategy=strategy)
    sol = solve(pairing)
    k = len(scenario.format.playable) - 1
    reached = float(sol.decided[0, k].sum())
    rows: Sequence[tuple[float, tuple[RoleGain, ...]]]
    if stage.is_bidding:
        game = pairing.bidding_game
        assert game is not None
        p_a = float(sol.chooser_is_a[0])
        rows = [
            (p_a, bidding_gains(game, strategy, float(pairing.advantage(0)[0]))),
            (reached - p_a, bidding_gains(game, strategy, float(pairing.advantage(1)[0]))),
        ]
    elif stage.is_cut:
        game_c = pairing.cut_game
        assert game_c is not None
        p_cut = float(pairing.p_a_chooses(MatchState(k, 0, 0, 0))[0]) * reached
        rows = [
            (p_cut, cut_gains(game_c, strategy, float(pairing.cut_advantage(0)[0]))),
            (reached - p_cut, cut_gains(game_c, strategy, float(pairing.cut_advantage(1)[0]))),
        ]
    elif stage.is_sealed_bid:
        game_s = pairing.sealed_bid_game
        assert game_s is not None
        x = float(pairing.sealed_bid_gap()[0])
        rows = [(reached, sealed_gains(game_s, strategy, x, (a.name, b.name)))]
    else:
        choice = pairing.choice_game(k)
        p_a = float(pairing.colour_chooser[k][0]) * reached
        rows = [
            (p_a, choice_gains(choice, strategy, float(pairing.choice_advantage(k, 0)[0]))),
            (
                reached - p_a,
                choice_gains(choice, strategy, float(pairing.choice_advantage(k, 1)[0])),
            ),
        ]
    return _gains(rows)


def _strategies_json(
    stage: Stage, pairing: Pairing, sd: float, regions: dict[str, Regions] | None
) -> dict[str, Any]:
    """The equilibrium strategies in readable form."""
    if stage.is_bidding:
        assert regions is not None
        return {key: _intervals(r) for key, r in regions.items()}
    if stage.is_choice:
        choice = pairing.choice_game(len(pairing.fmt.playable) - 1)
        red = choice.red_region if sd == 0 else bayesian_choice_region(choice, sd)
        return {"choose_red": _intervals(red)}
    at = np.array(TABLE_AT)
    from knockout.rules.decisions.gridgames import cut_equilibrium, sealed_equilibrium  # noqa: PLC0415 (start-up: scipy, for the equilibria)

    if stage.is_sealed_bid:
        game = pairing.sealed_bid_game
        assert game is not None
        if sd == 0:
            return _table("bid", game.rational_bid(at), pure=True)
        eq = sealed_equilibrium(game, sd)
        return _grid_table(
            "bid",
            eq.lattice,
            eq.mean_bids,
            eq.table,
            pure=eq.pure,
            interim_gain=eq.interim_gain,
            rounds=eq.rounds,
            finest_cell=eq.finest_cell,
        )
    game_c = pairing.cut_game
    assert game_c is not None
    if sd == 0:
        return _table("cut", game_c.rational_cut(at), pure=True)
    eq_c = cut_equilibrium(game_c, sd)
    return _grid_table(
        "cut",
        eq_c.lattice,
        eq_c.mean_cuts,
        eq_c.cutter,
        pure=eq_c.pure,
        cutter_interim_gain=eq_c.cutter_gain,
        chooser_interim_gain=eq_c.chooser_gain,
        rounds=eq_c.rounds,
    )


def _grid_table(
    key: str, lattice: Lattice, means: npt.ArrayLike, table: npt.ArrayLike, **extra: Any
) -> dict[str, Any]:
    """A grid equilibrium's table: each shown estimate's cell, its mean clock and how many
    neighbouring clock cells it spreads over."""
    from knockout.rules.decisions.gridgames import spread  # noqa: PLC0415 (start-up: scipy, for the equilibria)

    cells = lattice.cell_of(np.array(TABLE_AT))
    spreads = spread(np.asarray(table, dtype=np.float64))[cells]
    return _table(key, np.asarray(means)[cells], cells_mixed=[int(v) for v in spreads], **extra)


def _table(key: str, values: npt.ArrayLike, **extra: Any) -> dict[str, Any]:
    """A bid or cut table at :data:`TABLE_AT`, with the solver's figures."""
    return {"estimate": list(TABLE_AT), key: [float(v) for v in np.asarray(values)], **extra}


def verdict(gain: float, tolerance: float, solver: tuple[float, float, int] | None) -> str:
    """The verification sentence: whether no role gains more than ``tolerance`` of the match
    by a best response, and when one does, why, from the solver's own figures ``solver``
    (the most a type gains on the solver's grid, in the decisive game; the solver's target;
    its rounds), or None where there are none."""
    if gain <= tolerance:
        return _(
            "verified: no role gains more than {tolerance:g} of the match by a best response "
            "(the most is {gain:.1e})"
        ).format(tolerance=tolerance, gain=gain)
    head = _(
        "not verified: a best response gains {gain:.2g} of the match (tolerance {tolerance:g})"
    ).format(gain=gain, tolerance=tolerance)
    if solver is None:
        return head
    own, target, rounds = solver
    if own > target:
        return _(
            "{head}; the solver stopped short of its target: after {rounds} rounds a type on "
            "its grid still gains {own:.1e} of the decisive game (target {target:g})"
        ).format(head=head, rounds=rounds, own=own, target=target)
    return _(
        "{head}, although no type on the solver's grid gains more than {own:.1e} of the "
        "decisive game (target {target:g}): the gain lies between the grid's points, so the "
        "grid is too coarse here"
    ).format(head=head, own=own, target=target)


def _solver_figures(
    stage: Stage, first: dict[str, Any], sd: float
) -> tuple[float, float, int] | None:
    """The solver's own verification figures for :func:`verdict`."""
    if sd == 0 or not (stage.is_sealed_bid or stage.is_cut):
        return None
    from knockout.rules.decisions.gridgames import TARGET  # noqa: PLC0415 (start-up: scipy, for the equilibria)

    own = first["interim_gain"] if stage.is_sealed_bid else first["cutter_interim_gain"]
    return float(own), TARGET, int(first["rounds"])


def equilibrium_report(scenario: Scenario, *, model_sd: bool = True) -> EquilibriumReport:
    """The equilibria, the odds under each strategy kind and the exploitability table; with
    uncertain constants (``[model.sd]``, unless ``model_sd=False``) the odds' spread over them
    (:attr:`EquilibriumReport.model_uncertainty`).

    Raises:
        KnockoutError: For a bracket, or a format whose last stage nobody decides.
    """
    start = time.perf_counter()
    stage = _decisive(scenario)
    sd = scenario.belief_sd
    a, b = scenario.players[0], scenario.players[1]
    eq_strategy = Equilibrium(sd)
    pairing = Pairing.of(scenario.format, a, b, model=scenario.model, strategy=eq_strategy)
    notes: list[str] = []
    found: list[tuple[Strategy, dict[str, Regions] | None]]
    if stage.is_bidding:
        game = pairing.bidding_game
        assert game is not None
        regions_list, notes = _bidding_equilibria(game, sd)
        found = [
            (eq_strategy if i == 0 else _Fixed(sd, tuple(r.items())), r)
            for i, r in enumerate(regions_list)
        ]
    else:
        found = [(eq_strategy, None)]
    uncertain = model_sd and bool(scenario.model_sd.uncertain)
    # each kind's odds once (the equilibrium's are the first equilibrium's): with uncertain
    # constants each is integrated over them, the equilibrium solved again at every draw
    kinds = {
        kind: replace(scenario, strategy=get_strategy(kind, belief_sd=sd)) for kind in STRATEGIES
    }
    # one set of draws for every kind (the fewest any kind takes: those solved draw by draw),
    # so that their spreads are over the same constants
    draws = min(default_draws(sc) for sc in kinds.values())
    by_kind = {kind: match_odds(sc, model_sd=uncertain, draws=draws) for kind, sc in kinds.items()}
    equilibria: list[dict[str, Any]] = []
    for i, (strategy, regions) in enumerate(found):
        odds = (
            by_kind["equilibrium"]
            if i == 0
            else match_odds(replace(scenario, strategy=strategy), model_sd=False)
        )
        p = Pairing.of(scenario.format, a, b, model=scenario.model, strategy=strategy)
        equilibria.append(
            {
                "strategies": _strategies_json(stage, p, sd, regions),
                "win": dict(odds.win),
                "chooser_advances": _chooser_advances(p, stage, strategy),
            }
        )
    first: dict[str, Any] = equilibria[0]["strategies"]
    if "pure" in first and sd > 0:
        widest = max(first.get("cells_mixed", [1]))
        notes.append(
            _("pure up to the grid: each type within two neighbouring cells")
            if first["pure"]
            else _(
                "mixed: some type spreads over {cells} neighbouring clock cells or replies with "
                "both colours (no pure equilibrium on the grid)"
            ).format(cells=widest)
        )
    exploit = {
        kind: _exploitability(scenario, stage, get_strategy(kind, belief_sd=sd))
        for kind in STRATEGIES
    }
    win_by_kind = {kind: dict(odds.win) for kind, odds in by_kind.items()}
    gain = float(exploit["equilibrium"]["gain"])
    tol = VERIFIED["grid" if stage.is_sealed_bid or stage.is_cut else "threshold"]
    notes.append(verdict(gain, tol, _solver_figures(stage, first, sd)))
    spread = _odds_spread(by_kind) if uncertain else None
    if spread is not None:
        notes.append(
            f"over the uncertain constants ({', '.join(spread.constants)}; {spread.draws} "
            "draws): the odds under each kind, and the first equilibrium's, carry their "
            "central 95 % interval (the equilibrium solved again at each draw); the strategies, "
            "the exploitability and its verification are at the central constants"
        )
    return EquilibriumReport(
        scenario,
        rule_of(stage),
        equilibria,
        exploit,
        gain,
        win_by_kind,
        notes,
        time.perf_counter() - start,
        tol,
        spread,
    )


def _odds_spread(by_kind: dict[str, MatchOdds]) -> Spread | None:
    """The odds' spread under each kind (``win_by_kind.KIND.NAME``) and the first
    equilibrium's (``equilibria.0.win.NAME``, ``equilibria.0.chooser_advances``), joined: the
    paths of the report's JSON."""
    out: Spread | None = None
    for kind, odds in by_kind.items():
        u = odds.model_uncertainty
        if u is None:
            continue
        names = {f"win.{n}": f"win_by_kind.{kind}.{n}" for n in odds.win}
        if kind == "equilibrium":
            names |= {f"win.{n}": f"equilibria.0.win.{n}" for n in odds.win}
            part = _renamed(u, names)
            names = {f"win.{n}": f"win_by_kind.{kind}.{n}" for n in odds.win}
            names["match.chooser_advances"] = "equilibria.0.chooser_advances"
            part = part.joined(_renamed(u, names))
        else:
            part = _renamed(u, names)
        out = part if out is None else out.joined(part)
    return out


def _renamed(u: Spread, names: dict[str, str]) -> Spread:
    """The figures of ``u`` named in ``names``, under their new paths."""
    return replace(
        u,
        figures={new: u.figures[old] for old, new in names.items() if old in u.figures},
        stderr={new: u.stderr[old] for old, new in names.items() if old in u.stderr},
        undefined={new: u.undefined[old] for old, new in names.items() if old in u.undefined},
        decomposition={},
    )
