"""Match formats as data: an ordered list of stages (RULES.md section 1).

A :class:`Stage` says how many games it has, their time class and clocks, how colours are given,
what a drawn game counts as for the match, and whether it repeats until someone is ahead. A
:class:`Format` is a tuple of stages. Presets (:mod:`knockout.rules.book.presets`) are instances of
this data, never new code paths: the match chain (:mod:`knockout.rules.chain.match`) is the only
code that interprets a format, and the exact solver, the SimPy engine and the Monte Carlo kernel all
walk that chain.

Stage semantics, shared by every walker:

* The match score counts a win 1 and a draw 1/2 for each player. Every stage starts level (the
  match would have ended otherwise). A player who is ahead when a stage (or one block of a
  repeating stage) is over wins the match; a stage stops early once the player behind can no
  longer catch up.
* ``draw_winner``: a drawn game of this stage counts as a win for that colour in the match score
  (the game record still says draw). The sudden-death game has ``draw_winner = black``.
* ``repeat``: the stage is played in blocks of ``games`` games until a block ends with someone
  ahead (e.g. pairs of blitz games until one pair is decisive).
* Colours (``colours``):
    - ``lot``: the first game of the stage (of every block, when repeating) by a fair lot;
    - ``alternate``: the first game swaps the colours of the previous game (换先);
    - ``bidding``: the sudden-death bidding rule (甲 announces, 乙 accepts or objects);
    - ``sealed-bid``: an Armageddon with sealed bids: each player writes the minutes they would
      accept as Black; the lower bid plays Black, Red gets ``red_minutes`` (equal bids: a lot).
      ``price = "first"``: Black plays on the lower bid itself; ``price = "second"`` (Vickrey):
      on the higher bid's time;
    - ``cut-choose``: you cut, I choose: one player (the cutter: by lot, or the player who
      used less time in the previous game, as the seed's 甲) names Red's base minutes, any
      real number in ``[min_red_minutes, max_red_minutes]``, against Black's fixed
      ``black_minutes``; the other picks the colour;
    - ``choice``: one player chooses the colour (the one with the better chance for them under
      the strategy); who chooses is ``chooser`` (:data:`CHOOSER_RULES`): ``lot`` (a fair lot
      decides who chooses, as in the CXA's playoff decider, 抽签决定先后手选择权),
      ``higher-ranked`` (the better seed when both players have one, else the higher rating;
      equal: a lot), ``last-black`` (the player who had Black in the previous game: in the
      official schemes the last 超快棋 game), ``first-black`` (the player who had Black in the
      match's first game: the rule book's "the player who did not choose the slow game's
      colours", the lot's winner taking Red, the better colour in the model) or a player's name.
  Later games of a stage or block always swap colours.
* ``max_blocks``: with ``repeat``, the most blocks played; a stage still level after them leads
  to the next stage (0: no limit, the stage repeats until a block is won).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property
from typing import Any, Literal

from knockout.game import Colour, Reply
from knockout.rules.model.strength import TimeClass, classify

__all__ = [
    "ADDED_COLOUR_RULES",
    "CHOOSER_RULES",
    "MAX_STAGES",
    "MAX_STAGE_GAMES",
    "BiddingMenu",
    "ColourRule",
    "CutChoose",
    "Format",
    "Priority",
    "SealedBid",
    "Stage",
    "colour_rule",
    "colour_rule_names",
]

Priority = Literal["less-time", "lot"]


Price = Literal["first", "second"]


#: Most games a stage (or a block of a repeating stage) may have. The exact solver's work grows
#: with the square of a stage's games (600 games: about 20 s on one core), so longer stages are
#: refused rather than left to run for hours.
MAX_STAGE_GAMES = 1000


#: Most stages a format may have.
MAX_STAGES = 50


Clock = tuple[float, float]


#: Who chooses colours at a ``choice`` stage, besides a player's name (module docstring).
CHOOSER_RULES = ("lot", "higher-ranked", "last-black", "first-black")


#: Choosers the match's own colours name (read off the previous game's colours).
HISTORY_CHOOSERS = ("last-black", "first-black")


STAGE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class ColourRule(StrEnum):
    """How the colours of a stage's first game are given."""

    LOT = "lot"
    ALTERNATE = "alternate"
    BIDDING = "bidding"
    SEALED_BID = "sealed-bid"
    CHOICE = "choice"
    CUT_CHOOSE = "cut-choose"


#: Colour rules added to the rule book's own, by name
#: (:func:`knockout.rules.decisions.kinds.add_colour_rule`).
ADDED_COLOUR_RULES: list[str] = []


def colour_rule_names() -> tuple[str, ...]:
    """Every colour rule a stage may name: the rule book's own, then those added."""
    return (*(r.value for r in ColourRule), *ADDED_COLOUR_RULES)


def colour_rule(name: str) -> ColourRule | str:
    """The rule book's own colour rule called ``name``, or ``name`` itself (a rule added to the
    rule book's, or one a stage's checks refuse)."""
    own = {r.value: r for r in ColourRule}
    return own.get(name, name)


@dataclass(frozen=True)
class BiddingMenu:
    """The sudden-death bidding rule (seed 001, 三.3) with its clock pairs as parameters.

    Clocks are ``(Red base, Black base)`` in minutes.

    ============== ========================== ==============================
    甲 announces    乙 accepts                  乙 objects (竞叫)
    ============== ========================== ==============================
    Red            甲 Red, clocks ``accept``     乙 Red, clocks ``object_red``
    Black          甲 Black, clocks ``accept``   甲 Red, clocks ``object_black``
    ============== ========================== ==============================

    ``priority`` says who is 甲: ``less-time`` (used less clock time in the previous game, an
    exact tie by lot) or ``lot``.
    """

    accept: Clock = (30.0, 10.0)
    object_red: Clock = (10.0, 30.0)
    object_black: Clock = (35.0, 5.0)
    priority: Priority = "less-time"

    def assignment(self, announce: Colour, reply: Reply) -> tuple[Colour, Clock]:
        """The colour 甲 plays and the clocks, after ``announce`` and ``reply``.

        >>> BiddingMenu().assignment(Colour.RED, Reply.OBJECT)
        (<Colour.BLACK: 'black'>, (10.0, 30.0))
        """
        if reply is Reply.ACCEPT:
            return announce, self.accept
        if announce is Colour.RED:
            return Colour.BLACK, self.object_red
        return Colour.RED, self.object_black

    def to_dict(self) -> dict[str, Any]:
        """Scenario-file keys of the menu."""
        return {
            "accept": list(self.accept),
            "object_red": list(self.object_red),
            "object_black": list(self.object_black),
            "priority": self.priority,
        }


@dataclass(frozen=True)
class SealedBid:
    """Sealed-bid Armageddon clocks: Red's fixed base, and the range of Black bids (minutes).

    Attributes:
        red_minutes: Red's base clock.
        min_black_minutes: The lowest bid allowed (bids above ``red_minutes`` are not).
        price: ``first``: Black plays on the lower bid (its own); ``second`` (Vickrey): on the
            higher bid (the other's).
    """

    red_minutes: float = 10.0
    min_black_minutes: float = 1.0
    price: Price = "first"

    def to_dict(self) -> dict[str, Any]:
        """Scenario-file keys."""
        return {
            "red_minutes": self.red_minutes,
            "min_black_minutes": self.min_black_minutes,
            "price": self.price,
        }


@dataclass(frozen=True)
class CutChoose:
    """You cut, I choose: the cutter names Red's base minutes against Black's fixed clock, the
    other player picks the colour.

    Attributes:
        black_minutes: Black's base clock.
        min_red_minutes: The least the cutter may give Red.
        max_red_minutes: The most the cutter may give Red.
        priority: Who cuts: ``less-time`` (used less clock time in the previous game, an exact
            tie by lot, as the seed's 甲) or ``lot``.
    """

    black_minutes: float = 10.0
    min_red_minutes: float = 1.0
    max_red_minutes: float = 100.0
    priority: Priority = "less-time"

    def to_dict(self) -> dict[str, Any]:
        """Scenario-file keys."""
        return {
            "black_minutes": self.black_minutes,
            "min_red_minutes": self.min_red_minutes,
            "max_red_minutes": self.max_red_minutes,
            "priority": self.priority,
        }


@dataclass(frozen=True)
class Stage:
    """One stage of a match format. See the module docstring for the semantics.

    Attributes:
        name: Stage key used in outputs (``slow``, ``rapid``, ``sudden_death``, ...).
        games: Games in the stage (in each block, if ``repeat``); 0 means the stage is skipped.
        time_class: Model time class of its games, if the scenario fixes it; ``None``: from the
            mean effective clock of the stage's reference clocks (:meth:`time_class_for`).
        minutes: Base clocks ``(Red, Black)`` in minutes (unused by ``bidding``, ``sealed-bid``
            and ``cut-choose``: the players' decisions set them).
        increment_seconds: Added to a player's clock after each of their moves.
        colours: Colour rule for the first game (later games alternate).
        draw_winner: Colour a drawn game counts as a win for (match score); ``None``: 1/2 each.
        repeat: Play blocks of ``games`` games until one ends with a player ahead.
        bidding: The bidding menu (only with ``colours = bidding``).
        sealed_bid: The Armageddon clocks (only with ``colours = sealed-bid``).
        cut: The cut-and-choose clocks (only with ``colours = cut-choose``).
        chooser: Who chooses colours with ``colours = choice``: a rule of
            :data:`CHOOSER_RULES` or a player's name.
        max_blocks: With ``repeat``: the most blocks played before the next stage (0: no
            limit).
    """

    name: str
    games: int
    time_class: TimeClass | None
    minutes: Clock = (60.0, 60.0)
    increment_seconds: float = 10.0
    colours: ColourRule | str = ColourRule.LOT
    draw_winner: Colour | None = None
    repeat: bool = False
    bidding: BiddingMenu | None = None
    sealed_bid: SealedBid | None = None
    chooser: str = "lot"
    cut: CutChoose | None = None
    max_blocks: int = 0

    @property
    def reference_clocks(self) -> Clock:
        """The base clocks that fix the stage's time class: its own clocks; the bidding stage's
        ``accept`` pair; a sealed-bid stage's Red clock on both sides; a cut-and-choose stage's
        Black clock on both sides."""
        if self.bidding is not None and self.is_bidding:
            return self.bidding.accept
        if self.sealed_bid is not None and self.is_sealed_bid:
            return (self.sealed_bid.red_minutes, self.sealed_bid.red_minutes)
        if self.cut is not None and self.is_cut:
            return (self.cut.black_minutes, self.cut.black_minutes)
        return self.minutes

    def time_class_for(self, moves: float) -> TimeClass:
        """The stage's time class: as given, else from its reference clocks' mean effective clock
        (``moves`` a side: the model's ``moves``)."""
        if self.time_class is not None:
            return self.time_class
        red, black = self.reference_clocks
        return classify(red, black, self.increment_seconds, moves)

    @property
    def is_bidding(self) -> bool:
        """Whether colours and clocks come from the sudden-death bidding rule."""
        return self.colours is ColourRule.BIDDING

    @property
    def is_sealed_bid(self) -> bool:
        """Whether colours and clocks come from sealed Armageddon bids."""
        return self.colours is ColourRule.SEALED_BID

    @property
    def is_choice(self) -> bool:
        """Whether one player chooses the colours of the stage's first game."""
        return self.colours is ColourRule.CHOICE

    @property
    def is_cut(self) -> bool:
        """Whether the cutter names Red's clock and the other player picks the colour."""
        return self.colours is ColourRule.CUT_CHOOSE

    @property
    def is_decision(self) -> bool:
        """Whether the players decide colours and clocks (bidding, sealed bids, cut-and-choose)."""
        return self.is_bidding or self.is_sealed_bid or self.is_cut

    @property
    def needs_previous_game(self) -> bool:
        """Whether who decides first comes from the previous game's times (``less-time``)."""
        if self.is_bidding:
            return True
        return self.is_cut and self.cut is not None and self.cut.priority == "less-time"

    @property
    def always_decides(self) -> bool:
        """True if the match cannot still be level after this stage."""
        unbounded = self.repeat and self.max_blocks == 0
        return unbounded or (self.draw_winner is not None and self.games % 2 == 1)

    @property
    def most_games(self) -> int | None:
        """Most games the stage can have (every block of a capped repeat), None if unbounded."""
        if not self.repeat:
            return self.games
        return None if self.max_blocks == 0 else self.games * self.max_blocks

    def problems(self) -> list[tuple[str, str]]:
        """``(key, message)`` for everything impossible about this stage alone."""
        out = self._basic_problems()
        if self.is_bidding:
            out += self._bidding_problems()
        if self.is_sealed_bid:
            out += self._sealed_bid_problems()
        if self.is_cut:
            out += self._cut_problems()
        return out

    def _basic_problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        names = colour_rule_names()
        if self.colours not in names:
            listed = ", ".join(repr(n) for n in names[:-1]) + f" or {names[-1]!r}"
            out.append(("colours", f"expected one of {listed}, got {self.colours!r}"))
        if not STAGE_NAME.match(self.name):
            out.append(("name", f"expected lower-case letters, digits and _, got {self.name!r}"))
        if self.games < 0:
            out.append(("games", f"expected a whole number >= 0, got {self.games}"))
        elif self.games > MAX_STAGE_GAMES:
            out.append(
                (
                    "games",
                    f"expected at most {MAX_STAGE_GAMES} games in a stage (the exact odds take "
                    f"time growing with the square of its games), got {self.games}",
                )
            )
        for side, m in zip(("red", "black"), self.minutes, strict=True):
            if not m > 0:
                out.append(("minutes", f"expected {side} minutes > 0, got {m}"))
        if not self.increment_seconds >= 0:
            out.append(("increment_seconds", f"expected >= 0, got {self.increment_seconds}"))
        return out + self._block_problems()

    def _block_problems(self) -> list[tuple[str, str]]:
        if self.max_blocks < 0:
            return [("max_blocks", f"expected a whole number >= 0, got {self.max_blocks}")]
        if self.max_blocks > 0 and not self.repeat:
            return [("max_blocks", "a cap on the blocks needs repeat = true")]
        if self.max_blocks * self.games > MAX_STAGE_GAMES:
            return [
                (
                    "max_blocks",
                    f"expected at most {MAX_STAGE_GAMES} games in a stage, got "
                    f"{self.max_blocks} blocks of {self.games}",
                )
            ]
        return []

    def _one_decisive_game(self, kind: str) -> list[tuple[str, str]]:
        """A stage whose players decide colours and clocks: one game, a draw winner, no repeat."""
        out: list[tuple[str, str]] = []
        if self.games not in (0, 1):
            out.append(("games", f"a {kind} stage has exactly 1 game, got {self.games}"))
        if self.draw_winner is None:
            out.append(("draw_winner", f"a {kind} stage needs a draw winner (red or black)"))
        if self.repeat:
            out.append(("repeat", f"a {kind} stage cannot repeat"))
        return out

    def _bidding_problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if self.bidding is None:
            out.append(("colours", "'bidding' needs the bidding menu (accept, object_*)"))
        else:
            for key in ("accept", "object_red", "object_black"):
                clock: Clock = getattr(self.bidding, key)
                if not all(m > 0 for m in clock):
                    out.append((key, f"expected two minutes > 0, got {list(clock)}"))
        return out + self._one_decisive_game("bidding")

    def _sealed_bid_problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        bid = self.sealed_bid
        if bid is None:
            out.append(("colours", "'sealed-bid' needs red_minutes and min_black_minutes"))
        elif not 0 < bid.min_black_minutes <= bid.red_minutes:
            out.append(
                (
                    "min_black_minutes",
                    f"expected 0 < min_black_minutes <= red_minutes ({bid.red_minutes}), "
                    f"got {bid.min_black_minutes}",
                )
            )
        return out + self._one_decisive_game("sealed-bid")

    def _cut_problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        cut = self.cut
        if cut is None:
            out.append(("colours", "'cut-choose' needs black_minutes and the Red range"))
        else:
            if not cut.black_minutes > 0:
                out.append(("black_minutes", f"expected minutes > 0, got {cut.black_minutes}"))
            if not 0 < cut.min_red_minutes < cut.max_red_minutes:
                out.append(
                    (
                        "min_red_minutes",
                        f"expected 0 < min_red_minutes < max_red_minutes "
                        f"({cut.max_red_minutes}), got {cut.min_red_minutes}",
                    )
                )
        return out + self._one_decisive_game("cut-choose")


@dataclass(frozen=True)
class Format:
    """A match format: ordered stages, and the preset it came from (for serialisation).

    ``stages`` keeps stages with 0 games (so a resolved scenario shows ``rapid_games = 0``);
    walkers use :attr:`playable`, the stages that are actually played.
    """

    preset: str
    stages: tuple[Stage, ...]
    increment_seconds: float = 10.0

    @cached_property
    def playable(self) -> tuple[Stage, ...]:
        """Stages with at least one game, in order."""
        return tuple(s for s in self.stages if s.games > 0)

    @property
    def stage_names(self) -> tuple[str, ...]:
        """Names of the playable stages, in order (the keys of ``match.decided``)."""
        return tuple(s.name for s in self.playable)

    def stage(self, name: str) -> Stage:
        """The stage called ``name`` (played or not)."""
        for s in self.stages:
            if s.name == name:
                return s
        raise ValueError(f"unknown stage: {name!r} (stages: {[s.name for s in self.stages]})")

    @property
    def bidding_stage(self) -> Stage | None:
        """The playable stage that uses the bidding rule, if any."""
        return next((s for s in self.playable if s.is_bidding), None)

    @property
    def sealed_bid_stage(self) -> Stage | None:
        """The playable stage with sealed Armageddon bids, if any."""
        return next((s for s in self.playable if s.is_sealed_bid), None)

    @property
    def cut_stage(self) -> Stage | None:
        """The playable stage settled by cut-and-choose, if any."""
        return next((s for s in self.playable if s.is_cut), None)

    @property
    def decision_stage(self) -> Stage | None:
        """The playable stage whose players decide colours and clocks, if any (the last)."""
        return next((s for s in self.playable if s.is_decision), None)

    @property
    def sudden_death_index(self) -> int | None:
        """The playable index of the sudden-death game, whose reach is ``sudden_death_reached``:
        the stage the players decide (bidding, sealed bids, cut-and-choose), else a last stage
        of one game whose draw counts for a colour (an Armageddon decider, as the official
        playoff's); None without one."""
        for k, s in enumerate(self.playable):
            if s.is_decision:
                return k
        last = len(self.playable) - 1
        end = self.playable[last] if last >= 0 else None
        if end is not None and end.games == 1 and not end.repeat and end.draw_winner is not None:
            return last
        return None

    @property
    def max_games(self) -> int | None:
        """Most games a match can last, or ``None`` if a stage repeats without a cap."""
        most = [s.most_games for s in self.playable]
        return None if None in most else sum(m for m in most if m is not None)

    def games_before(self, stage_index: int) -> int | None:
        """Games played before playable stage ``stage_index`` by a match that reaches it (every
        earlier stage was then played in full); None after an uncapped repeating stage."""
        most = [s.most_games for s in self.playable[:stage_index]]
        return None if None in most else sum(m for m in most if m is not None)

    def with_stage(self, name: str, **changes: Any) -> Format:
        """A copy with fields of stage ``name`` replaced."""
        stages = tuple(replace(s, **changes) if s.name == name else s for s in self.stages)
        self.stage(name)
        return replace(self, stages=stages)

    def problems(self) -> list[tuple[str, str]]:
        """``(key, message)`` for everything that makes this format unplayable."""
        out: list[tuple[str, str]] = []
        seen: set[str] = set()
        for s in self.stages:
            out.extend((f"{s.name}.{key}", msg) for key, msg in s.problems())
            if s.name in seen:
                out.append((s.name, "duplicate stage name"))
            seen.add(s.name)
        if len(self.stages) > MAX_STAGES:
            out.append(("stages", f"expected at most {MAX_STAGES} stages, got {len(self.stages)}"))
        return out + self._order_problems()

    def _order_problems(self) -> list[tuple[str, str]]:
        """Stages in an order that can be played and always ends."""
        playable = self.playable
        if not playable:
            return [("stages", "expected at least one stage with games > 0")]
        out: list[tuple[str, str]] = []
        for i, s in enumerate(playable):
            last = i == len(playable) - 1
            if s.is_decision and not last:
                out.append((s.name, "a bidding stage must be the last stage played"))
            if s.needs_previous_game and i == 0:
                what = "bidding" if s.is_bidding else "cut-choose"
                out.append((s.name, f"the {what} stage needs a previous game (to find 甲)"))
            if s.always_decides and not last:
                later = ", ".join(t.name for t in playable[i + 1 :])
                out.append((s.name, f"always decides the match, so {later} can never be played"))
            if s.is_choice:
                out += self._chooser_problems(i)
        if not playable[-1].always_decides:
            out.append(
                (
                    playable[-1].name,
                    "the last stage must always decide the match: give it a draw_winner and "
                    "an odd number of games, or repeat = true",
                )
            )
        return out

    def _chooser_problems(self, i: int) -> list[tuple[str, str]]:
        """A chooser the match's colours name needs those colours: a previous game, and for
        ``first-black`` colours that swap at every game from the first one on."""
        stage = self.playable[i]
        if stage.chooser not in HISTORY_CHOOSERS:
            return []
        key = f"{stage.name}.chooser"
        if i == 0:
            return [(key, f"{stage.chooser!r} needs a previous game (whose colours name it)")]
        if stage.chooser == "first-black":
            first, *later = self.playable[:i]
            if first.colours not in (ColourRule.LOT, ColourRule.ALTERNATE) or any(
                s.colours is not ColourRule.ALTERNATE for s in later
            ):
                return [
                    (
                        key,
                        "'first-black' reads the first game's colours off the previous game's, "
                        "so every stage between them needs colours = 'alternate'",
                    )
                ]
        return []
