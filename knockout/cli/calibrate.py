"""``knockout calibrate``: the model's constants fitted to recorded games."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from knockout.cli.app import EncodingOpt, ExportOpt, app, emit_json, err_console, show, user_errors
from knockout.errors import InputError, KnockoutError
from knockout.game import DEFAULT_MOVES

if TYPE_CHECKING:  # imported where a command needs it: a fast start
    pass

__all__ = ["calibrate"]

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
    "[bold]Example[/bold] (seed 000's 1,218 national games; writes a \\[model] table):"
    "\n\n"
    "knockout calibrate scenarios/data/seed000-games.csv --write-model fitted-model.toml"
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
    err_console.print(f"wrote {path}", markup=False)


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
) -> None:
    """Fit the model's constants to recorded games (see the help text above)."""
    from knockout.calibration import calibrate as fit_games
    from knockout.calibration import read_games
    from knockout.dashboard.calibration import calibration_view
    from knockout.io.envelope import envelope

    with user_errors():
        if not (math.isfinite(moves) and moves >= 1):
            raise InputError.single("--moves", "", f"expected a number >= 1, got {moves:g}")
        fit = fit_games(read_games(games, encoding=encoding, moves=moves))
        if write_model is not None:
            _write(write_model, fit.model_toml())
        if json_out:
            emit_json(envelope(fit.to_json()))
        else:
            show(calibration_view(fit), export, title=f"calibration of {games}")
