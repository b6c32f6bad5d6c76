"""The engine's records of finished games, matches and events: plain values.

The SimPy engine (:mod:`knockout.engine.match`, :mod:`knockout.engine.event`) writes them, and
the organiser's ranking (:mod:`knockout.event.ranking`) builds them from an event's journal; they
live apart from the engine so that a short ``knockout event`` command ranks an event without
loading the engine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from knockout.game import Colour, Reply, Result
from knockout.rules.book.bracket import Bracket
from knockout.rules.decisions.made import Made, MadeBid, MadeChoice, MadeCut, MadeSealed

__all__ = ["EventRecord", "GameRecord", "MatchRecord", "RoundRecord"]


@dataclass(frozen=True)
class GameRecord:
    """One game as a person reads it in the log.

    Attributes:
        number: 1-based game number within the match.
        stage: Stage name.
        red: Red player's name.
        black: Black player's name.
        clock: Base clocks ``(Red, Black)`` in minutes.
        increment_seconds: Added after each move.
        result: Over-the-board result (a drawn sudden-death game is ``DRAW``).
        time_used: Seconds each player used, by name.
        points: Knockout per-game points, by name.
        moves: Moves made by Red.
        flag_fall: Name of the player who lost on time, if any.
        start: Simulated start time (s).
        end: Simulated end time (s).
        chooser: 甲's name (sudden-death game only).
        announce: 甲's announcement (sudden-death game only).
        reply: 乙's reply (sudden-death game only).
        colour: The colour the chooser took, in a game whose colours a player chose (the
            chooser is then ``chooser``).
        replayed: Played before the simulation started (from the scenario's ``[[played]]``).
        bids: Sealed Armageddon bids (minutes each would take as Black), by name.
        cutter: Who named Red's minutes in a cut-and-choose game (the chooser, who took
            ``colour``, is then ``chooser``).
    """

    number: int
    stage: str
    red: str
    black: str
    clock: tuple[float, float]
    increment_seconds: float
    result: Result
    time_used: dict[str, float]
    points: dict[str, Decimal]
    moves: int
    flag_fall: str | None
    start: float
    end: float
    chooser: str | None = None
    announce: Colour | None = None
    reply: Reply | None = None
    replayed: bool = False
    bids: dict[str, float] | None = None
    colour: Colour | None = None
    cutter: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``games[]`` entry of ``knockout play --json``."""
        out: dict[str, Any] = {
            "stage": self.stage,
            "red": self.red,
            "black": self.black,
            "clock": [self.clock[0], self.clock[1]],
            "result": self.result.value,
            "time_used": {
                k: None if math.isnan(v) else round(v, 1) for k, v in self.time_used.items()
            },
            "points": {k: _number(v) for k, v in self.points.items()},
        }
        if self.chooser is not None and self.colour is not None:
            out |= {"chooser": self.chooser, "colour": self.colour.value}
        elif self.chooser is not None:
            assert self.announce is not None and self.reply is not None
            out |= {
                "chooser": self.chooser,
                "announce": self.announce.value,
                "reply": self.reply.value,
            }
        if self.bids is not None:
            out["bids"] = {k: round(v, 3) for k, v in self.bids.items()}
        if self.cutter is not None:
            out["cutter"] = self.cutter
        out |= {
            "increment_seconds": self.increment_seconds,
            "moves": self.moves,
            "flag_fall": self.flag_fall,
            "start": round(self.start, 1),
            "end": round(self.end, 1),
            "replayed": self.replayed,
        }
        return out


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


@dataclass(frozen=True)
class MatchRecord:
    """A finished match.

    Attributes:
        players: The two names, in pairing order.
        winner: Who advanced.
        decided_in: Name of the stage that decided the match, or ``walkover``.
        games: Every game, in order (none for a walkover).
        start: Simulated start time (s).
        end: Simulated end time (s).
    """

    players: tuple[str, str]
    winner: str
    decided_in: str
    games: tuple[GameRecord, ...]
    start: float
    end: float

    @property
    def loser(self) -> str:
        """Who was eliminated."""
        return self.players[1] if self.winner == self.players[0] else self.players[0]

    def points(self) -> dict[str, Decimal]:
        """Each player's total per-game points in this match."""
        totals = {name: Decimal(0) for name in self.players}
        for g in self.games:
            for name, pts in g.points.items():
                totals[name] += pts
        return totals

    def to_json(self) -> dict[str, Any]:
        """The ``matches[]`` entry of ``knockout play --json``."""
        return {
            "players": list(self.players),
            "winner": self.winner,
            "decided_in": self.decided_in,
            "games": [g.to_json() for g in self.games],
        }


@dataclass(frozen=True)
class RoundRecord:
    """One round of the event.

    Attributes:
        number: From 1.
        name: ``round 1``, ..., ``final``.
        start: Simulated start (s).
        end: When its last game finished (s).
        matches: Its matches, in bracket order (byes are not matches).
    """

    number: int
    name: str
    start: float
    end: float
    matches: tuple[MatchRecord, ...]


@dataclass(frozen=True)
class EventRecord:
    """A finished event.

    Attributes:
        bracket: The draw.
        rounds: Every round, in order.
        third_place: The match for third place, if played.
        duration: Simulated seconds from the start to the last game's end.
    """

    bracket: Bracket
    rounds: tuple[RoundRecord, ...]
    third_place: MatchRecord | None
    duration: float

    @property
    def champion(self) -> str:
        """The winner of the final."""
        return self.rounds[-1].matches[0].winner

    @property
    def matches(self) -> tuple[MatchRecord, ...]:
        """Every match, round by round, the third-place match last."""
        out = [m for r in self.rounds for m in r.matches]
        if self.third_place is not None:
            out.append(self.third_place)
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        """Rounds with their timing (the match for third place last, as ``"third place"``, when
        it was played), and every match."""
        third = self.third_place
        return {
            "duration": round(self.duration, 1),
            "champion": self.champion,
            "rounds": [
                {
                    "round": r.number,
                    "name": r.name,
                    "start": round(r.start, 1),
                    "end": round(r.end, 1),
                }
                for r in self.rounds
            ]
            + (
                []
                if third is None
                else [
                    {
                        "round": "third place",
                        "name": "third place",
                        "start": round(third.start, 1),
                        "end": round(third.end, 1),
                    }
                ]
            ),
            "matches": [{"round": r.number, **m.to_json()} for r in self.rounds for m in r.matches]
            + (
                []
                if self.third_place is None
                else [{"round": "third place", **self.third_place.to_json()}]
            ),
        }


def decision_fields(made: Made | None, red: str, black: str) -> dict[str, Any]:
    """The decision that set up a game (``red`` v ``black``) as its record's fields, the keys
    of ``play --json``'s ``games[]``: 甲's bid, a chooser's colour, the sealed bids, the cutter
    and the colour the other player took."""
    match made:
        case MadeBid():
            return {"chooser": made.chooser, "announce": made.announce, "reply": made.reply}
        case MadeChoice():
            return {"chooser": made.chooser, "colour": made.colour}
        case MadeCut():
            chooser = black if made.cutter == red else red
            return {"chooser": chooser, "colour": made.colour, "cutter": made.cutter}
        case MadeSealed():
            return {"bids": dict(made.bids)}
        case _:
            return {}
