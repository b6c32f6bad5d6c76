"""Rich views of the rule-designer studies: format comparisons, fair rules, sweeps."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from knockout.dashboard.match import pct
from sims.studies.compare import Comparison

__all__ = ["comparison_view"]


def _signed(p: float | None) -> str:
    return "-" if p is None else f"{100 * p:+.2f}"


def comparison_view(c: Comparison, title: str) -> RenderableType:
    """One row per format: P(stronger advances) per gap, then the equal-players figures."""
    rows = [
        [
            r.format,
            *(pct(r.stronger_advances[g], 1) for g in c.gaps),
            _signed(r.decider_edge),
            pct(r.decider_reached, 1),
            f"{r.expected_games:.2f}",
            f"{r.expected_minutes:.0f}",
        ]
        for r in c.rows
    ]
    headers = ["Format", *(f"Δ{g:g}" for g in c.gaps), "edge", "reached", "games", "min"]
    table = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column(headers[0], overflow="fold")  # names wrap; numbers never do
    for j, header in enumerate(headers[1:], start=1):
        width = max(len(header), *(len(row[j]) for row in rows))
        table.add_column(header, justify="right", no_wrap=True, min_width=width)
    for row in rows:
        table.add_row(*row)
    note = Text(
        f"Δ columns: P(the player rated {c.base:g} beats one rated {c.base:g} - Δ). The rest are "
        "for equal players. edge: what the last stage's decision is worth to the side it "
        "favours (甲 for the bidding, the chooser for a colour choice, Red for a lot or sealed "
        "bids), in percentage points over 50 (- where the last stage is not one decisive game); "
        "reached: P(the last stage is played); min: expected playing time in minutes (effective "
        "clocks times mean speeds).",
        style="dim",
    )
    return Group(table, note)
