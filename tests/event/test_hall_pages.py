"""The hall's pages without a browser: ``event publish`` writes them, ``event serve`` serves
them live and read-only; every name is escaped; nothing is loaded from another site; bad input
is one line and exit code 2."""

from __future__ import annotations

import hashlib
import html
import json
import re
import socket
import sqlite3
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from event_helpers import new_event, write_scenario
from hall_helpers import hall_event, record_next
from typer.testing import CliRunner

from knockout.cli import app
from knockout.dashboard.web.pages import PAGES, Site
from knockout.dashboard.web.server import HallSite, make_server
from knockout.event.decisions import bid_answer
from knockout.event.facts import match_facts
from knockout.event.reader import load_event_read_only
from knockout.event.store import create_event, load_event, record_decision

runner = CliRunner()


def text_of(page: str) -> str:
    """The page's text, tags dropped and entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_publish_writes_every_page(tmp_path: Path) -> None:
    path = hall_event(tmp_path)
    out = tmp_path / "site" / "now"
    result = runner.invoke(app, ["event", "publish", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    names = {p.name for p in out.iterdir()}
    assert names == {*PAGES, "round-1.html", "round-2.html", "round-3.html", "round-4.html"}
    event = load_event(path)
    index = squeeze(text_of((out / "index.html").read_text(encoding="utf-8")))
    for g in event.next_games():
        assert f"{g.board} {g.match} {g.number} {g.stage} {g.red} {g.black}" in index, g
    assert "Decisions to ask" in index and "R1-M3" in index and "sudden-death bid" in index
    last = event.games[-1]
    result_row = {"red": "1-0", "draw": "½-½", "black": "0-1"}[last.result.value]
    assert f"{last.match} {last.number} {last.stage} {last.red} {result_row} {last.black}" in index
    round1 = squeeze(text_of((out / "round-1.html").read_text(encoding="utf-8")))
    for f in match_facts(event):
        if f.round == 1 and f.players is not None:
            assert f.match in round1 and all(n in round1 for n in f.players)
            assert f.how_text() in round1
    assert "a draw sends Black on" in round1
    svg = (out / "bracket.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "王立新" in svg
    assert svg in (out / "bracket.html").read_text(encoding="utf-8")
    assert "Ranking so far" in (out / "ranking.html").read_text(encoding="utf-8")
    slips = (out / "slips.html").read_text(encoding="utf-8")
    assert slips.count('class="slip"') == len([g for g in event.next_games() if g.board])
    assert "@page { size: A4" in slips
    forms = squeeze(text_of((out / "bid-forms.html").read_text(encoding="utf-8")))
    assert "R1-M3" in forms and "甲" in forms and "乙" in forms
    assert "Red 30 v Black 10" in forms and "Red 10 v Black 30" in forms
    assert "Red 35 v Black 5" in forms and "signs" in forms


def test_pages_load_nothing_from_other_sites(tmp_path: Path) -> None:
    event = load_event(hall_event(tmp_path))
    for live in (False, True):
        for name, page in Site(event, live=live).pages().items():
            assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page), name
            assert "@import" not in page and "url(" not in page, name


def test_every_name_is_escaped(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    names = ['<script>alert("x")</script>', "A & B", "<b>bold</b>", "Dee"]
    rows = [f'"{n.replace(chr(34), chr(34) * 2)}",{2600 - 10 * i}' for i, n in enumerate(names)]
    players.write_text("name,rating\n" + "\n".join(rows) + "\n", encoding="utf-8")
    path = tmp_path / "cup.db"
    create_event(path, write_scenario(tmp_path), players_path=players, seed=3)
    record_next(path, "R1-M1", "1/2")
    pages = Site(load_event(path), live=True).pages()
    for name, page in pages.items():
        assert "<script>alert" not in page and "<b>bold" not in page, name
    for name in ("index.html", "round-1.html", "bracket.svg", "ranking.html", "slips.html"):
        assert "A &amp; B" in pages[name] and "&lt;b&gt;bold&lt;/b&gt;" in pages[name], name
        assert "&lt;script&gt;alert(" in pages[name], name


@contextmanager
def serving(path: Path) -> Iterator[str]:
    server = make_server(HallSite(path, command_file=str(path)), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.headers["Content-Type"], r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers["Content-Type"], exc.read().decode()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.system
def test_serve_is_live_and_read_only(tmp_path: Path) -> None:
    path = hall_event(tmp_path)
    with serving(path) as url:
        status, kind, page = get(url + "/")
        assert status == 200 and kind.startswith("text/html") and "utf-8" in kind
        assert 'data-live="1"' in page and "state.json" in page
        assert '<noscript><meta http-equiv="refresh"' in page  # reloads without JavaScript
        head = json.loads(get(url + "/state.json")[2])["head"]
        event = load_event(path)
        assert head == event.entries[-1].seq
        game = next(g for g in event.next_games() if g.match == "R1-M6")
        record_next(path, "R1-M6", "0-1")  # another terminal records a game
        assert json.loads(get(url + "/state.json")[2])["head"] == head + 1
        page = squeeze(text_of(get(url + "/")[2]))
        assert f"R1-M6 {game.number} {game.stage} {game.red} 0-1 {game.black}" in page
        for name in (*PAGES, "round-1.html"):
            assert get(f"{url}/{name}")[0] == 200, name
        assert get(url + "/bracket.svg")[1].startswith("image/svg+xml")
        assert get(url + "/round-9.html")[0] == 404 and get(url + "/../cup.db")[0] == 404
    # serving added nothing: the journal holds the test's own entries, numbered without gaps
    seqs = [e.seq for e in load_event(path).entries]
    assert seqs == list(range(1, head + 2))


@pytest.mark.system
def test_serve_never_writes_the_file(tmp_path: Path) -> None:
    path = hall_event(tmp_path)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = digest(path)
    path.chmod(0o444)  # a read-only file is read the same (root ignores modes: the digest says)
    try:
        with serving(path) as url:
            for name in ("", "state.json", *PAGES):
                assert get(f"{url}/{name}")[0] == 200, name
    finally:
        path.chmod(0o644)
    assert digest(path) == before
    assert load_event_read_only(path).entries == load_event(path).entries


def test_serve_and_publish_bad_input_is_one_line(tmp_path: Path) -> None:
    path = str(new_event(tmp_path))
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    try:
        cases = [
            (["serve", path, "--port", str(port)], f"--port {port}: already in use"),
            (["serve", path, "--port", "70000"], "--port: expected a port from 0 to 65535"),
            (["serve", path, "--host", "203.0.113.9", "--port", "0"], "cannot listen there"),
            (["serve", str(tmp_path / "none.db")], "no such event file"),
            (["publish", path, "--out", str(blocker)], "cannot write the pages there"),
            (["publish", path, "--out", str(blocker / "sub")], "cannot write the pages there"),
        ]
        for args, says in cases:
            result = runner.invoke(app, ["event", *args])
            assert result.exit_code == 2, (args, result.output)
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], lines
            assert "Traceback" not in result.output
    finally:
        taken.close()


@pytest.mark.parametrize("live", [False, True])
def test_a_finished_two_player_event_has_its_pages(tmp_path: Path, live: bool) -> None:
    path = new_event(tmp_path, 2, third_place=False)
    for _ in range(6):
        event = load_event(path)
        if event.finished:
            break
        if event.pending_bids():
            record_decision(
                path, event.pending_bids()[0].match, bid_answer(announce="red", reply="accept")
            )
            continue
        record_next(path, event.next_games()[0].match, "1-0")
    event = load_event(path)
    assert event.finished
    pages = Site(event, live=live).pages()
    assert "Champion: " in text_of(pages["index.html"])
    assert "blank form" in pages["bid-forms.html"]


def test_the_organisers_guide_says_what_the_pages_do() -> None:
    from knockout.dashboard.web import pages

    guide = (Path(__file__).resolve().parents[2] / "docs" / "organiser.md").read_text(
        encoding="utf-8"
    )
    assert f"reloads every {pages.REFRESH_SECONDS} seconds" in guide
    assert f"checks every {pages.POLL_MS / 1000:g} seconds" in guide
    for name in PAGES:
        assert f"`{name}`" in guide or (name == "bracket.svg" and "`bracket.svg`" in guide), name
    for image in ("hall-screen", "bracket", "slip", "bid-form"):
        assert (Path(__file__).resolve().parents[2] / "docs" / "img" / f"{image}.png").is_file()
        assert f"img/{image}.png" in guide


def test_no_slip_for_a_game_waiting_for_a_board(tmp_path: Path) -> None:
    event = load_event(new_event(tmp_path, 16))  # 8 matches on 4 boards
    games = event.next_games()
    waiting = [g for g in games if g.board is None]
    assert len(games) == 8 and len(waiting) == 4
    slips = Site(event, command_file="cup.db").render("slips.html")
    assert slips is not None and slips.count('class="slip"') == 4
    for g in games:
        assert (f"record cup.db {g.match} {g.number} " in slips) == (g.board is not None)
