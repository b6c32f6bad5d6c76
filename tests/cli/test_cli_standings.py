"""``knockout standings``: JSON and table output, encodings, and exit code 2 on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockout.program import app
from knockout.version import __version__

DATA = Path(__file__).resolve().parents[2] / "scenarios" / "data"
CSV = DATA / "swiss-9.csv"
TRF = DATA / "swiss-9.trf"
ROUND_ROBIN = DATA / "round-robin-5.csv"

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["standings", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_for_the_bundled_swiss() -> None:
    code, out, err = run(
        str(CSV), "--tiebreaks", "BH-C1,BH,SB,DE,PS,WIN,WON,BWG,BPG", "--rules", "2024", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert list(data) == ["version", "rules", "tournament", "cuts", "players"]
    assert data["version"] == __version__
    assert (data["rules"], data["tournament"], data["cuts"]) == ("2024", "swiss", "fide")
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


def zhang_wei(*args: str) -> tuple[dict[str, object], dict[str, float]]:
    code, out, err = run(*args, "--tiebreaks", "BH-C1,BH,SB", "--json")
    assert code == 0, err
    data = json.loads(out)
    (zhang,) = [p for p in data["players"] if p["name"] == "张伟"]
    return data, zhang["tiebreaks"]


# 张伟 (3 points) won round 4 by forfeit against 王芳, who scored 2. Under the 2024 rules the
# unplayed round is a dummy opponent with 张伟's own 3 points; the 2026 revision (C.07 16.4.1)
# bounds it by 王芳's 2. FIDE's checker (gacrux 1.11.65) gives the same BH-C1 / BH / SB.
RULES_2024 = {"BH-C1": 10, "BH": 11.5, "SB": 6.75}
RULES_2026 = {"BH-C1": 9, "BH": 10.5, "SB": 5.75}


def test_an_undated_event_gets_the_newest_rules() -> None:
    data, zhang = zhang_wei(str(CSV))
    assert (data["rules"], data["tournament"]) == ("2026", "swiss")
    assert zhang == RULES_2026


@pytest.mark.parametrize(
    ("day", "rules"), [("2026-02-28", "2024"), ("2026-03-01", "2026"), ("2024-04-01", "2024")]
)
def test_the_date_chooses_the_rules(day: str, rules: str) -> None:
    data, zhang = zhang_wei(str(CSV), "--date", day)
    assert data["rules"] == rules
    assert zhang == (RULES_2024 if rules == "2024" else RULES_2026)


def test_the_trf_start_date_chooses_the_rules_and_rules_overrides_it(tmp_path: Path) -> None:
    dated = tmp_path / "dated.trf"
    lines = TRF.read_text(encoding="utf-8").splitlines()
    dated.write_text("\n".join([lines[0], "042 2026/02/20", *lines[1:]]) + "\n", encoding="utf-8")
    data, zhang = zhang_wei(str(dated))
    assert data["rules"] == "2024" and zhang == RULES_2024
    data, zhang = zhang_wei(str(dated), "--date", "2026-03-02")
    assert data["rules"] == "2026" and zhang == RULES_2026
    data, zhang = zhang_wei(str(dated), "--rules", "2026")
    assert data["rules"] == "2026" and zhang == RULES_2026


def test_bad_conventions_options_are_one_line_each() -> None:
    code, out, err = run(
        str(CSV), "--rules", "2025", "--date", "2026-13-01", "--tournament", "knockout"
    )
    assert code == 2
    assert out == ""
    assert err.splitlines() == [
        "error: --rules: expected 2024 or 2026, got '2025'",
        "error: --date: expected a real day, got '2026-13-01'",
        "error: --tournament: expected swiss or round-robin, got 'knockout'",
    ]


# lichess's five-player round-robin tie-break test (scalachess TiebreakersTest): A beat B, drew
# C, lost to D, beat E; B beat C, drew D, lost to E; C beat D, drew E; D beat E. Each player sits
# out one round. Scores A 2.5, B 1.5, C 2, D 2.5, E 1.5. A's opponents scored 1.5 + 2 + 2.5 + 1.5:
# BH 7.5, BH-C1 6 (less 1.5), BH-C2 4.5; SB 1.5 + 2 x 0.5 + 1.5 = 4; DE between A and D: D 1,
# A 0. FIDE cuts the SB value of the lowest-scored opponent (B or E, 1.5): SB-C1 2.5 (lichess
# cuts differently and gets 3; FIDE's checker gacrux gives 2.5).
ROUND_ROBIN_A = {
    "DE": 0,
    "BH": 7.5,
    "BH-C1": 6,
    "BH-C2": 4.5,
    "SB": 4,
    "SB-C1": 2.5,
    "WIN": 2,
    "BPG": 1,
    "BWG": 0,
}


def test_a_five_player_round_robin_gets_the_round_robin_values() -> None:
    code, out, err = run(str(ROUND_ROBIN), "-t", ",".join(ROUND_ROBIN_A), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["rules"], data["tournament"]) == ("2026", "round-robin")
    players = {p["name"]: p for p in data["players"]}
    assert {n: p["points"] for n, p in players.items()} == {
        "A": 2.5, "B": 1.5, "C": 2, "D": 2.5, "E": 1.5
    }  # fmt: skip
    assert players["A"]["tiebreaks"] == ROUND_ROBIN_A
    assert players["D"]["tiebreaks"]["DE"] == 1
    assert [p["name"] for p in data["players"]][:2] == ["D", "A"]  # D beat A


def test_the_round_a_player_sits_out_is_an_unplayed_round_only_in_a_swiss() -> None:
    # Forced to Swiss conventions, A's round off is a voluntarily unplayed round worth a dummy
    # opponent with min(2.5, 0.5 x 5) = 2.5 more: BH 10, the value the issue reported.
    code, out, err = run(str(ROUND_ROBIN), "-t", "BH", "--tournament", "swiss", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["tournament"] == "swiss"
    (a,) = [p for p in data["players"] if p["name"] == "A"]
    assert a["tiebreaks"] == {"BH": 10}


def test_a_trf_tournament_type_decides_the_conventions(tmp_path: Path) -> None:
    from knockout.standings.files import read_crosstable
    from knockout.standings.trf import to_trf

    text = to_trf(read_crosstable(ROUND_ROBIN))
    for record, kind, bh in (
        ("092 Individual: Swiss-System", "swiss", 10),
        ("092 单循环 round robin", "round-robin", 7.5),
        ("092 Individual", "round-robin", 7.5),  # names neither: the games decide
    ):
        path = tmp_path / "event.trf"
        path.write_text(record + "\n" + text, encoding="utf-8")
        code, out, err = run(str(path), "-t", "BH", "--json")
        assert code == 0, err
        data = json.loads(out)
        (a,) = [p for p in data["players"] if p["name"] == "A"]
        assert (data["tournament"], a["tiebreaks"]["BH"]) == (kind, bh), record


def test_lots_put_the_seed_in_the_json() -> None:
    data = json.loads(run(str(CSV), "--lots", "--seed", "7", "--json")[1])
    assert list(data)[:2] == ["version", "seed"]
    assert data["seed"] == 7
    # The default seed is used (and so reported) whenever lots are drawn.
    assert json.loads(run(str(CSV), "--lots", "--json")[1])["seed"] == 0
    # No drawing of lots and no --seed: no seed.
    assert "seed" not in json.loads(run(str(CSV), "--json")[1])


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


def _seven_round_csv(path: Path) -> Path:
    """An eight-player round robin (seven rounds, circle method): the higher-numbered player
    always wins, except that every game of player 8 is drawn."""
    rows = ["round,red,black,result"]
    players = list(range(1, 9))
    for rnd in range(1, 8):
        for board in range(4):
            a, b = players[board], players[7 - board]
            result = "draw" if 8 in (a, b) else ("red" if a > b else "black")
            rows.append(f"{rnd},P{a},P{b},{result}")
        players = [players[0], players[-1], *players[1:-1]]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_the_seven_round_floor_is_a_named_option(tmp_path: Path) -> None:
    """Seed 003's floor (--cuts floor-7): in a seven-round event nothing is cut, so BH-C1 and
    BH-M1 equal BH; FIDE's rule (the default) cuts."""
    event = _seven_round_csv(tmp_path / "rr8.csv")
    values = {}
    for cuts in ("fide", "floor-7"):
        code, out, err = run(str(event), "-t", "BH,BH-C1,BH-M1", "--cuts", cuts, "--json")
        assert code == 0, err
        data = json.loads(out)
        assert data["cuts"] == cuts
        values[cuts] = {p["name"]: p["tiebreaks"] for p in data["players"]}
    for name, tb in values["floor-7"].items():
        assert tb["BH-C1"] == tb["BH-M1"] == tb["BH"], name
    assert any(tb["BH-C1"] < tb["BH"] for tb in values["fide"].values())
    assert values["fide"] != values["floor-7"]
    code, out, _ = run(str(event), "-t", "BH-C1", "--cuts", "floor-7")
    assert code == 0
    assert "cuts keep at least 7 rounds (seed 003)" in " ".join(out.split())


def test_an_unknown_cut_rule_is_one_line() -> None:
    code, _, err = run(str(CSV), "--cuts", "seven")
    assert code == 2
    assert err.strip() == "error: --cuts: expected fide or floor-7, got 'seven'"


def test_a_team_event_ranks_teams_by_match_points_then_game_points() -> None:
    """Seed 001's league CSV read as a team event (a board column): JSON names the teams and
    their match points; GP comes first by default, then the user's order."""
    league = DATA / "league-example.csv"
    code, out, err = run(str(league), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["event"] == "team"
    assert [list(t["tiebreaks"]) for t in data["teams"]] == [["GP", "DE", "BH"]] * 4
    points = [(t["match_points"], t["tiebreaks"]["GP"]) for t in data["teams"]]
    assert points == sorted(points, reverse=True)
    code, out, err = run(str(league), "-t", "BH,GP")
    assert code == 0, err
    text = " ".join(out.split())
    assert "MP match points (win 2, draw 1, loss 0" in text
    assert "tie-breaks: BH Buchholz, GP game points" in text


def test_game_points_for_an_individual_event_is_one_line() -> None:
    code, _, err = run(str(CSV), "-t", "GP,BH")
    assert code == 2
    assert err.strip().startswith("error: --tiebreaks: GP (game points) is for team events")


def test_the_cli_defaults_are_the_libraries() -> None:
    from knockout.cli.standings import DEFAULT_TEAM_TIEBREAKS, DEFAULT_TIEBREAKS
    from knockout.standings import files

    assert ",".join(files.DEFAULT_TIEBREAKS) == DEFAULT_TIEBREAKS
    assert ",".join(files.DEFAULT_TEAM_TIEBREAKS) == DEFAULT_TEAM_TIEBREAKS
