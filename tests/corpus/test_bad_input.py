"""Bad input to ``knockout games``: one line each, never a traceback, nothing else lost."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from knockout.corpus.table import read_table
from knockout.program import app

GOOD = (
    '[Event "測試賽"]\n[Red "甲"]\n[Black "乙"]\n[Date "2001.2.3"]\n[Result "1-0"]\n'
    "1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 1-0\n"
)


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_each_bad_record_is_one_line_and_the_good_ones_are_kept(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "good.pgn").write_text(GOOD, encoding="utf-8")
    (folder / "no-result.pgn").write_text(GOOD.replace('[Result "1-0"]\n', "").replace(" 1-0", ""))
    (folder / "odd-result.pgn").write_text(GOOD.replace('"1-0"', '"2-0"'))
    (folder / "garbage.pgn").write_bytes(bytes(range(0x80, 0x100)) * 4)
    (folder / "nobody.pgn").write_text(GOOD.replace('[Red "甲"]\n', ""), encoding="utf-8")
    (folder / "illegal.pgn").write_text(
        GOOD.replace("馬二進三", "車一進三").replace("甲", "丙"), encoding="utf-8"
    )
    (tmp_path / "broken.tar.xz").write_bytes(b"\xfd7zXZ\x00 not really")
    out = tmp_path / "games.csv"
    code, stdout, stderr = _run(
        "games", "import", str(folder), str(tmp_path / "broken.tar.xz"), "--out", str(out), "--json"
    )
    assert code == 0, stderr
    assert "Traceback" not in stdout + stderr
    report = json.loads(stdout)
    lines = report["refused"]["lines"]
    assert report["refused"]["by_reason"] == {
        "no players": 1,
        "no result": 1,
        "unknown encoding": 1,
        "unknown result": 1,
        "unreadable source": 1,
    }
    assert f"{tmp_path / 'broken.tar.xz'}: cannot read the archive" in "\n".join(lines)
    assert any("records/garbage.pgn: no encoding reads it" in line for line in lines)
    assert any("records/no-result.pgn: no Result" in line for line in lines)
    assert any(
        "records/nobody.pgn: no players: Red named neither by a tag nor by the event text" in line
        for line in lines
    )
    assert any(
        "records/odd-result.pgn: Result: expected 1-0, 0-1, 1/2-1/2 or *, got '2-0'" in line
        for line in lines
    )
    rows = {r.red: r for r in read_table(out)}
    assert set(rows) == {"甲", "丙"}  # the good game and the one with an impossible move
    assert rows["甲"].record == "complete"
    assert rows["丙"].record == "broken at move 2"  # header facts kept, where it broke said
    assert report["records_replayed"]["broken_by_reason"] == {"illegal": 1}


def test_nothing_readable_is_exit_2(tmp_path: Path) -> None:
    code, _stdout, stderr = _run(
        "games", "import", str(tmp_path / "missing.pgn"), "--out", str(tmp_path / "g.csv")
    )
    assert code == 2
    assert stderr.strip().splitlines() == [
        f"error: {tmp_path / 'missing.pgn'}: no such file or folder"
    ]
    assert not (tmp_path / "g.csv").exists()


def test_a_bad_table_is_one_line_per_problem(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("id,event\n1,x\n", encoding="utf-8")
    code, _, stderr = _run("games", "summary", str(table))
    assert code == 2
    assert "expected the header id,event,round,date" in stderr
    code, _, stderr = _run("games", "summary", "--by", "colour")
    assert code == 2
    assert stderr.strip() == "error: --by: expected time_class, year, event, got 'colour'"
