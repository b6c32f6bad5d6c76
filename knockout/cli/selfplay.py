"""``knockout selfplay``: a Xiangqi engine against itself, written as games ``calibrate`` reads."""

from __future__ import annotations

import shlex
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from knockout.cli.app import app, check_seed, err_console, fresh_seed, user_errors
from knockout.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Callable

    from knockout.selfplay import Progress, RunSummary

__all__ = ["selfplay"]

_HELP = """Play a Xiangqi engine against itself under node, move-time or clock budgets, with odds
between the sides, and write the games as the CSV file `knockout calibrate` reads.

Give one budget: --nodes N (nodes a move), --movetime MS (milliseconds a move) or --clock
RED/BLACK+INC (each side's base clock and the increment, in seconds). --odds R:B (repeatable)
multiplies the node or move-time budget: 2:1 at 4000 nodes is Red 8000 against Black 4000. Every
opening (its first plies drawn with the seed among the engine's best moves) is played once with
every odds and with its colours swapped (2:1 brings 1:2). Games end by the rules (checkmate and
stalemate lose, perpetual check and chasing as pyffish implements them, repetition and material
draws, and the move rule: 60 moves each without a capture by the Chinese rules, --move-rule 50
for the library's own), by the engine's score held for several plies, or at the move cap; the
reason is in the detail file. Contempt is set to 0.

Writes GAMES.csv (calibration rows: equal ratings, the --time-class stated, the budgets as clocks
in their ratio), GAMES-detail.csv (one row a game: opening, moves in UCI, result, reason,
budgets) and GAMES-run.json (engine, settings, dates, CPU time). Interrupted, it keeps the
finished games; the same command again plays the rest. Needs the engine (Debian: apt-get install
fairy-stockfish) and pip install 'knockout\\[selfplay]'. See docs/selfplay.md.

[bold]Example[/bold]:

    knockout selfplay --nodes 2000 --odds 2:1 --games 300 --seed 1 --out g.csv"""


def _budget(
    nodes: int | None, movetime: int | None, clock: str | None, odds: list[str] | None
) -> tuple:  # type: ignore[type-arg]
    """The pairings for the one budget given.

    Raises:
        InputError: For none or more than one budget, or a bad value.
    """
    from knockout.selfplay import pairings, parse_clock, parse_odds

    given = [
        name
        for name, v in (("--nodes", nodes), ("--movetime", movetime), ("--clock", clock))
        if v is not None
    ]
    if len(given) != 1:
        found = ", ".join(given) if given else "none"
        raise InputError.single(
            "budget", "", f"expected exactly one of --nodes, --movetime, --clock; got {found}"
        )
    parsed = [parse_odds(o) for o in odds or []]
    if clock is not None:
        return pairings("clock", parse_clock(clock), parsed)
    if nodes is not None:
        return pairings("nodes", float(nodes), parsed)
    assert movetime is not None
    return pairings("movetime", float(movetime), parsed)


def _progress() -> tuple[Callable[[Progress], None], Callable[[], None]]:
    """The progress callback (a line redrawn on a terminal, a line a minute in a log) and a
    function that ends the redrawn line."""
    from knockout.dashboard.times import duration

    terminal = err_console.is_terminal
    last = [0.0]

    def show(p: Progress) -> None:
        now = time.monotonic()
        final = p.done >= p.total
        if not terminal and not final and now - last[0] < 60:
            return
        if terminal and not final and now - last[0] < 0.5:
            return
        last[0] = now
        if p.phase == "openings":
            text = f"drawing openings: {p.done:,} of {p.total:,}"
        else:
            rate = "" if p.games_per_minute is None else f", {p.games_per_minute:.1f} games/min"
            left = "" if p.seconds_left is None else f", about {duration(p.seconds_left)} left"
            resumed = f" ({p.resumed:,} from an earlier session)" if p.resumed else ""
            text = f"played {p.done:,} of {p.total:,} games{resumed}{rate}{left}"
        if terminal:
            sys.stderr.write("\r\x1b[2K" + text)
            sys.stderr.flush()
        else:
            err_console.print(text, markup=False, soft_wrap=True)

    def end() -> None:
        if terminal:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()

    return show, end


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM handler: raise KeyboardInterrupt in the main thread."""
    raise KeyboardInterrupt


def _report(summary: RunSummary) -> None:
    c = summary.counts
    reasons = ", ".join(
        f"{k} {v}" for k, v in sorted(summary.reasons.items(), key=lambda kv: -kv[1])
    )
    rate = "" if summary.games_per_minute is None else f", {summary.games_per_minute:.1f} games/min"
    lines = [
        f"{summary.games:,} games in {summary.out} (Red {c['red']}, draws {c['draw']}, "
        f"Black {c['black']}); details in {summary.detail}, provenance in {summary.provenance}",
        f"this session: {summary.played:,} games in {summary.wall_seconds:.0f} s{rate}; "
        f"CPU: engines "
        f"{summary.engine_cpu_seconds:.0f} s, referee {summary.own_cpu_seconds:.0f} s",
    ]
    if reasons:
        lines.append(f"endings: {reasons}")
    for line in lines:
        err_console.print(line, markup=False, soft_wrap=True)


@app.command(name="selfplay", help=_HELP)
def selfplay(
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            metavar="GAMES.csv",
            help="The calibration file to write (the detail and provenance files go beside it).",
            show_default=False,
        ),
    ],
    games: Annotated[int, typer.Option("--games", help="Games in the run.", show_default=False)],
    engine: Annotated[
        str | None,
        typer.Option(
            "--engine",
            metavar="PATH",
            help="The UCI engine (default: fairy-stockfish on the PATH or in /usr/games).",
            show_default=False,
        ),
    ] = None,
    nodes: Annotated[
        int | None, typer.Option("--nodes", metavar="N", help="Nodes a move.", show_default=False)
    ] = None,
    movetime: Annotated[
        int | None,
        typer.Option("--movetime", metavar="MS", help="Milliseconds a move.", show_default=False),
    ] = None,
    clock: Annotated[
        str | None,
        typer.Option(
            "--clock",
            metavar="RED/BLACK+INC",
            help="Base clocks and increment in seconds, e.g. 3.6/1.2+0.02.",
            show_default=False,
        ),
    ] = None,
    odds: Annotated[
        list[str] | None,
        typer.Option(
            "--odds",
            metavar="R:B",
            help="Red's and Black's multiples of the node or "
            "move-time budget (repeatable; default 1:1; the colour swap is added).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            callback=check_seed,
            help="Seeds the openings (default: fresh, reported).",
            show_default=False,
        ),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", help="Games at once (two engine processes each).")
    ] = 1,
    time_class: Annotated[
        str, typer.Option("--time-class", help="The class the calibration file states.")
    ] = "rapid",
    opening_plies: Annotated[
        int, typer.Option("--opening-plies", help="Half-moves of each opening drawn at random.")
    ] = 6,
    resign_cp: Annotated[
        int, typer.Option("--resign-cp", help="Score (centipawns) that adjudicates a win ...")
    ] = 1000,
    resign_plies: Annotated[
        int,
        typer.Option(
            "--resign-plies", help="... held by both engines for this many half-moves (0: never)."
        ),
    ] = 8,
    max_plies: Annotated[
        int, typer.Option("--max-plies", help="The move cap in half-moves: a draw there.")
    ] = 400,
    move_rule: Annotated[
        int,
        typer.Option(
            "--move-rule",
            help="Moves of each side without a capture that draw a game: 60 (the Chinese "
            "rules) or 50 (the rules library's own).",
        ),
    ] = 60,
) -> None:
    """Engine self-play (see the help text above)."""
    with user_errors():
        from knockout.selfplay import (
            Adjudication,
            OpeningConfig,
            SelfPlayConfig,
            find_engine,
            play,
        )
        from knockout.selfplay.adjudicate import load_pyffish

        load_pyffish()
        path = find_engine(engine)
        config = SelfPlayConfig(
            engine=path,
            pairings=_budget(nodes, movetime, clock, odds),
            games=games,
            seed=fresh_seed() if seed is None else seed,
            jobs=jobs,
            time_class=time_class,
            openings=OpeningConfig(plies=opening_plies),
            adjudication=Adjudication(resign_cp, resign_plies, max_plies, move_rule),
        )
        if seed is None:
            err_console.print(f"seed {config.seed}", markup=False)
        command = shlex.join(["knockout", *sys.argv[1:]])
        show, end = _progress()
        # A kill (SIGTERM) stops the run as Ctrl-C does: engines stopped, finished games kept.
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            summary = play(config, out, progress=show, command=command)
        except KeyboardInterrupt:
            end()
            err_console.print(
                f"interrupted: the finished games are kept in {out}; run the same command to "
                "play the rest",
                markup=False,
                soft_wrap=True,
            )
            raise typer.Exit(130) from None
        except BaseException:
            end()
            raise
        finally:
            signal.signal(signal.SIGTERM, previous)
        end()
        _report(summary)
