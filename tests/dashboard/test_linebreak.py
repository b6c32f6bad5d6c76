"""Chinese line breaking is the same in every process and test: set once, as the views load.

rich breaks lines only at spaces; knockout's views break Chinese text between characters
(knockout.dashboard.linebreak). The pattern is set when knockout.dashboard is imported, so a
view wraps the same way whether or not a Chinese --help ran earlier in the process, and Latin
text wraps exactly as rich's own pattern wraps it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from io import StringIO

import pytest
import rich._wrap
from babel.messages.pofile import read_po
from rich.console import Console
from rich.table import Table

import knockout.dashboard  # noqa: F401 (sets the line breaking under test)
from knockout.dashboard.linebreak import CJK_WORD
from knockout.i18n import LOCALE_DIR
from knockout.i18n.names import has_han

RICH_WORD = re.compile(r"\s*\S+\s*")  # rich's own pattern (rich/_wrap.py)

SENTENCE = "R1-M3（王天一 对 郑惟桐）第 3 局：突然死亡局。甲 = 王天一（第 2 局用时较少）。"


def narrow_table() -> str:
    table = Table("对阵", "说明", width=30)
    table.add_row("R1-M3", SENTENCE)
    console = Console(file=StringIO(), width=30, color_system=None)
    console.print(table)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def test_the_pattern_is_set_once_the_views_are_imported() -> None:
    assert rich._wrap.re_word is CJK_WORD


def test_chinese_breaks_between_characters_not_at_the_cell_edge() -> None:
    out = narrow_table()
    assert "…" not in out
    joined = "".join(line.split("│")[2].strip() for line in out.splitlines() if "│" in line)
    assert joined.replace(" ", "") == SENTENCE.replace(" ", "")
    lines = [line.split("│")[2].strip() for line in out.splitlines() if "│" in line]
    assert not any(line.startswith(("，", "。", "：", "）")) for line in lines)


@pytest.mark.system
def test_a_fresh_process_wraps_as_this_one() -> None:
    code = (
        "import sys; sys.path.insert(0, '.')\n"
        "from tests.dashboard.test_linebreak import narrow_table\n"
        "print(narrow_table(), end='')\n"
    )
    root = __file__.rsplit("/tests/", 1)[0]
    fresh = subprocess.run(
        [sys.executable, "-c", code], cwd=root, check=True, capture_output=True, text=True
    ).stdout
    assert fresh == narrow_table()


def words(pattern: re.Pattern[str], text: str) -> list[str]:
    out, position = [], 0
    while (found := pattern.match(text, position)) is not None and found.end() > position:
        out.append(found.group(0))
        position = found.end()
    return out


def test_latin_text_wraps_exactly_as_rich_wraps_it() -> None:
    with (LOCALE_DIR / "knockout.pot").open("rb") as file:
        ids = [m.id for m in read_po(file) if isinstance(m.id, str) and not has_han(m.id)]
    assert len(ids) > 500
    extra = ["don’t “quoted” (x)", "  two  spaces ", "½-½ 1:01:39…", "a\tb\nc"]
    for text in ids + extra:
        assert words(CJK_WORD, text) == words(RICH_WORD, text), text
