"""Running simulation work in fixed-size, independently seeded blocks, on any executor.

Work of ``runs`` simulations is cut into blocks of ``block_size``; block ``i`` draws from
``np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i,)))``. A block returns integer
counts, and counts add up exactly, so the result is bit-identical whatever the number of
processes, the executor, the order in which blocks finish or which process computed them.

Executors:

* ``local``: this process computes blocks itself from the first one on. ``workers`` is a
  maximum: once a few blocks are timed, helper processes are started only if the work left is
  worth their start-up (:data:`STARTUP_SECONDS`), and never more than the CPUs available (asking
  for more is capped, with a warning through ``warn``); a short run uses only CPUs that look
  idle, and helpers are stopped if this process and they together get less than :data:`PAYOFF`
  CPUs (they only share a CPU that other work leaves free). Helpers
  are forked where the platform allows it (no re-imports, the block's tables are already in
  memory; spawned elsewhere) and claim consecutive blocks from a shared counter, a chunk at a
  time (at most :data:`CLAIM_SECONDS` of work, smaller near the end); each chunk sends back one
  small count object. When nothing is left to claim, this process also computes the blocks still
  out with helpers (last first) and keeps whichever copy arrives first, so a slow or busy helper
  never holds the run up: a run is never much slower than this process alone.
* ``dask``: a local ``distributed`` cluster of ``workers`` processes, or an existing scheduler
  given by its address (needs the ``[distributed]`` extra); tasks are chunks of consecutive
  blocks worth about :data:`TASK_SECONDS` each, so scheduler overhead stays a small share.

A ``KeyboardInterrupt`` (Ctrl-C) while waiting stops the run cleanly: pending blocks are cancelled
and the result holds the blocks that completed, with ``interrupted = True``.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import pickle
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Generic, Literal, Protocol, Self, TypeVar

import numpy as np
import numpy.typing as npt

from knockout.allocator import keep_freed_memory
from knockout.errors import KnockoutError
from sims.seeding import block_generator

__all__ = [
    "BLOCK_SIZE",
    "CLAIM_SECONDS",
    "LONG_WORK_SECONDS",
    "PAYOFF",
    "REVIEW_SECONDS",
    "STARTUP_SECONDS",
    "TASK_SECONDS",
    "TIMED_BLOCKS",
    "Executor",
    "Progress",
    "RunResult",
    "Warn",
    "Workers",
    "available_cpus",
    "block_rng",
    "dask_workers",
    "default_start_method",
    "keep_freed_memory",
    "local_dask_cluster",
    "parse_workers",
    "pilot_seconds",
    "resolve_workers",
    "run_blocks",
]

#: Simulations per block: big enough to amortise numpy's per-call cost, small enough for cache.
BLOCK_SIZE = 2**16

#: Seconds before a helper process computes its first block, by start method: a fork copies this
#: process (a few milliseconds, measured); a spawn starts an interpreter that imports numpy and
#: the block's modules (about a second on a 2-vCPU machine).
STARTUP_SECONDS = {"fork": 0.05, "spawn": 1.5}
#: Most work (in seconds of one process) a helper claims at once.
CLAIM_SECONDS = 0.1
#: Blocks this process times before deciding on helpers (the first may pay one-off costs; the
#: median of the others is the yardstick).
TIMED_BLOCKS = 4
#: Helpers are reviewed this often: this process and its helpers together must have had at
#: least PAYOFF CPUs of time over the last review's wall time, or the helpers stop.
REVIEW_SECONDS = 0.2
PAYOFF = 1.1
#: Work (seconds of one process) below which helpers start only on CPUs that look idle (other
#: tasks running, from ``/proc/loadavg``); longer runs start them and let the review decide.
LONG_WORK_SECONDS = 1.0
#: Work (in seconds of one process) per Dask task: scheduler overhead (milliseconds per task)
#: stays around 1 %.
TASK_SECONDS = 0.5

Executor = Literal["local", "dask"]
Workers = int | Literal["auto"]
Progress = Callable[[int, int], None]
Warn = Callable[[str], None]


class Addable(Protocol):
    """Block results: integer counts that add up exactly."""

    def __add__(self, other: Self, /) -> Self: ...


C = TypeVar("C", bound=Addable)
Block = Callable[[int, int, int], C]


def pilot_seconds(
    work: Callable[[int], object],
    units: int,
    *,
    first: int = 1,
    enough: float = 0.25,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, int]:
    """About how many seconds ``work(units)`` takes, from pilots of the same work timed after
    its one-off set-up: ``work(first)`` once untimed (imports, caches), then ``work(k)`` for
    ``k = first, 2 first, 4 first, ...`` until one takes ``enough`` seconds or reaches
    ``units``; the cost is taken as linear in the units, a fixed part (the pilot of ``first``)
    plus a part a unit. Returns the estimate and the largest pilot. Any long computation can
    say how long it will take with it (``knockout simulate``, the scoring study, a design run).
    """
    first = max(1, min(first, units))

    def timed(k: int) -> float:
        start = clock()
        work(k)
        return clock() - start

    timed(first)  # warm-up
    fixed = seconds = timed(first)
    k = first
    while seconds < enough and k < units:
        k = min(units, 2 * k)
        seconds = timed(k)
    if k >= units:
        return seconds, k
    per_unit = max(0.0, seconds - fixed) / (k - first) if k > first else seconds / k
    return fixed + per_unit * (units - first), k


def block_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of block ``index`` of a run seeded with ``seed``:
    ``np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))``, in the same
    state, seeded in a fraction of the time (:func:`sims.seeding.block_generator`)."""
    return block_generator(seed, index)


def available_cpus() -> int:
    """CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def default_start_method() -> str:
    """``fork`` on Linux (cheap and safe for helpers that only compute and send counts), else
    ``spawn`` (macOS and Windows)."""
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    return "spawn"


def parse_workers(text: str) -> Workers:
    """``auto`` or a positive number, as given to ``--workers``.

    Raises:
        KnockoutError: For anything else.
    """
    if text.strip().lower() == "auto":
        return "auto"
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise KnockoutError(f"--workers: expected a number >= 1 or 'auto', got {text!r}")
    return value


def resolve_workers(workers: Workers, warn: Warn | None = None, *, cpus: int | None = None) -> int:
    """The most processes to use: ``auto`` means every CPU; more than the CPUs is capped.

    Raises:
        KnockoutError: For a count below 1.
    """
    cpus = available_cpus() if cpus is None else cpus
    if workers == "auto":
        return cpus
    if workers < 1:
        raise KnockoutError(f"workers must be at least 1, got {workers}")
    if workers > cpus:
        if warn is not None:
            warn(f"--workers {workers} is more than the {cpus} CPUs available; using {cpus}")
        return cpus
    return workers


@dataclass(frozen=True)
class RunResult(Generic[C]):
    """What a run produced.

    Attributes:
        counts: The blocks' counts added up (None if no block completed).
        runs: Simulations in the completed blocks.
        requested: Simulations asked for.
        blocks: Indices of the completed blocks, sorted.
        interrupted: True if the run was stopped early (Ctrl-C).
        processes: Processes that computed blocks (1: this process alone).
    """

    counts: C | None
    runs: int
    requested: int
    blocks: tuple[int, ...]
    interrupted: bool
    processes: int = 1


def _size(index: int, runs: int, block_size: int) -> int:
    return min(block_size, runs - index * block_size)


def _run_range(block: Block[C], start: int, stop: int, seed: int, runs: int, size: int) -> C:
    """Blocks ``start .. stop - 1`` one by one (each with its own seed), counts added."""
    total = block(start, _size(start, runs, size), seed)
    for i in range(start + 1, stop):
        total = total + block(i, _size(i, runs, size), seed)
    return total


class _Tally(Generic[C]):
    """Counts of the blocks completed so far, by ranges of consecutive blocks.

    At the end of a run this process may compute, as a spare, a block a helper is still working
    on: the spare is dropped if the helper's range arrives after all. A block's counts depend only
    on its seed, so either copy gives the same result.
    """

    def __init__(self, runs: int, block_size: int, progress: Progress | None) -> None:
        self.runs, self.block_size, self.progress = runs, block_size, progress
        self.n_blocks = math.ceil(runs / block_size)
        self.owner = np.full(self.n_blocks, -1, dtype=np.int64)  # first block of its range
        self.parts: dict[int, tuple[int, C, bool]] = {}  # first block: (stop, counts, spare)
        self.completed_runs = 0

    def _runs(self, start: int, stop: int) -> int:
        return sum(_size(i, self.runs, self.block_size) for i in range(start, stop))

    def add(self, start: int, stop: int, counts: C, *, spare: bool = False) -> bool:
        """Record blocks ``start .. stop - 1``; False (and ignored) if one is already in, unless
        only spares are in the way (they make room)."""
        taken = {int(o) for o in self.owner[start:stop] if o >= 0}
        if taken and (spare or not all(self.parts[o][2] for o in taken)):
            return False
        for o in taken:
            o_stop, _, _ = self.parts.pop(o)
            self.owner[o:o_stop] = -1
            self.completed_runs -= self._runs(o, o_stop)
        self.owner[start:stop] = start
        self.parts[start] = (stop, counts, spare)
        self.completed_runs += self._runs(start, stop)
        if self.progress is not None:
            self.progress(self.completed_runs, self.runs)
        return True

    @property
    def pending(self) -> npt.NDArray[np.intp]:
        """Blocks not yet in, ascending."""
        return np.flatnonzero(self.owner < 0)

    @property
    def complete(self) -> bool:
        return bool((self.owner >= 0).all())

    def result(self, interrupted: bool, processes: int) -> RunResult[C]:
        total: C | None = None
        for start in sorted(self.parts):  # a fixed order, though integer sums ignore it
            counts = self.parts[start][1]
            total = counts if total is None else total + counts
        blocks = tuple(int(i) for i in np.flatnonzero(self.owner >= 0))
        return RunResult(total, self.completed_runs, self.runs, blocks, interrupted, processes)


def run_blocks(
    block: Block[C],
    runs: int,
    seed: int,
    *,
    executor: Executor = "local",
    workers: Workers = 1,
    scheduler: str | None = None,
    block_size: int = BLOCK_SIZE,
    progress: Progress | None = None,
    warn: Warn | None = None,
    adaptive: bool = True,
    start_method: str | None = None,
) -> RunResult[C]:
    """Run ``block(index, size, seed)`` over all blocks and add up the counts.

    Args:
        block: A picklable function (e.g. ``functools.partial`` of a module-level function).
        runs: Total simulations (>= 1).
        seed: The run's seed.
        executor: ``local`` or ``dask``.
        workers: The most processes to use, or ``auto`` (every CPU); above the CPU count it is
            capped (``local`` and a local Dask cluster) with a warning.
        scheduler: Address of an existing Dask scheduler (``tcp://host:port``).
        block_size: Simulations per block.
        progress: Called with ``(runs done, runs requested)`` as blocks complete.
        warn: Called with a one-line message when ``workers`` is capped.
        adaptive: ``local``: start helpers only when the work left is worth it (else every
            allowed helper at once, e.g. to test them).
        start_method: ``fork`` or ``spawn`` for helpers (default: :func:`default_start_method`).

    Raises:
        KnockoutError: Bad arguments, or the dask executor without its extra installed.
    """
    if runs < 1:
        raise KnockoutError(f"runs must be at least 1, got {runs}")
    if scheduler is not None and executor != "dask":
        raise KnockoutError("--scheduler needs --executor dask")
    keep_freed_memory()
    remote = executor == "dask" and scheduler is not None
    limit = 1 if remote else resolve_workers(workers, warn)  # a remote cluster has its own size
    tally: _Tally[C] = _Tally(runs, block_size, progress)
    processes = 1
    interrupted = False
    try:
        if executor == "dask":
            processes = _dask(block, tally, seed, limit, scheduler)
        else:
            processes = _local(block, tally, seed, limit, adaptive, start_method)
    except KeyboardInterrupt:
        interrupted = True
    return tally.result(interrupted, processes)


def _timed(
    block: Block[C], tally: _Tally[C], index: int, seed: int, *, spare: bool = False
) -> float:
    """Compute block ``index`` here and record it; returns the seconds it took."""
    start = time.perf_counter()
    counts = _run_range(block, index, index + 1, seed, tally.runs, tally.block_size)
    tally.add(index, index + 1, counts, spare=spare)
    return time.perf_counter() - start


def _local(
    block: Block[C],
    tally: _Tally[C],
    seed: int,
    limit: int,
    adaptive: bool,
    start_method: str | None,
) -> int:
    """This process computes blocks; helpers join when worth it. Returns the processes used."""
    n = tally.n_blocks
    if limit == 1:  # no helper can be started: nothing to time or decide (a study's points)
        for i in range(n):
            _timed(block, tally, i, seed)
        return 1
    method = start_method or default_start_method()
    times: list[float] = []
    if adaptive:
        # Time a few blocks (the first may pay one-off costs) before deciding on helpers.
        while len(times) < min(n, TIMED_BLOCKS):
            times.append(_timed(block, tally, len(times), seed))
    first = len(times)
    # the stdlib's median: numpy's imports numpy.ma (about 0.1 s of a short command's CPU)
    per_block = statistics.median(times[1:]) if len(times) > 1 else 0.0
    work_left = (n - first) * per_block
    helpers = _helpers_wanted(limit, work_left, STARTUP_SECONDS.get(method, 1.5), adaptive)
    if adaptive and helpers and work_left < LONG_WORK_SECONDS:
        # A short run has no time to find out that helpers do not pay: only use idle CPUs
        # (how many other tasks want one, looked at only when helpers are in question).
        others = _others_running()
        if others is not None:
            helpers = min(helpers, max(0, available_cpus() - 1 - others))
    if helpers == 0:
        for i in range(first, n):
            _timed(block, tally, i, seed)
        return 1
    claim = max(1, int(CLAIM_SECONDS / per_block)) if per_block > 0 else 8
    with _Helpers(block, tally, seed, first, helpers, claim, method, per_block) as team:
        team.run()
    return helpers + 1


def _others_running() -> int | None:
    """Tasks other than this one that are running or ready to run, now (``/proc/loadavg``;
    None where it cannot be read)."""
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            running = int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return None
    return max(0, running - 1)


def _helpers_wanted(limit: int, work_left: float, startup: float, adaptive: bool) -> int:
    """Helper processes worth starting for ``work_left`` seconds of one process's work."""
    if not adaptive:
        return limit - 1
    # A helper that starts after ``startup`` seconds saves about (work_left - startup) / 2:
    # start one per two start-ups of work left, up to the limit.
    return max(0, min(limit - 1, int(work_left / (2 * startup))))


#: Seconds to wait for the claim lock before assuming a helper died holding it.
_LOCK_TIMEOUT = 2.0


@dataclass(frozen=True)
class _Shared:
    """What this process and its helpers share: the claim counter and its lock, a stop flag,
    each helper's CPU seconds so far, and the pipe (with its lock) that carries the counts."""

    counter: Any
    lock: Any
    stop: Any
    cpu: Any
    writer: Connection
    write_lock: Any


class _Helpers(Generic[C]):
    """Helper processes claiming chunks from a shared counter while this process computes too.

    Helpers have to pay: every :data:`REVIEW_SECONDS` (or a few blocks, if longer) this process
    adds up the CPU time it and its helpers had since the last review; if that is less than
    :data:`PAYOFF` CPUs of the wall time, the helpers only share a CPU with this process (other
    work holds the others) and are told to stop after their current chunk. CPU time, not blocks
    done, is the measure: it needs no yardstick taken at another moment of a changing load.
    """

    def __init__(
        self,
        block: Block[C],
        tally: _Tally[C],
        seed: int,
        first: int,
        helpers: int,
        claim: int,
        method: str,
        per_block: float,
    ) -> None:
        self.block, self.tally, self.seed = block, tally, seed
        context = multiprocessing.get_context(method)
        self.reader, writer = context.Pipe(duplex=False)
        self.shared = _Shared(
            counter=context.RawValue("q", first),  # the next block to claim
            lock=context.Lock(),
            stop=context.RawValue("b", 0),
            cpu=context.RawArray("d", helpers),
            writer=writer,
            write_lock=context.Lock(),
        )
        job = _Job(block, seed, tally.runs, tally.block_size, helpers + 1, claim)
        self.job = job
        self.procs = [
            context.Process(  # type: ignore[attr-defined]
                target=_helper, args=(job, self.shared, index), daemon=True
            )
            for index in range(helpers)
        ]
        for proc in self.procs:
            proc.start()
        writer.close()  # only helpers write
        self.window = max(REVIEW_SECONDS, 4 * per_block)
        # (wall time, CPU seconds of all) at the last review
        self.review_at = (time.perf_counter(), time.process_time())

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shared.stop.value = 1
        if self.shared.lock.acquire(timeout=_LOCK_TIMEOUT):
            self.shared.counter.value = self.tally.n_blocks  # nothing more to claim
            self.shared.lock.release()
        with suppress(Exception):
            self._receive()  # chunks already sent (an interrupted run keeps them)
        for proc in self.procs:
            if proc.is_alive():
                proc.terminate()  # only helpers still on blocks that are already in
        for proc in self.procs:
            proc.join()
        self.reader.close()

    def _claim_chunk(self) -> range | None:
        """The next chunk for this process, as the helpers claim theirs (guided, at most
        ``claim`` blocks): a block of a fast kernel takes a fraction of a millisecond, and
        claiming, receiving and reviewing after each one cost this process a tenth of its time."""
        if not self.shared.lock.acquire(timeout=_LOCK_TIMEOUT):
            return None  # a helper died holding the lock: finish here
        try:
            n = self.tally.n_blocks
            start = int(self.shared.counter.value)
            if start >= n:
                return None
            take = max(1, min(self.job.claim, (n - start) // (4 * self.job.processes)))
            stop = min(n, start + take)
            self.shared.counter.value = stop
            return range(start, stop)
        finally:
            self.shared.lock.release()

    def _review(self) -> None:
        """Stop the helpers if, since the last review, this process and they together had less
        than :data:`PAYOFF` CPUs of time."""
        if self.shared.stop.value:
            return
        now = time.perf_counter()
        since, before = self.review_at
        if now - since < self.window:
            return
        cpu = time.process_time() + sum(self.shared.cpu)
        if (cpu - before) / (now - since) < PAYOFF:
            self.shared.stop.value = 1
        self.review_at = (now, cpu)

    def run(self) -> None:
        """Compute blocks here, taking in helpers' chunks between blocks, until all are in."""
        while (chunk := self._claim_chunk()) is not None:
            for i in chunk:
                _timed(self.block, self.tally, i, self.seed)
            self._receive()
            self._review()
        # Nothing left to claim: compute what helpers still hold, last blocks first (helpers go
        # first to last), as spares; a helper's range arriving first replaces them.
        while not self.tally.complete:
            self._receive()
            pending = self.tally.pending
            if pending.size:
                _timed(self.block, self.tally, int(pending[-1]), self.seed, spare=True)

    def _receive(self) -> None:
        """Take in every message waiting; raise a helper's error."""
        while self.reader.poll():
            try:
                kind, payload = self.reader.recv()
            except (EOFError, OSError):
                return
            if kind == "error":
                raise payload
            start, stop, counts = payload
            self.tally.add(start, stop, counts)


@dataclass(frozen=True)
class _Job(Generic[C]):
    """What a helper needs: the block function and how to cut and claim the run."""

    block: Block[C]
    seed: int
    runs: int
    block_size: int
    processes: int
    claim: int

    @property
    def n_blocks(self) -> int:
        return math.ceil(self.runs / self.block_size)


def _claim(job: _Job[Any], shared: _Shared) -> tuple[int, int]:
    """Claim the next chunk: a share of what is left (guided), at most ``job.claim`` blocks."""
    n = job.n_blocks
    with shared.lock:
        start = int(shared.counter.value)
        take = max(1, min(job.claim, (n - start) // (4 * job.processes)))
        stop = min(n, start + take)
        shared.counter.value = max(start, stop)
    return start, stop


def _helper(job: _Job[Any], shared: _Shared, index: int) -> None:
    """A helper process: claim chunks of blocks, send each chunk's counts, exit when none is
    left or when told to stop.

    Ctrl-C is left to the parent (which stops the run); any error is sent to the parent.
    The process ends with ``os._exit``: nothing inherited from the parent (threads, buffered
    streams) is touched.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    keep_freed_memory()  # a spawned helper starts with the defaults
    code = 0
    try:
        while not shared.stop.value:
            start, stop = _claim(job, shared)
            if start >= stop:
                break
            counts = job.block(start, _size(start, job.runs, job.block_size), job.seed)
            shared.cpu[index] = time.process_time()
            for i in range(start + 1, stop):
                counts = counts + job.block(i, _size(i, job.runs, job.block_size), job.seed)
                shared.cpu[index] = time.process_time()
            with shared.write_lock:
                shared.writer.send(("done", (start, stop, counts)))
    except BaseException as exc:  # reported to the parent, which raises it
        code = 1
        try:
            pickle.dumps(exc)
        except Exception:  # not picklable: send its text
            exc = RuntimeError(f"{type(exc).__name__}: {exc}")
        with suppress(Exception), shared.write_lock:
            shared.writer.send(("error", exc))
    finally:
        with suppress(Exception):
            shared.writer.close()
        os._exit(code)


# ---------------------------------------------------------------------------------------------
# Dask


def _chunks(first: int, n_blocks: int, workers: int, per_task: int) -> list[tuple[int, int]]:
    """Consecutive blocks from ``first`` grouped into tasks: at least 4 per worker, at most
    ``per_task`` blocks each."""
    left = n_blocks - first
    size = max(1, min(per_task, left // (4 * workers)))
    return [(s, min(s + size, n_blocks)) for s in range(first, n_blocks, size)]


def _run_chunk(
    block: Block[C], chunk: tuple[int, int], seed: int, runs: int, block_size: int
) -> tuple[int, int, C]:
    keep_freed_memory()  # in a Dask worker process (once per process)
    start, stop = chunk
    return start, stop, _run_range(block, start, stop, seed, runs, block_size)


def _distributed() -> Any:
    """The ``distributed`` package (the ``[distributed]`` extra)."""
    try:
        import distributed  # noqa: PLC0415  (optional extra)
    except ImportError:
        raise KnockoutError(
            "the dask executor needs the [distributed] extra: pip install 'knockout[distributed]'"
        ) from None
    return distributed


@contextmanager
def local_dask_cluster(workers: int) -> Iterator[Any]:
    """A local Dask cluster of ``workers`` single-threaded processes (its ``scheduler_address``
    can be given to :func:`run_blocks` as ``scheduler``).

    Raises:
        KnockoutError: Without the ``[distributed]`` extra.
    """
    cluster = _distributed().LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=50,
    )
    try:
        yield cluster
    finally:
        cluster.close()


def dask_workers(address: str) -> int:
    """Workers connected to the Dask scheduler at ``address``.

    Raises:
        KnockoutError: Without the ``[distributed]`` extra, or when the scheduler cannot be
            reached.
    """
    with _dask_client(1, address) as client:
        return len(client.nthreads())


@contextmanager
def _dask_client(workers: int, scheduler: str | None) -> Iterator[Any]:
    client_class = _distributed().Client
    if scheduler is not None:
        try:
            client = client_class(scheduler, timeout="10s")
        except OSError as exc:
            raise KnockoutError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        try:
            yield client
        finally:
            client.close()
        return
    with local_dask_cluster(workers) as cluster:
        client = client_class(cluster)
        try:
            yield client
        finally:
            client.close()


def _dask(block: Block[C], tally: _Tally[C], seed: int, workers: int, scheduler: str | None) -> int:
    """Chunks of blocks as Dask tasks; blocks 0 and 1 are computed here to size the chunks (the
    first may pay one-off costs)."""
    dask_completed = _distributed().as_completed
    first = min(tally.n_blocks, 2)
    per_block = min(_timed(block, tally, i, seed) for i in range(first))
    if tally.complete:
        return 1
    with _dask_client(workers, scheduler) as client:
        size = max(1, len(client.nthreads())) if scheduler is not None else workers
        per_task = max(1, int(TASK_SECONDS / max(per_block, 1e-6)))
        chunks = _chunks(first, tally.n_blocks, size, per_task)
        shipped = client.scatter(block, broadcast=True)
        futures = [
            client.submit(
                _run_chunk, shipped, chunk, seed, tally.runs, tally.block_size, pure=False
            )
            for chunk in chunks
        ]
        try:
            for future in dask_completed(futures):
                start, stop, counts = future.result()
                tally.add(start, stop, counts)
        finally:
            client.cancel(futures)
    return size
