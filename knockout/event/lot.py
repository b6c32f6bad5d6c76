"""The first uniform of ``numpy.random.default_rng(entropy)``, in plain Python.

An event draws each colour lot from its seed as ``default_rng([seed, round, match, game])
.random()``; every event file ever written depends on those draws. Importing ``numpy.random``
to make one draw costs more CPU than the rest of a short ``knockout event`` command's own work,
so this module computes the same number the same way: numpy's ``SeedSequence``
(:mod:`knockout.seedseq`), then one step of ``PCG64`` and its 53-bit double. Tests check it
against numpy itself for random entropy (tests/event/test_lot.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from knockout.seedseq import mix_pool, state_words, words

__all__ = ["first_uniform"]

_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
_PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645


def _pcg_step(state: int, inc: int) -> int:
    return (state * _PCG_MULT + inc) & _MASK128


def first_uniform(entropy: Sequence[int]) -> float:
    """``numpy.random.default_rng(list(entropy)).random()``, bit for bit."""
    pool, _ = mix_pool([w for value in entropy for w in words(int(value))])
    seed_hi, seed_lo, inc_hi, inc_lo = state_words(pool, 4)
    inc = ((((inc_hi << 64) | inc_lo) << 1) | 1) & _MASK128
    state = _pcg_step(0, inc)
    state = _pcg_step((state + ((seed_hi << 64) | seed_lo)) & _MASK128, inc)
    state = _pcg_step(state, inc)  # the draw: step, then output the new state
    xored = ((state >> 64) ^ state) & _MASK64
    rot = state >> 122
    out = ((xored >> rot) | (xored << ((64 - rot) & 63))) & _MASK64
    return (out >> 11) * (1.0 / 9007199254740992.0)
