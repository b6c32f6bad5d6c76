"""Running simulation work in fixed-size, independently seeded blocks, on any executor.

Work of ``runs`` simulations is cut into blocks of ``block_size``; block ``i`` draws from
``np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i,)))``. A block returns integer
counts, and counts add up exactly, so the result is bit-identical whatever the number of workers,
the executor, or the order in which blocks finish.

Executors: ``local`` (in this process with ``workers = 1``, else a pool of ``workers`` processes)
and ``dask`` (a local ``distributed`` cluster of ``workers`` processes, or an existing scheduler
given by its address; needs the ``[distributed]`` extra).

A ``KeyboardInterrupt`` (Ctrl-C) while waiting stops the run cleanly: pending blocks are cancelled
and the result holds the blocks that completed, with ``interrupted = True``.
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, Self, TypeVar

import numpy as np

from knockout.errors import KnockoutError

__all__ = [
    "BLOCK_SIZE",
    "Executor",
    "Progress",
    "RunResult",
    "block_rng",
    "run_blocks",
]

#: Simulations per block: big enough to amortise numpy's per-call cost, small enough for cache.
BLOCK_SIZE = 2**16

Executor = Literal["local", "dask"]
Progress = Callable[[int, int], None]


class Addable(Protocol):
    """Block results: integer counts that add up exactly."""

    def __add__(self, other: Self, /) -> Self: ...


C = TypeVar("C", bound=Addable)


def block_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of block ``index`` of a run seeded with ``seed``."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


@dataclass(frozen=True)
class RunResult(Generic[C]):
    """What a run produced.

    Attributes:
        counts: The blocks' counts added up (None if no block completed).
        runs: Simulations in the completed blocks.
        requested: Simulations asked for.
        blocks: Indices of the completed blocks, sorted.
        interrupted: True if the run was stopped early (Ctrl-C).
    """

    counts: C | None
    runs: int
    requested: int
    blocks: tuple[int, ...]
    interrupted: bool


def _sizes(runs: int, block_size: int) -> list[int]:
    n_blocks = math.ceil(runs / block_size)
    return [min(block_size, runs - i * block_size) for i in range(n_blocks)]


def run_blocks(
    block: Callable[[int, int, int], C],
    runs: int,
    seed: int,
    *,
    executor: Executor = "local",
    workers: int = 1,
    scheduler: str | None = None,
    block_size: int = BLOCK_SIZE,
    progress: Progress | None = None,
) -> RunResult[C]:
    """Run ``block(index, size, seed)`` over all blocks and add up the counts.

    Args:
        block: A picklable function (e.g. ``functools.partial`` of a module-level function).
        runs: Total simulations (>= 1).
        seed: The run's seed.
        executor: ``local`` or ``dask``.
        workers: Processes to use (``local`` with 1: this process).
        scheduler: Address of an existing Dask scheduler (``tcp://host:port``).
        block_size: Simulations per block.
        progress: Called with ``(runs done, runs requested)`` after each block.

    Raises:
        KnockoutError: Bad arguments, or the dask executor without its extra installed.
    """
    if runs < 1:
        raise KnockoutError(f"runs must be at least 1, got {runs}")
    if workers < 1:
        raise KnockoutError(f"workers must be at least 1, got {workers}")
    if scheduler is not None and executor != "dask":
        raise KnockoutError("--scheduler needs --executor dask")
    sizes = _sizes(runs, block_size)
    finished: list[tuple[tuple[int, ...], C]] = []
    completed_runs = 0
    interrupted = False
    try:
        for indices, counts in _execute(block, sizes, seed, executor, workers, scheduler):
            finished.append((indices, counts))
            completed_runs += sum(sizes[i] for i in indices)
            if progress is not None:
                progress(completed_runs, runs)
    except KeyboardInterrupt:
        interrupted = True
    finished.sort(key=lambda item: item[0])  # a fixed order, though integer sums ignore it
    total: C | None = None
    for _, counts in finished:
        total = counts if total is None else total + counts
    blocks = tuple(sorted(i for indices, _ in finished for i in indices))
    return RunResult(total, completed_runs, runs, blocks, interrupted)


Chunk = tuple[tuple[int, ...], tuple[int, ...]]


def _chunks(sizes: list[int], workers: int) -> list[Chunk]:
    """Consecutive blocks grouped so each task is worth shipping (about 8 tasks per worker)."""
    per_task = max(1, min(64, len(sizes) // (8 * workers)))
    out: list[Chunk] = []
    for start in range(0, len(sizes), per_task):
        idx = tuple(range(start, min(start + per_task, len(sizes))))
        out.append((idx, tuple(sizes[i] for i in idx)))
    return out


def _run_chunk(
    block: Callable[[int, int, int], C], chunk: Chunk, seed: int
) -> tuple[tuple[int, ...], C]:
    """Run a chunk's blocks one by one (each with its own seed) and add their counts."""
    indices, sizes = chunk
    total: C | None = None
    for i, size in zip(indices, sizes, strict=True):
        counts = block(i, size, seed)
        total = counts if total is None else total + counts
    assert total is not None
    return indices, total


def _execute(
    block: Callable[[int, int, int], C],
    sizes: list[int],
    seed: int,
    executor: Executor,
    workers: int,
    scheduler: str | None,
) -> Iterator[tuple[tuple[int, ...], C]]:
    if executor == "dask":
        yield from _dask(block, _chunks(sizes, workers), seed, workers, scheduler)
    elif workers == 1:
        for i, size in enumerate(sizes):
            yield (i,), block(i, size, seed)
    else:
        yield from _processes(block, _chunks(sizes, workers), seed, workers)


_INSTALLED: Callable[[int, int, int], Any] | None = None


def _install(block: Callable[[int, int, int], Any]) -> None:
    """Worker initializer: keep the block function, so tasks carry only a few integers."""
    global _INSTALLED  # noqa: PLW0603  (one per worker process, set once)
    _INSTALLED = block


def _run_installed(chunk: Chunk, seed: int) -> tuple[tuple[int, ...], Any]:
    assert _INSTALLED is not None
    return _run_chunk(_INSTALLED, chunk, seed)


def _processes(
    block: Callable[[int, int, int], C], chunks: list[Chunk], seed: int, workers: int
) -> Iterator[tuple[tuple[int, ...], C]]:
    # spawn: workers start clean (no inherited threads or locks from the parent).
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_install, initargs=(block,)
    )
    try:
        futures = [pool.submit(_run_installed, chunk, seed) for chunk in chunks]
        for future in as_completed(futures):
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def _dask_client(workers: int, scheduler: str | None) -> Iterator[Any]:
    try:
        from distributed import Client, LocalCluster  # noqa: PLC0415  (optional extra)
    except ImportError:
        raise KnockoutError(
            "the dask executor needs the [distributed] extra: pip install 'knockout[distributed]'"
        ) from None
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="10s")
        except OSError as exc:
            raise KnockoutError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        try:
            yield client
        finally:
            client.close()
        return
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=50,
    )
    client = Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def _dask(
    block: Callable[[int, int, int], C],
    chunks: list[Chunk],
    seed: int,
    workers: int,
    scheduler: str | None,
) -> Iterator[tuple[tuple[int, ...], C]]:
    from distributed import as_completed as dask_completed  # noqa: PLC0415

    with _dask_client(workers, scheduler) as client:
        shipped = client.scatter(block, broadcast=True)
        futures = [client.submit(_run_chunk, shipped, chunk, seed, pure=False) for chunk in chunks]
        try:
            for future in dask_completed(futures):
                yield future.result()
        finally:
            client.cancel(futures)
