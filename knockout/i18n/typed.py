"""Values a person types, in the forms a Chinese keyboard gives: one reading for every command.

A Chinese input method types full-width digits and punctuation (``１２：０５``) and the words an
arbiter writes are Chinese (红/黑, 和, 接受/反对). Each reader here turns such a value into the
English form the command's own parser already checks (``red``, ``12:05``, ``accept``), and
leaves any other text as it was (the English forms are still accepted; a wrong value is refused
by that parser, naming what was typed). The Chinese forms are listed once, here, and shown in
the Chinese help and pages from :data:`COLOUR_WORDS`, :data:`RESULT_WORDS` and
:data:`REPLY_WORDS`.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "COLOUR_WORDS",
    "REPLY_WORDS",
    "RESULT_WORDS",
    "half_width",
    "typed_colour",
    "typed_reply",
    "typed_result",
    "typed_text",
]

#: Full-width forms (U+FF01 to U+FF5E) are the ASCII characters 0xFEE0 below them; the
#: ideographic space is a space. Unlike NFKC, this leaves ``½`` alone.
_HALF_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}

#: Chinese (simplified and traditional) words for a colour, and the English they stand for.
COLOUR_WORDS: dict[str, Literal["red", "black"]] = {
    "红": "red",
    "红方": "red",
    "紅": "red",
    "紅方": "red",
    "黑": "black",
    "黑方": "black",
}

#: Chinese words for a game's result, as Red's score first (the form ``record`` reads).
RESULT_WORDS: dict[str, str] = {
    "红胜": "1-0",
    "紅勝": "1-0",
    "黑胜": "0-1",
    "黑勝": "0-1",
    "和": "draw",
    "和棋": "draw",
    "红": "red",
    "紅": "red",
    "黑": "black",
}

#: 乙's reply to 甲's announcement in Chinese.
REPLY_WORDS: dict[str, Literal["accept", "object"]] = {
    "接受": "accept",
    "同意": "accept",
    "反对": "object",
    "反對": "object",
}


def half_width(text: str) -> str:
    """``text`` with full-width letters, digits and punctuation made ASCII.

    >>> half_width("１２：０５"), half_width("１－０"), half_width("½-½")
    ('12:05', '1-0', '½-½')
    """
    return text.translate(_HALF_WIDTH)


def typed_text(text: str) -> str:
    """A typed value with full-width characters made ASCII and outer spaces removed (times,
    scores, minutes: ``１２：０５`` reads as ``12:05``)."""
    return half_width(text).strip()


def typed_colour(text: str) -> str:
    """A typed colour: ``红``/``红方`` is ``red``, ``黑``/``黑方`` is ``black`` (traditional forms
    too); anything else as :func:`typed_text` leaves it.

    >>> typed_colour("红方"), typed_colour(" Black "), typed_colour("紅")
    ('red', 'Black', 'red')
    """
    plain = typed_text(text)
    return COLOUR_WORDS.get(plain, plain)


def typed_result(text: str) -> str:
    """A typed result: ``红胜`` is ``1-0``, ``黑胜`` is ``0-1``, ``和``/``和棋`` is ``draw``,
    ``红``/``黑`` name the winner; full-width scores (``１－０``) read as ASCII.

    >>> typed_result("和"), typed_result("１－０"), typed_result("黑胜")
    ('draw', '1-0', '0-1')
    """
    plain = typed_text(text)
    return RESULT_WORDS.get(plain, plain)


def typed_reply(text: str) -> str:
    """乙's typed reply: ``接受`` is ``accept``, ``反对`` is ``object``.

    >>> typed_reply("反对"), typed_reply("accept")
    ('object', 'accept')
    """
    plain = typed_text(text)
    return REPLY_WORDS.get(plain, plain)
