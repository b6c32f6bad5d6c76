"""Evidence from real games: game records read into one tidy table of games.

The reader (:func:`import_games`) takes PGN files, folders and archives in any of the encodings
Xiangqi files come in, reads Chinese, WXF and ICCS notation, replays every game by the rules
library (pyffish), removes copies and names the players; the table (:mod:`~knockout.corpus.table`,
one row a game) is what the fits and backtests above read. The project ships the table of the
Chinese Chess Practical Dataset's games (:func:`bundled_games`, CC BY 4.0). On it:
:func:`~knockout.corpus.summary.summarise` (results by group),
:func:`~knockout.corpus.seed000.compare_seed000` (seed 000's events beside the corpus) and
:func:`~knockout.corpus.draws.draw_scoring` (seed 001's draw rule on real draws).

Rooms inside: ``encoding`` (which encoding a file is in), ``pgn`` (tags and move texts),
``notation`` (what a move's text says), ``board`` (where pieces stand), ``replay`` (the rules
library decides), ``names``, ``events`` (dates, rounds, players from event text), ``timeclass``,
``sources`` (files, folders, archives), ``importer``, ``table``, ``bundle``, and the analyses
``summary``, ``seed000``, ``draws``.
"""

from __future__ import annotations

from knockout.corpus.bundle import BUNDLED, bundled_games
from knockout.corpus.importer import Imported, ImportReport, import_games
from knockout.corpus.replay import Replay, replay, replay_uci
from knockout.corpus.table import COLUMNS, GameRow, read_table, write_table

__all__ = [
    "BUNDLED",
    "COLUMNS",
    "GameRow",
    "ImportReport",
    "Imported",
    "Replay",
    "bundled_games",
    "import_games",
    "read_table",
    "replay",
    "replay_uci",
    "write_table",
]
