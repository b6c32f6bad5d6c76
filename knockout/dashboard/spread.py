"""How the views show a figure's spread over uncertain model constants: its central 95 %
interval beside the value, and a caption saying what the interval is."""

from __future__ import annotations

from collections.abc import Callable

from knockout.i18n import N_, _
from knockout.rules.model.precision import decimals
from knockout.rules.model.sd import Spread

__all__ = ["interval", "interval_caption", "percent_interval", "points_interval"]


def interval(spread: Spread | None, path: str, fmt: Callable[[float], str]) -> str:
    """``[lo, hi]`` of figure ``path`` in ``fmt``, or ``""`` where it has no spread."""
    found = None if spread is None else spread.get(path)
    if found is None:
        return ""
    return f"[{fmt(found.q025)}, {fmt(found.q975)}]"


def _measured(spread: Spread | None, path: str, scale: float, digits: int, sign: str = "") -> str:
    """``[lo, hi]`` of figure ``path`` times ``scale``, each end to the precision its standard
    error allows (at most ``digits`` decimals)."""
    found = None if spread is None else spread.get(path)
    if spread is None or found is None:
        return ""
    se = spread.stderr.get(path)
    ends = []
    for stat in ("q025", "q975"):
        err = None if se is None else scale * float(getattr(se, stat))
        d = decimals(err, default=digits, most=digits)
        ends.append(f"{scale * float(getattr(found, stat)):{sign}.{d}f}")
    return f"[{ends[0]}, {ends[1]}]"


def percent_interval(spread: Spread | None, path: str, digits: int = 1) -> str:
    """The interval of a probability in percent (``[55.6, 59.7]``), each end to the
    precision its standard error allows (at most ``digits`` decimals)."""
    return _measured(spread, path, 100.0, digits)


def points_interval(spread: Spread | None, path: str) -> str:
    """The interval of an edge in signed percentage points (``[-6.2, +13.7]``), each end to
    the precision its standard error allows (at most 2 decimals)."""
    return _measured(spread, path, 100.0, 2, "+")


#: The defaults of :func:`interval_caption`'s label and figure.
INTERVAL_LABEL = N_("[a, b]")
THE_FIGURE = N_("the figure")


def interval_caption(
    spread: Spread | None, label: str = INTERVAL_LABEL, of: str = THE_FIGURE
) -> str:
    """What the intervals are (``""`` without uncertain constants): ``label``, the central
    95 % of ``of`` over the constants (both messages of the catalogue, translated here)."""
    if spread is None:
        return ""
    constants = _(", ").join(spread.constants)
    return _(
        "{label}: the central 95 % of {of} over the uncertain constants ({constants}; "
        "{draws} draws, {method}); the value beside it is at their central values."
    ).format(
        label=_(label),
        of=_(of),
        constants=constants,
        draws=spread.draws,
        method=spread.method,
    )
