"""A self-play run: openings, games in parallel engine pairs, and the files they are written to.

``play(config, out)`` writes two CSV files as games finish:

* ``out`` (``GAMES.csv``): the calibration file ``knockout calibrate`` reads, one row a game
  (columns :data:`CALIBRATION_COLUMNS`), with equal ratings, the time class stated and the
  budgets written as clocks in their ratio (:meth:`Pairing.calibration_clocks`);
* ``GAMES-detail.csv`` beside it: one row a game with the opening, the moves (UCI, separated by
  spaces), the result, how the game ended and the settings it was played under
  (:data:`DETAIL_COLUMNS`);

and, at the end, ``GAMES-run.json``: the provenance (engine, its options, the settings, each
session's dates, games, wall and CPU time). An interrupted run keeps every finished game; the same
command again plays only the games that are missing (a game is a function of its number: its
opening and budgets). With node budgets a game is also a function of its moves, so the files are
the same with any ``--jobs``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import multiprocessing
import os
import queue
import resource
import signal
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from knockout.errors import InputError, KnockoutError, Problem
from knockout.selfplay.adjudicate import (
    Adjudication,
    Ending,
    Outcome,
    Reason,
    Referee,
    load_pyffish,
)
from knockout.selfplay.budgets import Pairing
from knockout.selfplay.openings import OpeningBook, OpeningConfig
from knockout.selfplay.uci import Engine, EngineError

__all__ = [
    "CALIBRATION_COLUMNS",
    "DETAIL_COLUMNS",
    "ENGINE_OPTIONS",
    "GameRecord",
    "Progress",
    "RunSummary",
    "SelfPlayConfig",
    "detail_path",
    "play",
    "play_game",
    "read_detail",
]

CALIBRATION_COLUMNS = (
    "red_rating",
    "black_rating",
    "time_class",
    "red_minutes",
    "black_minutes",
    "increment_seconds",
    "result",
)
"""The calibration file's header (``knockout.calibration.COLUMNS``, in that order)."""

DETAIL_COLUMNS = (
    "game",
    "opening_index",
    "opening",
    "budget",
    "red_budget",
    "black_budget",
    "increment_seconds",
    "result",
    "reason",
    "plies",
    "moves",
    "red_score",
    "red_seconds",
    "black_seconds",
    "resign_cp",
    "resign_plies",
    "max_plies",
    "move_rule",
    "opening_plies",
    "seed",
    "contempt",
    "engine",
)
"""The detail file's header: one row a game."""

ENGINE_OPTIONS: Mapping[str, str] = {
    "UCI_Variant": "xiangqi",
    "Threads": "1",
    "Hash": "16",
    "Ponder": "false",
    "Contempt": "0",
    "Analysis Contempt": "Off",
}
"""``setoption`` values of every engine: Xiangqi, one thread, and contempt neutral
(Fairy-Stockfish's default, 24, makes an engine avoid draws against an opponent it takes to be
weaker; an engine playing itself must not bias the draws)."""

RATING = 0
"""Both sides' rating in the calibration file: one engine, so equal (only differences matter)."""


@dataclass(frozen=True)
class SelfPlayConfig:
    """Everything that decides a run's games.

    Attributes:
        engine: The engine's path.
        pairings: The budgets each opening is played with
            (:func:`~knockout.selfplay.budgets.pairings`).
        games: Games in the run; game ``g`` plays opening ``g // len(pairings)`` with pairing
            ``g % len(pairings)``.
        seed: Seeds the openings.
        jobs: Games played at once (each by its own pair of engine processes).
        time_class: The class the calibration file states (``rapid``, ``blitz`` or ``classical``).
        openings: How openings are drawn.
        adjudication: The score and move-cap thresholds.
        options: The engines' ``setoption`` values.
    """

    engine: str
    pairings: tuple[Pairing, ...]
    games: int
    seed: int
    jobs: int = 1
    time_class: str = "rapid"
    openings: OpeningConfig = field(default_factory=OpeningConfig)
    adjudication: Adjudication = field(default_factory=Adjudication)
    options: Mapping[str, str] = field(default_factory=lambda: dict(ENGINE_OPTIONS))

    def __post_init__(self) -> None:
        if self.games < 1:
            raise InputError.single(
                "--games", "", f"expected a whole number >= 1, got {self.games}"
            )
        if self.jobs < 1:
            raise InputError.single("--jobs", "", f"expected a whole number >= 1, got {self.jobs}")
        if self.seed < 0:
            raise InputError.single("--seed", "", f"expected a whole number >= 0, got {self.seed}")
        if self.time_class not in ("classical", "rapid", "blitz"):
            raise InputError.single(
                "--time-class", "", f"expected classical, rapid or blitz, got {self.time_class!r}"
            )
        if not self.pairings:
            raise ValueError("no pairings")

    def game_plan(self, game: int) -> tuple[int, Pairing]:
        """Opening number and budgets of game ``game``."""
        return game // len(self.pairings), self.pairings[game % len(self.pairings)]

    @property
    def openings_needed(self) -> int:
        """How many distinct openings the run plays."""
        return -(-self.games // len(self.pairings))


@dataclass(frozen=True)
class GameRecord:
    """One finished game.

    Attributes:
        game: Its number in the run.
        opening_index: Which opening it played.
        opening: The opening's moves.
        pairing: The budgets.
        result: ``red``, ``draw`` or ``black``.
        reason: How it ended.
        moves: Every move, the opening's included (UCI).
        red_score: The last engine score, in centipawns from Red's side (``None`` if none).
        red_seconds: Wall time Red's engine spent thinking.
        black_seconds: The same for Black.
    """

    game: int
    opening_index: int
    opening: tuple[str, ...]
    pairing: Pairing
    result: Outcome
    reason: Reason
    moves: tuple[str, ...]
    red_score: int | None
    red_seconds: float
    black_seconds: float


@dataclass(frozen=True)
class Progress:
    """How far a run is, for the progress callback.

    Attributes:
        phase: ``openings`` (drawing them) or ``games``.
        done: Openings drawn, or games finished (this session's and earlier sessions').
        total: Openings or games wanted.
        resumed: Games found finished in the files at the start.
        elapsed: Seconds since the phase started.
        games_per_minute: This session's rate (``None`` before its first game).
        seconds_left: Estimated seconds to the end at that rate (``None`` before the first game).
    """

    phase: str
    done: int
    total: int
    resumed: int = 0
    elapsed: float = 0.0
    games_per_minute: float | None = None
    seconds_left: float | None = None


@dataclass(frozen=True)
class RunSummary:
    """What a session did.

    Attributes:
        out: The calibration file.
        detail: The detail file.
        provenance: The run's JSON provenance file.
        games: Games in the files now.
        played: Games this session played.
        resumed: Games found in the files at the start.
        wall_seconds: The session's wall time (openings included).
        engine_cpu_seconds: CPU time of the engine processes this session.
        own_cpu_seconds: CPU time of this process (referee, files) this session.
        counts: Results in the files: ``red``, ``draw``, ``black``.
        reasons: How the games in the files ended, by reason.
        interrupted: Whether the session was stopped before the end.
    """

    out: Path
    detail: Path
    provenance: Path
    games: int
    played: int
    resumed: int
    wall_seconds: float
    engine_cpu_seconds: float
    own_cpu_seconds: float
    counts: dict[str, int]
    reasons: dict[str, int]
    interrupted: bool

    @property
    def games_per_minute(self) -> float | None:
        """This session's games per wall-clock minute (openings included)."""
        return 60 * self.played / self.wall_seconds if self.played and self.wall_seconds else None


def detail_path(out: Path) -> Path:
    """``GAMES-detail.csv`` beside ``GAMES.csv``."""
    return out.with_name(f"{out.stem}-detail{out.suffix or '.csv'}")


def provenance_path(out: Path) -> Path:
    """``GAMES-run.json`` beside ``GAMES.csv``."""
    return out.with_name(f"{out.stem}-run.json")


def _num(value: float) -> str:
    return f"{value:.10g}"


def _go(pairing: Pairing, red: bool, clocks: list[float]) -> tuple[str, float]:
    """The ``go`` arguments for the side to move and a deadline (seconds) for its answer."""
    if pairing.kind == "nodes":
        nodes = int(pairing.red if red else pairing.black)
        return f"nodes {nodes}", 60.0 + nodes / 2000
    if pairing.kind == "movetime":
        ms = int(pairing.red if red else pairing.black)
        return f"movetime {ms}", ms / 1000 + 30.0
    inc = round(pairing.increment * 1000)
    wtime, btime = (max(1, round(c * 1000)) for c in clocks)
    left = clocks[0] if red else clocks[1]
    return f"wtime {wtime} btime {btime} winc {inc} binc {inc}", left + 30.0


def play_game(
    engines: tuple[Engine, Engine],
    config: SelfPlayConfig,
    game: int,
    opening: tuple[str, ...],
    stop: threading.Event | None = None,
) -> GameRecord | None:
    """Play game ``game`` from ``opening`` with ``engines`` (Red's, Black's).

    Returns:
        The record, or ``None`` if ``stop`` was set during the game.

    Raises:
        EngineError: If an engine fails (one line, with the game's number and ply).
    """
    opening_index, pairing = config.game_plan(game)
    referee = Referee(config.adjudication)
    ending: Ending | None = None
    for move in opening:
        ending = referee.push(move)
        if ending is not None:  # an opening that ends the game is not drawn; kept for safety
            break
    for engine in engines:
        engine.new_game()
    clocks = [pairing.red, pairing.black]
    thinking = [0.0, 0.0]
    last_score: int | None = None
    while ending is None:
        if stop is not None and stop.is_set():
            return None
        red = referee.red_to_move
        side = 0 if red else 1
        go, deadline = _go(pairing, red, clocks)
        try:
            found = engines[side].search(referee.moves, go, timeout=deadline)
        except EngineError as exc:
            raise EngineError(f"{exc} (game {game}, ply {len(referee.moves) + 1})") from None
        thinking[side] += found.seconds
        if found.score is not None:
            last_score = found.score if red else -found.score
        if pairing.kind == "clock":
            clocks[side] -= found.seconds
            if clocks[side] < 0:
                ending = Ending("black" if red else "red", Reason.TIME)
                break
            clocks[side] += pairing.increment
        if found.move == "(none)":
            ending = Ending("black" if red else "red", Reason.ILLEGAL_MOVE)
            break
        ending = referee.push(found.move, found.score)
    return GameRecord(
        game=game,
        opening_index=opening_index,
        opening=opening,
        pairing=pairing,
        result=ending.result,
        reason=ending.reason,
        moves=tuple(referee.moves),
        red_score=last_score,
        red_seconds=thinking[0],
        black_seconds=thinking[1],
    )


def _detail_row(record: GameRecord, config: SelfPlayConfig, engine_name: str) -> list[str]:
    p = record.pairing
    adj = config.adjudication
    return [
        str(record.game),
        str(record.opening_index),
        " ".join(record.opening),
        p.kind,
        _num(p.red),
        _num(p.black),
        _num(p.increment),
        record.result,
        record.reason.value,
        str(len(record.moves)),
        " ".join(record.moves),
        "" if record.red_score is None else str(record.red_score),
        f"{record.red_seconds:.3f}",
        f"{record.black_seconds:.3f}",
        str(adj.resign_cp),
        str(adj.resign_plies),
        str(adj.max_plies),
        str(adj.move_rule),
        str(config.openings.plies),
        str(config.seed),
        config.options.get("Contempt", ""),
        engine_name,
    ]


def _calibration_row(row: Mapping[str, str], time_class: str) -> list[str]:
    pairing = Pairing(
        row["budget"],  # type: ignore[arg-type]
        float(row["red_budget"]),
        float(row["black_budget"]),
        float(row["increment_seconds"]),
    )
    red, black, inc = pairing.calibration_clocks()
    return [str(RATING), str(RATING), time_class, _num(red), _num(black), _num(inc), row["result"]]


def _line(cells: Sequence[str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(cells)
    return buffer.getvalue()


def read_detail(path: Path) -> list[dict[str, str]]:
    """The rows of a detail file (a last line cut short by a crash is dropped).

    Raises:
        InputError: If the header is not :data:`DETAIL_COLUMNS`.
    """
    text = path.read_text(encoding="utf-8")
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]  # an unfinished last line: that game is replayed
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None:
        return []
    if tuple(header) != DETAIL_COLUMNS:
        raise InputError.single(
            str(path),
            "line 1",
            f"expected the header {','.join(DETAIL_COLUMNS)}, got {','.join(header)}",
        )
    return [dict(zip(DETAIL_COLUMNS, cells, strict=False)) for cells in reader if cells]


def _expected(config: SelfPlayConfig, game: int) -> dict[str, str]:
    """The detail cells a game of this run must have (to refuse resuming another run's file)."""
    opening_index, p = config.game_plan(game)
    adj = config.adjudication
    return {
        "opening_index": str(opening_index),
        "budget": p.kind,
        "red_budget": _num(p.red),
        "black_budget": _num(p.black),
        "increment_seconds": _num(p.increment),
        "resign_cp": str(adj.resign_cp),
        "resign_plies": str(adj.resign_plies),
        "max_plies": str(adj.max_plies),
        "move_rule": str(adj.move_rule),
        "opening_plies": str(config.openings.plies),
        "seed": str(config.seed),
        "contempt": config.options.get("Contempt", ""),
    }


def _check_resume(
    path: Path, rows: list[dict[str, str]], config: SelfPlayConfig
) -> dict[int, dict[str, str]]:
    """The finished games of an earlier session, checked against this run's settings.

    Raises:
        InputError: One problem per cell that says the file holds another run's games.
    """
    problems: list[Problem] = []
    done: dict[int, dict[str, str]] = {}
    for line, row in enumerate(rows, start=2):
        try:
            game = int(row["game"])
        except (KeyError, ValueError):
            problems.append(
                Problem(
                    str(path),
                    f"line {line}, game",
                    f"expected a game number, got {row.get('game')!r}",
                )
            )
            continue
        if not 0 <= game < config.games:
            problems.append(
                Problem(
                    str(path),
                    f"line {line}, game",
                    f"expected 0 to {config.games - 1} (--games {config.games}), got {game}",
                )
            )
            continue
        for key, want in _expected(config, game).items():
            if row.get(key) != want:
                problems.append(
                    Problem(
                        str(path),
                        f"line {line}, {key}",
                        f"this run has {want!r}, the file's game {game} {row.get(key)!r}: it holds "
                        "another run's games (give another --out, or the same settings to resume)",
                    )
                )
                break
        done[game] = row
        if len(problems) >= 10:
            break
    if problems:
        raise InputError(problems)
    return done


class _Files:
    """The two CSV files, rewritten in game order at the start and the end, appended between."""

    def __init__(self, out: Path, config: SelfPlayConfig, engine_name: str) -> None:
        self.out, self.detail = out, detail_path(out)
        self.config, self.engine_name = config, engine_name
        rows = read_detail(self.detail) if self.detail.exists() else []
        self.done = _check_resume(self.detail, rows, config)
        self._rewrite()
        self._detail_file = self.detail.open("a", encoding="utf-8", newline="")
        self._out_file = self.out.open("a", encoding="utf-8", newline="")

    def _rewrite(self) -> None:
        rows = [self.done[g] for g in sorted(self.done)]
        detail = _line(DETAIL_COLUMNS) + "".join(
            _line([r[c] for c in DETAIL_COLUMNS]) for r in rows
        )
        calibration = _line(CALIBRATION_COLUMNS) + "".join(
            _line(_calibration_row(r, self.config.time_class)) for r in rows
        )
        for path, text in ((self.detail, detail), (self.out, calibration)):
            temp = path.with_name(path.name + ".tmp")
            temp.write_text(text, encoding="utf-8")
            os.replace(temp, path)

    def add(self, record: GameRecord) -> None:
        cells = _detail_row(record, self.config, self.engine_name)
        row = dict(zip(DETAIL_COLUMNS, cells, strict=True))
        # kept first: a Ctrl-C between the writes below would otherwise lose, at the closing
        # rewrite, a game already in the file
        self.done[record.game] = row
        self._detail_file.write(_line(cells))
        self._detail_file.flush()
        self._out_file.write(_line(_calibration_row(row, self.config.time_class)))
        self._out_file.flush()

    def close(self) -> None:
        self._detail_file.close()
        self._out_file.close()
        self._rewrite()


def _open_files(out: Path, config: SelfPlayConfig, engine_name: str) -> _Files:
    try:
        return _Files(out, config, engine_name)
    except OSError as exc:
        raise KnockoutError(f"--out: cannot write {out}: {exc.strerror}") from None


@dataclass(frozen=True)
class _Claims:
    """The games still to play, claimed one at a time by the worker processes through a shared
    counter (a queue filled before the workers start could look empty to one of them while its
    feeder thread is still writing)."""

    todo: tuple[int, ...]
    next: Any  # multiprocessing.Value("q"): the index of the next game to hand out

    def claim(self) -> int | None:
        with self.next.get_lock():
            at = int(self.next.value)
            if at >= len(self.todo):
                return None
            self.next.value = at + 1
        return self.todo[at]


@dataclass(frozen=True)
class _WorkerDone:
    """A worker process's last message: its own CPU seconds (the referee's share, which the
    parent would otherwise count with the engines' once it reaps the worker)."""

    cpu_seconds: float


class _WorkerEngines:
    """A worker process's engines, all killed as soon as the run stops (``stop`` set, or the
    parent gone), by a watcher thread: a search in progress then ends at once.

    Attributes:
        done: Set when this worker is to stop (what its games check between moves).
    """

    def __init__(self, config: SelfPlayConfig, stop: Any, parent: int) -> None:
        self.config = config
        self.done = threading.Event()
        self._stop, self._parent = stop, parent
        self._engines: list[Engine] = []
        self._lock = threading.Lock()
        self._watcher = threading.Thread(target=self._watch, daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        while not self.done.is_set():
            if self._stop.wait(0.2) or os.getppid() != self._parent:
                self.done.set()
        with self._lock:
            for engine in self._engines:
                engine.kill()

    def start(self) -> Engine:
        engine = Engine(self.config.engine, self.config.options)
        with self._lock:
            self._engines.append(engine)
            if self.done.is_set():
                engine.kill()
        return engine

    def close(self) -> None:
        self.done.set()
        self._watcher.join()
        for engine in self._engines:
            engine.close()


def _play_games(
    config: SelfPlayConfig,
    openings: Sequence[tuple[str, ...]],
    claims: _Claims,
    results: Any,
    stop: Any,
    parent: int,
) -> None:
    """A worker process: a pair of engines and a referee of its own, playing claimed games
    until none is left or the run stops, each finished game sent on ``results`` (an engine's
    failure too), then its own CPU time. The referee (the rules library holds the GIL) thus runs
    on as many cores as there are workers. A Ctrl-C in the terminal reaches the whole process
    group: the worker ignores it and lets the parent stop the run."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    engines = _WorkerEngines(config, stop, parent)
    try:
        pair = (engines.start(), engines.start())
        while not engines.done.is_set():
            game = claims.claim()
            if game is None:
                break
            opening = openings[game // len(config.pairings)]
            record = play_game(pair, config, game, opening, engines.done)
            if record is not None:
                results.put(record)
    except EngineError as exc:
        if not engines.done.is_set():
            results.put(exc)
    finally:
        engines.close()
        results.put(_WorkerDone(time.process_time()))


def _start_method() -> str:
    """``fork`` where the platform has it (the openings are not sent again), else ``spawn``."""
    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


class _Pool:
    """Worker processes, each with a pair of engines and its own referee, playing the games
    still to play (``jobs`` of them at once, fewer if fewer games are left)."""

    def __init__(
        self, config: SelfPlayConfig, openings: Sequence[tuple[str, ...]], todo: Sequence[int]
    ) -> None:
        context: Any = multiprocessing.get_context(_start_method())  # (the stubs: no Process)
        self.size = min(config.jobs, len(todo))
        self.results: Any = context.Queue()
        self.stop: Any = context.Event()
        self.worker_cpu = 0.0
        claims = _Claims(tuple(todo), context.Value("q", 0))
        self.processes = [
            context.Process(
                target=_play_games,
                args=(config, openings, claims, self.results, self.stop, os.getpid()),
                daemon=True,
            )
            for _ in range(self.size)
        ]

    def start(self) -> None:
        for process in self.processes:
            process.start()

    def get(self, timeout: float) -> GameRecord | EngineError | None:
        """The next finished game, an engine's failure, or None when a worker has ended.

        Raises:
            queue.Empty: If nothing came within ``timeout`` seconds.
        """
        item = self.results.get(timeout=timeout)
        if isinstance(item, _WorkerDone):
            self.worker_cpu += item.cpu_seconds
            return None
        return item  # type: ignore[no-any-return]

    def shutdown(self) -> None:
        """Stop every worker (each kills its engines at once) and wait for them; the results
        they still send are read meanwhile, so that none blocks on a full pipe."""
        self.stop.set()
        deadline = time.monotonic() + 10
        while any(p.is_alive() for p in self.processes) and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                self.get(timeout=0.05)
        for process in self.processes:
            if process.is_alive():
                process.kill()
            process.join()
        with contextlib.suppress(queue.Empty, OSError, ValueError):
            while True:
                self.get(timeout=0.01)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _draw_openings(
    config: SelfPlayConfig, engine: Engine, progress: Callable[[Progress], None] | None
) -> list[tuple[str, ...]]:
    """Every opening of the run, drawn with ``engine``."""
    rng = np.random.default_rng(np.random.SeedSequence([config.seed, 1]))
    start = time.monotonic()
    book = OpeningBook(engine, config.openings, rng)

    def tick(done: int, total: int) -> None:
        if progress is not None:
            progress(Progress("openings", done, total, elapsed=time.monotonic() - start))

    return book.draw_many(config.openings_needed, tick)


def play(
    config: SelfPlayConfig,
    out: Path,
    progress: Callable[[Progress], None] | None = None,
    command: str = "",
) -> RunSummary:
    """Play (or finish) the run and write its files.

    A ``KeyboardInterrupt`` stops every engine, keeps the finished games (files rewritten in
    order) and is raised again; so is an :class:`EngineError`, after the same care.

    Args:
        config: The run.
        out: The calibration file (the detail and provenance files go beside it).
        progress: Called with a :class:`Progress` while openings are drawn and after each game.
        command: The command line, for the provenance.

    Raises:
        EngineError: An engine failed (the message names the game and the ply).
        InputError: ``out``'s detail file holds another run's games.
        KeyboardInterrupt: After the cleanup above.
    """
    started = datetime.now(UTC)
    wall0, cpu0, children0 = time.monotonic(), time.process_time(), _children_cpu()
    if not out.parent.is_dir():
        raise KnockoutError(f"--out: the folder {str(out.parent)!r} does not exist")
    book_engine = Engine(config.engine, config.options)
    try:
        engine_name = book_engine.name
        files = _open_files(out, config, engine_name)
        try:
            openings = _draw_openings(config, book_engine, progress)
        except BaseException:
            files.close()
            raise
    finally:
        book_engine.close()
    resumed = len(files.done)
    todo = [g for g in range(config.games) if g not in files.done]
    pool = _Pool(config, openings, todo)
    played, interrupted = 0, True
    start = time.monotonic()
    try:
        pool.start()
        finished = 0
        while finished < pool.size:
            try:
                item = pool.get(timeout=0.2)
            except queue.Empty:
                continue
            if item is None:
                finished += 1
            elif isinstance(item, EngineError):
                raise item
            else:
                files.add(item)
                played += 1
                if progress is not None:
                    elapsed = time.monotonic() - start
                    rate = played / elapsed if elapsed > 0 else None
                    left = (len(todo) - played) / rate if rate else None
                    progress(
                        Progress(
                            "games",
                            len(files.done),
                            config.games,
                            resumed,
                            elapsed,
                            None if rate is None else 60 * rate,
                            left,
                        )
                    )
        interrupted = len(files.done) < config.games
    finally:
        pool.shutdown()
        files.close()
        summary = _summary(
            config,
            files,
            out,
            resumed,
            played,
            interrupted,
            wall0,
            cpu0,
            children0,
            pool.worker_cpu,
        )
        _write_provenance(summary, config, engine_name, command, started)
    return summary


def _summary(
    config: SelfPlayConfig,
    files: _Files,
    out: Path,
    resumed: int,
    played: int,
    interrupted: bool,
    wall0: float,
    cpu0: float,
    children0: float,
    worker_cpu: float = 0.0,
) -> RunSummary:
    counts = {"red": 0, "draw": 0, "black": 0}
    reasons: dict[str, int] = {}
    for row in files.done.values():
        counts[row["result"]] = counts.get(row["result"], 0) + 1
        reasons[row["reason"]] = reasons.get(row["reason"], 0) + 1
    return RunSummary(
        out=out,
        detail=files.detail,
        provenance=provenance_path(out),
        games=len(files.done),
        played=played,
        resumed=resumed,
        wall_seconds=time.monotonic() - wall0,
        # the worker processes' own CPU (the referees) is the program's, not the engines'
        engine_cpu_seconds=_children_cpu() - children0 - worker_cpu,
        own_cpu_seconds=time.process_time() - cpu0 + worker_cpu,
        counts=counts,
        reasons=dict(sorted(reasons.items())),
        interrupted=interrupted,
    )


def _write_provenance(
    summary: RunSummary, config: SelfPlayConfig, engine_name: str, command: str, started: datetime
) -> None:
    """Add this session to ``GAMES-run.json`` (earlier sessions of a resumed run are kept)."""
    path = summary.provenance
    sessions: list[Any] = []
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        sessions = list(json.loads(path.read_text(encoding="utf-8"))["sessions"])
    sessions.append(
        {
            "command": command,
            "started": started.isoformat(timespec="seconds"),
            "finished": datetime.now(UTC).isoformat(timespec="seconds"),
            "played": summary.played,
            "interrupted": summary.interrupted,
            "wall_seconds": round(summary.wall_seconds, 1),
            "engine_cpu_seconds": round(summary.engine_cpu_seconds, 1),
            "own_cpu_seconds": round(summary.own_cpu_seconds, 1),
            "games_per_minute": None
            if summary.games_per_minute is None
            else round(summary.games_per_minute, 2),
            "jobs": config.jobs,
        }
    )
    payload = {
        "engine": engine_name,
        "engine_path": config.engine,
        "engine_options": dict(config.options),
        "pairings": [asdict(p) for p in config.pairings],
        "games": config.games,
        "seed": config.seed,
        "time_class": config.time_class,
        "openings": asdict(config.openings),
        "adjudication": asdict(config.adjudication),
        "rules_library": _pyffish_version(),
        "counts": summary.counts,
        "reasons": summary.reasons,
        "sessions": sessions,
    }
    with contextlib.suppress(OSError):
        path.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")


def _pyffish_version() -> str:
    version = load_pyffish().version()
    return "pyffish " + ".".join(str(v) for v in version)
