"""Rich renderables for re-scored events and team leagues.

Points print with the scoring system's own number of decimals (``difference``: one, as seed 000
prints them; ``traditional``: none), from exact decimals, so no binary noise can show.
"""

from __future__ import annotations

from decimal import Decimal

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from knockout.dashboard.fit import fitted
from knockout.io.text import plural
from knockout.points import ScoringSystem, format_points
from knockout.scoring.league import LeagueTable
from knockout.scoring.rescore import ScoreTable, Standing, compare

__all__ = ["compare_table", "league_view", "player_rounds", "score_table", "scoring_line"]


def scoring_line(system: ScoringSystem) -> str:
    """One line describing ``system``'s points."""
    return f"{system.name}: {system.description}" if system.description else system.name


def _table(title: str, caption: str | None = None) -> Table:
    """A table of this module, in rich's default box (see knockout.dashboard.fit for the
    columns)."""
    return Table(
        title=title,
        title_justify="left",
        caption=caption,
        caption_justify="left",
        box=box.HEAVY_HEAD,
    )


def _fmt(value: Decimal, places: int) -> str:
    return format_points(value, places)


def _tiebreak(value: Decimal | None, places: int) -> str:
    if value is None:
        return "-"
    return f"{value.normalize():f}" if value == value.to_integral_value() else _fmt(value, places)


def score_table(table: ScoreTable) -> Table:
    """The ranked players of ``table``: rank, name, points, progressive score, tie-breaks."""
    places = table.scoring.decimals
    out = _table(
        f"{table.scoring.name}: {plural(len(table.standings), 'player')}, "
        f"{plural(table.rounds, 'round')}"
    )
    out.add_column("#", justify="right", no_wrap=True)
    out.add_column("player", overflow="fold")
    out.add_column("points", justify="right", no_wrap=True)
    out.add_column("progressive", justify="right", no_wrap=True)
    extra = [c for c in table.tiebreaks if c != "PS"]
    for code in extra:
        out.add_column(code, justify="right", no_wrap=True)
    for s in table.standings:
        cells = [str(s.rank), s.name, _fmt(s.points, places), _fmt(s.progressive, places)]
        cells += [_tiebreak(s.tiebreaks.get(c), places) for c in extra]
        out.add_row(*cells)
    return fitted(out)


def player_rounds(table: ScoreTable, standing: Standing) -> Table:
    """One player's rounds as seed 000 prints them (各轮积分表): round, game, opponent, points
    this round, running total, progressive score so far."""
    places = table.scoring.decimals
    out = _table(f"{standing.name} ({table.scoring.name})")
    for name in ("round", "game", "opponent", "points", "total", "progressive"):
        if name == "opponent":
            out.add_column(name, overflow="fold")
        else:
            out.add_column(name, justify="left" if name == "game" else "right", no_wrap=True)
    progressive = Decimal(0)
    for rnd, (game, got, total) in enumerate(
        zip(standing.games, standing.round_points, standing.running, strict=True), start=1
    ):
        progressive += total
        out.add_row(
            str(rnd),
            "-" if game is None else f"{game.colour} {game.outcome}",
            "-" if game is None else game.opponent,
            "-" if got is None else _fmt(got, places),
            _fmt(total, places),
            _fmt(progressive, places),
        )
    return fitted(out)


def _change(change: int) -> Text:
    if change > 0:
        return Text(f"▲{change}", style="green")
    if change < 0:
        return Text(f"▼{-change}", style="red")
    return Text("=")


def compare_table(table: ScoreTable, baseline: ScoreTable) -> Table:
    """Side by side: each player's rank and points under ``baseline`` and under ``table``."""
    base_places, places = baseline.scoring.decimals, table.scoring.decimals
    base = {s.name: s for s in baseline.standings}
    out = _table(f"rank moves: {baseline.scoring.name} -> {table.scoring.name}")
    out.add_column("\nplayer", overflow="fold")
    for name in (baseline.scoring.name, table.scoring.name):
        out.add_column(f"{name}\n#", justify="right", no_wrap=True)
        out.add_column("\npoints", justify="right", no_wrap=True)
        out.add_column("\nPS", justify="right", no_wrap=True)
    out.add_column("\nmove", justify="right", no_wrap=True)
    mine = {s.name: s for s in table.standings}
    for move in compare(table, baseline):
        b, s = base[move.name], mine[move.name]
        out.add_row(
            move.name,
            str(b.rank),
            _fmt(b.points, base_places),
            _fmt(b.progressive, base_places),
            str(s.rank),
            _fmt(s.points, places),
            _fmt(s.progressive, places),
            _change(move.change),
        )
    return fitted(out)


def league_view(table: LeagueTable) -> Group:
    """The league's matches (board points, match points) and its ranked table."""
    matches = _table(f"{table.source}: matches")
    for name in ("round", "home", "away", "board points", "match points"):
        if name in ("home", "away"):
            matches.add_column(name, overflow="fold")
        else:
            matches.add_column(name, justify="right", no_wrap=True)
    for m in table.matches:
        (bh, ba), (mh, ma) = m.board_points, m.match_points
        matches.add_row(
            str(m.round),
            m.home,
            m.away,
            f"{_fmt(bh, 1)} : {_fmt(ba, 1)}",
            f"{mh.normalize():f} : {ma.normalize():f}",
        )
    teams = _table(
        "league table",
        caption="ranked by match points; head-to-head; board points; Black wins; Red wins; "
        "Black draws; Red draws",
    )
    columns = ("#", "team", "P", "W", "w", "l", "L", "match pts", "board pts")
    for name in (*columns, "B wins", "R wins", "B draws", "R draws"):
        if name == "team":
            teams.add_column(name, overflow="fold")
        else:
            teams.add_column(name, justify="right", no_wrap=True)
    for t in table.teams:
        teams.add_row(
            str(t.rank),
            t.team,
            str(t.played),
            str(t.won),
            str(t.narrow_won),
            str(t.narrow_lost),
            str(t.lost),
            f"{t.match_points.normalize():f}",
            _fmt(t.board_points, 1),
            str(t.black_wins),
            str(t.red_wins),
            str(t.black_draws),
            str(t.red_draws),
        )
    legend = Text("W/L: matches won/lost 3-0; w/l: narrow matches won/lost 1-0.5", style="dim")
    return Group(fitted(matches), fitted(teams), legend)
