"""Rich views of the rule-designer studies: format comparisons, fair rules, sweeps."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from knockout.dashboard.match import pct
from knockout.studies.compare import Comparison
from knockout.studies.fair import FairRules

__all__ = ["comparison_view", "fair_view"]


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


def _clock_pair(clocks: tuple[float, float]) -> str:
    return f"{clocks[0]:.2f} / {clocks[1]:.2f}"


def fair_view(f: FairRules, title: str) -> RenderableType:
    """The fair split, the menus side by side, and 甲's chances across rating gaps."""
    parts: list[RenderableType] = []
    if f.red is None:
        parts.append(Text(f"{title}\nNo fair split: {f.reason}."))
    else:
        parts.append(
            Text(
                f"{title}\nFair Armageddon split ({f.time_class.value} game, the stage's "
                f"increment and draw rule): Red {f.red:.2f} min v Black {f.black:g} min."
            )
        )
    menus = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="Menus (Red / Black base minutes)",
                  title_justify="left")  # fmt: skip
    menus.add_column("branch")
    menus.add_column("seed's menu", justify="right", no_wrap=True)
    if f.fair_menu is not None:
        menus.add_column("fair menu", justify="right", no_wrap=True)
    for key in ("accept", "object_red", "object_black"):
        row = [key, _clock_pair(getattr(f.seed_menu, key))]
        if f.fair_menu is not None:
            row.append(_clock_pair(getattr(f.fair_menu, key)))
        menus.add_row(*row)
    adv = [
        "甲's edge, equal players",
        _signed(f.advantage["seed_menu"]),
    ]
    if f.fair_menu is not None:
        adv.append(_signed(f.advantage["fair_menu"]))
    menus.add_row(*adv)
    parts.append(menus)
    gaps = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        title="P(甲 advances), % when 甲 is the stronger / the weaker by the gap",
        title_justify="left",
    )
    gaps.add_column("gap", justify="right", no_wrap=True)
    columns = [
        (menu, kind, rows)
        for menu, strategies in f.by_gap.items()
        for kind, rows in strategies.items()
    ]
    for menu, kind, _ in columns:
        gaps.add_column(f"{menu.split('_')[0]} menu\n{kind}", justify="right", no_wrap=True,
                        min_width=11)  # fmt: skip
    for g in columns[0][2]:
        gaps.add_row(
            f"{g:g}",
            *(f"{100 * rows[g][0]:.1f} / {100 * rows[g][1]:.1f}" for _, _, rows in columns),
        )
    parts.append(gaps)
    if f.verified is not None:
        runs, p, se = f.verified
        z = (p - 0.5) / se if se > 0 else 0.0
        parts.append(
            Text(
                f"Monte Carlo check of the split: {runs:,} games (seed {f.seed}), P(Red advances) "
                f"{100 * p:.2f} % ± {100 * se:.2f} (z = {z:+.1f} against 50 %)."
            )
        )
    parts.append(
        Text(
            "Edge: P(甲 advances | sudden death) - 50 %, in percentage points, under the "
            "scenario's strategy.",
            style="dim",
        )
    )
    return Group(*parts)
