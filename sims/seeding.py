"""A block's generator, ``default_rng(SeedSequence(seed, spawn_key=(index,)))``, made faster.

numpy's :class:`~numpy.random.SeedSequence` takes 16-30 µs to make a block's PCG64 state (a
hash of a few 32-bit words, in small-array code), about a tenth of the time the per-match kernel
needs for a whole block of 65,536 matches. :func:`block_generator` computes the same four state
words itself, the seed's part once per seed (the pool after the seed's words, Python integers),
the index's word and the output hash for :data:`BATCH` consecutive blocks at once (numpy arrays,
about 0.7 µs a block), and hands them to
:class:`~numpy.random.PCG64` as its seed sequence: the generator is numpy's, in the state
numpy's own seeding gives (tested against numpy for many seeds and indices). Anything it asks
of its seed sequence beyond those words (``spawn``, other state sizes) goes to a real
:class:`~numpy.random.SeedSequence` of the same seed and key, made on first use.

The algorithm is numpy's (``numpy/random/bit_generator.pyx``, after M. E. O'Neill's
``seed_seq``): a pool of four 32-bit words mixed from the entropy words, the seed's words padded
to four when a spawn key follows, then the key's words.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numpy.random.bit_generator import ISpawnableSeedSequence

from knockout.seedseq import (
    MASK32,
    MIX_L,
    MIX_R,
    MULT_A,
    OUT_HASH,
    POOL,
    hash_constants,
    mix_pool,
    state_words,
    words,
)

__all__ = ["block_generator", "block_state_words"]

_MASK = MASK32


@lru_cache(maxsize=256)
def _seed_pool(seed: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The pool after the seed's words (padded to four: a spawn key follows), and the hash
    constants of the four hashes of the index's first word (the index's words come next)."""
    run = words(seed)
    run += [0] * (POOL - len(run))
    pool, h = mix_pool(run)
    return pool, hash_constants(h, MULT_A, POOL)


def block_state_words(seed: int, index: int) -> list[int]:
    """``SeedSequence(seed, spawn_key=(index,)).generate_state(4, np.uint64)`` as integers."""
    pool, hs = _seed_pool(seed)
    p0, p1, p2, p3 = pool
    index_words = words(index)
    for w in index_words:
        # each of the four pool words mixed with a hash of w (constants hs[0..4] in turn)
        v = ((w ^ hs[0]) * hs[1]) & _MASK
        r = (MIX_L * p0 - MIX_R * (v ^ (v >> 16))) & _MASK
        p0 = r ^ (r >> 16)
        v = ((w ^ hs[1]) * hs[2]) & _MASK
        r = (MIX_L * p1 - MIX_R * (v ^ (v >> 16))) & _MASK
        p1 = r ^ (r >> 16)
        v = ((w ^ hs[2]) * hs[3]) & _MASK
        r = (MIX_L * p2 - MIX_R * (v ^ (v >> 16))) & _MASK
        p2 = r ^ (r >> 16)
        v = ((w ^ hs[3]) * hs[4]) & _MASK
        r = (MIX_L * p3 - MIX_R * (v ^ (v >> 16))) & _MASK
        p3 = r ^ (r >> 16)
        if len(index_words) > 1:  # a second word of the index: the constants go on
            hs = hash_constants(hs[4], MULT_A, POOL)
    return state_words((p0, p1, p2, p3), 4)


#: Blocks whose states are computed together (consecutive indices of one seed), with numpy.
BATCH = 64


@lru_cache(maxsize=16)
def _batch_words(seed: int, batch: int) -> npt.NDArray[np.uint64]:
    """``(BATCH, 4)``: :func:`block_state_words` of the indices ``batch * BATCH + i`` (below
    2**32: one word each), as arrays: the same 32-bit arithmetic in 64-bit lanes, masked."""
    pool, hs = _seed_pool(seed)
    mask = np.uint64(_MASK)
    w = np.arange(batch * BATCH, (batch + 1) * BATCH, dtype=np.uint64)[:, None]
    h = np.array(hs, dtype=np.uint64)
    v = ((w ^ h[:POOL]) * h[1:]) & mask  # (BATCH, 4): the index's word hashed four times
    v ^= v >> np.uint64(16)
    mixed = np.array([(MIX_L * p) % (1 << 64) for p in pool], dtype=np.uint64)
    r = (mixed - np.uint64(MIX_R) * v) & mask  # each pool word mixed with its hash
    r ^= r >> np.uint64(16)
    out = np.array(OUT_HASH, dtype=np.uint64)
    v = ((np.tile(r, 2) ^ out[:-1]) * out[1:]) & mask  # (BATCH, 8): the output hash
    v ^= v >> np.uint64(16)
    return np.ascontiguousarray(v[:, 0::2] | (v[:, 1::2] << np.uint64(32)))


class _BlockSeed(ISpawnableSeedSequence):
    """The seed sequence of a block: PCG64's four state words ready, the rest from numpy's."""

    def __init__(self, seed: int, index: int) -> None:
        self.seed = seed
        self.index = index
        self._real: np.random.SeedSequence | None = None

    @property
    def real(self) -> np.random.SeedSequence:
        """numpy's seed sequence of the same seed and key (made on first use)."""
        if self._real is None:
            self._real = np.random.SeedSequence(self.seed, spawn_key=(self.index,))
        return self._real

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> Any:
        if n_words == 4 and (dtype is np.uint64 or np.dtype(dtype) == np.uint64):  # PCG64's
            if self.index >> 32:
                return np.array(block_state_words(self.seed, self.index), dtype=np.uint64)
            return _batch_words(self.seed, self.index // BATCH)[self.index % BATCH]
        return self.real.generate_state(n_words, dtype)

    def spawn(self, n_children: int) -> list[np.random.SeedSequence]:  # type: ignore[override]
        # numpy's children (the interface says children of the same class; any seed
        # sequence serves numpy's spawning)
        return self.real.spawn(n_children)


def block_generator(seed: int, index: int) -> np.random.Generator:
    """``np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))``, the same
    generator in the same state, seeded faster (non-negative integers; others go to numpy)."""
    if type(seed) is int and type(index) is int and seed >= 0 and index >= 0:
        # the stubs name SeedSequence; PCG64 takes any ISeedSequence
        return np.random.Generator(np.random.PCG64(_BlockSeed(seed, index)))  # type: ignore[arg-type]
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
