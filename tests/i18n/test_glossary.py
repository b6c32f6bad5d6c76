"""The catalogue follows the glossary (docs/zh/glossary.md): one concept, one written form.

Each row of the glossary's table names a concept, its Chinese term (and the forms also used in
context), the forms never used, and a pattern that finds the concept in an English message. For
every message whose English text has the concept, the Chinese translation uses the term; no
translation anywhere uses a form the glossary rules out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from knockout.i18n import LOCALE_DIR

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "zh" / "glossary.md"


@dataclass(frozen=True)
class Term:
    concept: str
    forms: tuple[str, ...]  # the term and the forms also used
    never: tuple[str, ...]
    pattern: re.Pattern[str]


def _cells(line: str) -> list[str]:
    """A Markdown table row's cells (an escaped \\| is a bar inside a cell)."""
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def _words(cell: str) -> tuple[str, ...]:
    return tuple(w.strip() for w in re.split(r"[、/]", cell) if w.strip())


def glossary() -> list[Term]:
    terms = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|") or line.startswith("| ---") or "英文原文匹配" in line:
            continue
        concept, zh, also, never, _note, pattern = _cells(line)
        terms.append(
            Term(concept, _words(zh) + _words(also), _words(never), re.compile(pattern.strip("`")))
        )
    return terms


def translations() -> list[tuple[str, str]]:
    with (LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / "knockout.po").open("rb") as file:
        catalog = read_po(file)
    pairs = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        pairs += [(ids[-1] if len(strings) == 1 else ids[min(i, len(ids) - 1)], s)
                  for i, s in enumerate(strings)]  # fmt: skip
    return pairs


def _without_code(text: str) -> str:
    """``text`` without what is typed as it is (commands, keys, examples, code spans)."""
    text = re.sub(r"`[^`]*`|\"[^\"]*\"", " ", text)  # code spans, quoted keys
    text = re.sub(r"\w+(?:,[\w-]+)+", " ", text)  # CSV headers
    text = re.sub(r"\{[^{}]*\}", " ", text)  # placeholders
    text = re.sub(r"\S*/\S*", " ", text)  # paths
    text = re.sub(r"(?m)^ {4}.*$", " ", text)  # indented examples
    text = re.sub(r"knockout [a-z-]+( [a-z-]+)?", " ", text)  # command names
    text = re.sub(r"--[a-z-]+", " ", text)  # option names
    return re.sub(r"[\w.]+_[\w.]+|\w+(?:\.\w+)+", " ", text)  # keys and file names


def test_the_glossary_has_the_issues_terms() -> None:
    written = {form for term in glossary() for form in term.forms}
    issue = ["红方", "黑方", "慢棋", "快棋", "超快棋", "加赛", "竞叫", "甲", "乙", "和棋判黑方胜"]
    issue += ["弃权", "轮空", "对手分", "累进分", "直胜", "索伯分"]
    assert [term for term in issue if term not in written] == []


@pytest.mark.parametrize("term", glossary(), ids=lambda t: t.concept)
def test_the_catalogue_uses_the_glossarys_term(term: Term) -> None:
    wrong = [
        (english[:70], chinese[:70])
        for english, chinese in translations()
        if term.pattern.search(_without_code(english))
        and not any(form in chinese for form in term.forms)
    ]
    assert wrong == []


@pytest.mark.parametrize("term", [t for t in glossary() if t.never], ids=lambda t: t.concept)
def test_the_catalogue_never_uses_a_form_the_glossary_rules_out(term: Term) -> None:
    found = [
        (form, chinese[:70])
        for _, chinese in translations()
        for form in term.never
        if form in chinese
    ]
    assert found == []


def test_the_glossary_check_can_fail() -> None:
    red = next(t for t in glossary() if t.concept.startswith("Red"))
    assert red.pattern.search("Red's minutes") and not any(f in "红队用时" for f in red.forms)
