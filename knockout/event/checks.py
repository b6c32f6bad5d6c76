"""What a hall types, checked before it reaches the journal: names, ratings, times, moves.

Every check returns the clean value or raises
:class:`~knockout.event.errors.EventRefused` (or gives a :class:`~knockout.errors.Problem`) with
one line saying what was expected and what was found, with the bound it broke.

Names are stored as typed once tidied (:func:`clean_name`): Unicode NFC, zero-width and other
invisible format characters and control characters removed, white space collapsed (and dropped
between Chinese characters). Two names are the same player when their keys (:func:`name_key`:
the clean name, compatibility-normalised and case-folded) are equal, so ``Chen Hao``,
``chen hao``, ``CHEN HAO`` and ``José`` typed with a combining accent or a zero-width space are
one name, never two players who look alike on every screen.
"""

from __future__ import annotations

import math
import re
import unicodedata

from knockout.event.errors import refused
from knockout.i18n import _
from knockout.standings.records import normalise_name

__all__ = [
    "MAX_MOVES",
    "MAX_NAME_LENGTH",
    "MAX_RATING",
    "MIN_RATING",
    "clean_name",
    "name_key",
    "name_problem",
    "parse_moves",
    "parse_rating",
    "parse_seconds",
    "rating_problem",
    "seconds_problem",
]

#: The longest name accepted, in characters (after tidying).
MAX_NAME_LENGTH = 80
#: Ratings accepted: the range of every rating list in use, with room on both sides.
MIN_RATING = 0.0
MAX_RATING = 4000.0
#: The most moves a game can be recorded with (a Xiangqi game past 1000 moves is a typo).
MAX_MOVES = 1000

_PLAIN_SECONDS = re.compile(r"^\d+(?:\.\d+)?$")
_M_SS = re.compile(r"^(\d+):(\d\d(?:\.\d+)?)$")
_H_MM_SS = re.compile(r"^(\d+):(\d\d):(\d\d(?:\.\d+)?)$")


def clean_name(text: str) -> str:
    """A name tidied: NFC, invisible format and control characters removed, white space
    collapsed (and dropped between Chinese characters).

    >>> clean_name(" Jose\\u0301 ") == "Jos\\u00e9", clean_name("Chen\\u200b Hao")
    (True, 'Chen Hao')
    >>> clean_name("程 鸣"), clean_name("Wang\\tTianyi\\x00")
    ('程鸣', 'Wang Tianyi')
    """
    spaced = "".join(" " if ch.isspace() else ch for ch in text)
    kept = "".join(ch for ch in spaced if unicodedata.category(ch) not in ("Cc", "Cf"))
    return normalise_name(unicodedata.normalize("NFC", kept))


def name_key(text: str) -> str:
    """The key two names are compared by: clean, compatibility-normalised, case-folded.

    >>> name_key("CHEN  HAO") == name_key("chen hao") == name_key("Ｃｈｅｎ Ｈａｏ")
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", clean_name(text)).casefold())


def name_problem(text: str) -> str | None:
    """What is wrong with ``text`` as a player's name (None: nothing)."""
    name = clean_name(text)
    if not name:
        if text.strip():
            return _("expected a name, found nothing visible")
        return _("expected a name, found nothing")
    if len(name) > MAX_NAME_LENGTH:
        return _(
            "expected a name of at most {most} characters, found {length} ({start}...)"
        ).format(most=MAX_NAME_LENGTH, length=len(name), start=repr(name[:20]))
    return None


def rating_problem(value: float, text: str) -> str | None:
    """What is wrong with ``value`` (typed as ``text``) as a rating (None: nothing)."""
    if not (math.isfinite(value) and MIN_RATING <= value <= MAX_RATING):
        return _("expected a rating from {low:g} to {high:g}, found {text}").format(
            low=MIN_RATING, high=MAX_RATING, text=repr(text)
        )
    return None


def parse_rating(text: str, source: str, key: str) -> float:
    """A rating typed on the command line.

    Raises:
        EventRefused: Not a number, or outside MIN_RATING..MAX_RATING.
    """
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    problem = rating_problem(value, text)
    if problem is not None:
        raise refused(source, key, problem)
    return value


def seconds_problem(text: str) -> str | None:
    """Why ``text`` is not a time (None: it is one); see :func:`parse_seconds`."""
    t = text.strip()
    if _PLAIN_SECONDS.match(t):
        return None
    found = _H_MM_SS.match(t) or _M_SS.match(t)
    if found is None:
        return _("not seconds, m:ss or h:mm:ss")
    parts = found.groups()
    minutes = int(parts[-2])
    seconds = float(parts[-1])
    if seconds >= 60:
        return _("the seconds ({seconds}) must be below 60").format(seconds=parts[-1])
    if minutes >= 60:
        if len(parts) == 2:
            hours, rest = divmod(minutes, 60)
            return _("the minutes ({minutes}) must be below 60: write {written}").format(
                minutes=minutes, written=f"{hours}:{rest:02d}:{parts[-1]}"
            )
        return _("the minutes ({minutes}) must be below 60").format(minutes=parts[-2])
    return None


def parse_seconds(text: str) -> float | None:
    """Seconds from ``2400``, ``2400.5``, ``40:00`` (m:ss) or ``1:05:30`` (h:mm:ss), minutes
    and seconds below 60; None if the text is none of these.

    >>> parse_seconds("40:00"), parse_seconds("1:05:30"), parse_seconds("95"), parse_seconds("x")
    (2400.0, 3930.0, 95.0, None)
    >>> parse_seconds("61:99"), parse_seconds("61:30"), parse_seconds("1e9")
    (None, None, None)
    """
    if seconds_problem(text) is not None:
        return None
    parts = [float(p) for p in text.strip().split(":")]
    value = 0.0
    for p in parts:
        value = value * 60.0 + p
    return value


def parse_moves(moves: int | None, source: str) -> int | None:
    """``--moves`` checked: a whole number from 1 to MAX_MOVES (None: not given).

    Raises:
        EventRefused: Outside 1..MAX_MOVES.
    """
    if moves is not None and not 1 <= moves <= MAX_MOVES:
        shown = (
            str(moves)
            if len(str(moves)) <= 12
            else _("{start}... ({digits} digits)").format(
                start=str(moves)[:12], digits=len(str(moves))
            )
        )
        raise refused(
            source,
            "--moves",
            _("expected a whole number from 1 to {most}, found {shown}").format(
                most=MAX_MOVES, shown=shown
            ),
        )
    return moves
