"""English left on a Chinese screen: the catalogue's English sentences found in a text."""

from __future__ import annotations

import re
from functools import cache

from babel.messages.pofile import read_po

from knockout.i18n import LOCALE_DIR


@cache
def english_stretches() -> set[str]:
    """Every run of three English words or more between the placeholders of the catalogue's
    message ids (as tests/i18n/test_no_english.py looks for them)."""
    with (LOCALE_DIR / "knockout.pot").open("rb") as file:
        catalog = read_po(file)
    found: set[str] = set()
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for msgid in ids:
            if not msgid or any(loc[0] == "--help" for loc in message.locations):
                continue
            for part in re.split(r"\{[^{}]*\}|\[/?\w*\]|\n|`[^`]*`", msgid):
                words = re.findall(r"[A-Za-z][A-Za-z'-]+", part)
                if len(words) >= 3:
                    found.add(" ".join(words))
    return found


def english_left(text: str) -> list[str]:
    """The catalogue's English sentences found in ``text`` (the commands printed on the forms
    and the event's own names are not sentences of the catalogue)."""
    flat = " ".join(re.findall(r"[A-Za-z][A-Za-z'-]+", text))
    return sorted(s for s in english_stretches() if s in flat)
