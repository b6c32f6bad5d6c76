"""Can a player game the rule? Time use as a choice: ``knockout incentives``.

The seed's rule gives the sudden-death choice (甲) to the player who used less time in the
previous game. With the pace model (:mod:`knockout.rules.decisions.pace`) each player chooses a pace
in that game, trading strength in it against the chance of being 甲 (or, stalling, of being 乙).
For a match scenario this module finds, exactly (:class:`knockout.exact.pace.PaceGame`):

* each player's **best response** to the other's natural pace, and its gain in P(advance);
* the **manipulation gain**: the most either player gains over natural play by choosing a pace
  (the rule's strategy-proofness figure, sentence at :data:`STRATEGY_PROOF`);
* the **pure-strategy equilibria** of the pace game: on a grid of paces (each player's own
  range, with the natural pace and the bounds on it), every cell from which neither player can
  gain on the grid, and where there is none the cells of least regret; each candidate is refined
  (grids zooming in on it, then best responses by a 1-D optimiser: Chandrupatla's bracketing
  minimiser, ``scipy.optimize.elementwise.find_minimum``, vectorised over every problem at
  once) and **verified**: neither player gains more than :data:`TOLERANCE` by any deviation
  (the best deviation found on the whole grid of their paces, refined by the same optimiser);
* for equal players (the scenario's own if they are equal, else both at the pair's average
  rating, rating_sd and speed) the chance of 甲 and 乙 at the sudden death in equilibrium: a
  sequentially fair rule gives balanced players 50 % at every tied state in equilibrium
  (Anbarci, Sun and Ünver), and the distance from it (sentence at :data:`FAIR_WITHIN`).

Every chance and gain is a fraction of P(advance) in the whole match (the sentences say
percentage points).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import ndimage
from scipy.optimize import elementwise

from knockout.arrays import FloatArray
from knockout.errors import KnockoutError
from knockout.exact.odds import match_odds
from knockout.exact.pace import PaceGame, pace_game
from knockout.i18n import _, ngettext
from knockout.rules.model.players import Player, Speed
from knockout.rules.model.sd import ModelSd, Spread, design, spread_of_values
from knockout.rules.model.strength import TimeClass
from knockout.rules.scenario.aggregate import Scenario
from knockout.studies.verdicts import CANNOT_SETTLE, DOES_NOT_HOLD, HOLDS

__all__ = [
    "DEFAULT_GRID",
    "FAIR_WITHIN",
    "MAX_GRID",
    "MIN_GRID",
    "STRATEGY_PROOF",
    "TOLERANCE",
    "BestResponse",
    "Equilibrium",
    "Fairness",
    "Incentives",
    "incentives",
]

#: Paces per player on the search grid, unless ``--grid`` says otherwise ...
DEFAULT_GRID = 41
#: ... and the range ``--grid`` accepts.
MIN_GRID, MAX_GRID = 5, 401
#: An equilibrium is verified when neither player gains more than this (a fraction of
#: P(advance): 0.0001 points) by any deviation.
TOLERANCE = 1e-6
#: The rule is called strategy-proof when the manipulation gain is below this (0.1 points).
STRATEGY_PROOF = 0.001
#: Equal players' chances at the sudden death are called fair within this of 1/2 (0.1 points).
FAIR_WITHIN = 0.001
#: Payoffs closer than this are ties on the grid.
TIE = 1e-12
#: Refining grids: ZOOM x ZOOM paces around a candidate, half-width shrinking fourfold a level
#: until below REFINED (in pace).
ZOOM, REFINED = 17, 1e-6
#: Candidates refined at most (the grid equilibria first, then the cells of least regret).
MAX_CANDIDATES = 8
#: Rounds of simultaneous best responses tried on a candidate before it is given up.
POLISH_ROUNDS = 3
#: How far from the natural pace (the payoff's kink) a best response is probed on either side.
KINK_PROBE = 1e-7
#: Two equilibria closer than this in both paces are one.
SAME = 1e-5


@dataclass(frozen=True)
class BestResponse:
    """A player's best pace against a fixed pace of the other.

    Attributes:
        pace: The best pace found.
        win: The player's P(advance) there.
        gain: Over the player's natural pace (a fraction of P(advance), >= 0).
    """

    pace: float
    win: float
    gain: float


@dataclass(frozen=True)
class Equilibrium:
    """A verified pure-strategy equilibrium of the pace game.

    Attributes:
        pace: Each player's pace (A, B).
        win: Each player's P(advance) there.
        chooser_advances: P(甲 advances | sudden death) there (None if it cannot be reached).
        deviation_gain: The most each player gains by any deviation (<= :data:`TOLERANCE`).
        grid_cells: How many grid cells the region of grid equilibria it stands for has (1:
            an isolated one; more: the players are indifferent across a region of paces, and
            this is its pace pair nearest natural play).
    """

    pace: tuple[float, float]
    win: tuple[float, float]
    chooser_advances: float | None
    deviation_gain: tuple[float, float]
    grid_cells: int = 1


@dataclass(frozen=True)
class Fairness:
    """Equal players at the sudden death in equilibrium (Anbarci, Sun and Ünver's test).

    Attributes:
        own: Whether the scenario's own players are equal (else both are at their average).
        rating: The equal players' rating for each time class.
        speed: Their speed.
        paces: The equilibria's paces (A, B).
        chooser_advances: P(甲 advances | sudden death) in the first equilibrium (None: none).
        distance: The largest ``|P(甲 advances) - 1/2|`` over the equilibria (None: none).
    """

    own: bool
    rating: dict[str, float]
    speed: Speed
    paces: tuple[tuple[float, float], ...]
    chooser_advances: float | None
    distance: float | None

    def to_json(self) -> dict[str, Any]:
        """The ``sequential_fairness`` key."""
        x = self.chooser_advances
        return {
            "players": "scenario" if self.own else "average",
            "rating": dict(self.rating),
            "speed": self.speed.to_dict(),
            "equilibria": [list(p) for p in self.paces],
            "chooser_advances": x,
            "other_advances": None if x is None else 1.0 - x,
            "distance": self.distance,
            "fair_within": FAIR_WITHIN,
        }


@dataclass(frozen=True)
class Incentives:
    """The pace game of a match, solved.

    Attributes:
        names: The players (A, B).
        natural_pace: Their natural paces.
        natural_win: Their P(advance) at natural paces (``knockout odds``'s ``win``).
        bounds: The paces each may choose.
        roles: Each player's P(advance | sudden death) as 甲 and as 乙 (None where unreached).
        best_response: Each player's best response to the other's natural pace.
        equilibria: The verified equilibria, ordered by A's pace then B's.
        on_grid: How many separate regions of grid cells were equilibria on the grid.
        candidates: How many candidates were refined.
        grid: Paces per player on the grid.
        least_regret: The grid's pace pair of least regret, and that regret (the most either
            player gains on the grid by deviating alone; 0 on a grid equilibrium).
        deciding_stage: The stage and time class of the game that decides 甲.
        fairness: Equal players' chances at the sudden death in equilibrium (None if not asked).
        model_uncertainty: With uncertain constants (``[model.sd]``): the spread over them of
            natural play's odds, each best response (pace, win, gain) and the manipulation
            gain, the pace game solved again at each draw (:func:`incentives_spread`); the
            equilibria and the fairness figure are at the central constants.
        not_strategy_proof_share: With uncertain constants: the share of the draws whose
            manipulation gain is at least :data:`STRATEGY_PROOF`.
    """

    names: tuple[str, str]
    natural_pace: tuple[float, float]
    natural_win: tuple[float, float]
    bounds: tuple[tuple[float, float], tuple[float, float]]
    roles: tuple[tuple[float | None, float | None], tuple[float | None, float | None]]
    best_response: tuple[BestResponse, BestResponse]
    equilibria: tuple[Equilibrium, ...]
    on_grid: int
    candidates: int
    grid: int
    least_regret: tuple[tuple[float, float], float] = ((0.0, 0.0), 0.0)
    deciding_stage: tuple[str, str] = ("rapid", "rapid")
    fairness: Fairness | None = None
    model_uncertainty: Spread | None = None
    not_strategy_proof_share: float | None = None

    @property
    def manipulation_gain(self) -> float:
        """The most either player gains over natural play by choosing a pace."""
        return max(br.gain for br in self.best_response)

    @property
    def strategy_proof(self) -> bool:
        """Whether the manipulation gain is below :data:`STRATEGY_PROOF`."""
        return self.manipulation_gain < STRATEGY_PROOF

    def sentences(self) -> list[str]:
        """The summary, every sentence computed from the numbers and naming its threshold."""
        return [
            *self._role_sentences(),
            *(self._response_sentence(k) for k in (0, 1)),
            self._manipulation_sentence(),
            *self._stall_caveat(),
            *self._spread_sentences(),
            self._equilibrium_sentence(),
            *self._fairness_sentences(),
        ]

    def _spread_sentences(self) -> list[str]:
        """The manipulation gain over the uncertain constants, judged against
        :data:`STRATEGY_PROOF` with the shared verdict words."""
        u = self.model_uncertainty
        gain = None if u is None else u.get("manipulation_gain")
        if u is None or gain is None or self.not_strategy_proof_share is None:
            return []
        line = _points(STRATEGY_PROOF, 1)
        share = self.not_strategy_proof_share
        if gain.q975 < STRATEGY_PROOF:
            verdict = f"strategy-proof within {line} points {HOLDS} across the constants"
        elif gain.q025 >= STRATEGY_PROOF:
            verdict = f"strategy-proof within {line} points {DOES_NOT_HOLD} across the constants"
        else:
            verdict = f"whether the rule is strategy-proof within {line} points {CANNOT_SETTLE}"
        return [
            f"Over the uncertain constants ({', '.join(u.constants)}; {u.draws} draws, the pace "
            f"game solved again at each): the manipulation gain is {_points(gain.mean, 3)} "
            f"points on average, between {_points(gain.q025, 3)} and {_points(gain.q975, 3)} "
            f"in 95 % of the draws, and at least {line} points in {100 * share:.1f} % of them: "
            f"{verdict} (the interval against the {line}-point line). The equilibria below are "
            "at the central constants."
        ]

    def _stall_caveat(self) -> list[str]:
        """Said where a best response or an equilibrium stalls (a pace above the natural
        one): the pace model charges stalling nothing."""
        stalls = [
            (self.names[k], br.pace)
            for k, br in enumerate(self.best_response)
            if br.pace > self.natural_pace[k] + SAME
        ] + [
            (self.names[k], eq.pace[k])
            for eq in self.equilibria
            for k in (0, 1)
            if eq.pace[k] > self.natural_pace[k] + SAME
        ]
        if not stalls:
            return []
        paces: dict[str, float] = {}
        for name, pace in stalls:
            paces[name] = max(pace, paces.get(name, 0.0))
        by_pace: dict[str, list[str]] = {}
        for name, pace in paces.items():
            full = ", the full clock," if pace >= 1.0 - SAME else ""
            by_pace.setdefault(f"pace {pace:.3f}{full}", []).append(name)
        who = "; ".join(
            f"{' and '.join(names)} {'stalls' if len(names) == 1 else 'stall'} to {where}"
            for where, names in by_pace.items()
        )
        return [
            f"Caveat: stalling is free in this model. Here {who} and the pace model only "
            "compares the times used: it charges them nothing and lets no flag fall, so a "
            "player may run the clock down at no risk. Over the board a player who stalls that "
            "far risks losing on time, a cost the model does not count: read a gain from "
            "stalling as an upper bound."
        ]

    def _role_sentences(self) -> list[str]:
        out = []
        for k, name in enumerate(self.names):
            as_chooser, as_other = self.roles[k]
            if as_chooser is None or as_other is None:
                continue
            rather = "甲" if as_chooser > as_other else "乙" if as_other > as_chooser else None
            wish = (
                _("would rather be {role}").format(role=rather)
                if rather
                else _("does not mind which")
            )
            out.append(
                _(
                    "At the sudden death {name} advances {as_chooser} as 甲 and {as_other} as 乙: "
                    "{wish}."
                ).format(name=name, as_chooser=_pct(as_chooser), as_other=_pct(as_other), wish=wish)
            )
        return out

    def _response_sentence(self, k: int) -> str:
        name, other = self.names[k], self.names[1 - k]
        br, natural = self.best_response[k], self.natural_pace[k]
        if br.pace == natural:
            return _(
                "{name}'s best response to {other}'s natural pace is their own natural pace "
                "{natural:.3g}: no other pace does better."
            ).format(name=name, other=other, natural=natural)
        message = (
            _(
                "{name}'s best response to {other}'s natural pace: hurry to pace {pace:.3f} "
                "(natural {natural:.3g}), advancing {win} instead of {before}: +{gain} points."
            )
            if br.pace < natural
            else _(
                "{name}'s best response to {other}'s natural pace: stall to pace {pace:.3f} "
                "(natural {natural:.3g}), advancing {win} instead of {before}: +{gain} points."
            )
        )
        return message.format(
            name=name,
            other=other,
            pace=br.pace,
            natural=natural,
            win=_pct(br.win),
            before=_pct(br.win - br.gain),
            gain=_points(br.gain, 3),
        )

    def _manipulation_sentence(self) -> str:
        gain = self.manipulation_gain
        k = 0 if self.best_response[0].gain >= self.best_response[1].gain else 1
        within = _points(STRATEGY_PROOF, 1)
        if self.strategy_proof:
            return _(
                "Manipulation gain {gain} points: the rule is strategy-proof within {within} "
                "points (no player gains that much over natural play by choosing a pace)."
            ).format(gain=_points(gain, 3), within=within)
        br, natural = self.best_response[k], self.natural_pace[k]
        message = (
            _(
                "Manipulation gain {gain} points ({name}, by hurrying): the rule is not "
                "strategy-proof within {within} points."
            )
            if br.pace < natural
            else _(
                "Manipulation gain {gain} points ({name}, by stalling): the rule is not "
                "strategy-proof within {within} points."
            )
        )
        return message.format(gain=_points(gain, 3), name=self.names[k], within=within)

    def _equilibrium_sentence(self) -> str:
        verified = _("neither player gains more than {points} points by any deviation").format(
            points=_points(TOLERANCE, 4)
        )
        if not self.equilibria:
            (a, b), regret = self.least_regret
            return _(
                "No pure-strategy equilibrium: no pace pair on the {grid} x {grid} grid, refined, "
                "is one from which {verified} ({candidates} candidates tried); the least regret "
                "on the grid is {regret} points, at {a_name} {a:.3f}, {b_name} {b:.3f}."
            ).format(
                grid=self.grid,
                verified=verified,
                candidates=self.candidates,
                regret=_points(regret, 3),
                a_name=self.names[0],
                a=a,
                b_name=self.names[1],
                b=b,
            )
        count = len(self.equilibria)
        head = ngettext(
            "One pure-strategy equilibrium", "Several pure-strategy equilibria ({n})", count
        ).format(n=count)
        parts = []
        for eq in self.equilibria:
            paces = _(", ").join(
                _("{name} at pace {pace:.3f}").format(name=n, pace=p)
                for n, p in zip(self.names, eq.pace, strict=True)
            )
            wins = _(", ").join(f"{n} {_pct(w)}" for n, w in zip(self.names, eq.win, strict=True))
            chooser = (
                ""
                if eq.chooser_advances is None
                else _(", 甲 advancing {share} of sudden deaths").format(
                    share=_pct(eq.chooser_advances)
                )
            )
            region = (
                ""
                if eq.grid_cells == 1
                else _(
                    "; the pair nearest natural play of a region of {cells} grid cells across "
                    "which the players are indifferent"
                ).format(cells=eq.grid_cells)
            )
            parts.append(
                _("{paces} ({wins}{chooser}{region})").format(
                    paces=paces, wins=wins, chooser=chooser, region=region
                )
            )
        where = "" if self.on_grid else _(" (found between the grid's cells)")
        return _("{head}{where}, verified ({verified}): {parts}.").format(
            head=head, where=where, verified=verified, parts=_("; ").join(parts)
        )

    def _fairness_sentences(self) -> list[str]:
        f = self.fairness
        if f is None:
            return []
        who = (
            _("The scenario's equal players") if f.own else _("Equal players (the pair's average)")
        )
        if f.chooser_advances is None or f.distance is None:
            return [
                _(
                    "{who}: no equilibrium of their pace game, so no sequential-fairness figure."
                ).format(who=who)
            ]
        fair = f.distance < FAIR_WITHIN
        verdict = _("fair") if fair else _("not fair")
        return [
            _(
                "{who} in equilibrium: at the sudden death 甲 advances {chooser} and 乙 {other}, "
                "{distance} points from the 50 % a sequentially fair rule gives (Anbarci, Sun and "
                "Ünver): {verdict} within {within} points."
            ).format(
                who=who,
                chooser=_pct(f.chooser_advances),
                other=_pct(1 - f.chooser_advances),
                distance=_points(f.distance),
                verdict=verdict,
                within=_points(FAIR_WITHIN, 1),
            )
        ]

    def to_json(self) -> dict[str, Any]:
        """The keys of ``knockout incentives --json`` (the envelope adds ``version`` and
        ``scenario``)."""
        a, b = self.names
        out: dict[str, Any] = {
            "players": [a, b],
            "deciding_game": {
                "stage": self.deciding_stage[0],
                "time_class": self.deciding_stage[1],
            },
            "natural": {
                "pace": {a: self.natural_pace[0], b: self.natural_pace[1]},
                "win": {a: self.natural_win[0], b: self.natural_win[1]},
            },
            "pace_bounds": {n: list(bd) for n, bd in zip(self.names, self.bounds, strict=True)},
            "best_response": {
                n: {"pace": br.pace, "win": br.win, "gain": br.gain}
                for n, br in zip(self.names, self.best_response, strict=True)
            },
            "equilibria": [
                {
                    "pace": {a: eq.pace[0], b: eq.pace[1]},
                    "win": {a: eq.win[0], b: eq.win[1]},
                    "chooser_advances": eq.chooser_advances,
                }
                for eq in self.equilibria
            ],
            # beside each equilibrium, in the same order: how it was verified
            "verification": [
                {
                    "deviation_gain": {a: eq.deviation_gain[0], b: eq.deviation_gain[1]},
                    "grid_cells": eq.grid_cells,
                }
                for eq in self.equilibria
            ],
            "equilibria_on_grid": self.on_grid,
            "least_regret_on_grid": {
                "pace": {a: self.least_regret[0][0], b: self.least_regret[0][1]},
                "regret": self.least_regret[1],
            },
            "manipulation_gain": self.manipulation_gain,
            "strategy_proof": self.strategy_proof,
            "strategy_proof_within": STRATEGY_PROOF,
            "tolerance": TOLERANCE,
            "grid": self.grid,
            "sequential_fairness": None if self.fairness is None else self.fairness.to_json(),
            "summary": self.sentences(),
        }
        if self.model_uncertainty is not None:
            out["model_uncertainty"] = self.model_uncertainty.to_json()
            out["not_strategy_proof_share"] = self.not_strategy_proof_share
        return out


def _pct(p: float) -> str:
    return f"{100 * p:.2f} %"


def _points(x: float, digits: int = 2) -> str:
    return f"{100 * x:.{digits}f}"


# ---------------------------------------------------------------------------------------------
# Searching


def _pace_grid(bounds: tuple[float, float], natural: float, n: int) -> FloatArray:
    """``n`` paces across ``bounds``, with the natural pace (a kink of the payoff) on it."""
    lo, hi = bounds
    return np.unique(np.append(np.linspace(lo, hi, n), natural))


@dataclass(frozen=True)
class _Search:
    """The pace game with its two grids."""

    game: PaceGame
    grids: tuple[FloatArray, FloatArray]

    def best_responses(
        self, sides: Sequence[int], others: Sequence[float]
    ) -> list[tuple[float, float]]:
        """Each ``sides[i]``'s best pace against the other's ``others[i]``, with its payoff:
        the best of the player's grid, refined by Chandrupatla's minimiser on the bracket of
        grid cells around it (all problems in the same vectorised calls)."""
        if not sides:
            return []
        grids = [self._probed(s) for s in sides]
        own = np.concatenate(grids)
        other = np.concatenate([np.full(len(g), o) for g, o in zip(grids, others, strict=True)])
        side_of = np.concatenate([np.full(len(g), s) for g, s in zip(grids, sides, strict=True)])
        values = self._mixed_payoff(side_of, own, other)
        best: list[tuple[float, float]] = []
        brackets: list[tuple[int, float, float, float, float]] = []
        start = 0
        for k, g in enumerate(grids):
            v = values[start : start + len(g)]
            start += len(g)
            i = int(np.argmax(v))
            natural = int(np.searchsorted(g, self.game.natural[sides[k]]))
            if v[natural] >= v[i] - TIE:  # natural play unless a pace does better
                i = natural
            best.append((float(g[i]), float(v[i])))
            if 0 < i < len(g) - 1 and i != natural:
                brackets.append((k, float(g[i - 1]), float(g[i]), float(g[i + 1]), others[k]))
        for k, pace, value in self._refine(brackets, sides):
            if value > best[k][1]:
                best[k] = (pace, value)
        return best

    def _probed(self, side: int) -> FloatArray:
        """A player's grid with a probe either side of the natural pace: the payoff has a kink
        there (hurrying costs strength, stalling does not), smooth on each side, so the best
        pace is the kink itself when both probes are worse, else inside the better side."""
        lo, hi = self.game.bounds[side]
        m = self.game.natural[side]
        probes = [x for x in (m - KINK_PROBE, m + KINK_PROBE) if lo <= x <= hi]
        return np.unique(np.append(self.grids[side], probes))

    def _mixed_payoff(self, side: FloatArray, own: FloatArray, other: FloatArray) -> FloatArray:
        """P(side advances) for problems of either side (elementwise)."""
        first = side == 0
        pa = np.where(first, own, other)
        pb = np.where(first, other, own)
        win = self.game.values(pa, pb).win
        return np.where(first, win[:, 0], win[:, 1])

    def _refine(
        self, brackets: Sequence[tuple[int, float, float, float, float]], sides: Sequence[int]
    ) -> list[tuple[int, float, float]]:
        """The 1-D optimiser on each grid bracket (vectorised over the brackets)."""
        if not brackets:
            return []
        ks = [b[0] for b in brackets]
        x1, x2, x3, other = (np.array([b[j] for b in brackets]) for j in (1, 2, 3, 4))
        side = np.array([float(sides[k]) for k in ks])

        def negative(x: FloatArray, side: FloatArray, other: FloatArray) -> FloatArray:
            shape = np.shape(x)
            s, o = np.broadcast_to(side, shape).ravel(), np.broadcast_to(other, shape).ravel()
            return -self._mixed_payoff(s, np.ravel(x), o).reshape(shape)

        res = elementwise.find_minimum(
            negative,
            (x1, x2, x3),
            args=(side, other),
            tolerances={"xatol": 1e-10, "xrtol": 0.0, "fatol": 1e-15, "frtol": 0.0},
        )
        out = []
        for j, k in enumerate(ks):
            if bool(res.success[j]) or int(res.status[j]) == -2:
                out.append((k, float(res.x[j]), -float(res.f_x[j])))
        return out


def _regret(w_a: FloatArray, w_b: FloatArray) -> FloatArray:
    """Each cell's regret: the most either player gains on the grid by deviating alone."""
    regret_a = w_a.max(axis=0, keepdims=True) - w_a
    regret_b = w_b.max(axis=1, keepdims=True) - w_b
    return np.asarray(np.maximum(regret_a, regret_b), dtype=np.float64)


def _regions(mask: npt.NDArray[np.bool_]) -> list[list[tuple[int, int]]]:
    """Connected regions (8 neighbours) of the cells in ``mask``, each a list of cells."""
    labels, count = ndimage.label(mask, structure=np.ones((3, 3), dtype=bool))
    return [[(int(i), int(j)) for i, j in np.argwhere(labels == k)] for k in range(1, count + 1)]


def _distance(cell: tuple[int, int], to: tuple[int, int]) -> int:
    return abs(cell[0] - to[0]) + abs(cell[1] - to[1])


def _candidates(
    regret: FloatArray, natural: tuple[int, int]
) -> tuple[list[tuple[int, int]], list[int], int]:
    """Cells to refine, the size of the region each stands for, and how many regions of grid
    equilibria there are: per region of cells with no regret (on the grid), its cell nearest
    natural play (``natural``: the natural paces' cell); where there is none, the local minima
    of the regret, least first (each a region of one)."""
    regions = _regions(regret <= TIE)
    if regions:
        picks = [min(region, key=lambda c: _distance(c, natural)) for region in regions]
        sizes = [len(region) for region in regions]
        order = sorted(range(len(picks)), key=lambda k: picks[k])[:MAX_CANDIDATES]
        return [picks[k] for k in order], [sizes[k] for k in order], len(regions)
    lowest = ndimage.minimum_filter(regret, size=3, mode="constant", cval=np.inf)
    picks = [min(r, key=lambda c: regret[c]) for r in _regions(regret <= lowest)]
    picks.sort(key=lambda c: regret[c])
    picks = picks[:MAX_CANDIDATES]
    return picks, [1] * len(picks), 0


def _zoom(
    search: _Search, centres: list[tuple[float, float]], step: float
) -> list[tuple[float, float]]:
    """Refine each candidate by grids zooming in on it: ZOOM x ZOOM paces in a box around the
    cell of least regret (within the box), the box shrinking fourfold each level."""
    game = search.game
    (lo_a, hi_a), (lo_b, hi_b) = game.bounds
    half = 2.0 * step
    while half > REFINED and centres:
        axes = []
        for a, b in centres:
            ga = np.unique(np.clip(np.linspace(a - half, a + half, ZOOM), lo_a, hi_a))
            gb = np.unique(np.clip(np.linspace(b - half, b + half, ZOOM), lo_b, hi_b))
            axes.append((_with(ga, game.natural[0]), _with(gb, game.natural[1])))
        pa = np.concatenate([np.repeat(ga, len(gb)) for ga, gb in axes])
        pb = np.concatenate([np.tile(gb, len(ga)) for ga, gb in axes])
        win = game.values(pa, pb).win
        start, moved = 0, []
        for (ga, gb), (a, b) in zip(axes, centres, strict=True):
            size = len(ga) * len(gb)
            block = win[start : start + size].reshape(len(ga), len(gb), 2)
            start += size
            regret = _regret(block[:, :, 0], block[:, :, 1])
            ties = np.argwhere(regret <= regret.min() + TIE)
            i, j = min(ties, key=lambda c: abs(ga[c[0]] - a) + abs(gb[c[1]] - b))
            moved.append((float(ga[i]), float(gb[j])))
        centres = moved
        half /= 4.0
    return centres


def _with(grid: FloatArray, natural: float) -> FloatArray:
    """``grid`` with the natural pace added when it lies inside."""
    if grid[0] < natural < grid[-1]:
        return np.unique(np.append(grid, natural))
    return grid


@dataclass(frozen=True)
class _Solved:
    """What :func:`_solve` finds."""

    responses: tuple[BestResponse, BestResponse]
    equilibria: tuple[Equilibrium, ...]
    on_grid: int
    candidates: int
    least_regret: tuple[tuple[float, float], float]


def _solve(game: PaceGame, grid: int) -> _Solved:
    """Best responses to natural play, then the equilibria (see the module docstring)."""
    grids = (
        _pace_grid(game.bounds[0], game.natural[0], grid),
        _pace_grid(game.bounds[1], game.natural[1], grid),
    )
    search = _Search(game, grids)
    ga, gb = search.grids
    values = game.values(np.repeat(ga, len(gb)), np.tile(gb, len(ga)))
    w_a = values.win[:, 0].reshape(len(ga), len(gb))
    w_b = values.win[:, 1].reshape(len(ga), len(gb))
    regret = _regret(w_a, w_b)
    natural_cell = (
        int(np.searchsorted(ga, game.natural[0])),
        int(np.searchsorted(gb, game.natural[1])),
    )
    cells, sizes, on_grid = _candidates(regret, natural_cell)
    least = np.unravel_index(int(np.argmin(regret)), regret.shape)
    least_regret = ((float(ga[least[0]]), float(gb[least[1]])), float(regret[least]))
    step = max((game.bounds[k][1] - game.bounds[k][0]) / (grid - 1) for k in (0, 1))
    centres = _zoom(search, [(float(ga[i]), float(gb[j])) for i, j in cells], step)
    natural = game.values(*game.natural)
    nat_win = (float(natural.win[0, 0]), float(natural.win[0, 1]))
    equilibria: list[Equilibrium] = []
    responses: tuple[BestResponse, BestResponse] | None = None
    pending = list(zip(centres, sizes, strict=True))
    for _round in range(POLISH_ROUNDS):
        sides = [0, 1] + [s for _ in pending for s in (0, 1)]
        others = [game.natural[1], game.natural[0]] + [o for (a, b), _ in pending for o in (b, a)]
        found = search.best_responses(sides, others)
        if responses is None:
            r_a, r_b = (
                BestResponse(p, v, max(0.0, v - nat_win[k])) for k, (p, v) in enumerate(found[:2])
            )
            responses = (r_a, r_b)
        if not pending:
            break
        at = game.values([a for (a, _), _ in pending], [b for (_, b), _ in pending])
        left = []
        for c, ((a, b), size) in enumerate(pending):
            here = (float(at.win[c, 0]), float(at.win[c, 1]))
            (br_a, v_a), (br_b, v_b) = found[2 + 2 * c], found[3 + 2 * c]
            gains = (max(0.0, v_a - here[0]), max(0.0, v_b - here[1]))
            if max(gains) <= TOLERANCE:
                chooser = float(at.chooser_advances[c])
                equilibria.append(
                    Equilibrium((a, b), here, None if np.isnan(chooser) else chooser, gains, size)
                )
            else:  # a step of simultaneous best responses, checked again next round
                left.append(((br_a, br_b), size))
        pending = left
    assert responses is not None
    return _Solved(responses, _distinct(equilibria), on_grid, len(cells), least_regret)


def _distinct(equilibria: Sequence[Equilibrium]) -> tuple[Equilibrium, ...]:
    out: list[Equilibrium] = []
    for eq in sorted(equilibria, key=lambda e: e.pace):
        if not any(
            abs(eq.pace[0] - o.pace[0]) < SAME and abs(eq.pace[1] - o.pace[1]) < SAME for o in out
        ):
            out.append(eq)
    return tuple(out)


def _balanced(scenario: Scenario) -> tuple[Scenario, bool]:
    """The scenario with equal players: its own if they are, else both at their average
    rating (per time class), rating_sd and speed."""
    a, b = scenario.players
    if _equal(a, b):
        return scenario, True

    def mean(x: float, y: float) -> float:
        return (x + y) / 2

    ratings = {tc: mean(a.rating_for(tc), b.rating_for(tc)) for tc in TimeClass}
    speed = Speed(mean(a.speed.mean, b.speed.mean), mean(a.speed.sd, b.speed.sd))

    def equalised(p: Player) -> Player:
        return replace(
            p,
            rating=ratings[TimeClass.CLASSICAL],
            rating_rapid=ratings[TimeClass.RAPID],
            rating_blitz=ratings[TimeClass.BLITZ],
            rating_sd=mean(a.rating_sd, b.rating_sd),
            speed=speed,
        )

    return replace(scenario, players=(equalised(a), equalised(b))), False


def _equal(a: Player, b: Player) -> bool:
    return (
        all(a.rating_for(tc) == b.rating_for(tc) for tc in TimeClass)
        and a.speed == b.speed
        and a.rating_sd == b.rating_sd
    )


def incentives(
    scenario: Scenario, *, grid: int = DEFAULT_GRID, fairness: bool = True, model_sd: bool = True
) -> Incentives:
    """Best responses, equilibria and the manipulation gain of a match's pace game; with
    uncertain constants (``[model.sd]``, unless ``model_sd=False``) the spread of natural
    play, the best responses and the manipulation gain over them (:func:`incentives_spread`).

    ``fairness``: also solve the equal players' pace game (the sequential-fairness figure).

    Raises:
        KnockoutError: One line: a bracket, a format whose colours do not depend on time used,
            a match past the game that decides 甲, a grid outside ``[MIN_GRID, MAX_GRID]``.
    """
    if not MIN_GRID <= grid <= MAX_GRID:
        raise KnockoutError(
            f"--grid: expected a whole number of paces from {MIN_GRID} to {MAX_GRID}, got {grid}"
        )
    game = pace_game(scenario)
    odds = match_odds(scenario, model_sd=False)
    solved = _solve(game, grid)
    roles = _roles(odds.sudden_death.as_chooser if odds.sudden_death else None, game.names)
    fair = _fairness(scenario, grid) if fairness else None
    stage_index = game.deciding[0]
    stage = scenario.format.playable[stage_index]
    result = Incentives(
        names=game.names,
        natural_pace=game.natural,
        natural_win=(odds.win[game.names[0]], odds.win[game.names[1]]),
        bounds=game.bounds,
        roles=roles,
        best_response=solved.responses,
        equilibria=solved.equilibria,
        on_grid=solved.on_grid,
        candidates=solved.candidates,
        grid=grid,
        least_regret=solved.least_regret,
        deciding_stage=(stage.name, game.pairing.time_classes[stage_index].value),
        fairness=fair,
    )
    if not (model_sd and scenario.model_sd.uncertain):
        return result
    spread, share = incentives_spread(scenario, result)
    return replace(result, model_uncertainty=spread, not_strategy_proof_share=share)


#: Draws of the constants for the spread: each draw's pace game is solved on its own.
SPREAD_DRAWS = 64


def _responses_at(scenario: Scenario, grid: int) -> dict[str, float]:
    """Natural play's odds, each best response to the other's natural pace and the
    manipulation gain, under one set of constants (the figures' JSON paths)."""
    game = pace_game(scenario)
    a, b = game.names
    grids = (
        _pace_grid(game.bounds[0], game.natural[0], grid),
        _pace_grid(game.bounds[1], game.natural[1], grid),
    )
    search = _Search(game, grids)
    natural = game.values(*game.natural)
    nat = (float(natural.win[0, 0]), float(natural.win[0, 1]))
    found = search.best_responses([0, 1], [game.natural[1], game.natural[0]])
    out = {f"natural.win.{a}": nat[0], f"natural.win.{b}": nat[1]}
    gains = []
    for k, name in enumerate(game.names):
        pace, win = found[k]
        gain = max(0.0, win - nat[k])
        gains.append(gain)
        out |= {
            f"best_response.{name}.pace": pace,
            f"best_response.{name}.win": win,
            f"best_response.{name}.gain": gain,
        }
    out["manipulation_gain"] = max(gains)
    return out


def incentives_spread(scenario: Scenario, central: Incentives) -> tuple[Spread, float]:
    """Natural play's odds, the best responses and the manipulation gain over the
    uncertainty of the constants (:data:`SPREAD_DRAWS` draws, each pace game solved on its
    own), and the share of draws whose manipulation gain is at least :data:`STRATEGY_PROOF`."""
    des = design(scenario.model, scenario.model_sd, draws=SPREAD_DRAWS)
    rows = [
        _responses_at(
            replace(scenario, model=des.model_at(scenario.model, i), model_sd=ModelSd()),
            central.grid,
        )
        for i in range(des.size)
    ]
    values = {path: np.array([row[path] for row in rows]) for path in rows[0]}
    spread = spread_of_values(
        central.to_json(),
        values,
        des,
        scenario.model_sd,
        scenario.model,
        probability=lambda path: not path.endswith("gain"),
        keep=lambda path: path in values,
    )
    share = float(np.mean(values["manipulation_gain"] >= STRATEGY_PROOF))
    return spread, share


def _roles(
    as_chooser: dict[str, dict[str, float | None]] | None, names: tuple[str, str]
) -> tuple[tuple[float | None, float | None], tuple[float | None, float | None]]:
    """Each player's P(advance | sudden death) as 甲 and as 乙."""
    if as_chooser is None:
        return ((None, None), (None, None))
    a, b = (as_chooser[n].get("advances") for n in names)
    return ((a, None if b is None else 1.0 - b), (b, None if a is None else 1.0 - a))


def _fairness(scenario: Scenario, grid: int) -> Fairness:
    balanced, own = _balanced(scenario)
    equilibria = _solve(pace_game(balanced), grid).equilibria
    p = balanced.players[0]
    chooser = [eq.chooser_advances for eq in equilibria if eq.chooser_advances is not None]
    return Fairness(
        own=own,
        rating={tc.value: p.rating_for(tc) for tc in TimeClass},
        speed=p.speed,
        paces=tuple(eq.pace for eq in equilibria),
        chooser_advances=chooser[0] if chooser else None,
        distance=max(abs(x - 0.5) for x in chooser) if chooser else None,
    )
