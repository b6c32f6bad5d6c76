"""One definition of the match: a small Markov chain over states, walked three ways.

A :class:`MatchState` is where a match stands before a game: which stage, how many games of the
current block are played, the score in that block and who had Red in the previous game. From a
state, :func:`next_decision` says how the next game's colours and clocks are settled (a typed
decision of :mod:`knockout.rules.decisions`) and :func:`advance` says where a game's result leads:
to another state, or to a :class:`Finished` match. Those two functions are the whole rule book;
:mod:`knockout.exact.solver` enumerates them, :mod:`knockout.engine.match` samples them game by
game in simulated time, ``sims`` samples them for many matches at once, and organiser mode asks
the arbiter for the decisions the players take. :func:`replay` walks the games already played
once, giving the match's :class:`Position`, which every walker starts from.

:class:`Pairing` holds what a match needs from the model for one pair of players (or, with arrays,
for many pairs at once): per-game outcome probabilities for each stage and colour assignment, and
the chance that each player is 甲.

Sides: ``0`` is the first player of the pairing (A), ``1`` the second (B).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from knockout.game import Colour, Reply, Result
from knockout.rules.bidding import (
    BiddingGame,
    BidProbabilities,
    ChoiceGame,
    SealedBidGame,
    Strategy,
)
from knockout.rules.cutgame import CutChooseGame
from knockout.rules.decisions import (
    Bid,
    Bidding,
    Choice,
    ChoiceMade,
    Cut,
    CutChoice,
    Decision,
    Fixed,
    SealedBids,
    SealedMade,
    Side,
    decide,
    other,
)
from knockout.rules.formats import BiddingMenu, CutChoose, Format, Stage
from knockout.rules.model import (
    DEFAULT_MODEL,
    GameProbabilities,
    ModelParams,
    TimeClass,
    game_probabilities,
    p_uses_less_time,
)
from knockout.rules.pace import deciding_game, pace_shift
from knockout.rules.players import Player

__all__ = [
    "Bid",
    "ChoiceMade",
    "Finished",
    "MatchState",
    "Pairing",
    "PlayedGame",
    "Position",
    "ReplayError",
    "Roster",
    "Side",
    "advance",
    "bid_colours",
    "initial_state",
    "match_points",
    "next_decision",
    "p_chooser_from_times",
    "p_first_chooses",
    "replay",
]

FloatArray = npt.NDArray[np.float64]


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
    """How the next game from ``state`` is set up (:mod:`knockout.rules.decisions`).

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
            bid=start.bid,
            choice=start.choice,
            cut=start.cut,
            sealed=start.sealed,
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


def p_first_chooses(chooser: str, a: Player, b: Player) -> float:
    """P(player ``a`` chooses the colours) by a ``choice`` stage's ``chooser`` rule, as far as
    the pair decides it: the named chooser if they play; the higher-ranked (the better seed when
    both have one, else the higher rating); else a lot (1/2). A chooser the match's colours
    name (``last-black``, ``first-black``) rides on the decision instead
    (:attr:`~knockout.rules.decisions.Choice.side`).

    >>> p_first_chooses("higher-ranked", Player("A", 2500), Player("B", 2600))
    0.0
    """
    if chooser == "higher-ranked":
        if a.seed is not None and b.seed is not None and a.seed != b.seed:
            return 1.0 if a.seed < b.seed else 0.0
        if a.rating != b.rating:
            return 1.0 if a.rating > b.rating else 0.0
        return 0.5
    if chooser == a.name:
        return 1.0
    if chooser == b.name:
        return 0.0
    return 0.5


@dataclass(frozen=True)
class Pairing:
    """The model's numbers for one pair of players, or for many pairs at once.

    Ratings are arrays of shape ``(n,)`` (``n = 1`` for a single match); every probability this
    class returns has that shape.

    Attributes:
        fmt: The match format.
        model: Model constants.
        strategy: Bidding strategy (used only by formats with a bidding stage).
        ratings: ``{time class: (A's ratings, B's ratings)}``.
        speeds: ``((mean_A, sd_A), (mean_B, sd_B))`` arrays.
        colour_chooser: Per stage index with ``colours = choice``: P(A chooses the colours) as
            far as the pair decides it (:func:`p_first_chooses`: 1 or 0 for a named chooser
            who plays or the higher-ranked, 1/2 for a lot).
        paces: ``(A's paces, B's paces)``: the fraction of their effective clock each player
            aims to use in the game that decides 甲 (:mod:`knockout.rules.pace`); None: their
            natural pace (``speed.mean``), the plain model.
    """

    fmt: Format
    model: ModelParams
    strategy: Strategy
    ratings: dict[TimeClass, tuple[FloatArray, FloatArray]]
    speeds: tuple[tuple[FloatArray, FloatArray], tuple[FloatArray, FloatArray]]
    colour_chooser: dict[int, FloatArray] = field(default_factory=dict)
    paces: tuple[FloatArray, FloatArray] | None = None
    _cache: dict[tuple[int, int, tuple[float, float]], GameProbabilities] = field(
        default_factory=dict, repr=False, compare=False
    )
    _bids: dict[int, BidProbabilities] = field(default_factory=dict, repr=False, compare=False)
    _paced_games: dict[tuple[int, int, int], GameProbabilities] = field(
        default_factory=dict, repr=False, compare=False
    )

    @classmethod
    def of(
        cls,
        fmt: Format,
        a: Player | Sequence[Player],
        b: Player | Sequence[Player],
        *,
        model: ModelParams = DEFAULT_MODEL,
        strategy: Strategy,
    ) -> Pairing:
        """A pairing of ``a`` against ``b`` (two players, or two equal-length lists of them)."""
        list_a = [a] if isinstance(a, Player) else list(a)
        list_b = [b] if isinstance(b, Player) else list(b)
        if len(list_a) != len(list_b):
            raise ValueError("both sides of a pairing need the same number of players")

        def arr(players: list[Player], tc: TimeClass) -> FloatArray:
            return np.array([p.rating_for(tc) for p in players], dtype=np.float64)

        def speed(players: list[Player]) -> tuple[FloatArray, FloatArray]:
            return (
                np.array([p.speed.mean for p in players], dtype=np.float64),
                np.array([p.speed.sd for p in players], dtype=np.float64),
            )

        return cls(
            fmt=fmt,
            model=model,
            strategy=strategy,
            ratings={tc: (arr(list_a, tc), arr(list_b, tc)) for tc in TimeClass},
            speeds=(speed(list_a), speed(list_b)),
            colour_chooser={
                i: np.array(
                    [
                        p_first_chooses(s.chooser, pa, pb)
                        for pa, pb in zip(list_a, list_b, strict=True)
                    ]
                )
                for i, s in enumerate(fmt.playable)
                if s.is_choice
            },
        )

    def expanded(self, index: npt.ArrayLike, a_offset: npt.ArrayLike) -> Pairing:
        """Pairs ``index`` of this pairing (repeats allowed), A's ratings moved by ``a_offset``
        (every time class): how the true-strength draws of rating uncertainty enter. A
        vectorised model (one set of constants per pair) follows its pairs."""
        idx = np.asarray(index, dtype=np.intp)
        shift = np.broadcast_to(np.asarray(a_offset, dtype=np.float64), idx.shape)
        return Pairing(
            fmt=self.fmt,
            model=self.model.take(idx),
            strategy=self.strategy,
            ratings={tc: (a[idx] + shift, b[idx]) for tc, (a, b) in self.ratings.items()},
            speeds=tuple((m[idx], sd[idx]) for m, sd in self.speeds),  # type: ignore[arg-type]
            colour_chooser={k: v[idx] for k, v in self.colour_chooser.items()},
            paces=None if self.paces is None else (self.paces[0][idx], self.paces[1][idx]),
        )

    def with_model(self, model: ModelParams) -> Pairing:
        """This pairing under other constants (plain, or one set per pair): a new pairing, so
        nothing computed under the old constants (games, bids, decision problems) is kept."""
        return Pairing(
            fmt=self.fmt,
            model=model,
            strategy=self.strategy,
            ratings=self.ratings,
            speeds=self.speeds,
            colour_chooser=self.colour_chooser,
            paces=self.paces,
        )

    def with_paces(self, pace_a: npt.ArrayLike, pace_b: npt.ArrayLike) -> Pairing:
        """This pairing with A and B aiming at these paces in the game that decides 甲
        (arrays of the pairing's size, or scalars)."""
        n = self.size
        return Pairing(
            fmt=self.fmt,
            model=self.model,
            strategy=self.strategy,
            ratings=self.ratings,
            speeds=self.speeds,
            colour_chooser=self.colour_chooser,
            paces=(
                np.broadcast_to(np.asarray(pace_a, dtype=np.float64), (n,)),
                np.broadcast_to(np.asarray(pace_b, dtype=np.float64), (n,)),
            ),
        )

    @cached_property
    def deciding_game(self) -> tuple[int, int] | None:
        """``(stage index, game index)`` of the game whose times decide 甲 (None: none does)."""
        return deciding_game(self.fmt)

    def _paced(self, state: MatchState) -> bool:
        """Whether the game at ``state`` is the one decided at the chosen paces."""
        return self.paces is not None and (state.stage, state.game) == self.deciding_game

    def game_at(self, state: MatchState, red: Side) -> GameProbabilities:
        """Outcome probabilities of the game at ``state`` (a non-bidding stage) with ``red`` as
        Red: :meth:`game`, except in the game that decides 甲 under chosen paces, where each
        player's strength shifts by :func:`~knockout.rules.pace.pace_shift`."""
        if not self._paced(state):
            return self.game(state.stage, red)
        key = (state.stage, state.game, red)  # paces are fixed per pairing: cached like game()
        if key not in self._paced_games:
            self._paced_games[key] = self._paced_game(state, red)
        return self._paced_games[key]

    def _paced_game(self, state: MatchState, red: Side) -> GameProbabilities:
        """:meth:`game_at` in the game that decides 甲, computed."""
        assert self.paces is not None
        stage = self.fmt.playable[state.stage]
        tc = self.time_classes[state.stage]
        epd = self.model.elo_per_doubling[tc]
        (mean_a, _), (mean_b, _) = self.speeds
        shift_a = pace_shift(epd, self.paces[0], mean_a)
        shift_b = pace_shift(epd, self.paces[1], mean_b)
        r_a, r_b = self.ratings[tc]
        a, b = r_a + shift_a, r_b + shift_b
        red_r, black_r = (a, b) if red == 0 else (b, a)
        return game_probabilities(
            red_r,
            black_r,
            tc,
            model=self.model,
            red_minutes=self.model.effective(stage.minutes[0], stage.increment_seconds),
            black_minutes=self.model.effective(stage.minutes[1], stage.increment_seconds),
        )

    @property
    def size(self) -> int:
        """Number of pairs held."""
        return int(self.ratings[TimeClass.CLASSICAL][0].shape[0])

    def game(self, stage_index: int, red: Side) -> GameProbabilities:
        """Outcome probabilities of a game of a non-bidding stage with ``red`` as Red."""
        return self.game_with_clocks(stage_index, red, self.fmt.playable[stage_index].minutes)

    @cached_property
    def time_classes(self) -> tuple[TimeClass, ...]:
        """The time class of each playable stage (fixed once per stage)."""
        return tuple(s.time_class_for(self.model.moves) for s in self.fmt.playable)

    def stage_class(self, stage: Stage) -> TimeClass:
        """The time class of a playable ``stage``."""
        return self.time_classes[self.stage_index(stage)]

    def stage_index(self, stage: Stage) -> int:
        """The index of a playable ``stage`` (found by identity first: comparing stages field
        by field is slow, and this is asked per bidding transition)."""
        playable = self.fmt.playable
        for i, s in enumerate(playable):
            if s is stage:
                return i
        return playable.index(stage)

    def game_with_clocks(
        self, stage_index: int, red: Side, clocks: tuple[float, float]
    ) -> GameProbabilities:
        """Outcome probabilities of a game of stage ``stage_index`` on the given base clocks
        (the stage's increment makes them effective clocks). Computed once per stage, Red and
        clocks (the solver asks for each from every state that plays them)."""
        key = (stage_index, red, clocks)
        if key in self._cache:
            return self._cache[key]
        stage = self.fmt.playable[stage_index]
        tc = self.time_classes[stage_index]
        r_a, r_b = self.ratings[tc]
        red_r, black_r = (r_a, r_b) if red == 0 else (r_b, r_a)
        probs = game_probabilities(
            red_r,
            black_r,
            tc,
            model=self.model,
            red_minutes=self.model.effective(clocks[0], stage.increment_seconds),
            black_minutes=self.model.effective(clocks[1], stage.increment_seconds),
        )
        self._cache[key] = probs
        return probs

    @cached_property
    def sealed_bid_game(self) -> SealedBidGame | None:
        """The sealed-bid Armageddon decision problem, for formats that have one."""
        stage = self.fmt.sealed_bid_stage
        if stage is None:
            return None
        return SealedBidGame.from_stage(stage, self.model, self.stage_class(stage))

    def sealed_bid_gap(self) -> FloatArray:
        """A's rating minus B's for the sealed-bid stage's time class."""
        stage = self.fmt.sealed_bid_stage
        assert stage is not None
        r_a, r_b = self.ratings[self.stage_class(stage)]
        return r_a - r_b

    @cached_property
    def cut_game(self) -> CutChooseGame | None:
        """The cut-and-choose decision problem, for formats that have one."""
        stage = self.fmt.cut_stage
        if stage is None:
            return None
        return CutChooseGame.from_stage(stage, self.model, self.stage_class(stage))

    def cut_advantage(self, cutter: Side) -> FloatArray:
        """The cutter's rating minus the chooser's, for the cut stage's time class."""
        stage = self.fmt.cut_stage
        assert stage is not None
        r_a, r_b = self.ratings[self.stage_class(stage)]
        return r_a - r_b if cutter == 0 else r_b - r_a

    def cut_minutes(self, stage_index: int, cutter: Side) -> FloatArray:
        """Expected playing time of the cut game: the expected cut and Black's clock, each at
        the mean of the two players' speeds (exact for equal speeds)."""
        game = self.cut_game
        assert game is not None
        red = self.strategy.expected_cut(game, self.cut_advantage(cutter))
        inc = self.fmt.playable[stage_index].increment_seconds
        t_red = self.model.effective(red, inc)
        t_black = self.model.effective(game.black_minutes, inc)
        (mean_a, _), (mean_b, _) = self.speeds
        return np.asarray((t_red + t_black) * (mean_a + mean_b) / 2, dtype=np.float64)

    @cached_property
    def bidding_game(self) -> BiddingGame | None:
        """The sudden-death decision problem, for formats that have one."""
        stage = self.fmt.bidding_stage
        if stage is None:
            return None
        return BiddingGame.from_stage(stage, self.model, self.stage_class(stage))

    def advantage(self, chooser: Side) -> FloatArray:
        """甲's rating minus 乙's for the bidding stage's time class, when ``chooser`` is 甲."""
        stage = self.fmt.bidding_stage
        assert stage is not None
        r_a, r_b = self.ratings[self.stage_class(stage)]
        return r_a - r_b if chooser == 0 else r_b - r_a

    def bid_probabilities(self, chooser: Side) -> BidProbabilities:
        """The strategy's decision probabilities in the sudden-death bidding when ``chooser`` is
        甲 (computed once per side)."""
        if chooser not in self._bids:
            game = self.bidding_game
            assert game is not None
            self._bids[chooser] = self.strategy.probabilities(game, self.advantage(chooser))
        return self._bids[chooser]

    def p_a_chooses(self, state: MatchState) -> FloatArray:
        """P(A is 甲) on entering the bidding (or cut-and-choose) stage at ``state``.

        ``less-time``: A used less clock time in the previous game; each player uses a
        ``Normal(mean, sd)`` fraction of their effective clock in that game (``mean``: the
        chosen pace, when the pairing has paces), whose clocks come from the previous stage and
        who had Red; ``lot``: one half.
        """
        stage = self.fmt.playable[state.stage]
        rule = stage.bidding if stage.bidding is not None else stage.cut
        assert rule is not None
        if rule.priority == "lot" or state.last_red is None:
            return np.full(self.size, 0.5)
        previous = self.fmt.playable[state.stage - 1]
        red_min, black_min = (
            float(self.model.effective(m, previous.increment_seconds)) for m in previous.minutes
        )
        base_a, base_b = (red_min, black_min) if state.last_red == 0 else (black_min, red_min)
        (mean_a, sd_a), (mean_b, sd_b) = self.speeds
        if self.paces is not None:
            mean_a, mean_b = self.paces
        return p_uses_less_time(mean_a, sd_a, mean_b, sd_b, base_a=base_a, base_b=base_b)

    def game_minutes(
        self,
        stage_index: int,
        red: Side,
        clocks: tuple[float, float],
        state: MatchState | None = None,
    ) -> FloatArray:
        """Expected playing time (minutes) of a game of stage ``stage_index`` with ``red`` as Red
        on base ``clocks``: each side's effective clock times their mean speed (their chosen
        pace in the game that decides 甲, when ``state`` is that game's and the pairing has
        paces)."""
        inc = self.fmt.playable[stage_index].increment_seconds
        t_red, t_black = (float(self.model.effective(m, inc)) for m in clocks)
        (mean_a, _), (mean_b, _) = self.speeds
        if state is not None and self._paced(state):
            assert self.paces is not None
            mean_a, mean_b = self.paces
        red_mean, black_mean = (mean_a, mean_b) if red == 0 else (mean_b, mean_a)
        return np.asarray(t_red * red_mean + t_black * black_mean, dtype=np.float64)

    def sealed_bid_minutes(self, stage_index: int) -> FloatArray:
        """Expected playing time of the sealed-bid game: Red's clock and the expected Black clock
        (the lower bid, under the strategy), each at the mean of the two players' speeds (who
        plays Black depends on the bids: the mean is exact for equal speeds)."""
        game = self.sealed_bid_game
        assert game is not None
        black = self.strategy.expected_black_minutes(game, self.sealed_bid_gap())
        inc = self.fmt.playable[stage_index].increment_seconds
        t_red = self.model.effective(game.red_minutes, inc)
        t_black = self.model.effective(black, inc)
        (mean_a, _), (mean_b, _) = self.speeds
        return np.asarray((t_red + t_black) * (mean_a + mean_b) / 2, dtype=np.float64)

    def p_a_chooses_colours(self, stage_index: int, decision: Choice) -> FloatArray:
        """P(A chooses the colours) at ``choice`` stage ``stage_index``: the side the match's
        colours name (``decision.side``), else the pair's (:attr:`colour_chooser`)."""
        if decision.side is not None:
            return np.full(self.size, 1.0 if decision.side == 0 else 0.0)
        return self.colour_chooser[stage_index]

    def choice_game(self, stage_index: int) -> ChoiceGame:
        """The colour choice of a ``choice`` stage's first game."""
        stage = self.fmt.playable[stage_index]
        return ChoiceGame.from_stage(stage, self.model, self.time_classes[stage_index])

    def choice_advantage(self, stage_index: int, chooser: Side) -> FloatArray:
        """The chooser's rating minus the other's for the stage's time class."""
        r_a, r_b = self.ratings[self.time_classes[stage_index]]
        return r_a - r_b if chooser == 0 else r_b - r_a

    def bidding_game_probabilities(
        self, chooser: Side, chooser_colour: Colour, clocks: tuple[float, float]
    ) -> GameProbabilities:
        """Outcome probabilities of the sudden-death game once colours and clocks are set."""
        stage = self.fmt.bidding_stage
        assert stage is not None
        red: Side = chooser if chooser_colour is Colour.RED else (1 if chooser == 0 else 0)
        return self.game_with_clocks(self.stage_index(stage), red, clocks)


@dataclass(frozen=True)
class Roster:
    """A field's per-player arrays, from which any pairs are gathered: a bracket's millions of
    pairs are built in ``O(players)`` Python steps, not one pair at a time.

    Attributes:
        table: Each player against themselves (side A's arrays are per player).
        choosers: Per ``choice`` stage index: the stage's ``chooser`` rule.
        named: Per ``choice`` stage index: whether each player is the stage's named chooser.
        seeds: Each player's given seed (NaN: none), for the ``higher-ranked`` chooser.
        base_ratings: Each player's rating, for the ``higher-ranked`` chooser.
    """

    table: Pairing
    choosers: dict[int, str]
    named: dict[int, npt.NDArray[np.bool_]]
    seeds: FloatArray
    base_ratings: FloatArray

    @classmethod
    def of(
        cls,
        fmt: Format,
        players: Sequence[Player],
        *,
        model: ModelParams = DEFAULT_MODEL,
        strategy: Strategy,
    ) -> Roster:
        """The roster of ``players`` (in this order: pairs are indices into it)."""
        field_ = list(players)
        choosers = {i: s.chooser for i, s in enumerate(fmt.playable) if s.is_choice}
        return cls(
            table=Pairing.of(fmt, field_, field_, model=model, strategy=strategy),
            choosers=choosers,
            named={
                i: np.array([p.name == chooser for p in field_], dtype=bool)
                for i, chooser in choosers.items()
            },
            seeds=np.array(
                [np.nan if p.seed is None else float(p.seed) for p in field_], dtype=np.float64
            ),
            base_ratings=np.array([p.rating for p in field_], dtype=np.float64),
        )

    def pairs(self, a: npt.ArrayLike, b: npt.ArrayLike) -> Pairing:
        """Pairs ``players[a[k]]`` v ``players[b[k]]``: the same pairing as :meth:`Pairing.of`
        with the two lists of players. The decision problems (which depend on the format and
        the model only) are shared, so their decision regions are computed once."""
        ia = np.asarray(a, dtype=np.intp)
        ib = np.asarray(b, dtype=np.intp)
        if ia.shape != ib.shape:
            raise ValueError("both sides of a pairing need the same number of players")
        t = self.table
        (mean, sd), _ = t.speeds
        pairing = Pairing(
            fmt=t.fmt,
            model=t.model,
            strategy=t.strategy,
            ratings={tc: (r[ia], r[ib]) for tc, (r, _) in t.ratings.items()},
            speeds=((mean[ia], sd[ia]), (mean[ib], sd[ib])),
            colour_chooser={i: self._first_chooses(i, ia, ib) for i in self.choosers},
        )
        for shared in ("time_classes", "bidding_game", "sealed_bid_game"):
            pairing.__dict__[shared] = getattr(t, shared)  # cached properties, computed once
        return pairing

    def _first_chooses(
        self, stage_index: int, ia: npt.NDArray[np.intp], ib: npt.NDArray[np.intp]
    ) -> FloatArray:
        """:func:`p_first_chooses` of every pair at ``choice`` stage ``stage_index``."""
        if self.choosers[stage_index] == "higher-ranked":
            sa, sb = self.seeds[ia], self.seeds[ib]
            ra, rb = self.base_ratings[ia], self.base_ratings[ib]
            by_seed = ~np.isnan(sa) & ~np.isnan(sb) & (sa != sb)
            by_rating = np.where(ra != rb, np.where(ra > rb, 1.0, 0.0), 0.5)
            return np.where(by_seed, np.where(sa < sb, 1.0, 0.0), by_rating)
        named = self.named[stage_index]
        return np.where(named[ia], 1.0, np.where(named[ib], 0.0, 0.5))


class ReplayError(ValueError):
    """A played game that cannot have happened; ``index`` is its position (from 0) and ``key``
    the entry's key at fault, when it is one key (``stage``, ``chooser``, ...)."""

    def __init__(self, index: int, reason: str, *, key: str | None = None) -> None:
        super().__init__(f"game {index + 1}: {reason}")
        self.index = index
        self.reason = reason
        self.key = key


@dataclass(frozen=True)
class PlayedGame:
    """A game already played, as given in a scenario's ``[[played]]`` list; or, without a
    result, a decision recorded for a game not played yet (a *decision entry*: the last entry
    of its match; its colours those the decision gives): the sudden-death bid (``chooser``,
    ``announce``, ``reply``), a colour choice (``chooser``, ``colour``), a cut (``cutter``,
    ``red_minutes``, ``colour``: the colour the other player took) or sealed bids (``bids``,
    and ``lot_black`` when they are equal).

    Attributes:
        red: Red player's name.
        black: Black player's name.
        stage: Stage name.
        result: Over-the-board result (None: a decision entry, the game is still to be played).
        time_used: Seconds each player used, if known (decides 甲 for a following bidding game).
        chooser: 甲's name (a bid), or the player who chose the colours (a choice).
        announce: 甲's announcement, for a bid.
        reply: 乙's reply, for a bid.
        colour: The colour the chooser took, for a choice (for a cut: the colour the player
            who did not cut took).
        cutter: Who named Red's minutes, for a cut.
        red_minutes: Red's base minutes the cutter named, for a cut.
        bids: Each player's sealed bid (Black's minutes), by name.
        lot_black: With equal sealed bids: the player the lot gave Black.
    """

    red: str
    black: str
    stage: str
    result: Result | None
    time_used: dict[str, float] | None = None
    chooser: str | None = None
    announce: Colour | None = None
    reply: Reply | None = None
    colour: Colour | None = None
    cutter: str | None = None
    red_minutes: float | None = None
    bids: dict[str, float] | None = None
    lot_black: str | None = None

    @property
    def is_bid(self) -> bool:
        """A decision entry: the recorded choice of a game not played yet."""
        return self.result is None

    @property
    def is_decision(self) -> bool:
        """A decision entry (a bid or a colour choice without its result)."""
        return self.result is None

    @property
    def records_bid(self) -> bool:
        """The entry carries a sudden-death bid."""
        return self.announce is not None or self.reply is not None

    @property
    def records_choice(self) -> bool:
        """The entry carries a colour choice."""
        return self.colour is not None and not self.records_cut

    @property
    def records_cut(self) -> bool:
        """The entry carries a cut-and-choose decision."""
        return self.cutter is not None or self.red_minutes is not None

    @property
    def records_sealed(self) -> bool:
        """The entry carries sealed Armageddon bids."""
        return self.bids is not None or self.lot_black is not None


def bid_colours(
    menu: BiddingMenu, chooser: str, other_name: str, announce: Colour, reply: Reply
) -> tuple[str, str]:
    """``(Red, Black)`` by the bidding rule when ``chooser`` (甲) announces ``announce`` and
    ``other_name`` (乙) replies ``reply``.

    >>> bid_colours(BiddingMenu(), "A", "B", Colour.RED, Reply.OBJECT)
    ('B', 'A')
    """
    colour, _ = menu.assignment(announce, reply)
    return (chooser, other_name) if colour is Colour.RED else (other_name, chooser)


def p_chooser_from_times(
    menu: BiddingMenu | CutChoose, used_a: float | None, used_b: float | None
) -> float | None:
    """P(A is 甲) once the previous game's times are known, by the priority rule.

    ``less-time``: 1 or 0 for the side that used less time, 1/2 for an exact tie (a lot);
    ``lot``: 1/2. None when a time is unknown (None or NaN): then the model's probability
    (:meth:`Pairing.p_a_chooses`) applies.

    >>> p_chooser_from_times(BiddingMenu(), 1500.0, 1800.0)
    1.0
    """
    if menu.priority == "lot":
        return 0.5
    if used_a is None or used_b is None or math.isnan(used_a) or math.isnan(used_b):
        return None
    if used_a == used_b:
        return 0.5
    return 1.0 if used_a < used_b else 0.0


@dataclass(frozen=True)
class Position:
    """Where a match stands after its played games: computed once (:func:`replay`) and handed
    to every walker.

    Attributes:
        state: The next state, or the finished match.
        games: Games replayed (a decision entry is not a game).
        p_a_chooses: P(A is 甲) for a bidding game that comes next, when the previous game's
            times (or a recorded bid) fix it (``None``: the model's probability applies).
        bid: The sudden-death choice recorded for the next game (a decision entry), if any: the
            game's colours and clocks are then fixed, and ``p_a_chooses`` is 1 or 0.
        choice: The colour choice recorded for the next game (a decision entry), if any.
        cut: The cut-and-choose decision recorded for the next game, if any.
        sealed: The sealed bids recorded for the next game, if any.
    """

    state: MatchState | Finished
    games: int
    p_a_chooses: float | None = None
    bid: Bid | None = None
    choice: ChoiceMade | None = None
    cut: Cut | None = None
    sealed: SealedMade | None = None

    @property
    def recorded(self) -> bool:
        """A decision is recorded for the next game (a bid, colour choice, cut or sealed
        bids): its colours and clocks are fixed."""
        return any(d is not None for d in (self.bid, self.choice, self.cut, self.sealed))

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


#: A decision recorded for a game not played yet.
Recorded = Bid | ChoiceMade | Cut | SealedMade

_WHAT: dict[type, str] = {
    Bid: "bid",
    ChoiceMade: "colour choice",
    Cut: "cut",
    SealedMade: "sealed bid",
}


def replay(fmt: Format, a: str, b: str, games: Sequence[PlayedGame]) -> Position:
    """Walk the chain through the games already played between ``a`` and ``b``.

    The last entry may be a decision entry (no result): the recorded bid, colour choice, cut or
    sealed bids of the next game, which must be a game whose players decide.

    Raises:
        ReplayError: A game that cannot have happened (wrong stage, wrong colours, a game after
            the match was decided, a decision that does not fit the rule or comes too early,
            an entry after a decision entry).
    """
    state: MatchState | Finished = initial_state()
    pending: Recorded | None = None
    played = 0
    for n, game in enumerate(games):
        if pending is not None:
            raise ReplayError(
                n - 1,
                f"a {_WHAT[type(pending)]} without a result must be the last entry of its match "
                f"({a} v {b}), got a {game.stage} entry after it",
                key="result",
            )
        if isinstance(state, Finished):
            raise ReplayError(n, f"the match {a} v {b} was already decided")
        red = _entry_red(fmt, state, n, game, (a, b))
        recorded = _recorded_decision(fmt, state, n, game, (a, b), games[n - 1] if n else None, red)
        if game.result is None:
            if recorded is None:
                stage = fmt.playable[state.stage]
                raise ReplayError(
                    n, f"{stage.name} has no decision to record before its game", key="result"
                )
            pending = recorded
            continue
        state = advance(fmt, state, red, game.result)
        played += 1
    bid = pending if isinstance(pending, Bid) else None
    choice = pending if isinstance(pending, ChoiceMade) else None
    cut = pending if isinstance(pending, Cut) else None
    sealed = pending if isinstance(pending, SealedMade) else None
    p_a: float | None = None
    if bid is not None:
        p_a = 1.0 if bid.chooser == 0 else 0.0
    elif cut is not None:
        p_a = 1.0 if cut.cutter == 0 else 0.0
    elif isinstance(state, MatchState) and games:
        stage = fmt.playable[state.stage]
        menu = stage.bidding if stage.bidding is not None else stage.cut
        used = games[-1].time_used or {}
        if menu is not None and (stage.is_bidding or stage.is_cut):
            p_a = p_chooser_from_times(menu, used.get(a), used.get(b))
    return Position(state, played, p_a, bid, choice, cut, sealed)


def _entry_red(
    fmt: Format, state: MatchState, n: int, game: PlayedGame, names: tuple[str, str]
) -> Side:
    """Who had Red in entry ``n``, checked: the match's players, its stage, colours that
    alternate where the rules say so."""
    a, b = names
    if {game.red, game.black} != {a, b}:
        raise ReplayError(n, f"players {game.red!r} and {game.black!r} are not {a!r} v {b!r}")
    stage = fmt.playable[state.stage]
    if game.stage != stage.name:
        if game.is_decision:
            raise ReplayError(
                n,
                f"expected a {stage.name} game here: the match {a} v {b} has not reached "
                f"the {game.stage} stage, so its {_entry_what(game)} cannot be recorded yet",
                key="stage",
            )
        raise ReplayError(n, f"expected a {stage.name} game here, got {game.stage!r}")
    red: Side = 0 if game.red == a else 1
    decision = next_decision(fmt, state)
    if isinstance(decision, Fixed) and decision.red != red:
        raise ReplayError(
            n, f"{names[decision.red]} must have Red in this game (colours alternate)"
        )
    return red


def _entry_what(game: PlayedGame) -> str:
    """What a decision entry records, in words."""
    if game.records_cut:
        return "cut"
    if game.records_sealed:
        return "sealed bid"
    return "colour choice" if game.records_choice else "bid"


def _recorded_decision(
    fmt: Format,
    state: MatchState,
    n: int,
    game: PlayedGame,
    names: tuple[str, str],
    previous: PlayedGame | None,
    red: Side,
) -> Recorded | None:
    """The decision entry ``n`` records (a bid, colour choice, cut or sealed bids), checked
    against the rule of the game it belongs to; None for a game that records none."""
    decision = next_decision(fmt, state)
    stage = fmt.playable[state.stage]
    if game.records_sealed:
        if not isinstance(decision, SealedBids):
            raise ReplayError(n, f"{stage.name} has no sealed bids", key="bids")
        return _recorded_sealed(n, game, names, red)
    if game.records_cut:
        if not isinstance(decision, CutChoice):
            raise ReplayError(n, f"{stage.name} has no cut-and-choose decision", key="cutter")
        return _recorded_cut(n, decision, game, names, previous, red)
    if game.records_bid or (game.chooser is not None and isinstance(decision, Bidding)):
        if not isinstance(decision, Bidding):
            key = "result" if game.is_decision else "chooser"
            raise ReplayError(n, f"{stage.name} has no sudden-death bid", key=key)
        return _recorded_bid(n, decision.menu, game, names, previous)
    if game.records_choice or (game.chooser is not None and isinstance(decision, Choice)):
        if not isinstance(decision, Choice):
            key = "colour" if game.records_choice else "chooser"
            raise ReplayError(n, f"{stage.name} has no colour choice to record", key=key)
        return _recorded_choice(n, decision, game, names, red)
    if game.chooser is not None:
        raise ReplayError(n, f"{stage.name} has no decision with a chooser", key="chooser")
    return None


def _recorded_sealed(n: int, game: PlayedGame, names: tuple[str, str], red: Side) -> SealedMade:
    """Sealed bids, checked: one bid from each player of the match, the lot's Black named for
    equal bids only, and Red the higher bid."""
    bids = game.bids or {}
    if set(bids) != set(names):
        raise ReplayError(
            n,
            f"expected one bid from each of {names[0]!r} and {names[1]!r}, got bids from "
            f"{', '.join(repr(k) for k in bids) or 'nobody'}",
            key="bids",
        )
    bid_a, bid_b = float(bids[names[0]]), float(bids[names[1]])
    if bid_a == bid_b:
        if game.lot_black not in names:
            raise ReplayError(
                n,
                f"expected lot_black = {names[0]!r} or {names[1]!r} (equal bids of {bid_a:g} "
                f"min: the lot gives Black), got {game.lot_black!r}",
                key="lot_black",
            )
        black: Side = 0 if game.lot_black == names[0] else 1
    elif game.lot_black is not None:
        raise ReplayError(
            n,
            f"expected no lot_black: the bids differ ({names[0]} {bid_a:g}, {names[1]} "
            f"{bid_b:g} min), so the lower bid plays Black",
            key="lot_black",
        )
    else:
        black = 0 if bid_a < bid_b else 1
    made = SealedMade((bid_a, bid_b), black)
    if made.red != red:
        raise ReplayError(
            n,
            f"expected {names[made.red]!r} as Red: {names[black]} plays Black (sealed bids "
            f"{names[0]} {bid_a:g}, {names[1]} {bid_b:g} min), got {game.red!r}",
            key="red",
        )
    return made


def _recorded_cut(
    n: int,
    decision: CutChoice,
    game: PlayedGame,
    names: tuple[str, str],
    previous: PlayedGame | None,
    red: Side,
) -> Cut:
    """A cut, checked: the cutter is a player of the match (the one the previous game's times
    name, if they do), and Red is who the chooser's colour gives Red to."""
    if game.cutter is None or game.red_minutes is None or game.colour is None:
        raise ReplayError(n, "a cut needs cutter, red_minutes and colour", key="cutter")
    if game.cutter not in names:
        raise ReplayError(
            n,
            f"expected {names[0]!r} or {names[1]!r} (the players of this match), got "
            f"{game.cutter!r}",
            key="cutter",
        )
    side: Side = 0 if game.cutter == names[0] else 1
    used = (previous.time_used if previous is not None else None) or {}
    p_a = p_chooser_from_times(decision.cut, used.get(names[0]), used.get(names[1]))
    if p_a in (0.0, 1.0) and names[0 if p_a == 1.0 else 1] != game.cutter:
        faster = names[0 if p_a == 1.0 else 1]
        times = ", ".join(f"{name} {used[name]:g} s" for name in names)
        raise ReplayError(
            n,
            f"expected {faster!r} as the cutter (used less time in the previous game: "
            f"{times}), got {game.cutter!r}",
            key="cutter",
        )
    made = Cut(side, float(game.red_minutes), game.colour)
    if made.red != red:
        chooser = names[other(side)]
        raise ReplayError(
            n,
            f"expected {names[made.red]!r} as Red: {chooser} chose {game.colour.value}, got "
            f"{game.red!r}",
            key="red",
        )
    return made


def _chooser_side(n: int, game: PlayedGame, names: tuple[str, str]) -> Side:
    chooser = game.chooser
    if chooser not in names:
        raise ReplayError(
            n,
            f"expected {names[0]!r} or {names[1]!r} (the players of this match), got {chooser!r}",
            key="chooser",
        )
    return 0 if chooser == names[0] else 1


def _recorded_choice(
    n: int, decision: Choice, game: PlayedGame, names: tuple[str, str], red: Side
) -> ChoiceMade:
    """A colour choice, checked: a chooser who may choose, and colours that follow from it."""
    if game.chooser is None or game.colour is None:
        raise ReplayError(n, "a colour choice needs chooser and colour", key="chooser")
    side = _chooser_side(n, game, names)
    if decision.chooser != "lot" and decision.chooser in names and decision.chooser != game.chooser:
        raise ReplayError(
            n,
            f"expected {decision.chooser!r} (the format names who chooses), got {game.chooser!r}",
            key="chooser",
        )
    if decision.side is not None and side != decision.side:
        had = "the first game" if decision.chooser == "first-black" else "the previous game"
        raise ReplayError(
            n,
            f"expected {names[decision.side]!r} (the format's chooser is the player who had "
            f"Black in {had}), got {game.chooser!r}",
            key="chooser",
        )
    made = ChoiceMade(side, game.colour)
    if made.red != red:
        raise ReplayError(
            n,
            f"expected {names[made.red]!r}: {game.chooser} chose {game.colour.value}, "
            f"got {game.red!r}",
            key="red",
        )
    return made


def _recorded_bid(
    n: int,
    menu: BiddingMenu,
    game: PlayedGame,
    names: tuple[str, str],
    previous: PlayedGame | None,
) -> Bid:
    """The bid of entry ``n`` (a decision entry, or a sudden-death game with its choice),
    checked against the bidding rule: 甲 is a player of the match (the one the previous game's
    times name, if they do), and Red is who the bid gives Red to."""
    if game.chooser is None or game.announce is None or game.reply is None:
        raise ReplayError(n, "a bid needs chooser, announce and reply", key="chooser")
    chooser = game.chooser
    side = _chooser_side(n, game, names)
    other_name = names[1 - side]
    used = (previous.time_used if previous is not None else None) or {}
    p_a = p_chooser_from_times(menu, used.get(names[0]), used.get(names[1]))
    if p_a in (0.0, 1.0) and names[0 if p_a == 1.0 else 1] != chooser:
        faster = names[0 if p_a == 1.0 else 1]
        times = ", ".join(f"{name} {used[name]:g} s" for name in names)
        raise ReplayError(
            n,
            f"expected {faster!r} as 甲 (used less time in the previous game: {times}), "
            f"got {chooser!r}",
            key="chooser",
        )
    red, _ = bid_colours(menu, chooser, other_name, game.announce, game.reply)
    if game.red != red:
        raise ReplayError(
            n,
            f"expected {red!r}: the bid gives Red to {red} (甲 {chooser} announces "
            f"{game.announce.value}, 乙 {other_name} {game.reply.value}s), got {game.red!r}",
            key="red",
        )
    return Bid(side, game.announce, game.reply)
