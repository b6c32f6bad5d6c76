"""``knockout standings``: rank the players of a Swiss or round-robin event from a file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from knockout import __version__
from knockout.cli.app import app, emit_json, out_console, user_errors
from knockout.errors import InputError

__all__ = ["standings"]

DEFAULT_TIEBREAKS = "BH,BH-C1,SB,PS,WIN"
#: The registry's codes (knockout.standings.tiebreaks.TIEBREAKS), spelled out for the help so that
#: starting the CLI does not import the registry and numpy (tests/test_startup.py keeps them equal).
TIEBREAK_CODES = (
    "DE", "BH", "BH-C1", "BH-M1", "SB", "SB-C1", "PS", "WIN", "WON", "BWG", "BPG", "RWG", "BDG",
    "RDG", "lots",
)  # fmt: skip


@app.command("standings")
def standings(
    file: Annotated[
        Path,
        typer.Argument(
            help="The event: a TRF-16 file (.trf, or .txt starting with TRF records) "
            "or a CSV of games with header round,red,black,result (.csv).",
            show_default=False,
        ),
    ],
    *,
    tiebreaks: Annotated[
        str,
        typer.Option(
            "--tiebreaks",
            "-t",
            help="Tie-breaks in order, comma-separated: "
            + ", ".join(TIEBREAK_CODES)
            + ", or BH-Ck, BH-Mk, SB-Ck, SB-Mk, PS-Ck for any k.",
        ),
    ] = DEFAULT_TIEBREAKS,
    lots: Annotated[
        bool,
        typer.Option(
            "--lots/--no-lots", help="End with a seeded drawing of lots (no shared ranks)."
        ),
    ] = False,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the drawing of lots; publish it.")
    ] = 0,
    encoding: Annotated[
        str | None,
        typer.Option(
            "--encoding", help="The file's encoding, e.g. gb18030 (default: UTF-8, BOM or not)."
        ),
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print JSON instead of a table.")
    ] = False,
) -> None:
    """Rank the players of a Swiss or round-robin event: points, then tie-breaks (FIDE C.07).

    Points are 1 for a win, 1/2 for a draw, 0 for a loss (byes and forfeits alike). Players still
    tied after the last tie-break share a rank (1, 2, 2, 4) unless --lots is given. Codes: DE
    direct encounter, BH Buchholz, BH-C1 cut 1, BH-M1 median, SB Sonneborn-Berger, PS progressive
    score, WIN wins (forfeits and byes count), WON games won over the board, BWG wins with Black,
    BPG games with Black. See docs/tiebreaks.md.

    Example:

        knockout standings scenarios/data/swiss-9.csv --tiebreaks BH-C1,BH,SB,DE --lots --seed 7
    """
    from knockout.dashboard.standings import standings_table  # noqa: PLC0415
    from knockout.standings.files import standings_from_file  # noqa: PLC0415
    from knockout.standings.tiebreaks import TIEBREAKS, parse_tiebreaks  # noqa: PLC0415

    with user_errors():
        try:
            chosen = parse_tiebreaks(tiebreaks)
        except ValueError as exc:
            raise InputError.single("--tiebreaks", "", str(exc)) from None
        if lots and "lots" not in {tb.code for tb in chosen}:
            chosen = (*chosen, TIEBREAKS["lots"])
        result = standings_from_file(file, chosen, encoding=encoding, seed=seed)
    if json_output:
        emit_json({"version": __version__, **result.to_json()})
    else:
        out_console.print(standings_table(result))
