"""Knockout brackets: seeding, byes, the standard draw, and the matches of each round.

Seeds are placed in the standard order (1 v 16, 8 v 9, 4 v 13, ... for 16), built so that seeds 1
and 2 can meet only in the final, 1-4 only in the semi-finals, and so on. A field that is not a
power of two is padded with byes, which fall to the top seeds (seed ``s`` meets position
``size + 1 - s``, which is empty when that exceeds the field).

A :class:`Bracket` is the draw itself: the line of players (``None`` for a bye) in bracket order.
Round ``k`` (from 1) pairs neighbouring blocks of ``2**(k-1)`` lines; the winner of each block
meets the winner of the next.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from knockout.rules.model.players import Player

__all__ = ["Bracket", "Seeding", "round_name", "seed_order"]

Seeding = Literal["rating", "given", "random"]


def seed_order(size: int) -> list[int]:
    """Seeds in bracket-line order for a power-of-two ``size``.

    >>> seed_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    >>> seed_order(16)[:4]
    [1, 16, 8, 9]
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two, got {size}")
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def round_name(k: int, rounds: int) -> str:
    """``final``, ``semi-final``, ``quarter-final``, else ``round k`` (k from 1)."""
    left = rounds - k
    return {0: "final", 1: "semi-final", 2: "quarter-final"}.get(left, f"round {k}")


@dataclass(frozen=True)
class Bracket:
    """A knockout draw.

    Attributes:
        lines: Player names in bracket order, ``None`` for a bye; length a power of two.
        seeds: Seed number (1 = top) of each player.
        third_place: Whether the losing semi-finalists play a match for third place.
    """

    lines: tuple[str | None, ...]
    seeds: dict[str, int]
    third_place: bool = False

    @classmethod
    def draw(
        cls,
        players: Sequence[Player],
        *,
        seeding: Seeding = "rating",
        draw_seed: int = 1,
        third_place: bool = False,
    ) -> Bracket:
        """The draw for ``players``.

        Args:
            players: At least two.
            seeding: ``rating`` (highest classical rating = seed 1; equal ratings keep file
                order), ``given`` (each player's ``seed``), or ``random`` (a seeded random draw).
            draw_seed: Seed of the random draw.
            third_place: Play a match for third place.

        Raises:
            ValueError: Given seeds that are missing or not 1..n.
        """
        if len(players) < 2:
            raise ValueError("a bracket needs at least two players")
        if seeding == "rating":
            ranked = sorted(players, key=lambda p: -p.rating)
        elif seeding == "given":
            seeds = [p.seed for p in players]
            if sorted(s for s in seeds if s is not None) != list(range(1, len(players) + 1)):
                raise ValueError(f"given seeding needs seeds 1..{len(players)}, got {seeds}")
            ranked = sorted(players, key=lambda p: p.seed or 0)
        else:
            order = np.random.default_rng(draw_seed).permutation(len(players))
            ranked = [players[int(i)] for i in order]
        size = 1 << math.ceil(math.log2(len(ranked)))
        lines = tuple(ranked[s - 1].name if s <= len(ranked) else None for s in seed_order(size))
        return cls(lines, {p.name: i + 1 for i, p in enumerate(ranked)}, third_place)

    @property
    def size(self) -> int:
        """Number of lines (a power of two)."""
        return len(self.lines)

    @property
    def rounds(self) -> int:
        """Number of rounds."""
        return self.size.bit_length() - 1

    @property
    def players(self) -> tuple[str, ...]:
        """The players, in bracket order."""
        return tuple(p for p in self.lines if p is not None)

    def block(self, k: int, index: int) -> tuple[str | None, ...]:
        """The lines whose winner plays match ``index`` of round ``k``'s ... one side.

        Round ``k`` match ``m`` is block ``2m`` against block ``2m + 1``, blocks of
        ``2**(k-1)`` lines.
        """
        width = 1 << (k - 1)
        return self.lines[index * width : (index + 1) * width]

    def meeting_round(self, a: str, b: str) -> tuple[int, int]:
        """The round (from 1) and match index in which ``a`` and ``b`` would meet."""
        i, j = self.lines.index(a), self.lines.index(b)
        if i == j:
            raise ValueError(f"{a!r} cannot meet themself")
        k = (i ^ j).bit_length()
        return k, i >> k

    def has_bye(self, name: str) -> bool:
        """Whether ``name``'s first-round opponent is a bye."""
        i = self.lines.index(name)
        return self.lines[i ^ 1] is None

    def byes(self) -> tuple[str, ...]:
        """Players with a first-round bye."""
        return tuple(p for p in self.players if self.has_bye(p))
