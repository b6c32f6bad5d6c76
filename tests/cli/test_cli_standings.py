"""``knockout standings``: JSON and table output, encodings, and exit code 2 on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockout import __version__
from knockout.cli import app

DATA = Path(__file__).resolve().parents[2] / "scenarios" / "data"
CSV = DATA / "swiss-9.csv"
TRF = DATA / "swiss-9.trf"

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["standings", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_for_the_bundled_swiss() -> None:
    code, out, err = run(str(CSV), "--tiebreaks", "BH-C1,BH,SB,DE,PS,WIN,WON,BWG,BPG", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert list(data) == ["version", "players"]
    assert data["version"] == __version__
    players = data["players"]
    assert [p["name"] for p in players] == [
        "陈杰", "黄敏", "赵磊", "张伟", "李娜", "刘洋", "周涛", "王芳", "杨静",
    ]  # fmt: skip
    assert [p["rank"] for p in players] == list(range(1, 10))
    zhang = players[3]
    assert zhang == {
        "name": "张伟",
        "rank": 4,
        "points": 3,
        "tiebreaks": {
            "BH-C1": 10,
            "BH": 11.5,
            "SB": 6.75,
            "DE": None,
            "PS": 7,
            "WIN": 2,
            "WON": 1,
            "BWG": 1,
            "BPG": 3,
        },
    }
    # 张伟 won round 4 by forfeit: WIN counts it, WON does not.
    assert all(set(p) == {"name", "rank", "points", "tiebreaks"} for p in players)


def test_the_trf_gives_the_same_standings() -> None:
    args = ["--tiebreaks", "BH,BH-C1,SB,PS,WIN,DE", "--json"]
    _, from_csv, _ = run(str(CSV), *args)
    code, from_trf, err = run(str(TRF), *args)
    assert code == 0, err
    assert json.loads(from_csv) == json.loads(from_trf)


def test_ties_share_a_rank_without_lots_and_not_with_them() -> None:
    _, out, _ = run(str(CSV), "--tiebreaks", "", "--json")
    ranks = [p["rank"] for p in json.loads(out)["players"]]
    assert ranks == [1, 2, 3, 3, 5, 5, 7, 7, 9]
    first = run(str(CSV), "--tiebreaks", "", "--lots", "--seed", "11", "--json")[1]
    again = run(str(CSV), "--tiebreaks", "", "--lots", "--seed", "11", "--json")[1]
    assert first == again
    players = json.loads(first)["players"]
    assert [p["rank"] for p in players] == list(range(1, 10))
    assert sorted(p["tiebreaks"]["lots"] for p in players) == list(range(1, 10))


def test_table_output_with_chinese_names() -> None:
    code, out, err = run(str(TRF), "-t", "BH-C1,BH")
    assert code == 0, err
    assert "陈杰" in out and "BH-C1" in out
    assert "瑞士制示例" in out  # the TRF's tournament name is the table's title


def test_gb18030_file(tmp_path: Path) -> None:
    path = tmp_path / "gb.csv"
    path.write_bytes(CSV.read_text(encoding="utf-8").encode("gb18030"))
    code, out, _ = run(str(path), "--encoding", "gb18030", "--json")
    assert code == 0
    assert json.loads(out)["players"][0]["name"] == "陈杰"
    code, out, err = run(str(path))
    assert code == 2
    assert out == ""
    assert err.startswith(f"error: {path}: line 2: expected UTF-8 text, found byte 0x")


def test_unknown_tiebreak_is_one_line_and_exit_2() -> None:
    code, out, err = run(str(CSV), "--tiebreaks", "BH,XYZ")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: --tiebreaks: unknown tie-break: 'XYZ' (known: DE, BH,")


def test_bad_csv_lists_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("round,red,black,result\n1,A,B,win\nx,C,D,red\n", encoding="utf-8")
    code, out, err = run(str(path))
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert err.splitlines() == [
        f"error: {path}: line 2, result: expected red, draw, black, 1-0, 1/2-1/2, 0-1, +-, -+ "
        "or -- (or a bye), got 'win'",
        f"error: {path}: line 3, round: expected a round number (1, 2, ...), got 'x'",
    ]


@pytest.mark.parametrize("name", ["missing.csv", "missing.trf"])
def test_missing_file(tmp_path: Path, name: str) -> None:
    code, _, err = run(str(tmp_path / name))
    assert code == 2
    assert "cannot read the file" in err


def test_txt_is_read_by_content(tmp_path: Path) -> None:
    trf_txt = tmp_path / "event.txt"
    trf_txt.write_text(TRF.read_text(encoding="utf-8"), encoding="utf-8")
    csv_txt = tmp_path / "games.txt"
    csv_txt.write_text(CSV.read_text(encoding="utf-8"), encoding="utf-8")
    a = run(str(trf_txt), "--json")[1]
    b = run(str(csv_txt), "--json")[1]
    assert json.loads(a) == json.loads(b)


def test_help_explains_with_an_example() -> None:
    result = runner.invoke(app, ["standings", "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert "knockout standings scenarios/data/swiss-9.csv" in result.stdout
    assert "--tiebreaks" in result.stdout


def test_the_help_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DATA.parent.parent)
    help_text = runner.invoke(app, ["standings", "--help"], env={"COLUMNS": "200"}).stdout
    (example,) = [
        line.strip() for line in help_text.splitlines() if "knockout standings scenarios/" in line
    ]
    args = example.split()[1:]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    assert "陈杰" in result.stdout
