"""What a match needs from the model for one pair of players, or for many pairs at once.

:class:`Pairing` holds per-game outcome probabilities for each stage and colour assignment, and
the chance that each player is 甲; :class:`Roster` holds the players of a bracket as arrays, from
which pairings of any two are taken.

Sides: ``0`` is the first player of the pairing (A), ``1`` the second (B).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from knockout.arrays import FloatArray
from knockout.game import Colour
from knockout.rules.book.formats import Format, Stage
from knockout.rules.chain.match import MatchState
from knockout.rules.decisions.bidding import BiddingGame
from knockout.rules.decisions.choice import ChoiceGame
from knockout.rules.decisions.cut import CutChooseGame
from knockout.rules.decisions.kinds import (
    Choice,
    Side,
)
from knockout.rules.decisions.pace import deciding_game, pace_shift
from knockout.rules.decisions.sealed import SealedBidGame
from knockout.rules.decisions.strategies import BidProbabilities, Strategy
from knockout.rules.model.players import Player
from knockout.rules.model.strength import (
    DEFAULT_MODEL,
    GameProbabilities,
    ModelParams,
    TimeClass,
    game_probabilities,
    p_uses_less_time,
)

__all__ = [
    "Pairing",
    "Roster",
    "p_first_chooses",
]


def p_first_chooses(chooser: str, a: Player, b: Player) -> float:
    """P(player ``a`` chooses the colours) by a ``choice`` stage's ``chooser`` rule, as far as
    the pair decides it: the named chooser if they play; the higher-ranked (the better seed when
    both have one, else the higher rating); else a lot (1/2). A chooser the match's colours
    name (``last-black``, ``first-black``) rides on the decision instead
    (:attr:`~knockout.rules.decisions.kinds.Choice.side`).

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
            aims to use in the game that decides 甲 (:mod:`knockout.rules.decisions.pace`); None:
            their natural pace (``speed.mean``), the plain model.
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
        player's strength shifts by :func:`~knockout.rules.decisions.pace.pace_shift`."""
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
