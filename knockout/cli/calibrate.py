"""``knockout calibrate``: the model's constants fitted to recorded games."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from knockout.cli.app import (
    EncodingOpt,
    ExportOpt,
    app,
    check_seed,
    emit_json,
    err_console,
    show,
    user_errors,
)
from knockout.errors import InputError, KnockoutError
from knockout.game import DEFAULT_MOVES

if TYPE_CHECKING:  # imported where a command needs it: a fast start
    from knockout.strengths.calibrate import StrengthCalibration

__all__ = ["calibrate", "left_out_note"]

_HELP = (
    "Fit the model's red_advantage, draw_nu and elo_per_doubling per time class to recorded "
    "games, by maximum likelihood, with standard errors from the observed information."
    "\n\n"
    "GAMES is a CSV file with the header red_rating,black_rating,time_class,red_minutes,"
    "black_minutes,increment_seconds,result and optionally count (the games the row stands "
    "for). result is red, draw or black; an empty time_class is derived from the clocks "
    "(classical if the mean effective clock base + moves * increment / 60 is at least 60 "
    "minutes, blitz if at most 10, else rapid). elo_per_doubling needs games on at least two "
    "clock ratios in a class. A constant the data cannot identify is reported as null with the "
    "reason, never a default; one on the boundary of its range (draw_nu = 0 without draws, "
    "elo_per_doubling held at 0) has no standard error and a one-sided 95% upper bound. "
    "See docs/calibration.md."
    "\n\n"
    "With --strengths, GAMES is a games table of real games with players' names and no "
    "ratings (the columns knockout games import writes: id, event, date, year, red, black, "
    "result, time_class, kind, sources, ...; .xz and .gz are unpacked): the fit gives every "
    "player a strength per year (a random walk over the years) and fits Red's advantage and "
    "draw_nu with them, per time class with --by time_class (unknown-class games as "
    "classical; a class with fewer than 100 games is fitted with the classical constants and "
    "says so), else one set for every class. Master games with a result and a year only; "
    "tie-break games are left out. See docs/validation.md."
    "\n\n"
    "[bold]Examples[/bold] (seed 000's 1,218 national games; writes a \\[model] table):"
    "\n\n"
    "knockout calibrate scenarios/data/seed000-games.csv --write-model fitted-model.toml"
    "\n\n"
    "knockout calibrate games.csv.xz --strengths --by time_class --write-model measured.toml"
)


def _write(path: Path, text: str) -> None:
    """Write the model file.

    Raises:
        KnockoutError: If it cannot be written.
    """
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise KnockoutError(f"--write-model: cannot write {path}: {exc.strerror}") from None
    err_console.print(f"wrote {path}", markup=False, soft_wrap=True)


@app.command(name="calibrate", help=_HELP)
def calibrate(
    games: Annotated[
        Path,
        typer.Argument(help="The games (CSV, header as above).", show_default=False),
    ],
    moves: Annotated[
        float,
        typer.Option(
            "--moves",
            help="Moves a side makes in a game, for the effective clocks and derived time "
            "classes (a scenario's \\[model] moves).",
        ),
    ] = DEFAULT_MOVES,
    encoding: EncodingOpt = None,
    write_model: Annotated[
        Path | None,
        typer.Option(
            "--write-model",
            metavar="FILE",
            help="Also write the fit as a scenario \\[model] table (TOML; only the constants "
            "estimated, per class) to paste into a scenario.",
            show_default=False,
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Write JSON to stdout instead of tables.")
    ] = False,
    export: ExportOpt = None,
    strengths: Annotated[
        bool,
        typer.Option(
            "--strengths",
            help="Fit players' strengths from results: GAMES is a games table with names and "
            "no ratings.",
        ),
    ] = False,
    by: Annotated[
        str | None,
        typer.Option(
            "--by",
            metavar="time_class",
            help="With --strengths: Red's advantage and draw_nu per time class (else one set "
            "for every class).",
            show_default=False,
        ),
    ] = None,
    players: Annotated[
        Path | None,
        typer.Option(
            "--players",
            metavar="FILE.csv",
            help="With --strengths: write every player's strength in their last year, with its "
            "standard error.",
            show_default=False,
        ),
    ] = None,
    min_games: Annotated[
        int,
        typer.Option(
            "--min-games",
            metavar="N",
            help="With --strengths: measure the constants on the games between two players "
            "with at least N games in the table (every game still fits the strengths).",
        ),
    ] = 0,
    bootstrap: Annotated[
        int,
        typer.Option(
            "--bootstrap",
            metavar="N",
            help="With --strengths: check the standard errors by N resamples of whole events.",
        ),
    ] = 0,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            callback=check_seed,
            help="With --bootstrap: the resamples' seed (default: a fresh one, reported).",
            show_default=False,
        ),
    ] = None,
    classical_events: Annotated[
        Path | None,
        typer.Option(
            "--classical-events",
            metavar="FILE",
            help="With --strengths: events known to be played at a slow clock, one a line: "
            "their unknown-class games are classical, so the classical fit without the "
            "unknown games has games of its own.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Fit the model's constants to recorded games (see the help text above)."""
    from knockout.calibration import calibrate as fit_games
    from knockout.calibration import read_games
    from knockout.dashboard.calibration import calibration_view
    from knockout.io.envelope import envelope

    with user_errors():
        if strengths:
            _strengths(
                games, by, min_games, write_model, players, bootstrap, seed, json_out, encoding,
                export, classical_events,
            )  # fmt: skip
            return
        for name, given in (
            ("--by", by is not None),
            ("--players", players is not None),
            ("--min-games", min_games != 0),
            ("--bootstrap", bootstrap != 0),
            ("--seed", seed is not None),
            ("--classical-events", classical_events is not None),
        ):
            if given:
                raise InputError.single(name, "", "expected only with --strengths")
        if not (math.isfinite(moves) and moves >= 1):
            raise InputError.single("--moves", "", f"expected a number >= 1, got {moves:g}")
        fit = fit_games(read_games(games, encoding=encoding, moves=moves))
        if write_model is not None:
            _write(write_model, fit.model_toml())
        if json_out:
            emit_json(envelope(fit.to_json()))
        else:
            show(calibration_view(fit), export, title=f"calibration of {games}")


def _strengths(
    games: Path,
    by: str | None,
    min_games: int,
    write_model: Path | None,
    players: Path | None,
    bootstrap: int,
    seed: int | None,
    json_out: bool,
    encoding: str | None,
    export: Path | None,
    classical_events: Path | None = None,
) -> None:
    """``calibrate --strengths``: read, fit (a progress bar on stderr), write, show."""
    import numpy as np

    from knockout.cli.app import fresh_seed
    from knockout.dashboard.simulation import progress_bar, progress_lines
    from knockout.dashboard.strengths import strengths_view
    from knockout.io.envelope import envelope
    from knockout.strengths.calibrate import MIN_CLASS_GAMES, calibrate_strengths
    from knockout.strengths.table import read_table

    if by not in (None, "time_class"):
        raise InputError.single("--by", "", f"expected time_class, got {by!r}")
    if min_games < 0:
        raise InputError.single("--min-games", "", f"expected a whole number >= 0, got {min_games}")
    if bootstrap < 0:
        raise InputError.single("--bootstrap", "", f"expected a whole number >= 0, got {bootstrap}")
    if seed is not None and bootstrap == 0:
        raise InputError.single("--seed", "", "expected only with --bootstrap N")
    used_seed = (fresh_seed() if seed is None else seed) if bootstrap else None
    slow = () if classical_events is None else _event_lines(classical_events)
    table = read_table(games, encoding=encoding)
    bar, update = (
        progress_bar(err_console, 1, label="fitting")
        if err_console.is_terminal
        else progress_lines(err_console, done_word="fitted", unit="steps")
    )
    with bar:
        cal = calibrate_strengths(
            table,
            by="time_class" if by else None,
            bootstrap=bootstrap,
            rng=None if used_seed is None else np.random.default_rng(used_seed),
            progress=update,
            min_games=min_games,
            classical_events=slow,
        )
    left_out_note(cal.left_out)
    if slow:
        err_console.print(
            f"note: {cal.marked_classical:,} games of the {len(slow)} events in "
            f"{classical_events} read as classical",
            markup=False,
            soft_wrap=True,
        )
    for c in cal.main.classes:
        if c.reason is not None and c.games:
            err_console.print(
                f"note: {c.time_class}: {c.games} games, fewer than {MIN_CLASS_GAMES} (or a "
                f"result missing): fitted with the {c.group} constants",
                markup=False,
                soft_wrap=True,
            )
    if write_model is not None:
        command = (
            f"knockout calibrate {games} --strengths"
            + (" --by time_class" if by else "")
            + (f" --min-games {min_games}" if min_games else "")
            + (f" --bootstrap {bootstrap} --seed {used_seed}" if bootstrap else "")
            + (f" --classical-events {classical_events}" if classical_events else "")
        )
        _write(write_model, cal.model_toml(command + f" --write-model {write_model}"))
    if players is not None:
        _write_players(players, cal)
    if json_out:
        emit_json(envelope(cal.to_json(), seed=used_seed))
    else:
        show(strengths_view(cal), export, title=f"strengths of {games}")


def _event_lines(path: Path) -> tuple[str, ...]:
    """The event names of a ``--classical-events`` file, one a line (blank lines skipped).

    Raises:
        InputError: If it cannot be read or names no event.
    """
    from knockout.io.text import read_text

    lines = tuple(line.strip() for line in read_text(path).splitlines() if line.strip())
    if not lines:
        raise InputError.single(
            str(path), "--classical-events", "expected event names, one a line, got none"
        )
    return lines


def _write_players(path: Path, cal: StrengthCalibration) -> None:
    """The players' table (CSV).

    Raises:
        KnockoutError: If it cannot be written.
    """
    from knockout.strengths.calibrate import players_csv

    try:
        path.write_text(players_csv(cal), encoding="utf-8")
    except OSError as exc:
        raise KnockoutError(f"--players: cannot write {path}: {exc.strerror}") from None
    err_console.print(f"wrote {path}", markup=False, soft_wrap=True)


#: How each reason a game is left out reads in the note.
_LEFT_OUT_WORDS = {
    "no player's name": "games with no player's name",
    "result not known (*)": "games with no result (*)",
    "no year": "games with no year",
    "tie-break games (clocks not stated)": "tie-break games (clocks not stated)",
    "engine games": "engine games",
}


def left_out_note(left_out: dict[str, int]) -> None:
    """One line on stderr: the games of the table the fit left out, by reason."""
    if left_out:
        parts = ", ".join(f"{n:,} {_LEFT_OUT_WORDS.get(why, why)}" for why, n in left_out.items())
        err_console.print(f"note: left out {parts}", markup=False, soft_wrap=True)
