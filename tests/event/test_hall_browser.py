"""The hall screen in a real browser (headless chromium over the DevTools protocol).

``knockout event serve`` runs as its own process; the browser loads ``/``, finds the round's
pairings and results in the DOM, and sees a game recorded meanwhile (by this process, as by
another terminal) appear without a reload. It then takes screenshots of the bracket and of the
print pages at A4 and checks they are not blank and that Chinese names are drawn with a CJK
font. Timeouts are generous: a slow machine is not a failure. Without chromium the tests skip
and say why (.ci/run installs it).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from chromium import A4, Browser, find_chromium
from hall_helpers import hall_event, record_next
from matplotlib.image import imread

from knockout.event.store import load_event

BINARY, WHY_NOT = find_chromium()
pytestmark = [pytest.mark.system, pytest.mark.skipif(BINARY is None, reason=WHY_NOT)]

#: Seconds the page may take to show an entry (it polls every 1.5 s; the rest is slack).
UPDATE_SECONDS = 30


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """The event file and the URL of ``knockout event serve`` running on it."""
    path = hall_event(tmp_path_factory.mktemp("hall"))
    code = "from knockout.cli import main; main()"
    process = subprocess.Popen(
        [sys.executable, "-c", code, "event", "serve", str(path), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, (line, process.stderr.read() if process.poll() is not None else "")
        assert "loopback only" in line and "Read-only" in line
        yield path, found[0]
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert BINARY is not None
    with Browser(BINARY, timeout=90.0) as b:
        yield b


def not_blank(png: Path) -> tuple[float, int]:
    """The share of pixels that are not white, and how many grey levels the picture has."""
    pixels = imread(png)[..., :3]
    ink = float(np.mean(pixels.min(axis=2) < 0.9))
    levels = len(np.unique(np.round(pixels.mean(axis=2) * 255)))
    return ink, levels


def fonts_of(browser: Browser, selector: str) -> list[str]:
    """The fonts chromium drew the text of the first ``selector`` with."""
    browser.call("DOM.enable")
    browser.call("CSS.enable")
    root = browser.call("DOM.getDocument")["root"]["nodeId"]
    node = browser.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
    fonts = browser.call("CSS.getPlatformFontsForNode", nodeId=node)["fonts"]
    return [f["familyName"] for f in fonts]


def table_rows(browser: Browser, selector: str) -> list[list[str]]:
    return browser.evaluate(
        f"Array.from(document.querySelectorAll({json.dumps(selector)})).map("
        "r => Array.from(r.cells).map(c => c.textContent.trim()))"
    )


def test_the_hall_screen_shows_the_round_and_updates_by_itself(
    served: tuple[Path, str], browser: Browser
) -> None:
    path, url = served
    browser.size(1280, 900)
    browser.open(url)
    event = load_event(path)
    rows = table_rows(browser, "#games-now tbody tr")
    expected = sorted(event.next_games(), key=lambda g: (g.board is None, g.board or 0))
    assert [r[1:6] for r in rows] == [
        [g.match, str(g.number), g.stage, g.red, g.black] for g in expected
    ]
    decisions = browser.evaluate(
        "Array.from(document.querySelectorAll('.decision')).map(d => d.dataset.match)"
    )
    assert decisions == [b.match for b in event.pending_bids()]
    results = table_rows(browser, "#latest-results tbody tr")
    last = event.games[-1]
    score = {"red": "1-0", "draw": "½-½", "black": "0-1"}[last.result.value]
    assert results[0][:6] == [last.match, str(last.number), last.stage, last.red, score, last.black]

    browser.evaluate("window.__notReloaded = 42")
    game = next(g for g in event.next_games() if g.match == "R1-M7")
    started = time.monotonic()
    record_next(path, "R1-M7", "0-1")  # from "another terminal"
    row = f"#latest-results tr[data-match='R1-M7'][data-game='{game.number}']"
    browser.wait_for(f"document.querySelector({json.dumps(row)}) !== null", timeout=UPDATE_SECONDS)
    seconds = time.monotonic() - started
    assert browser.evaluate("window.__notReloaded") == 42  # updated in place, not reloaded
    first = table_rows(browser, "#latest-results tbody tr")[0]
    assert first[:6] == ["R1-M7", str(game.number), game.stage, game.red, "0-1", game.black]
    print(f"entry shown by the browser {seconds:.1f} s after it was recorded")


def test_the_hall_screen_works_without_javascript(
    served: tuple[Path, str], browser: Browser
) -> None:
    path, url = served
    browser.call("Emulation.setScriptExecutionDisabled", value=True)
    try:
        browser.open(url + "index.html")
        text = browser.evaluate("document.querySelector('main').innerText")
    finally:
        browser.call("Emulation.setScriptExecutionDisabled", value=False)
    for g in load_event(path).next_games():
        assert g.red in text and g.black in text


def test_bracket_screenshot_is_drawn_with_a_cjk_font(
    served: tuple[Path, str], browser: Browser, tmp_path: Path
) -> None:
    _, url = served
    browser.size(1280, 1000)
    browser.open(url + "bracket.html")
    png = browser.screenshot(tmp_path / "bracket.png", full_page=True)
    ink, levels = not_blank(png)
    assert ink > 0.03 and levels > 16, (ink, levels)
    boxes = browser.evaluate("document.querySelectorAll('svg g.match').length")
    assert boxes == 15 + 1  # 8 + 4 + 2 + 1 matches and byes, and the match for third place
    fonts = fonts_of(browser, "svg g.match text")
    assert any("CJK" in f or "Han" in f or "Hei" in f for f in fonts), fonts


@pytest.mark.parametrize("page", ["slips.html", "bid-forms.html"])
def test_print_pages_at_a4(
    served: tuple[Path, str], browser: Browser, tmp_path: Path, page: str
) -> None:
    path, url = served
    browser.size(*A4, media="print")
    try:
        browser.open(url + page)
        assert browser.evaluate("getComputedStyle(document.querySelector('nav')).display") == (
            "none"
        )
        png = browser.screenshot(tmp_path / page.replace(".html", ".png"))
        ink, levels = not_blank(png)
        assert ink > 0.02 and levels > 16, (page, ink, levels)
        event = load_event(path)
        if page == "slips.html":
            count = browser.evaluate("document.querySelectorAll('section.slip').length")
            assert count == len(event.next_games())
            names = browser.evaluate("document.querySelector('section.slip').innerText")
            first = sorted(event.next_games(), key=lambda g: g.board or 99)[0]
            assert first.red in names and first.black in names and f"Board {first.board}" in names
        else:
            text = browser.evaluate("document.querySelector('section.form').innerText")
            bid = event.pending_bids()[0]
            assert bid.match in text and all(n in text for n in bid.players)
            assert "甲" in text and "乙" in text and "Red 35 v Black 5" in text
        fonts = fonts_of(browser, "main section")
        assert any("CJK" in f or "Han" in f or "Hei" in f for f in fonts), fonts
    finally:
        browser.size(1280, 900)


def test_the_hall_screen_in_chinese(served: tuple[Path, str], browser: Browser) -> None:
    """``?lang=zh`` on a server started in English: the DOM holds the glossary's labels, the
    links keep the language, and an entry recorded meanwhile arrives still in Chinese."""
    path, url = served
    browser.size(1280, 900)
    browser.open(url + "?lang=zh")
    assert browser.evaluate("document.documentElement.lang") == "zh-Hans"
    heads = browser.evaluate(
        "Array.from(document.querySelectorAll('main h2')).map(h => h.innerText)"
    )
    assert heads[:3] == ["现在要下的对局", "需要询问的决定", "最新结果"]
    columns = browser.evaluate(
        "Array.from(document.querySelectorAll('#games-now thead th')).map(c => c.innerText)"
    )
    assert columns == ["台次", "对阵", "局", "阶段", "红方", "黑方", "用时"]
    nav = browser.evaluate("Array.from(document.querySelectorAll('nav a')).map(a => a.innerText)")
    assert nav[0] == "当前" and "对阵表" in nav and "成绩单（打印）" in nav
    decision = browser.evaluate("document.querySelector('.decision').innerText")
    assert "突然死亡局竞叫" in decision and "甲" in decision and "乙" in decision
    assert "sudden-death" not in decision
    event = load_event(path)
    rows = table_rows(browser, "#games-now tbody tr")
    assert {(r[4], r[5]) for r in rows} == {(g.red, g.black) for g in event.next_games()}
    assert all(r[3] == "慢棋" for r in rows if r[1] != "R1-M3")
    game = next(g for g in event.next_games() if g.match == "R1-M8")
    record_next(path, "R1-M8", "1-0")
    row = f"#latest-results tr[data-match='R1-M8'][data-game='{game.number}']"
    browser.wait_for(f"document.querySelector({json.dumps(row)}) !== null", timeout=UPDATE_SECONDS)
    assert browser.evaluate("document.querySelector('main h2').innerText") == "现在要下的对局"
    fonts = fonts_of(browser, "main h2")
    assert any("CJK" in f or "Han" in f or "Hei" in f for f in fonts), fonts


def test_a_slip_and_a_bid_form_in_chinese_fit_a4(
    served: tuple[Path, str], browser: Browser, tmp_path: Path
) -> None:
    path, url = served
    browser.size(*A4, media="print")
    try:
        browser.open(url + "slips.html?lang=zh")
        slip = browser.evaluate("document.querySelector('section.slip').innerText")
        first = sorted(load_event(path).next_games(), key=lambda g: g.board or 99)[0]
        assert f"第 {first.board} 台" in slip and first.red in slip and first.black in slip
        for label in (
            "红方",
            "黑方",
            "结果（先写红方）",
            "红方用时",
            "红方签名",
            "黑方签名",
            "裁判",
        ):
            assert label in slip, label
        assert "Board" not in slip and "Red" not in slip
        # nothing wider than its box or than the page: no label overflows the A4 width
        overflow = browser.evaluate(
            "Array.from(document.querySelectorAll('section.slip, section.slip *'))"
            ".filter(e => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0).length"
        )
        assert overflow == 0
        assert browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        png = browser.screenshot(tmp_path / "slip-zh.png")
        ink, levels = not_blank(png)
        assert ink > 0.02 and levels > 16, (ink, levels)
        assert any("CJK" in f or "Han" in f or "Hei" in f for f in fonts_of(browser, "main"))
        browser.open(url + "bid-forms.html?lang=zh")
        form = browser.evaluate("document.querySelector('section.form').innerText")
        for label in ("突然死亡局竞叫", "甲报颜色（选择方）", "乙回应（竞叫方）", "接受", "反对"):
            assert label in form, label
        assert "红方 35 对黑方 5" in form and "Accept" not in form
        assert browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        browser.size(1280, 900)
