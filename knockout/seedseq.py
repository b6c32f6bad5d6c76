"""numpy's ``SeedSequence`` hashing in plain Python integers: the one copy of the algorithm.

Two places need numpy's seeding without paying for numpy's own: an event's colour lot
(:mod:`knockout.event.lot`, one draw, where importing ``numpy.random`` costs more than the
command's work) and the Monte Carlo's block generators (:mod:`sims.seeding`, 16-30 µs a block
in numpy). Both compute the same words numpy does; tests compare them with numpy for random
entropy.

The algorithm is numpy's (``numpy/random/bit_generator.pyx``, after M. E. O'Neill's
``seed_seq``): the entropy as 32-bit words (a seed's words padded to four when a spawn key
follows, then the key's words) hashed and mixed into a pool of four words, then the pool hashed
out into as many state words as asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "INIT_A",
    "MASK32",
    "MIX_L",
    "MIX_R",
    "MULT_A",
    "OUT_HASH",
    "POOL",
    "hash_constants",
    "mix_pool",
    "state_words",
    "words",
]

MASK32 = 0xFFFF_FFFF
INIT_A, MULT_A = 0x43B0_D7E5, 0x931E_8875
INIT_B, MULT_B = 0x8B51_F9DD, 0x58F3_8DED
MIX_L, MIX_R = 0xCA01_F9DD, 0x4973_F715
POOL = 4
_XSHIFT = 16


def words(value: int) -> list[int]:
    """A non-negative integer as 32-bit words, least significant first (0: one word).

    Raises:
        ValueError: For a negative integer (numpy refuses it too).
    """
    if value < 0:
        raise ValueError(f"entropy must be non-negative, got {value}")
    out = [value & MASK32]
    value >>= 32
    while value:
        out.append(value & MASK32)
        value >>= 32
    return out


def hash_constants(start: int, mult: int, count: int) -> tuple[int, ...]:
    """The hash constant before each of ``count`` hashes, and after the last."""
    out = [start]
    for _ in range(count):
        out.append((out[-1] * mult) & MASK32)
    return tuple(out)


#: The output hash's constants (the same for every seed): enough for 8 words (PCG64's state).
OUT_HASH = hash_constants(INIT_B, MULT_B, 8)


def mix_pool(entropy: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """The pool numpy mixes from the assembled entropy words (32-bit each), and the hash
    constant after the last hash (for words mixed in later)."""
    h = INIT_A

    def hashmix(value: int) -> int:
        nonlocal h
        value ^= h
        h = (h * MULT_A) & MASK32
        value = (value * h) & MASK32
        return value ^ (value >> _XSHIFT)

    def mix(x: int, y: int) -> int:
        r = (MIX_L * x - MIX_R * y) & MASK32
        return r ^ (r >> _XSHIFT)

    pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(POOL)]
    for src in range(POOL):
        for dst in range(POOL):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for w in entropy[POOL:]:
        for dst in range(POOL):
            pool[dst] = mix(pool[dst], hashmix(w))
    return tuple(pool), h


def state_words(pool: Sequence[int], n: int) -> list[int]:
    """``generate_state(n, numpy.uint64)`` of the pool, as integers."""
    constants = OUT_HASH if 2 * n <= 8 else hash_constants(INIT_B, MULT_B, 2 * n)
    out = []
    for i in range(2 * n):
        v = ((pool[i % POOL] ^ constants[i]) * constants[i + 1]) & MASK32
        out.append(v ^ (v >> _XSHIFT))
    # numpy's 64-bit words: little-endian pairs of the 32-bit ones
    return [out[i] | out[i + 1] << 32 for i in range(0, 2 * n, 2)]
