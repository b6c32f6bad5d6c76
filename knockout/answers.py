"""The answers every walker gives, and their one JSON form.

Two kinds of answer: :class:`MatchOdds` (a two-player match) and :class:`BracketOdds` (a knockout
event). The exact solver fills them with exact probabilities; the Monte Carlo and the SimPy engine
count outcomes into a :class:`MatchTally` or :class:`BracketTally` (integers that add up exactly
across blocks) and turn the counts into the same answer twice, once with the estimates and once
with their standard errors (:class:`Simulated`). Each answer has one serialiser, so ``knockout odds
--json`` and ``knockout simulate --json`` cannot drift apart: the simulation's JSON is the exact
JSON's keys plus ``runs``, ``seed`` and ``stderr`` (the standard error of every estimate, under the
same key path).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from knockout.rules.book.bracket import Bracket
from knockout.rules.decisions.bidding import BRANCH_NAMES as BRANCH_KEYS
from knockout.rules.model.sd import Spread

__all__ = [
    "BRANCH_UNIT",
    "BracketOdds",
    "BracketTally",
    "Estimate",
    "EventFigures",
    "MatchOdds",
    "MatchTally",
    "Simulated",
    "SuddenDeath",
    "branch_units",
]

#: Sums of sudden-death branch values are counted in units of 2**-40 (about 1e-12): integers,
#: exact however the blocks are added up (65,536 values per block stay below 2**63).
BRANCH_UNIT = 2**40


def branch_units(values: Any) -> Any:
    """Chances in ``[0, 1]`` as integer units of ``1 / BRANCH_UNIT`` (numpy int64, same shape).

    >>> int(branch_units(0.5)) == BRANCH_UNIT // 2
    True
    """
    import numpy as np  # noqa: PLC0415  (the answer types themselves need no numpy)

    return np.rint(np.asarray(values, dtype=np.float64) * BRANCH_UNIT).astype(np.int64)


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate and its standard error."""

    value: float
    stderr: float

    @classmethod
    def proportion(cls, count: int, n: int) -> Estimate | None:
        """``count / n`` with its binomial standard error ``sqrt(p (1 - p) / n)``; None if n = 0.

        >>> Estimate.proportion(25, 100)
        Estimate(value=0.25, stderr=0.04330127018922193)
        """
        if n == 0:
            return None
        p = count / n
        return cls(p, math.sqrt(p * (1 - p) / n))

    @classmethod
    def mean(
        cls, total: float, total_squares: float, n: int, *, resolution: float = 0.0
    ) -> Estimate:
        """The mean of ``n`` values from their sum and sum of squares, with its standard error;
        ``resolution``: the smallest variance the sums can tell from zero (fixed-point sums)."""
        m = total / n
        var = total_squares / n - m * m
        if var <= max(1e-12 * m * m, resolution):  # rounding of equal values: no spread at all
            var = 0.0
        var *= n / max(n - 1, 1)
        return cls(m, math.sqrt(var / n))


# ---------------------------------------------------------------------------------------------
# A match


@dataclass(frozen=True)
class SuddenDeath:
    """The sudden-death game laid open.

    Attributes:
        reached: P(the sudden-death game is reached).
        time_class: The game's time class (fixed once for the stage).
        chooser: P(each player is 甲 | reached); None where it cannot be reached.
        as_chooser: Per player, P(they advance as 甲) in each branch of the bidding rule
            (``red_accept``, ``red_object``, ``black_accept``, ``black_object``: as if that
            branch's colours and clocks were played, whether or not the strategy chooses it),
            and ``advances``: P(they advance | they are 甲, reached) under the strategy (None
            where they cannot be 甲).
        clocks: Each branch's effective clocks ``(Red, Black)`` in minutes (for views).
        decisions: Per player as 甲 (exact answers only, for views): P(甲 announces Red),
            P(乙 objects | Red), P(乙 objects | Black) under the strategy.
    """

    reached: float
    time_class: str
    chooser: dict[str, float] | None
    as_chooser: dict[str, dict[str, float | None]]
    clocks: dict[str, tuple[float, float]] = field(default_factory=dict, compare=False)
    decisions: dict[str, tuple[float, float, float]] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        """``{"reached", "time_class", "chooser", "as_chooser"}``."""
        return {
            "reached": self.reached,
            "time_class": self.time_class,
            "chooser": None if self.chooser is None else dict(self.chooser),
            "as_chooser": {name: dict(v) for name, v in self.as_chooser.items()},
        }


@dataclass(frozen=True)
class MatchOdds:
    """The odds of one match: exact probabilities, estimates, or their standard errors.

    Attributes:
        players: The two names, in scenario order.
        win: P(each player advances).
        decided: P(the match is decided in each stage), by stage name.
        decided_by: P(each player wins in each stage): ``{stage: {name: p}}``.
        sudden_death_reached: P(the sudden-death game is reached) (0 without one): the bidding
            stage, a cut, sealed bids or an Armageddon decider
            (:attr:`~knockout.rules.formats.Format.sudden_death_index`).
        chooser_advances: P(甲 advances | bidding stage reached), or None.
        chooser: P(each player is 甲 | bidding stage reached), or None.
        announce_red: P(甲 announces Red | reached), or None.
        objects: P(乙 objects | reached), or None.
        games: P(the match lasts exactly k games), by k (games already played included).
        unresolved: Probability mass left when a repeating stage was cut off (< 1e-15).
        walkover: The winner, when the match is won by walkover.
        sudden_death: The sudden-death game laid open (None for formats without a bidding
            stage; sealed bids keep their own keys).
        win_if_ratings_exact: Where ratings are uncertain (``rating_sd``): P(each player
            advances) with the ratings taken as exact, for comparison.
        model_uncertainty: Where the model's constants are uncertain (``[model.sd]``): every
            figure's spread over them (JSON ``model_uncertainty``).
    """

    players: tuple[str, str]
    win: dict[str, float]
    decided: dict[str, float]
    decided_by: dict[str, dict[str, float]]
    sudden_death_reached: float
    chooser_advances: float | None
    chooser: dict[str, float] | None
    announce_red: float | None
    objects: float | None
    games: dict[int, float]
    unresolved: float = 0.0
    walkover: str | None = None
    sudden_death: SuddenDeath | None = None
    win_if_ratings_exact: dict[str, float] | None = None
    model_uncertainty: Spread | None = field(default=None, compare=False)

    #: Keys of :meth:`to_json` that hold estimates (the ``stderr`` tree of a simulation).
    ESTIMATED = ("win", "match")

    def to_json(self) -> dict[str, Any]:
        """``players``, ``win`` and ``match`` (decided, chooser_advances, games, bidding, ...)."""
        bidding = (
            None
            if self.announce_red is None
            else {"announce_red": self.announce_red, "object": self.objects}
        )
        match: dict[str, Any] = {
            "decided": dict(self.decided),
            "chooser_advances": self.chooser_advances,
            "games": {str(k): p for k, p in self.games.items()},
            "bidding": bidding,
            "sudden_death_reached": self.sudden_death_reached,
            "unresolved": self.unresolved,
            "sudden_death": None if self.sudden_death is None else self.sudden_death.to_json(),
        }
        if self.walkover is not None:
            match["walkover"] = self.walkover
        out = {"players": list(self.players), "win": dict(self.win), "match": match}
        if self.win_if_ratings_exact is not None:
            out["win_if_ratings_exact"] = dict(self.win_if_ratings_exact)
        if self.model_uncertainty is not None:
            out["model_uncertainty"] = self.model_uncertainty.to_json()
        return out

    @classmethod
    def certain(
        cls,
        players: tuple[str, str],
        winner: str,
        stage_names: Sequence[str],
        *,
        decided_in: str | None,
        games: int,
        sudden_death: SuddenDeath | None = None,
    ) -> MatchOdds:
        """A match whose result is known: decided by its games, or (``decided_in`` None) a
        walkover. ``sudden_death``: the game laid open (not reached) for bidding formats."""
        return cls(
            players=players,
            win={name: 1.0 if name == winner else 0.0 for name in players},
            decided={name: 1.0 if name == decided_in else 0.0 for name in stage_names},
            decided_by={
                name: {p: 1.0 if (name == decided_in and p == winner) else 0.0 for p in players}
                for name in stage_names
            },
            sudden_death_reached=0.0,
            chooser_advances=None,
            chooser=None,
            announce_red=None,
            objects=None,
            games={games: 1.0},
            unresolved=0.0,
            walkover=None if decided_in is not None else winner,
            sudden_death=sudden_death,
        )


@dataclass(frozen=True)
class MatchTally:
    """Integer tallies of matches played by a walker (they add up exactly across blocks).

    Attributes:
        runs: Matches.
        wins: ``(A, B)`` advances.
        decided: Per stage, ``(A, B)`` wins in that stage.
        games: Matches by number of games played.
        reached: Matches that reached the bidding stage.
        chooser_a: ... in which A was 甲.
        chooser_won: ... in which 甲 advanced.
        announce_red: ... in which 甲 announced Red.
        objects: ... in which 乙 objected.
        walkover: The winner, when every match is a walkover (nothing was played).
        chooser_a_won: ... in which A was 甲 and advanced.
        branch_sum: Sums, over the matches that reached the bidding stage, of 甲's chance in
            each branch: ``[side * 4 + branch]`` for 甲 = side (``BRANCHES`` order), each
            chance counted in units of ``1 / BRANCH_UNIT`` (integers, so that sums are exact
            and bit-identical however the blocks are split among workers).
        branch_sq: The same sums of squares (for the standard errors), in the same units.
        time_class: The bidding stage's time class (None without one).
    """

    runs: int
    wins: tuple[int, int]
    decided: tuple[tuple[int, int], ...]
    games: dict[int, int] = field(default_factory=dict)
    reached: int = 0
    chooser_a: int = 0
    chooser_won: int = 0
    announce_red: int = 0
    objects: int = 0
    walkover: str | None = None
    chooser_a_won: int = 0
    branch_sum: tuple[int, ...] = (0,) * 8
    branch_sq: tuple[int, ...] = (0,) * 8
    time_class: str | None = None

    def __add__(self, other: MatchTally) -> MatchTally:
        games = dict(self.games)
        for k, c in other.games.items():
            games[k] = games.get(k, 0) + c
        return MatchTally(
            runs=self.runs + other.runs,
            wins=(self.wins[0] + other.wins[0], self.wins[1] + other.wins[1]),
            decided=tuple(
                (a[0] + b[0], a[1] + b[1]) for a, b in zip(self.decided, other.decided, strict=True)
            ),
            games={k: c for k, c in games.items() if c > 0},  # as Counter's sum keeps them
            reached=self.reached + other.reached,
            chooser_a=self.chooser_a + other.chooser_a,
            chooser_won=self.chooser_won + other.chooser_won,
            announce_red=self.announce_red + other.announce_red,
            objects=self.objects + other.objects,
            walkover=self.walkover if self.walkover == other.walkover else None,
            chooser_a_won=self.chooser_a_won + other.chooser_a_won,
            branch_sum=tuple(a + b for a, b in zip(self.branch_sum, other.branch_sum, strict=True)),
            branch_sq=tuple(a + b for a, b in zip(self.branch_sq, other.branch_sq, strict=True)),
            time_class=self.time_class or other.time_class,
        )

    def estimate(
        self,
        players: tuple[str, str],
        stage_names: Sequence[str],
        seed: int,
        *,
        decided_reach: int | None = None,
    ) -> Simulated[MatchOdds]:
        """The tallies as odds: proportions with their binomial standard errors.

        Conditional quantities (who is 甲, P(甲 advances), the bidding choices) are proportions
        among the matches that reached the bidding stage. ``decided_reach``: the index of a
        sudden-death stage other than the bidding (a cut, sealed bids, an Armageddon decider),
        whose reach is the matches decided in it; without it the sudden death reached is the
        bidding stage's.
        """
        n = self.runs
        sd_reached = self.reached if decided_reach is None else sum(self.decided[decided_reach])
        found: dict[tuple[int, int], Estimate | None] = {}

        def share(count: int, of: int) -> Estimate | None:
            key = (count, of)
            if key not in found:  # each proportion once, for both answers
                found[key] = Estimate.proportion(count, of)
            return found[key]

        pick: list[Callable[[Estimate], float]] = [lambda e: e.value, lambda e: e.stderr]
        sudden_death = self._sudden_death(players, share)
        out = []
        for index, f in enumerate(pick):

            def p(count: int, of: int = n, f: Callable[[Estimate], float] = f) -> float:
                e = share(count, of)
                assert e is not None
                return f(e)

            def cond(count: int, f: Callable[[Estimate], float] = f) -> float | None:
                e = share(count, self.reached)
                return None if e is None else f(e)

            reached = self.reached > 0
            out.append(
                MatchOdds(
                    players=players,
                    win={players[0]: p(self.wins[0]), players[1]: p(self.wins[1])},
                    decided={s: p(sum(self.decided[k])) for k, s in enumerate(stage_names)},
                    decided_by={
                        s: {players[0]: p(self.decided[k][0]), players[1]: p(self.decided[k][1])}
                        for k, s in enumerate(stage_names)
                    },
                    sudden_death_reached=p(sd_reached),
                    chooser_advances=cond(self.chooser_won),
                    chooser=None
                    if not reached
                    else {
                        players[0]: p(self.chooser_a, self.reached),
                        players[1]: p(self.reached - self.chooser_a, self.reached),
                    },
                    announce_red=cond(self.announce_red),
                    objects=cond(self.objects),
                    games={k: p(c) for k, c in sorted(self.games.items())},
                    unresolved=0.0,
                    walkover=self.walkover,
                    sudden_death=None if sudden_death is None else sudden_death[index],
                )
            )
        return Simulated(out[0], out[1], n, seed)

    def _sudden_death(
        self, players: tuple[str, str], share: Callable[[int, int], Estimate | None]
    ) -> tuple[SuddenDeath, SuddenDeath] | None:
        """The sudden-death game laid open, as the estimates and as their standard errors
        (each estimate found once)."""
        if self.time_class is None:
            return None
        n, reached = self.runs, self.reached
        counts = (self.chooser_a, reached - self.chooser_a)
        won = (self.chooser_a_won, self.chooser_won - self.chooser_a_won)
        means: dict[str, dict[str, Estimate | None]] = {}
        for side, name in enumerate(players):
            k = counts[side]
            values: dict[str, Estimate | None] = {}
            for b, branch in enumerate(BRANCH_KEYS):
                i = side * 4 + b
                values[branch] = (
                    None
                    if k == 0
                    else Estimate.mean(
                        self.branch_sum[i] / BRANCH_UNIT,
                        self.branch_sq[i] / BRANCH_UNIT,
                        k,
                        resolution=4 / BRANCH_UNIT,  # each value and square rounded
                    )
                )
            values["advances"] = share(won[side], k)
            means[name] = values
        shares = [share(c, reached) for c in counts] if reached > 0 else None
        reached_share = share(reached, n)
        assert reached_share is not None
        out = []
        picks: tuple[Callable[[Estimate], float], ...] = (lambda e: e.value, lambda e: e.stderr)
        for f in picks:
            as_chooser = {
                name: {key: None if e is None else f(e) for key, e in values.items()}
                for name, values in means.items()
            }
            chooser: dict[str, float] | None = None
            if shares is not None:
                chooser = {name: f(e) for name, e in zip(players, shares, strict=True) if e}
            out.append(SuddenDeath(f(reached_share), self.time_class, chooser, as_chooser))
        return out[0], out[1]


# ---------------------------------------------------------------------------------------------
# A bracket


@dataclass(frozen=True)
class EventFigures:
    """Figures of a whole event (estimated by the Monte Carlo and the engine).

    Attributes:
        top_rated_wins: P(a highest-rated entrant wins the event).
        upsets: Expected number of played matches won by the lower-rated player.
        games: P(the event has exactly k games).
    """

    top_rated_wins: float
    upsets: float
    games: dict[int, float]

    def to_json(self) -> dict[str, Any]:
        """``{"top_rated_wins", "upsets", "games"}``."""
        return {
            "top_rated_wins": self.top_rated_wins,
            "upsets": self.upsets,
            "games": {str(g): p for g, p in self.games.items()},
        }


@dataclass(frozen=True)
class BracketOdds:
    """The odds of a knockout event.

    Attributes:
        players: Names in scenario order.
        round_names: ``round 1``, ..., ``semi-final``, ``final``.
        reach: Per player: P(still in at the start of round k) for k = 1..rounds (a bye counts
            as still in), then P(winning the event).
        bracket: The draw the odds are for.
        event: Figures of the whole event, where the walker gives them.
        win_if_ratings_exact: Where ratings are uncertain (``rating_sd``): P(each player wins
            the event) with the ratings taken as exact, for comparison.
        model_uncertainty: Where the model's constants are uncertain (``[model.sd]``): every
            figure's spread over them (JSON ``model_uncertainty``).
    """

    players: tuple[str, ...]
    round_names: tuple[str, ...]
    reach: dict[str, list[float]]
    bracket: Bracket
    event: EventFigures | None = None
    win_if_ratings_exact: dict[str, float] | None = None
    model_uncertainty: Spread | None = field(default=None, compare=False)

    #: Keys of :meth:`to_json` that hold estimates (the ``stderr`` tree of a simulation).
    ESTIMATED = ("win", "reach", "event")

    @property
    def win(self) -> dict[str, float]:
        """P(each player wins the event)."""
        return {name: r[-1] for name, r in self.reach.items()}

    def to_json(self) -> dict[str, Any]:
        """``players``, ``win``, ``reach``, ``rounds``, the draw and (if any) ``event``."""
        out: dict[str, Any] = {
            "players": list(self.players),
            "win": self.win,
            "reach": {name: list(r) for name, r in self.reach.items()},
            "rounds": list(self.round_names),
            "bracket": {
                "lines": list(self.bracket.lines),
                "seeds": dict(self.bracket.seeds),
                "byes": list(self.bracket.byes()),
            },
        }
        if self.event is not None:
            out["event"] = self.event.to_json()
        if self.win_if_ratings_exact is not None:
            out["win_if_ratings_exact"] = dict(self.win_if_ratings_exact)
        if self.model_uncertainty is not None:
            out["model_uncertainty"] = self.model_uncertainty.to_json()
        return out


@dataclass(frozen=True)
class BracketTally:
    """Integer tallies of simulated events.

    Attributes:
        runs: Events.
        reach: ``reach[i][k]``: events in which player ``i`` (in ``names`` order) was still in
            at the start of round ``k + 1`` (the last column: events won).
        top_rated_wins: Events won by a highest-rated entrant.
        upsets: Total upsets (a played match won by the lower-rated player).
        upsets_squared: Sum over events of the squared number of upsets.
        games: Events by total games played.
    """

    runs: int
    reach: tuple[tuple[int, ...], ...]
    top_rated_wins: int
    upsets: int
    upsets_squared: int
    games: dict[int, int] = field(default_factory=dict)

    def __add__(self, other: BracketTally) -> BracketTally:
        return BracketTally(
            runs=self.runs + other.runs,
            reach=tuple(
                tuple(x + y for x, y in zip(a, b, strict=True))
                for a, b in zip(self.reach, other.reach, strict=True)
            ),
            top_rated_wins=self.top_rated_wins + other.top_rated_wins,
            upsets=self.upsets + other.upsets,
            upsets_squared=self.upsets_squared + other.upsets_squared,
            games=dict(Counter(self.games) + Counter(other.games)),
        )

    def estimate(
        self,
        names: Sequence[str],
        players: tuple[str, ...],
        bracket: Bracket,
        round_names: tuple[str, ...],
        seed: int,
    ) -> Simulated[BracketOdds]:
        """The tallies as odds (``names``: the order of ``reach``; ``players``: output order)."""
        n = self.runs
        index = {name: i for i, name in enumerate(names)}
        upsets = Estimate.mean(self.upsets, self.upsets_squared, n)
        out = []
        pick: list[Callable[[Estimate], float]] = [lambda e: e.value, lambda e: e.stderr]
        for f in pick:

            def p(count: int, f: Callable[[Estimate], float] = f) -> float:
                e = Estimate.proportion(count, n)
                assert e is not None
                return f(e)

            out.append(
                BracketOdds(
                    players=players,
                    round_names=round_names,
                    reach={name: [p(c) for c in self.reach[index[name]]] for name in players},
                    bracket=bracket,
                    event=EventFigures(
                        top_rated_wins=p(self.top_rated_wins),
                        upsets=f(upsets),
                        games={g: p(c) for g, c in sorted(self.games.items())},
                    ),
                )
            )
        return Simulated(out[0], out[1], n, seed)


# ---------------------------------------------------------------------------------------------
# Estimates


A = TypeVar("A", MatchOdds, BracketOdds)


@dataclass(frozen=True)
class Simulated(Generic[A]):
    """An answer estimated by sampling: the estimates and their standard errors, same shape.

    Attributes:
        value: The estimates.
        stderr: The standard error of each estimate.
        runs: Matches or events sampled.
        seed: The run's seed.
    """

    value: A
    stderr: A
    runs: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        """The answer's JSON plus ``runs``, ``seed`` and ``stderr`` (same key paths)."""
        errors = self.stderr.to_json()
        return {
            **self.value.to_json(),
            "runs": self.runs,
            "seed": self.seed,
            "stderr": {k: _numbers(errors[k]) for k in self.value.ESTIMATED if k in errors},
        }


def _numbers(tree: Any) -> Any:
    """``tree`` without its text leaves (names, a walkover's winner): the numbers only."""
    if isinstance(tree, Mapping):
        return {k: _numbers(v) for k, v in tree.items() if not isinstance(v, str)}
    if isinstance(tree, list):
        return [_numbers(v) for v in tree]
    return tree
