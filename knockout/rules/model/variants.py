"""Named variants of the model: the constants nobody has measured, moved to the ends of their
plausible ranges, for judging a format under several models at once (``knockout design``'s
``[robustness] models``).

Seed 000 measures the classical game (Red's edge, the draw rate); the rapid and blitz constants
and the worth of time (``elo_per_doubling``) are assumptions (MODEL.md: ``elo_per_doubling``
0-200, ``draw_nu`` 0.3-2). Each variant changes those on top of a base model (the scenario's)
and keeps the measured classical constants:

============================  =================================================================
``scenario``                  the base model itself
``draws-rare``                ``draw_nu`` 0.3 in rapid and blitz games
``draws-common``              ``draw_nu`` 2.0 in rapid and blitz games
``time-worthless``            ``elo_per_doubling`` 0: clock odds buy nothing
``time-cheap``                ``elo_per_doubling`` 60 in every class (the low end of the
                              human estimate, 60-200)
``time-precious``             ``elo_per_doubling`` 200 in every class (its high end)
``no-first-move-edge``        ``red_advantage`` 0 in rapid and blitz games
``first-move-edge-doubled``   ``red_advantage`` twice the classical one in rapid and blitz
============================  =================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from knockout.rules.model.strength import ModelParams, PerClass

__all__ = ["MODEL_VARIANTS", "get_variant"]


def _fast(per_class: PerClass, value: float) -> PerClass:
    """``per_class`` with ``value`` in the rapid and blitz classes."""
    return replace(per_class, rapid=value, blitz=value)


MODEL_VARIANTS: Mapping[str, Callable[[ModelParams], ModelParams]] = {
    "scenario": lambda m: m,
    "draws-rare": lambda m: replace(m, draw_nu=_fast(m.draw_nu, 0.3)),
    "draws-common": lambda m: replace(m, draw_nu=_fast(m.draw_nu, 2.0)),
    "time-worthless": lambda m: replace(m, elo_per_doubling=PerClass(0.0, 0.0, 0.0)),
    "time-cheap": lambda m: replace(m, elo_per_doubling=PerClass(60.0, 60.0, 60.0)),
    "time-precious": lambda m: replace(m, elo_per_doubling=PerClass(200.0, 200.0, 200.0)),
    "no-first-move-edge": lambda m: replace(m, red_advantage=_fast(m.red_advantage, 0.0)),
    "first-move-edge-doubled": lambda m: replace(
        m, red_advantage=_fast(m.red_advantage, 2 * m.red_advantage.classical)
    ),
}


def get_variant(name: str, base: ModelParams) -> ModelParams:
    """The variant ``name`` of ``base``.

    >>> get_variant("time-worthless", ModelParams()).elo_per_doubling.rapid
    0.0

    Raises:
        ValueError: For an unknown name.
    """
    if name not in MODEL_VARIANTS:
        raise ValueError(f"unknown model: {name!r} (known: {', '.join(MODEL_VARIANTS)})")
    return MODEL_VARIANTS[name](base)
