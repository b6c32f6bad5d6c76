"""The games table the project ships: the master and engine games of the Chinese Chess Practical
Dataset, imported.

The bundled file (:data:`BUNDLED`) is what ``knockout games import`` writes from the dataset's
game-record archive, byte for byte; its first lines name the dataset, its author, its licence
(CC BY 4.0) and the changes made, as the licence asks. Any table imported from the dataset's
records carries the same lines (:func:`header`), recognised by the dataset's folder names in the
source paths.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from knockout.corpus.table import GameRow, read_table

__all__ = ["ATTRIBUTION", "BUNDLED", "bundled_games", "header", "is_ccpd"]

#: The bundled table.
BUNDLED = Path(__file__).with_name("data") / "ccpd-games.csv.xz"

#: The attribution of the Chinese Chess Practical Dataset, as a table built from it carries it.
ATTRIBUTION = (
    "Games of the Chinese Chess Practical Dataset (CCPD), folder Dataset/對局:",
    "Yu-Han Tseng (2026), Chinese Chess Practical Dataset (CCPD),",
    "github.com/Yvonne761/Chinese-Chess-Practical-Dataset, commit",
    "368a47a947773dd8692c026e286dd19b6277b993.",
    "Licensed under Creative Commons Attribution 4.0 International (CC BY 4.0),",
    "https://creativecommons.org/licenses/by/4.0/ ; this table is adapted from it:",
    "records decoded, copies removed, names and dates read, every game replayed by the",
    "rules of Xiangqi, one row a game (knockout games import; docs/games.md).",
)

#: Folder names only the dataset's archive has (master games, engine games).
_CCPD_FOLDERS = ("對局/大師對局/", "對局/電腦對局/")


def is_ccpd(paths: Iterable[str]) -> bool:
    """Whether any of the source paths is one of the dataset's records."""
    return any(folder in path for path in paths for folder in _CCPD_FOLDERS)


def header(rows: Iterable[GameRow]) -> tuple[str, ...]:
    """The comment lines a table of ``rows`` begins with: the dataset's attribution when any of
    its games comes from the dataset, else none."""
    return ATTRIBUTION if is_ccpd(s for row in rows for s in row.sources) else ()


def bundled_games() -> list[GameRow]:
    """The rows of the bundled table.

    Raises:
        InputError: If the bundled file is missing or damaged (an installation problem).
    """
    return read_table(BUNDLED)
