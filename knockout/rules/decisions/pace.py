"""Time use as a choice: the pace model of the game that decides who is 甲.

By default a player's time use is a trait (``speed``) independent of the result. For the question
"can a player gain by hurrying or stalling in the game whose times decide who is 甲?", a player X
may instead pick a **pace** ``p_X``: the fraction of their effective clock they aim to use in
that game. Then

* X's time used is ``Normal(p_X * T_X, sd_X * T_X)`` (``sd_X`` from ``speed``), so P(X is 甲)
  is :func:`~knockout.rules.model.strength.p_uses_less_time` with ``p_X`` in place of
  ``speed.mean``;
* X's strength in that game shifts by ``elo_per_doubling[tc] * log2(min(p_X, m_X) / m_X)``
  (:func:`pace_shift`; ``m_X`` = ``speed.mean``, the natural pace): hurrying to half one's
  natural time costs one doubling of thinking time, time spent beyond the natural pace buys
  nothing (stalling only burns clock);
* nothing else changes, so at ``p_X = m_X`` every answer is the plain model's.

Time used is only compared, never charged: the pace model ignores flag falls. Paces lie in
``[pace_min, 1]`` (``[incentives] pace_min``), widened to include a natural pace outside it
(:func:`pace_bounds`).

Which game decides 甲 (:func:`deciding_game`): the last game of the stage before a bidding stage
whose priority is ``less-time`` (a bidding stage is the last stage played and never the first,
so that game is the one played just before the sudden death).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from knockout.arrays import FloatArray
from knockout.rules.book.formats import Format

__all__ = [
    "DEFAULT_PACE_MIN",
    "deciding_game",
    "no_pace_choice",
    "pace_bounds",
    "pace_shift",
]

#: The lowest pace a player may choose unless the scenario says otherwise (``[incentives]``).
DEFAULT_PACE_MIN = 0.2


def pace_shift(
    elo_per_doubling: npt.ArrayLike, pace: npt.ArrayLike, natural: npt.ArrayLike
) -> FloatArray:
    """A player's strength shift (Elo) in the game that decides 甲 at ``pace``:
    ``elo_per_doubling * log2(min(pace, natural) / natural)`` (0 at or above the natural pace).

    >>> float(pace_shift(120.0, 0.4, 0.8)), float(pace_shift(120.0, 0.9, 0.8))
    (-120.0, 0.0)
    """
    ratio = np.minimum(pace, natural) / np.asarray(natural, dtype=np.float64)
    return np.asarray(np.multiply(elo_per_doubling, np.log2(ratio)), dtype=np.float64)


def pace_bounds(pace_min: float, natural: float) -> tuple[float, float]:
    """The paces a player may choose: ``[pace_min, 1]``, widened to include ``natural``.

    >>> pace_bounds(0.2, 0.75), pace_bounds(0.2, 0.1)
    ((0.2, 1.0), (0.1, 1.0))
    """
    return (min(pace_min, natural), max(1.0, natural))


def deciding_game(fmt: Format) -> tuple[int, int] | None:
    """``(playable stage index, game index in its block)`` of the game whose times decide who is
    甲, or None when no colours depend on time used."""
    for i, stage in enumerate(fmt.playable):
        if stage.is_bidding and stage.bidding is not None:
            if stage.bidding.priority != "less-time" or i == 0:
                return None
            previous = fmt.playable[i - 1]
            return (i - 1, previous.games - 1)
    return None


def no_pace_choice(fmt: Format) -> str | None:
    """Why time used decides nothing in ``fmt`` (None: the colours of its sudden death go to
    the player who used less time in the previous game)."""
    stage = fmt.bidding_stage
    if stage is None:
        return (
            f"format {fmt.preset!r} has no sudden-death bidding whose chooser (甲) is the player "
            "who used less time, so its colours never depend on time used: it has no such "
            "incentive"
        )
    if stage.bidding is not None and stage.bidding.priority != "less-time":
        return (
            f"format {fmt.preset!r} names 甲 by lot (format.{stage.name}.priority = "
            f"{stage.bidding.priority!r}), so its colours never depend on time used: it has no "
            "such incentive"
        )
    if deciding_game(fmt) is None:
        return f"format {fmt.preset!r}: the bidding stage has no previous game to decide 甲"
    return None
