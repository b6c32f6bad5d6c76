"""``knockout backtest``: every game forecast from earlier games only, and the forecasts scored."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from knockout.cli.app import EncodingOpt, ExportOpt, app, emit_json, err_console, show, user_errors
from knockout.cli.calibrate import left_out_note
from knockout.errors import InputError, KnockoutError

__all__ = ["backtest"]

_HELP = (
    "Walk forward through a games table by year: each master game from --from on is forecast "
    "(P(Red win), P(draw), P(Black win)) by the model refitted to the games of earlier years "
    "only (players' drifting strengths, Red's advantage and draw_nu), and the forecasts are "
    "scored against the results: log loss, Brier score and ranked probability score with "
    "standard errors, for the model and three baselines (uniform; the Red/draw/Black shares of "
    "earlier years; an Elo rating without a colour term), their paired differences, and the "
    "calibration of P(Red win) (reliability diagram, expected calibration error over 10 bins)."
    "\n\n"
    "GAMES is a games table (knockout games import; .xz and .gz are unpacked). --by "
    "time_class gives each time class its own constants and scores (unknown-class games are "
    "classical); --out DIR writes forecasts.csv, scores.json, reliability-red.png, "
    "reliability-draw.png, reliability-black.png and summary.md. See docs/validation.md."
    "\n\n"
    "[bold]Example[/bold]:"
    "\n\n"
    "knockout backtest games.csv.xz --from 1995 --by time_class --out backtest"
)


@app.command(name="backtest", help=_HELP)
def backtest(
    games: Annotated[
        Path, typer.Argument(help="The games table (CSV, or .xz/.gz).", show_default=False)
    ],
    start: Annotated[
        int | None,
        typer.Option(
            "--from",
            metavar="YEAR",
            help="The first year forecast (default: the first year with a quarter of the "
            "games before it).",
            show_default=False,
        ),
    ] = None,
    by: Annotated[
        str | None,
        typer.Option(
            "--by",
            metavar="time_class",
            help="Constants and scores per time class (else one set of constants).",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Write forecasts.csv, scores.json, the reliability diagrams and summary.md "
            "there (created if missing).",
            show_default=False,
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Write scores.json's content to stdout.")
    ] = False,
    encoding: EncodingOpt = None,
    export: ExportOpt = None,
) -> None:
    """Score the model's walk-forward forecasts (see the help text above)."""
    from knockout.backtest.report import backtest_report
    from knockout.backtest.walk import default_start, fallback_notes, walk_forward
    from knockout.dashboard.backtest import backtest_view
    from knockout.dashboard.simulation import progress_bar, progress_lines
    from knockout.io.envelope import envelope
    from knockout.strengths.table import read_table
    from knockout.version import __version__

    with user_errors():
        if by not in (None, "time_class"):
            raise InputError.single("--by", "", f"expected time_class, got {by!r}")
        table = read_table(games, encoding=encoding)
        first = default_start(table) if start is None else start
        bar, update = (
            progress_bar(err_console, 1, label="refits")
            if err_console.is_terminal
            else progress_lines(err_console, done_word="refitted", unit="years")
        )
        with bar:
            forecasts = walk_forward(
                table, start=first, by="time_class" if by else None, progress=update
            )
        report = backtest_report(forecasts, table.games)
        left_out_note(forecasts.left_out)
        for line in fallback_notes(forecasts):
            err_console.print(f"note: {line}", markup=False, soft_wrap=True)
        if out is not None:
            command = (
                f"knockout backtest {games} --from {first}"
                + (" --by time_class" if by else "")
                + f" --out {out}"
            )
            _write_out(out, report, command, __version__)
        if json_out:
            emit_json(envelope(report.to_json(__version__)))
        else:
            show(backtest_view(report), export, title=f"backtest of {games}")


def _write_out(folder: Path, report: object, command: str, version: str) -> None:
    """Every file of ``--out``.

    Raises:
        KnockoutError: If the folder or a file cannot be written.
    """
    import json

    from knockout.backtest.report import (
        BacktestReport,
        forecasts_csv,
        matches_csv,
        summary_markdown,
    )
    from knockout.dashboard.backtest import write_reliability_plots

    assert isinstance(report, BacktestReport)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "forecasts.csv").write_text(forecasts_csv(report.forecasts), encoding="utf-8")
        (folder / "scores.json").write_text(
            json.dumps(report.to_json(version), ensure_ascii=False, indent=2, allow_nan=False)
            + "\n",
            encoding="utf-8",
        )
        (folder / "matches.csv").write_text(matches_csv(report.matches), encoding="utf-8")
        write_reliability_plots(report, folder)
        (folder / "summary.md").write_text(summary_markdown(report, command), encoding="utf-8")
    except OSError as exc:
        raise KnockoutError(f"--out: cannot write in {folder}: {exc.strerror}") from None
    err_console.print(f"wrote {folder}/", markup=False, soft_wrap=True)
