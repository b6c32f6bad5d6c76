"""What each side may think: node, move-time or clock budgets, odds between the sides, and how a
pair of budgets is written as the clocks of the calibration file."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

from knockout.errors import InputError

__all__ = ["BudgetKind", "Pairing", "pairings", "parse_clock", "parse_odds"]

BudgetKind = Literal["nodes", "movetime", "clock"]

_NUMBER = r"(\d+(?:\.\d*)?|\.\d+)"


def parse_odds(text: str) -> tuple[float, float]:
    """``R:B`` (two positive numbers) as Red's and Black's multiples of the base budget.

    >>> parse_odds("2:1")
    (2.0, 1.0)

    Raises:
        InputError: For anything else.
    """
    match = re.fullmatch(rf"\s*{_NUMBER}\s*:\s*{_NUMBER}\s*", text)
    if match is None or not all(float(g) > 0 for g in match.groups()):
        raise InputError.single(
            "--odds", "", f"expected R:B with two positive numbers, e.g. 2:1, got {text!r}"
        )
    return float(match.group(1)), float(match.group(2))


def parse_clock(text: str) -> tuple[float, float, float]:
    """``RED/BLACK+INC``: each side's base clock and the increment per move, in seconds.

    >>> parse_clock("3.6/1.2+0.02")
    (3.6, 1.2, 0.02)

    Raises:
        InputError: For anything else (bases must be > 0, the increment >= 0).
    """
    match = re.fullmatch(rf"\s*{_NUMBER}\s*/\s*{_NUMBER}\s*(?:\+\s*{_NUMBER})?\s*", text)
    if match is None or float(match.group(1)) <= 0 or float(match.group(2)) <= 0:
        raise InputError.single(
            "--clock",
            "",
            f"expected RED/BLACK+INC in seconds (bases > 0), e.g. 3.6/1.2+0.02, got {text!r}",
        )
    return float(match.group(1)), float(match.group(2)), float(match.group(3) or 0)


@dataclass(frozen=True)
class Pairing:
    """The two sides' budgets in one game.

    Attributes:
        kind: ``nodes`` (nodes per move), ``movetime`` (milliseconds per move) or ``clock``
            (a base clock in seconds per side, plus ``increment`` seconds per move).
        red: Red's budget in the kind's unit.
        black: Black's budget.
        increment: Seconds added after each move (clock only; 0 otherwise).
    """

    kind: BudgetKind
    red: float
    black: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        if not (self.red > 0 and self.black > 0 and self.increment >= 0):
            raise ValueError(f"bad budgets {self}")

    def swapped(self) -> Pairing:
        """The same budgets with the colours exchanged."""
        return Pairing(self.kind, self.black, self.red, self.increment)

    def calibration_clocks(self) -> tuple[float, float, float]:
        """``red_minutes, black_minutes, increment_seconds`` for the calibration file.

        The model's time odds act through the ratio of the effective clocks
        ``T = base + moves * increment / 60``. A clock game is written as it was played (its
        seconds as minutes). A node or move-time budget has no clock; it is written as clocks
        in that ratio with no increment, so that ``T_red / T_black`` is the ratio of the budgets
        (thousands of nodes, or seconds per move, standing for minutes).
        """
        if self.kind == "clock":
            return self.red / 60, self.black / 60, self.increment
        scale = 1000.0
        return self.red / scale, self.black / scale, 0.0

    def describe(self) -> str:
        """A short label, e.g. ``nodes 8000:4000`` or ``clock 3.6/1.2+0.02 s``."""
        if self.kind == "clock":
            return f"clock {self.red:g}/{self.black:g}+{self.increment:g} s"
        unit = " ms" if self.kind == "movetime" else ""
        return f"{self.kind} {self.red:g}:{self.black:g}{unit}"

    def ratio(self) -> float:
        """Red's effective clock over Black's, as the calibration file states it (``moves`` 60)."""
        red, black, inc = self.calibration_clocks()
        return (red + inc) / (black + inc)


def _whole(value: float) -> float:
    """Nodes and milliseconds are whole numbers: rounded, at least 1."""
    return float(max(1, round(value)))


def pairings(
    kind: BudgetKind,
    base: float | tuple[float, float, float],
    odds: list[tuple[float, float]] | None = None,
) -> tuple[Pairing, ...]:
    """The budgets each opening is played with: every odds and its colour swap, once each.

    For ``nodes`` and ``movetime``, ``base`` is the budget of one unit of the odds, so odds
    ``2:1`` at 4000 nodes is Red 8000 against Black 4000 (and, swapped, 4000 against 8000);
    ``1:1`` swaps to itself and is played once. For ``clock``, ``base`` is ``(red, black,
    increment)`` in seconds and its swap is added when the clocks differ.

    >>> [p.describe() for p in pairings("nodes", 4000, [(2, 1), (1, 1)])]
    ['nodes 8000:4000', 'nodes 4000:8000', 'nodes 4000:4000']

    Raises:
        InputError: If odds are given with a clock, or a budget is not a positive number.
    """
    found: list[Pairing] = []
    if kind == "clock":
        assert isinstance(base, tuple)
        if odds:
            raise InputError.single(
                "--odds", "", "not with --clock: the clock gives each side's time (RED/BLACK+INC)"
            )
        red, black, inc = base
        first = Pairing("clock", red, black, inc)
        found = [first] if red == black else [first, first.swapped()]
        return tuple(found)
    assert not isinstance(base, tuple)
    if not (math.isfinite(base) and base > 0):
        raise InputError.single(f"--{kind}", "", f"expected a positive number, got {base:g}")
    for r, b in odds or [(1.0, 1.0)]:
        pairing = Pairing(kind, _whole(base * r), _whole(base * b))
        for p in (pairing, pairing.swapped()):
            if p not in found:
                found.append(p)
    return tuple(found)
