"""``knockout event ...``: organiser mode, a real knockout event kept in one SQLite file."""

from __future__ import annotations

import codecs
import shlex
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from knockout.cli.app import (
    ExportOpt,
    app,
    check_seed,
    emit_json,
    err_console,
    out_console,
    show,
    user_errors,
)
from knockout.errors import KnockoutError
from knockout.i18n import N_, _

if TYPE_CHECKING:  # imported where a command needs it: a fast start
    from knockout.event.decisions import Answer
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
DryRunOpt = Annotated[
    bool,
    typer.Option("--dry-run", help="Check the entry and show what it would record; write nothing."),
]
TimeUsedOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--time-used",
        help="NAME=SECONDS (or NAME=m:ss, NAME=h:mm:ss; minutes and seconds below 60) used on "
        "the clock; once per player. The sudden-death 甲 is the one who used less in the game "
        "before it.",
        show_default=False,
    ),
]
MovesOpt = Annotated[
    int | None,
    typer.Option(
        help="Moves made (each player's), 1 to 1000; bounds the time used: base clock + "
        "increment x moves (default 300 moves).",
        show_default=False,
    ),
]
ResultArg = Annotated[
    str | None,
    typer.Argument(
        help="1-0 (Red won), 0-1 (Black won), 1/2 (draw); or red, black, draw. Or leave it out "
        "and give --winner NAME or --draw.",
        show_default=False,
    ),
]
WinnerOpt = Annotated[
    str | None,
    typer.Option(
        "--winner", help="Who won the game, by name (as the slip says it).", show_default=False
    ),
]
DrawOpt = Annotated[bool, typer.Option("--draw", help="The game was drawn.")]


#: How the draw was seeded, as ``event new`` says it (the scenario's [bracket] seeding).
SEEDINGS = {
    "rating": N_("rating seeding"),
    "given": N_("given seeding"),
    "random": N_("random seeding"),
}


def _command(name: str, *parts: str) -> str:
    """The command line of ``knockout event NAME ...``, as the journal records it."""
    return shlex.join(["knockout", "event", name, *parts])


def _say(text: str | Text) -> None:
    out_console.print(text, markup=False, highlight=False, soft_wrap=True)


def _step_line(event: Event, match_id: str) -> str:
    """What comes next in ``match_id`` (or for its winner) after a change."""
    from knockout.dashboard.event import decision_line, how_decided
    from knockout.dashboard.match import clock_text
    from knockout.event.state import NextGame, PendingDecision
    from knockout.i18n import _
    from knockout.i18n.terms import stage_label

    m = event.find_match(match_id)
    if m.winner is not None:
        line = _("{match} decided: {winner} wins ({how}).").format(
            match=m.id, winner=m.winner, how=how_decided(m)
        )
        following = event.match_of(m.winner)
        if event.finished:
            line += _(" The event is over: champion {champion}.").format(champion=event.champion)
        elif following is not None and following.players is None:
            line += _(" {winner} goes on to {match} (opponent not known yet).").format(
                winner=m.winner, match=following.id
            )
        elif following is not None:
            line += _(" {winner} goes on to {match}.").format(winner=m.winner, match=following.id)
        return line
    step = event.next_step(m)
    if isinstance(step, PendingDecision):
        return decision_line(event, step)
    if isinstance(step, NextGame):
        board = (
            _("waiting for a board")
            if step.board is None
            else _("board {board}").format(board=step.board)
        )
        return _(
            "Next in {match}: game {game} ({stage}), {red} (Red) v {black} (Black), {clock}, "
            "{board}."
        ).format(
            match=m.id,
            game=step.number,
            stage=stage_label(step.stage),
            red=step.red,
            black=step.black,
            clock=clock_text(step.clock, step.increment_seconds),
            board=board,
        )
    return _("{match}: waiting for its players.").format(match=m.id)


def _recorded(entry: Entry, event: Event) -> None:
    from knockout.event.entries import describe

    by_seq = {e.seq: e for e in event.entries}
    _say(_("Recorded #{seq}: {what}").format(seq=entry.seq, what=describe(entry, by_seq)))


def _warn(text: str) -> None:
    err_console.print(
        _("warning: {text}").format(text=text), markup=False, highlight=False, soft_wrap=True
    )


def _preview(entries: tuple[Entry, ...], after: Event, *, dry_run: bool) -> None:
    """The line printed before anything is written: what the entries will record."""
    from knockout.dashboard.event import entry_preview

    for line in entry_preview(entries, after, dry_run=dry_run):
        _say(line)


def _confirm(dry_run: bool) -> Callable[[tuple[Entry, ...], Event], None]:
    def confirm(entries: tuple[Entry, ...], after: Event) -> None:
        _preview(entries, after, dry_run=dry_run)

    return confirm


def _after_game(entry: Entry, event: Event) -> None:
    """The warning when the game that decides 甲 of the sudden death has not both times."""
    from knockout.dashboard.event import chooser_warning

    warning = chooser_warning(entry, event)
    if warning is not None:
        _warn(warning)


def _dry_run_done() -> None:
    _say(_("Nothing written (--dry-run)."))


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
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="The event's seed (colour lots, and a random draw without its own draw_seed), "
            "0 or more; default: drawn at random and printed.",
            show_default=False,
            callback=check_seed,
        ),
    ] = None,
) -> None:
    """Create the event file from a scenario and (optionally) a CSV entry list.

    Seeds the bracket by the scenario's \\[bracket] rule (rating, given seeds, or a random draw
    whose seed is recorded), records the event's seed for colour lots, and lists the first games.
    Games already played and withdrawals in the scenario become the first journal entries.
    With --lang (or KNOCKOUT_LANG) the event keeps that language as its own: every organiser
    command on the file speaks it unless the run names another.

    Example:

        knockout event new cup.db --scenario cup.toml --players players.csv --seed 2026 --lang zh
    """
    from knockout.dashboard.event import next_view
    from knockout.event.store import create_event
    from knockout.i18n import language_asked, ngettext

    parts = [str(event), "--scenario", str(scenario)]
    parts += [] if players is None else ["--players", str(players)]
    parts += [] if encoding is None else ["--encoding", encoding]
    parts += [] if seed is None else ["--seed", str(seed)]
    with user_errors():
        ev = create_event(
            event,
            scenario,
            players_path=players,
            encoding=encoding,
            command=_command("new", *parts),
            seed=seed,
            language=language_asked(),
        )
        bracket = ev.scenario.bracket
        draw = _(SEEDINGS.get(bracket.seeding, "{seeding} seeding")).format(seeding=bracket.seeding)
        if bracket.seeding == "random":
            draw += _(", draw seed {seed}").format(seed=bracket.draw_seed)
        n, rounds = len(ev.base.players), ev.rounds
        _say(
            _(
                "Created {file}: {name}, {players} ({draw}), {rounds}{third}; event seed {seed} "
                "(colour lots)."
            ).format(
                file=event,
                name=ev.name,
                players=ngettext("{n} player", "{n} players", n).format(n=n),
                draw=draw,
                rounds=ngettext("{n} round", "{n} rounds", rounds).format(n=rounds),
                third=_(", third-place match") if ev.third_place else "",
                seed=ev.seed,
            )
        )
        out_console.print(next_view(ev))


@event_app.command("next")
def next_games(event: EventArg, json_out: JsonOpt = False) -> None:
    """The games that can be played now, and the decisions to ask for.

    For each game: board, colours and clocks. For a match at its sudden-death game: who is 甲
    (from the recorded time used), what to ask, and the command that records the bid; at a game
    whose colours a player chooses, who chooses and the command that records it. Each match
    shows its next game only. Players with a bye are listed with the match they wait for.
    JSON: {"version", "games": [{"match", "game", "stage", "red", "black", "clock",
    "board"}], "bids": [{"match", "chooser", "bidder"}], "decisions": [{"match", "game",
    "kind", "chooser"}], "byes": [{"player", "match"}], "finished", "champion"}: a game whose
    decision is still open is in games with red and black null (and clock null before a bid,
    sealed bids or a cut); kind is bid, choice, sealed-bid or cut; chooser is who decides first
    (甲, the chooser, the cutter), null when a lot must name them (and for sealed bids, where
    both players bid).

    Example:

        knockout event next cup.db --json
    """
    from knockout.dashboard.event import next_view, waiting_byes
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
                "byes": [{"player": n, "match": m} for n, m in waiting_byes(ev)],
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
    result: ResultArg = None,
    winner: WinnerOpt = None,
    draw: DrawOpt = False,
    time_used: TimeUsedOpt = None,
    moves: MovesOpt = None,
    dry_run: DryRunOpt = False,
) -> None:
    """Record a game's result: RESULT (Red's score first), or --winner NAME, or --draw.

    It must be the match's next game (see knockout event next), with the colours listed there.
    Before writing, one line says what is recorded: the winner, the colours and the stage
    (--dry-run: only that line). A game that already has a result is refused: correct it with
    knockout event correct. Time used above the base clock plus the increment for every move
    is refused; the game that decides 甲 of a sudden death recorded without both times gets a
    warning.

    Example:

        knockout event record cup.db R1-M3 1 --winner 王天一 --time-used 王天一=40:00

        knockout event record cup.db R1-M3 1 1-0 --time-used 郑惟桐=45:10 --dry-run
    """
    from knockout.event.store import record_game

    times = list(time_used or [])
    parts = [str(event), match, str(game)] + ([] if result is None else [result])
    parts += [] if winner is None else ["--winner", winner]
    parts += ["--draw"] if draw else []
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
            winner=winner,
            draw=draw,
            command=_command("record", *parts),
            confirm=_confirm(dry_run),
            dry_run=dry_run,
        )
        if dry_run:
            _dry_run_done()
            _after_game(entry, ev)
            return
        _recorded(entry, ev)
        assert entry.match is not None
        _say(_step_line(ev, entry.match))
        _after_game(entry, ev)


@event_app.command("correct")
def correct(
    event: EventArg,
    match: MatchArg,
    game: Annotated[int, typer.Argument(help="The game to correct, from 1.", show_default=False)],
    result: ResultArg = None,
    winner: WinnerOpt = None,
    draw: DrawOpt = False,
    time_used: TimeUsedOpt = None,
    moves: MovesOpt = None,
    cascade: Annotated[
        bool,
        typer.Option(
            "--cascade",
            help="Also undo the later entries the correction invalidates (they are listed).",
        ),
    ] = False,
    dry_run: DryRunOpt = False,
) -> None:
    """Correct the result of a game already recorded (and its times or moves).

    A new journal entry replaces the game's result in place; the times and moves not given are
    kept. Only that game changes: the entries after it stay as they are. A correction that
    would invalidate later entries (the match went on past a decision the correction changes,
    or a later round used the winner) is refused, naming exactly those entries; with --cascade
    they are undone too, in the same write, and listed.

    Example:

        knockout event correct cup.db R1-M3 1 0-1 --time-used "Li Ming=41:20"
    """
    from knockout.event.store import correct_game

    times = list(time_used or [])
    parts = [str(event), match, str(game)] + ([] if result is None else [result])
    parts += [] if winner is None else ["--winner", winner]
    parts += ["--draw"] if draw else []
    parts += [f"--time-used={t}" for t in times]
    parts += [] if moves is None else ["--moves", str(moves)]
    parts += ["--cascade"] if cascade else []
    with user_errors():
        entries, ev = correct_game(
            event,
            match,
            game,
            result,
            time_used=times,
            moves=moves,
            winner=winner,
            draw=draw,
            cascade=cascade,
            command=_command("correct", *parts),
            confirm=_confirm(dry_run),
            dry_run=dry_run,
        )
        if dry_run:
            _dry_run_done()
            _after_game(entries[-1], ev)
            return
        _written(entries, ev)
        _after_game(entries[-1], ev)


def _written(entries: tuple[Entry, ...], event: Event) -> None:
    """The lines after a change of several entries (a cascade's undos, then the change)."""
    from knockout.event.entries import describe

    by_seq = {e.seq: e for e in event.entries}
    for e in entries:
        target = by_seq.get(e.undoes or 0)
        if target is not None and target.kind == "undo" and target.undoes is not None:
            _say(
                _("Restored #{restored} (entry #{seq} undoes #{undone}): {what}").format(
                    restored=target.undoes,
                    seq=e.seq,
                    undone=target.seq,
                    what=describe(by_seq[target.undoes], by_seq),
                )
            )
        elif e.kind == "undo" and e.undoes is not None:
            _say(
                _("Undid #{undone} (entry #{seq}): {what}").format(
                    undone=e.undoes, seq=e.seq, what=describe(by_seq[e.undoes], by_seq)
                )
            )
        else:
            _recorded(e, event)
    last = entries[-1]
    matches = dict.fromkeys(
        m for m in [last.match, *(e.match for e in entries[:-1])] if m is not None
    )
    for m in matches:
        _say(_step_line(event, m))


def _decide(event: Path, match: str, answer: Answer, command: str) -> None:
    """Record a decision the players made (whatever its kind: one path) and say what comes
    next."""
    from knockout.event.store import record_decision

    with user_errors():
        entry, ev = record_decision(event, match, answer, command=command)
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
    from knockout.event.decisions import bid_answer

    parts = [str(event), match, "--announce", announce, "--reply", reply]
    parts += [] if chooser is None else ["--chooser", chooser]
    _decide(event, match, bid_answer(announce, reply, chooser), _command("bid", *parts))


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
    from knockout.event.decisions import choice_answer

    parts = [str(event), match, colour]
    parts += [] if chooser is None else ["--chooser", chooser]
    _decide(event, match, choice_answer(colour, chooser), _command("choose", *parts))


@event_app.command("sealed")
def sealed(
    event: EventArg,
    match: MatchArg,
    bids: Annotated[
        list[str],
        typer.Option(
            "--bid",
            help="NAME=MINUTES: the minutes that player would take as Black (a real number); "
            "once per player.",
            show_default=False,
        ),
    ],
    lot_black: Annotated[
        str | None,
        typer.Option(
            "--lot-black",
            help="With equal bids: the player the arbiter's lot gives Black (refused when the "
            "bids differ).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Record the sealed Armageddon bids of a match (armageddon-bid, armageddon-vickrey).

    Each player writes the minutes they would accept as Black; the lower bid plays Black
    against Red's fixed clock, on its own time (first price) or on the higher bid's time
    (second price, Vickrey). Bids run from the stage's min_black_minutes to Red's minutes;
    equal bids are settled by the arbiter's lot (--lot-black). Undo it like any entry.

    Example:

        knockout event sealed cup.db R1-M1 --bid 王天一=6.5 --bid 郑惟桐=8
    """
    from knockout.event.decisions import sealed_answer

    parts = [str(event), match, *(f"--bid={b}" for b in bids)]
    parts += [] if lot_black is None else ["--lot-black", lot_black]
    _decide(event, match, sealed_answer(list(bids), lot_black), _command("sealed", *parts))


@event_app.command("cut")
def cut(
    event: EventArg,
    match: MatchArg,
    red_minutes: Annotated[
        str,
        typer.Option(
            "--red-minutes",
            help="Red's base minutes the cutter names (a real number, kept as given).",
            show_default=False,
        ),
    ],
    colour: Annotated[
        str,
        typer.Option(
            "--colour",
            help="The colour the other player chooses: red or black.",
            show_default=False,
        ),
    ],
    cutter: Annotated[
        str | None,
        typer.Option(
            "--cutter",
            help="Who cut, when the previous game's times do not say (or the rule is a lot): "
            "the arbiter's lot.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Record a cut-and-choose decision (cut-choose): the cutter names Red's base minutes
    against Black's fixed clock, and the other player picks the colour.

    The cutter is who used less time in the previous game (as recorded); if those times were
    not recorded or were equal, or the rule is a lot, give --cutter (the arbiter's lot). The
    game is then played on Red's named minutes v Black's clock. Undo it like any entry.

    Example:

        knockout event cut cup.db R1-M1 --red-minutes 17.5 --colour black
    """
    from knockout.event.decisions import cut_answer

    parts = [str(event), match, "--red-minutes", red_minutes, "--colour", colour]
    parts += [] if cutter is None else ["--cutter", cutter]
    _decide(event, match, cut_answer(red_minutes, colour, cutter), _command("cut", *parts))


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
    every second; readers never block the arbiters' writes). If the file is away for a moment
    (a USB stick remounting), it says so and waits for it.

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
            raise KnockoutError(_("--export saves one view: use it without --live"))
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
    from knockout.answers import BracketOdds
    from knockout.dashboard.bracket import reach_view
    from knockout.dashboard.match import odds_view
    from knockout.event.odds import event_odds, odds_json
    from knockout.event.store import load_event

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
def undo_last(
    event: EventArg,
    match: Annotated[
        str | None,
        typer.Option(
            "--match",
            help="Take back this match's last entry only (R1-M3), not the last of the event.",
            show_default=False,
        ),
    ] = None,
    cascade: Annotated[
        bool,
        typer.Option(
            "--cascade",
            help="With --match: also undo the later entries that depend on it (listed).",
        ),
    ] = False,
    dry_run: DryRunOpt = False,
) -> None:
    """Reverse the last entry still in force, or (--match) one match's last entry.

    The undo is itself a journal entry. Without --match it takes back the event's last entry,
    whichever terminal wrote it; with --match MATCH only that match's, so another arbiter's
    entries for other boards stay. If later entries depend on it (a later round used the
    winner), the undo is refused naming them, unless --cascade. To change an earlier result,
    correct it instead (knockout event correct).

    Example:

        knockout event undo cup.db --match R1-M3
    """
    from knockout.event.store import undo_entries

    parts = [str(event)] + ([] if match is None else ["--match", match])
    parts += ["--cascade"] if cascade else []
    with user_errors():
        if cascade and match is None:
            raise KnockoutError(_("--cascade goes with --match (the last entry has none after it)"))
        entries, ev = undo_entries(
            event,
            command=_command("undo", *parts),
            match=match,
            cascade=cascade,
            confirm=_confirm(dry_run),
            dry_run=dry_run,
        )
        if dry_run:
            _dry_run_done()
            return
        _written(entries, ev)


@event_app.command("amend")
def amend(
    event: EventArg,
    name: Annotated[
        str, typer.Argument(help="The player, as the event has them.", show_default=False)
    ],
    new_name: Annotated[
        str | None,
        typer.Option("--name", help="The name as it should be spelt.", show_default=False),
    ] = None,
    rating: Annotated[
        str | None,
        typer.Option("--rating", help="Classical rating (0 to 4000).", show_default=False),
    ] = None,
    rating_rapid: Annotated[
        str | None, typer.Option("--rating-rapid", help="Rapid rating.", show_default=False)
    ] = None,
    rating_blitz: Annotated[
        str | None, typer.Option("--rating-blitz", help="Blitz rating.", show_default=False)
    ] = None,
    federation: Annotated[
        str | None,
        typer.Option("--federation", help="Federation, club or province.", show_default=False),
    ] = None,
    dry_run: DryRunOpt = False,
) -> None:
    """Correct a player's name, ratings or federation (a late change at check-in).

    Before the player's first game anything may change; after it, only what cannot change a
    recorded result: the name's spelling and the federation (a rating is refused). The draw
    stays as it was made: a rating that would seed it differently leaves the pairings, match
    IDs and boards where they are. A new name is checked like the entry list's.

    Example:

        knockout event amend cup.db "Chen Hoa" --name "Chen Hao" --rating 2561
    """
    from knockout.event.store import amend_player

    ratings = {"rating": rating, "rating_rapid": rating_rapid, "rating_blitz": rating_blitz}
    parts = [str(event), name]
    for flag, value in (
        ("--name", new_name),
        ("--rating", rating),
        ("--rating-rapid", rating_rapid),
        ("--rating-blitz", rating_blitz),
        ("--federation", federation),
    ):
        parts += [] if value is None else [flag, value]
    with user_errors():
        entry, ev = amend_player(
            event,
            name,
            new_name=new_name,
            ratings=ratings,
            federation=federation,
            command=_command("amend", *parts),
            confirm=_confirm(dry_run),
            dry_run=dry_run,
        )
        if dry_run:
            _dry_run_done()
            return
        _recorded(entry, ev)
        _pinned_note(ev, entry)


def _pinned_note(event: Event, entry: Entry) -> None:
    if event.pinned and any(k.startswith("rating") for k in entry.fields):
        _say(
            _(
                "The draw stays as it was made (seeds pinned): the changed rating does not move "
                "any pairing."
            )
        )


@event_app.command("replace")
def replace_player(
    event: EventArg,
    out: Annotated[
        str,
        typer.Argument(
            metavar="OUT", help="The player who is out (has not played).", show_default=False
        ),
    ],
    reserve: Annotated[
        str,
        typer.Argument(metavar="IN", help="The reserve who takes their place.", show_default=False),
    ],
    rating: Annotated[
        str,
        typer.Option(
            "--rating", help="The reserve's classical rating (0 to 4000).", show_default=False
        ),
    ],
    rating_rapid: Annotated[
        str | None, typer.Option("--rating-rapid", help="Rapid rating.", show_default=False)
    ] = None,
    rating_blitz: Annotated[
        str | None, typer.Option("--rating-blitz", help="Blitz rating.", show_default=False)
    ] = None,
    federation: Annotated[
        str | None,
        typer.Option("--federation", help="The reserve's federation.", show_default=False),
    ] = None,
    dry_run: DryRunOpt = False,
) -> None:
    """Replace a no-show by a reserve, before the no-show's first game.

    The reserve takes the same line of the draw: the same match, colours by the same lot, the
    same board. A player who has played cannot be replaced (a player who leaves withdraws:
    knockout event withdraw; a no-show can also withdraw, and the opponent goes through by
    walkover).

    Example:

        knockout event replace cup.db "Zhang Wei" "Liu Yang" --rating 2380
    """
    from knockout.event.store import replace_player as replace_in_event

    ratings = {"rating": rating, "rating_rapid": rating_rapid, "rating_blitz": rating_blitz}
    parts = [str(event), out, reserve, "--rating", rating]
    for flag, value in (
        ("--rating-rapid", rating_rapid),
        ("--rating-blitz", rating_blitz),
        ("--federation", federation),
    ):
        parts += [] if value is None else [flag, value]
    with user_errors():
        entry, ev = replace_in_event(
            event,
            out,
            reserve,
            ratings=ratings,
            federation=federation,
            command=_command("replace", *parts),
            confirm=_confirm(dry_run),
            dry_run=dry_run,
        )
        if dry_run:
            _dry_run_done()
            return
        _recorded(entry, ev)
        _pinned_note(ev, entry)
        m = ev.match_of(str(entry.fields["name"]))
        if m is not None:
            _say(_step_line(ev, m.id))


@event_app.command("check")
def check(
    event: EventArg,
    salvage: Annotated[
        Path | None,
        typer.Option(
            "--salvage",
            help="Write what a damaged file still holds as a scenario file (TOML), from which "
            "knockout event new carries the event on.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Check the event file: SQLite's full integrity check, the journal and its replay.

    Writing commands run SQLite's quick check each time and refuse a damaged file; this runs
    the full one. A sound file: one line, exit 0. A damaged one: what is wrong (exit 2); with
    --salvage FILE the games and withdrawals that can still be read are saved as a scenario.

    Example:

        knockout event check cup.db --salvage rescue.toml
    """
    from knockout.event.database import file_health
    from knockout.event.store import load_event
    from knockout.i18n import ngettext

    with user_errors():
        health = file_health(event)
        if salvage is not None:
            _salvage(event, salvage)
        if not health.sound:
            raise KnockoutError(_damage_line(str(event), health))
        ev = load_event(event)
        games = len(ev.games)
        _say(
            ngettext(
                "{file}: sound: integrity check ok, schema {version}, {n} journal entry "
                "numbered 1 to {n} without gaps, replayed through the rules ({games}).",
                "{file}: sound: integrity check ok, schema {version}, {n} journal entries "
                "numbered 1 to {n} without gaps, replayed through the rules ({games}).",
                health.entries,
            ).format(
                file=event,
                version=health.version,
                n=health.entries,
                games=ngettext("{n} game in force", "{n} games in force", games).format(n=games),
            )
            + _unchecked_note(health.unchecked, health.entries)
        )


def _unchecked_note(unchecked: int, entries: int) -> str:
    """What ``check`` says of entries written before checksums (schema 5)."""
    from knockout.i18n import ngettext

    if not unchecked:
        return _(" Every entry's checksum checks out.")
    text = ngettext(
        " {n} entry written before checksums (schema 5) is checked against its schema only;",
        " {n} entries written before checksums (schema 5) are checked against their schema only;",
        unchecked,
    ).format(n=unchecked)
    return text + _(" the {n} after them carry checksums, all right.").format(n=entries - unchecked)


def _salvage(event: Path, salvage: Path) -> None:
    """``check --salvage FILE``: save what can be read as a scenario, and say so."""
    from knockout.event.export import to_scenario_toml
    from knockout.event.store import salvage as salvage_file
    from knockout.i18n import ngettext

    if salvage.exists():
        raise KnockoutError(
            _("{file}: already exists: choose another file name").format(file=salvage)
        )
    rescue = salvage_file(event)
    ev = rescue.event
    try:
        salvage.write_text(to_scenario_toml(ev), encoding="utf-8")
    except OSError as exc:
        raise KnockoutError(
            _("{file}: cannot write: {why}").format(file=salvage, why=exc.strerror)
        ) from None
    kept = len(ev.entries)
    parts = [
        ngettext("Salvaged {n} journal entry", "Salvaged {n} journal entries", kept).format(n=kept)
        + " ("
        + ngettext("{n} game in force", "{n} games in force", len(ev.games)).format(n=len(ev.games))
    ]
    if rescue.damaged:
        numbers = ", ".join(f"#{d.seq}" for d in rescue.damaged)
        parts.append(_("damaged: {numbers}").format(numbers=numbers))
    if rescue.lost:
        parts.append(
            _("unreadable: {numbers}").format(numbers=", ".join(f"#{n}" for n in rescue.lost))
        )
    if rescue.left_out:
        numbers = ", ".join(f"#{n}" for n in rescue.left_out)
        parts.append(_("left out as they depend on them: {numbers}").format(numbers=numbers))
    if rescue.header_damage is not None:
        parts.append(rescue.header_damage.line())
    _say(
        "; ".join(parts)
        + ") "
        + _(
            "into {file}; carry on with the event's seed: knockout event new NEW.db "
            "--scenario {file} --seed {seed}"
        ).format(file=salvage, seed=ev.seed)
    )


def _damage_line(source: str, health: object) -> str:
    from knockout.event.database import FileHealth

    assert isinstance(health, FileHealth)
    from knockout.i18n import ngettext

    parts = []
    if health.pages:
        more = _(" (and {n} more)").format(n=len(health.pages) - 1) if len(health.pages) > 1 else ""
        parts.append(
            _("SQLite's integrity check finds: {problem}{more}").format(
                problem=health.pages[0], more=more
            )
        )
    if health.foreign_keys:
        parts.append(
            ngettext("{n} broken reference", "{n} broken references", health.foreign_keys).format(
                n=health.foreign_keys
            )
        )
    if health.gaps:
        parts.append(
            _("journal entries missing: {entries}").format(
                entries=", ".join(f"#{n}" for n in health.gaps[:10])
            )
        )
    parts += [f"{d.where}: {d.what}" for d in health.damaged[:10]]
    if len(health.damaged) > 10:
        parts.append(
            ngettext(
                "and {n} more damaged entry",
                "and {n} more damaged entries",
                len(health.damaged) - 10,
            ).format(n=len(health.damaged) - 10)
        )
    return _(
        "{file}: damaged: {problems}. Save what can be read: knockout event check {file} "
        "--salvage RESCUE.toml, then knockout event new NEW.db --scenario RESCUE.toml"
    ).format(file=source, problems=_("; ").join(parts))


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
            _("error: {problem}").format(
                problem=_("{option}: expected {allowed} or {last}, found {value}").format(
                    option=option,
                    allowed=", ".join(allowed[:-1]),
                    last=allowed[-1],
                    value=repr(value),
                )
            ),
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
    encoding: Annotated[
        str,
        typer.Option(
            "--encoding",
            help="With --format csv: the text encoding: utf-8; utf-8-sig (UTF-8 with a byte "
            "order mark, for spreadsheet programs on Chinese Windows, which otherwise read "
            "UTF-8 as the local code page); gb18030.",
        ),
    ] = "utf-8",
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
            raise KnockoutError(
                _("--table {table}: only with --format csv, found --format {fmt}").format(
                    table=table, fmt=fmt
                )
            )
        if fmt != ExportFormat.CSV and encoding != "utf-8":
            raise KnockoutError(
                _("--encoding {encoding}: only with --format csv, found --format {fmt}").format(
                    encoding=encoding, fmt=fmt
                )
            )
        if fmt == ExportFormat.JSON:
            emit_json(to_json(ev))
        elif fmt == ExportFormat.CSV:
            data = _encoded(to_csv(ev, table), encoding)
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        elif fmt == ExportFormat.PGN:
            sys.stdout.write(to_pgn(ev))
        elif fmt == ExportFormat.TRF:
            sys.stdout.write(to_trf_text(ev))
        else:
            sys.stdout.write(to_scenario_toml(ev))


#: The encodings a CSV export is written in (``--encoding``).
CSV_ENCODINGS = ("utf-8", "utf-8-sig", "gb18030")


def _encoded(text: str, encoding: str) -> bytes:
    """``text`` in ``encoding`` (one of CSV_ENCODINGS, in any spelling Python knows)."""
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        name = ""
    known = {codecs.lookup(e).name: e for e in CSV_ENCODINGS}
    if name not in known:
        raise KnockoutError(
            _("--encoding: expected one of {choices}, found {found}").format(
                choices=", ".join(CSV_ENCODINGS), found=repr(encoding)
            )
        )
    return text.encode(known[name])
