"""FIDE Tournament Report File, version 2016 (TRF-16): read and write.

Columns are counted in characters, not bytes, so names may be Chinese (write the file as UTF-8, or
read it with the encoding it was written in). Only what rankings need is used: the ``001`` player
lines (starting rank, name, and the round blocks), the tournament name (``012``), the start date
(``042``, which decides the tie-break rules in force), the type of tournament (``092``, which can
say Swiss or round robin) and the number of rounds (``XXR``, the common extension; also TRF-26's
``142``). Other lines are ignored.

A ``001`` line (columns from 1)::

    1-3 "001"   5-8 starting rank   10 sex   11-13 title   15-47 name   49-52 rating
    54-56 federation   58-68 FIDE id   70-79 birth date   81-84 points   86-89 rank
    then one block per round, round r starting at column 92 + 10 (r - 1):
        +0..+3 opponent's starting rank ("0000" or blank: none)
        +5     colour: w (White = Red, who moves first), b (Black), - or blank (none)
        +7     result

Result codes: ``1 = 0`` game won / drawn / lost; ``W D L`` the same for a game of less than one move
(read as played); ``+ -`` forfeit win / loss; ``U`` pairing-allocated bye; ``F`` full-point bye;
``H`` half-point bye; ``Z`` zero-point bye; blank: not paired. With opponent ``0000``, ``+`` is read
as a full-point bye and ``-`` as a zero-point bye (older files). Points come from the
:class:`~knockout.standings.records.PointScale` (TRF-16 stores results, not a scoring system). The
rank column is written for people and ignored when reading; the points column is compared with the
points the results add up to, and a line that disagrees gives a warning (the results decide).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path

from knockout.errors import InputError, Problem
from knockout.game import Colour
from knockout.io.text import read_text
from knockout.standings.conventions import parse_event_date
from knockout.standings.records import (
    CLASSICAL,
    CrossTable,
    Entry,
    Kind,
    Outcome,
    PointScale,
    bye_outcome,
    normalise_name,
)

__all__ = ["NAME_WIDTH", "parse_trf", "read_trf", "to_trf"]

NAME_WIDTH = 33
"""Characters available for a name (columns 15-47)."""

_FIRST_BLOCK = 92
_BLOCK = 10

_PLAYED = {"1": Outcome.WIN, "W": Outcome.WIN, "=": Outcome.DRAW, "D": Outcome.DRAW}
_PLAYED |= {"0": Outcome.LOSS, "L": Outcome.LOSS}
_NO_OPPONENT = {
    "U": Kind.PAIRING_BYE,
    "F": Kind.FULL_BYE,
    "H": Kind.HALF_BYE,
    "Z": Kind.ZERO_BYE,
    "": Kind.ABSENT,
    "+": Kind.FULL_BYE,
    "-": Kind.ZERO_BYE,
}
_COLOURS = {"W": Colour.RED, "B": Colour.BLACK, "-": None, "": None}
_ROUNDS_LINE = re.compile(r"(?:XXR|142)\s+(\d+)\s*$")


def _cols(line: str, first: int, last: int) -> str:
    """Columns ``first``..``last`` (from 1, inclusive) of ``line``, stripped."""
    return line[first - 1 : last].strip()


@dataclass(frozen=True)
class _Block:
    """One round of one ``001`` line, as read."""

    line: int
    player: int
    round: int
    opponent: int
    colour: Colour | None
    kind: Kind
    outcome: Outcome


@dataclass(frozen=True)
class _PlayerLine:
    line: int
    rank: int
    name: str
    text: str


def parse_trf(text: str, *, source: str = "<trf>", scale: PointScale = CLASSICAL) -> CrossTable:
    """A cross table from the text of a TRF-16 file.

    Args:
        text: The file's text.
        source: The file's name, for messages.
        scale: Points of each result.

    Raises:
        InputError: Listing every problem found (file, line, columns, expected vs found).
    """
    problems: list[Problem] = []
    head, lines = _scan(text, source, problems)
    _check_unique(lines, source, problems)
    declared = head.rounds
    rounds = (
        declared if declared is not None else max((_blocks_in(p.text) for p in lines), default=0)
    )
    blocks = _read_blocks(lines, rounds, declared, source, problems)
    _cross_check(blocks, source, problems)
    if problems:
        raise InputError(sorted(problems, key=_line_of))
    names = {p.rank: p.name for p in sorted(lines, key=lambda p: p.rank)}
    entries = []
    for (rank, _), b in blocks.items():
        opponent = names[b.opponent] if b.opponent else None
        points = scale.points(b.kind, b.outcome, b.colour)
        entries.append((names[rank], Entry(b.round, opponent, b.colour, b.outcome, b.kind, points)))
    table = CrossTable.from_entries(
        list(names.values()),
        entries,
        rounds=rounds,
        draw_points=scale.unplayed_draw,
        title=head.title,
        scale=scale,
        start_date=head.start_date,
        tournament_type=head.tournament_type,
    )
    warnings = _points_warnings(lines, table, source)
    return replace(table, warnings=tuple(warnings)) if warnings else table


def _points_warnings(lines: list[_PlayerLine], table: CrossTable, source: str) -> list[Problem]:
    """A warning for each ``001`` line whose points column (81-84) is not what its results add
    up to (a blank column says nothing)."""
    out: list[Problem] = []
    for p in lines:
        text = _cols(p.text, 81, 84)
        if not text:
            continue
        where = f"line {p.line}, columns 81-84 (points)"
        try:
            stated = Decimal(text)
        except InvalidOperation:
            stated = None
        if stated is None or not stated.is_finite():
            out.append(Problem(source, where, f"expected points, got {text!r}; ignored"))
            continue
        counted = table.score(p.name)
        if stated != counted:
            out.append(
                Problem(
                    source,
                    where,
                    f"{p.name} has {stated.normalize():f} points here, but the results add up "
                    f"to {counted.normalize():f}; ranking by the results",
                )
            )
    return out


@dataclass(frozen=True)
class _Head:
    """What the records other than ``001`` say about the event."""

    title: str = ""
    rounds: int | None = None
    start_date: date | None = None
    tournament_type: str = ""


def _scan(text: str, source: str, problems: list[Problem]) -> tuple[_Head, list[_PlayerLine]]:
    """The event's records and its ``001`` player lines (a problem for each bad one)."""
    head = _Head()
    lines: list[_PlayerLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if line.startswith("012"):
            head = replace(head, title=line[4:].strip())
        elif line.startswith("042") and line[4:].strip():
            try:
                head = replace(head, start_date=parse_event_date(line[4:]))
            except ValueError as exc:
                problems.append(
                    Problem(source, f"line {number}, record 042 (start date)", str(exc))
                )
        elif line.startswith("092"):
            head = replace(head, tournament_type=line[4:].strip())
        elif m := _ROUNDS_LINE.fullmatch(line.strip()):
            head = replace(head, rounds=int(m.group(1)))
        elif line.startswith("001"):
            player = _player_line(number, line, source, problems)
            if player is not None:
                lines.append(player)
    if not lines and not problems:
        problems.append(Problem(source, "", "expected player lines starting with 001, got none"))
    return head, lines


def _player_line(
    number: int, line: str, source: str, problems: list[Problem]
) -> _PlayerLine | None:
    """The starting rank and name of a ``001`` line (None if the rank cannot be read)."""
    rank_text = _cols(line, 5, 8)
    name = normalise_name(_cols(line, 15, 47))
    if not rank_text.isdigit() or int(rank_text) < 1:
        problems.append(
            Problem(
                source,
                f"line {number}, columns 5-8",
                f"expected a starting rank (1-9999), got {rank_text!r}",
            )
        )
        return None
    if not name:
        problems.append(
            Problem(source, f"line {number}, columns 15-47", "expected a name, got none")
        )
    return _PlayerLine(number, int(rank_text), name, line)


def _read_blocks(
    lines: list[_PlayerLine],
    rounds: int,
    declared: int | None,
    source: str,
    problems: list[Problem],
) -> dict[tuple[int, int], _Block]:
    """Every round block of every player line that can be read, by (starting rank, round)."""
    ranks = {p.rank for p in lines}
    blocks: dict[tuple[int, int], _Block] = {}
    for p in lines:
        if declared is not None and _blocks_in(p.text) > declared:
            problems.append(
                Problem(
                    source,
                    f"line {p.line}",
                    f"expected at most {declared} rounds (XXR), got {_blocks_in(p.text)}",
                )
            )
        for r in range(1, rounds + 1):
            block = _parse_block(p, r, ranks, source, problems)
            if block is not None:
                blocks[p.rank, r] = block
    return blocks


def _line_of(problem: Problem) -> int:
    m = re.match(r"line (\d+)", problem.key)
    return int(m.group(1)) if m else 0


def _check_unique(lines: list[_PlayerLine], source: str, problems: list[Problem]) -> None:
    first_rank: dict[int, int] = {}
    first_name: dict[str, int] = {}
    for p in lines:
        if p.rank in first_rank:
            problems.append(
                Problem(
                    source,
                    f"line {p.line}, columns 5-8",
                    f"expected a new starting rank, got {p.rank} again (line {first_rank[p.rank]})",
                )
            )
        else:
            first_rank[p.rank] = p.line
        if p.name and p.name in first_name:
            problems.append(
                Problem(
                    source,
                    f"line {p.line}, columns 15-47",
                    f"expected a new name, got {p.name!r} again (line {first_name[p.name]})",
                )
            )
        elif p.name:
            first_name[p.name] = p.line


def _blocks_in(line: str) -> int:
    """How many round blocks ``line`` has, up to its last non-blank one."""
    body = line[_FIRST_BLOCK - 1 :].rstrip()
    return 0 if not body else (len(body) + _BLOCK - 1) // _BLOCK


def _parse_block(
    p: _PlayerLine, r: int, ranks: set[int], source: str, problems: list[Problem]
) -> _Block | None:
    start = _FIRST_BLOCK + _BLOCK * (r - 1)
    where = f"line {p.line}, round {r}"
    opp_text = _cols(p.text, start, start + 3)
    colour_text = _cols(p.text, start + 5, start + 5).upper()
    code = _cols(p.text, start + 7, start + 7).upper()
    bad = len(problems)
    opponent = _block_opponent(p, opp_text, ranks)
    if isinstance(opponent, str):
        problems.append(Problem(source, f"{where} (columns {start}-{start + 3})", opponent))
    if colour_text not in _COLOURS:
        problems.append(
            Problem(
                source,
                f"{where} (column {start + 5})",
                f"expected colour w, b or -, got {colour_text.lower()!r}",
            )
        )
    if opp_text and not opp_text.isdigit():
        return None  # the result cannot be judged without an opponent
    number = opponent if isinstance(opponent, int) else int(opp_text)
    result = _block_result(number, code, colour_text, start, where, source, problems)
    if len(problems) > bad or result is None:
        return None
    kind, outcome, colour = result
    return _Block(p.line, p.rank, r, number, colour, kind, outcome)


def _block_opponent(p: _PlayerLine, opp_text: str, ranks: set[int]) -> int | str:
    """The opponent's starting rank in a round block (0: none), or what is wrong with it."""
    if not opp_text:
        return 0
    if not opp_text.isdigit():
        return f"expected an opponent's starting rank or 0000, got {opp_text!r}"
    opponent = int(opp_text)
    if opponent == p.rank:
        return "a player cannot play themself"
    if opponent and opponent not in ranks:
        return f"expected the starting rank of a player in the file, got {opponent}"
    return opponent


def _block_result(
    opponent: int,
    code: str,
    colour_text: str,
    start: int,
    where: str,
    source: str,
    problems: list[Problem],
) -> tuple[Kind, Outcome, Colour | None] | None:
    """Kind, outcome and colour of a round block, or None after adding a problem."""
    colour = _COLOURS.get(colour_text)
    if opponent == 0:
        kind = _NO_OPPONENT.get(code)
        if kind is None:
            problems.append(
                Problem(
                    source,
                    f"{where} (column {start + 7})",
                    f"expected a bye (U, F, H, Z, + or -) for a round without opponent, "
                    f"got {code!r}",
                )
            )
            return None
        return kind, bye_outcome(kind), None
    if code in _PLAYED:
        if colour is None and colour_text in _COLOURS:
            problems.append(
                Problem(
                    source,
                    f"{where} (column {start + 5})",
                    f"expected colour w or b for a game played, got {colour_text.lower() or ' '!r}",
                )
            )
        return Kind.PLAYED, _PLAYED[code], colour
    if code in ("+", "-"):
        return Kind.FORFEIT, Outcome.WIN if code == "+" else Outcome.LOSS, colour
    problems.append(
        Problem(
            source,
            f"{where} (column {start + 7})",
            f"expected a result (1, =, 0, W, D, L, + or -) against opponent {opponent}, "
            f"got {code!r}",
        )
    )
    return None


def _cross_check(
    blocks: Mapping[tuple[int, int], _Block], source: str, problems: list[Problem]
) -> None:
    """Both sides of every game must name each other and agree on colours and result."""
    for (rank, r), b in sorted(blocks.items()):
        if not b.opponent:
            continue
        other = blocks.get((b.opponent, r))
        if other is None:
            continue  # the other side has its own problem
        where = f"line {b.line}, round {r}"
        if other.opponent != rank:
            found = f"{other.opponent:04d}" if other.opponent else "no opponent"
            problems.append(
                Problem(
                    source,
                    where,
                    f"player {b.opponent} (line {other.line}) should have opponent {rank}, "
                    f"found {found}",
                )
            )
            continue
        if rank > b.opponent:
            continue  # reported once, from the lower starting rank
        if other.kind is not b.kind:
            problems.append(
                Problem(
                    source,
                    where,
                    f"expected player {b.opponent} (line {other.line}) to have a "
                    f"{'game' if b.kind is Kind.PLAYED else 'forfeit'} too, found a "
                    f"{'game' if other.kind is Kind.PLAYED else 'forfeit'}",
                )
            )
        elif b.kind is Kind.PLAYED and other.outcome is not b.outcome.reverse:
            problems.append(
                Problem(
                    source,
                    where,
                    f"expected player {b.opponent} (line {other.line}) to have a "
                    f"{b.outcome.reverse}, found a {other.outcome}",
                )
            )
        elif (
            b.kind is Kind.FORFEIT
            and Outcome.WIN in (b.outcome, other.outcome)
            and (b.outcome is other.outcome)
        ):
            problems.append(
                Problem(
                    source,
                    where,
                    f"both players {rank} and {b.opponent} (line {other.line}) won by forfeit",
                )
            )
        if b.colour is not None and other.colour is b.colour:
            problems.append(
                Problem(
                    source,
                    where,
                    f"both players {rank} and {b.opponent} (line {other.line}) have colour "
                    f"{_colour_code(b.colour)}",
                )
            )


def read_trf(
    path: str | Path, *, encoding: str | None = None, scale: PointScale = CLASSICAL
) -> CrossTable:
    """A cross table from the TRF-16 file at ``path`` (UTF-8 unless ``encoding`` says else).

    Raises:
        InputError: If the file cannot be read, decoded or understood.
    """
    return parse_trf(read_text(path, encoding=encoding), source=str(path), scale=scale)


def _colour_code(colour: Colour | None) -> str:
    if colour is None:
        return "-"
    return "w" if colour is Colour.RED else "b"


def _result_code(entry: Entry) -> str:
    if entry.kind is Kind.PLAYED:
        return {Outcome.WIN: "1", Outcome.DRAW: "=", Outcome.LOSS: "0"}[entry.outcome]
    if entry.kind is Kind.FORFEIT:
        return "+" if entry.outcome is Outcome.WIN else "-"
    return {
        Kind.PAIRING_BYE: "U",
        Kind.FULL_BYE: "F",
        Kind.HALF_BYE: "H",
        Kind.ZERO_BYE: "Z",
        Kind.ABSENT: " ",
    }[entry.kind]


def _points_text(points: Decimal) -> str:
    text = f"{points:.1f}" if points == points.quantize(Decimal("0.1")) else format(points, "f")
    return f"{text:>4}"


def to_trf(table: CrossTable, *, ranks: Mapping[str, int] | None = None) -> str:
    """``table`` as TRF-16 text (starting rank = position in ``table.players``).

    Args:
        table: The event.
        ranks: Final rank of each player for columns 86-89; default: by points, ties sharing.

    Raises:
        ValueError: For a name longer than 33 characters, or more than 9999 players.
    """
    if len(table.players) > 9999:
        raise ValueError("TRF-16 holds at most 9999 players")
    number = {name: i for i, name in enumerate(table.players, start=1)}
    if ranks is None:
        scores = table.scores
        ranks = {
            n: 1 + sum(1 for m in table.players if scores[m] > scores[n]) for n in table.players
        }
    out = []
    if table.title:
        out.append(f"012 {table.title}")
    if table.start_date is not None:
        out.append(f"042 {table.start_date:%Y/%m/%d}")
    if table.tournament_type:
        out.append(f"092 {table.tournament_type}")
    out.append(f"XXR {table.rounds}")
    for name in table.players:
        if len(name) > NAME_WIDTH:
            raise ValueError(f"name longer than {NAME_WIDTH} characters: {name!r}")
        head = (
            f"001 {number[name]:>4} {'':1}{'':3} {name:<{NAME_WIDTH}} {'':4} {'':3} {'':11} "
            f"{'':10} {_points_text(table.score(name))} {ranks[name]:>4}  "
        )
        blocks = []
        for e in table.entries[name]:
            if e.kind is Kind.ABSENT:
                blocks.append(" " * _BLOCK)
                continue
            opp = f"{number[e.opponent]:>4}" if e.opponent is not None else "0000"
            blocks.append(f"{opp} {_colour_code(e.colour)} {_result_code(e)}  ")
        out.append((head + "".join(blocks)).rstrip())
    return "\n".join(out) + "\n"
