"""Where a real event stands: its journal replayed through the rules.

:meth:`Event.replay` turns the journal into a scenario, the event's resolved scenario with every
recorded game as ``[[played]]`` and every withdrawal as ``withdrawn``, and lets the rules place it
(:meth:`~knockout.rules.scenario.aggregate.Scenario.event_state`: the match chain, the walkover
rule, the third-place match). Everything else is read off that placement: the matches and their
players, the next game of each match with its colours and clocks, the sudden-death bids still to be
made. Nothing here decides a rule of its own; an entry that the rules cannot place is refused.

Match IDs are ``R<round>-M<match>``, both from 1 (``R1-M1`` is the top match of round 1 in
bracket order; the final of a 16-player event is ``R4-M1``), and ``3RD`` for the match for third
place. They depend only on the draw, so they never change during the event.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, assert_never

from knockout.errors import ScenarioError
from knockout.event.checks import clean_name, name_key
from knockout.event.database import EventHeader, EventRows
from knockout.event.errors import refused
from knockout.event.journal import UNDOABLE, Entry, undone_by
from knockout.event.lot import first_uniform
from knockout.event.roster import renamed, roster
from knockout.game import Result
from knockout.i18n import _
from knockout.i18n.terms import stage_label
from knockout.rules.book.bracket import round_name
from knockout.rules.book.formats import Format, Stage
from knockout.rules.chain.match import Finished, MatchState, next_decision
from knockout.rules.chain.pairing import p_first_chooses
from knockout.rules.chain.progress import THIRD_PLACE, EventState, MatchProgress
from knockout.rules.chain.replay import PlayedGame
from knockout.rules.decisions.kinds import (
    Bidding,
    Choice,
    CutChoice,
    Decision,
    Fixed,
    Lot,
    OtherDecision,
    PlayerDecision,
    SealedBids,
    Side,
)
from knockout.rules.decisions.made import Made, MadeBid, made_for, made_of_fields
from knockout.rules.scenario.aggregate import Scenario, parse_scenario

__all__ = [
    "THIRD_ID",
    "Event",
    "Match",
    "MatchKey",
    "NextGame",
    "PendingDecision",
    "RecordedDecision",
    "RecordedGame",
    "assign_boards",
    "lot_red",
    "match_id",
]

MatchKey = tuple[int, int]
#: The ID of the match for third place.
THIRD_ID = "3RD"
_MATCH_ID = re.compile(r"^R(\d+)-M(\d+)$", re.IGNORECASE)


def match_id(key: MatchKey, rounds: int) -> str:
    """``R<round>-M<match>`` (both from 1), or ``3RD`` for the match for third place.

    >>> match_id((1, 2), 4), match_id((4, 0), 4), match_id((4, 1), 4)
    ('R1-M3', 'R4-M1', '3RD')
    """
    k, m = key
    if k == rounds and m == THIRD_PLACE:
        return THIRD_ID
    return f"R{k}-M{m + 1}"


@functools.cache  # asked again at every replay of the journal
def lot_red(seed: int, key: MatchKey, number: int) -> Side:
    """The colour lot of game ``number`` of match ``key``: the side that has Red.

    Drawn from the event's seed, so it is the same every time the event is read.
    """
    # numpy's default_rng([seed, *key, number]).random(), computed without numpy.random
    return 0 if first_uniform([seed, key[0], key[1], number]) < 0.5 else 1


@dataclass(frozen=True)
class RecordedGame:
    """A game in the journal.

    Attributes:
        seq: Its journal entry.
        match: Match ID.
        number: Game number within the match, from 1.
        stage: Stage name.
        red: Red's name.
        black: Black's name.
        result: The result over the board.
        clock: Base clocks ``(Red, Black)`` in minutes (None: not known, a game imported from a
            scenario's sudden-death game).
        increment_seconds: Added after each move.
        time_used: Seconds used, by name (only the names recorded).
        moves: Moves made, if recorded.
        board: The board of its match when it was recorded (None: it had none).
        at: When it was recorded.
    """

    seq: int
    match: str
    number: int
    stage: str
    red: str
    black: str
    result: Result
    clock: tuple[float, float] | None
    increment_seconds: float
    time_used: Mapping[str, float]
    moves: int | None
    board: int | None
    at: str

    @classmethod
    def from_entry(cls, e: Entry) -> RecordedGame:
        """The game of a ``game`` entry."""
        d = e.fields
        clock = d.get("clock")
        assert e.match is not None and e.game is not None
        return cls(
            seq=e.seq,
            match=e.match,
            number=e.game,
            stage=d["stage"],
            red=d["red"],
            black=d["black"],
            result=Result(d["result"]),
            clock=None if clock is None else (float(clock[0]), float(clock[1])),
            increment_seconds=float(d["increment_seconds"]),
            time_used={k: float(v) for k, v in (d.get("time_used") or {}).items()},
            moves=d.get("moves"),
            board=d.get("board"),
            at=e.at,
        )

    def played(self, made: RecordedDecision | None = None) -> PlayedGame:
        """The game as a scenario's ``[[played]]`` entry, with the decision that set its
        colours (and clocks), if the players took one."""
        return PlayedGame(
            self.red,
            self.black,
            self.stage,
            self.result,
            dict(self.time_used) or None,
            None if made is None else made.made,
            self.moves,
        )


@dataclass(frozen=True)
class RecordedDecision:
    """A decision the players made, in the journal (one kind of entry for every kind of
    decision: a bid, a colour choice, sealed bids, a cut).

    Attributes:
        seq: Its journal entry.
        match: Match ID.
        number: The number within the match of the game it sets up.
        stage: That game's stage.
        made: The decision (:mod:`knockout.rules.decisions.made`).
        red: Who has Red in the game, by the rule.
        black: Who has Black.
        clock: ``(Red, Black)`` base minutes, by the rule.
        chosen_by: How who decided first was found: ``times`` (used less time), ``rule`` (the
            format names them) or ``lot`` (the arbiter's lot); None when the players decide
            at once (sealed bids).
    """

    seq: int
    match: str
    number: int
    stage: str
    made: Made
    red: str
    black: str
    clock: tuple[float, float]
    chosen_by: str | None

    @classmethod
    def from_entry(cls, e: Entry, number: int, fmt: Format) -> RecordedDecision:
        """The decision of a ``decision`` entry; ``number`` (its game) and ``fmt`` (whose
        stage of that kind it is) for an entry of the older schema that did not say (a
        sudden-death bid)."""
        d = e.fields
        assert e.match is not None
        made = made_of_fields(d["kind"], d)
        stage = d.get("stage") or type(made).stages(fmt)[0].name
        return cls(
            seq=e.seq,
            match=e.match,
            number=e.game if e.game is not None else number,
            stage=stage,
            made=made,
            red=d["red"],
            black=d["black"],
            clock=(float(d["clock"][0]), float(d["clock"][1])),
            chosen_by=d.get("chosen_by"),
        )

    @property
    def kind(self) -> str:
        """Its kind (``bid``, ``choice``, ``sealed``, ``cut``)."""
        return self.made.kind

    @property
    def chooser(self) -> str | None:
        """Who decided first: 甲, the chooser, the cutter (None: the players decided at once)."""
        return self.made.decider

    def to_json(self) -> dict[str, Any]:
        """``{"match", ...}`` and the decision's keys (``export --json``'s ``bids``: ``{"match",
        "chooser", "announce", "reply"}``)."""
        game = {} if isinstance(self.made, MadeBid) else {"game": self.number}
        return {"match": self.match, **game, **self.made.to_fields()}

    def played(self) -> PlayedGame:
        """The decision as a scenario's ``[[played]]`` decision entry (its game not played)."""
        return PlayedGame(self.red, self.black, self.stage, None, made=self.made)

    def text(self) -> str:
        """The decision and the game it gives, in one line."""
        return self.made.text(self.red, self.black, self.clock)


@dataclass(frozen=True)
class Match:
    """A match of the draw (byes are not matches).

    Attributes:
        key: ``(round, index)``; the match for third place is ``(rounds, THIRD_PLACE)``.
        id: Its ID (``R1-M3``, ``3RD``).
        label: ``round 1``, ..., ``final``, ``third place``.
        players: ``(upper line, lower line)`` once both are known.
        progress: Where the rules place it (None: not started and no walkover).
        games: Its recorded games, in order.
        decisions: Its recorded decisions (bids, colour choices, sealed bids, cuts), by the
            number of the game each sets up.
        board: Its board while it is playable (None: waiting for a free board, or not
            playable). Boards are given when a match becomes playable and kept until it is
            decided (:func:`assign_boards`).
    """

    key: MatchKey
    id: str
    label: str
    players: tuple[str, str] | None
    progress: MatchProgress | None
    games: tuple[RecordedGame, ...] = ()
    decisions: Mapping[int, RecordedDecision] = field(default_factory=dict)
    board: int | None = None

    @property
    def winner(self) -> str | None:
        """Who won (over the board or by walkover), once decided."""
        return None if self.progress is None else self.progress.winner

    @property
    def loser(self) -> str | None:
        """Who lost, once decided."""
        if self.winner is None or self.players is None:
            return None
        return self.players[1] if self.winner == self.players[0] else self.players[0]

    @property
    def walkover(self) -> bool:
        """Decided by the walkover rule."""
        return self.progress is not None and self.progress.walkover is not None

    @property
    def decided_in(self) -> str | None:
        """The stage that decided it, ``walkover``, or None while undecided."""
        if self.walkover:
            return "walkover"
        if self.progress is None or self.progress.replayed is None:
            return None
        position = self.progress.replayed.state
        return None if not isinstance(position, Finished) else self.games[-1].stage

    @property
    def position(self) -> MatchState | Finished:
        """Where the match chain stands (the initial state before the first game)."""
        if self.progress is None or self.progress.replayed is None:
            return MatchState(stage=0)
        return self.progress.replayed.state

    def next_decision(self, event: Event) -> Decision | None:
        """How the match's next game is set up, with what its played games fix (None once
        decided)."""
        if self.progress is not None and self.progress.replayed is not None:
            return self.progress.replayed.decision(event.scenario.format)
        return next_decision(event.scenario.format, MatchState(stage=0))

    @property
    def playable(self) -> bool:
        """Both players known and the match not decided."""
        return self.players is not None and self.winner is None


@dataclass(frozen=True)
class NextGame:
    """The next game of a match, ready to be played.

    Attributes:
        match: Match ID.
        key: ``(round, index)``.
        number: Game number within the match, from 1.
        stage: Stage name.
        red: Who has Red.
        black: Who has Black.
        clock: ``(Red, Black)`` base minutes.
        increment_seconds: Added after each move.
        board: Board number (None: waiting for a free board).
        colours: How the colours were set: ``rule`` (they alternate), ``lot`` (the event's lot),
            or the kind of the decision the players made (``bid``, ``choice``, ``sealed``,
            ``cut``: :attr:`~knockout.rules.decisions.made.Made.kind`).
    """

    match: str
    key: MatchKey
    number: int
    stage: str
    red: str
    black: str
    clock: tuple[float, float]
    increment_seconds: float
    board: int | None
    colours: str

    def to_json(self) -> dict[str, Any]:
        """``{"match", "game", "stage", "red", "black", "clock", "board"}``."""
        return {
            "match": self.match,
            "game": self.number,
            "stage": self.stage,
            "red": self.red,
            "black": self.black,
            "clock": [self.clock[0], self.clock[1]],
            "board": self.board,
        }


@dataclass(frozen=True)
class PendingDecision:
    """A match at a game whose colours (and clocks) the players decide, the decision still to
    be recorded: the sudden-death bid, a colour choice, sealed bids, a cut.

    Attributes:
        match: Match ID.
        players: The two players.
        number: The game's number within the match.
        stage: The game's stage.
        decision: How the game is settled (the rule's menu, clocks and chooser rule).
        chooser: Who decides first (甲, the chooser, the cutter) when the format, the recorded
            times or the priority rule say; None when the arbiter's lot decides it
            (``--chooser``, ``--cutter``) or the players decide at once (sealed bids).
        other: The other player, when ``chooser`` is known (乙 of a bid).
        times: The previous game's recorded time used, by name.
        why: How ``chooser`` is found: ``less-time`` (used less time), ``tie`` (equal times:
            lot), ``lot`` (the rule is a lot), ``unknown`` (times not recorded: lot), ``rule``
            (the format names who chooses); None: the players decide at once.
        clock: ``(Red, Black)`` base minutes when the decision leaves them fixed (a colour
            choice), else None.
        board: The board the match holds.
    """

    match: str
    players: tuple[str, str]
    number: int
    stage: str
    decision: PlayerDecision
    chooser: str | None
    other: str | None
    times: Mapping[str, float]
    why: Literal["less-time", "tie", "lot", "unknown", "rule"] | None
    clock: tuple[float, float] | None
    board: int | None

    @property
    def made(self) -> type[Made]:
        """The kind of decision to record."""
        return made_for(self.decision)

    @property
    def kind(self) -> str:
        """``next --json``'s ``decisions[].kind``: ``bid``, ``choice``, ``sealed-bid``, ``cut``."""
        return str(self.made.decision_kind)

    def to_json(self) -> dict[str, Any]:
        """``{"match", "chooser", "bidder"}`` (``next --json``'s ``bids``)."""
        return {"match": self.match, "chooser": self.chooser, "bidder": self.other}

    def decision_json(self) -> dict[str, Any]:
        """``{"match", "game", "kind", "chooser"}`` (``chooser`` null: the lot names who
        decides first, or both players decide at once)."""
        return {
            "match": self.match,
            "game": self.number,
            "kind": self.kind,
            "chooser": self.chooser,
        }

    def game_json(self) -> dict[str, Any]:
        """The game in ``next --json``'s ``games``: colours (and clocks, unless fixed) null
        until the decision."""
        return _pending_game_json(self.match, self.number, self.stage, self.clock, self.board)


def _pending_game_json(
    match: str, number: int, stage: str, clock: tuple[float, float] | None, board: int | None
) -> dict[str, Any]:
    return {
        "match": match,
        "game": number,
        "stage": stage,
        "red": None,
        "black": None,
        "clock": None if clock is None else [clock[0], clock[1]],
        "board": board,
    }


@dataclass(frozen=True)
class Event:
    """An event file's contents and where the event stands.

    Attributes:
        source: The file (for messages).
        header: What the event is.
        base: The event's scenario without games or withdrawals.
        federations: Federation (or None) by player, in entry-list order.
        entries: The whole journal, in order.
        undone: For each undone entry, the entry that undid it.
        games: Recorded games still in force (a correction in the place of the game it
            corrects), in the journal order of their first entries.
        decisions: Recorded decisions still in force (bids, colour choices, sealed bids,
            cuts), by match ID and the number of the game each sets up.
        withdrawn: Players who withdrew, in journal order.
        scenario: ``base`` with the games (and the bids whose game is not recorded yet) as
            ``[[played]]`` and the withdrawals.
        state: The rules' placement of the games and walkovers.
        matches: Every match, round by round, the match for third place last.
        former: Former names (changed by ``amend``, or replaced) to the entry that changed them.
        pinned: The draw is pinned to the seeds it was made with (a changed rating would have
            seeded it differently).
        played_at: The journal place of each of ``scenario``'s ``[[played]]`` entries (a game's
            first entry, a decision's own), in the same order.
    """

    source: str
    header: EventHeader
    base: Scenario
    federations: Mapping[str, str | None]
    entries: tuple[Entry, ...]
    undone: Mapping[int, int]
    games: tuple[RecordedGame, ...]
    decisions: Mapping[tuple[str, int], RecordedDecision]
    withdrawn: tuple[str, ...]
    scenario: Scenario
    state: EventState
    matches: tuple[Match, ...] = field(default=())
    former: Mapping[str, Entry] = field(default_factory=dict)
    pinned: bool = False
    played_at: tuple[int, ...] = ()

    @classmethod
    def replay(cls, source: str, rows: EventRows) -> Event:
        """Replay the journal of an event file.

        Raises:
            EventRefused: If the rules cannot place the journal's games (a refused entry).
        """
        first = parse_scenario(rows.header.scenario, source=source)
        undone = undone_by(rows.entries)
        live = [e for e in rows.entries if e.seq not in undone]
        players = roster(first, rows.federations, live)
        base = players.base
        live = [renamed(e, players.names) for e in live]
        placed = [(at, RecordedGame.from_entry(e)) for at, e in _games_in_force(live)]
        games = tuple(g for _at, g in placed)
        decisions = {
            (d.match, d.number): d
            for d in (
                RecordedDecision.from_entry(e, _game_number(e, live), base.format)
                for e in live
                if e.kind == "decision"
            )
        }
        withdrawn = tuple(e.player for e in live if e.kind == "withdraw" and e.player)
        played = _played(placed, decisions)
        try:
            scenario = replace(
                base,
                players=tuple(replace(p, withdrawn=p.name in withdrawn) for p in base.players),
                played=tuple(g for _at, g in played),
            )
            state = scenario.event_state()
        except ScenarioError as exc:
            reasons = _("; ").join(p.message for p in exc.problems)
            message = _("the rules cannot place these games: {reasons}").format(reasons=reasons)
            raise refused(source, _("journal"), message) from None
        event = cls(
            source,
            rows.header,
            base,
            players.federations,
            rows.entries,
            undone,
            games,
            decisions,
            withdrawn,
            scenario,
            state,
            former=players.former,
            pinned=players.pinned,
            played_at=tuple(at for at, _game in played),
        )
        return replace(event, matches=_with_boards(event, _matches(event)))

    # --- reading -------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The event's name, tidied as names are (a file made before names were tidied may
        hold a line break, which would break the headers of the PGN and TRF exports)."""
        return clean_name(self.header.name) or "?"

    @property
    def seed(self) -> int:
        """The event's seed (colour lots, drawing of lots in the ranking)."""
        return self.header.seed

    @property
    def rounds(self) -> int:
        """Number of rounds of the draw."""
        return self.state.bracket.rounds

    def by_key(self, key: MatchKey) -> Match | None:
        """The match at ``key``, if it is a match (not a bye)."""
        return next((m for m in self.matches if m.key == key), None)

    @property
    def final(self) -> Match:
        """The final."""
        found = self.by_key((self.rounds, 0))
        assert found is not None
        return found

    @property
    def third_place(self) -> Match | None:
        """The match for third place, if the event has one."""
        return self.by_key((self.rounds, THIRD_PLACE))

    @property
    def champion(self) -> str | None:
        """The winner of the final, once decided."""
        return self.final.winner

    @property
    def finished(self) -> bool:
        """The final (and the match for third place, if any) is decided."""
        third = self.third_place
        return self.champion is not None and (third is None or third.winner is not None)

    def steps(self) -> tuple[NextGame | PendingDecision, ...]:
        """What can happen next in each playable match: a game, or a decision to record."""
        out: list[NextGame | PendingDecision] = []
        for m in self.matches:
            step = self.next_step(m)
            if step is not None:
                out.append(step)
        return tuple(out)

    def next_games(self) -> tuple[NextGame, ...]:
        """The games that can be played now (at most one per match)."""
        return tuple(s for s in self.steps() if isinstance(s, NextGame))

    def pending_decisions(self) -> tuple[PendingDecision, ...]:
        """Every decision the arbiter must record before its game (bids, colour choices,
        sealed bids, cuts)."""
        return tuple(s for s in self.steps() if isinstance(s, PendingDecision))

    def pending_bids(self) -> tuple[PendingDecision, ...]:
        """Matches at their sudden-death game whose bid is still to be recorded."""
        return tuple(s for s in self.pending_decisions() if isinstance(s.decision, Bidding))

    def recorded(self, kind: str) -> dict[str, RecordedDecision]:
        """The recorded decisions of one kind (``bid``, ``choice``, ...) by match ID (a match's
        last, for a kind recorded at several games)."""
        return {d.match: d for d in self.decisions.values() if d.kind == kind}

    def next_step(self, m: Match) -> NextGame | PendingDecision | None:
        """The next game of ``m`` (or the decision still to be made before it); None if it is
        not playable.

        One handler per kind of decision (:mod:`knockout.rules.decisions.kinds`): the rules and the
        event's lots set the colours, or the arbiter records what the players decided.
        """
        position = m.position
        decision = m.next_decision(self)
        if not m.playable or m.players is None or not isinstance(position, MatchState):
            return None
        assert decision is not None
        stage = self.scenario.format.playable[position.stage]
        number = len(m.games) + 1
        a, b = m.players

        def game(red: str, black: str, clock: tuple[float, float], colours: Any) -> NextGame:
            return NextGame(
                m.id,
                m.key,
                number,
                stage.name,
                red,
                black,
                clock,
                stage.increment_seconds,
                m.board,
                colours,
            )

        match decision:
            case Fixed(red=side):
                return game(*((a, b) if side == 0 else (b, a)), stage.minutes, "rule")
            case Lot():
                side = lot_red(self.seed, m.key, number)
                return game(*((a, b) if side == 0 else (b, a)), stage.minutes, "lot")
            case Choice() | Bidding() | SealedBids() | CutChoice() | OtherDecision():
                made = m.decisions.get(number) if decision.made is not None else None
                if made is None:
                    return self._pending(m, number, stage, decision)
                return game(made.red, made.black, made.clock, made.kind)
            case _:
                assert_never(decision)

    def _pending(
        self, m: Match, number: int, stage: Stage, decision: PlayerDecision
    ) -> PendingDecision:
        """The decision still to record at game ``number`` of ``m``: who decides first, by
        the rule of each kind of decision."""
        assert m.players is not None and m.progress is not None
        a, b = m.players
        replayed = m.progress.replayed
        p_a = None if replayed is None else replayed.p_a_chooses
        times = m.games[-1].time_used if m.games else {}
        clock: tuple[float, float] | None = None
        why: Literal["less-time", "tie", "lot", "unknown", "rule"] | None
        match decision:
            case Bidding(menu=menu):
                chooser, why = _first_decider(menu.priority, p_a, (a, b))
            case CutChoice(cut=cut):
                chooser, why = _first_decider(cut.priority, p_a, (a, b))
            case Choice(side=side, chooser=rule):
                if side is not None:
                    chooser = m.players[side]
                else:
                    share = p_first_chooses(rule, self.scenario.player(a), self.scenario.player(b))
                    chooser = {1.0: a, 0.0: b}.get(share)
                why = "rule" if chooser is not None else "lot"
                clock = stage.minutes
            case SealedBids() | OtherDecision():
                chooser, why = None, None  # both at once; an added rule's: as the arbiter says
            case _:
                assert_never(decision)
        rest = None if chooser is None else (b if chooser == a else a)
        return PendingDecision(
            m.id, (a, b), number, stage.name, decision, chooser, rest, times, why, clock, m.board
        )

    def check_playable(self, m: Match) -> None:
        """Refuse anything for a match whose players are unknown or which is decided."""
        if m.players is None:
            raise refused(
                self.source,
                m.id,
                _("not scheduled yet: {why}").format(why=self._waiting_for(m)),
            )
        if m.winner is not None:
            raise refused(
                self.source,
                m.id,
                (
                    _(
                        "already decided: {winner} won by walkover; nothing more is recorded in "
                        "this match"
                    )
                    if m.walkover
                    else _(
                        "already decided: {winner} won in the {stage} stage; nothing more is "
                        "recorded in this match"
                    )
                ).format(winner=m.winner, stage=stage_label(m.decided_in or "")),
            )

    def _waiting_for(self, m: Match) -> str:
        k, index = m.key
        if m.id == "3RD":
            feeders = [self.by_key((k - 1, 0)), self.by_key((k - 1, 1))]
        else:
            feeders = [self.by_key((k - 1, 2 * index)), self.by_key((k - 1, 2 * index + 1))]
        open_ = [f.id for f in feeders if f is not None and f.winner is None]
        return _("its players come from {matches}, not decided yet").format(
            matches=_(" and ").join(open_)
        )

    def stage_at(self, m: Match) -> Stage:
        """The stage of ``m``'s next game (its last stage once decided)."""
        position = m.position
        return self.scenario.format.playable[position.stage]

    # --- finding things the user named -------------------------------------------------

    def find_match(self, text: str) -> Match:
        """The match called ``text`` (``R1-M3``, ``r1-m3``, ``3RD``).

        Raises:
            EventRefused: For an ID that is not a match of this draw.
        """
        wanted = text.strip().upper()
        expected = _("R1-M1 to {final} (R<round>-M<match>)").format(final=self.final.id)
        if self.third_place is not None:
            expected += _(" or {third}").format(third=THIRD_ID)
        for m in self.matches:
            if m.id == wanted:
                return m
        found = _MATCH_ID.match(wanted)
        if found and int(found[1]) == 1 and 1 <= int(found[2]) <= self.state.bracket.size // 2:
            index = int(found[2]) - 1
            up, down = self.state.bracket.lines[2 * index : 2 * index + 2]
            message = _("{match} is a bye ({player} goes through to round 2), not a match").format(
                match=wanted, player=up or down
            )
            raise refused(self.source, _("match"), message)
        raise refused(
            self.source,
            _("match"),
            _("expected a match ID {expected}, found {text}").format(
                expected=expected, text=repr(text)
            ),
        )

    def find_player(self, text: str, key: str) -> str:
        """The player called ``text``: exact, or the one name equal to it once both are tidied
        and compared ignoring case and invisible characters
        (:func:`~knockout.event.checks.name_key`).

        Raises:
            EventRefused: For a name not in the event, one that matches more than one player
                (ambiguous), part of a name, or a former name.
        """
        names = [p.name for p in self.base.players]
        if text in names:
            return text
        wanted = name_key(text)
        same = [n for n in names if name_key(n) == wanted]
        if len(same) == 1:
            return same[0]
        if len(same) > 1:
            listed = _(" and ").join(repr(n) for n in same)
            raise refused(
                self.source,
                key,
                _("ambiguous: {text} matches {names}; type the name exactly").format(
                    text=repr(text), names=listed
                ),
            )
        former = {name_key(n): (n, e) for n, e in self.former.items()}
        if wanted in former:
            old, e = former[wanted]
            now = next((n for n in names if n == e.fields.get("name")), e.fields.get("name"))
            raise refused(
                self.source,
                key,
                (
                    _(
                        "expected a player of this event, found {old}, which was replaced by "
                        "{now} (entry #{seq})"
                    )
                    if e.kind == "replace"
                    else _(
                        "expected a player of this event, found {old}, which was renamed {now} "
                        "(entry #{seq})"
                    )
                ).format(old=repr(old), now=repr(now), seq=e.seq),
            )
        part = [n for n in names if wanted and wanted in name_key(n)]
        if len(part) > 1:
            listed = ", ".join(repr(n) for n in part[:6]) + (", ..." if len(part) > 6 else "")
            raise refused(
                self.source,
                key,
                _("ambiguous: {text} is part of {n} names ({names}); type the full name").format(
                    text=repr(text), n=len(part), names=listed
                ),
            )
        import difflib  # noqa: PLC0415  (only for a misspelt name: slow to load)

        close = part or difflib.get_close_matches(text, names, n=1)
        hint = _(" (did you mean {name}?)").format(name=repr(close[0])) if close else ""
        shown = (
            repr(text)
            if len(text) <= 80
            else _("{start}... ({n} characters)").format(start=repr(text[:40]), n=len(text))
        )
        raise refused(
            self.source,
            key,
            _("expected a player of this event, found {name}{hint}").format(name=shown, hint=hint),
        )

    def match_of(self, name: str) -> Match | None:
        """``name``'s current match: playable, or waiting for an opponent; None if they have no
        match left (eliminated, or the event is over for them)."""
        for m in self.matches:
            if m.players is not None and name in m.players and m.winner is None:
                return m
        last = self._last_decided(name)
        if last is None:
            return None if self.finished else self._waiting_match(name)
        if last.winner == name and last.key[0] < self.rounds:
            return self._waiting_match(name)
        if last.key[0] == self.rounds - 1 and self.third_place is not None:
            third = self.third_place
            return third if third.winner is None else None
        return None

    def _last_decided(self, name: str) -> Match | None:
        decided = [m for m in self.matches if m.players and name in m.players and m.winner]
        return decided[-1] if decided else None

    def _waiting_match(self, name: str) -> Match | None:
        """The next match ``name`` is drawn into whose opponent is not known yet."""
        line = self.state.bracket.lines.index(name)
        for k in range(1, self.rounds + 1):
            m = self.by_key((k, line >> k))
            if m is not None and m.winner is None:
                return m
        return None

    def last_undoable(self, match: str | None = None) -> Entry | None:
        """The entry ``undo`` would reverse: the last entry still in force that an undo can
        take back (a game, bid, colour choice, withdrawal, correction or change of player);
        with ``match``, the last one of that match."""
        for e in reversed(self.entries):
            undoable = e.kind in UNDOABLE and e.seq not in self.undone
            if undoable and (match is None or e.match == match):
                return e
        return None


def _first_decider(
    priority: str, p_a: float | None, players: tuple[str, str]
) -> tuple[str | None, Literal["less-time", "tie", "lot", "unknown"]]:
    """Who decides first (甲, the cutter) by the priority rule and the recorded times, and
    why: ``less-time``; ``tie`` (equal times), ``lot`` (the rule is a lot) or ``unknown``
    (times not recorded), each leaving it to the arbiter's lot (None)."""
    a, b = players
    chooser = {1.0: a, 0.0: b}.get(p_a) if p_a is not None else None
    if priority == "lot":
        return chooser, "lot"
    if p_a is None:
        return None, "unknown"
    return chooser, "less-time" if chooser is not None else "tie"


def _games_in_force(live: Sequence[Entry]) -> list[tuple[int, Entry]]:
    """The ``game`` and ``correct`` entries in force, each game once (a correction in place of
    the entry it replaces), with the number of the game's first entry (its place in the
    journal), in that order."""
    by_seq = {e.seq: e for e in live}
    superseded = {int(e.fields["corrects"]) for e in live if e.kind == "correct"}

    def root(e: Entry) -> int:
        while e.kind == "correct" and int(e.fields["corrects"]) in by_seq:
            e = by_seq[int(e.fields["corrects"])]
        return e.seq

    kept = [e for e in live if e.kind in ("game", "correct") and e.seq not in superseded]
    return sorted(((root(e), e) for e in kept), key=lambda pair: pair[0])


def _played(
    games: Sequence[tuple[int, RecordedGame]],
    decisions: Mapping[tuple[str, int], RecordedDecision],
) -> tuple[tuple[int, PlayedGame], ...]:
    """The scenario's ``[[played]]`` in journal order, each with its place in the journal:
    every game (at its first entry) with the decision that set it up, and each decision whose
    game is not recorded yet as a decision entry (at its own entry), so the rules place it and
    the odds of the event start from the game it set up."""
    out = [(at, g.played(decisions.get((g.match, g.number)))) for at, g in games]
    played = {(g.match, g.number) for _at, g in games}
    out += [(d.seq, d.played()) for key, d in decisions.items() if key not in played]
    return tuple(sorted(out, key=lambda pair: pair[0]))


def _game_number(e: Entry, live: Sequence[Entry]) -> int:
    """The game a decision entry sets up: its own number, or for an entry of the older schema
    that did not say (a sudden-death bid), the game after the match's games recorded before
    it (``live``: the entries in force)."""
    if e.game is not None:
        return e.game
    return 1 + sum(1 for g in live if g.kind == "game" and g.match == e.match and g.seq < e.seq)


def _entrant(state: EventState, k: int, block: int) -> str | None:
    """Who comes out of ``block`` into round ``k``, if known (byes go through at once)."""
    lines = state.bracket.lines
    if k == 1:
        return lines[block]
    if k == 2 and (lines[2 * block] is None or lines[2 * block + 1] is None):
        return lines[2 * block] or lines[2 * block + 1]
    return state.winner(k - 1, block)


def _matches(event: Event) -> list[Match]:
    """Every match of the draw with its players, games and bid (boards come later)."""
    state = event.state
    bracket = state.bracket
    rounds = bracket.rounds
    by_match: dict[str, list[RecordedGame]] = {}
    for g in event.games:
        by_match.setdefault(g.match, []).append(g)
    out: list[Match] = []

    def add(key: MatchKey, players: tuple[str, str] | None, label: str) -> None:
        mid = match_id(key, rounds)
        games = tuple(by_match.get(mid, ()))
        progress = state.progress.get(key)
        decided = {n: d for (match, n), d in event.decisions.items() if match == mid}
        out.append(Match(key, mid, label, players, progress, games, decided))

    for k in range(1, rounds + 1):
        for m in range(bracket.size >> k):
            if k == 1 and None in bracket.lines[2 * m : 2 * m + 2]:
                continue  # a bye
            up, down = _entrant(state, k, 2 * m), _entrant(state, k, 2 * m + 1)
            players = (up, down) if up is not None and down is not None else None
            add((k, m), players, round_name(k, rounds))
    semis_are_matches = rounds > 2 or None not in bracket.lines
    if bracket.third_place and rounds >= 2 and semis_are_matches:
        third = state.third_place
        semis = [state.progress.get((rounds - 1, i)) for i in (0, 1)]
        losers = [_loser(p) for p in semis]
        known = third.players if third is not None else None
        if known is None and losers[0] is not None and losers[1] is not None:
            known = (losers[0], losers[1])
        add((rounds, THIRD_PLACE), known, "third place")
    _check_games_placed(event, out)
    return out


def _loser(p: MatchProgress | None) -> str | None:
    if p is None or p.winner is None:
        return None
    return p.players[1] if p.winner == p.players[0] else p.players[0]


def _check_games_placed(event: Event, matches: Sequence[Match]) -> None:
    """Every recorded game sits in the match the rules placed its players in."""
    for m in matches:
        placed = () if m.progress is None else m.progress.games
        if sum(g.result is not None for g in placed) != len(m.games):
            raise refused(
                event.source,
                m.id,
                f"the rules place {len(placed)} games in {m.id}, the journal has {len(m.games)}",
            )


def _board_map(entries: Sequence[Entry], undone: Mapping[int, int]) -> dict[str, int]:
    """The boards of the playable matches: the snapshot in the last entry in force."""
    for e in reversed(entries):
        if e.seq not in undone and "boards" in e.fields:
            return {k: int(v) for k, v in e.fields["boards"].items()}
    return {}


def _with_boards(event: Event, matches: list[Match]) -> tuple[Match, ...]:
    boards = _board_map(event.entries, event.undone)
    return tuple(replace(m, board=boards.get(m.id) if m.playable else None) for m in matches)


def assign_boards(event: Event) -> dict[str, int]:
    """The boards after a change: every playable match keeps the board it had; free boards go to
    playable matches without one, round by round in bracket order (none left: it waits).

    ``event`` is the state with the change, whose boards are still those before it (for an undo:
    those of the state it goes back to), so a match never changes boards while it is playable.
    """
    kept = {m.id: m.board for m in event.matches if m.playable and m.board is not None}
    free = iter(b for b in range(1, event.scenario.schedule.boards + 1) if b not in kept.values())
    out: dict[str, int] = {}
    for m in event.matches:
        if not m.playable:
            continue
        board = kept.get(m.id)
        if board is None:
            board = next(free, None)
        if board is not None:
            out[m.id] = board
    return out


def time_limit(clock_minutes: float, increment: float, moves: int) -> float:
    """The most time a player can use: the base clock plus the increment for every move."""
    return clock_minutes * 60.0 + increment * moves
