"""The vectorised match kernel: many matches at once, one draw per stage.

The kernel walks the same chain as the exact solver and the SimPy engine
(:mod:`knockout.rules.chain.match`), a stage at a time, for every match still alive:

* * each stage is one categorical draw per match from the stage's exact exit distribution
  (:func:`knockout.exact.solver.stage_exits`: who wins in the stage and after how many games, or who
  had Red last if the match goes on; for the bidding stage also who was 甲 and what was decided),
  given the pairing and how the stage was entered. Under ``rational`` and ``naive`` the bidding
  decisions are thus computed once per distinct pairing;
* under ``believed`` (private belief noise) the bidding stage is drawn decision by decision
  instead: 甲 (one uniform), each match's own two belief draws and the decisions they imply
  (:meth:`knockout.rules.decisions.strategies.Strategy.sample`, vectorised), then the game (one
  uniform).

Arrays: the simulation axis is first everywhere. :class:`MatchTables` holds what depends only on
the pairing, computed once for ``n_pairs`` distinct pairs; :func:`simulate` takes ``pair`` (shape
``(n,)``, indices into those pairs) and returns per-match outcomes. The only Python loop is over
the format's stages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, assert_never

import numpy as np
import numpy.typing as npt

from knockout.arrays import BoolArray, FloatArray, IntArray
from knockout.exact.solver import StageExit, stage_exits
from knockout.game import Colour
from knockout.rules.chain.match import MatchState, Position
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.bidding import BRANCHES, BiddingGame
from knockout.rules.decisions.cut import CutChooseGame
from knockout.rules.decisions.kinds import (
    Bidding,
    Choice,
    CutChoice,
    Decision,
    Fixed,
    Lot,
    OtherDecision,
    SealedBids,
    Side,
    decide,
)
from knockout.rules.decisions.sealed import SealedBidGame
from knockout.rules.decisions.strategies import BeliefSampler, DecisionSampler, Strategy

__all__ = [
    "COUNT_CELLS",
    "GUIDE_CELLS",
    "MAX_SPLIT_CELLS",
    "BiddingTable",
    "CellSplit",
    "CutTable",
    "ExitCounts",
    "MatchOutcomes",
    "MatchTables",
    "SealedBidTable",
    "StageTable",
    "WalkCounts",
    "count_exits",
    "count_walk",
    "simulate",
]

#: Cells of the guide table that maps one uniform to a global exit (a power of two).
GUIDE_CELLS = 1 << 12

#: Equal cells of [0, 1) that a match's draw falls in on the counting path (:func:`count_exits`; a
#: power of two): two matches' cells make one index of a ``COUNT_CELLS ** 2``-bin count.
COUNT_CELLS = 1 << 6

#: At most this many of the :data:`COUNT_CELLS` may hold cut points (so about an eighth of the
#: matches are split by the multinomial); a distribution with more (many exits) is counted over
#: :data:`GUIDE_CELLS` cells instead, one ``bincount`` index per match.
MAX_SPLIT_CELLS = COUNT_CELLS // 8

#: Stages with up to this many exits are counted cut point by cut point in :func:`count_walk`
#: (one comparison of the matches' draws each); longer ones by their exit indices.
COUNTED_EXITS = 16

#: Entry codes of a stage: 0 = no previous game, 1 = A had Red last, 2 = B had Red last.
ENTRIES: tuple[Side | None, ...] = (None, 0, 1)


@dataclass(frozen=True)
class StageTable:
    """A stage's exit distribution for every pair and entry, and what each exit means.

    Exits that continue the match come first (``k < n_goes_on``), then those that end it.

    Attributes:
        cuts: ``(n_pairs * 3, K - 1)`` inner cut points of the K exits' cumulative
            probabilities; row ``pair * 3 + entry``.
        varies: False when every row is the same: then row 0 is used for every match.
        by_entry: Whether, for some pair, the distribution depends on the entry code.
        n_goes_on: Number of exits that continue the match.
        games: ``(K,)`` games played in the stage.
        winner: ``(K,)`` winning side, or -1 if the match goes on.
        entry: ``(K,)`` entry code of the next stage (1 or 2), or 0 if the match is over.
        chooser: ``(K,)`` side that was 甲 (bidding stage), else -1.
        announce_red: ``(K,)`` 甲 announced Red.
        objects: ``(K,)`` 乙 objected.
    """

    cuts: FloatArray
    varies: bool
    by_entry: bool
    n_goes_on: int
    games: npt.NDArray[np.int32]
    winner: npt.NDArray[np.int8]
    entry: npt.NDArray[np.intp]
    chooser: npt.NDArray[np.int8]
    announce_red: BoolArray
    objects: BoolArray

    @cached_property
    def sorted_rows(self) -> list[list[float]] | None:
        """The rows of cut points as lists, where the stage has at most :data:`COUNTED_EXITS`
        exits and every row is sorted (cumulative probabilities, barring rounding): a walk
        that counts matches counts them cut point by cut point (:func:`count_walk`)."""
        if self.cuts.shape[1] + 1 > COUNTED_EXITS or np.any(self.cuts[:, 1:] < self.cuts[:, :-1]):
            return None
        return [row.tolist() for row in self.cuts]

    @cached_property
    def columns(self) -> FloatArray:
        """``(K - 1, 3 * n_pairs)``: the cut points by column, entry-major: cut ``j`` of pair
        ``p`` entered with code ``e`` is ``[j, e * n_pairs + p]``. Each column is contiguous and,
        for entry 0, indexed by the pair itself (one gather per cut, nothing to compute)."""
        k = self.cuts.shape[1]
        n_pairs = self.cuts.shape[0] // len(ENTRIES)
        by_entry = self.cuts.reshape(n_pairs, len(ENTRIES), k).transpose(2, 1, 0)
        return np.ascontiguousarray(by_entry.reshape(k, len(ENTRIES) * n_pairs))


@dataclass(frozen=True)
class BiddingTable:
    """The bidding stage drawn decision by decision (strategies with private beliefs).

    Attributes:
        p_a_chooses: ``(n_pairs * 3,)`` P(A is 甲), row ``pair * 3 + entry``.
        advantage: ``(n_pairs * 2,)`` 甲's rating minus 乙's, row ``pair * 2 + chooser``.
        cuts: ``(n_pairs * 2 * 4, 2)`` P(Red wins), P(Red wins or draw); row
            ``(pair * 2 + chooser) * 4 + branch``.
        chooser_red: ``(4,)`` whether 甲 plays Red in each branch.
        draw_to_black: Whether a draw sends Black through (else Red).
        sampler: The strategy's decisions as array operations, built once here (for
            ``believed``: the rule's thresholds), so workers receive them ready.
    """

    p_a_chooses: FloatArray
    advantage: FloatArray
    cuts: FloatArray
    chooser_red: BoolArray
    draw_to_black: bool
    sampler: DecisionSampler


@dataclass(frozen=True)
class SealedBidTable:
    """A sealed-bid Armageddon drawn bid by bid (strategies with private beliefs).

    Attributes:
        gap: ``(n_pairs,)`` A's rating minus B's for the stage's time class.
    """

    gap: FloatArray


@dataclass(frozen=True)
class CutTable:
    """A cut-and-choose game drawn decision by decision (strategies with private beliefs).

    Attributes:
        p_a_cuts: ``(n_pairs * 3,)`` P(A is the cutter), row ``pair * 3 + entry``.
        advantage: ``(n_pairs * 2,)`` the cutter's rating minus the chooser's, row
            ``pair * 2 + cutter``.
    """

    p_a_cuts: FloatArray
    advantage: FloatArray


@dataclass(frozen=True)
class MatchTables:
    """Per-pairing tables for a format, model and strategy; computed once, shipped to workers.

    Attributes:
        stage_names: Names of the playable stages.
        stages: One table per playable stage.
        strategy: The bidding strategy.
        game: The sudden-death decision problem, if the format has one.
        sealed: The sealed-bid Armageddon, if the format has one.
        n_pairs: Number of distinct pairs.
        offsets: Where each stage's exits start in the global exit numbering.
        entry_matters: Per stage (and one past the last): whether its table depends on the entry.
        exit_winner: ``(exits,)`` winner of each global exit (-1: the match goes on).
        exit_stage: ``(exits,)`` stage index of each global exit.
        exit_games: ``(exits,)`` games played by a match ending with that exit, when that is
            fixed (no stage before it can end after a varying number of games); else None.
        exit_chooser: ``(exits,)`` 甲 of each global exit, or -1.
        exit_announce_red: ``(exits,)`` 甲 announced Red.
        exit_objects: ``(exits,)`` 乙 objected.
        branch_values: ``(n_pairs, 2, 4)``: P(甲 advances) in each bidding branch when side
            0 or 1 is 甲 (``BRANCHES`` order); None without a bidding stage.
        bidding_class: The bidding stage's time class, if any.
    """

    stage_names: tuple[str, ...]
    stages: tuple[StageTable | BiddingTable | SealedBidTable | CutTable, ...]
    strategy: Strategy
    game: BiddingGame | None
    sealed: SealedBidGame | None
    n_pairs: int
    offsets: tuple[int, ...]
    entry_matters: tuple[bool, ...]
    exit_winner: npt.NDArray[np.int8]
    exit_stage: npt.NDArray[np.int16]
    exit_games: npt.NDArray[np.int32] | None
    exit_chooser: npt.NDArray[np.int8]
    exit_announce_red: BoolArray
    exit_objects: BoolArray
    branch_values: FloatArray | None = None
    bidding_class: str | None = None
    cut: CutChooseGame | None = None

    @classmethod
    def from_pairing(cls, pairing: Pairing, *, start: Position | None = None) -> MatchTables:
        """Build the tables for every pair held by ``pairing``.

        ``start``: a match in progress (one pair) continues from its position (with what its
        played games fix for the next game: 甲 from the times, a recorded bid or colour
        choice); the tables then cover the stages from its stage on (earlier stages get an
        empty table) and count games from there.
        """
        stages: list[StageTable | BiddingTable | SealedBidTable | CutTable] = []
        first = 0 if start is None or not isinstance(start.state, MatchState) else start.state.stage
        for s, stage in enumerate(pairing.fmt.playable):
            if s < first:
                stages.append(_empty_table())
            elif start is not None and s == first:
                stages.append(_stage_table(pairing, s, start=start))
            else:
                stages.append(_table(pairing, s, decide(stage, game=0, last_red=None)))
        return cls._assembled(pairing, stages, _branch_values(pairing))

    @classmethod
    def for_points(cls, block: Pairing, points: Sequence[Pairing]) -> list[MatchTables]:
        """Each point's tables, ``[from_pairing(p) for p in points]`` value for value, built
        together for a study's block of grid points.

        ``points`` are matches of one pair each (plain constants) in the same format, under the
        same strategy and ``moves``; ``block`` holds the same pairs, pair ``i`` being
        ``points[i]``'s under its constants (a vectorised model). A stage played game by game
        gets every point's exit table from one solver walk over the pairs (each pair stopping
        as if walked alone); the bidding stage's games, branch values and who is 甲 come from
        array operations over the pairs, its decisions on private beliefs from one search for
        every point's regions (:meth:`~knockout.rules.decisions.strategies.Strategy.samplers`); the
        sealed bids' and cut-and-choose's inputs likewise; any other stage (a colour choice,
        decisions on the truth in a decision stage) is built point by point.
        """
        n = len(points)
        if block.size != n:
            raise ValueError(f"the block holds {block.size} pairs for {n} points")
        per_match = not block.strategy.is_deterministic
        staged: list[list[StageTable | BiddingTable | SealedBidTable | CutTable]] = [
            [] for _ in points
        ]
        for s, stage in enumerate(block.fmt.playable):
            decision = decide(stage, game=0, last_red=None)
            if isinstance(decision, Fixed | Lot):
                per_entry, reachable = _entry_exits(block, s, each_pair=True)
                for i, own in enumerate(_point_exit_tables(per_entry, reachable, n)):
                    staged[i].append(own)
            elif isinstance(decision, Bidding) and per_match:
                games = [p.bidding_game for p in points]
                samplers = block.strategy.samplers([g for g in games if g is not None])
                table = _bidding_table(block, s, sampler=samplers[0])
                for i in range(n):
                    staged[i].append(
                        replace(
                            table,
                            p_a_chooses=table.p_a_chooses[3 * i : 3 * i + 3],
                            advantage=table.advantage[2 * i : 2 * i + 2],
                            cuts=table.cuts[8 * i : 8 * i + 8],
                            sampler=samplers[i],
                        )
                    )
            elif isinstance(decision, SealedBids) and per_match:
                gap = block.sealed_bid_gap()
                for i in range(n):
                    staged[i].append(SealedBidTable(gap[i : i + 1]))
            elif isinstance(decision, CutChoice) and per_match:
                cut = _cut_table(block, s)
                for i in range(n):
                    staged[i].append(
                        CutTable(cut.p_a_cuts[3 * i : 3 * i + 3], cut.advantage[2 * i : 2 * i + 2])
                    )
            else:
                for i, p in enumerate(points):
                    staged[i].append(_table(p, s, decision))
        values = _branch_values(block)
        return [
            cls._assembled(p, staged[i], None if values is None else values[i : i + 1])
            for i, p in enumerate(points)
        ]

    @classmethod
    def _assembled(
        cls,
        pairing: Pairing,
        stages: Sequence[StageTable | BiddingTable | SealedBidTable | CutTable],
        branch_values: FloatArray | None,
    ) -> MatchTables:
        """The tables of ``pairing`` from its stages' tables: the global exit numbering."""
        offsets: list[int] = []
        winner: list[int] = []
        stage_of: list[int] = []
        games: list[int] = []
        choosers: list[int] = []
        announce: list[bool] = []
        objects: list[bool] = []
        before: int | None = 0  # games played before this stage, if the same for every match
        for s, table in enumerate(stages):
            offsets.append(len(winner))
            if isinstance(table, StageTable):
                k_games = table.games.tolist()
                winner += table.winner.tolist()
                choosers += table.chooser.tolist()
                announce += table.announce_red.tolist()
                objects += table.objects.tolist()
                games += [-1 if before is None else before + g for g in k_games]
                stage_of += [s] * len(k_games)
                going_on = set(k_games[: table.n_goes_on])
                before = (
                    before + going_on.pop() if before is not None and len(going_on) == 1 else None
                )
            else:  # decided decision by decision: two exits, A wins / B wins
                winner += [0, 1]
                choosers += [-1, -1]
                announce += [False, False]
                objects += [False, False]
                games += [-1, -1] if before is None else [before + 1, before + 1]
                stage_of += [s, s]
        bid_stage = pairing.fmt.bidding_stage
        matters = [not isinstance(t, StageTable) or t.by_entry for t in stages]
        return cls(
            stage_names=pairing.fmt.stage_names,
            stages=tuple(stages),
            strategy=pairing.strategy,
            game=pairing.bidding_game,
            sealed=pairing.sealed_bid_game,
            n_pairs=pairing.size,
            offsets=tuple(offsets),
            entry_matters=(*matters, False),
            exit_winner=np.array(winner, dtype=np.int8),
            exit_stage=np.array(stage_of, dtype=np.int16),
            exit_games=None if min(games) < 0 else np.array(games, dtype=np.int32),
            exit_chooser=np.array(choosers, dtype=np.int8),
            exit_announce_red=np.array(announce, dtype=bool),
            exit_objects=np.array(objects, dtype=bool),
            branch_values=branch_values,
            bidding_class=None if bid_stage is None else pairing.stage_class(bid_stage).value,
            cut=pairing.cut_game,
        )

    @cached_property
    def exit_probabilities(self) -> FloatArray | None:
        """``(exits,)``: P(a match ends with each global exit), when one distribution holds for
        every match: one pair, every stage drawn from its exact exit table (no private beliefs)
        and games fixed by the exit. The stages' tables composed entry by entry, so the
        distribution is the per-stage walk's. None otherwise."""
        if self.n_pairs != 1 or self.exit_games is None:
            return None
        if not all(isinstance(t, StageTable) for t in self.stages):
            return None
        out = np.zeros(self.exit_winner.size)
        mass = {0: 1.0}  # entry code -> P(entering the stage with it)
        for s, table in enumerate(self.stages):
            assert isinstance(table, StageTable)
            going: dict[int, float] = {}
            for code, m in mass.items():
                row = table.cuts[code if table.varies else 0]
                probs = np.diff(np.concatenate([[0.0], row, [1.0]]))
                for k, pk in enumerate(probs.tolist()):
                    if k < table.n_goes_on:
                        nxt = int(table.entry[k])
                        going[nxt] = going.get(nxt, 0.0) + m * pk
                    else:
                        out[self.offsets[s] + k] += m * pk
            mass = going
            if not mass:
                break
        return np.asarray(np.clip(out, 0.0, None) / out.sum(), dtype=np.float64)

    @cached_property
    def exit_guide(self) -> tuple[FloatArray, npt.NDArray[np.integer]] | None:
        """The inner cut points of :attr:`exit_probabilities` and a guide table over
        :data:`GUIDE_CELLS` equal cells of [0, 1): the exit of a uniform in a cell that holds
        no cut point, or -1 (then one sorted search). None without one distribution."""
        p = self.exit_probabilities
        if p is None:
            return None
        cuts = np.cumsum(p)[:-1]
        edges = np.arange(GUIDE_CELLS + 1) / GUIDE_CELLS  # exact: GUIDE_CELLS is a power of 2
        at_start = np.searchsorted(cuts, edges[:-1], side="right")
        before_end = np.searchsorted(cuts, edges[1:], side="left")
        small = cuts.size < INT8_CUTS  # exit codes as int8: a cheaper gather
        guide: npt.NDArray[np.integer] = np.where(at_start == before_end, at_start, -1).astype(
            np.int8 if small else np.intp
        )
        return cuts, guide

    @cached_property
    def cell_split(self) -> CellSplit | None:
        """:attr:`exit_probabilities` over :data:`COUNT_CELLS` equal cells of [0, 1) (or
        :data:`GUIDE_CELLS` where more than :data:`MAX_SPLIT_CELLS` would hold cut points), for
        :func:`count_exits`. None without one distribution."""
        p = self.exit_probabilities
        if p is None:
            return None
        split = CellSplit.of(p, COUNT_CELLS)
        if split.split_cells > MAX_SPLIT_CELLS:
            return CellSplit.of(p, GUIDE_CELLS)
        return split


@dataclass(frozen=True)
class CellSplit:
    """A distribution over exits seen through ``cells`` equal cells of [0, 1).

    A uniform ``u`` ends with exit ``k`` = the number of cut points (the cumulative
    probabilities) at or below it. A cell that holds no cut point gives every uniform in it
    the same exit. Given that it lies in one of the cells that hold cut points, a uniform is
    uniform over their union, so its exit follows :attr:`split_p` (the sub-intervals' widths by
    exit); the matches of those cells, however they fall among them, thus split among the exits
    as one multinomial: counting cells and splitting that one count is exact in distribution.

    Attributes:
        cells: Number of cells.
        sure: ``(cells, exits + 1)``: 1 where a cell holding no cut point gives that exit;
            the last column is 1 for the cells that hold cut points (so a product with the cell
            counts gives the sure exits' counts and the count left to split).
        split_p: ``(exits,)``: P(exit | the uniform is in a cell that holds cut points).
        variates: Binomial variates of a block's split (beside its one draw per match): one
            fewer than the exits it can give (0 when no cell holds a cut point).
        split_cells: Number of cells that hold cut points.
    """

    cells: int
    sure: npt.NDArray[np.int64]
    split_p: FloatArray
    variates: int
    split_cells: int

    @classmethod
    def of(cls, p: FloatArray, cells: int) -> CellSplit:
        """The split of the exit probabilities ``p`` over ``cells`` (a power of two) cells."""
        k = p.size
        cuts = np.cumsum(p)[:-1]
        left = np.arange(cells) / cells  # exact: cells is a power of two
        right = np.arange(1, cells + 1) / cells
        at_start = np.searchsorted(cuts, left, side="right")  # the exit at the cell's left edge
        before_end = np.searchsorted(cuts, right, side="left")  # ... just before its right edge
        is_sure = at_start == before_end
        sure = np.zeros((cells, k + 1), dtype=np.int64)
        sure[np.flatnonzero(is_sure), at_start[is_sure]] = 1
        sure[np.flatnonzero(~is_sure), k] = 1
        split_p = np.zeros(k)
        split_cells = np.flatnonzero(~is_sure).tolist()
        for cell in split_cells:
            first, last = int(at_start[cell]), int(before_end[cell])
            # the inner cut points' places in the cell, in [0, 1): exact (Sterbenz, then 2**j)
            inner = (cuts[first:last] - left[cell]) * cells
            split_p[first : last + 1] += np.diff(np.concatenate([[0.0], inner, [1.0]]))
        if split_cells:
            split_p /= len(split_cells)
        variates = max(0, int(np.count_nonzero(split_p)) - 1)
        return cls(cells, sure, split_p, variates, len(split_cells))

    def count(self, n: int, rng: np.random.Generator) -> ExitCounts:
        """The exit counts of ``n`` matches: each match's cell is drawn on its own, two matches'
        cells to one integer (up to :data:`COUNT_CELLS` cells: ``rng.integers(0, cells**2)``,
        the first match's cell its high bits, the second's its low bits; an odd last match gets
        the high bits of one more; with more cells one integer a match), and the cells are
        counted by one ``bincount`` of those integers; each cell holding no cut point gives its
        count to its exit, and the matches in the cells that hold cut points are split among
        their exits by one multinomial (``rng.multinomial``).

        An integer uniform on ``[0, cells**2)`` is two independent cells uniform on
        ``[0, cells)``, so the counts are those of one cell drawn per match, from half as many
        generator calls (and half the integers to count) as one integer a match."""
        cells = self._drawn(n, rng)
        if self.cells <= COUNT_CELLS:
            per_cell = _count_cells(cells, n, self.cells)
        else:  # many cells: one index per match
            per_cell = np.bincount(cells, minlength=self.cells)
        counts = per_cell @ self.sure
        per_exit = counts[:-1]
        if self.variates:  # (a cell holding a cut point gives at least two exits)
            per_exit += rng.multinomial(int(counts[-1]), self.split_p)
        return ExitCounts(per_exit, n + self.variates)

    def _drawn(self, n: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """The integers :meth:`count` draws for ``n`` matches: two cells to an integer (up to
        :data:`COUNT_CELLS` cells), else one."""
        if self.cells <= COUNT_CELLS:
            return rng.integers(0, self.cells * self.cells, (n + 1) // 2)
        return rng.integers(0, self.cells, n)

    def draw_only(self, n: int, rng: np.random.Generator) -> None:
        """The generator calls :meth:`count` makes for ``n`` matches and nothing else (the
        split's multinomial on the expected count of its cells): a benchmark's floor."""
        self._drawn(n, rng)
        if self.variates:
            rng.multinomial(n * self.split_cells // self.cells, self.split_p)


@dataclass(frozen=True)
class ExitCounts:
    """Matches per global exit, from :func:`count_exits`.

    Attributes:
        per_exit: ``(exits,)`` matches that ended with each global exit.
        draws: Random variates drawn: one integer per match and the split's binomials.
    """

    per_exit: npt.NDArray[np.int64]
    draws: int


def count_exits(tables: MatchTables, n: int, rng: np.random.Generator) -> ExitCounts | None:
    """The exit counts of ``n`` matches, each drawn on its own, without per-match outcomes.

    Where one exit distribution holds for every match (:attr:`MatchTables.cell_split`; else
    None): :meth:`CellSplit.count`. The counts have the distribution of :func:`simulate`'s
    per-match exits (another stream for a seed).
    """
    split = tables.cell_split
    return None if split is None else split.count(n, rng)


def _count_cells(pairs: npt.NDArray[np.int64], n: int, cells: int) -> npt.NDArray[np.int64]:
    """Matches per cell (``cells`` a power of two) of ``n`` matches whose cells are drawn two to
    an integer of ``pairs`` (the first match's cell times ``cells`` plus the second's): one
    ``bincount`` of the integers, summed over each half of the pair; an odd last match is the
    high half of one more integer."""
    half = n // 2
    joint = np.bincount(pairs[:half], minlength=cells * cells).reshape(cells, cells)
    per_cell: npt.NDArray[np.int64] = np.add.reduce(joint, axis=1)
    per_cell += np.add.reduce(joint, axis=0)
    if n % 2:
        per_cell[int(pairs[half]) // cells] += 1
    return per_cell


def _table(
    pairing: Pairing, s: int, decision: Decision
) -> StageTable | BiddingTable | SealedBidTable | CutTable:
    """The table of stage ``s``, by how its first game is set up: the exact exit distribution,
    or, where players decide on private beliefs, decision by decision per match."""
    per_match = not pairing.strategy.is_deterministic
    match decision:
        case Bidding():
            return _bidding_table(pairing, s) if per_match else _stage_table(pairing, s)
        case SealedBids():
            return (
                SealedBidTable(pairing.sealed_bid_gap()) if per_match else _stage_table(pairing, s)
            )
        case CutChoice():
            return _cut_table(pairing, s) if per_match else _stage_table(pairing, s)
        case Fixed() | Lot() | Choice() | OtherDecision():
            # a colour choice (or an added rule's decision) is the stage's only decision: its
            # exact marginal is enough
            return _stage_table(pairing, s)
        case _:
            assert_never(decision)


def _branch_values(pairing: Pairing) -> FloatArray | None:
    """The bidding branches' values per pair and 甲: ``(n_pairs, 2, 4)``."""
    game = pairing.bidding_game
    if game is None:
        return None
    return np.stack([game.branch_values(pairing.advantage(side)) for side in (0, 1)], axis=1)


def _empty_table() -> StageTable:
    """A stage no match enters (before a match in progress): one exit that goes on."""
    return StageTable(
        cuts=np.zeros((3, 0)),
        varies=False,
        by_entry=False,
        n_goes_on=1,
        games=np.zeros(1, dtype=np.int32),
        winner=np.full(1, -1, dtype=np.int8),
        entry=np.zeros(1, dtype=np.intp),
        chooser=np.full(1, -1, dtype=np.int8),
        announce_red=np.zeros(1, dtype=bool),
        objects=np.zeros(1, dtype=bool),
    )


def _stage_table(pairing: Pairing, s: int, *, start: Position | None = None) -> StageTable:
    per_entry, reachable = _entry_exits(pairing, s, start=start)
    return _exit_table(per_entry, reachable, pairing.size)


EntryExits = dict[Side | None, dict[StageExit, FloatArray]]


def _entry_exits(
    pairing: Pairing, s: int, *, start: Position | None = None, each_pair: bool = False
) -> tuple[EntryExits, tuple[Side | None, ...]]:
    """Stage ``s``'s exact exits from each entry it can be reached with (or from ``start``),
    and those entries (``each_pair``: :func:`~knockout.exact.solver.stage_exits`'s)."""
    if start is not None:
        # A match in progress: every entry code means "from ``start``".
        table = stage_exits(pairing, start)
        per_entry = dict.fromkeys(ENTRIES, table)
        reachable: tuple[Side | None, ...] = ENTRIES
    else:
        # Entry 0 (no previous game) only happens in the first stage, entries 1-2 only later.
        reachable = ENTRIES[:1] if s == 0 else ENTRIES[1:]
        per_entry = {
            last_red: stage_exits(pairing, MatchState(s, 0, 0, last_red), each_pair=each_pair)
            for last_red in reachable
        }
    return per_entry, reachable


def _exit_order(
    per_entry: EntryExits, reachable: tuple[Side | None, ...], n: int, *, positive: bool = False
) -> tuple[list[StageExit], FloatArray]:
    """A stage's exits (those that continue the match first) and their probabilities
    ``(n, 3, exits)`` for ``n`` pairs and each entry code (``positive``: a probability that is
    not above 0 as 0, as a pair walked alone drops the exit)."""
    exits = sorted(
        {e for table in per_entry.values() for e in table},
        key=lambda e: (e.winner >= 0, e),  # exits that continue the match first
    )
    probs = np.zeros((n, len(ENTRIES), len(exits)))
    for j, last_red in enumerate(ENTRIES):
        table = per_entry.get(last_red, per_entry[reachable[0]])
        for k, e in enumerate(exits):
            if e in table:
                p = table[e]
                probs[:, j, k] = np.where(p > 0, p, 0.0) if positive else p
    return exits, probs


def _exit_meaning(exits: Sequence[StageExit]) -> dict[str, Any]:
    """What each exit of a stage's table means (:class:`StageTable`'s fields after ``by_entry``)."""
    return {
        "n_goes_on": sum(e.winner < 0 for e in exits),
        "games": np.array([e.games for e in exits], dtype=np.int32),
        "winner": np.array([e.winner for e in exits], dtype=np.int8),
        "entry": np.array([0 if e.winner >= 0 else e.last_red + 1 for e in exits], dtype=np.intp),
        "chooser": np.array([e.chooser for e in exits], dtype=np.int8),
        "announce_red": np.array([e.announce_red for e in exits], dtype=bool),
        "objects": np.array([e.objects for e in exits], dtype=bool),
    }


def _exit_table(per_entry: EntryExits, reachable: tuple[Side | None, ...], n: int) -> StageTable:
    """A stage's table from its exits per entry, for ``n`` pairs."""
    exits, probs = _exit_order(per_entry, reachable, n)
    cdf = np.cumsum(probs, axis=2)[:, :, :-1]
    cuts = cdf.reshape(n * len(ENTRIES), len(exits) - 1)
    return StageTable(
        cuts=np.ascontiguousarray(cuts),
        varies=not bool(np.all(cuts == cuts[:1])),
        by_entry=not bool(np.all(cdf == cdf[:, :1])),
        **_exit_meaning(exits),
    )


def _point_exit_tables(
    per_entry: EntryExits, reachable: tuple[Side | None, ...], n: int
) -> list[StageTable]:
    """Each of ``n`` one-pair points' stage table from the exits of all of them (pair ``i`` of
    ``per_entry`` is point ``i``): what ``_exit_table`` gives each point alone, keeping the exits
    it reaches with positive probability, value for value. Built once for all points and cut
    into rows where a point reaches every exit any point reaches (the usual case); a point that
    misses one is built alone."""
    exits, probs = _exit_order(per_entry, reachable, n, positive=True)
    reached = probs.max(axis=1) > 0  # (n, exits): the point's own exits
    cdf = np.cumsum(probs, axis=2)[:, :, :-1]
    same = np.all(cdf == cdf[:, :1], axis=(1, 2))  # one point: varies == by_entry
    meaning = _exit_meaning(exits)  # the same arrays for every point
    out: list[StageTable] = []
    for i in range(n):
        if not reached[i].all():
            own = {
                lr: {e: p[i : i + 1] for e, p in table.items() if p[i] > 0}
                for lr, table in per_entry.items()
            }
            out.append(_exit_table(own, reachable, 1))
            continue
        varies = not bool(same[i])
        out.append(StageTable(cuts=cdf[i], varies=varies, by_entry=varies, **meaning))
    return out


def _entry_p_a(pairing: Pairing, s: int) -> FloatArray:
    """P(A decides first) per pair and entry code: ``(n_pairs * 3,)``."""
    n = pairing.size
    p_a = np.stack(
        [
            np.full(n, 0.5)
            if last_red is None
            else pairing.p_a_chooses(MatchState(s, 0, 0, last_red))
            for last_red in ENTRIES
        ],
        axis=1,
    )
    return np.asarray(p_a.reshape(-1), dtype=np.float64)


def _cut_table(pairing: Pairing, s: int) -> CutTable:
    advantage = np.stack([pairing.cut_advantage(0), pairing.cut_advantage(1)], axis=1)
    return CutTable(_entry_p_a(pairing, s), advantage.reshape(-1))


def _bidding_table(
    pairing: Pairing, s: int, *, sampler: DecisionSampler | None = None
) -> BiddingTable:
    """The bidding stage's table (``sampler``: the decisions' sampler, found by the caller)."""
    stage = pairing.fmt.playable[s]
    assert stage.bidding is not None
    n = pairing.size
    p_a = np.stack(
        [
            np.full(n, 0.5)
            if last_red is None
            else pairing.p_a_chooses(MatchState(s, 0, 0, last_red))
            for last_red in ENTRIES
        ],
        axis=1,
    )
    advantage = np.stack([pairing.advantage(0), pairing.advantage(1)], axis=1)
    cuts = np.zeros((n, 2, len(BRANCHES), 2))
    chooser_red = np.zeros(len(BRANCHES), dtype=bool)
    for chooser in (0, 1):
        side: Side = 0 if chooser == 0 else 1
        for k, (announce, reply) in enumerate(BRANCHES):
            colour, clocks = stage.bidding.assignment(announce, reply)
            chooser_red[k] = colour is Colour.RED
            p = pairing.bidding_game_probabilities(side, colour, clocks)
            cuts[:, chooser, k, 0] = p.red
            cuts[:, chooser, k, 1] = p.red + p.draw
    game = pairing.bidding_game
    assert game is not None
    return BiddingTable(
        p_a_chooses=p_a.reshape(-1),
        advantage=advantage.reshape(-1),
        cuts=cuts.reshape(-1, 2),
        chooser_red=chooser_red,
        draw_to_black=stage.draw_winner is Colour.BLACK,
        sampler=pairing.strategy.sampler(game) if sampler is None else sampler,
    )


@dataclass(frozen=True)
class MatchOutcomes:
    """Per-match results of :func:`simulate`, each of shape ``(n,)``.

    Every match ends with one global exit (:attr:`exit_code`); winner, stage and, where the
    format fixes them, games and bidding decisions are decoded from it on first use. Counting
    outcomes only needs one ``bincount`` of the exit codes.

    Attributes:
        tables: The tables the matches were drawn from.
        exit_code: Global exit of each match.
        games_played: Games per match, when they are not decoded from the exit.
        drawn_chooser: 甲 per match (-1: not reached), when drawn decision by decision.
        drawn_announce_red: 甲 announced Red, when drawn decision by decision.
        drawn_objects: 乙 objected, when drawn decision by decision.
        draws: Random numbers drawn (uniforms, and the beliefs' Normals).
    """

    tables: MatchTables
    exit_code: npt.NDArray[np.integer]
    games_played: npt.NDArray[np.int32] | None
    drawn_chooser: npt.NDArray[np.int8] | None
    drawn_announce_red: BoolArray | None
    drawn_objects: BoolArray | None
    draws: int = 0

    @cached_property
    def winner(self) -> npt.NDArray[np.int8]:
        """Side that advanced (0 = A, 1 = B)."""
        return np.take(self.tables.exit_winner, self.exit_code)

    @cached_property
    def stage(self) -> npt.NDArray[np.int16]:
        """Index of the stage that decided the match."""
        return np.take(self.tables.exit_stage, self.exit_code)

    @cached_property
    def games(self) -> npt.NDArray[np.int32]:
        """Games played."""
        if self.games_played is not None:
            return self.games_played
        assert self.tables.exit_games is not None
        return np.take(self.tables.exit_games, self.exit_code)

    @cached_property
    def chooser(self) -> npt.NDArray[np.int8]:
        """Side that was 甲, or -1 if the bidding stage was not reached."""
        if self.drawn_chooser is not None:
            return self.drawn_chooser
        return np.take(self.tables.exit_chooser, self.exit_code)

    @cached_property
    def announce_red(self) -> BoolArray:
        """甲 announced Red (False where not reached)."""
        if self.drawn_announce_red is not None:
            return self.drawn_announce_red
        return np.take(self.tables.exit_announce_red, self.exit_code)

    @cached_property
    def objects(self) -> BoolArray:
        """乙 objected (False where not reached)."""
        if self.drawn_objects is not None:
            return self.drawn_objects
        return np.take(self.tables.exit_objects, self.exit_code)


def simulate(
    tables: MatchTables, n: int, rng: np.random.Generator, pair: IntArray | None = None
) -> MatchOutcomes:
    """Simulate ``n`` matches; match ``i`` is between the sides of pair ``pair[i]`` (default 0).

    Where one exit distribution holds for every match (:attr:`MatchTables.exit_probabilities`:
    one pair, no private beliefs) each match is one uniform against it; otherwise random
    numbers are drawn stage by stage for the matches still alive, in a fixed order. Either way
    the result depends only on ``rng``'s state, and :attr:`MatchOutcomes.draws` says how many
    random numbers were drawn. Each match ends with one global exit code, which decodes into
    winner, stage, games and bidding at the end.
    """
    guide = tables.exit_guide if pair is None else None
    if guide is not None:
        code = _draw_global(guide, rng.random(n))
        return MatchOutcomes(tables, code, None, None, None, None, draws=n)
    return _simulate_stages(tables, n, rng, pair)


def _simulate_stages(
    tables: MatchTables, n: int, rng: np.random.Generator, pair: IntArray | None
) -> MatchOutcomes:
    """The stage-by-stage walk of :func:`simulate`."""
    drawn = 0
    exit_code = np.empty(n, dtype=np.intp)
    decode_games = tables.exit_games is not None
    games = np.empty(0 if decode_games else n, dtype=np.int32)
    by_decision = any(isinstance(t, BiddingTable) for t in tables.stages)
    chooser = np.full(n if by_decision else 0, -1, dtype=np.int8)
    announce_red = np.zeros(n if by_decision else 0, dtype=bool)
    objects = np.zeros(n if by_decision else 0, dtype=bool)
    # The matches still alive, compacted: indices (None = all n), pair, entry code, games so far.
    idx: IntArray | None = None
    pairs: IntArray | None = None
    if tables.n_pairs > 1:
        pairs = np.zeros(n, dtype=np.intp) if pair is None else np.asarray(pair, dtype=np.intp)
    entry: IntArray | None = None
    played: npt.NDArray[np.int32] | None = None
    for s, table in enumerate(tables.stages):
        m = n if idx is None else idx.size
        if m == 0:
            break
        if isinstance(table, SealedBidTable | CutTable):
            alive = np.arange(n, dtype=np.intp) if idx is None else idx
            sealed = isinstance(table, SealedBidTable)
            # sealed: two bids (beliefs), the game; cut: the cutter, two estimates, the game
            drawn += (3 if sealed else 4) * alive.size
            draw = _draw_sealed if sealed else _draw_cut
            exit_code[alive] = tables.offsets[s] + draw(tables, table, rng, alive, pairs, entry)  # type: ignore[arg-type]
            if not decode_games:
                games[alive] = 1 if played is None else played + 1
            break
        if isinstance(table, BiddingTable):
            alive = np.arange(n, dtype=np.intp) if idx is None else idx
            drawn += 4 * alive.size  # 甲, two beliefs, the game
            _draw_bidding(
                tables,
                table,
                rng,
                s,
                alive,
                pairs,
                entry,
                played,
                exit_code,
                games,
                chooser,
                announce_red,
                objects,
            )
            break
        drawn += m
        k = _draw_exit(table, rng.random(m), pairs, entry)
        _store_exits(exit_code, idx, k, tables.offsets[s])
        if not decode_games:
            g = np.take(table.games, k)
            if played is not None:
                g += played
            games[slice(None) if idx is None else idx] = g
        cont = np.flatnonzero(k < table.n_goes_on)
        if cont.size == 0:
            break
        idx = cont if idx is None else np.take(idx, cont)
        k_cont = np.take(k, cont)
        entry = np.take(table.entry, k_cont) if tables.entry_matters[s + 1] else None
        if pairs is not None:
            pairs = np.take(pairs, cont)
        if not decode_games:
            played = np.take(g, cont)
    return MatchOutcomes(
        tables=tables,
        exit_code=exit_code,
        games_played=None if decode_games else games,
        drawn_chooser=chooser if by_decision else None,
        drawn_announce_red=announce_red if by_decision else None,
        drawn_objects=objects if by_decision else None,
        draws=drawn,
    )


def _draw_global(
    guide: tuple[FloatArray, npt.NDArray[np.integer]], u: FloatArray
) -> npt.NDArray[np.integer]:
    """Global exit of each uniform: the guide table's, a sorted search where a cell holds a cut
    point (the same exit as ``searchsorted(cuts, u, side="right")`` for every ``u``)."""
    cuts, table = guide
    cell = np.empty(u.shape, dtype=np.intp)
    np.multiply(u, GUIDE_CELLS, out=cell, casting="unsafe")  # floor: u >= 0, exact scaling
    k = np.take(table, cell)
    unsure = np.flatnonzero(k < 0)
    if unsure.size:
        k[unsure] = np.searchsorted(cuts, np.take(u, unsure), side="right")
    return k


def _store_exits(
    exit_code: IntArray, idx: IntArray | None, k: npt.NDArray[np.integer], offset: int
) -> None:
    """Global exit codes (stage offset + exit index) of the matches ``idx`` (None: all)."""
    shift = np.intp(offset)  # a numpy scalar: the sum is computed in intp, whatever k's width
    if idx is None:
        np.add(k, shift, out=exit_code, casting="unsafe")
    else:
        exit_code[idx] = k + shift


#: Below this many cut points a stage's exit index is counted in int8 (a free view of the
#: comparison); longer stages (a custom stage of 140 games has about 280 exits) use wider integers.
INT8_CUTS = 127


def _draw_exit(
    table: StageTable, u: FloatArray, pairs: IntArray | None, entry: IntArray | None
) -> npt.NDArray[np.integer]:
    """Exit index of each match: the number of cut points at or below its uniform draw."""
    cuts = table.cuts
    small = cuts.shape[1] < INT8_CUTS
    if not table.varies or (pairs is None and entry is None):
        row_cuts = cuts[0]
        if not small:  # cut points are cumulative, so sorted
            return np.searchsorted(row_cuts, u, side="right")
        k8 = np.zeros(u.shape, dtype=np.int8)
        for c in row_cuts:
            k8 += (u >= c).view(np.int8)
        return k8
    columns = table.columns
    n_pairs = cuts.shape[0] // len(ENTRIES)
    if entry is None:
        row = pairs
    elif pairs is None:
        row = entry * n_pairs
    else:
        row = entry * n_pairs + pairs
    assert row is not None
    if small:
        k8 = np.zeros(u.shape, dtype=np.int8)
        for column in columns:
            k8 += (u >= np.take(column, row)).view(np.int8)
        return k8
    k = np.zeros(u.shape, dtype=np.intp)
    for column in columns:
        k += u >= np.take(column, row)
    return k


def _draw_cut(
    tables: MatchTables,
    table: CutTable,
    rng: np.random.Generator,
    alive: IntArray,
    pairs: IntArray | None,
    entry: IntArray | None,
) -> IntArray:
    """The cut-and-choose game decision by decision: the cutter, the cut and the colour on
    each match's own estimates, then the game; 0 if A advances."""
    assert tables.cut is not None
    m = alive.size
    pair_rows = np.zeros(m, dtype=np.intp) if pairs is None else pairs
    entry_rows = np.zeros(m, dtype=np.intp) if entry is None else entry
    p_a = np.take(table.p_a_cuts, pair_rows * 3 + entry_rows)
    cutter = (rng.random(m) >= p_a).astype(np.intp)  # 0: A cuts, 1: B cuts
    x = np.take(table.advantage, pair_rows * 2 + cutter)
    cut, red = tables.strategy.cut_sample(tables.cut, x, rng)
    cutter_wins = rng.random(m) < tables.cut.cutter_advances(x, cut, red)
    return np.where(cutter_wins, cutter, 1 - cutter).astype(np.intp)


def _draw_sealed(
    tables: MatchTables,
    table: SealedBidTable,
    rng: np.random.Generator,
    alive: IntArray,
    pairs: IntArray | None,
    entry: IntArray | None = None,
) -> IntArray:
    """The sealed-bid stage bid by bid: each match's bids, then the game; 0 if A advances."""
    assert tables.sealed is not None
    gap = np.take(table.gap, np.zeros(alive.size, dtype=np.intp) if pairs is None else pairs)
    bid_a, bid_b = tables.strategy.sealed_bids(tables.sealed, gap, rng)
    a_wins = rng.random(alive.size) < tables.sealed.a_advances(gap, bid_a, bid_b)
    return np.where(a_wins, 0, 1).astype(np.intp)


def _draw_bidding(
    tables: MatchTables,
    table: BiddingTable,
    rng: np.random.Generator,
    s: int,
    alive: IntArray,
    pairs: IntArray | None,
    entry: IntArray | None,
    played: npt.NDArray[np.int32] | None,
    exit_code: IntArray,
    games: npt.NDArray[np.int32],
    chooser_out: npt.NDArray[np.int8],
    announce_out: BoolArray,
    objects_out: BoolArray,
) -> None:
    """The bidding stage decision by decision: 甲, each match's beliefs, then the game."""
    m = alive.size
    pair_rows = np.zeros(m, dtype=np.intp) if pairs is None else pairs
    entry_rows = np.zeros(m, dtype=np.intp) if entry is None else entry
    p_a = np.take(table.p_a_chooses, pair_rows * 3 + entry_rows)
    chooser = (rng.random(m) >= p_a).astype(np.intp)  # 0: A is 甲, 1: B is 甲
    row = pair_rows * 2 + chooser
    sample = table.sampler.sample(np.take(table.advantage, row), rng)
    branch = np.where(sample.announce_red, 0, 2) + sample.objects
    cut_row = row * 4 + branch
    u = rng.random(m)
    red_wins = u < np.take(table.cuts[:, 0], cut_row)
    draw = ~red_wins & (u < np.take(table.cuts[:, 1], cut_row))
    red_side = np.where(np.take(table.chooser_red, branch), chooser, 1 - chooser)
    red_through = red_wins | draw if not table.draw_to_black else red_wins
    winner = np.where(red_through, red_side, 1 - red_side)
    exit_code[alive] = tables.offsets[s] + winner  # the stage's two exits: A wins, B wins
    if tables.exit_games is None:
        games[alive] = 1 if played is None else played + 1
    chooser_out[alive] = chooser
    announce_out[alive] = sample.announce_red
    objects_out[alive] = sample.objects


@dataclass
class WalkCounts:
    """The counts of :func:`count_walk`: what a tally needs, without per-match outcomes.

    Attributes:
        per_exit: ``(exits,)`` matches that ended with each global exit.
        games: Matches by games played.
        reached: Matches that reached a bidding stage drawn decision by decision.
        chooser_a: ... in which A was 甲.
        chooser_won: ... in which 甲 advanced.
        chooser_a_won: ... in which A was 甲 and advanced.
        announce_red: ... in which 甲 announced Red.
        objects: ... in which 乙 objected.
        draws: Random numbers drawn (uniforms, and the beliefs' Normals), as :func:`simulate`
            draws for the same matches.
    """

    per_exit: npt.NDArray[np.int64]
    games: dict[int, int]
    reached: int = 0
    chooser_a: int = 0
    chooser_won: int = 0
    chooser_a_won: int = 0
    announce_red: int = 0
    objects: int = 0
    draws: int = 0

    def ended(self, exit_code: int, games: int, matches: int) -> None:
        """``matches`` matches ended with ``exit_code`` after ``games`` games."""
        self.per_exit[exit_code] += matches
        self.games[games] = self.games.get(games, 0) + matches


def count_walk(tables: MatchTables, n: int, rng: np.random.Generator) -> WalkCounts | None:
    """The stage-by-stage walk of :func:`simulate` for ``n`` matches of one pair, counted as it
    goes instead of match by match (None for tables of several pairs).

    The matches alive at a stage fall into a few groups by how they entered it (who had Red
    last, where that matters, and the games played so far); every match of a group has the same
    distribution in the stage. Each match still draws its own random numbers, as
    :func:`simulate` draws them (one uniform in a stage played game by game; in a bidding stage
    decided on private beliefs: 甲, 甲's and 乙's beliefs, the game), but the draws are compared
    with their group's cut points and counted, with no per-match index kept from stage to
    stage. Within a group the matches are exchangeable, so whichever of them a draw goes to, the
    counts have the distribution of :func:`simulate`'s per-match outcomes (another stream for a
    seed).
    """
    if tables.n_pairs != 1:
        return None
    out = WalkCounts(np.zeros(tables.exit_winner.size, dtype=np.int64), {})
    groups: dict[tuple[int, int], int] = {(0, 0): n}  # (entry code, games so far) -> matches
    for s, table in enumerate(tables.stages):
        if not isinstance(table, StageTable):
            _walk_decided(tables, s, table, sorted(groups.items()), rng, out)
            break
        groups = _walk_stage(tables, s, table, sorted(groups.items()), rng, out)
        if not groups:
            break
    return out


Groups = list[tuple[tuple[int, int], int]]


def _walk_stage(
    tables: MatchTables,
    s: int,
    table: StageTable,
    groups: Groups,
    rng: np.random.Generator,
    out: WalkCounts,
) -> dict[tuple[int, int], int]:
    """Stage ``s``, played game by game, for each group of the matches that entered it
    (``((entry code, games so far), matches)``): one uniform a match, counted by exit; the
    groups entering the next stage."""
    entered: dict[tuple[int, int], int] = {}
    tracked = tables.entry_matters[s + 1]
    for (entry, played), m in groups:
        out.draws += m
        per_exit = _group_exits(table, entry, rng.random(m))
        for k in np.flatnonzero(per_exit).tolist():
            g = played + int(table.games[k])
            c = int(per_exit[k])
            if k < table.n_goes_on:
                code = int(table.entry[k]) if tracked else 0
                entered[code, g] = entered.get((code, g), 0) + c
            else:
                out.ended(tables.offsets[s] + k, g, c)
    return entered


def _walk_decided(
    tables: MatchTables,
    s: int,
    table: BiddingTable | SealedBidTable | CutTable,
    groups: Groups,
    rng: np.random.Generator,
    out: WalkCounts,
) -> None:
    """Stage ``s``, decided decision by decision: every match ends here, in one game, with one
    of its two exits (A wins, B wins)."""
    for (_, played), m in groups:
        out.games[played + 1] = out.games.get(played + 1, 0) + m
    total = sum(m for _, m in groups)
    if isinstance(table, BiddingTable):
        out.draws += 4 * total  # 甲, two beliefs, the game
        b_wins = _bidding_counts(table, [(e, m) for (e, _), m in groups], rng, out)
    else:
        sealed = isinstance(table, SealedBidTable)
        out.draws += (3 if sealed else 4) * total  # as simulate draws them
        b_wins = 0
        for (entry, _), m in groups:
            alive = np.arange(m, dtype=np.intp)
            codes = np.full(m, entry, dtype=np.intp)
            if isinstance(table, SealedBidTable):
                winner = _draw_sealed(tables, table, rng, alive, None, codes)
            else:
                winner = _draw_cut(tables, table, rng, alive, None, codes)
            b_wins += int(np.count_nonzero(winner))
    out.per_exit[tables.offsets[s]] += total - b_wins
    out.per_exit[tables.offsets[s] + 1] += b_wins


def _group_exits(table: StageTable, entry: int, u: FloatArray) -> npt.NDArray[np.int64]:
    """Matches of one group (entry code ``entry``) per exit of the stage, from their uniforms:
    a match's exit is the number of cut points at or below its draw (:func:`_draw_exit`), so the
    matches at or past exit ``j`` are those drawing at least cut ``j - 1`` (cut points are
    cumulative, so sorted): one comparison and count per cut point (a stage with many exits,
    or cut points out of order by rounding: the exit indices counted)."""
    row = entry if table.varies else 0
    cuts = table.cuts[row]
    k = cuts.size + 1
    sorted_rows = table.sorted_rows
    if sorted_rows is not None:
        at_least = np.empty(k + 1, dtype=np.int64)
        at_least[0], at_least[k] = u.size, 0
        for j, c in enumerate(sorted_rows[row], start=1):
            at_least[j] = np.count_nonzero(u >= c)
        return at_least[:-1] - at_least[1:]
    if cuts.size < INT8_CUTS:
        index: npt.NDArray[np.integer] = np.zeros(u.shape, dtype=np.int8)
        for c in cuts:
            index += (u >= c).view(np.int8)
    else:
        index = np.searchsorted(cuts, u, side="right")
    return np.bincount(index, minlength=k).astype(np.int64)


def _bidding_counts(
    table: BiddingTable, groups: list[tuple[int, int]], rng: np.random.Generator, out: WalkCounts
) -> int:
    """The bidding stage decision by decision (as :func:`_draw_bidding`: 甲, the decisions on
    each match's beliefs, the game) for the matches that entered it, ``(entry code, matches)``
    per group, counted into ``out``; the matches B won.

    The draws: 甲 for every match (its group's chance that A is 甲); the decisions for the
    matches where A is 甲, then for those where B is (:func:`_branch_counts`); each match's
    game, the matches taken by 甲 and branch."""
    u = rng.random(sum(m for _, m in groups))
    start = b_chooses = 0
    for entry, m in groups:
        b_chooses += int(np.count_nonzero(u[start : start + m] >= table.p_a_chooses[entry]))
        start += m
    sizes = (u.size - b_chooses, b_chooses)
    per_branch = _branch_counts(table.sampler, table.advantage[:2].tolist(), sizes, rng)
    game = rng.random(u.size)
    start = b_wins = 0
    red_through_at = 0 if table.draw_to_black else 1  # the cut a Red win or draw is below
    cuts = table.cuts[: 2 * len(BRANCHES), red_through_at].tolist()
    for chooser, counts in enumerate(per_branch):
        chooser_wins = 0
        for branch, mb in enumerate(counts):
            red = int(np.count_nonzero(game[start : start + mb] < cuts[chooser * 4 + branch]))
            start += mb
            chooser_wins += red if table.chooser_red[branch] else mb - red
        out.chooser_won += chooser_wins
        out.announce_red += counts[0] + counts[1]
        out.objects += counts[1] + counts[3]
        if chooser == 0:
            out.chooser_a += sizes[0]
            out.chooser_a_won += chooser_wins
            b_wins += sizes[0] - chooser_wins
        else:
            b_wins += chooser_wins
    out.reached += u.size
    return b_wins


def _branch_counts(
    sampler: DecisionSampler,
    advantage: list[float],
    sizes: tuple[int, int],
    rng: np.random.Generator,
) -> list[list[int]]:
    """Matches per bidding branch (``BRANCHES`` order) when A is 甲 (the first ``sizes[0]``
    matches, 甲 ``advantage[0]`` stronger) and when B is (the next ``sizes[1]``): the sampler's
    draws (under private beliefs: every match's 甲's belief, then every match's 乙's), counted.

    A :class:`~knockout.rules.bidding.BeliefSampler`'s belief ``x + e`` (``e`` its Normal
    error) lies in a region when ``e`` lies in the region moved by ``-x``; the errors are counted
    region by region (:func:`_inside_count`), 乙's first errors of each 甲 going to the matches
    where 甲 announced Red. Any other sampler's decisions are drawn per match and counted."""
    m = sizes[0] + sizes[1]
    if not isinstance(sampler, BeliefSampler):
        sample = sampler.sample(np.repeat(np.asarray(advantage, dtype=np.float64), sizes), rng)
        code = np.repeat(np.arange(2) * 4, sizes) + np.where(sample.announce_red, 0, 2)
        code += sample.objects
        counts: list[list[int]] = np.bincount(code, minlength=8).reshape(2, 4).tolist()
        return counts
    chooser_errors = rng.normal(0.0, sampler.belief_sd, m)
    reply_errors = rng.normal(0.0, sampler.belief_sd, m)
    out: list[list[int]] = []
    start = 0
    for shift, size in zip(advantage, sizes, strict=True):
        end = start + size
        red = _inside_count(sampler.announce_red - shift, chooser_errors[start:end])
        object_red = _inside_count(sampler.object_red - shift, reply_errors[start : start + red])
        object_black = _inside_count(sampler.object_black - shift, reply_errors[start + red : end])
        out.append([red - object_red, object_red, size - red - object_black, object_black])
        start = end
    return out


def _inside_count(bounds: FloatArray, y: FloatArray) -> int:
    """How many of ``y`` lie in the regions with these sorted bounds (``lo <= y < hi``, as
    :func:`~knockout.rules.bidding.inside`): ``y`` past an even number of bounds is outside,
    past an odd number inside, so the count is the alternating sum over the bounds of the
    values at or above each."""
    total = 0
    for j, bound in enumerate(bounds.tolist()):
        above = int(np.count_nonzero(y >= bound))
        total += -above if j % 2 else above
    return total
