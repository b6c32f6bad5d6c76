"""The facts of each match of a real event, as results files and the hall's pages give them.

:func:`match_facts` reads, for every match of the draw, who played, the games (with Red's score
first), who won and how: over the board in which stage, by walkover (the loser withdrew before
the match), by a withdrawal in the middle of the match, or by a sudden-death draw, which sends
Black through. :func:`decisions` lists what the arbiter must ask the players before a game can
start (today: the sudden-death bids still to record), in a form that grows with the event's
state (a ``kind`` and a ``chooser``).

Nothing here decides a rule: every fact is read off the rules' placement of the journal
(:class:`~knockout.event.state.Event`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, assert_never

from knockout.event.state import (
    THIRD_ID,
    Event,
    Match,
    NextGame,
    PendingDecision,
    RecordedGame,
)
from knockout.game import Colour, Result
from knockout.i18n import _, ngettext
from knockout.i18n.terms import stage_label
from knockout.rules.decisions.kinds import Bidding, Choice, CutChoice, OtherDecision, SealedBids

__all__ = [
    "Decision",
    "MatchFacts",
    "decisions",
    "half_points",
    "match_facts",
    "score_text",
]

#: What a red score of each result is, as a results sheet writes it (Red's score first).
_SCORE = {Result.RED: "1-0", Result.DRAW: "½-½", Result.BLACK: "0-1"}

How = Literal["games", "sudden-death draw", "walkover", "withdrawal"]
Status = Literal["decided", "playing", "waiting"]


def score_text(result: Result) -> str:
    """``1-0``, ``½-½`` or ``0-1``: Red's score first.

    >>> score_text(Result.DRAW)
    '½-½'
    """
    return _SCORE[result]


def half_points(x: float) -> str:
    """``1½``, ``½``, ``2``, ``0``: a score as a results sheet writes it.

    >>> [half_points(v) for v in (0, 0.5, 1.5, 2)]
    ['0', '½', '1½', '2']
    """
    whole = int(x)
    if x == whole:
        return str(whole)
    return f"{whole or ''}½"


@dataclass(frozen=True)
class MatchFacts:
    """One match of the draw: its players, games and outcome.

    Attributes:
        match: Match ID (``R1-M3``, ``3RD``).
        round: Round number (the match for third place is in the last round).
        label: ``round 1``, ..., ``final``, ``third place``.
        players: ``(upper line, lower line)``, once both are known.
        seeds: Their seeds, by name.
        games: The games played, in order.
        board: Its board while it is playable.
        points: Per player, the games' points over the board (a win 1, a draw ½).
        winner: Who advanced, once decided.
        loser: Who is out (or plays for third place).
        decided_in: The stage of the deciding game, or ``walkover``.
        how: ``games`` (won over the board), ``sudden-death draw`` (the sudden-death game was
            drawn and Black advanced), ``walkover`` (the loser withdrew before playing) or
            ``withdrawal`` (the loser withdrew during the match); None while undecided.
        withdrawn: The match's players who have withdrawn from the event.
        status: ``decided``, ``playing`` (both players known) or ``waiting`` (for a player).
    """

    match: str
    round: int
    label: str
    players: tuple[str, str] | None
    seeds: dict[str, int]
    games: tuple[RecordedGame, ...]
    board: int | None
    points: dict[str, float]
    winner: str | None
    loser: str | None
    decided_in: str | None
    how: How | None
    withdrawn: tuple[str, ...]
    status: Status

    @property
    def third_place(self) -> bool:
        """The match for third place."""
        return self.match == THIRD_ID

    @property
    def score(self) -> str:
        """``1½-½`` from the upper player's side; empty before both players are known."""
        if self.players is None:
            return ""
        a, b = self.players
        return f"{half_points(self.points[a])}-{half_points(self.points[b])}"

    def how_text(self) -> str:
        """Who advanced and how, in words (empty while undecided)."""
        if self.winner is None:
            return ""
        n = len(self.games)
        games = ngettext("{n} game", "{n} games", n).format(n=n)
        if self.how == "walkover":
            return _("{winner} advances by walkover ({loser} withdrew)").format(
                winner=self.winner, loser=self.loser
            )
        if self.how == "withdrawal":
            return _("{winner} advances: {loser} withdrew after {games}").format(
                winner=self.winner, loser=self.loser, games=games
            )
        if self.how == "sudden-death draw":
            return (
                _(
                    "{winner} wins third place: the sudden-death game was drawn, a draw sends "
                    "Black on"
                )
                if self.third_place
                else _("{winner} advances: the sudden-death game was drawn, a draw sends Black on")
            ).format(winner=self.winner)
        stage = stage_label(self.decided_in or "").replace("_", " ")
        assert self.loser is not None
        won = f"{half_points(self.points[self.winner])}-{half_points(self.points[self.loser])}"
        return (
            _("{winner} wins third place {score} ({stage}, {games})")
            if self.third_place
            else _("{winner} advances {score} ({stage}, {games})")
        ).format(winner=self.winner, score=won, stage=stage, games=games)

    def to_json(self) -> dict[str, Any]:
        """The match as a results file gives it (see :func:`match_facts`)."""
        return {
            "match": self.match,
            "round": self.round,
            "label": self.label,
            "players": None if self.players is None else list(self.players),
            "games": [game_json(g) for g in self.games],
            "points": dict(self.points),
            "winner": self.winner,
            "loser": self.loser,
            "decided_in": self.decided_in,
            "how": self.how,
            "walkover": self.how in ("walkover", "withdrawal"),
            "sudden_death_draw": self.how == "sudden-death draw",
            "withdrawn": list(self.withdrawn),
            "status": self.status,
        }


def game_json(g: RecordedGame) -> dict[str, Any]:
    """A game played: ``{"game", "stage", "red", "black", "clock", "result", "score",
    "time_used", "moves"}`` (``score`` Red's first: ``1-0``, ``½-½``, ``0-1``)."""
    return {
        "game": g.number,
        "stage": g.stage,
        "red": g.red,
        "black": g.black,
        "clock": None if g.clock is None else [g.clock[0], g.clock[1]],
        "result": g.result.value,
        "score": score_text(g.result),
        "time_used": dict(g.time_used),
        "moves": g.moves,
    }


def _points(m: Match) -> dict[str, float]:
    if m.players is None:
        return {}
    out = dict.fromkeys(m.players, 0.0)
    for g in m.games:
        if g.result is Result.DRAW:
            out[g.red] += 0.5
            out[g.black] += 0.5
        else:
            out[g.red if g.result is Result.RED else g.black] += 1.0
    return out


def _how(event: Event, m: Match) -> How | None:
    if m.winner is None:
        return None
    if m.walkover:
        return "withdrawal" if m.games else "walkover"
    last = m.games[-1]
    stage = event.scenario.format.stage(last.stage)
    if last.result is Result.DRAW and stage.draw_winner is Colour.BLACK:
        return "sudden-death draw"
    return "games"


def _facts(event: Event, m: Match) -> MatchFacts:
    seeds = event.state.bracket.seeds
    players = m.players
    status: Status = "decided" if m.winner else ("playing" if players else "waiting")
    withdrawn = tuple(n for n in (players or ()) if n in event.withdrawn)
    round_ = event.rounds if m.id == THIRD_ID else m.key[0]
    return MatchFacts(
        match=m.id,
        round=round_,
        label=m.label,
        players=players,
        seeds={n: seeds[n] for n in players or ()},
        games=m.games,
        board=m.board,
        points=_points(m),
        winner=m.winner,
        loser=m.loser,
        decided_in=m.decided_in,
        how=_how(event, m),
        withdrawn=withdrawn,
        status=status,
    )


def match_facts(event: Event) -> tuple[MatchFacts, ...]:
    """Every match of the draw, round by round in bracket order, the match for third place
    last."""
    return tuple(_facts(event, m) for m in event.matches)


@dataclass(frozen=True)
class Decision:
    """Something to ask the players before a match's next game can start.

    Attributes:
        match: Match ID.
        game: The game it is for (its number within the match).
        kind: What is asked: ``bid`` (the sudden-death choice: 甲 announces Red or Black, 乙
            accepts or objects), ``choice`` (a player chooses the colours), ``sealed-bid``
            (each player bids Black's minutes) or ``cut`` (the cutter names Red's minutes, the
            other picks the colour).
        chooser: Who is asked first (甲, the cutter); None when the arbiter draws lots for it
            (and for sealed bids, where both bid at once).
        other: Who answers (乙), when known.
        players: The match's two players.
        board: The match's board.
        why: How the chooser was found (``less-time``, ``tie``, ``lot``, ``unknown``).
        times: The time each player used in the game before, by name.
    """

    match: str
    game: int
    kind: str
    chooser: str | None
    other: str | None
    players: tuple[str, str]
    board: int | None
    why: str
    times: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        """``{"match", "game", "kind", "chooser"}``."""
        return {"match": self.match, "game": self.game, "kind": self.kind, "chooser": self.chooser}


def _decision(step: PendingDecision) -> Decision:
    """The hall's view of a decision to ask for, by kind."""
    why: str
    times: dict[str, float] = {}
    other = None
    match step.decision:
        case SealedBids():
            why = "bids"
        case OtherDecision():
            why = ""
        case Choice():
            why = "named" if step.chooser is not None else "lot"
        case Bidding() | CutChoice():
            why, other, times = step.why or "", step.other, dict(step.times)
        case _:
            assert_never(step.decision)
    return Decision(
        step.match,
        step.number,
        step.kind,
        step.chooser,
        other,
        step.players,
        step.board,
        why,
        times,
    )


def decisions(event: Event) -> tuple[Decision, ...]:
    """The decisions to ask for now, in match order: sudden-death bids, colour choices, sealed
    bids and cuts still to be recorded."""
    return tuple(_decision(step) for step in event.pending_decisions())


def next_games(event: Event) -> tuple[NextGame, ...]:
    """The games to play now, by board (matches waiting for a board last)."""
    games: Sequence[NextGame] = event.next_games()
    return tuple(sorted(games, key=lambda g: (g.board is None, g.board or 0)))
