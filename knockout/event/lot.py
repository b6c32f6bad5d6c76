"""The first uniform of ``numpy.random.default_rng(entropy)``, in plain Python.

An event draws each colour lot from its seed as ``default_rng([seed, round, match, game])
.random()``; every event file ever written depends on those draws. Importing ``numpy.random``
to make one draw costs more CPU than the rest of a short ``knockout event`` command's own work,
so this module computes the same number the same way: numpy's ``SeedSequence`` (its entropy
mixing and state generation), then one step of ``PCG64`` and its 53-bit double. Tests check it
against numpy itself for random entropy (tests/event/test_lot.py).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["first_uniform"]

_MASK32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
_POOL_SIZE = 4
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_XSHIFT = 16
_PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645


def _words(value: int) -> list[int]:
    """A non-negative integer as 32-bit words, least significant first (at least one)."""
    if value < 0:
        raise ValueError(f"entropy must be non-negative, got {value}")
    out = [value & _MASK32]
    value >>= 32
    while value:
        out.append(value & _MASK32)
        value >>= 32
    return out


class _Hash:
    """SeedSequence's running hash constant."""

    def __init__(self, start: int) -> None:
        self.const = start

    def mix_in(self, value: int) -> int:
        value ^= self.const
        self.const = (self.const * _MULT_A) & _MASK32
        value = (value * self.const) & _MASK32
        return value ^ (value >> _XSHIFT)


def _mix(x: int, y: int) -> int:
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
    return result ^ (result >> _XSHIFT)


def _pool(entropy: Sequence[int]) -> list[int]:
    """SeedSequence's entropy pool (no spawn key)."""
    words = [w for value in entropy for w in _words(int(value))]
    h = _Hash(_INIT_A)
    pool = [h.mix_in(words[i] if i < len(words) else 0) for i in range(_POOL_SIZE)]
    for src in range(_POOL_SIZE):
        for dst in range(_POOL_SIZE):
            if src != dst:
                pool[dst] = _mix(pool[dst], h.mix_in(pool[src]))
    for src in range(_POOL_SIZE, len(words)):
        for dst in range(_POOL_SIZE):
            pool[dst] = _mix(pool[dst], h.mix_in(words[src]))
    return pool


def _state64(pool: list[int], n: int) -> list[int]:
    """SeedSequence's ``generate_state(n, uint64)``."""
    const = _INIT_B
    words = []
    for i in range(2 * n):
        value = pool[i % _POOL_SIZE] ^ const
        const = (const * _MULT_B) & _MASK32
        value = (value * const) & _MASK32
        words.append(value ^ (value >> _XSHIFT))
    return [words[2 * i] | (words[2 * i + 1] << 32) for i in range(n)]


def _pcg_step(state: int, inc: int) -> int:
    return (state * _PCG_MULT + inc) & _MASK128


def first_uniform(entropy: Sequence[int]) -> float:
    """``numpy.random.default_rng(list(entropy)).random()``, bit for bit."""
    seed_hi, seed_lo, inc_hi, inc_lo = _state64(_pool(entropy), 4)
    inc = ((((inc_hi << 64) | inc_lo) << 1) | 1) & _MASK128
    state = _pcg_step(0, inc)
    state = _pcg_step((state + ((seed_hi << 64) | seed_lo)) & _MASK128, inc)
    state = _pcg_step(state, inc)  # the draw: step, then output the new state
    xored = ((state >> 64) ^ state) & _MASK64
    rot = state >> 122
    out = ((xored >> rot) | (xored << ((64 - rot) & 63))) & _MASK64
    return (out >> 11) * (1.0 / 9007199254740992.0)
