"""Rich renderables for re-scored events and team leagues.

Points print with the scoring system's own number of decimals (``difference``: one, as seed 000
prints them; ``traditional``: none), from exact decimals, so no binary noise can show.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from knockout.dashboard.fit import fitted
from knockout.game import Colour
from knockout.io.text import plural
from knockout.points import ScoringSystem, format_points
from knockout.scoring.league import LeagueTable
from knockout.scoring.rescore import ScoreTable, Standing, compare

if TYPE_CHECKING:  # numpy and the model load only for league-odds
    from knockout.scoring.league_file import LeagueSeason
    from knockout.studies.scoring.team_match import TeamMatchOdds

__all__ = [
    "compare_table",
    "league_odds_view",
    "league_season_view",
    "league_view",
    "player_rounds",
    "score_table",
    "scoring_line",
]


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


def league_season_view(
    season: LeagueSeason, *, seed: int | None = None, round: int | None = None
) -> Group:
    """A league file: the table of its results (if any), the captains and their changes, and
    the lot for boards 2-4 of every match (of ``round`` only, if given)."""
    from knockout.scoring.captains import MAX_CHANGES  # noqa: PLC0415  (numpy: league files only)

    parts: list[Table | Text | Group] = []
    if season.table is not None:
        parts.append(league_view(season.table))
    schedule = season.schedule
    captains = _table(
        f"{season.name or season.source}: captains (主将)",
        caption=f"a team may play at most {MAX_CHANGES} matches of the season with another "
        "captain (seed 001, 一.1); a returning captain resumes",
    )
    for name in ("team", "captain", "changes (round: captain)", "used", "left"):
        captains.add_column(
            name, overflow="fold", justify="right" if name in ("used", "left") else "left"
        )
    for team, squad in schedule.squads.items():
        changes = schedule.changes[team]
        captains.add_row(
            team,
            squad.captain,
            "; ".join(f"{c.round}: {c.captain}" for c in changes) or "none",
            str(len(changes)),
            str(schedule.changes_left(team)),
        )
    parts.append(fitted(captains))
    used = season.seed if seed is None else seed
    draws = season.draws(seed=used, round=round)
    where = "" if round is None else f", round {round}"
    lot = _table(
        f"boards 2-4 by lot (seed {used}{where})",
        caption="board 1: captain v captain; the home players keep boards 2-4 in squad order "
        f"and the lot gives each an away player; the same seed draws the same boards "
        f"(--seed {used})",
    )
    for name in ("round", "home v away", "board 1", "board 2", "board 3", "board 4"):
        lot.add_column(name, overflow="fold", justify="right" if name == "round" else "left")
    for d in draws:
        lot.add_row(str(d.round), f"{d.home} v {d.away}", *(f"{h} v {a}" for h, a in d.boards))
    parts.append(fitted(lot) if draws else Text(f"no matches to draw{where}", style="dim"))
    return Group(*parts)


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def league_odds_view(odds: TeamMatchOdds) -> Group:
    """``knockout league-odds``: each board's odds and the match's for both captain colours."""
    teams = odds.teams
    boards = _table(f"{teams.name}: {teams.home_team} (home) v {teams.away_team}")
    for name in ("board", "home", "away", "clock", "class"):
        boards.add_column(name, overflow="fold", justify="right" if name == "board" else "left")
    for b, clock in enumerate(teams.clocks):
        tc = odds.classes[b]
        boards.add_row(
            "1 captains" if b == 0 else str(b + 1),
            f"{teams.home[b].name} {teams.home[b].rating_for(tc):g}",
            f"{teams.away[b].name} {teams.away[b].rating_for(tc):g}",
            f"{clock.minutes:g} min + {clock.increment_seconds:g} s",
            str(tc),
        )
    games = _table("each board: the home player's chances")
    for name in ("home captain", "board", "home has", "wins", "draws", "loses"):
        games.add_column(name, justify="left" if name in ("home captain", "home has") else "right")
    for colour in (Colour.RED, Colour.BLACK):
        for b in range(len(teams.clocks)):
            p = odds.boards[colour][b]
            games.add_row(
                str(colour) if b == 0 else "",
                str(b + 1),
                str(colour if b == 0 else colour.other),
                *(_pct(x) for x in p),
                end_section=b == len(teams.clocks) - 1,
            )
    match = _table(
        "the match: P(each result) and expected points",
        caption="3 : 0 more board points; 1 : 0.5 the narrow match (captains drew, the others "
        "three draws or one win, one draw, one loss)",
    )
    for name in ("home captain", "side", "3 : 0", "1 : 0.5", "0.5 : 1", "0 : 3"):
        match.add_column(name, justify="left" if name in ("home captain", "side") else "right")
    match.add_column("match pts", justify="right", no_wrap=True)
    match.add_column("board pts", justify="right", no_wrap=True)
    for m in (odds.red, odds.black):
        for label, side in ((teams.home_team, m.home), (teams.away_team, m.away)):
            match.add_row(
                str(m.captain) if side is m.home else "",
                label,
                _pct(side.win),
                _pct(side.narrow_win),
                _pct(side.narrow_loss),
                _pct(side.loss),
                f"{side.match_points:.3f}",
                f"{side.board_points:.3f}",
            )
    best = odds.red if odds.best is Colour.RED else odds.black
    other = odds.black if odds.best is Colour.RED else odds.red
    line = Text(
        f"best: {teams.home_team} should give its captain {odds.best} "
        f"({best.home.match_points:.3f} expected match points against "
        f"{other.home.match_points:.3f} with {other.captain})"
    )
    if teams.captain_colour != "best" and odds.chosen is not odds.best:
        line.append(f"; the file asks for {odds.chosen}", style="yellow")
    return Group(fitted(boards), fitted(games), fitted(match), line)
