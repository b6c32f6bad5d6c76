"""Chinese line breaking for every rich view of knockout, in every language and process.

rich breaks a line only at spaces (``rich._wrap.re_word``), so a Chinese sentence, which has
none, would be cut off with an ellipsis in a table cell or broken wherever it overflows. Here a
break may fall between any two ideographs, never before closing punctuation (，。：）...) nor
after opening punctuation (（「...). A run of text without an ideograph is one word, exactly as
rich has it, so Latin text wraps as before.

The pattern is rich's one module-level setting, so it is set once for the process as
:mod:`knockout.dashboard` is imported (every view and the command line import it): the same
views wrap the same way whichever test, command or language came first.
"""

from __future__ import annotations

import importlib
import re

__all__ = ["CJK_WORD", "install_line_breaking"]

_IDEOGRAPH = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CLOSING = "、。，．：；！？）」』】〉》”’％…\uff0c\uff1a\uff1b\uff09\uff01\uff1f\uff05\uff0e"
_OPENING = "（「『【〈《“‘\uff08"

#: One "word" of rich's word wrap: a run without an ideograph up to a space (rich's own word),
#: else one ideograph (or a run of other text) with the punctuation that clings to it.
CJK_WORD = re.compile(
    rf"\s*[^\s{_IDEOGRAPH}]+(?!\S)\s*"
    rf"|\s*[{_OPENING}]*(?:[{_IDEOGRAPH}]|[^\s{_IDEOGRAPH}{_OPENING}{_CLOSING}]+)[{_CLOSING}]*\s*"
    r"|\s*\S+\s*"
)


def install_line_breaking() -> None:
    """Let rich break lines between Chinese characters (see :data:`CJK_WORD`), for the whole
    process; calling it again changes nothing.

    >>> [m.group(0) for m in CJK_WORD.finditer("概率 P、对阵（R1）。 don’t stop")]
    ['概', '率 ', 'P、', '对', '阵', '（R1）。 ', 'don’t ', 'stop']
    """
    vars(importlib.import_module("rich._wrap"))["re_word"] = CJK_WORD
