"""The Traditional Chinese catalogue, made from the Simplified one (``make catalogues``).

OpenCC (the maintained converter; its ``s2twp`` configuration: characters and Taiwan's own
phrases, 概率 to 機率, 文件 to 檔案) converts every translation, then the reviewed term list
``tools/zh_TW-terms.tsv`` puts back the Xiangqi terms a phrase table gets wrong (循環賽, not
迴圈賽). Placeholders and markup are ASCII, which OpenCC leaves alone.
"""

from __future__ import annotations

from pathlib import Path

import opencc
from babel.messages.catalog import Catalog

TERMS = Path(__file__).with_name("zh_TW-terms.tsv")


def terms() -> list[tuple[str, str]]:
    """(what OpenCC writes, what the arbiter writes), in the file's order."""
    rows = []
    for line in TERMS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            wrong, right, _why = line.split("\t", 2)
            rows.append((wrong, right))
    return rows


def converter() -> opencc.OpenCC:
    return opencc.OpenCC("s2twp")


def to_traditional(text: str, convert: opencc.OpenCC, overrides: list[tuple[str, str]]) -> str:
    out = convert.convert(text)
    for wrong, right in overrides:
        out = out.replace(wrong, right)
    return out


def converted_catalogue(simplified: Catalog) -> Catalog:
    """The zh_TW catalogue: every message of ``simplified``, its translation converted."""
    convert, overrides = converter(), terms()
    catalog = Catalog(
        locale="zh_TW",
        project="knockout",
        fuzzy=False,
        creation_date=simplified.creation_date,
        revision_date=simplified.revision_date,
    )
    for message in simplified:
        if not message.id:
            continue
        string = message.string
        if isinstance(string, tuple):
            string = tuple(to_traditional(s, convert, overrides) for s in string)
        elif string:
            string = to_traditional(string, convert, overrides)
        catalog.add(
            message.id,
            string,
            locations=message.locations,
            flags=message.flags,
            auto_comments=message.auto_comments,
            context=message.context,
        )
    return catalog
