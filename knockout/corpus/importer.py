"""An import: game files in, the table of games and the report of what was kept and refused out.

The steps, each counted in the :class:`ImportReport`:

1. **Read** every file of the sources (:mod:`knockout.corpus.sources`), decode it
   (:mod:`knockout.corpus.encoding`) and split it into games (:mod:`knockout.corpus.pgn`). A file
   no encoding reads, a game whose players no tag or event text names, a game with no result,
   one with a result no table can write, and one with a start position that is no Xiangqi FEN
   are refused, one line each.
2. **Name** the players (:class:`~knockout.corpus.names.NameBook`): team split off, traditional
   and simplified merged. The event text often names the players and the result too
   (:func:`~knockout.corpus.events.event_game`: ``洪智 勝 葛維蒲``): a record with no ``Red`` and
   ``Black`` tags takes the names from it, a tag cut short takes the fuller name, a record with
   no result (or ``*``) takes its result, and a record whose ``Result`` tag says otherwise than
   its event text takes the text's (listed in the report). A date tag whose year is none of the
   years the event text writes (2026 for ``2001年檳州公開賽``) is dropped. All counted.
3. **Remove copies**: the same two players, date and moves are one game, whatever folders it was
   filed in; a copy with no date or a less precise one joins the game it can be; and copies of
   the same players and at least 20 identical moves are one game whatever their dates (files
   filed by tournament often carry the event's first day for every game: counted step by step in
   ``distinct_by_step``). The game keeps every source path; its event, round and teams come from
   the first copy filed by tournament (``以賽事分類``), else by player, else by opening, then by
   path; its time class is the fastest any copy marks; its result is the one its copies give, or
   ``*`` where they disagree (listed; a copy with ``*`` does not disagree).
4. **Replay** each distinct game once by the rules (:mod:`knockout.corpus.replay`), in worker
   processes: moves, final position, complete or broken.

The identity of a game (and its ``id``, a hash of it) is the players' simplified names, the date
and the moves in one spelling (:func:`~knockout.corpus.notation.canonical`), so the same archive
gives the same table, byte for byte.
"""

from __future__ import annotations

import functools
import hashlib
import multiprocessing
import os
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from knockout.corpus.board import START_FEN, Board
from knockout.corpus.events import event_date, event_game, event_round, event_year, parse_date
from knockout.corpus.names import NameBook, bare, simplified
from knockout.corpus.notation import parse_move, spelling
from knockout.corpus.pgn import GameText, normal_result, parse_pgn
from knockout.corpus.replay import Replay, replay
from knockout.corpus.sources import read_sources
from knockout.corpus.table import GameRow
from knockout.corpus.timeclass import TIME_CLASSES, TimeClass, fastest, time_class
from knockout.errors import Problem

__all__ = [
    "PIECE_NAMES",
    "SAME_MOVES_PLIES",
    "ImportReport",
    "Imported",
    "Progress",
    "import_games",
]

Progress = Callable[[str, int, int], None]
"""Called with (stage, done, total): ``reading`` in bytes of the sources, ``replaying`` in
games."""

#: Folder words that say how a copy was filed, in the order a copy is preferred for the header.
_FILED_BY = ("以賽事分類", "以赛事分类", "以棋手分類", "以棋手分类", "以開局分類", "以开局分类")
_ENGINE_FOLDERS = ("電腦對局", "电脑对局")

#: Piece kinds by FEN letter, as the report names them.
PIECE_NAMES = {
    "r": "rook",
    "n": "horse",
    "b": "elephant",
    "a": "advisor",
    "k": "king",
    "c": "cannon",
    "p": "pawn",
}

#: A year the event text writes as a year (2001年) or at its start (2009;, 19840112).
_EVENT_YEAR = re.compile(r"(?:^|\D)(?:19|20)\d\d(?:年|;|\d{4})")
_ANY_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)")

_Said = tuple[str, str, str]

#: Half-moves of identical moves that make copies one game whatever their dates (20 moves).
SAME_MOVES_PLIES = 40

#: Games per task sent to a worker process.
_CHUNK = 200


@dataclass(frozen=True)
class _Copy:
    """One record of a game, as one file gives it."""

    source: str
    tags: dict[str, str]
    moves: tuple[str, ...]
    result: str
    start: str
    red: str
    black: str
    date: str
    corrected: bool = False


@dataclass
class ImportReport:
    """What an import read, kept and refused (every count from the import itself)."""

    files: int = 0
    encodings: Counter[str] = field(default_factory=Counter)
    redecoded_fields: int = 0
    records: int = 0
    refused: list[Problem] = field(default_factory=list)
    refused_by_reason: Counter[str] = field(default_factory=Counter)
    names_from_event: int = 0
    names_completed: int = 0
    results_from_event: int = 0
    results_corrected: list[str] = field(default_factory=list)
    dates_contradicted: int = 0
    dates_unread: int = 0
    kept: int = 0
    copies_removed: int = 0
    results_disagree: list[str] = field(default_factory=list)
    by_time_class: Counter[str] = field(default_factory=Counter)
    by_kind: Counter[str] = field(default_factory=Counter)
    records_by_state: Counter[str] = field(default_factory=Counter)
    broken_by_reason: Counter[str] = field(default_factory=Counter)
    master: Counter[str] = field(default_factory=Counter)
    distinct_by_step: dict[str, int] = field(default_factory=dict)
    repaired_moves: int = 0
    repaired_by_piece: Counter[str] = field(default_factory=Counter)
    repaired_games: int = 0
    team_splits: int = 0
    merges: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)

    def refuse(self, problem: Problem, reason: str) -> None:
        """Count a refused file or record (one line of the report)."""
        self.refused.append(problem)
        self.refused_by_reason[reason] += 1

    def to_json(self) -> dict[str, Any]:
        """The report as JSON (``--json``)."""
        complete = self.master["complete"]
        master = sum(self.master.values())
        return {
            "files": {"read": self.files, "by_encoding": dict(sorted(self.encodings.items()))},
            "redecoded_fields": self.redecoded_fields,
            "records": self.records,
            "games": {
                "kept": self.kept,
                "copies_removed": self.copies_removed,
                "distinct_by_step": self.distinct_by_step,
                "by_time_class": {c: self.by_time_class[c] for c in TIME_CLASSES},
                "by_kind": dict(sorted(self.by_kind.items())),
                "results_disagree": self.results_disagree,
            },
            "refused": {
                "total": len(self.refused),
                "by_reason": dict(sorted(self.refused_by_reason.items())),
                "lines": [str(p) for p in self.refused],
            },
            "records_replayed": {
                "by_state": dict(sorted(self.records_by_state.items())),
                "broken_by_reason": dict(sorted(self.broken_by_reason.items())),
                "repaired_moves": self.repaired_moves,
                "repaired_by_piece": {
                    PIECE_NAMES[k]: self.repaired_by_piece[k]
                    for k in sorted(self.repaired_by_piece)
                },
                "repaired_games": self.repaired_games,
                "master_games": master,
                "master_complete": complete,
                "master_complete_share": complete / master if master else None,
            },
            "results_from_event_text": self.results_from_event,
            "results_corrected_by_event_text": self.results_corrected,
            "dates_contradicting_event_year": self.dates_contradicted,
            "names": {
                "from_event_text": self.names_from_event,
                "completed_from_event_text": self.names_completed,
                "team_splits": self.team_splits,
                "merges": [{"player": p, "forms": list(f)} for p, f in self.merges],
            },
            "dates_unread": self.dates_unread,
        }


@dataclass(frozen=True)
class Imported:
    """The table's rows and the report."""

    rows: tuple[GameRow, ...]
    report: ImportReport


def import_games(
    sources: Sequence[Path],
    *,
    classical_events: Sequence[str] = (),
    workers: int | None = None,
    progress: Progress | None = None,
) -> Imported:
    """Import the games of ``sources`` (files, folders, archives).

    Args:
        sources: Where the games are.
        classical_events: Event names known to be played at a slow clock (see
            :mod:`knockout.corpus.timeclass`).
        workers: Processes replaying the games (default: the processors this process may use).
        progress: Told how far the reading and the replaying are.
    """
    report = ImportReport()
    copies = _read_copies(list(sources), report, progress)
    book = NameBook(
        (name, team)
        for c in copies
        for name, team in (
            (c.red, c.tags.get("RedTeam", "")),
            (c.black, c.tags.get("BlackTeam", "")),
        )
    )
    report.team_splits = book.splits()
    report.merges = book.merges()
    groups = _games(copies, book)
    keys = sorted(groups)
    replays = _replay_all([groups[k][0] for k in keys], workers, progress)
    # Copies written in different notations (Chinese, WXF, ICCS) are one game once replayed: the
    # id is taken from the moves the library played, so they meet here.
    games: dict[str, tuple[tuple[str, ...], list[_Copy], Replay]] = {}
    for key, played in zip(keys, replays, strict=True):
        game_id = _game_id(key, played)
        if game_id in games:
            games[game_id][1].extend(groups[key])
        else:
            games[game_id] = (key, list(groups[key]), played)
    report.distinct_by_step = {**_distinct_by_step(copies, book), "moves_replayed": len(games)}
    report.kept = len(games)
    report.copies_removed = len(copies) - len(games)
    rows = [
        _row(game_id, key, sorted(members, key=_preference), played, book, classical_events, report)
        for game_id, (key, members, played) in sorted(games.items())
    ]
    return Imported(tuple(rows), report)


def _read_copies(
    sources: list[Path], report: ImportReport, progress: Progress | None
) -> list[_Copy]:
    problems: list[Problem] = []

    def reading(done: int, total: int) -> None:
        if progress is not None:
            progress("reading", done, total)

    copies: list[_Copy] = []
    for file in read_sources(sources, problems, reading):
        report.files += 1
        parsed = parse_pgn(file.data)
        if parsed.encoding is None:
            report.refuse(
                Problem(
                    file.path,
                    "",
                    "no encoding reads it as a game record (tried UTF-8, GB18030, Big5)",
                ),
                "unknown encoding",
            )
            continue
        report.encodings[parsed.encoding] += 1
        if not parsed.games:
            report.refuse(Problem(file.path, "", "no game in the file"), "no game")
        for index, game in enumerate(parsed.games):
            report.records += 1
            report.redecoded_fields += len(game.redecoded)
            where = f"game {index + 1}" if len(parsed.games) > 1 else ""
            copy = _copy(file.path, where, game, report)
            if copy is not None:
                copies.append(copy)
    for problem in problems:
        report.refuse(problem, "unreadable source")
    return copies


def _plain(text: str) -> str:
    return "".join(simplified(text).split())


def _players(tags: dict[str, str], report: ImportReport) -> tuple[str, str, _Said | None]:
    """Red, Black, and what the event text says of the game if it names the same players."""
    red, black = tags.get("Red", "").strip(), tags.get("Black", "").strip()
    said = event_game(tags.get("Event", ""))
    if said is None:
        return red, black, None
    if not red and not black:
        report.names_from_event += 1
        return said[0], said[1], said
    sides = ((red, said[0]), (black, said[1]))
    if not all(_plain(tag) and _plain(tag) in _plain(side) for tag, side in sides):
        return red, black, None  # the event text is about other players
    # The event text names the same players, perhaps more fully (a tag cut short, 上海浦東花木廣
    # for 上海浦東花木廣洋隊 葛維蒲): the fuller names are taken.
    if any(
        _plain(side) != _plain(tag) and _plain(side).startswith(_plain(tag)) for tag, side in sides
    ):
        report.names_completed += 1
        return said[0], said[1], said
    return red, black, said


def _copy(source: str, where: str, game: GameText, report: ImportReport) -> _Copy | None:
    tags = game.tags
    event = tags.get("Event", "")
    written = tags.get("Result", "").strip()
    result = normal_result(written) if written else game.result
    red, black, said = _players(tags, report)
    corrected = False
    if said is not None and result in (None, "*"):
        result = said[2]
        report.results_from_event += 1
    elif said is not None and result != said[2]:
        # The event text names both players and the result; where the tag says otherwise, the
        # text is taken (in the 2009 national individual records, 71 games tagged 1-0 whose text
        # says Red lost end with Black ahead in attacking material in 42 and Red in 7).
        result, corrected = said[2], True
    if not bare(red) or not bare(black):
        missing = " and ".join(
            side for side, name in (("Red", red), ("Black", black)) if not bare(name)
        )
        message = f"no players: {missing} named neither by a tag nor by the event text"
        report.refuse(Problem(source, where, message), "no players")
        return None
    if result is None:
        if written:
            message = f"Result: expected 1-0, 0-1, 1/2-1/2 or *, got {written!r}"
            report.refuse(Problem(source, where, message), "unknown result")
        else:
            message = "no Result: neither a Result tag nor a result after the moves"
            report.refuse(Problem(source, where, message), "no result")
        return None
    start = tags.get("FEN", "").strip() or START_FEN
    if not _is_position(start):
        message = f"FEN: expected a Xiangqi position, got {start!r}"
        report.refuse(Problem(source, where, message), "bad start position")
        return None
    date_tag = tags.get("Date", "")
    date = parse_date(date_tag) or event_date(event)
    if date_tag.strip() and not parse_date(date_tag):
        report.dates_unread += 1
    years = {int(y) for y in _ANY_YEAR.findall(event)}
    if date and years and int(date[:4]) not in years and _EVENT_YEAR.search(event):
        date = ""  # a date tag contradicting every year the event text writes (2026 for 2001)
        report.dates_contradicted += 1
    return _Copy(source, tags, game.moves, result, start, red, black, date, corrected)


@functools.lru_cache(maxsize=1024)
def _is_position(fen: str) -> bool:
    try:
        Board.from_fen(fen)
    except ValueError:
        return False
    return True


def _moves_key(copy: _Copy) -> str:
    return " ".join(map(spelling, copy.moves))


def _games(
    copies: list[_Copy], book: NameBook, *, across_dates: bool = True
) -> dict[tuple[str, ...], list[_Copy]]:
    """The copies grouped into games by identity: the players (simplified), the date, the moves
    in one spelling and the start (if not the usual one). A copy whose date is missing or less
    precise (``1950-04`` beside ``1950-04-12``) joins the one game it can be, if there is one.

    With ``across_dates``, copies of the same players and the same moves, at least
    :data:`SAME_MOVES_PLIES` half-moves of them, are one game whatever dates they give: copies
    filed by tournament often carry the event's first day, or another year, for every game. The
    date kept is the one most copies give, then the most precise, then the latest."""
    by_game: dict[tuple[str, ...], dict[str, list[_Copy]]] = {}
    for copy in copies:
        start = "" if copy.start == START_FEN else copy.start
        base = (book.key(copy.red), book.key(copy.black), _moves_key(copy), start)
        by_game.setdefault(base, {}).setdefault(copy.date, []).append(copy)
    groups: dict[tuple[str, ...], list[_Copy]] = {}
    for (red, black, moves, start), dated in by_game.items():
        target: dict[str, str] = {}
        for date in sorted(dated, key=lambda d: (-len(d), d)):
            finer = {target[e] for e in target if e.startswith(date)}
            target[date] = finer.pop() if len(finer) == 1 else date
        kept = set(target.values())
        if across_dates and len(kept) > 1 and moves.count(" ") + 1 >= SAME_MOVES_PLIES:
            copies_of: Counter[str] = Counter()
            for date, members in dated.items():
                copies_of[target[date]] += len(members)
            chosen = max(sorted(kept), key=lambda d: (copies_of[d], len(d), d))
            target = dict.fromkeys(target, chosen)
        for date, members in dated.items():
            groups.setdefault((red, black, target[date], moves, start), []).extend(members)
    return groups


def _distinct_by_step(copies: list[_Copy], book: NameBook) -> dict[str, int]:
    """Distinct games as each step of the identity is added, so the copies each step finds can
    be checked by other code: the names, date tag and moves exactly as written; the names read
    (team split, scripts merged); the dates read; a missing or less precise date joined."""
    raw = {(c.red, c.black, c.tags.get("Date", ""), c.moves, c.start) for c in copies}
    named = {
        (book.key(c.red), book.key(c.black), c.tags.get("Date", ""), _moves_key(c), c.start)
        for c in copies
    }
    dated = {(book.key(c.red), book.key(c.black), c.date, _moves_key(c), c.start) for c in copies}
    return {
        "records": len(copies),
        "as_written": len(raw),
        "names_read": len(named),
        "dates_read": len(dated),
        "dates_joined": len(_games(copies, book, across_dates=False)),
        "same_moves_other_dates": len(_games(copies, book)),
    }


def _preference(copy: _Copy) -> tuple[int, str]:
    rank = next((i // 2 for i, word in enumerate(_FILED_BY) if word in copy.source), 3)
    return rank, copy.source


def _game_id(key: tuple[str, ...], played: Replay) -> str:
    """A hash of the players, the date, the moves as the library played them (and the text of
    any left after a break), and the start: the same in any notation."""
    red, black, date, moves, start = key
    rest = moves.split()[len(played.uci) :]
    identity = (red, black, date, " ".join((*played.uci, *rest)), start)
    return hashlib.sha1("\x1f".join(identity).encode("utf-8")).hexdigest()[:12]


def _result(copies: list[_Copy]) -> tuple[str, bool]:
    """The game's result and whether its copies disagree."""
    known = {c.result for c in copies if c.result != "*"}
    if len(known) == 1:
        return known.pop(), False
    return "*", len(known) > 1


def _row(
    game_id: str,
    key: tuple[str, ...],
    copies: list[_Copy],
    played: Replay,
    book: NameBook,
    classical_events: Sequence[str],
    report: ImportReport,
) -> GameRow:
    first = copies[0]
    result, disagree = _result(copies)
    if disagree:
        report.results_disagree.append(game_id)
    if any(c.corrected for c in copies):
        report.results_corrected.append(game_id)
    classes: list[TimeClass] = [
        time_class(c.tags.get("Event", ""), c.tags.get("Round", ""), classical_events)
        for c in copies
    ]
    klass = fastest(classes)
    kind = (
        "engine" if all(any(w in c.source for w in _ENGINE_FOLDERS) for c in copies) else "master"
    )
    event = first.tags.get("Event", "")
    round_ = next(
        (r for c in copies if (r := event_round(c.tags.get("Round", ""), c.tags.get("Event", "")))),
        "",
    )
    year = next(
        (y for c in copies if (y := event_year(key[2], c.tags.get("Event", ""))) is not None),
        None,
    )
    red = book.player(first.red, first.tags.get("RedTeam", ""))
    black = book.player(first.black, first.tags.get("BlackTeam", ""))
    report.by_time_class[klass] += 1
    report.by_kind[kind] += 1
    state = played.record if played.broken_at is None else "broken"
    report.records_by_state[state] += 1
    if played.reason is not None:
        report.broken_by_reason[played.reason] += 1
    if kind == "master":
        report.master[state] += 1
    report.repaired_moves += played.repairs
    report.repaired_by_piece.update(played.repaired)
    report.repaired_games += played.repairs > 0
    return GameRow(
        id=game_id,
        event=event,
        round=round_,
        date=key[2],
        year=year,
        red=red.name,
        black=black.name,
        red_team=red.team,
        black_team=black.team,
        result=result,
        time_class=klass,
        moves=played.moves,
        final_fen=played.final_fen,
        record=played.record,
        kind=kind,
        sources=tuple(sorted(c.source for c in copies)),
    )


def _replay_one(task: tuple[tuple[str, ...], str]) -> Replay:
    moves, start = task
    done = replay([parse_move(m) for m in moves], start)
    return done


def _replay_chunk(tasks: list[tuple[tuple[str, ...], str]]) -> list[Replay]:
    return [_replay_one(t) for t in tasks]


def _workers(asked: int | None) -> int:
    if asked is not None:
        return max(1, asked)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _replay_all(games: list[_Copy], workers: int | None, progress: Progress | None) -> list[Replay]:
    """Each game replayed once; in worker processes when there are enough games to pay for
    starting them (the results in the games' order, however the work was split)."""
    tasks = [(g.moves, g.start) for g in games]
    total = len(tasks)
    count = _workers(workers)
    chunks = [tasks[i : i + _CHUNK] for i in range(0, total, _CHUNK)]
    out: list[Replay] = []
    if count == 1 or len(chunks) < 3:
        for chunk in chunks:
            out.extend(_replay_chunk(chunk))
            if progress is not None:
                progress("replaying", len(out), total)
        return out
    # A pool (not an executor) so that leaving the block, by an error or Ctrl-C, terminates the
    # workers rather than waiting for them.
    with multiprocessing.get_context("spawn").Pool(count) as pool:
        for result in pool.imap(_replay_chunk, chunks):
            out.extend(result)
            if progress is not None:
                progress("replaying", len(out), total)
    return out
