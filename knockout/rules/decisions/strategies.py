"""How 甲 and 乙 decide (MODEL.md, strategies): one :class:`Strategy` per kind, each playing
every decision game (the bidding, a colour choice, the sealed bids, cut-and-choose).

* ``rational``: each decision is the best one at the true rating difference; in the bidding, 乙
  objects exactly when objecting gives 甲 a strictly lower chance, and 甲 announces the colour
  that is better for 甲 after 乙's best reply (Red on a tie).
* ``naive``: 甲 announces Red and 乙 accepts (and the simple rule of each other decision).
* ``believed``: the rational rule applied at each player's own belief ``x + Normal(0,
  belief_sd)``, drawn independently per player and per match. Each decision is a threshold rule
  in one player's belief, so its probability is a sum of Normal masses over the decision regions.
* ``bayesian``: the same private estimates, each player averaging over the truth around its
  own estimate.
* ``equilibrium``: a perfect Bayesian equilibrium on those estimates
  (:mod:`knockout.rules.decisions.equilibrium`; the sealed bids and cut-and-choose:
  :mod:`knockout.rules.decisions.gridgames`).

The decision games sit below this module (:mod:`~knockout.rules.decisions.bidding`,
:mod:`~knockout.rules.decisions.choice`, :mod:`~knockout.rules.decisions.sealed`,
:mod:`~knockout.rules.decisions.cut`), and the equilibria between them and the strategies.

Arrays: ``x`` may be a scalar or an array of shape ``(n,)``; results have the same shape.
"""

from __future__ import annotations

import functools
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt

from knockout.game import Colour, Reply
from knockout.rules.decisions.cut import CutChooseGame
from knockout.rules.model.normal import ndtr

if TYPE_CHECKING:
    from knockout.rules.decisions.gridgames import MixedBids, MixedCut
from knockout.arrays import BoolArray, FloatArray
from knockout.rules.decisions.bidding import BiddingGame, bayesian_regions, rational_regions_of
from knockout.rules.decisions.choice import ChoiceGame, bayesian_choice_region
from knockout.rules.decisions.regions import (
    PointRule,
    Region,
    Regions,
    as_intervals,
    bounds_mass,
    inside,
)
from knockout.rules.decisions.sealed import SealedBidGame

__all__ = [
    "STRATEGIES",
    "Bayesian",
    "BeliefSampler",
    "Believed",
    "BidProbabilities",
    "BidSample",
    "CutRule",
    "DecisionSampler",
    "Equilibrium",
    "Naive",
    "Rational",
    "Strategy",
    "StrategySampler",
    "get_strategy",
]


class BidProbabilities(NamedTuple):
    """Decision probabilities, each shaped like ``x``."""

    announce_red: FloatArray
    object_if_red: FloatArray
    object_if_black: FloatArray

    def joint(self) -> dict[tuple[Colour, Reply], FloatArray]:
        """P(announce, reply) for all four branches (the two decisions are independent)."""
        a_red = self.announce_red
        return {
            (Colour.RED, Reply.ACCEPT): a_red * (1 - self.object_if_red),
            (Colour.RED, Reply.OBJECT): a_red * self.object_if_red,
            (Colour.BLACK, Reply.ACCEPT): (1 - a_red) * (1 - self.object_if_black),
            (Colour.BLACK, Reply.OBJECT): (1 - a_red) * self.object_if_black,
        }


class BidSample(NamedTuple):
    """Sampled decisions, each a bool array shaped like ``x``."""

    announce_red: BoolArray
    objects: BoolArray


class DecisionSampler(ABC):
    """A strategy's decisions for one bidding game as array operations, built once (e.g. per
    kernel table) and shipped to workers: everything it needs is in its own arrays."""

    @abstractmethod
    def sample(self, x: FloatArray, rng: np.random.Generator) -> BidSample:
        """Draw decisions for matches whose true advantages (甲 minus 乙) are ``x``, shape
        ``(n,)``; consumes ``rng`` exactly as :meth:`Strategy.sample` does."""


@dataclass(frozen=True)
class StrategySampler(DecisionSampler):
    """Any strategy's own :meth:`Strategy.sample` for a fixed game (the default sampler)."""

    strategy: Strategy
    game: BiddingGame

    def sample(self, x: FloatArray, rng: np.random.Generator) -> BidSample:
        return self.strategy.sample(self.game, x, rng)


@dataclass(frozen=True)
class BeliefSampler(DecisionSampler):
    """Decisions by regions of private beliefs ``x + Normal(0, belief_sd)`` (the rational rule's
    for ``believed``, the expected-value rule's for ``bayesian``): two Normal draws per match
    (甲's belief, then 乙's) and one sorted search per decision in the regions.

    Attributes:
        belief_sd: Standard deviation of each belief's error (Elo).
        announce_red: :attr:`Regions.bounds` where 甲 announces Red.
        object_red: Where 乙 objects to Red.
        object_black: Where 乙 objects to Black.
    """

    belief_sd: float
    announce_red: FloatArray
    object_red: FloatArray
    object_black: FloatArray

    @classmethod
    def of(cls, regions: Mapping[str, Regions], belief_sd: float) -> BeliefSampler:
        """The sampler of a strategy's decision regions (found once, by the caller)."""
        r = regions
        return cls(
            belief_sd,
            r["announce_red"].bounds,
            r["object_red"].bounds,
            r["object_black"].bounds,
        )

    def sample(self, x: FloatArray, rng: np.random.Generator) -> BidSample:
        x_arr = np.asarray(x, dtype=np.float64)
        chooser_belief = x_arr + rng.normal(0.0, self.belief_sd, size=x_arr.shape)
        bidder_belief = x_arr + rng.normal(0.0, self.belief_sd, size=x_arr.shape)
        red = inside(self.announce_red, chooser_belief)
        objects = np.where(
            red, inside(self.object_red, bidder_belief), inside(self.object_black, bidder_belief)
        )
        return BidSample(red, np.asarray(objects))


@dataclass(frozen=True)
class CutRule:
    """A pure rule of cut-and-choose, in each player's estimate of their own advantage.

    Attributes:
        cut: The cutter's cut (Red's minutes) as a function of its estimate.
        threshold: The chooser's threshold ``c(r)`` at cuts ``r``: it takes Red when its
            estimate is within ``c(r)`` of zero (negative: never).
        red: The chooser's rule pointwise (estimate, cut: True = Red), where it is given so
            (the rational rule at the truth); None: ``|estimate| <= threshold(cut)``.
    """

    cut: Callable[[FloatArray], FloatArray]
    threshold: Callable[[FloatArray], FloatArray]
    red: Callable[[FloatArray, FloatArray], BoolArray] | None = None

    def takes_red(self, estimate: npt.ArrayLike, cut: npt.ArrayLike) -> BoolArray:
        """Whether a chooser with this estimate takes Red after this cut (broadcast)."""
        e = np.asarray(estimate, dtype=np.float64)
        r = np.asarray(cut, dtype=np.float64)
        if self.red is not None:
            return np.asarray(self.red(e, r), dtype=bool)
        return np.asarray(np.abs(e) <= self.threshold(r))


#: A sealed-bid rule: a bid of an estimate, or a mixed equilibrium on a grid.
BidRule: TypeAlias = "Callable[[FloatArray], FloatArray] | MixedBids"


#: A cut-and-choose rule: pure (:class:`CutRule`) or a mixed equilibrium on a grid.
CutRuleLike: TypeAlias = "CutRule | MixedCut"


@dataclass(frozen=True)
class Strategy(ABC):
    """How 甲 and 乙 decide, in every decision problem (the bidding, a colour choice, sealed
    bids). Implementations are small, immutable and registered in STRATEGIES.

    A strategy is four hooks, one per decision problem, each a rule in a player's *estimate* of
    the rating difference: :meth:`regions` (where 甲 announces Red and 乙 objects), :meth:`choice_
    region` (where a chooser takes Red), :meth:`bid` (a sealed bid, or a mixed equilibrium on a
    grid) and :meth:`cut` (cut-and-choose: the cut and the chooser's threshold, or a mixed
    equilibrium on a grid). Whether players decide
    on the truth or on private noisy estimates is :attr:`noise`: ``belief_sd`` for the kinds with
    private beliefs (``private``), 0 otherwise. Everything the walkers ask (exact decision
    probabilities, samples, sealed-bid odds, the lower bid's distribution) is derived here from
    those hooks, once, for every kind.

    Every strategy carries the scenario's ``belief_sd`` (so the ``[strategy]`` table is stored
    once, in the strategy, and round-trips); only the private kinds use it.
    """

    kind: ClassVar[str]
    #: Whether decisions are taken on private noisy estimates (``belief_sd``).
    private: ClassVar[bool] = False
    #: Whether :meth:`regions` and :meth:`choice_region` are the rational rule's (then a
    #: vectorised model finds them per set of constants, :meth:`vector_regions`).
    rational_regions: ClassVar[bool] = False
    belief_sd: float = 100.0

    # --- the hooks -------------------------------------------------------------------------

    @abstractmethod
    def regions(self, game: BiddingGame) -> Mapping[str, Region]:
        """``announce_red``, ``object_red``, ``object_black``: regions in a player's estimate
        (intervals; a strategy on the truth may give them pointwise)."""

    @abstractmethod
    def choice_region(self, game: ChoiceGame) -> Region:
        """Where a chooser with that estimate takes Red."""

    @abstractmethod
    def bid(self, game: SealedBidGame) -> BidRule:
        """A player's sealed bid as a function of their estimate, or a mixed rule on a grid
        (:class:`~knockout.rules.decisions.gridgames.MixedBids`)."""

    @abstractmethod
    def cut(self, game: CutChooseGame) -> CutRuleLike:
        """Cut-and-choose: the cutter's cut and the chooser's threshold (:class:`CutRule`), or
        a mixed rule on a grid (:class:`~knockout.rules.decisions.gridgames.MixedCut`)."""

    # --- derived -----------------------------------------------------------------------------

    def bid_rule(self, game: SealedBidGame) -> BidRule:
        """The sealed-bid rule that decides (a private kind without noise: the rational one)."""
        return self._rules().bid(game)

    def cut_rule(self, game: CutChooseGame) -> CutRuleLike:
        """The cut-and-choose rule that decides (a private kind without noise: the rational
        one)."""
        return self._rules().cut(game)

    def vector_regions(self, game: BiddingGame) -> dict[str, FloatArray] | None:
        """:meth:`regions` on private estimates for a vectorised model (one set of constants
        per pair): padded bounds per set (:func:`vector_bounds`), for a kind whose regions are
        the rational rule's (:attr:`rational_regions`); None where the regions need one model
        at a time (rules on the truth need none: they are pointwise)."""
        return game.vector_regions if self.rational_regions else None

    def vector_choice_region(self, game: ChoiceGame) -> FloatArray | None:
        """:meth:`choice_region` on private estimates for a vectorised model, or None."""
        return game.vector_red_region if self.rational_regions else None

    @property
    def vectorises(self) -> bool:
        """Whether its exact decision probabilities take a vectorised model (one set of
        constants per pair): decisions on the truth (pointwise), and the private kinds whose
        regions are the rational rule's."""
        return self.noise == 0 or self.rational_regions

    @property
    def noise(self) -> float:
        """The sd of each player's estimate error (0: players decide on the truth)."""
        return self.belief_sd if self.private else 0.0

    @property
    def is_deterministic(self) -> bool:
        """True if decisions depend only on the true ratings (so can be computed per pairing)."""
        return self.noise == 0

    def _rules(self) -> Strategy:
        """Whose hooks decide: a private kind without noise knows the truth, so it decides as
        the rational rule does (pointwise, for many pairs and model constants at once)."""
        return Rational(self.belief_sd) if self.private and self.noise == 0 else self

    def to_dict(self) -> dict[str, object]:
        """The scenario-file ``[strategy]`` table."""
        return {"kind": self.kind, "belief_sd": self.belief_sd}

    def _mass(self, region: Region, x: npt.ArrayLike) -> FloatArray:
        """P(the deciding player's estimate of ``x`` lies in ``region``)."""
        if self.noise == 0:
            return region.contains(x).astype(np.float64)
        return as_intervals(region).normal_mass(x, self.noise)

    def _beliefs(self, x: npt.ArrayLike, rng: np.random.Generator) -> FloatArray:
        x_arr = np.asarray(x, dtype=np.float64)
        return x_arr + rng.normal(0.0, self.noise, size=x_arr.shape)

    def probabilities(self, game: BiddingGame, x: npt.ArrayLike) -> BidProbabilities:
        """Exact decision probabilities when 甲's true rating advantage is ``x`` (a vectorised
        model with private estimates: each pair's regions under its own constants,
        :meth:`vector_regions`)."""
        if game.model.size is not None and self.noise > 0:
            b = self.vector_regions(game)
            if b is None:
                raise ValueError(f"{self.kind} decisions need one model at a time")
            return BidProbabilities(
                bounds_mass(b["announce_red"], x, self.noise),
                bounds_mass(b["object_red"], x, self.noise),
                bounds_mass(b["object_black"], x, self.noise),
            )
        r = self._rules().regions(game)
        return BidProbabilities(
            self._mass(r["announce_red"], x),
            self._mass(r["object_red"], x),
            self._mass(r["object_black"], x),
        )

    def sample(self, game: BiddingGame, x: npt.ArrayLike, rng: np.random.Generator) -> BidSample:
        """Draw decisions for matches whose true advantages are ``x`` (consumes ``rng`` only
        when players decide on estimates)."""
        x_arr = np.asarray(x, dtype=np.float64)
        if self.noise == 0:
            r = self._rules().regions(game)
            red = r["announce_red"].contains(x_arr)
            objects = np.where(
                red, r["object_red"].contains(x_arr), r["object_black"].contains(x_arr)
            )
            return BidSample(red, np.asarray(objects))
        return self.sampler(game).sample(x_arr, rng)

    def sampler(self, game: BiddingGame) -> DecisionSampler:
        """The decisions for ``game`` as a self-contained array sampler (the Monte Carlo kernel
        builds it once per table): the regions, searched per belief."""
        if self.noise == 0:
            return StrategySampler(self, game)
        regions = {k: as_intervals(v) for k, v in self._rules().regions(game).items()}
        return BeliefSampler.of(regions, self.noise)

    def samplers(self, games: Sequence[BiddingGame]) -> list[DecisionSampler]:
        """``[self.sampler(game) for game in games]`` for games that differ only in their
        constants: a kind whose regions are the rational rule's finds every game's regions
        together (:func:`rational_regions_of`, the same regions bit for bit)."""
        if self.noise == 0 or not self.rational_regions or len(games) < 2:
            return [self.sampler(game) for game in games]
        found = rational_regions_of(games)
        return [
            BeliefSampler.of({k: as_intervals(v) for k, v in r.items()}, self.noise) for r in found
        ]

    def choice_probability(self, game: ChoiceGame, x: npt.ArrayLike) -> FloatArray:
        """P(the chooser takes Red) when the chooser's true advantage is ``x``."""
        if game.model.size is not None and self.noise > 0:
            b = self.vector_choice_region(game)
            if b is None:
                raise ValueError(f"{self.kind} decisions need one model at a time")
            return bounds_mass(b, x, self.noise)
        return self._mass(self._rules().choice_region(game), x)

    def choice_sample(
        self, game: ChoiceGame, x: npt.ArrayLike, rng: np.random.Generator
    ) -> BoolArray:
        """Draw the chooser's colour (True = Red) for matches whose true advantages are ``x``."""
        region = self._rules().choice_region(game)
        return region.contains(x if self.noise == 0 else self._beliefs(x, rng))

    def sealed_bids(
        self, game: SealedBidGame, x: npt.ArrayLike, rng: np.random.Generator
    ) -> tuple[FloatArray, FloatArray]:
        """A's and B's sealed bids when A's true advantage is ``x`` (on private estimates: each
        bids on their own, A's drawn first)."""
        bid = self.bid_rule(game)
        x_arr = np.asarray(x, dtype=np.float64)
        if not callable(bid):  # a mixed rule: each draws an estimate, a bid cell, a point
            a = bid.sample(x_arr.ravel(), rng).reshape(x_arr.shape)
            return a, bid.sample(-x_arr.ravel(), rng).reshape(x_arr.shape)
        if self.noise == 0:
            b = np.asarray(bid(x_arr), dtype=np.float64)
            return b, b.copy()
        a = bid(self._beliefs(x_arr, rng))
        return a, bid(self._beliefs(x_arr, rng))

    def sealed_bid_advances(self, game: SealedBidGame, x: npt.ArrayLike) -> FloatArray:
        """Exact P(A advances) in the sealed-bid game."""
        bid = self.bid_rule(game)
        if not callable(bid):
            from knockout.rules.decisions import gridgames  # noqa: PLC0415 (start-up: scipy)

            return gridgames.sealed_advances(game, bid, x)
        if self.noise == 0:
            b = np.asarray(bid(np.asarray(x, dtype=np.float64)), dtype=np.float64)
            return game.a_advances(x, b, b)
        return game.believed_a_advances(x, self.noise, bid=bid)

    def black_clock(self, game: SealedBidGame, x: float) -> tuple[FloatArray, FloatArray]:
        """The distribution of Black's clock (the lower bid at first price, the higher at
        second) when A's advantage is ``x``: values and probabilities."""
        rule = self.bid_rule(game)
        if not callable(rule):
            from knockout.rules.decisions import gridgames  # noqa: PLC0415 (start-up: scipy)

            return gridgames.black_clock(game, rule, x)
        if self.noise == 0:
            return np.atleast_1d(rule(np.asarray(x, dtype=np.float64))), np.ones(1)
        return game.believed_lower_bid(x, self.noise, bid=rule)

    def expected_black_minutes(self, game: SealedBidGame, x: npt.ArrayLike) -> FloatArray:
        """E[Black's clock] in the sealed-bid game (on the truth, both bid the same: that
        bid)."""
        rule = self.bid_rule(game)
        if self.noise == 0 and callable(rule):
            bids = rule(np.asarray(x, dtype=np.float64))
            shape = np.broadcast_shapes(np.shape(x), np.shape(bids))
            return np.asarray(bids, dtype=np.float64).reshape(shape)
        x_arr = np.atleast_1d(np.asarray(x, dtype=np.float64))
        clocks = (self.black_clock(game, float(xi)) for xi in x_arr)
        means = [float(np.sum(v * p)) for v, p in clocks]
        return np.asarray(means, dtype=np.float64).reshape(np.shape(x))

    def cut_advances(self, game: CutChooseGame, x: npt.ArrayLike) -> FloatArray:
        """Exact P(the cutter advances) when the cutter's true advantage is ``x``."""
        rule = self.cut_rule(game)
        if not isinstance(rule, CutRule):
            from knockout.rules.decisions import gridgames  # noqa: PLC0415 (start-up: scipy)

            return gridgames.cut_advances(game, rule, x)
        x_arr = np.asarray(x, dtype=np.float64)
        if self.noise == 0:
            cut = rule.cut(x_arr)
            return game.cutter_advances(x_arr, cut, rule.takes_red(-x_arr, cut))
        flat = np.atleast_1d(x_arr)
        cuts, mass = self._cuts(rule, flat)
        q = self.chooser_red_given(game, -flat[:, None], cuts)
        xb = flat[:, None]
        value = q * game.cutter_advances(xb, cuts, True)
        value += (1 - q) * game.cutter_advances(xb, cuts, False)
        return np.asarray(value @ mass, dtype=np.float64).reshape(np.shape(x))

    def _cuts(self, rule: CutRule, x: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Cuts on a grid of the cutter's estimates around each ``x`` (``(n, cells)``) and the
        cells' Normal masses (801 cells over +-8 sd)."""
        edges = np.linspace(-8.0, 8.0, 802)
        mass = np.diff(ndtr(edges))
        z = 0.5 * (edges[:-1] + edges[1:])
        return rule.cut(x[:, None] + self.noise * z), mass / mass.sum()

    def cut_distribution(self, game: CutChooseGame, x: float) -> tuple[FloatArray, FloatArray]:
        """The cuts a pure cutter whose true advantage is ``x`` names: values and
        probabilities (on the truth: one cut)."""
        rule = self.cut_rule(game)
        if not isinstance(rule, CutRule):
            raise TypeError("a mixed cut has no list of cuts: read its cells (MixedCut)")
        if self.noise == 0:
            return np.atleast_1d(rule.cut(np.asarray(x, dtype=np.float64))), np.ones(1)
        cuts, mass = self._cuts(rule, np.array([x], dtype=np.float64))
        return cuts[0], mass

    def chooser_red_given(
        self, game: CutChooseGame, z: npt.ArrayLike, cut: npt.ArrayLike
    ) -> FloatArray:
        """P(a pure chooser takes Red) given its true advantage ``z`` and the cut (broadcast):
        its estimate within the rule's threshold of zero."""
        rule = self.cut_rule(game)
        if not isinstance(rule, CutRule):
            raise TypeError("a mixed chooser's reply is read off its table (MixedCut)")
        z_arr = np.asarray(z, dtype=np.float64)
        r = np.asarray(cut, dtype=np.float64)
        if self.noise == 0:
            return np.asarray(rule.takes_red(z_arr, r), dtype=np.float64)
        c = rule.threshold(r)
        inside = ndtr((c - z_arr) / self.noise) - ndtr((-c - z_arr) / self.noise)
        return np.asarray(np.where(c >= 0, inside, 0.0), dtype=np.float64)

    def cut_sample(
        self, game: CutChooseGame, x: npt.ArrayLike, rng: np.random.Generator
    ) -> tuple[FloatArray, BoolArray]:
        """Draw the cuts (Red's minutes) and the chooser's colours (True = Red) for matches
        whose cutters' true advantages are ``x`` (on estimates: the cutter's drawn first, then
        the chooser's; a mixed rule draws each player's estimate, then its cell, then a point)."""
        rule = self.cut_rule(game)
        x_arr = np.asarray(x, dtype=np.float64)
        if not isinstance(rule, CutRule):
            cut, cell = rule.sample_cut(x_arr.ravel(), rng)
            red = rule.sample_red(-x_arr.ravel(), cell, rng)
            return cut.reshape(x_arr.shape), red.reshape(x_arr.shape)
        if self.noise == 0:
            cut = rule.cut(x_arr)
            return cut, rule.takes_red(-x_arr, cut)
        cut = rule.cut(self._beliefs(x_arr, rng))
        chooser = self._beliefs(-x_arr, rng)
        return cut, np.asarray(np.abs(chooser) <= rule.threshold(cut))

    def expected_cut(self, game: CutChooseGame, x: npt.ArrayLike) -> FloatArray:
        """E[Red's minutes] in the cut-and-choose game."""
        rule = self.cut_rule(game)
        x_arr = np.atleast_1d(np.asarray(x, dtype=np.float64))
        if not isinstance(rule, CutRule):
            mid = 0.5 * (rule.edges[1:] + rule.edges[:-1])
            return np.asarray(rule.cut_cells(x_arr) @ mid, dtype=np.float64).reshape(np.shape(x))
        if self.noise == 0:
            return np.asarray(rule.cut(np.asarray(x, dtype=np.float64)), dtype=np.float64)
        cuts, mass = self._cuts(rule, x_arr)
        return np.asarray(cuts @ mass, dtype=np.float64).reshape(np.shape(x))


@dataclass(frozen=True)
class Rational(Strategy):
    """Both players know the model and the true ratings: the rational rule at the truth,
    pointwise (so it holds for many pairs and model constants at once), and the indifference
    bid."""

    kind: ClassVar[str] = "rational"

    def regions(self, game: BiddingGame) -> Mapping[str, Region]:
        return {
            "announce_red": PointRule(game.rational_announces_red),
            "object_red": PointRule(functools.partial(game.rational_objects, Colour.RED)),
            "object_black": PointRule(functools.partial(game.rational_objects, Colour.BLACK)),
        }

    def choice_region(self, game: ChoiceGame) -> Region:
        return PointRule(game.rational_red)

    def bid(self, game: SealedBidGame) -> Callable[[FloatArray], FloatArray]:
        return game.rational_bid

    def cut(self, game: CutChooseGame) -> CutRule:
        """The cut that leaves the chooser indifferent; the chooser's better colour."""
        return CutRule(
            game.rational_cut, functools.partial(game.chooser_threshold, sd=0.0), game.rational_red
        )


_EVERYWHERE = Regions(((-math.inf, math.inf),))


_NOWHERE = Regions(())


@dataclass(frozen=True)
class Naive(Strategy):
    """甲 always announces Red and 乙 always accepts; a chooser takes Red; both bid half of
    Red's clock."""

    kind: ClassVar[str] = "naive"

    def regions(self, game: BiddingGame) -> Mapping[str, Region]:
        return {"announce_red": _EVERYWHERE, "object_red": _NOWHERE, "object_black": _NOWHERE}

    def choice_region(self, game: ChoiceGame) -> Region:
        return _EVERYWHERE

    def bid(self, game: SealedBidGame) -> Callable[[FloatArray], FloatArray]:
        return lambda y: np.full(np.shape(y), game.naive_bid)

    def cut(self, game: CutChooseGame) -> CutRule:
        """The cutter names the fair split of equal players; the chooser takes Red."""
        return CutRule(
            game.fair_cuts,
            lambda r: np.full(np.shape(r), np.inf),
        )


@dataclass(frozen=True)
class _PrivateBeliefs(Strategy):
    """Decisions taken on private, noisy estimates of the rating difference: each player's
    estimate is the truth plus their own ``Normal(0, belief_sd)`` error, drawn independently per
    player and per match. Every decision is a threshold rule in one player's estimate, so its
    exact probability is a Normal mass over decision regions."""

    private: ClassVar[bool] = True


@dataclass(frozen=True)
class Believed(_PrivateBeliefs):
    """Rational play on private, noisy beliefs: each player takes their estimate for the truth.

    The regions are the rational rule's own (:attr:`BiddingGame.regions`).
    """

    kind: ClassVar[str] = "believed"
    rational_regions: ClassVar[bool] = True

    def regions(self, game: BiddingGame) -> Mapping[str, Regions]:
        return game.regions

    def choice_region(self, game: ChoiceGame) -> Regions:
        return game.red_region

    def bid(self, game: SealedBidGame) -> Callable[[FloatArray], FloatArray]:
        return game.rational_bid

    def cut(self, game: CutChooseGame) -> CutRule:
        return CutRule(game.rational_cut, functools.partial(game.chooser_threshold, sd=0.0))


@dataclass(frozen=True)
class Bayesian(_PrivateBeliefs):
    """The same private estimates as ``believed``, but a player does not take their estimate for
    the truth: given an estimate ``e`` they hold the truth to be ``Normal(e, belief_sd)`` and pick
    the option with the higher expected chance (:func:`bayesian_regions`: 甲 also averages over
    乙's reply, knowing 乙 decides the same way from the truth plus 乙's own noise).
    """

    kind: ClassVar[str] = "bayesian"

    def regions(self, game: BiddingGame) -> Mapping[str, Regions]:
        return bayesian_regions(game, self.belief_sd)

    def choice_region(self, game: ChoiceGame) -> Regions:
        return bayesian_choice_region(game, self.belief_sd)

    def bid(self, game: SealedBidGame) -> Callable[[FloatArray], FloatArray]:
        return functools.partial(game.bayesian_bid, belief_sd=self.belief_sd)

    def cut(self, game: CutChooseGame) -> CutRule:
        """The cut with the highest expected chance, over the truth around the estimate and the
        chooser's reply (a Bayesian chooser on its own estimate); the chooser takes the colour
        with the higher expected chance on its own posterior."""
        return CutRule(
            functools.partial(game.bayesian_cut, sd=self.belief_sd),
            functools.partial(game.chooser_threshold, sd=self.belief_sd),
        )


@dataclass(frozen=True)
class Equilibrium(_PrivateBeliefs):
    """Equilibrium play on the same private estimates: in the bidding rule a perfect Bayesian
    equilibrium in thresholds, 乙 updating on 甲's announcement
    (:func:`knockout.rules.decisions.equilibrium.bidding_equilibrium`); in a colour choice, the
    chooser's Bayesian choice (its only decision); in the sealed bids and cut-and-choose the
    (possibly mixed) equilibrium of :mod:`knockout.rules.decisions.gridgames`. With ``belief_sd =
    0`` every decision is the rational one.
    """

    kind: ClassVar[str] = "equilibrium"

    def regions(self, game: BiddingGame) -> Mapping[str, Regions]:
        from knockout.rules.decisions import equilibrium  # noqa: PLC0415 (start-up: scipy)

        return equilibrium.bidding_equilibrium(game, self.belief_sd).regions

    def choice_region(self, game: ChoiceGame) -> Regions:
        return bayesian_choice_region(game, self.belief_sd)

    def bid(self, game: SealedBidGame) -> MixedBids:
        """The symmetric equilibrium of the sealed bids on the grid (it may mix)."""
        from knockout.rules.decisions import gridgames  # noqa: PLC0415 (start-up: scipy)

        return gridgames.sealed_equilibrium(game, self.belief_sd)

    def cut(self, game: CutChooseGame) -> MixedCut:
        """The equilibrium of cut-and-choose on the grid (it may mix)."""
        from knockout.rules.decisions import gridgames  # noqa: PLC0415 (start-up: scipy)

        return gridgames.cut_equilibrium(game, self.belief_sd)


STRATEGIES: Mapping[str, type[Strategy]] = {
    Rational.kind: Rational,
    Naive.kind: Naive,
    Believed.kind: Believed,
    Bayesian.kind: Bayesian,
    Equilibrium.kind: Equilibrium,
}


def get_strategy(kind: str, *, belief_sd: float = 100.0) -> Strategy:
    """The strategy called ``kind``.

    Raises:
        ValueError: For an unknown kind or a negative ``belief_sd``.
    """
    if kind not in STRATEGIES:
        raise ValueError(f"unknown strategy: {kind!r} (known: {', '.join(STRATEGIES)})")
    if not (math.isfinite(belief_sd) and belief_sd >= 0):
        raise ValueError(f"belief_sd must be a number >= 0, got {belief_sd}")
    return STRATEGIES[kind](belief_sd)
