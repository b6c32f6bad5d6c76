"""Exact odds of many formats at once, composed stage by stage.

A match reaches a stage level, and the stage ends in one of four ways: A wins, B wins, or it
goes on with A or B having had Red in its last game. How a stage ends depends only on the stage
itself, on who had Red last when it started, and (for a few rules) on what came before it: the
clocks of the previous game (they decide 甲 for the bidding rule) and how many games were played
(a ``first-black`` chooser reads the first game's colours off them). So each distinct stage, in
its context (:class:`StageKey`), is walked once through the match chain
(:func:`~knockout.exact.solver.transitions`, the same rule book every walker uses), for every
pair of players at once (:func:`stage_profile`); a format is then a product of its stages'
4-way exit tables, and :func:`compose` multiplies them for many formats and pairs in a few
array operations. The answers equal :func:`~knockout.exact.solver.solve` on each format to
rounding (checked in the tests), at a small fraction of its cost when formats share stages.

Beside the odds, each stage carries its expected games and minutes (``Pairing.game_minutes``:
effective clocks times the players' mean speeds), the mass with which 甲 advances in a bidding
stage, and the distribution of its number of games, from which :func:`reserved_quantile`
gives a quantile of the time a match may hold a board (every game counted at its full clocks,
:func:`full_minutes`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from knockout.arrays import FloatArray, IntArray
from knockout.exact.solver import Transition, transitions
from knockout.rules.book.formats import ColourRule, Format, Stage
from knockout.rules.chain.match import Finished, MatchState
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.kinds import Side
from knockout.rules.model.strength import ModelParams

__all__ = [
    "Composed",
    "StageKey",
    "StageProfile",
    "compose",
    "full_minutes",
    "longest_minutes",
    "profiles_of",
    "reserved_quantile",
    "stage_keys",
    "stage_profile",
]

#: Entry rows of a stage: 0 = the match's first stage, 1 = A had Red last, 2 = B had Red last.
#: Exit columns: 0 = A wins, 1 = B wins, 2 = goes on with A Red last, 3 = with B Red last.
ENTRY_ROWS, EXIT_COLUMNS = 3, 4


@dataclass(frozen=True)
class StageKey:
    """A stage in the context that decides how it ends.

    Attributes:
        stage: The stage.
        first: Whether it is the match's first stage (no previous game).
        previous: The stage played before it, where its clocks matter (a bidding stage whose
            甲 used less time in the previous game); else None.
        parity: Games played before it, mod 2, where a rule reads the first game's colours
            (a ``first-black`` chooser); else None.
    """

    stage: Stage
    first: bool
    previous: Stage | None = None
    parity: int | None = None

    def format(self) -> tuple[Format, int]:
        """A format in which this stage sits in its context, and its index there: the
        previous stage (or a one-game stand-in) and, where parity matters, one more game."""
        if self.first:
            return Format("custom", (self.stage,)), 0
        before = self.previous or Stage("before", 1, None)
        stages = [before]
        played = before.most_games or 0
        if self.parity is not None and played % 2 != self.parity:
            stages.insert(0, Stage("filler", 1, None))
        return Format("custom", (*stages, self.stage)), len(stages)


def stage_keys(fmt: Format) -> list[StageKey]:
    """The context key of each playable stage of ``fmt``, in order."""
    keys = []
    playable = fmt.playable
    for i, stage in enumerate(playable):
        less_time = stage.bidding is not None and stage.is_bidding
        less_time = less_time and stage.bidding is not None and stage.bidding.priority != "lot"
        previous = playable[i - 1] if i > 0 and less_time else None
        parity = None
        if stage.colours is ColourRule.CHOICE and stage.chooser == "first-black":
            before = fmt.games_before(i)
            parity = None if before is None else before % 2
        keys.append(StageKey(stage, i == 0, previous, parity))
    return keys


@dataclass(frozen=True)
class StageProfile:
    """How a stage ends, for ``n`` pairs and each entry row (``ENTRY_ROWS``).

    Attributes:
        exits: ``(n, 3, 4)``: P(each exit | entry row).
        games: ``(n, 3)``: expected games played in the stage.
        minutes: ``(n, 3)``: expected playing minutes in the stage.
        chooser: ``(n, 3)``: P(a bidding stage's 甲 advances | entry row); 0 elsewhere.
        lengths: Per entry row, ``{(games, exit column): (n,)}``: the joint distribution of the
            stage's games and its exit.
    """

    exits: FloatArray
    games: FloatArray
    minutes: FloatArray
    chooser: FloatArray
    lengths: tuple[dict[tuple[int, int], FloatArray], ...]


def stage_profile(pairing: Pairing, stage_index: int, *, tolerance: float = 1e-15) -> StageProfile:
    """Walk stage ``stage_index`` of ``pairing.fmt`` from every entry it can have.

    A repeating stage is followed until less than ``tolerance`` is in play, as
    :func:`~knockout.exact.solver.solve` does (the rest is left out, as its ``unresolved``).
    """
    n = pairing.size
    exits = np.zeros((n, ENTRY_ROWS, EXIT_COLUMNS))
    games = np.zeros((n, ENTRY_ROWS))
    minutes = np.zeros((n, ENTRY_ROWS))
    chooser = np.zeros((n, ENTRY_ROWS))
    lengths: list[dict[tuple[int, int], FloatArray]] = [{} for _ in range(ENTRY_ROWS)]
    memo: dict[MatchState, list[Transition]] = {}
    entries: tuple[Side | None, ...] = (None,) if stage_index == 0 else (0, 1)
    for last_red in entries:
        row = 0 if last_red is None else last_red + 1
        frontier: dict[MatchState, FloatArray] = {
            MatchState(stage_index, 0, 0, last_red): np.ones(n)
        }
        k = 0
        while frontier:
            k += 1
            nxt: dict[MatchState, FloatArray] = defaultdict(lambda: np.zeros(n))
            for state, mass in frontier.items():
                if state not in memo:
                    memo[state] = list(transitions(pairing, state))
                for prob, outcome, tag, mins in memo[state]:
                    m = mass * prob
                    games[:, row] += m
                    minutes[:, row] += m * mins
                    column: int
                    if isinstance(outcome, Finished):
                        column = outcome.winner
                        if tag is not None and tag.chooser == outcome.winner:
                            chooser[:, row] += m
                    elif outcome.stage != stage_index:
                        assert outcome.last_red is not None
                        column = 2 + outcome.last_red
                    else:
                        nxt[outcome] = nxt[outcome] + m
                        continue
                    exits[:, row, column] += m
                    key = (k, column)
                    lengths[row][key] = lengths[row].get(key, np.zeros(n)) + m
            frontier = dict(nxt)
            if frontier and float(np.max(sum(frontier.values(), np.zeros(n)))) < tolerance:
                break
    return StageProfile(exits, games, minutes, chooser, tuple(lengths))


@dataclass(frozen=True)
class Composed:
    """The composed answers for ``F`` formats and ``n`` pairs.

    Attributes:
        win: ``(F, n)``: P(A advances).
        lose: ``(F, n)``: P(B advances).
        games: ``(F, n)``: expected games.
        minutes: ``(F, n)``: expected playing minutes.
        last_reached: ``(F, n)``: P(the last stage is played).
        last_decided: ``(F, n)``: P(the match is decided in its last stage).
        chooser_share: ``(F, n)``: P(甲 advances | the last stage is played), for a bidding
            last stage (NaN where it is never reached).
    """

    win: FloatArray
    lose: FloatArray
    games: FloatArray
    minutes: FloatArray
    last_reached: FloatArray
    last_decided: FloatArray
    chooser_share: FloatArray


def _stack(profiles: Sequence[StageProfile]) -> tuple[FloatArray, ...]:
    """The profiles' arrays stacked, with one all-zero profile last (a stage slot a format does
    not have: nothing reaches it)."""
    n = profiles[0].exits.shape[0]
    zero = StageProfile(
        np.zeros((n, ENTRY_ROWS, EXIT_COLUMNS)),
        np.zeros((n, ENTRY_ROWS)),
        np.zeros((n, ENTRY_ROWS)),
        np.zeros((n, ENTRY_ROWS)),
        (),
    )
    every = [*profiles, zero]
    return tuple(
        np.stack([getattr(p, name) for p in every])
        for name in ("exits", "games", "minutes", "chooser")
    )


def compose(profiles: Sequence[StageProfile], ids: IntArray, lengths: IntArray) -> Composed:
    """Compose formats from stage profiles.

    Args:
        profiles: ``K`` profiles over the same ``n`` pairs.
        ids: ``(F, S)``: format ``f``'s playable stages, as indices into ``profiles``, in
            order; slots past its last stage are ignored.
        lengths: ``(F,)``: how many playable stages each format has (1 .. S).
    """
    exits, games_k, minutes_k, chooser_k = _stack(profiles)
    f, slots = ids.shape
    n = exits.shape[1]
    none = len(profiles)
    columns = np.arange(slots)[None, :]
    ids = np.where(columns < lengths[:, None], ids, none)
    entry = np.zeros((f, n, ENTRY_ROWS))
    entry[:, :, 0] = 1.0
    win, lose, games, minutes = (np.zeros((f, n)) for _ in range(4))
    last_reached, last_decided, chooser = (np.zeros((f, n)) for _ in range(3))
    for s in range(slots):
        k = ids[:, s]
        out = np.einsum("fne,fnex->fnx", entry, exits[k])
        games += np.einsum("fne,fne->fn", entry, games_k[k])
        minutes += np.einsum("fne,fne->fn", entry, minutes_k[k])
        is_last = (lengths - 1 == s)[:, None]
        reached = entry.sum(axis=2)
        last_reached = np.where(is_last, reached, last_reached)
        last_decided = np.where(is_last, out[..., 0] + out[..., 1], last_decided)
        chooser = np.where(is_last, np.einsum("fne,fne->fn", entry, chooser_k[k]), chooser)
        win += out[..., 0]
        lose += out[..., 1]
        entry = np.zeros((f, n, ENTRY_ROWS))
        entry[:, :, 1:] = out[..., 2:]
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(last_reached > 0, chooser / last_reached, np.nan)
    return Composed(win, lose, games, minutes, last_reached, last_decided, share)


def full_minutes(stage: Stage, model: ModelParams) -> float:
    """The longest one game of ``stage`` can last: both effective clocks used up (for a stage
    whose players decide the clocks, the longest pair they can have)."""
    if stage.is_bidding and stage.bidding is not None:
        menu = stage.bidding
        pairs = [menu.accept, menu.object_red, menu.object_black]
    elif stage.is_sealed_bid and stage.sealed_bid is not None:
        red = stage.sealed_bid.red_minutes
        pairs = [(red, red)]
    else:
        pairs = [stage.minutes]
    added = float(model.moves) * stage.increment_seconds / 60  # the effective clock's
    return max(red + black + 2 * added for red, black in pairs)


def longest_minutes(fmt: Format, model: ModelParams) -> float:
    """The longest match ``fmt`` can have, every game at its full clocks (infinite when a stage
    repeats without a cap)."""
    total = 0.0
    for stage in fmt.playable:
        most = stage.most_games
        if most is None:
            return float("inf")
        total += most * full_minutes(stage, model)
    return total


def reserved_quantile(
    profiles: Sequence[StageProfile],
    ids: Sequence[int],
    full: Sequence[float],
    pair: int,
    q: float,
) -> float:
    """The ``q`` quantile of the time a match holds a board, every game counted at its full
    clocks: the distribution of the games played in each stage, composed along one format.

    Args:
        profiles: The stage profiles.
        ids: The format's playable stages, as indices into ``profiles``.
        full: Each of those stages' full-clock game length (:func:`full_minutes`).
        pair: Which pair of the profiles.
        q: The quantile (e.g. 0.99).
    """
    ended: dict[float, float] = defaultdict(float)
    going: dict[tuple[int, float], float] = {(0, 0.0): 1.0}
    for k, length in zip(ids, full, strict=True):
        after: dict[tuple[int, float], float] = defaultdict(float)
        for (row, spent), mass in going.items():
            for (games, column), p in profiles[k].lengths[row].items():
                m = mass * float(p[pair])
                if m <= 0.0:
                    continue
                total = spent + games * length
                if column < 2:
                    ended[total] += m
                else:
                    after[(column - 1, total)] += m
        going = after
    return _quantile(ended, q)


def _quantile(masses: dict[float, float], q: float) -> float:
    """The smallest value whose cumulative mass reaches ``q`` of the total."""
    values = sorted(masses)
    cumulative = np.cumsum([masses[v] for v in values])
    if cumulative.size == 0:
        return float("nan")
    target = q * float(cumulative[-1])
    i = int(np.searchsorted(cumulative, target * (1 - 1e-12), side="left"))
    return float(values[min(i, len(values) - 1)])


def profiles_of(
    keys: Sequence[StageKey], pairing_of: Callable[[Format], Pairing]
) -> list[StageProfile]:
    """The profile of every key, each walked in its own small format (``pairing_of`` makes the
    pairs of players for a format)."""
    out = []
    for key in keys:
        fmt, index = key.format()
        out.append(stage_profile(pairing_of(fmt), index))
    return out
