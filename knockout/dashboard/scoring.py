"""Rich renderables for re-scored events and team leagues.

Points print with the scoring system's own number of decimals (``difference``: one, as seed 000
prints them; ``traditional``: none), from exact decimals, so no binary noise can show.
"""

from __future__ import annotations

from decimal import Decimal

from rich.console import Group
from rich.table import Table
from rich.text import Text

from knockout.io.text import plural
from knockout.points import ScoringSystem, format_points
from knockout.scoring.league import LeagueTable
from knockout.scoring.rescore import ScoreTable, Standing, compare

__all__ = ["compare_table", "league_view", "player_rounds", "score_table", "scoring_line"]


def scoring_line(system: ScoringSystem) -> str:
    """One line describing ``system``'s points."""
    return f"{system.name}: {system.description}" if system.description else system.name


def _fmt(value: Decimal, places: int) -> str:
    return format_points(value, places)


def _tiebreak(value: Decimal | None, places: int) -> str:
    if value is None:
        return "-"
    return f"{value.normalize():f}" if value == value.to_integral_value() else _fmt(value, places)


def score_table(table: ScoreTable) -> Table:
    """The ranked players of ``table``: rank, name, points, progressive score, tie-breaks."""
    places = table.scoring.decimals
    out = Table(
        title=f"{table.scoring.name}: {plural(len(table.standings), 'player')}, "
        f"{plural(table.rounds, 'round')}",
        title_justify="left",
    )
    out.add_column("#", justify="right")
    out.add_column("player", no_wrap=True)
    out.add_column("points", justify="right")
    out.add_column("progressive", justify="right")
    extra = [c for c in table.tiebreaks if c != "PS"]
    for code in extra:
        out.add_column(code, justify="right")
    for s in table.standings:
        cells = [str(s.rank), s.name, _fmt(s.points, places), _fmt(s.progressive, places)]
        cells += [_tiebreak(s.tiebreaks.get(c), places) for c in extra]
        out.add_row(*cells)
    return out


def player_rounds(table: ScoreTable, standing: Standing) -> Table:
    """One player's rounds as seed 000 prints them (各轮积分表): round, game, opponent, points
    this round, running total, progressive score so far."""
    places = table.scoring.decimals
    out = Table(title=f"{standing.name} ({table.scoring.name})", title_justify="left")
    for name in ("round", "game", "opponent", "points", "total", "progressive"):
        out.add_column(name, justify="default" if name in ("game", "opponent") else "right")
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
    return out


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
    out = Table(
        title=f"rank moves: {baseline.scoring.name} -> {table.scoring.name}",
        title_justify="left",
    )
    out.add_column("\nplayer")
    for name in (baseline.scoring.name, table.scoring.name):
        out.add_column(f"{name}\n#", justify="right")
        out.add_column("\npoints", justify="right")
        out.add_column("\nPS", justify="right")
    out.add_column("\nmove", justify="right")
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
    return out


def league_view(table: LeagueTable) -> Group:
    """The league's matches (board points, match points) and its ranked table."""
    matches = Table(title=f"{table.source}: matches", title_justify="left")
    for name in ("round", "home", "away", "board points", "match points"):
        matches.add_column(
            name, justify="right" if "points" in name or name == "round" else "default"
        )
    for m in table.matches:
        (bh, ba), (mh, ma) = m.board_points, m.match_points
        matches.add_row(
            str(m.round),
            m.home,
            m.away,
            f"{_fmt(bh, 1)} : {_fmt(ba, 1)}",
            f"{mh.normalize():f} : {ma.normalize():f}",
        )
    teams = Table(
        title="league table",
        caption="ranked by match points; head-to-head; board points; Black wins; Red wins; "
        "Black draws; Red draws",
        title_justify="left",
        caption_justify="left",
    )
    columns = ("#", "team", "P", "W", "w", "l", "L", "match pts", "board pts")
    for name in (*columns, "B wins", "R wins", "B draws", "R draws"):
        teams.add_column(name, justify="default" if name == "team" else "right")
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
    return Group(matches, teams, legend)
