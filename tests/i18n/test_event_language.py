"""An event's own language: ``event new --lang zh`` stores it; organiser commands speak it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from knockout.cli.app import prepared
from knockout.event.language import read_language
from knockout.i18n import language, set_language

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CUP = ROOT / "scenarios" / "events"


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    set_language("en", explicit=False)


def run(argv: list[str]) -> None:
    command, args = prepared(argv)
    command.main(args=args, prog_name="knockout", standalone_mode=False)


def new_event(folder: Path, *lang: str) -> Path:
    db = folder / "cup.db"
    run(
        [
            "event",
            "new",
            str(db),
            "--scenario",
            str(CUP / "city-cup-16.toml"),
            "--players",
            str(CUP / "city-cup-16-players.csv"),
            "--seed",
            "1",
            *lang,
        ]
    )
    return db


def test_event_new_with_lang_stores_it_and_the_event_speaks_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "KNOCKOUT_LANG"):
        monkeypatch.delenv(name, raising=False)
    db = new_event(tmp_path, "--lang", "zh")
    capsys.readouterr()
    assert read_language(db) == "zh_CN"
    prepared(["event", "next", str(db)])
    assert language() == "zh_CN"
    prepared(["event", "show", "--live", str(db)])  # the file after an option
    assert language() == "zh_CN"
    prepared(["--lang", "en", "event", "next", str(db)])
    assert language() == "en"  # the run's own choice wins
    monkeypatch.setenv("KNOCKOUT_LANG", "en")
    prepared(["event", "next", str(db)])
    assert language() == "en"
    monkeypatch.delenv("KNOCKOUT_LANG")
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    prepared(["event", "next", str(db)])
    assert language() == "zh_CN"  # the event's language comes before the locale's


def test_an_event_made_without_lang_stores_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("KNOCKOUT_LANG", raising=False)
    db = new_event(tmp_path)
    capsys.readouterr()
    assert read_language(db) is None
    prepared(["event", "next", str(db)])
    assert language() == "zh_CN"  # from the locale
    assert read_language(tmp_path / "missing.db") is None
    (tmp_path / "not-an-event.db").write_text("hello", encoding="utf-8")
    assert read_language(tmp_path / "not-an-event.db") is None
