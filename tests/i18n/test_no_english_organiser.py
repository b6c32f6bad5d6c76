"""Organiser mode in Chinese leaves no English of the catalogue on screen.

Every ``knockout event`` command runs with ``--lang zh`` through the program's own entry, on
events made from the bundled scenarios: the day's commands (new, next, record, correct, bid,
choose, sealed, cut, withdraw, replace, amend, undo, show, odds, log, check, export), their
``--dry-run`` previews, a refusal of each kind the arbiter meets, and every ``--help``. What
they print must hold no English of the catalogue: no line of the output holds two English words
that follow each other in a message id (between its placeholders), once what is typed as it is
has been taken out of both (commands, options, file names: an arbiter copies them).
Names, keys, numbers and the scenario's own words are data and stay as they are, as do the
English words the Chinese catalogue itself keeps (the names in examples, JSON keys, the English
forms of typed values): a message left untranslated is never among them.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from knockout.i18n import LOCALE_DIR, set_language

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "scenarios" / "events"
CUP = [
    "--scenario",
    str(EVENTS / "city-cup-8-zh.toml"),
    "--players",
    str(EVENTS / "city-cup-8-zh-players.csv"),
    "--seed",
    "2026",
]


@cache
def english_pairs() -> frozenset[str]:
    """Every two English words that follow each other in a message id of the catalogue
    (between its placeholders)."""
    with (LOCALE_DIR / "knockout.pot").open("rb") as file:
        catalog = read_po(file)
    found: set[str] = set()
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for msgid in ids:
            for part in re.split(r"\{[^{}]*\}|\[/?\w*\]|\n|`[^`]*`", msgid or ""):
                words = re.findall(r"[A-Za-z][A-Za-z'-]+", _without_typed(part))
                found.update(f"{a} {b}" for a, b in itertools.pairwise(words))
    return frozenset(found)


def _without_typed(text: str) -> str:
    """``text`` without what an arbiter types as it is: commands, options, metavars and file
    names (``knockout event record``, ``--time-used``, ``NAME=SECONDS``, ``cup.db``)."""
    text = re.sub(r"knockout(?: [a-z][a-z-]*){1,2}", " ", text)
    text = re.sub(r"--[a-z][a-z-]*", " ", text)
    text = re.sub(r"\b[A-Z][A-Z_]+\b(?:=\S*)?", " ", text)  # NAME=MINUTES, RESCUE.toml
    return re.sub(r"\S*[./]\S*", " ", text)  # files and paths


def _flat(text: str) -> str:
    return " " + " ".join(re.findall(r"[A-Za-z][A-Za-z'-]+", _without_typed(text))) + " "


@cache
def kept_in_chinese() -> str:
    """The English the Chinese catalogue keeps on purpose (names in examples, JSON keys, typed
    values such as ``red``), flattened: a stretch found there is data, not English left."""
    with (LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / "knockout.po").open("rb") as file:
        catalog = read_po(file)
    strings = [
        s
        for m in catalog
        if m.id
        for s in (m.string if isinstance(m.string, tuple) else (m.string,))
        if s
    ]
    return " | ".join(_flat(s) for s in strings)


def english_left(text: str) -> list[str]:
    """The pairs of the catalogue's English words found on one line of ``text``."""
    kept = kept_in_chinese()
    found = set()
    for line in text.splitlines():
        flat = _flat(line)
        words = flat.split()
        found.update(
            pair
            for a, b in itertools.pairwise(words)
            if (pair := f"{a} {b}") in english_pairs() and f" {pair} " not in kept
        )
    return sorted(found)


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    from knockout.cli.localise import set_typer_words
    from knockout.i18n import _

    set_language("en", explicit=False)
    set_typer_words(_)


class Screen:
    """The program run as the arbiter runs it, in Chinese; everything printed is kept."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.shown: list[tuple[str, str]] = []

    def __call__(self, *argv: str, code: int = 0, read: Callable[[str], str] = str) -> str:
        """The output of ``knockout --lang zh ARGV``; ``read`` keeps the part a person reads
        (a file's comments, not its keys)."""
        from knockout.program import main

        saved = sys.argv
        sys.argv = ["knockout", "--lang", "zh", *argv]
        got = 0
        try:
            main()
        except SystemExit as stop:
            got = stop.code if isinstance(stop.code, int) else 0
        finally:
            sys.argv = saved
        out = self.capsys.readouterr()
        text = out.out + out.err
        assert got == code, (argv, text)
        self.shown.append((" ".join(argv), read(text)))
        return text

    def english(self) -> dict[str, list[str]]:
        """The English stretches each command left on screen (none, when all is well)."""
        return {argv: left for argv, text in self.shown if (left := english_left(text))}


def assert_chinese(screen: Screen) -> None:
    """Fails naming each command and the English it left."""
    left = screen.english()
    assert not left, "English left on screen:\n" + "\n".join(
        f"  knockout --lang zh {argv}: {stretches}" for argv, stretches in left.items()
    )


def test_the_check_finds_english() -> None:
    """A planted English line is found; its Chinese, and a typed command, are not."""
    assert english_left("Nothing written (--dry-run).") == ["Nothing written"]
    assert english_left("已记录 #3：Latest results") == ["Latest results"]
    assert english_left("R1-M1 下一步：第 2 局（慢棋），王立新（红方）对 郑凯（黑方）") == []
    assert english_left("见 knockout event next cup.db --time-used 王立新=40:00") == []


def comments(toml: str) -> str:
    """A TOML file's comments: what a person reads in it (its keys and values are the
    scenario's, English by contract, like a CSV file's header)."""
    return "\n".join(line for line in toml.splitlines() if line.lstrip().startswith("#"))


def drive(screen: Screen, db: str) -> None:
    """Draws recorded (in Chinese, as typed) until a decision is asked for or the event ends."""
    from knockout.event.store import load_event

    while True:
        games = load_event(db).next_games()
        if not games:
            return
        g = games[0]
        screen("event", "record", db, g.match, str(g.number), "和",
               "--time-used", f"{g.red}=5:00", "--time-used", f"{g.black}=6:30")  # fmt: skip


def test_an_event_day_in_chinese(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(tmp_path)
    run = Screen(capsys)
    db = "cup.db"
    run("event", "new", db, *CUP)
    run("event", "next", db)
    run("event", "amend", db, "郑凯", "--rating", "2435", "--dry-run")
    run("event", "amend", db, "郑凯", "--rating", "2435", "--federation", "湖北")
    run("event", "replace", db, "何涛", "钱明", "--rating", "2480")
    run("event", "record", db, "R1-M1", "1", "--winner", "王立新", "--dry-run")
    run("event", "record", db, "R1-M1", "1", "--winner", "王立新", "--time-used", "王立新=40:00")
    run("event", "record", db, "R1-M1", "1", "和", code=2)
    run("event", "record", db, "R1-M1", "3", "和", code=2)
    run("event", "record", db, "R1-M9", "1", "和", code=2)
    run("event", "record", db, "R1-M1", "2", "--winner", "赵雪", code=2)
    run("event", "record", db, "R1-M1", "2", "和", "--time-used", "王立新=3:00:00", code=2)
    run("event", "record", db, "R1-M1", "2", "和", "--draw", code=2)
    run("event", "record", db, "R1-M1", "2", "1-1", code=2)
    run("event", "correct", db, "R1-M1", "1", "红胜", "--dry-run")
    run("event", "correct", db, "R1-M1", "1", "--winner", "王立新", code=2)
    run("event", "correct", db, "R1-M2", "1", "红胜", code=2)
    run("event", "record", db, "R1-M1", "2", "--winner", "王立新")
    run("event", "amend", db, "王立新", "--rating", "2600", code=2)
    run("event", "replace", db, "王立新", "钱二", "--rating", "2400", code=2)
    run("event", "amend", db, "王", "--rating", "2600", code=2)
    run("event", "withdraw", db, "周海峰")
    run("event", "withdraw", db, "周海峰", code=2)
    run("event", "undo", db, "--dry-run")
    run("event", "undo", db)
    run("event", "undo", db, "--match", "R1-M4", code=2)
    run("event", "undo", db, "--cascade", code=2)
    run("event", "export", db, "--format", "xml", code=2)
    run("event", "export", db, "--format", "json", "--table", "matches", code=2)
    drive(run, db)
    run("event", "next", db)
    run("event", "record", db, "R1-M3", "4", "和", code=2)
    run("event", "bid", db, "R1-M3", "--announce", "黑", "--reply", "反对", "--chooser", "赵雪",
        code=2)  # fmt: skip
    run("event", "bid", db, "R1-M3", "--announce", "黑", "--reply", "反对")
    run("event", "record", db, "R1-M3", "4", "和")
    run("event", "show", db)
    run("event", "odds", db)
    run("event", "log", db)
    run("event", "check", db)
    run("event", "check", db, "--salvage", "rescue.toml")
    run("event", "export", db, "--format", "csv", "--table", "matches", read=lambda _: "")
    run("event", "export", db, "--format", "scenario", read=comments)
    run("event", "show", "missing.db", code=2)
    assert_chinese(run)


@pytest.mark.parametrize(
    ("scenario", "command"),
    [
        ("armageddon-bid.toml", ["sealed", "--bid", "许银川=6.5", "--bid", "吕钦=8"]),
        ("armageddon-vickrey.toml", None),
        ("cut-choose.toml", ["cut", "--red-minutes", "17.5", "--colour", "黑"]),
        ("official-playoff.toml", ["choose", "黑", "--chooser", "洪智"]),
    ],
)
def test_every_decision_in_chinese(
    scenario: str,
    command: list[str] | None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Sealed bids, cut-and-choose and a colour choice: asked for, refused, recorded, shown."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(tmp_path)
    run = Screen(capsys)
    db = "final.db"
    run("event", "new", db, "--scenario", str(ROOT / "scenarios" / scenario), "--seed", "1")
    drive(run, db)
    run("event", "next", db)
    if command is not None:
        verb, *rest = command
        run("event", verb, db, "R1-M1", "--help")
        run("event", "record", db, "R1-M1", "4", "和", code=2)
        run("event", verb, db, "R1-M1", *rest)
        run("event", "log", db)
        run("event", "show", db)
        run("event", "undo", db, "--dry-run")
    assert_chinese(run)


def test_every_event_commands_help_in_chinese(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.main import get_command

    from knockout.program import app

    monkeypatch.setenv("COLUMNS", "100")
    group = get_command(app).commands["event"]  # type: ignore[attr-defined]
    run = Screen(capsys)
    run("event", "--help")
    for name in group.commands:
        run("event", name, "--help")
    assert len(run.shown) > 15
    assert_chinese(run)
