"""Chinese names in Latin letters, for the world's forms (TRF-16, PGN): Hanyu Pinyin.

A results file that FIDE's and other programs read expects Latin letters where a name goes;
a Chinese arbiter's entry list has 王天一. :func:`latin_name` writes the name as mainland
passports and FIDE's rating lists do: the surname first, then the given name as one word, each
capitalised, without tones (王天一: Wang Tianyi; 欧阳琦琳: Ouyang Qilin). The syllables come
from pypinyin (a maintained Hanzi-to-Pinyin library); the readings of characters that are read
another way as a surname (单 Shan, not Dan; 曾 Zeng; 区 Ou) are listed here, reviewed, since a
dictionary gives the common reading. ü is written ``yu`` as on passports (吕: Lyu). A name with
no Chinese character is returned as it is.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["COMPOUND_SURNAMES", "SURNAME_READINGS", "has_han", "latin_name"]

#: Two-character surnames (the common ones), read as one word: 欧阳 Ouyang.
COMPOUND_SURNAMES = frozenset(
    {
        "欧阳",
        "司马",
        "上官",
        "诸葛",
        "东方",
        "皇甫",
        "尉迟",
        "公孙",
        "慕容",
        "长孙",
        "宇文",
        "司徒",
        "夏侯",
        "令狐",
        "澹台",
        "万俟",
        "端木",
        "轩辕",
        "呼延",
        "南宫",
        "独孤",
        "百里",
        "西门",
        "申屠",
        "闻人",
        "钟离",
    }
)

#: Characters whose reading as a surname differs from their commonest reading.
SURNAME_READINGS = {
    "单": "shan",
    "曾": "zeng",
    "区": "ou",
    "乐": "yue",
    "解": "xie",
    "仇": "qiu",
    "查": "zha",
    "盖": "ge",
    "朴": "piao",
    "覃": "qin",
    "缪": "miao",
    "翟": "zhai",
    "召": "shao",
    "种": "chong",
    "繁": "po",
    "员": "yun",
    "长孙": "zhangsun",
    "尉迟": "yuchi",
    "万俟": "moqi",
}

_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def has_han(text: str) -> bool:
    """True when ``text`` holds a Chinese character."""
    return _HAN.search(text) is not None


@cache
def _syllables(text: str) -> str:
    from pypinyin import Style, lazy_pinyin  # noqa: PLC0415 (loaded only to write a file)

    return "".join(lazy_pinyin(text, style=Style.NORMAL, errors="default")).replace("v", "yu")


def latin_name(name: str) -> str:
    """``name`` in Latin letters: Hanyu Pinyin, surname first, given name as one word.

    >>> latin_name("王天一"), latin_name("欧阳琦琳"), latin_name("单霞丽"), latin_name("吕钦")
    ('Wang Tianyi', 'Ouyang Qilin', 'Shan Xiali', 'Lyu Qin')
    >>> latin_name("Zhou Ming"), latin_name("郑惟桐 (B)")
    ('Zhou Ming', 'Zheng Weitong (B)')
    """
    if not has_han(name):
        return name
    words = []
    for part in name.split():
        if not has_han(part):
            words.append(part)
            continue
        split = 2 if part[:2] in COMPOUND_SURNAMES else 1
        surname, given = part[:split], part[split:]
        family = SURNAME_READINGS.get(surname) or _syllables(surname)
        words.append(family.capitalize())
        if given:
            words.append(_syllables(given).capitalize())
    return " ".join(words)
