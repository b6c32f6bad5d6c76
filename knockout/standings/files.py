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

from knockout.io.text import read_text
from knockout.standings.conventions import Conventions, CutRule, Rules, TournamentKind
from knockout.standings.games_csv import parse_games_csv
from knockout.standings.records import CLASSICAL, CrossTable, PointScale
from knockout.standings.tiebreaks import Standings, TieBreak, rank_players
from knockout.standings.trf import parse_trf

__all__ = ["FileFormat", "detect_format", "read_crosstable", "standings_from_file"]

FileFormat = Literal["trf", "csv"]

_TRF_RECORD = re.compile(r"\d{3} ")


def detect_format(path: str | Path, text: str) -> FileFormat:
    """``"csv"`` or ``"trf"`` for the file at ``path`` with content ``text`` (see the module)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix == ".trf":
        return "trf"
    for line in text.splitlines():
        if line.strip() and not line.startswith("###"):
            return "trf" if _TRF_RECORD.match(line) else "csv"
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
    text = read_text(path, encoding=encoding)
    if detect_format(path, text) == "trf":
        return parse_trf(text, source=str(path), scale=scale)
    return parse_games_csv(text, source=str(path), scale=scale)


def standings_from_file(
    path: str | Path,
    tiebreaks: Sequence[TieBreak | str],
    *,
    encoding: str | None = None,
    scale: PointScale = CLASSICAL,
    seed: int | None = None,
    rules: Rules | None = None,
    tournament: TournamentKind | None = None,
    on: date | None = None,
    cuts: CutRule = "fide",
) -> Standings:
    """Read the event at ``path`` and rank its players (see :func:`rank_players`).

    ``seed`` seeds the drawing of lots (``np.random.default_rng(seed)``). ``rules``,
    ``tournament`` and the start date ``on`` override what the file says or implies (see
    :meth:`~knockout.standings.conventions.Conventions.for_event`); ``cuts`` is the cut rule
    (FIDE's, or seed 003's floor of seven rounds). The file's warnings come with the standings
    (:attr:`Standings.warnings`).
    """
    table = read_crosstable(path, encoding=encoding, scale=scale)
    rng = np.random.default_rng(seed) if seed is not None else None
    conventions = Conventions.for_event(table, rules=rules, tournament=tournament, on=on, cuts=cuts)
    standings = rank_players(table, tiebreaks, rng=rng, conventions=conventions)
    return replace(standings, warnings=table.warnings)
