"""The refusals of organiser mode in Chinese: a bad entry list, a bad scenario, a bad time or
move count, each refused in one Chinese line (exit 2) with no English of the catalogue left.

The English of the same refusals is unchanged (checked in tests/event); here each is run with
``--lang zh`` through the program's own entry and its Chinese wording looked for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.i18n.test_no_english_organiser import (
    CUP,
    Screen,
    assert_chinese,
    english_afterwards,  # noqa: F401  (autouse: English again after each test)
)


@pytest.fixture
def run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Screen:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)
    return Screen(capsys)


def _before_colon(text: str) -> str:
    return text.split("实际：", maxsplit=1)[0]


def test_a_bad_entry_list_is_refused_in_chinese(run: Screen, tmp_path: Path) -> None:
    scenario = CUP[1]
    (tmp_path / "bad.csv").write_text(
        "name,rating,seed\n王立新,2588,1\n王立新,2540,2\n\u200b,2500,3\n赵雪,9999,x\n马骏,,4\n",
        encoding="utf-8",
    )
    text = run("event", "new", "a.db", "--scenario", scenario, "--players", "bad.csv", code=2)
    assert "应为尚未列出的姓名，实际 '王立新' 再次出现（首次见于第 2 行）" in text
    assert "应有姓名，实际没有可见字符" in text
    assert "等级分应在 0 到 4000 之间，实际为 '9999'" in text
    assert "应为 >= 1 的整数，实际为 'x'" in text
    assert "应有等级分，实际为空" in text
    (tmp_path / "one.csv").write_text("name,rating\n王立新,2588\n", encoding="utf-8")
    text = run("event", "new", "b.db", "--scenario", scenario, "--players", "one.csv", code=2)
    assert "应至少有两名棋手，实际为 1 名" in text
    assert not (tmp_path / "a.db").exists() and not (tmp_path / "b.db").exists()
    assert_chinese(run)


def test_a_bad_scenario_is_refused_in_chinese(run: Screen, tmp_path: Path) -> None:
    (tmp_path / "broken.toml").write_text("[format\n", encoding="utf-8")
    # tomllib's own words follow the colon (the parser's English, quoted as it says it)
    text = run("event", "new", "a.db", "--scenario", "broken.toml", code=2, read=_before_colon)
    assert "应为情景文件（TOML），实际：" in text
    (tmp_path / "twice.toml").write_text(
        Path(CUP[1]).read_text(encoding="utf-8")
        + '\n[[players]]\nname = "王立新"\nrating = 2588\n'
        + '\n[[players]]\nname = "王立新 "\nrating = 4100\n',
        encoding="utf-8",
    )
    text = run("event", "new", "b.db", "--scenario", "twice.toml", code=2)
    assert "实际 '王立新' 再次出现（首次见于 players[0]" in text
    assert "等级分应在 0 到 4000 之间，实际为 '4100'" in text
    assert_chinese(run)


def test_a_bad_time_and_move_count_are_refused_in_chinese(run: Screen) -> None:
    db = "cup.db"
    run("event", "new", db, *CUP)
    text = run("event", "record", db, "R1-M1", "1", "和", "--time-used", "王立新=75:00", code=2)
    assert "分钟数（75）须小于 60：请写作 1:15:00" in text
    text = run("event", "record", db, "R1-M1", "1", "和", "--moves", "0", code=2)
    assert "应为 1 到 1000 的整数，实际为 0" in text
    assert_chinese(run)


def test_sealed_bids_and_cut_refusals_in_chinese(run: Screen) -> None:
    from tests.i18n.test_no_english_organiser import drive

    scenarios = Path(CUP[1]).parents[1]
    run(
        "event",
        "new",
        "bid.db",
        "--scenario",
        str(scenarios / "armageddon-bid.toml"),
        "--seed",
        "1",
    )
    drive(run, "bid.db")
    sealed = ("event", "sealed", "bid.db", "R1-M1")
    text = run(*sealed, "--bid", "许银川=6.5", code=2)
    assert "应有每位棋手（许银川和吕钦）的出价，实际缺少 吕钦 的出价" in text
    text = run(*sealed, "--bid", "许银川=999", "--bid", "吕钦=8", code=2)
    assert "许银川 的黑方分钟数应在" in text
    text = run(*sealed, "--bid", "许银川=6", "--bid", "许银川=8", code=2)
    assert "许银川 应只出现一次，实际出现两次" in text
    text = run(*sealed, "--bid", "许银川", code=2)
    assert "应为 NAME=MINUTES（黑方分钟数），实际为 '许银川'" in text
    text = run(*sealed, "--bid", "许银川=6", "--bid", "吕钦=6", code=2)
    assert "应给出 --lot-black NAME（许银川 或 吕钦）：双方出价相同（6 分钟）" in text
    text = run(*sealed, "--bid", "许银川=6", "--bid", "吕钦=7", "--lot-black", "吕钦", code=2)
    assert "不应给出 --lot-black：双方出价不同" in text
    text = run("event", "cut", "bid.db", "R1-M1", "--red-minutes", "10", "--colour", "黑", code=2)
    assert "应为处于" in text
    run("event", "new", "cut.db", "--scenario", str(scenarios / "cut-choose.toml"), "--seed", "1")
    drive(run, "cut.db")
    cut = ("event", "cut", "cut.db", "R1-M1")
    text = run(*cut, "--red-minutes", "999", "--colour", "黑", code=2)
    assert "红方分钟数应在" in text
    text = run(*cut, "--red-minutes", "x", "--colour", "黑", code=2)
    assert "应为分钟数，实际为 'x'" in text
    assert_chinese(run)


def test_a_made_decision_that_does_not_fit_is_refused_in_chinese() -> None:
    from knockout.i18n import speaking
    from knockout.rules.decisions.made import MadeCut, MadeError, MadeSealed, _side

    with speaking("zh_CN"):
        with pytest.raises(MadeError, match="分时须给出 cutter（分时方）、red_minutes 和 colour"):
            MadeCut.from_fields({})
        with pytest.raises(MadeError, match="密封竞叫须给出 bids"):
            MadeSealed.from_fields({})
        with pytest.raises(MadeError, match=r"应为 'A' 或 'B'（本对阵的棋手），实际为 'C'"):
            _side("C", ("A", "B"), "chooser")
    with pytest.raises(MadeError, match=r"^expected 'A' or 'B' \(the players of this match\)"):
        _side("C", ("A", "B"), "chooser")


def test_a_file_that_is_not_an_event_is_refused_in_chinese(run: Screen, tmp_path: Path) -> None:
    import sqlite3

    (tmp_path / "notes.db").write_bytes(b"not a database at all, just notes\n" * 200)
    text = run("event", "show", "notes.db", code=2, read=_before_colon)
    assert "不是 knockout 赛事文件：应为 SQLite 数据库，实际：" in text
    with sqlite3.connect(tmp_path / "other.db") as conn:
        conn.execute("CREATE TABLE t (x)")
    text = run("event", "show", "other.db", code=2)
    assert "不是 knockout 赛事文件：应有应用标识 0x" in text
    assert_chinese(run)
