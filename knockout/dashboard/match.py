"""Rich views of one match: exact odds, and the game log of a played match."""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from knockout.engine.match import GameRecord, LogEvent, MatchRecord
from knockout.game import Result
from knockout.io.scenario import Scenario
from knockout.io.text import plural
from knockout.odds import MatchOdds, SuddenDeath
from knockout.rules.model import TimeClass

__all__ = [
    "bar",
    "clock_text",
    "log_view",
    "match_record_view",
    "odds_view",
    "pct",
    "sudden_death_view",
]


def pct(p: float | None, digits: int = 1) -> str:
    """``0.4567`` -> ``"45.7%"``; None -> ``"-"``."""
    return "-" if p is None else f"{100 * p:.{digits}f}%"


def bar(p: float, width: int = 20) -> Text:
    """A horizontal bar of ``width`` cells filled in proportion to ``p``."""
    eighths = round(max(0.0, min(1.0, p)) * width * 8)
    full, part = divmod(eighths, 8)
    partial = "" if part == 0 else " ▏▎▍▌▋▊▉"[part]
    body = "█" * full + partial
    return Text(body.ljust(width), style="cyan")


def clock_text(minutes: tuple[float, float], increment: float) -> str:
    """``60+10`` for equal clocks, ``30/10+10`` for unequal ones."""
    red, black = minutes
    base = f"{red:g}" if red == black else f"{red:g}/{black:g}"
    return f"{base}+{increment:g}"


def _mmss(seconds: float) -> str:
    m, s = divmod(round(seconds), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _points(p: Decimal) -> str:
    return f"{p:g}"


def odds_view(odds: MatchOdds, scenario: Scenario) -> RenderableType:
    """Exact odds of a match: who advances, where it is decided, the sudden-death choice."""
    a, b = odds.players
    head = Table(title=f"{scenario.name} - exact odds", title_justify="left", expand=False)
    head.add_column("Player")
    head.add_column("Rating", justify="right")
    head.add_column("Rapid", justify="right")
    head.add_column("Blitz", justify="right")
    head.add_column("Advances", justify="right")
    head.add_column("", no_wrap=True)
    for player in scenario.players:
        head.add_row(
            player.name,
            f"{player.rating:g}",
            f"{player.rating_for(TimeClass.RAPID):g}",
            f"{player.rating_for(TimeClass.BLITZ):g}",
            pct(odds.win[player.name], 2),
            bar(odds.win[player.name]),
        )
    stages = Table(title="Where the match is decided", title_justify="left")
    stages.add_column("Stage")
    stages.add_column("Decided here", justify="right")
    stages.add_column(f"{a} wins here", justify="right")
    stages.add_column(f"{b} wins here", justify="right")
    for name, p in odds.decided.items():
        stages.add_row(
            name, pct(p, 2), pct(odds.decided_by[name][a], 2), pct(odds.decided_by[name][b], 2)
        )
    parts: list[RenderableType] = [head, stages]
    if odds.sudden_death is not None:
        parts.append(sudden_death_view(odds.sudden_death))
    if odds.chooser is not None:
        sd = Table(title="Sudden-death choice (given it is reached)", title_justify="left")
        sd.add_column("Quantity")
        sd.add_column("Probability", justify="right")
        sd.add_row("sudden death reached", pct(odds.sudden_death_reached, 2))
        sd.add_row(f"{a} is 甲 (chooser)", pct(odds.chooser[a], 2))
        sd.add_row(f"{b} is 甲 (chooser)", pct(odds.chooser[b], 2))
        sd.add_row("甲 announces Red", pct(odds.announce_red, 2))
        sd.add_row("乙 objects", pct(odds.objects, 2))
        sd.add_row("甲 advances", pct(odds.chooser_advances, 2))
        parts.append(sd)
    games = Table(title="Games played", title_justify="left")
    for k in odds.games:
        games.add_column(str(k), justify="right")
    shown = list(odds.games.items())
    if len(shown) > 12:
        games = Table(title="Games played", title_justify="left")
        head_items = shown[:11]
        for k, _ in head_items:
            games.add_column(str(k), justify="right")
        games.add_column(f">{head_items[-1][0]}", justify="right")
        rest = sum(p for _, p in shown[11:])
        games.add_row(*[pct(p) for _, p in head_items], pct(rest))
    else:
        games.add_row(*[pct(p) for _, p in shown])
    parts.append(games)
    return Group(*parts)


def _mark(p: float) -> str:
    """How surely a side picks an option: ◀ when it always does, ◀ with its probability when
    it sometimes does (private beliefs), nothing when it never does."""
    if p >= 1.0:
        return " ◀"
    if p <= 0.0 or math.isnan(p):
        return ""
    if p > 0.995:
        return " ◀>99%"
    if p < 0.005:
        return " ◀<1%"
    return f" ◀{100 * p:.0f}%"


def sudden_death_view(sd: SuddenDeath) -> RenderableType:
    """For each player as 甲: the bidding rule's 2x2 of branches with P(甲 advances) in each,
    the branch's effective clocks, and the choices each side makes under the strategy."""
    tables: list[RenderableType] = []
    for name, values in sd.as_chooser.items():
        red, obj_red, obj_black = sd.decisions.get(name, (float("nan"),) * 3)
        t = Table(
            title=f"{name} as 甲: advances {pct(values['advances'], 2)}",
            title_justify="left",
            box=box.SIMPLE_HEAD,
        )
        t.add_column("甲 announces")
        t.add_column("乙 accepts", justify="right")
        t.add_column("乙 objects", justify="right")
        for colour, p_announce, p_object in (("Red", red, obj_red), ("Black", 1 - red, obj_black)):
            cells: list[Text] = []
            for reply, p_reply in (("accept", 1 - p_object), ("object", p_object)):
                key = f"{colour.lower()}_{reply}"
                r_clock, b_clock = sd.clocks.get(key, (float("nan"), float("nan")))
                cell = Text(f"{pct(values[key], 1)}{_mark(p_reply)}\n")
                cell.append(f"Red {r_clock:g} v {b_clock:g}", style="dim")
                cells.append(cell)
            t.add_row(f"{colour}{_mark(p_announce)}", *cells)
        tables.append(t)
    caption = Text(
        f"The sudden-death game ({sd.time_class}). Each cell: P(甲 advances) if that branch were "
        "played, and its effective clocks in minutes (base + 60 moves of increment); ◀ marks "
        "what 甲 announces and how 乙 replies under the strategy.",
        style="dim",
    )
    return Group(*tables, caption)


def _result_cell(g: GameRecord) -> Text:
    text = {Result.RED: "1-0", Result.DRAW: "½-½", Result.BLACK: "0-1"}[g.result]
    if g.flag_fall:
        text += " F"
    return Text(text, style="yellow" if g.result is Result.DRAW else "")


def match_record_view(record: MatchRecord, *, title: str | None = None) -> RenderableType:
    """The game log of one match as a table, the sudden-death bidding, then who advanced.

    Results are written Red first (1-0: Red won; F: lost on time).
    """
    a, b = record.players
    table = Table(
        title=title or f"{a} v {b}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
        caption="Red first: 1-0 Red won, ½-½ draw, 0-1 Black won, F flag fall; Pts per game",
        caption_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("Stage", no_wrap=True)
    table.add_column("Red", style="red", overflow="fold")
    table.add_column("Black", overflow="fold")
    table.add_column("Clock", no_wrap=True)
    table.add_column("Result", no_wrap=True)
    table.add_column("Used R / B", justify="right", no_wrap=True)
    table.add_column("Pts R-B", justify="right", no_wrap=True)
    notes: list[RenderableType] = []
    for g in record.games:
        table.add_row(
            str(g.number),
            g.stage,
            g.red,
            g.black,
            clock_text(g.clock, g.increment_seconds),
            _result_cell(g),
            f"{_mmss(g.time_used[g.red])} / {_mmss(g.time_used[g.black])}",
            f"{_points(g.points[g.red])}-{_points(g.points[g.black])}",
        )
        if g.bids is not None:
            bids = ", ".join(f"{name} {minutes:.2f} min" for name, minutes in g.bids.items())
            notes.append(
                Text(
                    f"Game {g.number}: sealed bids {bids}: {g.black} Black on {g.clock[1]:.2f} "
                    f"min v {g.red} Red on {g.clock[0]:g} min"
                )
            )
        if g.chooser is not None:
            bidder = b if g.chooser == a else a
            notes.append(
                Text(
                    f"Game {g.number}: 甲 (chooser) = {g.chooser}, who used less time in game "
                    f"{g.number - 1}; announced {g.announce}; 乙 = {bidder} {g.reply}ed: "
                    f"{g.red} Red {g.clock[0]:g} min v {g.black} Black {g.clock[1]:g} min"
                )
            )
    totals = record.points()
    summary = Text.assemble(
        (record.winner, "bold green"),
        f" advances (decided in {record.decided_in}, {plural(len(record.games), 'game')}; points "
        f"{a} {_points(totals[a])}, {b} {_points(totals[b])})",
    )
    return Group(table, *notes, summary)


def log_view(log: Sequence[LogEvent]) -> RenderableType:
    """The event log: simulated time and what happened."""
    table = Table(title="Event log (simulated time)", title_justify="left", show_edge=False)
    table.add_column("Time", justify="right", style="dim")
    table.add_column("Event")
    for e in log:
        table.add_row(_mmss(e.time), e.text)
    return table
