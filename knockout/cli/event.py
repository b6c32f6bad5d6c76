"""``knockout event ...``: organiser mode, a real knockout event kept in one SQLite file."""

from __future__ import annotations

import shlex
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from knockout.cli.app import ExportOpt, app, emit_json, out_console, show, user_errors
from knockout.errors import KnockoutError

if TYPE_CHECKING:  # imported where a command needs it: a fast start
    from knockout.event.journal import Entry
    from knockout.event.state import Event

__all__ = ["event_app"]

event_app = typer.Typer(
    name="event",
    help="Organiser mode: run a real knockout event from the terminal, kept in one SQLite file "
    "(the file is the event). Record games, sudden-death bids and withdrawals; every change is "
    "a journal entry that can be undone, and the rules that compute the odds check each one.\n\n"
    "Example:\n\n"
    "    knockout event new cup.db --scenario scenarios/events/city-cup-16.toml "
    "--players scenarios/events/city-cup-16-players.csv\n\n"
    "    knockout event next cup.db",
    no_args_is_help=True,
    rich_markup_mode="rich",
)
app.add_typer(event_app, name="event")

EventArg = Annotated[
    Path,
    typer.Argument(help="The event file (SQLite), e.g. cup.db.", show_default=False),
]
MatchArg = Annotated[
    str,
    typer.Argument(
        help="Match ID: R<round>-M<match> (R1-M3: round 1, third match from the top) or 3RD.",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Write JSON to stdout instead of tables.")]


def _command(name: str, *parts: str) -> str:
    """The command line of ``knockout event NAME ...``, as the journal records it."""
    return shlex.join(["knockout", "event", name, *parts])


def _say(text: str | Text) -> None:
    out_console.print(text, markup=False, highlight=False, soft_wrap=True)


def _step_line(event: Event, match_id: str) -> str:
    """What comes next in ``match_id`` (or for its winner) after a change."""
    from knockout.dashboard.match import clock_text
    from knockout.event.state import NextGame, PendingBid, PendingChoice
    from knockout.io.text import plural

    m = event.find_match(match_id)
    if m.winner is not None:
        how = "walkover" if m.walkover else f"{m.decided_in}, {plural(len(m.games), 'game')}"
        line = f"{m.id} decided: {m.winner} wins ({how})."
        following = event.match_of(m.winner)
        if event.finished:
            line += f" The event is over: champion {event.champion}."
        elif following is not None and following.players is None:
            line += f" {m.winner} goes on to {following.id} (opponent not known yet)."
        elif following is not None:
            line += f" {m.winner} goes on to {following.id}."
        return line
    step = event.next_step(m)
    if isinstance(step, PendingBid):
        chooser = f"甲 = {step.chooser}" if step.chooser else "甲 by lot (--chooser)"
        return f"Next in {m.id}: the sudden-death bid ({chooser}); see knockout event next."
    if isinstance(step, PendingChoice):
        chooser = f"{step.chooser} chooses" if step.chooser else "the lot's winner chooses"
        return (
            f"Next in {m.id}: game {step.number} ({step.stage}), colours to choose ({chooser}: "
            f"knockout event choose {event.source} {m.id} red|black"
            f"{'' if step.chooser else ' --chooser NAME'})."
        )
    if isinstance(step, NextGame):
        board = "waiting for a board" if step.board is None else f"board {step.board}"
        return (
            f"Next in {m.id}: game {step.number} ({step.stage}), {step.red} (Red) v "
            f"{step.black} (Black), {clock_text(step.clock, step.increment_seconds)}, {board}."
        )
    return f"{m.id}: waiting for its players."


def _recorded(entry: Entry, event: Event) -> None:
    from knockout.event.entries import describe

    by_seq = {e.seq: e for e in event.entries}
    _say(f"Recorded #{entry.seq}: {describe(entry, by_seq)}")


@event_app.command("new")
def new(
    event: EventArg,
    scenario: Annotated[
        Path,
        typer.Option(
            "--scenario",
            help="Scenario file (TOML): the format, model, bracket and ranking rules (and the "
            "players, unless --players is given).",
            show_default=False,
        ),
    ],
    players: Annotated[
        Path | None,
        typer.Option(
            "--players",
            help="The entry list (CSV): name,rating and optionally rating_rapid, rating_blitz, "
            "seed, federation.",
            show_default=False,
        ),
    ] = None,
    encoding: Annotated[
        str | None,
        typer.Option(help="Encoding of the players CSV (default UTF-8; e.g. gb18030)."),
    ] = None,
) -> None:
    """Create the event file from a scenario and (optionally) a CSV entry list.

    Seeds the bracket by the scenario's \\[bracket] rule (rating, given seeds, or a random draw
    whose seed is recorded), records the event's seed for colour lots, and lists the first games.
    Games already played and withdrawals in the scenario become the first journal entries.

    Example:

        knockout event new cup.db --scenario cup.toml --players players.csv
    """
    from knockout.dashboard.event import next_view
    from knockout.event.store import create_event
    from knockout.io.text import plural

    parts = [str(event), "--scenario", str(scenario)]
    parts += [] if players is None else ["--players", str(players)]
    parts += [] if encoding is None else ["--encoding", encoding]
    with user_errors():
        ev = create_event(
            event,
            scenario,
            players_path=players,
            encoding=encoding,
            command=_command("new", *parts),
        )
        bracket = ev.scenario.bracket
        draw = f"{bracket.seeding} seeding"
        if bracket.seeding == "random":
            draw += f", draw seed {bracket.draw_seed}"
        _say(
            f"Created {event}: {ev.name}, {plural(len(ev.base.players), 'player')} ({draw}), "
            f"{plural(ev.rounds, 'round')}{', third-place match' if ev.third_place else ''}; "
            f"event seed {ev.seed} (colour lots)."
        )
        out_console.print(next_view(ev))


@event_app.command("next")
def next_games(event: EventArg, json_out: JsonOpt = False) -> None:
    """The games that can be played now, and the decisions to ask for.

    For each game: board, colours and clocks. For a match at its sudden-death game: who is 甲
    (from the recorded time used), what to ask, and the command that records the bid; at a game
    whose colours a player chooses, who chooses and the command that records it. Each match
    shows its next game only. JSON: {"version", "games": [{"match", "game", "stage", "red",
    "black", "clock", "board"}], "bids": [{"match", "chooser", "bidder"}], "decisions":
    [{"match", "game", "kind", "chooser"}], "finished", "champion"}: a game whose decision is
    still open is in games with red and black null (and clock null before a bid); kind is bid
    or choice; chooser is null when a lot must name them.

    Example:

        knockout event next cup.db --json
    """
    from knockout.dashboard.event import next_view
    from knockout.event.state import NextGame
    from knockout.event.store import load_event
    from knockout.io.envelope import envelope

    with user_errors():
        ev = load_event(event)
        if json_out:
            body = {
                "games": [
                    s.to_json() if isinstance(s, NextGame) else s.game_json() for s in ev.steps()
                ],
                "bids": [b.to_json() for b in ev.pending_bids()],
                "decisions": [d.decision_json() for d in ev.pending_decisions()],
                "finished": ev.finished,
                "champion": ev.champion,
            }
            emit_json(envelope(body))
            return
        out_console.print(next_view(ev))


@event_app.command("record")
def record(
    event: EventArg,
    match: MatchArg,
    game: Annotated[
        int, typer.Argument(help="Game number within the match, from 1.", show_default=False)
    ],
    result: Annotated[
        str,
        typer.Argument(
            help="1-0 (Red won), 0-1 (Black won), 1/2 (draw); or red, black, draw.",
            show_default=False,
        ),
    ],
    time_used: Annotated[
        list[str] | None,
        typer.Option(
            "--time-used",
            help="NAME=SECONDS (or NAME=m:ss, NAME=h:mm:ss) used on the clock; once per "
            "player. The sudden-death 甲 is the one who used less in the game before it.",
            show_default=False,
        ),
    ] = None,
    moves: Annotated[
        int | None,
        typer.Option(
            help="Moves made (each player's); bounds the time used: base clock + increment x "
            "moves (default 300 moves).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Record a game's result.

    It must be the match's next game (see knockout event next), with the colours listed there; a
    game that already has a result is refused: undo back to it instead. Time used above the base
    clock plus the increment for every move is refused.

    Example:

        knockout event record cup.db R1-M3 1 1-0 --time-used 王天一=2400 --time-used 郑惟桐=2710
    """
    from knockout.event.store import record_game

    times = list(time_used or [])
    parts = [str(event), match, str(game), result]
    parts += [f"--time-used={t}" for t in times]
    parts += [] if moves is None else ["--moves", str(moves)]
    with user_errors():
        entry, ev = record_game(
            event,
            match,
            game,
            result,
            time_used=times,
            moves=moves,
            command=_command("record", *parts),
        )
        _recorded(entry, ev)
        assert entry.match is not None
        _say(_step_line(ev, entry.match))


@event_app.command("bid")
def bid(
    event: EventArg,
    match: MatchArg,
    announce: Annotated[
        str,
        typer.Option("--announce", help="甲's announcement: red or black.", show_default=False),
    ],
    reply: Annotated[
        str, typer.Option("--reply", help="乙's reply: accept or object.", show_default=False)
    ],
    chooser: Annotated[
        str | None,
        typer.Option(
            "--chooser",
            help="甲, when the previous game's times do not say (drawn by the arbiter's lot).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Record the sudden-death choice of a match (what 甲 announces, how 乙 replies).

    It fixes the game's colours and clocks by the bidding rule. 甲 is who used less time in the
    previous game (as recorded); if those times were not recorded or were equal, give --chooser
    (the arbiter's lot).

    Example:

        knockout event bid cup.db R4-M1 --announce red --reply object
    """
    from knockout.event.store import record_bid

    parts = [str(event), match, "--announce", announce, "--reply", reply]
    parts += [] if chooser is None else ["--chooser", chooser]
    with user_errors():
        entry, ev = record_bid(
            event,
            match,
            announce=announce,
            reply=reply,
            chooser=chooser,
            command=_command("bid", *parts),
        )
        _recorded(entry, ev)
        assert entry.match is not None
        _say(_step_line(ev, entry.match))


@event_app.command("choose")
def choose(
    event: EventArg,
    match: MatchArg,
    colour: Annotated[
        str,
        typer.Argument(help="The colour the chooser takes: red or black.", show_default=False),
    ],
    chooser: Annotated[
        str | None,
        typer.Option(
            "--chooser",
            help="Who chooses, when a lot decides it (the arbiter's lot); not needed when the "
            "format names the chooser.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Record a colour choice: the chooser takes Red or Black for the match's next game.

    For a game whose colours a player chooses (a stage with colours = choice, such as the
    official playoff's decider, where a lot decides who chooses): give --chooser with the lot's
    winner. The game is then played on the stage's clocks with those colours. Undo it like any
    entry.

    Example:

        knockout event choose cup.db R1-M1 black --chooser 洪智
    """
    from knockout.event.store import record_choice

    parts = [str(event), match, colour]
    parts += [] if chooser is None else ["--chooser", chooser]
    with user_errors():
        entry, ev = record_choice(
            event, match, colour=colour, chooser=chooser, command=_command("choose", *parts)
        )
        _recorded(entry, ev)
        assert entry.match is not None
        _say(_step_line(ev, entry.match))


@event_app.command("withdraw")
def withdraw_player(
    event: EventArg,
    name: Annotated[str, typer.Argument(help="The player who withdraws.", show_default=False)],
) -> None:
    """Record a withdrawal: the player loses their current match and any later one.

    By walkover, also in the middle of a match; if both players withdrew, the better seed goes
    through. A losing semi-finalist can withdraw from the match for third place.

    Example:

        knockout event withdraw cup.db "Zhou Ming"
    """
    from knockout.event.store import withdraw

    with user_errors():
        entry, ev = withdraw(event, name, command=_command("withdraw", str(event), name))
        _recorded(entry, ev)
        assert entry.match is not None
        _say(_step_line(ev, entry.match))


@event_app.command("show")
def show_event(
    event: EventArg,
    live: Annotated[
        bool,
        typer.Option("--live", help="Redraw as entries arrive from other terminals (Ctrl-C)."),
    ] = False,
    export: ExportOpt = None,
) -> None:
    """The dashboard of the event: bracket, games to play, latest results, ranking so far.

    With --live it redraws whenever another terminal records something (the file is polled
    every second; readers never block the arbiters' writes).

    Example:

        knockout event show cup.db --live
    """
    from knockout.dashboard.event import (
        LiveEventFile,
        event_dashboard,
    )
    from knockout.event.store import (
        journal_head,
        load_event,
    )

    with user_errors():
        if live and export is not None:
            raise KnockoutError("--export saves one view: use it without --live")
        if live:
            LiveEventFile(head=lambda: journal_head(event), load=lambda: load_event(event)).watch(
                out_console
            )
            return
        ev = load_event(event)
        show(event_dashboard(ev), export, title=ev.name)


@event_app.command("odds")
def odds(event: EventArg, json_out: JsonOpt = False) -> None:
    """Exact odds of the rest of the event, given the results so far.

    The same as knockout odds on the exported scenario (--json gives the same JSON).

    Example:

        knockout event odds cup.db --json
    """
    from knockout.dashboard.bracket import reach_view
    from knockout.dashboard.match import odds_view
    from knockout.event.export import (
        event_odds,
        odds_json,
    )
    from knockout.event.store import load_event
    from knockout.odds import BracketOdds

    with user_errors():
        ev = load_event(event)
        if json_out:
            emit_json(odds_json(ev))
            return
        answer = event_odds(ev)
        if isinstance(answer, BracketOdds):
            out_console.print(reach_view(answer, ev.scenario))
        else:
            out_console.print(odds_view(answer, ev.scenario))


@event_app.command("undo")
def undo_last(event: EventArg) -> None:
    """Reverse the last game, bid or withdrawal still in force.

    The undo is itself a journal entry. To correct a result further back, undo back to it
    (knockout event log marks what undo takes back next), then record again.

    Example:

        knockout event undo cup.db
    """
    from knockout.event.entries import describe
    from knockout.event.store import undo

    with user_errors():
        entry, ev = undo(event, command=_command("undo", str(event)))
        by_seq = {e.seq: e for e in ev.entries}
        assert entry.undoes is not None
        _say(
            f"Undid #{entry.undoes} (entry #{entry.seq}): {describe(by_seq[entry.undoes], by_seq)}"
        )
        if entry.match is not None:
            _say(_step_line(ev, entry.match))


@event_app.command("log")
def log(event: EventArg) -> None:
    """Every journal entry: what, when, and from which command.

    With what was undone, and which entry the next undo would take back.

    Example:

        knockout event log cup.db
    """
    from knockout.dashboard.event import journal_view
    from knockout.event.store import load_event

    with user_errors():
        out_console.print(journal_view(load_event(event)))


class ExportFormat(StrEnum):
    """What ``event export`` writes."""

    JSON = "json"
    CSV = "csv"
    SCENARIO = "scenario"
    PGN = "pgn"
    TRF = "trf"


class ExportTable(StrEnum):
    """Which table ``event export --format csv`` writes."""

    GAMES = "games"
    MATCHES = "matches"


def _choice(option: str, enum: type[StrEnum], value: str) -> str:
    """``value`` if it is one of ``enum``'s, else one line on stderr and exit code 2."""
    allowed = [e.value for e in enum]
    if value.lower() not in allowed:
        from knockout.cli.app import err_console

        err_console.print(
            f"error: {option}: expected {', '.join(allowed[:-1])} or {allowed[-1]}, "
            f"found {value!r}",
            markup=False,
            soft_wrap=True,
        )
        raise typer.Exit(2)
    return value.lower()


@event_app.command("export")
def export_event(
    event: EventArg,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="json: a results file (games, matches with who won and how, withdrawals, "
            "bids, ranking, and the scenario, which knockout odds reads); csv: the games (or "
            "--table matches); scenario: a TOML scenario with [\\[played]] games and "
            "withdrawals, for knockout odds, simulate and play; pgn: one PGN game per game "
            "played; trf: TRF-16, for knockout standings.",
            callback=lambda v: _choice("--format", ExportFormat, v),
        ),
    ] = ExportFormat.JSON.value,
    table: Annotated[
        str,
        typer.Option(
            "--table",
            help="With --format csv: games (one line per game) or matches (one line per "
            "match: players, seeds, points, winner, how it was decided, withdrawals).",
            callback=lambda v: _choice("--table", ExportTable, v),
        ),
    ] = ExportTable.GAMES.value,
) -> None:
    """Write the event to stdout as JSON, CSV, a scenario file, PGN or TRF-16.

    JSON: {"version", "event", "games": [{"match", "game", "stage", "red", "black", "clock",
    "result" (null until played), "time_used"}], "bids": [{"match", "chooser", "announce",
    "reply"}], "ranking": [{"name", "rank", "points"}], "matches": [{"match", "players",
    "games", "winner", "decided_in", "how", "walkover", "sudden_death_draw", "withdrawn", ...}],
    "withdrawn": [{"name", "match"}], "scenario"}; knockout odds on the file gives what
    knockout event odds gives. In CSV, a text cell that starts like a spreadsheet formula (=,
    +, -, @) gets a leading '.

    Example:

        knockout event export cup.db --format scenario > cup-now.toml

        knockout event export cup.db --format csv --table matches > matches.csv
    """
    from knockout.event.export import (
        to_csv,
        to_json,
        to_scenario_toml,
    )
    from knockout.event.resultfiles import to_pgn, to_trf_text
    from knockout.event.store import load_event

    with user_errors():
        ev = load_event(event)
        if fmt != ExportFormat.CSV and table != ExportTable.GAMES:
            raise KnockoutError(f"--table {table}: only with --format csv, found --format {fmt}")
        if fmt == ExportFormat.JSON:
            emit_json(to_json(ev))
        elif fmt == ExportFormat.CSV:
            sys.stdout.write(to_csv(ev, table))
        elif fmt == ExportFormat.PGN:
            sys.stdout.write(to_pgn(ev))
        elif fmt == ExportFormat.TRF:
            sys.stdout.write(to_trf_text(ev))
        else:
            sys.stdout.write(to_scenario_toml(ev))
