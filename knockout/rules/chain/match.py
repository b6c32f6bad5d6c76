"""One definition of the match: a small Markov chain over states, walked three ways.

A :class:`MatchState` is where a match stands before a game: which stage, how many games of the
current block are played, the score in that block and who had Red in the previous game. From a
state, :func:`next_decision` says how the next game's colours and clocks are settled (a typed
decision of :mod:`knockout.rules.decisions.kinds`) and :func:`advance` says where a game's result
leads: to another state, or to a :class:`Finished` match. Those two functions are the whole rule
book; :mod:`knockout.exact.solver` enumerates them, :mod:`knockout.engine.match` samples them game
by game in simulated time, ``sims`` samples them for many matches at once, and organiser mode
asks the arbiter for the decisions the players take. A match's :class:`Position` (where the games
already played leave it, :func:`knockout.rules.chain.replay.replay`) is where every walker starts.

The model's side of a match (per-game probabilities for one pair of players or many) is
:class:`knockout.rules.chain.pairing.Pairing`.

Sides: ``0`` is the first player of the pairing (A), ``1`` the second (B).
"""

from __future__ import annotations

from dataclasses import dataclass

from knockout.game import Colour, Result
from knockout.rules.book.formats import Format, Stage
from knockout.rules.decisions.kinds import Bid, Decision, Settled, Side, decide, other

__all__ = [
    "Finished",
    "MatchState",
    "Position",
    "advance",
    "initial_state",
    "match_points",
    "next_decision",
]


@dataclass(frozen=True, order=True)
class MatchState:
    """Where a match stands before its next game.

    Attributes:
        stage: Index into ``Format.playable``.
        game: Games already played in the current block of the stage.
        score: A's match points minus B's within the block (a win counts 1, a draw 0).
        last_red: Who had Red in the previous game (``None`` before the first game).
        block: Blocks of the stage already played, for a repeating stage with a cap
            (``max_blocks``); 0 otherwise.
    """

    stage: int
    game: int = 0
    score: int = 0
    last_red: Side | None = None
    block: int = 0


@dataclass(frozen=True)
class Finished:
    """The match is over: ``winner`` advanced, decided in stage index ``stage``."""

    winner: Side
    stage: int


def initial_state() -> MatchState:
    """The state before the first game."""
    return MatchState(stage=0)


def next_decision(fmt: Format, state: MatchState, start: Position | None = None) -> Decision:
    """How the next game from ``state`` is set up (:mod:`knockout.rules.decisions.kinds`).

    ``start``: the match's position after its played games; when ``state`` is that position,
    what they fix for the next game (the previous game's times, a recorded bid or colour
    choice) rides on the decision.
    """
    stage = fmt.playable[state.stage]
    before = fmt.games_before(state.stage)
    if start is not None and start.state == state:
        return decide(
            stage,
            game=state.game,
            last_red=state.last_red,
            p_a_chooses=start.p_a_chooses,
            made=start.made,
            games_before=before,
        )
    return decide(stage, game=state.game, last_red=state.last_red, games_before=before)


def match_points(stage: Stage, red: Side, result: Result) -> int:
    """A's gain in the block score from one game: +1, 0 or -1 (``draw_winner`` applied)."""
    if result is Result.DRAW:
        if stage.draw_winner is None:
            return 0
        winning_colour = stage.draw_winner
    else:
        winning_colour = Colour(result.value)
    winner = red if winning_colour is Colour.RED else other(red)
    return 1 if winner == 0 else -1


def advance(fmt: Format, state: MatchState, red: Side, result: Result) -> MatchState | Finished:
    """The state after a game in which ``red`` had Red and the result was ``result``.

    A block ends early once the player behind cannot catch up; a player ahead at the end of a
    block wins; a level block repeats (``repeat``, up to ``max_blocks`` blocks when capped) or
    leads to the next stage.
    """
    stage = fmt.playable[state.stage]
    score = state.score + match_points(stage, red, result)
    played = state.game + 1
    remaining = stage.games - played
    if abs(score) > remaining:
        return Finished(0 if score > 0 else 1, state.stage)
    if remaining > 0:
        return MatchState(state.stage, played, score, red, state.block)
    if stage.repeat and stage.max_blocks == 0:
        return MatchState(state.stage, 0, 0, red)
    if stage.repeat and state.block + 1 < stage.max_blocks:
        return MatchState(state.stage, 0, 0, red, state.block + 1)
    return MatchState(state.stage + 1, 0, 0, red)


@dataclass(frozen=True)
class Position:
    """Where a match stands after its played games: computed once
    (:func:`~knockout.rules.chain.replay.replay`) and handed to every walker.

    Attributes:
        state: The next state, or the finished match.
        games: Games replayed (a decision entry is not a game).
        p_a_chooses: P(A is 甲) for a bidding game that comes next, when the previous game's
            times (or a recorded bid) fix it (``None``: the model's probability applies).
        made: The decision recorded for the next game (a decision entry: a bid, a colour
            choice, a cut, sealed bids), if any: the game's colours and clocks are then fixed
            (for a bid or a cut, ``p_a_chooses`` is 1 or 0).
    """

    state: MatchState | Finished
    games: int
    p_a_chooses: float | None = None
    made: Settled | None = None

    @property
    def recorded(self) -> bool:
        """A decision is recorded for the next game: its colours and clocks are fixed."""
        return self.made is not None

    @property
    def bid(self) -> Bid | None:
        """The sudden-death bid recorded for the next game, if that is what is recorded."""
        return self.made if isinstance(self.made, Bid) else None

    @property
    def is_fresh(self) -> bool:
        """Nothing played or recorded yet: the match starts from its first game."""
        return self.games == 0 and not self.recorded

    @property
    def finished(self) -> Finished | None:
        """The finished match, if the played games decided it."""
        return self.state if isinstance(self.state, Finished) else None

    def decision(self, fmt: Format) -> Decision | None:
        """How the next game is set up (None once the match is decided)."""
        if isinstance(self.state, Finished):
            return None
        return next_decision(fmt, self.state, self)
