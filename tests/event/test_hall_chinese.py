"""The hall's pages in Chinese: ``event publish`` in the run's language (``--lang``, else the
event's own), ``event serve`` per request (``?lang=zh``, ``?lang=en``), the English pages as they
were. A Chinese page holds the glossary's labels and no English sentence of the catalogue."""

from __future__ import annotations

import html
import re
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from chinese import english_left
from hall_helpers import hall_event

from knockout.dashboard.web.pages import PAGES, Site
from knockout.dashboard.web.server import HallSite, make_server
from knockout.event.language import write_language
from knockout.event.reader import load_event_read_only
from knockout.i18n import set_language, speaking

#: Labels every Chinese page of the tests' event shows, by page (the glossary's terms).
LABELS = {
    "index.html": [
        "现在要下的对局",
        "需要询问的决定",
        "最新结果",
        "台次",
        "红方",
        "黑方",
        "对阵表",
    ],
    "round-1.html": ["第 1 轮：对阵与结果", "和棋判黑方胜", "慢棋", "突然死亡局", "待下"],
    "slips.html": ["第 1 台", "红方签名", "黑方签名", "裁判", "结果（先写红方）", "步数"],
    "bid-forms.html": ["突然死亡局竞叫", "甲报颜色（选择方）", "乙回应（竞叫方）", "乙反对报红"],
    "ranking.html": ["目前排名", "名次", "棋手", "破同分规则"],
    "bracket.html": ["对阵表", "四分之一决赛", "半决赛", "决赛", "弃权"],
}


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    set_language("en", explicit=False)


def text_of(page: str) -> str:
    """The page's words: scripts, styles and tags dropped, entities decoded."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_english_check_can_fail() -> None:
    assert english_left("现在要下的对局 Li Ming Zhang Wei R1-M3") == []  # names are data
    assert english_left("Games to play now") == ["Games to play now"]


@pytest.fixture(scope="module")
def event_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return hall_event(tmp_path_factory.mktemp("hall-zh"))


def chinese_pages(path: Path, *, live: bool = False) -> dict[str, str]:
    with speaking("zh_CN"):
        return Site(load_event_read_only(path), command_file="cup.db", live=live).pages()


@pytest.mark.parametrize("live", [False, True])
def test_every_page_speaks_chinese(event_path: Path, live: bool) -> None:
    pages = chinese_pages(event_path, live=live)
    for name, labels in LABELS.items():
        text = text_of(pages[name])
        assert [label for label in labels if label not in text] == [], name
    for name, page in pages.items():
        if name.endswith(".html"):
            assert '<html lang="zh-Hans">' in page, name
        assert english_left(text_of(page)) == [], name


def test_the_chinese_pages_say_what_the_english_ones_say(event_path: Path) -> None:
    """The same games, names, scores, clocks and boards: only the words differ."""
    event = load_event_read_only(event_path)
    english = Site(event, command_file="cup.db").pages()
    chinese = chinese_pages(event_path)
    assert set(english) == set(chinese) == {*PAGES, *(f"round-{k}.html" for k in range(1, 5))}
    scores = re.compile(r"\b\d+-\d+\b|½-½|\b\d+(?:/\d+)?\+\d+\b")
    for name in english:
        en, zh = text_of(english[name]), text_of(chinese[name])
        assert scores.findall(en) == scores.findall(zh), name
        for player in event.state.bracket.players:
            assert en.count(player) == zh.count(player), (name, player)


def test_a_page_asked_for_in_traditional_chinese(event_path: Path) -> None:
    with speaking("zh_TW"):
        page = Site(load_event_read_only(event_path)).render("index.html")
    assert page is not None and '<html lang="zh-Hant">' in page
    assert "現在要下的對局" in text_of(page) and "紅方" in text_of(page)


def run_knockout(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    from knockout.program import main

    saved = sys.argv
    sys.argv = ["knockout", *argv]
    try:
        main()
    except SystemExit as stop:
        assert stop.code in (0, None), capsys.readouterr()
    finally:
        sys.argv = saved
    return capsys.readouterr().out


def test_publish_speaks_lang_else_the_events_own_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "KNOCKOUT_LANG"):
        monkeypatch.delenv(name, raising=False)
    path = hall_event(tmp_path)
    run_knockout(["event", "publish", str(path), "--out", str(tmp_path / "en")], capsys)
    assert "Games to play now" in (tmp_path / "en" / "index.html").read_text(encoding="utf-8")
    run_knockout(
        ["--lang", "zh", "event", "publish", str(path), "--out", str(tmp_path / "zh")], capsys
    )
    assert "现在要下的对局" in (tmp_path / "zh" / "index.html").read_text(encoding="utf-8")
    write_language(path, "zh_CN")  # as event new --lang zh stores it
    set_language("en", explicit=False)
    run_knockout(["event", "publish", str(path), "--out", str(tmp_path / "own")], capsys)
    slips = (tmp_path / "own" / "slips.html").read_text(encoding="utf-8")
    assert "红方签名" in slips and "Red signs" not in slips
    run_knockout(
        ["--lang", "en", "event", "publish", str(path), "--out", str(tmp_path / "asked")], capsys
    )
    assert "Red signs" in (tmp_path / "asked" / "slips.html").read_text(encoding="utf-8")


@contextmanager
def serving(hall: HallSite) -> Iterator[str]:
    server = make_server(hall, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_serve_answers_each_request_in_the_language_it_asks_for(event_path: Path) -> None:
    hall = HallSite(event_path, command_file="cup.db")  # made in English: the default
    assert hall.lang == "en"
    with serving(hall) as url:
        status, zh = get(url + "/?lang=zh")
        assert status == 200 and "现在要下的对局" in zh
        # its links keep asking for Chinese; the live page fetches itself with its query
        assert 'href="round-1.html?lang=zh_CN"' in zh and 'href="slips.html?lang=zh_CN"' in zh
        assert "location.pathname + location.search" in zh
        status, en = get(url + "/")
        assert status == 200 and "Games to play now" in en and "现在要下的对局" not in en
        assert 'href="round-1.html"' in en
        status, slip = get(url + "/slips.html?lang=zh-Hans")
        assert status == 200 and "红方签名" in slip
        status, en_again = get(url + "/slips.html?lang=en")
        assert status == 200 and "Red signs 红方签名" in en_again
        status, body = get(url + "/?lang=fr")
        assert status == 400
        assert body == "?lang=fr: expected one of zh, zh_TW, en, got 'fr'\n"
        status, body = get(url + "/no-such.html?lang=zh")
        assert status == 404 and "没有页面" in body


def test_serve_made_in_chinese_speaks_it_unless_asked(event_path: Path) -> None:
    with speaking("zh_CN"):
        hall = HallSite(event_path, command_file="cup.db")  # as `serve` under --lang zh
    with serving(hall) as url:
        assert "现在要下的对局" in get(url + "/")[1]
        assert "Games to play now" in get(url + "/?lang=en")[1]
        assert "现在要下的对局" in get(url + "/index.html")[1]
