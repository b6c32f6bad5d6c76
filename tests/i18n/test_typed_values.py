"""Values typed on a Chinese keyboard reach every organiser command that reads them: 红胜/和,
full-width digits and colons, 红/黑方, 接受/反对; the English forms still work."""

from __future__ import annotations

from pathlib import Path

import pytest

from knockout.cli.app import prepared
from knockout.i18n import set_language

pytestmark = pytest.mark.slow

CUP = Path(__file__).resolve().parents[2] / "scenarios" / "events"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    command, args = prepared(["--lang", "en", *argv])
    try:
        command.main(args=args, prog_name="knockout", standalone_mode=False)
    finally:
        set_language("en", explicit=False)
    out = capsys.readouterr()
    return out.out + out.err


def test_a_match_typed_in_chinese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cup.db")
    run(
        [
            "event",
            "new",
            db,
            "--seed",
            "1",
            "--scenario",
            str(CUP / "city-cup-16.toml"),
            "--players",
            str(CUP / "city-cup-16-players.csv"),
        ],
        capsys,
    )
    first = run(
        [
            "event",
            "record",
            db,
            "R1-M1",
            "1",
            "红胜",
            "--time-used",
            "Guo Qiang=４０：００",
            "--time-used",
            "王立新＝３５：１０",
        ],
        capsys,
    )
    assert "Guo Qiang (Red) 1-0 王立新; time used Guo Qiang 2400 s, 王立新 2110 s" in first
    assert "王立新 (Red) 1-0 Guo Qiang" in run(
        ["event", "record", db, "R1-M1", "2", "１－０"], capsys
    )
    third = run(
        [
            "event",
            "record",
            db,
            "R1-M1",
            "3",
            "和",
            "--time-used",
            "Guo Qiang=9:00",
            "--time-used",
            "王立新=8:00",
        ],
        capsys,
    )
    assert "Guo Qiang (Red) ½-½ 王立新" in third
    bid = run(["event", "bid", db, "R1-M1", "--announce", "红", "--reply", "反对"], capsys)
    assert "甲 王立新 announces red, 乙 Guo Qiang objects" in bid
    run(["event", "undo", db], capsys)
    again = run(["event", "bid", db, "R1-M1", "--announce", "黑方", "--reply", "accept"], capsys)
    assert "甲 王立新 announces black, 乙 Guo Qiang accepts" in again
