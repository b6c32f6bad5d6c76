"""The C library's allocator, tuned once per process for work that frees and reallocates the
same large arrays again and again (the Monte Carlo runner's blocks, the exact solver's chunks).

Below the other layers: the Monte Carlo layer (:mod:`sims.runner`) and the exact solver
(:mod:`knockout.exact.bracket`) both call :func:`keep_freed_memory`.
"""

from __future__ import annotations

import sys

__all__ = ["keep_freed_memory"]

#: glibc ``mallopt`` parameters: the size from which blocks are mapped on their own, and the free
#: memory kept at the top of the heap before it is given back to the system.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_MMAP_THRESHOLD = 32 << 20  # glibc's largest: arrays of a block (0.5-1 MB) stay on the heap
_TRIM_THRESHOLD = 1 << 30
_allocator_tuned = False


def keep_freed_memory() -> None:
    """Let glibc keep freed memory for reuse rather than give it back after every block.

    Work in blocks or chunks allocates and frees the same arrays (0.5-1 MB each) again and
    again; with glibc's default thresholds they are unmapped when freed and every page is
    faulted in anew in the next block (on a 2-vCPU VM this made the Monte Carlo's bracket blocks
    1.7x slower, and the exact odds of 4,096 players spent 2 s of system time in 360,000 page
    faults). Process-wide and once per process: the heap then stays at its peak size. Does
    nothing where the C library is not glibc.
    """
    global _allocator_tuned  # noqa: PLW0603  (once per process)
    if _allocator_tuned:
        return
    _allocator_tuned = True
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # noqa: PLC0415  (only here)

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)
    mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD)
