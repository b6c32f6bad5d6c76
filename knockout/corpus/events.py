"""What a record's header and event text say about when, where in the event and who played.

Collections put much in the ``Event`` tag: ``張雄飛先負楊官璘(1955.5於北京)``,
``19840112楊官璘勝柳大華``, ``2009年“磐安偉業杯”全國象棋精英賽第三輪第1局``. This module
reads:

* the date (:func:`parse_date`) from the ``Date`` tag in any of its spellings
  (``1994.4.6``, ``1992年10月25日``, ``82-12-20``, ``56。12。26``, ``19820506``), else from an
  eight-digit date in the event text; a two-digit year is 19xx from 50 on, else 20xx;
* the year (:func:`event_year`) from the date, else from a year written in the event text (the
  first of 1900-2099 standing alone or opening an eight-digit date), else none (never guessed);
* the round (:func:`event_round`): the ``Round`` tag's number, else ``第N輪`` or ``RN`` in the
  event;
* the players (:func:`event_players`), for a record whose ``Red`` and ``Black`` tags are empty:
  the names on either side of the result word (``先勝``, ``和``, ``(紅先負)``, ``勝`` ...).
"""

from __future__ import annotations

import re

__all__ = ["event_date", "event_game", "event_players", "event_round", "event_year", "parse_date"]

_CHINESE_NUMBERS = {c: i for i, c in enumerate("〇一二三四五六七八九", start=0)}

_DATE_IN_TEXT = re.compile(r"(?<!\d)(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:[0-2]\d|3[01])(?!\d)")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?=\D|$|\d{4}(?!\d))")
_ROUND = re.compile(
    r"第\s*([0-9０-９]+|[一二三四五六七八九十]+)\s*[輪轮]|(?<![A-Za-z])R(\d+)(?!\d)"
)

_CJK = r"[\u3400-\u9fff·]"
_VERDICT = r"[(（]?\s*(?:[紅红]\s*)?(?:先\s*)?(?:勝|胜|和|負|负)\s*[)）]?"
_PLAYERS_JOINED = re.compile(rf"({_CJK}{{2,12}}?)({_VERDICT})({_CJK}{{2,12}})")
_WORD = r"(?:[\u3400-\u9fff·]{1,12}|[A-Za-z][A-Za-z0-9_.\-]{1,20})"
_PLAYERS_SPACED = re.compile(
    rf"({_WORD}(?:\s+{_CJK}{{1,4}})?)\s+({_VERDICT})\s+({_WORD}(?:\s+{_CJK}{{1,4}})?)"
)


def _number(text: str) -> int | None:
    """A round number written in digits (ASCII or full-width) or Chinese numerals up to 99."""
    text = text.translate(str.maketrans("０１２３４５６７８９", "0123456789"))
    if text.isdigit():
        return int(text)
    if not text or any(c not in _CHINESE_NUMBERS and c != "十" for c in text):
        return None
    if "十" not in text:
        return int("".join(str(_CHINESE_NUMBERS[c]) for c in text))
    tens, _, ones = text.partition("十")
    return (_CHINESE_NUMBERS[tens] if tens else 1) * 10 + (_CHINESE_NUMBERS[ones] if ones else 0)


def _full_year(text: str) -> int:
    year = int(text)
    if len(text) == 2:
        return 1900 + year if year >= 50 else 2000 + year
    return year


def parse_date(text: str) -> str:
    """The date ``text`` writes, as ``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY``; ``""`` if it writes
    none that can be read. A day or month written 0 leaves it out.

    >>> [parse_date(t) for t in ("1994.4.6", "1992年10月25日", "82-12-20", "19820506", "1955.5")]
    ['1994-04-06', '1992-10-25', '1982-12-20', '1982-05-06', '1955-05']
    >>> [parse_date(t) for t in ("12/9/2001", "2003-04-00", "19540600", "0000-00-00")]
    ['2001-09-12', '2003-04', '1954-06', '']
    >>> parse_date("13-6"), parse_date("0909，2000"), parse_date("")
    ('', '', '')
    """
    parts = re.findall(r"\d+", text)
    if len(parts) == 1 and len(parts[0]) == 8:
        parts = [parts[0][:4], parts[0][4:6], parts[0][6:]]
    if len(parts) == 3 and len(parts[2]) == 4 and len(parts[0]) <= 2:
        parts = parts[::-1]  # day, month, year
    if not parts or not (len(parts[0]) == 4 or (len(parts[0]) == 2 and len(parts) == 3)):
        return ""
    year = _full_year(parts[0])
    if not 1900 <= year <= 2099:
        return ""
    out = f"{year:04d}"
    for part, top in zip(parts[1:3], (12, 31), strict=False):
        number = int(part)
        if number == 0:
            break
        if number > top:
            return ""
        out += f"-{number:02d}"
    return out


def event_date(event: str) -> str:
    """An eight-digit date written in the event text, or ``""``.

    >>> event_date("19840112楊官璘勝柳大華"), event_date("19500400楊官璘勝李志海")
    ('1984-01-12', '1950-04')
    """
    match = _DATE_IN_TEXT.search(event)
    return parse_date(match[0]) if match else ""


def event_year(date: str, event: str) -> int | None:
    """The year of a game: from its (parsed) date, else the first year the event text writes.

    >>> event_year("", "張雄飛先負楊官璘(1955.5於北京)"), event_year("1982-05-06", "")
    (1955, 1982)
    >>> event_year("", "五羊杯第3輪") is None
    True
    """
    if date:
        return int(date[:4])
    match = _YEAR.search(event)
    return int(match[1]) if match else None


def event_round(round_tag: str, event: str) -> str:
    """The round as a number (text), from the ``Round`` tag, else from the event text; ``""``.

    >>> event_round("第07轮", ""), event_round("", "2009;全國象棋甲級聯賽 R16 洪智(先和)謝卓淼")
    ('7', '16')
    >>> event_round("", "全國象棋精英賽第三輪第1局"), event_round("", "五八炮對屏風馬")
    ('3', '')
    """
    for text in (round_tag, event):
        if match := _ROUND.search(text):
            number = _number(match[1] or match[2])
            if number is not None:
                return str(number)
        if text is round_tag and round_tag.strip().isdigit():
            return str(int(round_tag.strip()))
    return ""


def event_players(event: str) -> tuple[str, str] | None:
    """``(Red, Black)`` as the event text names them around the result word, or None (see
    :func:`event_game`).

    >>> event_players("19840112楊官璘勝柳大華")
    ('楊官璘', '柳大華')
    >>> event_players("1978年個人決賽第6輪 湖北柳大華（紅先勝）浙江於幼華")
    ('湖北柳大華', '浙江於幼華')
    >>> event_players("2009年浩坤杯全國象棋個人賽 上海金外灘隊 謝巋 和 遼寧隊 卜鳳波")
    ('上海金外灘隊 謝巋', '遼寧隊 卜鳳波')
    >>> event_players("五八炮對屏風馬") is None
    True
    """
    found = event_game(event)
    return None if found is None else (found[0], found[1])


_VERDICTS = {"勝": "1-0", "胜": "1-0", "和": "1/2-1/2", "負": "0-1", "负": "0-1"}


def event_game(event: str) -> tuple[str, str, str] | None:
    """``(Red, Black, result)`` as the event text writes them (``X 先負 Y``: Red X lost, ``0-1``),
    or None. Text naming more than one game (two result words between names) gives None.

    >>> event_game("2009年浩坤杯全國象棋個人賽 湖北宏宇隊 洪智 勝 上海浦東花木廣洋隊 葛維蒲")
    ('湖北宏宇隊 洪智', '上海浦東花木廣洋隊 葛維蒲', '1-0')
    >>> event_game("遼寧趙慶閣(紅先負)上海胡榮華(1978.9.27)")
    ('遼寧趙慶閣', '上海胡榮華', '0-1')
    >>> event_game("BrainChess (先負) Shiga")
    ('BrainChess', 'Shiga', '0-1')
    >>> event_game("廣東 楊官璘  先和 湖北 李義庭 廣東楊官璘 先勝 上海 胡榮華") is None
    True
    """
    found = []
    for pattern in (_PLAYERS_SPACED, _PLAYERS_JOINED):
        for match in pattern.finditer(event):
            red, black = match[1].strip(), match[3].strip()
            red = re.sub(r"^.*?(?:[輪轮局]|\d)", "", red) if re.search(r"[輪轮]", red) else red
            if len(red.replace(" ", "")) >= 2 and len(black.replace(" ", "")) >= 2:
                verdict = next(c for c in match[2] if c in _VERDICTS)
                found.append((red, black, _VERDICTS[verdict]))
        if found:
            break
    return found[0] if len(found) == 1 else None
