"""The message catalogues: complete, faithful to their placeholders, current, compiled.

A marked string without a Chinese translation, or a translation that drops, renames or
reformats a placeholder (``{n}``, ``{share:.1%}``), a rich markup tag or an escaped bracket,
fails here. So does a template that no longer matches the code: after marking new strings or
changing a command's help, run ``make catalogues`` and translate the new entries of
knockout/i18n/locale/zh_CN/LC_MESSAGES/knockout.po (the terms: docs/zh/glossary.md).
"""

from __future__ import annotations

import gettext
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from knockout.i18n import LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = LOCALE_DIR / "knockout.pot"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]

#: A str.format field: a name (with attribute or index), a conversion, a format spec; or {}.
FIELD = re.compile(r"\{(?:\w+(?:\.\w+|\[\w+\])*(?:![rsa])?(?::[^{}]*)?)?\}")
#: rich markup tags (an escaped \[ is not one).
MARKUP = re.compile(r"(?<!\\)\[(/?(?:bold|italic|dim|underline|red|green|blue|yellow|cyan)?)\]")


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def forms(message: Message) -> list[tuple[str, str]]:
    """(message id, translation) for each form of ``message``: a language with one form (as
    Chinese) says every count with it, so it is held to the plural id's placeholders."""
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    if len(strings) == 1:
        return [(ids[-1], strings[0])]
    return [(ids[min(i, len(ids) - 1)], s) for i, s in enumerate(strings)]


def shape(text: str) -> tuple[Counter[str], Counter[str], int]:
    return Counter(FIELD.findall(text)), Counter(MARKUP.findall(text)), text.count("\\[")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: str) -> None:
    catalog = read(LOCALE_DIR / lang / "LC_MESSAGES" / "knockout.po")
    missing = [m.id for m in catalog if m.id and (m.fuzzy or not all(s for _, s in forms(m)))]
    assert missing == [], f"{lang}: {len(missing)} untranslated, e.g. {missing[:3]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_every_placeholder(lang: str) -> None:
    catalog = read(LOCALE_DIR / lang / "LC_MESSAGES" / "knockout.po")
    broken = [
        (msgid, text)
        for m in catalog
        if m.id
        for msgid, text in forms(m)
        if text and shape(msgid) != shape(text)
    ]
    assert broken == []


def test_the_placeholder_check_can_fail() -> None:
    assert shape("{n} games at {share:.1%}") != shape("{n} 局，{share}")
    assert shape("[bold]Example[/bold]: \\[model]") != shape("[bold]示例：[model]")
    assert shape("{n} games at {share:.1%}") == shape("{share:.1%} 下 {n} 局")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_catalogue_holds_the_templates_messages(lang: str) -> None:
    template = {m.id for m in read(TEMPLATE) if m.id}
    catalogue = {m.id for m in read(LOCALE_DIR / lang / "LC_MESSAGES" / "knockout.po") if m.id}
    assert sorted(template - catalogue, key=str) == [], "run make catalogues"
    assert sorted(catalogue - template, key=str) == [], "run make catalogues"


def test_the_template_is_what_the_code_marks() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from catalogues import stale
    finally:
        sys.path.remove(str(ROOT / "tools"))
    assert stale() == [], "run make catalogues, then translate the new entries"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogue_is_the_current_one(lang: str) -> None:
    po = LOCALE_DIR / lang / "LC_MESSAGES" / "knockout.po"
    with po.with_suffix(".mo").open("rb") as file:
        compiled = gettext.GNUTranslations(file)
    for message in read(po):
        if message.id and not isinstance(message.id, tuple) and not message.context:
            assert compiled.gettext(message.id) == message.string, (
                "the .mo is older than the .po: run make (or python tools/catalogues.py compile)"
            )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plurals_come_from_the_catalogue(lang: str) -> None:
    catalog = read(LOCALE_DIR / lang / "LC_MESSAGES" / "knockout.po")
    assert catalog.num_plurals == 1  # Chinese has one form, whatever the count
    assert catalog.plural_expr == "0"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_format_specs_write_each_locales_numbers(lang: str) -> None:
    """Numbers are written by format specs (``{p:.1%}``, ``{n:,}``): the shipped languages'
    CLDR decimal point, grouping separator and percent sign are the ones those specs write."""
    from babel import Locale
    from babel.numbers import format_decimal, format_percent

    locale = Locale.parse(lang)
    assert format_decimal(1234567.891, format="#,##0.###", locale=locale) == f"{1234567.891:,.3f}"
    assert format_percent(0.1234, format="#,##0.0%", locale=locale) == f"{0.1234:.1%}"
    assert locale.number_symbols["latn"]["decimal"] == "."
    assert locale.number_symbols["latn"]["group"] == ","


def test_the_traditional_catalogue_is_converted_from_the_simplified_one() -> None:
    """zh_TW is OpenCC's conversion of zh_CN with the reviewed term list, never hand-edited."""
    pytest.importorskip("opencc")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from catalogues import TRADITIONAL, traditional_bytes
    finally:
        sys.path.remove(str(ROOT / "tools"))
    assert TRADITIONAL.read_bytes() == traditional_bytes(), "run make catalogues"


def test_the_term_list_corrects_the_converter() -> None:
    pytest.importorskip("opencc")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from traditional import converter, terms, to_traditional
    finally:
        sys.path.remove(str(ROOT / "tools"))
    convert = converter()
    assert "迴圈賽" in convert.convert("瑞士制或循环赛")  # what the list is there for
    assert (
        to_traditional("瑞士制或循环赛，和棋判黑方胜", convert, terms())
        == "瑞士制或循環賽，和棋判黑方勝"
    )
