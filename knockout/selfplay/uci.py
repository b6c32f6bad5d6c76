"""One UCI engine process: started, spoken to with deadlines, and stopped without leaving orphans.

The engine runs in its own session (``start_new_session``), so a Ctrl-C in the terminal reaches
only this program, which then stops every engine itself (:meth:`Engine.close`); an engine whose
parent dies anyway sees its standard input close and quits (a UCI engine's loop ends there).
Every read has a deadline: an engine that does not answer in time is killed and reported in one
line (:class:`EngineError`), as is one that exits.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from knockout.errors import KnockoutError

__all__ = [
    "DEFAULT_ENGINE",
    "INSTALL_HINT",
    "Engine",
    "EngineError",
    "Search",
    "find_engine",
]

DEFAULT_ENGINE = "fairy-stockfish"
"""The engine's command name (Debian installs it as /usr/games/fairy-stockfish)."""

INSTALL_HINT = (
    "install Fairy-Stockfish (Debian/Ubuntu: apt-get install fairy-stockfish, which puts it at "
    "/usr/games/fairy-stockfish) or give its path with --engine PATH"
)
"""How to get the engine: the second half of the one line printed without it."""

MATE = 100_000
"""Centipawns a mate score stands for (less the moves to mate), far above any material score."""


class EngineError(KnockoutError):
    """The engine could not be started, did not answer in time, exited or said something that
    is not UCI."""


def find_engine(path: str | None) -> str:
    """The engine to run: ``path`` if given, else ``fairy-stockfish`` on the PATH or in
    /usr/games.

    Raises:
        EngineError: If there is no such executable file (the message says how to install it).
    """
    if path is not None:
        found = shutil.which(path) if os.sep not in path else path
        if found is None or not Path(found).is_file() or not os.access(found, os.X_OK):
            raise EngineError(f"--engine: no executable engine at {path!r}; {INSTALL_HINT}")
        return str(found)
    found = shutil.which(DEFAULT_ENGINE) or shutil.which(DEFAULT_ENGINE, path="/usr/games")
    if found is None:
        raise EngineError(f"the Xiangqi engine {DEFAULT_ENGINE} is not installed; {INSTALL_HINT}")
    return found


@dataclass(frozen=True)
class Search:
    """What one ``go`` returned.

    Attributes:
        move: The best move in UCI notation (``(none)`` if the engine saw no legal move).
        score: The last score of the principal line, in centipawns from the mover's point of
            view (a mate in ``n`` is ``MATE - n``, being mated ``-(MATE - n)``); ``None`` if the
            engine printed none.
        lines: For MultiPV searches: ``(move, score)`` of each line's last report, best first.
        seconds: Wall time from sending ``go`` to reading ``bestmove``.
    """

    move: str
    score: int | None
    lines: tuple[tuple[str, int], ...]
    seconds: float


def _score(tokens: Sequence[str]) -> int | None:
    """The centipawn score in an ``info`` line's tokens (mates mapped as in :class:`Search`)."""
    try:
        at = tokens.index("score")
        kind, value = tokens[at + 1], int(tokens[at + 2])
    except (ValueError, IndexError):
        return None
    if kind == "cp":
        return value
    if kind == "mate":
        return MATE - value if value > 0 else -(MATE + value)
    return None


def _field(tokens: Sequence[str], name: str) -> str | None:
    try:
        return tokens[tokens.index(name) + 1]
    except (ValueError, IndexError):
        return None


class Engine:
    """A running UCI engine.

    Args:
        path: The executable.
        options: ``setoption`` values sent after ``uci`` (name to value).
        timeout: Seconds to wait for ``uciok``/``readyok``.
    """

    def __init__(self, path: str, options: Mapping[str, str], timeout: float = 30.0) -> None:
        self.path = path
        self._lines: queue.Queue[str | None] = queue.Queue()
        try:
            self._proc = subprocess.Popen(
                [path],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
                start_new_session=True,
            )
        except OSError as exc:
            raise EngineError(f"cannot start the engine {path}: {exc.strerror}") from None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.name = ""
        self.send("uci")
        for line in self._until("uciok", timeout, "uci"):
            if line.startswith("id name "):
                self.name = line[len("id name ") :].strip()
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.ready(timeout)

    def _read(self) -> None:
        stdout = self._proc.stdout
        assert stdout is not None
        with contextlib.suppress(OSError, ValueError):  # closed by close() while reading
            for line in stdout:
                self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)  # end of output: the engine exited

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return self._proc.pid

    def _died(self, doing: str) -> EngineError:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=2)
        code = self._proc.returncode
        how = f"exited with code {code}" if code is not None else "closed its output"
        return EngineError(f"the engine {self.path} {how} during '{doing}'")

    def send(self, command: str) -> None:
        """Write one command line.

        Raises:
            EngineError: If the engine has exited.
        """
        stdin = self._proc.stdin
        assert stdin is not None
        try:
            stdin.write(command + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died(command) from None

    def _until(self, token: str, timeout: float, doing: str) -> list[str]:
        """Lines up to and including the first that starts with ``token``.

        Raises:
            EngineError: If the engine exits or ``timeout`` seconds pass first (it is killed).
        """
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(left, 0.0))
            except queue.Empty:
                self.kill()
                raise EngineError(
                    f"the engine {self.path} did not answer '{doing}' within {timeout:g} s "
                    "(stopped)"
                ) from None
            if line is None:
                raise self._died(doing)
            lines.append(line)
            if line.startswith(token):
                return lines

    def ready(self, timeout: float = 30.0) -> None:
        """``isready`` and wait for ``readyok``."""
        self.send("isready")
        self._until("readyok", timeout, "isready")

    def new_game(self) -> None:
        """``ucinewgame`` (clears the hash, so a node-limited game is a function of its moves)."""
        self.send("ucinewgame")
        self.ready()

    def search(self, moves: Sequence[str], go: str, timeout: float) -> Search:
        """Search the position after ``moves`` from the start with ``go ARGS``.

        Raises:
            EngineError: On a timeout, an exit, or a ``bestmove`` line without a move.
        """
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        start = time.monotonic()
        self.send(f"go {go}")
        lines = self._until("bestmove", timeout, f"go {go}")
        seconds = time.monotonic() - start
        parts = lines[-1].split()
        if len(parts) < 2:
            raise EngineError(f"the engine {self.path} answered {lines[-1]!r} to 'go {go}'")
        score: int | None = None
        multipv: dict[int, tuple[str, int]] = {}
        for line in lines[:-1]:
            tokens = line.split()
            if not tokens or tokens[0] != "info" or "score" not in tokens:
                continue
            if "lowerbound" in tokens or "upperbound" in tokens:
                continue
            value = _score(tokens)
            index = int(_field(tokens, "multipv") or 1)
            first = _field(tokens, "pv")
            if value is None:
                continue
            if index == 1:
                score = value
            if first is not None:
                multipv[index] = (first, value)
        ordered = tuple(multipv[k] for k in sorted(multipv))
        return Search(parts[1], score, ordered, seconds)

    def kill(self) -> None:
        """Stop the process at once (no questions asked) and reap it."""
        if self._proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self._proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)

    def close(self) -> None:
        """``quit``, then kill the process if it has not exited within a second."""
        if self._proc.poll() is None:
            with contextlib.suppress(EngineError):
                self.send("quit")
            try:
                self._proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                self.kill()
        for stream in (self._proc.stdin, self._proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
