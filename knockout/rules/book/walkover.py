"""The walkover rule: who advances from a match in which a player has withdrawn.

A withdrawn player loses their match by walkover, also in the middle of a match. When both players
of a match have withdrawn, the better seed advances (seeds come from the draw: by rating when the
field is unseeded), so that a bracket always has a winner; this holds for a two-player match too.

One definition, used by every walker: :func:`walkover_sides` works on arrays (the bracket Monte
Carlo decides thousands of matches at once) and :func:`walkover_winner` is the same rule for one
match.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import numpy as np
import numpy.typing as npt

__all__ = ["NO_WALKOVER", "walkover_sides", "walkover_winner"]

#: Code of :func:`walkover_sides` for a match that is played (nobody withdrew).
NO_WALKOVER = -1


def walkover_sides(
    first_withdrawn: npt.ArrayLike,
    second_withdrawn: npt.ArrayLike,
    first_better_seed: npt.ArrayLike,
) -> npt.NDArray[np.int8]:
    """Who advances by walkover: 0 (the first player), 1 (the second) or ``NO_WALKOVER``.

    Broadcasts like a numpy ufunc.

    >>> walkover_sides([False, True, False, True], [False, False, True, True], [True] * 4).tolist()
    [-1, 1, 0, 0]
    """
    a = np.asarray(first_withdrawn, dtype=bool)
    b = np.asarray(second_withdrawn, dtype=bool)
    better = np.asarray(first_better_seed, dtype=bool)
    both = a & b
    side = np.where(both, np.where(better, 0, 1), np.where(a, 1, 0))
    return np.where(a | b, side, NO_WALKOVER).astype(np.int8)


def walkover_winner(
    first: str, second: str, *, withdrawn: Collection[str], seeds: Mapping[str, int]
) -> str | None:
    """The player who advances by walkover, or None if neither has withdrawn.

    Args:
        first: One player of the match.
        second: The other.
        withdrawn: Names of the players who withdrew.
        seeds: Seed numbers (1 = top) of both players.

    >>> walkover_winner("A", "B", withdrawn={"A", "B"}, seeds={"A": 2, "B": 1})
    'B'
    """
    side = int(
        walkover_sides(first in withdrawn, second in withdrawn, seeds[first] < seeds[second])
    )
    if side == NO_WALKOVER:
        return None
    return first if side == 0 else second
