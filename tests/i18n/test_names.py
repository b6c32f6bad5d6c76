"""Chinese names in Latin letters (knockout.i18n.names): pinyin, surname first."""

from __future__ import annotations

import pytest

from knockout.i18n.names import COMPOUND_SURNAMES, SURNAME_READINGS, latin_name


@pytest.mark.parametrize(
    ("name", "latin"),
    [
        ("王天一", "Wang Tianyi"),
        ("郑惟桐", "Zheng Weitong"),
        ("许银川", "Xu Yinchuan"),
        ("赵鑫鑫", "Zhao Xinxin"),
        ("吕钦", "Lyu Qin"),  # ü as yu, as on passports
        ("曾益谦", "Zeng Yiqian"),  # 曾 as a surname, not ceng
        ("单霞丽", "Shan Xiali"),
        ("欧阳琦琳", "Ouyang Qilin"),  # a compound surname is one word
        ("Li Ming", "Li Ming"),
        ("", ""),
    ],
)
def test_latin_names(name: str, latin: str) -> None:
    assert latin_name(name) == latin


def test_every_listed_reading_is_plain_latin() -> None:
    assert all(r.isascii() and r.isalpha() and r.islower() for r in SURNAME_READINGS.values())
    assert all(len(s) == 2 for s in COMPOUND_SURNAMES)
