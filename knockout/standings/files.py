"""Standings of a Swiss or round-robin event from a file: TRF-16 or a CSV of games.

:func:`read_crosstable` decides the format: a ``.csv`` file is a games CSV
(:mod:`knockout.standings.games_csv`), a ``.trf`` file is TRF-16 (:mod:`knockout.standings.trf`);
any other file (such as ``.txt``) is TRF-16 if its first line that is not blank or a ``###`` comment
starts with a three-digit record code and a space (``012 ``, ``001 ``, ...), else a games CSV.
:func:`standings_from_file` then ranks the players with
:func:`knockout.standings.tiebreaks.rank_players`, under the tie-break rules in force on the
event's start date and the conventions of its kind (Swiss or round robin), unless told otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Literal

import numpy as np

from knockout.errors import InputError
from knockout.io.text import read_text
from knockout.standings.conventions import Conventions, CutRule, Rules, TournamentKind
from knockout.standings.games_csv import parse_games_csv
from knockout.standings.records import CLASSICAL, CrossTable, PointScale
from knockout.standings.teams import (
    is_team_header,
    parse_team_results,
    rank_teams,
    team_crosstable,
)
from knockout.standings.tiebreaks import Standings, TieBreak, rank_players
from knockout.standings.trf import parse_trf

__all__ = [
    "DEFAULT_TEAM_TIEBREAKS",
    "DEFAULT_TIEBREAKS",
    "FileFormat",
    "detect_format",
    "read_crosstable",
    "standings_from_file",
]

FileFormat = Literal["trf", "csv", "team-csv"]
#: The tie-breaks used unless the user orders others: individual events ...
DEFAULT_TIEBREAKS = ("BH", "BH-C1", "SB", "PS", "WIN")
#: ... and team events (after match points: game points, direct encounter, Buchholz).
DEFAULT_TEAM_TIEBREAKS = ("GP", "DE", "BH")

_TRF_RECORD = re.compile(r"\d{3} ")


def detect_format(path: str | Path, text: str) -> FileFormat:
    """``"csv"``, ``"team-csv"`` or ``"trf"`` for the file at ``path`` with content ``text``
    (see the module)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        return "team-csv" if is_team_header(text) else "csv"
    if suffix == ".trf":
        return "trf"
    for line in text.splitlines():
        if line.strip() and not line.startswith("###"):
            if _TRF_RECORD.match(line):
                return "trf"
            return "team-csv" if is_team_header(text) else "csv"
    return "csv"


def read_crosstable(
    path: str | Path, *, encoding: str | None = None, scale: PointScale = CLASSICAL
) -> CrossTable:
    """The cross table in the TRF-16 or games CSV file at ``path``.

    Args:
        path: The file.
        encoding: Its encoding (default UTF-8, with or without a byte-order mark).
        scale: Points of each result (default 1 / 0.5 / 0).

    Raises:
        InputError: If the file cannot be read, decoded or understood.
    """
    return _crosstable(path, read_text(path, encoding=encoding), scale)


def _crosstable(path: str | Path, text: str, scale: PointScale) -> CrossTable:
    found = detect_format(path, text)
    if found == "trf":
        return parse_trf(text, source=str(path), scale=scale)
    if found == "team-csv":
        raise InputError.single(
            str(path), "", "a team results file (a board column): rank it as a team event"
        )
    return parse_games_csv(text, source=str(path), scale=scale)


def standings_from_file(
    path: str | Path,
    tiebreaks: Sequence[TieBreak | str] | None = None,
    *,
    encoding: str | None = None,
    scale: PointScale = CLASSICAL,
    seed: int | None = None,
    rules: Rules | None = None,
    tournament: TournamentKind | None = None,
    on: date | None = None,
    cuts: CutRule = "fide",
    lots: bool = False,
) -> Standings:
    """Read the event at ``path`` and rank its players (see :func:`rank_players`).

    ``seed`` seeds the drawing of lots (``np.random.default_rng(seed)``). ``rules``,
    ``tournament`` and the start date ``on`` override what the file says or implies (see
    :meth:`~knockout.standings.conventions.Conventions.for_event`); ``cuts`` is the cut rule
    (FIDE's, or seed 003's floor of seven rounds). The file's warnings come with the standings
    (:attr:`Standings.warnings`).

    A team results file (a CSV with a ``board`` column, :mod:`knockout.standings.teams`) ranks
    teams by match points, then game points (``GP``, first unless ``tiebreaks`` places it), then
    ``tiebreaks``. ``tiebreaks`` None: :data:`DEFAULT_TIEBREAKS` or
    :data:`DEFAULT_TEAM_TIEBREAKS`. ``lots``: end with a drawing of lots if the list does not
    already.

    Raises:
        InputError: If the file is wrong, or ``GP`` is asked of an individual event.
    """
    rng = np.random.default_rng(seed) if seed is not None else None
    text = read_text(path, encoding=encoding)
    team = detect_format(path, text) == "team-csv"
    if tiebreaks is None:
        tiebreaks = DEFAULT_TEAM_TIEBREAKS if team else DEFAULT_TIEBREAKS
    codes = [tb if isinstance(tb, str) else tb.code for tb in tiebreaks]
    if lots and "lots" not in [c.strip().lower() for c in codes]:
        tiebreaks = (*tiebreaks, "lots")
    if team:
        event = parse_team_results(text, source=str(path))
        conventions = Conventions.for_event(
            team_crosstable(event), rules=rules, tournament=tournament, on=on, cuts=cuts
        )
        return rank_teams(event, tiebreaks, rng=rng, conventions=conventions)
    if any(isinstance(tb, str) and tb.strip().upper() == "GP" for tb in tiebreaks):
        raise InputError.single(
            "--tiebreaks",
            "",
            f"GP (game points) is for team events; {path} is an individual event",
        )
    table = _crosstable(path, text, scale)
    conventions = Conventions.for_event(table, rules=rules, tournament=tournament, on=on, cuts=cuts)
    standings = rank_players(table, tiebreaks, rng=rng, conventions=conventions)
    return replace(standings, warnings=table.warnings)
