"""``knockout games``: real game records read into a table, summarised and set beside the seeds."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from knockout.cli.app import app, emit_json, err_console, out_console, user_errors
from knockout.errors import InputError, KnockoutError

__all__ = ["games_app"]

games_app = typer.Typer(
    name="games",
    help="Real games: import records (PGN files, folders, archives) into one table of games, "
    "summarise it, and set the seeds' figures beside it. The table of the Chinese Chess "
    "Practical Dataset's master and engine games ships with knockout (Yu-Han Tseng, CC BY 4.0; "
    "docs/games.md).\n\n"
    "Example:\n\n"
    "    knockout games summary --by year\n\n"
    "    knockout games import games.tar.xz --out games.csv.xz",
    no_args_is_help=True,
    rich_markup_mode="rich",
)
app.add_typer(games_app, name="games")

_IMPORT_HELP = (
    "Import Xiangqi game records into one table of games (CSV; compressed by the name's suffix, "
    ".xz or .gz)."
    "\n\n"
    "SOURCE is a PGN file, a folder of them or an archive (.tar.xz, .tar.gz, .tar, .zip), in "
    "UTF-8, GB18030 or Big5 (read from each file's content). Moves in Chinese notation "
    "(traditional or simplified, any digits), WXF or ICCS are replayed by the rules library "
    "pyffish; copies of a game (the same players, date and moves) become one row listing every "
    "source. The report says what was kept, refused (one line each) and merged. "
    "See docs/games.md."
    "\n\n"
    "[bold]Example[/bold]:"
    "\n\n"
    "knockout games import games.tar.xz --out games.csv.xz"
)


def _read_lines(path: Path) -> list[str]:
    from knockout.io.text import read_text

    return [line.strip() for line in read_text(path).splitlines() if line.strip()]


@games_app.command(name="import", help=_IMPORT_HELP)
def import_(
    sources: Annotated[
        list[Path],
        typer.Argument(
            metavar="SOURCE...", help="PGN files, folders or archives.", show_default=False
        ),
    ],
    out: Annotated[
        Path,
        typer.Option("--out", metavar="GAMES.csv", help="The table to write.", show_default=False),
    ],
    classical_events: Annotated[
        Path | None,
        typer.Option(
            "--classical-events",
            metavar="FILE",
            help="Events known to be played at a slow clock, one a line: their unmarked games "
            "are classical (else unknown).",
            show_default=False,
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the import report as JSON on stdout.")
    ] = False,
) -> None:
    """Import game records (see the help text above)."""
    from knockout.corpus.bundle import header
    from knockout.corpus.importer import import_games
    from knockout.corpus.table import write_table
    from knockout.dashboard.games import import_progress, import_view
    from knockout.io.envelope import envelope

    with user_errors():
        events = _read_lines(classical_events) if classical_events is not None else []
        if not out.parent.is_dir():
            raise KnockoutError(f"--out: the folder {str(out.parent)!r} does not exist")
        bar, update = import_progress(err_console)
        with bar:
            imported = import_games(sources, classical_events=events, progress=update)
        if not imported.rows:
            problems = imported.report.refused
            if problems:
                raise InputError(problems)
            raise KnockoutError("no game found in the sources")
        try:
            write_table(out, imported.rows, header(imported.rows))
        except OSError as exc:
            raise KnockoutError(f"--out: cannot write {str(out)!r}: {exc.strerror}") from None
        if json_out:
            emit_json(envelope(imported.report.to_json()))
        else:
            out_console.print(import_view(imported.report, str(out)))


_GAMES_OPTION_HELP = (
    "The games table (default: the bundled table of the Chinese Chess Practical Dataset)."
)


def _load(games: Path | None) -> tuple[list, str]:  # type: ignore[type-arg]
    from knockout.corpus.bundle import BUNDLED, bundled_games
    from knockout.corpus.table import read_table

    if games is None:
        return bundled_games(), BUNDLED.name
    return read_table(games), str(games)


@games_app.command(name="summary")
def summary(
    games: Annotated[
        Path | None,
        typer.Argument(metavar="[GAMES.csv]", help=_GAMES_OPTION_HELP, show_default=False),
    ] = None,
    by: Annotated[
        str,
        typer.Option("--by", help="Group by time_class, year or event (its name up to a space)."),
    ] = "time_class",
    json_out: Annotated[bool, typer.Option("--json", help="Write JSON to stdout.")] = False,
) -> None:
    """Counts and Red-win / draw / Black-win shares with standard errors, by group (games with a
    result; see docs/games.md).

    Example:

        knockout games summary --by event
    """
    from knockout.corpus.summary import GROUPINGS, summarise
    from knockout.dashboard.games import summary_view
    from knockout.io.envelope import envelope

    with user_errors():
        if by not in GROUPINGS:
            raise InputError.single("--by", "", f"expected {', '.join(GROUPINGS)}, got {by!r}")
        assert by in ("time_class", "year", "event")
        rows, name = _load(games)
        shares = summarise(rows, by)
        if json_out:
            emit_json(envelope({"groups": [s.to_json() for s in shares]}))
        else:
            out_console.print(summary_view(shares, by, name))


@games_app.command(name="compare-seed000")
def compare_seed000(
    games: Annotated[
        Path | None,
        typer.Option("--games", metavar="FILE", help=_GAMES_OPTION_HELP, show_default=False),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Write JSON to stdout.")] = False,
) -> None:
    """Seed 000's four events (2009-2010) beside the corpus's games of them, with exact tests of
    agreement, and the corpus's results by source folder (its selection bias). See
    docs/games.md.

    Example:

        knockout games compare-seed000 --json
    """
    from knockout.corpus.seed000 import by_folder
    from knockout.corpus.seed000 import compare_seed000 as compare
    from knockout.dashboard.games import seed000_view
    from knockout.io.envelope import envelope

    with user_errors():
        rows, name = _load(games)
        events = compare(rows)
        folders = by_folder(rows, depth=1)
        subfolders = by_folder(rows, depth=2)
        if json_out:
            emit_json(
                envelope(
                    {
                        "events": [e.to_json() for e in events],
                        "by_source": [s.to_json() for s in folders],
                        "by_source_folder": [s.to_json() for s in subfolders],
                    }
                )
            )
        else:
            out_console.print(seed000_view(events, folders, subfolders, name))


@games_app.command(name="draws")
def draws(
    games: Annotated[
        Path | None,
        typer.Option("--games", metavar="FILE", help=_GAMES_OPTION_HELP, show_default=False),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Write JSON to stdout.")] = False,
) -> None:
    """Seed 001's round-robin draw rule (二.4) on the corpus's real draws: shares by move band
    and material case A-D, mean points to Red and Black, and the round-robin events the corpus
    holds ranked before and after. See docs/games.md.

    Example:

        knockout games draws --games games.csv
    """
    from knockout.corpus.draws import draw_scoring, round_robins
    from knockout.dashboard.games import draws_view
    from knockout.io.envelope import envelope

    with user_errors():
        rows, name = _load(games)
        scoring = draw_scoring(rows)
        events = round_robins(rows)
        if json_out:
            emit_json(
                envelope(
                    {
                        "draws": scoring.to_json(),
                        "round_robins": [e.to_json() for e in events],
                    }
                )
            )
        else:
            out_console.print(draws_view(scoring, events, name))
