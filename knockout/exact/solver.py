"""The exact solver: dynamic programming over the match chain, without sampling.

:func:`solve` pushes probability mass through the chain of :mod:`knockout.rules.chain.match` one
game at a time. Each step plays one game, so the mass absorbed at step ``k`` is P(the match lasts
``k`` games). Formats without repeating stages are finite, and the answer is exact after at most
``Format.max_games`` steps; a repeating stage (pairs until one is won) loses mass geometrically
and the walk stops once less than ``tolerance`` (default 1e-15) is left, which is reported as
``unresolved``.

Everything is vectorised over pairs: a :class:`~knockout.rules.chain.pairing.Pairing` of ``n`` pairs
gives arrays of shape ``(n,)``, which is how a bracket's match matrix is computed in one pass.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import assert_never

import numpy as np

from knockout.arrays import FloatArray
from knockout.game import Colour, Reply, Result
from knockout.rules.chain.match import (
    Finished,
    MatchState,
    Position,
    advance,
    initial_state,
    next_decision,
)
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.kinds import (
    Bid,
    Bidding,
    Choice,
    CutChoice,
    Fixed,
    Lot,
    OtherDecision,
    SealedBids,
    Side,
    handler_of,
    other,
)

__all__ = [
    "OTHER_DECISIONS",
    "BidTag",
    "MatchSolution",
    "StageExit",
    "advance_probabilities",
    "block_average",
    "concatenated",
    "solve",
    "stage_exits",
    "transitions",
]

#: The minutes of a transition in a walk that does not need them.
_UNTIMED = np.zeros(1)

#: What happened before the sudden-death game: who was 甲, the announcement, the reply.
BidTag = Bid


#: The exact solver's handler of each added colour rule's decision
#: (:class:`~knockout.rules.decisions.kinds.OtherDecision`): who has Red in the game, with what
#: chance (per pair of the pairing), on the stage's clocks.
OtherHandler = Callable[
    [Pairing, MatchState, OtherDecision], Sequence[tuple[float | FloatArray, Side]]
]
OTHER_DECISIONS: dict[type[OtherDecision], OtherHandler] = {}

#: ``(probability, next state or finished match, bid tag, expected minutes of the game)``.
Transition = tuple[FloatArray, MatchState | Finished, BidTag | None, FloatArray]


def transitions(
    pairing: Pairing, state: MatchState, start: Position | None = None, *, timed: bool = True
) -> Iterator[Transition]:
    """Every way the next game can go from ``state``: ``(probability, next, bid tag, minutes)``.

    Colour lots, the choice of 甲 and the players' decisions are folded into the game's step, so
    each transition is exactly one game. ``minutes`` is the game's expected duration on its
    colours and clocks (:meth:`Pairing.game_minutes`). ``start``: the match's position after
    its played games; at that state, what they fix (the previous game's times, a recorded bid
    or colour choice) has probability 1. ``timed=False``: ``minutes`` is left at 0 (for walks
    that need only who advances).
    """
    decision = next_decision(pairing.fmt, state, start)
    match decision:
        case Fixed(red=red):
            yield from _games(pairing, state, [(1.0, red)], timed=timed)
        case Lot():
            yield from _games(pairing, state, [(0.5, 0), (0.5, 1)], timed=timed)
        case Choice():
            yield from _choice_transitions(pairing, state, decision, timed)
        case Bidding():
            yield from _bidding_transitions(pairing, state, decision, timed)
        case SealedBids():
            yield from _sealed_bid_transitions(pairing, state, decision, timed)
        case CutChoice():
            yield from _cut_transitions(pairing, state, decision, timed)
        case OtherDecision():
            reds = handler_of(OTHER_DECISIONS, decision, "exact solver")(pairing, state, decision)
            yield from _games(pairing, state, reds, timed=timed)
        case _:
            assert_never(decision)


def _games(
    pairing: Pairing,
    state: MatchState,
    reds: Sequence[tuple[float | FloatArray, Side]],
    tag: BidTag | None = None,
    *,
    timed: bool = True,
) -> Iterator[Transition]:
    """One game on the stage's clocks, Red being ``red`` with each probability."""
    stage = pairing.fmt.playable[state.stage]
    for p_colour, red in reds:
        probs = pairing.game_at(state, red)
        minutes = (
            pairing.game_minutes(state.stage, red, stage.minutes, state) if timed else _UNTIMED
        )
        for result, p_result in zip(Result, probs, strict=True):
            yield p_colour * p_result, advance(pairing.fmt, state, red, result), tag, minutes


def _sealed_bid_transitions(
    pairing: Pairing, state: MatchState, decision: SealedBids, timed: bool = True
) -> Iterator[Transition]:
    """The last game: only who advances matters, integrated over the bids (or, once the bids
    are recorded, the game on the colours and clocks they give: Black on the lower bid at the
    first price, on the higher at the second)."""
    sealed = pairing.sealed_bid_game
    assert sealed is not None
    if decision.made is not None:
        made = decision.made
        clocks = (sealed.red_minutes, made.black_minutes(sealed.price))
        probs = pairing.game_with_clocks(state.stage, made.red, clocks)
        minutes = pairing.game_minutes(state.stage, made.red, clocks) if timed else _UNTIMED
        for result, p_result in zip(Result, probs, strict=True):
            yield np.asarray(p_result), advance(pairing.fmt, state, made.red, result), None, minutes
        return
    p_a = pairing.strategy.sealed_bid_advances(sealed, pairing.sealed_bid_gap())
    minutes = pairing.sealed_bid_minutes(state.stage) if timed else _UNTIMED
    yield np.asarray(p_a), Finished(0, state.stage), None, minutes
    yield np.asarray(1.0 - p_a), Finished(1, state.stage), None, minutes


def _cut_transitions(
    pairing: Pairing, state: MatchState, decision: CutChoice, timed: bool = True
) -> Iterator[Transition]:
    """The cut-and-choose game: who cuts (the priority rule), then, under the strategy, the
    cut and the colour integrated over the players' estimates (or the recorded cut and
    colour, then the game on those clocks). Only who advances matters: it is the last game."""
    game = pairing.cut_game
    assert game is not None
    if decision.made is not None:
        made = decision.made
        clocks = (made.red_minutes, game.black_minutes)
        probs = pairing.game_with_clocks(state.stage, made.red, clocks)
        minutes = pairing.game_minutes(state.stage, made.red, clocks) if timed else _UNTIMED
        for result, p_result in zip(Result, probs, strict=True):
            yield np.asarray(p_result), advance(pairing.fmt, state, made.red, result), None, minutes
        return
    p_a = (
        pairing.p_a_chooses(state)
        if decision.p_a_cuts is None
        else np.full(pairing.size, decision.p_a_cuts)
    )
    for cutter, p_cutter in ((0, p_a), (1, 1.0 - p_a)):
        side: Side = 0 if cutter == 0 else 1
        p_cut = pairing.strategy.cut_advances(game, pairing.cut_advantage(side))
        minutes = pairing.cut_minutes(state.stage, side) if timed else _UNTIMED
        yield np.asarray(p_cutter * p_cut), Finished(side, state.stage), None, minutes
        yield np.asarray(p_cutter * (1 - p_cut)), Finished(other(side), state.stage), None, minutes


def _bidding_transitions(
    pairing: Pairing, state: MatchState, decision: Bidding, timed: bool = True
) -> Iterator[Transition]:
    """The sudden-death game: who is 甲, the choice under the strategy (or the recorded
    bid), then the game on the colours and clocks the bidding rule gives."""
    game = pairing.bidding_game
    assert game is not None
    choices: list[tuple[Bid, FloatArray]] = []
    if decision.made is not None:
        choices.append((decision.made, np.ones(pairing.size)))
    else:
        p_a = (
            pairing.p_a_chooses(state)
            if decision.p_a_chooses is None
            else np.full(pairing.size, decision.p_a_chooses)
        )
        for chooser, p_chooser in ((0, p_a), (1, 1.0 - p_a)):
            side: Side = 0 if chooser == 0 else 1
            bids = pairing.bid_probabilities(side).joint()
            for (announce, reply), p_bid in bids.items():
                choices.append((Bid(side, announce, reply), p_chooser * p_bid))
    for tag, p_choice in choices:
        colour, clocks = game.menu.assignment(tag.announce, tag.reply)
        red: Side = tag.chooser if colour is Colour.RED else other(tag.chooser)
        probs = pairing.bidding_game_probabilities(tag.chooser, colour, clocks)
        minutes = pairing.game_minutes(state.stage, red, clocks) if timed else _UNTIMED
        for result, p_result in zip(Result, probs, strict=True):
            yield p_choice * p_result, advance(pairing.fmt, state, red, result), tag, minutes


def _choice_transitions(
    pairing: Pairing, state: MatchState, decision: Choice, timed: bool = True
) -> Iterator[Transition]:
    """A ``choice`` stage's first game: who chooses (by the stage's rule), then the colour
    the chooser takes under the strategy (or the recorded choice), then the game."""
    if decision.made is not None:
        yield from _games(pairing, state, [(1.0, decision.made.red)], timed=timed)
        return
    game = pairing.choice_game(state.stage)
    p_a = pairing.p_a_chooses_colours(state.stage, decision)
    reds: list[tuple[FloatArray, Side]] = []
    for chooser, p_chooser in ((0, p_a), (1, 1.0 - p_a)):
        side: Side = 0 if chooser == 0 else 1
        p_red = pairing.strategy.choice_probability(
            game, pairing.choice_advantage(state.stage, side)
        )
        reds += [(p_chooser * p_red, side), (p_chooser * (1.0 - p_red), other(side))]
    yield from _games(pairing, state, reds, timed=timed)


@dataclass(frozen=True)
class MatchSolution:
    """Exact outcome distribution of a match, for each of ``n`` pairs.

    Attributes:
        stage_names: Names of the playable stages, in order.
        win: ``(n, 2)``: P(A advances), P(B advances).
        decided: ``(n, stages, 2)``: P(the match is won by A / B in each stage).
        games: ``{k: (n,)}``: P(the match lasts exactly ``k`` games).
        games_by_winner: ``{k: (n, 2)}``: P(the match lasts ``k`` games and A / B advances).
        bidding_reached: ``(n,)``: P(the bidding stage is reached); 0 without one.
        sudden_death_reached: ``(n,)``: P(the sudden-death game is reached)
            (:attr:`~knockout.rules.formats.Format.sudden_death_index`: the bidding stage's
            reach, a cut's, a sealed bid's or an Armageddon decider's); 0 without one.
        chooser_advances: ``(n,)``: P(bidding stage reached and 甲 advances).
        announce_red: ``(n,)``: P(bidding stage reached and 甲 announces Red).
        objects: ``(n,)``: P(bidding stage reached and 乙 objects).
        chooser_is_a: ``(n,)``: P(bidding stage reached and A is 甲).
        chooser_a_advances: ``(n,)``: P(bidding stage reached, A is 甲 and A advances).
        unresolved: ``(n,)``: mass still in play when a repeating stage was cut off.
        expected_minutes: ``(n,)``: the expected playing time of the match (the games still to
            play), each game's effective clocks times the players' mean speeds.
    """

    stage_names: tuple[str, ...]
    win: FloatArray
    decided: FloatArray
    games: dict[int, FloatArray]
    games_by_winner: dict[int, FloatArray]
    bidding_reached: FloatArray
    sudden_death_reached: FloatArray
    chooser_advances: FloatArray
    announce_red: FloatArray
    objects: FloatArray
    chooser_is_a: FloatArray
    chooser_a_advances: FloatArray
    unresolved: FloatArray
    expected_minutes: FloatArray

    def averaged(self, groups: int, weights: FloatArray) -> MatchSolution:
        """Average consecutive blocks of ``k`` pairs with ``weights``: ``groups`` pairs, each
        the expectation over its block (quadrature over rating uncertainty). ``weights`` is
        ``(k,)``, the same for every block, or ``(groups, k)``, each block its own."""

        def avg(a: FloatArray) -> FloatArray:
            return block_average(a, groups, weights)

        return MatchSolution(
            stage_names=self.stage_names,
            win=avg(self.win),
            decided=avg(self.decided),
            games={g: avg(p) for g, p in self.games.items()},
            games_by_winner={g: avg(p) for g, p in self.games_by_winner.items()},
            bidding_reached=avg(self.bidding_reached),
            sudden_death_reached=avg(self.sudden_death_reached),
            chooser_advances=avg(self.chooser_advances),
            announce_red=avg(self.announce_red),
            objects=avg(self.objects),
            chooser_is_a=avg(self.chooser_is_a),
            chooser_a_advances=avg(self.chooser_a_advances),
            unresolved=avg(self.unresolved),
            expected_minutes=avg(self.expected_minutes),
        )

    def conditional(self, joint: FloatArray) -> FloatArray:
        """``joint / bidding_reached`` (NaN where the bidding stage cannot be reached)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.bidding_reached > 0, joint / self.bidding_reached, np.nan)


def block_average(a: FloatArray, groups: int, weights: FloatArray) -> FloatArray:
    """``a`` (pairs first) averaged over consecutive blocks of ``weights.shape[-1]`` pairs:
    with ``weights`` of shape ``(k,)`` the same weights for every block, of shape
    ``(groups, k)`` each block its own."""
    k = weights.shape[-1]
    shaped = a.reshape(groups, k, *a.shape[1:])
    if weights.ndim == 1:
        return np.asarray(np.tensordot(weights, shaped, axes=([0], [1])), dtype=np.float64)
    w = weights.reshape(groups, k, *([1] * (shaped.ndim - 2)))
    return np.asarray(np.sum(w * shaped, axis=1), dtype=np.float64)


def concatenated(parts: Sequence[MatchSolution]) -> MatchSolution:
    """The solutions of consecutive slices of one pairing as one solution."""
    if len(parts) == 1:
        return parts[0]

    def cat(name: str) -> FloatArray:
        return np.concatenate([getattr(p, name) for p in parts])

    def games(name: str) -> dict[int, FloatArray]:
        keys = sorted({g for p in parts for g in getattr(p, name)})
        out = {}
        for g in keys:
            blocks = []
            for p in parts:
                table = getattr(p, name)
                shape = (
                    (p.win.shape[0], *next(iter(table.values())).shape[1:])
                    if table
                    else (p.win.shape[0],)
                )
                blocks.append(table.get(g, np.zeros(shape)))
            out[g] = np.concatenate(blocks)
        return out

    return MatchSolution(
        stage_names=parts[0].stage_names,
        win=cat("win"),
        decided=cat("decided"),
        games=games("games"),
        games_by_winner=games("games_by_winner"),
        bidding_reached=cat("bidding_reached"),
        sudden_death_reached=cat("sudden_death_reached"),
        chooser_advances=cat("chooser_advances"),
        announce_red=cat("announce_red"),
        objects=cat("objects"),
        chooser_is_a=cat("chooser_is_a"),
        chooser_a_advances=cat("chooser_a_advances"),
        unresolved=cat("unresolved"),
        expected_minutes=cat("expected_minutes"),
    )


class _BidMass:
    """Probability mass of the bidding stage's events, accumulated step by step (n pairs)."""

    def __init__(self, n: int) -> None:
        self.reached = np.zeros(n)
        self.announce_red = np.zeros(n)
        self.objects = np.zeros(n)
        self.chooser_is_a = np.zeros(n)
        self.chooser_advances = np.zeros(n)
        self.chooser_a_advances = np.zeros(n)

    def add(self, tag: BidTag, outcome: MatchState | Finished, m: FloatArray) -> None:
        self.reached += m
        if tag.announce is Colour.RED:
            self.announce_red += m
        if tag.reply is Reply.OBJECT:
            self.objects += m
        if tag.chooser == 0:
            self.chooser_is_a += m
        if isinstance(outcome, Finished) and tag.chooser == outcome.winner:
            self.chooser_advances += m
            if tag.chooser == 0:
                self.chooser_a_advances += m


def solve(
    pairing: Pairing,
    *,
    start: Position | None = None,
    tolerance: float = 1e-15,
    max_games: int = 100_000,
) -> MatchSolution:
    """Exact match odds for every pair in ``pairing``.

    Args:
        pairing: Players, format, model and strategy (arrays of ``n`` pairs).
        start: Where the match stands after games already played (its position, with what
            they fix for the next game: 甲 from the times, a recorded bid or colour choice);
            default: before game 1. ``games`` then counts the games still to play.
        tolerance: Stop a repeating stage once less than this mass is still in play.
        max_games: Hard cap on the number of games walked.
    """
    n = pairing.size
    n_stages = len(pairing.fmt.playable)
    win = np.zeros((n, 2))
    decided = np.zeros((n, n_stages, 2))
    games: dict[int, FloatArray] = {}
    games_by_winner: dict[int, FloatArray] = {}
    bids = _BidMass(n)
    expected_minutes = np.zeros(n)
    memo: dict[MatchState, list[Transition]] = {}
    first = initial_state() if start is None else _unfinished(start)
    frontier: dict[MatchState, FloatArray] = {first: np.ones(n)}
    k = 0
    while frontier:
        k += 1
        nxt: dict[MatchState, FloatArray] = defaultdict(lambda: np.zeros(n))
        ended = np.zeros(n)
        ended_by = np.zeros((n, 2))
        for state, mass in frontier.items():
            if state not in memo:
                memo[state] = list(transitions(pairing, state, start))
            for prob, outcome, tag, minutes in memo[state]:
                m = mass * prob
                expected_minutes += m * minutes
                if tag is not None:
                    bids.add(tag, outcome, m)
                if isinstance(outcome, Finished):
                    ended += m
                    ended_by[:, outcome.winner] += m
                    win[:, outcome.winner] += m
                    decided[:, outcome.stage, outcome.winner] += m
                else:
                    nxt[outcome] = nxt[outcome] + m
        games[k] = ended
        games_by_winner[k] = ended_by
        frontier = dict(nxt)
        left = sum(frontier.values(), np.zeros(n))
        if frontier and (float(np.max(left)) < tolerance or k >= max_games):
            break
    unresolved = sum(frontier.values(), np.zeros(n))
    return MatchSolution(
        stage_names=pairing.fmt.stage_names,
        win=win,
        decided=decided,
        games={g: p for g, p in games.items() if np.any(p > 0)},
        games_by_winner={g: p for g, p in games_by_winner.items() if np.any(p > 0)},
        bidding_reached=bids.reached,
        sudden_death_reached=_sudden_death_reached(pairing, decided, bids.reached),
        chooser_advances=bids.chooser_advances,
        announce_red=bids.announce_red,
        objects=bids.objects,
        chooser_is_a=bids.chooser_is_a,
        chooser_a_advances=bids.chooser_a_advances,
        unresolved=unresolved,
        expected_minutes=expected_minutes,
    )


def _sudden_death_reached(
    pairing: Pairing, decided: FloatArray, bidding_reached: FloatArray
) -> FloatArray:
    """P(the sudden-death game is reached): the bidding stage's reach, else the mass decided in
    the one-game stage that always decides (a cut, sealed bids, an Armageddon decider)."""
    k = pairing.fmt.sudden_death_index
    if k is None:
        return np.zeros(decided.shape[0])
    if pairing.fmt.playable[k].is_bidding:
        return bidding_reached
    return np.asarray(decided[:, k].sum(axis=-1), dtype=np.float64)


def advance_probabilities(
    pairing: Pairing, *, tolerance: float = 1e-15, max_games: int = 100_000
) -> FloatArray:
    """``(n, 2)``: P(A advances), P(B advances) from the start of the match, for every pair:
    :attr:`MatchSolution.win` of :func:`solve`, the same numbers to the last bit, from a walk
    that keeps nothing else (a bracket needs millions of these)."""
    n = pairing.size
    win = (np.zeros(n), np.zeros(n))
    memo: dict[MatchState, list[Transition]] = {}
    frontier: dict[MatchState, FloatArray] = {initial_state(): np.ones(n)}
    k = 0
    while frontier:
        k += 1
        nxt: dict[MatchState, FloatArray] = {}
        for state, mass in frontier.items():
            if state not in memo:
                memo[state] = list(transitions(pairing, state, timed=False))
            for prob, outcome, _, _ in memo[state]:
                m = mass * prob
                if isinstance(outcome, Finished):
                    win[outcome.winner][...] += m
                elif outcome in nxt:
                    nxt[outcome] = nxt[outcome] + m
                else:
                    nxt[outcome] = np.zeros(n) + m
        frontier = nxt
        left = sum(frontier.values(), np.zeros(n))
        if frontier and (float(np.max(left)) < tolerance or k >= max_games):
            break
    return np.stack(win, axis=1)


@dataclass(frozen=True, order=True)
class StageExit:
    """How a stage ends for a match that entered it.

    Attributes:
        games: Games played in the stage.
        winner: The side that won the match in this stage, or -1 if it goes on.
        last_red: If it goes on: who had Red in the stage's last game (the next stage's entry).
        chooser: In the bidding stage, the side that was 甲 (else -1).
        announce_red: In the bidding stage, whether 甲 announced Red.
        objects: In the bidding stage, whether 乙 objected.
    """

    games: int
    winner: int
    last_red: int
    chooser: int = -1
    announce_red: bool = False
    objects: bool = False


def stage_exits(
    pairing: Pairing,
    start: MatchState | Position,
    *,
    tolerance: float = 1e-16,
    each_pair: bool = False,
) -> dict[StageExit, FloatArray]:
    """Exact distribution of how the stage of ``start`` ends, from ``start``.

    ``start`` is usually a stage's entry (``game = 0``, ``score = 0``); a match in progress
    starts from its :class:`~knockout.rules.chain.match.Position`, possibly mid-stage, with what its
    played games fix for the next game.

    This is :func:`solve` restricted to one stage: the Monte Carlo kernel draws one outcome per
    stage from it. For the bidding stage the exits also say who was 甲 and what was decided (the
    strategy's decision probabilities are folded in). A repeating stage is followed until less
    than ``tolerance`` is in play (for every pair; ``each_pair``: each pair stops on its own,
    so each pair's exits are those it gets walked alone); that remainder is spread over the
    exits in proportion.

    Returns:
        ``{exit: probability array of shape (n,)}``, summing to one for every pair.
    """
    n = pairing.size
    exits: dict[StageExit, FloatArray] = defaultdict(lambda: np.zeros(n))
    position = start if isinstance(start, Position) else None
    first = _unfinished(start) if isinstance(start, Position) else start
    stage_index = first.stage
    frontier: dict[MatchState, FloatArray] = {first: np.ones(n)}
    stopped = np.zeros(n, dtype=bool)
    k = 0
    while frontier:
        k += 1
        nxt: dict[MatchState, FloatArray] = defaultdict(lambda: np.zeros(n))
        for state, mass in frontier.items():
            for prob, outcome, tag, _ in transitions(pairing, state, position):
                m = mass * prob
                chooser, red, objects = (
                    (-1, False, False)
                    if tag is None
                    else (tag.chooser, tag.announce is Colour.RED, tag.reply is Reply.OBJECT)
                )
                if isinstance(outcome, Finished):
                    exits[StageExit(k, outcome.winner, -1, chooser, red, objects)] += m
                elif outcome.stage != stage_index:
                    assert outcome.last_red is not None
                    exits[StageExit(k, -1, outcome.last_red, chooser, red, objects)] += m
                else:
                    nxt[outcome] = nxt[outcome] + m
        frontier = dict(nxt)
        if not frontier:
            break
        left = sum(frontier.values(), np.zeros(n))
        if not each_pair:
            if float(np.max(left)) < tolerance:
                break
            continue
        stopped = stopped | (left < tolerance)
        if stopped.all():
            break
        if stopped.any():  # a stopped pair's mass leaves the walk: it adds nothing more
            frontier = {st: np.where(stopped, 0.0, m) for st, m in frontier.items()}
    total = sum(exits.values(), np.zeros(n))
    return {e: p / total for e, p in sorted(exits.items()) if np.any(p > 0)}


def _unfinished(position: Position) -> MatchState:
    """The state of a match still in play (a decided match has nothing left to solve)."""
    if not isinstance(position.state, MatchState):
        raise ValueError("the match is already decided")
    return position.state
