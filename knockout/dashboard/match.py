"""Rich views of one match: exact odds, and the game log of a played match."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from knockout.engine import GameRecord, LogEvent, MatchRecord
from knockout.game import Result
from knockout.model import TimeClass
from knockout.odds import MatchOdds
from knockout.scenario import Scenario

__all__ = ["bar", "clock_text", "log_view", "match_record_view", "odds_view", "pct"]


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


def _result_cell(g: GameRecord) -> Text:
    if g.result is Result.DRAW:
        return Text("draw", style="yellow")
    winner = g.red if g.result is Result.RED else g.black
    style = "red" if g.result is Result.RED else "bold"
    suffix = " (time)" if g.flag_fall else ""
    return Text(f"{winner}{suffix}", style=style)


def match_record_view(record: MatchRecord, *, title: str | None = None) -> RenderableType:
    """The game log of one match as a table, then who advanced."""
    a, b = record.players
    table = Table(title=title or f"{a} v {b}", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Stage")
    table.add_column("Red", style="red")
    table.add_column("Black")
    table.add_column("Clock")
    table.add_column("Result")
    table.add_column("Time used R/B", justify="right")
    table.add_column(f"Pts {a}", justify="right")
    table.add_column(f"Pts {b}", justify="right")
    table.add_column("甲 / announce / reply")
    for g in record.games:
        bid = "" if g.chooser is None else f"{g.chooser} / {g.announce} / {g.reply}"
        table.add_row(
            str(g.number),
            g.stage,
            g.red,
            g.black,
            clock_text(g.clock, g.increment_seconds),
            _result_cell(g),
            f"{_mmss(g.time_used[g.red])} / {_mmss(g.time_used[g.black])}",
            _points(g.points[a]),
            _points(g.points[b]),
            bid,
        )
    totals = record.points()
    summary = Text.assemble(
        (record.winner, "bold green"),
        f" advances (decided in {record.decided_in}, {len(record.games)} games; points "
        f"{a} {_points(totals[a])}, {b} {_points(totals[b])})",
    )
    return Group(table, summary)


def log_view(log: Sequence[LogEvent]) -> RenderableType:
    """The event log: simulated time and what happened."""
    table = Table(title="Event log (simulated time)", title_justify="left", show_edge=False)
    table.add_column("Time", justify="right", style="dim")
    table.add_column("Event")
    for e in log:
        table.add_row(_mmss(e.time), e.text)
    return table
