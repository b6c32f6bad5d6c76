"""A game's time class from the words its event and round text use.

Records rarely state the clock; a rapid game is marked in the event or round text. The markers,
read in simplified characters (traditional text is converted first, so 超快棋 and 超快棋 both
match), in this order, the first that occurs deciding:

=========== ============ ==========================================================
marker      time class   examples
=========== ============ ==========================================================
超快棋      ``blitz``    加賽超快棋, 第3盤超快棋 (super-rapid, sudden death)
快棋        ``rapid``    快棋, 電視快棋, 加賽快棋, 快棋賽
加快        ``rapid``    第三輪加快第2局 (加賽快棋 shortened)
快赛        ``rapid``    電視快賽
加赛        ``tiebreak`` 加賽 with no other marker (a tie-break game of unstated clock)
=========== ============ ==========================================================

A game with none is ``unknown``: never taken for classical, since collections hold slow games
unmarked and rapid ones unmarked too. A user who knows an event was slow names it in a
``--classical-events`` file (one event per line; a line matches every game whose event text
contains it, both read in simplified characters, spaces ignored); those games are ``classical``.
Copies of one game may disagree: the marker of any copy counts, the fastest class first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from knockout.corpus.names import simplified

__all__ = [
    "MARKERS",
    "TIME_CLASSES",
    "TimeClass",
    "fastest",
    "time_class",
]

TimeClass = Literal["classical", "rapid", "blitz", "tiebreak", "unknown"]

#: Every time class the table writes, fastest first (the order :func:`fastest` uses).
TIME_CLASSES: tuple[TimeClass, ...] = ("blitz", "rapid", "tiebreak", "classical", "unknown")

#: ``(marker, time class)`` in simplified characters, the first that occurs deciding.
MARKERS: tuple[tuple[str, TimeClass], ...] = (
    ("超快棋", "blitz"),
    ("快棋", "rapid"),
    ("加快", "rapid"),
    ("快赛", "rapid"),
    ("加赛", "tiebreak"),
)


def _plain(text: str) -> str:
    return "".join(simplified(text).split())


def time_class(event: str, round_text: str = "", classical_events: Sequence[str] = ()) -> TimeClass:
    """The time class the event and round text mark.

    >>> time_class("第二屆“嘉周杯”象棋電視快棋賽"), time_class("挑戰賽加賽超快棋")
    ('rapid', 'blitz')
    >>> time_class("銀荔杯加賽 中炮"), time_class("全國象棋個人錦標賽")
    ('tiebreak', 'unknown')
    >>> time_class("全國象棋個人錦標賽 第3輪", classical_events=["全国象棋个人锦标赛"])
    'classical'
    """
    text = _plain(event + " " + round_text)
    for marker, kind in MARKERS:
        if marker in text:
            return kind
    if any(_plain(line) and _plain(line) in text for line in classical_events):
        return "classical"
    return "unknown"


def fastest(classes: Iterable[TimeClass]) -> TimeClass:
    """The fastest of the classes copies of one game give (``unknown`` if none says)."""
    order = {c: i for i, c in enumerate(TIME_CLASSES)}
    return min(classes, key=order.__getitem__, default="unknown")
