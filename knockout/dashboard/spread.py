"""How the views show a figure's spread over uncertain model constants: its central 95 %
interval beside the value, and a caption saying what the interval is."""

from __future__ import annotations

from collections.abc import Callable

from knockout.rules.model.sd import Spread

__all__ = ["interval", "interval_caption", "percent_interval", "points_interval"]


def interval(spread: Spread | None, path: str, fmt: Callable[[float], str]) -> str:
    """``[lo, hi]`` of figure ``path`` in ``fmt``, or ``""`` where it has no spread."""
    found = None if spread is None else spread.get(path)
    if found is None:
        return ""
    return f"[{fmt(found.q025)}, {fmt(found.q975)}]"


def percent_interval(spread: Spread | None, path: str, digits: int = 1) -> str:
    """The interval of a probability in percent (``[55.6, 59.7]``)."""
    return interval(spread, path, lambda v: f"{100 * v:.{digits}f}")


def points_interval(spread: Spread | None, path: str) -> str:
    """The interval of an edge in signed percentage points (``[-6.17, +13.72]``)."""
    return interval(spread, path, lambda v: f"{100 * v:+.2f}")


def interval_caption(spread: Spread | None, label: str = "[a, b]", of: str = "the figure") -> str:
    """What the intervals are (``""`` without uncertain constants): ``label``, the central
    95 % of ``of`` over the constants."""
    if spread is None:
        return ""
    constants = ", ".join(spread.constants)
    return (
        f"{label}: the central 95 % of {of} over the uncertain constants ({constants}; "
        f"{spread.draws} draws, {spread.method}); the value beside it is at their central values."
    )
