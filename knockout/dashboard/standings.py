"""The standings table: rank, name, points and each tie-break, as a rich renderable.

Names may be Chinese: rich measures wide characters in terminal cells, so columns stay aligned.
"""

from __future__ import annotations

from decimal import Decimal

from rich import box
from rich.table import Table

from knockout.dashboard.fit import fitted
from knockout.standings.tiebreaks import Standings, get_tiebreak

__all__ = ["conventions_line", "format_number", "standings_table"]


def format_number(value: Decimal | None) -> str:
    """A Decimal as people write it: ``20.5``, ``4`` (no ``4.0``), ``–`` for none.

    >>> format_number(Decimal("12.50")), format_number(Decimal("4.0")), format_number(None)
    ('12.5', '4', '–')
    """
    if value is None:
        return "–"
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def standings_table(standings: Standings, *, title: str | None = None) -> Table:
    """The ranked players as a table: ``#``, name, points, then one column per tie-break code.

    The caption names the tie-breaks and the rules they followed (version, Swiss or round robin).

    Args:
        standings: From :func:`knockout.standings.tiebreaks.rank_players`.
        title: Table title; default: the event's name, if any.
    """
    table = Table(
        title=title if title is not None else (standings.title or None),
        box=box.SIMPLE_HEAVY,
        header_style="bold",
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("Team" if standings.teams else "Name", justify="left", overflow="fold")
    table.add_column("MP" if standings.teams else "Pts", justify="right", no_wrap=True)
    for code in standings.codes:
        table.add_column(code, justify="right", header_style="bold", no_wrap=True)
    for s in standings.players:
        table.add_row(
            str(s.rank),
            s.name,
            format_number(s.points),
            *(format_number(s.tiebreaks[code]) for code in standings.codes),
        )
    fitted(table)
    table.caption = conventions_line(standings)
    if standings.codes:
        table.caption = (
            "tie-breaks: "
            + ", ".join(f"{code} {_title(code)}" for code in standings.codes)
            + "\n"
            + table.caption
        )
    if standings.teams:
        table.caption = (
            "MP match points (win 2, draw 1, loss 0; more game points wins a match)\n"
            + table.caption
        )
    return table


def _title(code: str) -> str:
    """A tie-break's name for the caption (``GP``, a team event's game points, is not in the
    individual registry)."""
    return "game points" if code == "GP" else get_tiebreak(code).title


def conventions_line(standings: Standings) -> str:
    """Which rules the tie-breaks followed, e.g. ``FIDE C.07 rules of 2026, Swiss event``."""
    conventions = standings.conventions
    kind = "round robin" if conventions.round_robin else "Swiss event"
    floor = ", cuts keep at least 7 rounds (seed 003)" if conventions.cuts == "floor-7" else ""
    return f"FIDE C.07 rules of {conventions.rules}, {kind}{floor}"
