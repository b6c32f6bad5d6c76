"""``knockout standings``: rank the players of a Swiss or round-robin event from a file."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from knockout.cli.app import app, check_seed, emit_json, err_console, out_console, user_errors
from knockout.errors import InputError, Problem
from knockout.points import TIEBREAK_CODES

if TYPE_CHECKING:  # imported where a command needs it: a fast start
    from knockout.standings.conventions import (
        CutRule,
        Rules,
        TournamentKind,
    )
    from knockout.standings.tiebreaks import TieBreak

__all__ = ["conventions_options", "standings"]

DEFAULT_TIEBREAKS = "BH,BH-C1,SB,PS,WIN"
DEFAULT_TEAM_TIEBREAKS = "GP,DE,BH"
DEFAULT_SEED = 0

RULES_HELP = (
    "FIDE tie-break rules: 2024 (in force from 1 April 2024) or 2026 (from 1 March 2026). "
    "Default: those in force on the event's start date (TRF record 042, or --date); the newest "
    "if the event is undated."
)
DATE_HELP = "The event's start date, YYYY-MM-DD (overrides the TRF's record 042)."
CUTS_HELP = (
    "How far cut and median tie-breaks (BH-C1, BH-M1, SB-C1 ...) may cut: fide (FIDE C.07, no "
    "floor; the default) or floor-7 (seed 003's Chinese practice: at least seven rounds' values "
    "are kept, so an event of seven rounds or fewer cuts nothing)."
)
TOURNAMENT_HELP = (
    "swiss or round-robin (round-robin conventions for unplayed games and Buchholz). Default: "
    "the TRF's tournament type (record 092), else round-robin when every two players met "
    "equally often (once or twice) and nobody had a bye."
)


_T = TypeVar("_T")


def _option(
    option: str, text: str | None, parse: Callable[[str], _T], problems: list[Problem]
) -> _T | None:
    """``parse(text)``, None if the option was not given; a problem if it does not parse."""
    if text is None:
        return None
    try:
        return parse(text)
    except ValueError as exc:
        problems.append(Problem(option, "", str(exc)))
        return None


def conventions_options(
    rules: str | None, on: str | None, tournament: str | None
) -> tuple[Rules | None, date | None, TournamentKind | None]:
    """``--rules``, ``--date`` and ``--tournament`` checked (None: not given).

    Raises:
        InputError: One problem per option that is wrong.
    """
    from knockout.standings.conventions import (
        get_rules,
        get_tournament_kind,
        parse_event_date,
    )

    problems: list[Problem] = []
    chosen = (
        _option("--rules", rules, get_rules, problems),
        _option("--date", on, parse_event_date, problems),
        _option("--tournament", tournament, get_tournament_kind, problems),
    )
    if problems:
        raise InputError(problems)
    return chosen


def _cut_rule(text: str) -> CutRule:
    """``--cuts`` checked."""
    from knockout.standings.conventions import get_cut_rule

    try:
        return get_cut_rule(text)
    except ValueError as exc:
        raise InputError.single("--cuts", "", str(exc)) from None


def _chosen_tiebreaks(text: str | None) -> tuple[TieBreak | str, ...] | None:
    """``--tiebreaks`` checked: registry codes become tie-breaks; ``GP`` (a team event's game
    points) stays a code, in its place. None: the event's default."""
    from knockout.standings.tiebreaks import parse_tiebreaks

    if text is None:
        return None
    chosen: list[TieBreak | str] = []
    try:
        for code in (c.strip() for c in text.split(",")):
            if code.upper() == "GP":
                if "GP" in chosen:
                    raise ValueError("tie-break listed twice: 'GP'")
                chosen.append("GP")
            elif code:
                chosen.extend(parse_tiebreaks(code))
        parse_tiebreaks(",".join(tb.code for tb in chosen if not isinstance(tb, str)))
    except ValueError as exc:
        raise InputError.single("--tiebreaks", "", str(exc)) from None
    return tuple(chosen)


#: The registry's codes (knockout.standings.tiebreaks.TIEBREAKS), spelled out for the help so that
#: starting the CLI does not import the registry and numpy (tests/test_startup.py keeps them equal).


@app.command("standings")
def standings(
    file: Annotated[
        Path,
        typer.Argument(
            help="The event: a TRF-16 file (.trf, or .txt starting with TRF records), "
            "a CSV of games with header round,red,black,result (.csv), or a team event's CSV "
            "with header round,home,away,board,result (one row per board).",
            show_default=False,
        ),
    ],
    *,
    tiebreaks: Annotated[
        str | None,
        typer.Option(
            "--tiebreaks",
            "-t",
            help="Tie-breaks in order, comma-separated: "
            + ", ".join(TIEBREAK_CODES)
            + ", or BH-Ck, BH-Mk, SB-Ck, SB-Mk, PS-Ck for any k; GP (game points) in a team "
            f"event. \\[default: {DEFAULT_TIEBREAKS}; team events: {DEFAULT_TEAM_TIEBREAKS}]",
            show_default=False,
        ),
    ] = None,
    lots: Annotated[
        bool,
        typer.Option(
            "--lots/--no-lots", help="End with a seeded drawing of lots (no shared ranks)."
        ),
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help=f"Seed of the drawing of lots; publish it. \\[default: {DEFAULT_SEED}]",
            show_default=False,
            callback=check_seed,
        ),
    ] = None,
    rules: Annotated[
        str | None, typer.Option("--rules", help=RULES_HELP, show_default=False)
    ] = None,
    on: Annotated[str | None, typer.Option("--date", help=DATE_HELP, show_default=False)] = None,
    tournament: Annotated[
        str | None, typer.Option("--tournament", help=TOURNAMENT_HELP, show_default=False)
    ] = None,
    cuts: Annotated[str, typer.Option("--cuts", help=CUTS_HELP)] = "fide",
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
    """Rank the players (or teams) of a Swiss or round-robin event: points, then tie-breaks.

    Points are 1 for a win, 1/2 for a draw, 0 for a loss (byes and forfeits alike). Players still
    tied after the last tie-break share a rank (1, 2, 2, 4) unless --lots is given. Codes: DE
    direct encounter, BH Buchholz, BH-C1 cut 1, BH-M1 median, SB Sonneborn-Berger, PS progressive
    score, WIN wins (forfeits and byes count), WON games won over the board, BWG wins with Black,
    BPG games with Black. Unplayed rounds count as FIDE's rules in force on the event's start
    date say (2024 or 2026), with round-robin conventions in a round robin. See
    docs/tiebreaks.md. A team event (a CSV with a board column) ranks teams by match points
    (win 2, draw 1, loss 0: more game points wins a match), then game points (GP), then the
    tie-breaks given, over the teams' matches.

    Example:

        knockout standings scenarios/data/swiss-9.csv --tiebreaks BH-C1,BH,SB,DE --lots --seed 7
    """
    from knockout.dashboard.standings import standings_table
    from knockout.io.envelope import envelope
    from knockout.standings.files import standings_from_file

    with user_errors():
        chosen = _chosen_tiebreaks(tiebreaks)
        chosen_rules, chosen_date, chosen_kind = conventions_options(rules, on, tournament)
        chosen_cuts = _cut_rule(cuts)
        drawn = lots or any(not isinstance(tb, str) and tb.needs_rng for tb in chosen or ())
        used_seed = (DEFAULT_SEED if seed is None else seed) if drawn else seed
        result = standings_from_file(
            file,
            chosen,
            encoding=encoding,
            seed=used_seed,
            rules=chosen_rules,
            tournament=chosen_kind,
            on=chosen_date,
            cuts=chosen_cuts,
            lots=lots,
        )
    for warning in result.warnings:
        err_console.print(f"warning: {warning}", markup=False, soft_wrap=True)
    if json_output:
        emit_json(envelope(result.to_json(), seed=used_seed))
    else:
        out_console.print(standings_table(result))
