"""``knockout rescore`` and ``knockout league``: JSON contracts, tables, exit codes, messages."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from typer.testing import CliRunner

from knockout.dashboard.scoring import compare_table, league_view, player_rounds, score_table
from knockout.points import DIFFERENCE, RATIO, TRADITIONAL
from knockout.program import app
from knockout.scoring.league import read_league
from knockout.scoring.rescore import rescore
from knockout.scoring.results import read_results
from knockout.version import __version__

DATA = Path(__file__).resolve().parents[2] / "scenarios" / "data"
EVENT = str(DATA / "2010-national-individual-men.csv")
LEAGUE = str(DATA / "league-example.csv")
runner = CliRunner()


def run_json(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def run_error(*args: str) -> list[str]:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result.stderr.strip().splitlines()


def render(renderable: object, width: int = 100) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None, legacy_windows=False).print(renderable)
    return buffer.getvalue()


def test_rescore_json_contract() -> None:
    doc = run_json("rescore", EVENT, "--scoring", "difference", "--json")
    assert doc["version"] == __version__
    assert doc["scoring"] == "difference"
    players = doc["players"]
    assert [(p["rank"], p["name"], p["points"], p["progressive"]) for p in players[:3]] == [
        (1, "蒋川", 16, 99.9),
        (2, "王跃飞", 15.9, 76.8),
        (3, "郑一泓", 15.2, 92.7),
    ]
    assert players[0]["running"] == [2.1, 4, 4, 5.9, 8, 9, 10, 11.9, 14, 15, 16]
    assert len(players) == 9  # opponents without rows are not ranked


def test_rescore_compare_json() -> None:
    doc = run_json("rescore", EVENT, "-s", "ratio", "--compare", "traditional", "--json")
    moves = {p["name"]: (p["baseline_rank"], p["rank"], p["rank_change"]) for p in doc["players"]}
    assert moves["赵国荣"] == (3, 9, -6)
    assert moves["赵鑫鑫"] == (9, 8, 1)
    assert doc["compare"]["players"][0]["points"] == 16


def test_rescore_tables() -> None:
    result = runner.invoke(app, ["rescore", EVENT, "-s", "difference", "-c", "traditional"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "蒋川" in out and "99.9" in out and "▼5" in out and "44 opponents have no rows" in out
    result = runner.invoke(app, ["rescore", EVENT, "-s", "ratio", "--rounds"])
    assert result.exit_code == 0
    assert "赵鑫鑫 (ratio)" in result.stdout and "96.2" in result.stdout


def test_rescore_json_names_the_seed_and_the_conventions() -> None:
    doc = run_json("rescore", EVENT, "--seed", "3", "--json")
    assert list(doc)[:2] == ["version", "seed"] and doc["seed"] == 3
    # 44 opponents have no rows, so not every two players met: Swiss; undated: the newest rules.
    assert (doc["rules"], doc["tournament"]) == ("2026", "swiss")
    lots = run_json("rescore", EVENT, "-t", "PS,lots", "--seed", "5", "--json")
    assert lots["seed"] == 5
    assert [p["rank"] for p in lots["players"]] == list(range(1, 10))
    assert "seed" not in run_json("rescore", EVENT, "--json")


#: Four players, every row given; A and D did not play round 3. Difference method: Red win 1.9,
#: Black win 2.1, draw 1.
ABSENT_IN_ROUND_3 = [
    "round,player,opponent,colour,result",
    "1,A,B,red,win", "1,B,A,black,loss", "1,C,D,red,draw", "1,D,C,black,draw",
    "2,C,A,red,loss", "2,A,C,black,win", "2,B,D,red,loss", "2,D,B,black,win",
    "3,B,C,red,win", "3,C,B,black,loss",
]  # fmt: skip


@pytest.mark.parametrize(
    ("options", "rules", "a_buchholz"),
    [
        # A: 1.9 + 2.1 = 4 points. Opponents B 1.9 and C 1, and round 3, an absence: under the
        # 2024 rules a dummy opponent with A's own 4 (BH 6.9); the 2026 revision bounds it by a
        # draw (1) per round, 3 (BH 5.9).
        ((), "2026", 5.9),
        (("--rules", "2024"), "2024", 6.9),
        (("--date", "2026-02-01"), "2024", 6.9),
        (("--date", "2026-03-01"), "2026", 5.9),
    ],
)
def test_rescore_tiebreaks_follow_the_rules_in_force(
    tmp_path: Path, options: tuple[str, ...], rules: str, a_buchholz: float
) -> None:
    path = tmp_path / "event.csv"
    path.write_text("\n".join(ABSENT_IN_ROUND_3) + "\n", encoding="utf-8")
    doc = run_json("rescore", str(path), "-s", "difference", "-t", "BH", *options, "--json")
    assert (doc["rules"], doc["tournament"]) == (rules, "swiss")
    points = {p["name"]: p["points"] for p in doc["players"]}
    assert points == {"A": 4, "B": 1.9, "C": 1, "D": 3.1}
    (a,) = [p for p in doc["players"] if p["name"] == "A"]
    assert a["tiebreaks"] == {"BH": a_buchholz}


def test_rescore_conventions_options_are_checked() -> None:
    assert run_error("rescore", EVENT, "--rules", "2023", "--tournament", "league") == [
        "error: --rules: expected 2024 or 2026, got '2023'",
        "error: --tournament: expected swiss or round-robin, got 'league'",
    ]


def test_rescore_custom_scoring_file(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(
        "[scoring.custom]\nred_win = 1.8\nblack_win = 2.2\n"
        "red_draw = 1\nblack_draw = 1\nloss = 0\n",
        encoding="utf-8",
    )
    doc = run_json("rescore", EVENT, "--scoring-file", str(path), "-s", "custom", "--json")
    assert doc["scoring"] == "custom"
    assert doc["players"][0]["points"] == 16  # 蒋川: 4 Black wins, 4 Red wins, 3 draws - 1 loss


def test_rescore_bad_input_one_line_per_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "round,player,opponent,colour,result\n1,A,B,Red,win\nx,A,B,red,win\n"
        "2,A,B,red,win\n2,B,A,red,loss\n",
        encoding="utf-8",
    )
    assert run_error("rescore", str(bad)) == [
        f"error: {bad}: line 2, colour: expected 'red' or 'black', got 'Red'",
        f"error: {bad}: line 3, round: expected a whole number >= 1, got 'x'",
        f"error: {bad}: lines 4 and 5: round 2, the rows of A v B disagree: "
        "line 4 says A red win, line 5 says B red loss",
    ]


def test_rescore_option_errors(tmp_path: Path) -> None:
    (line,) = run_error("rescore", EVENT, "--scoring", "golf")
    assert line.startswith("error: --scoring: unknown scoring system: 'golf' (known: traditional")
    (line,) = run_error("rescore", EVENT, "--compare", "golf")
    assert line.startswith("error: --compare: unknown scoring system: 'golf'")
    (line,) = run_error("rescore", EVENT, "--tiebreaks", "PS,XX")
    assert line.startswith("error: --tiebreaks: unknown tie-break: 'XX'")
    (line,) = run_error("rescore", EVENT, "--tiebreaks", "BH")
    assert line.startswith(f"error: {EVENT}: tie-break BH: needs every opponent's total, but 44")
    assert run_error("rescore", "nope.csv") == [
        "error: nope.csv: cannot read the file: No such file or directory"
    ]
    (line,) = run_error("rescore", EVENT, "--encoding", "klingon")
    assert line == f"error: {EVENT}: unknown encoding 'klingon' (try utf-8 or gb18030)"
    (line,) = run_error("rescore", EVENT, "--scoring-file", str(tmp_path / "none.toml"))
    assert line.endswith("none.toml: cannot read the file: No such file or directory")
    (line,) = run_error("rescore", EVENT, "--tiebreaks", "PS,lots")
    assert line == "error: --tiebreaks: the drawing of lots needs --seed"


def test_rescore_round_robin_needs_details() -> None:
    lines = run_error("rescore", EVENT, "--scoring", "round-robin")
    draws = Path(EVENT).read_text(encoding="utf-8").count(",draw\n")
    assert draws == 50 and len(lines) == draws  # every drawn game lacks its moves
    assert lines[0] == (
        f"error: {EVENT}: line 7: a draw under this rule needs its number of moves "
        "(scoring 'round-robin')"
    )


def test_league_json_and_table() -> None:
    doc = run_json("league", LEAGUE, "--json")
    assert [t["team"] for t in doc["teams"]] == ["上海", "湖北", "广东", "北京"]
    assert doc["ranking"][:3] == ["match_points", "head_to_head", "board_points"]
    result = runner.invoke(app, ["league", LEAGUE])
    assert result.exit_code == 0
    assert "6.5 : 7.0" in result.stdout and "0.5 : 1" in result.stdout


def test_league_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("round,home,away,board,home_colour,result\n1,A,B,1,red,red\n", encoding="utf-8")
    assert run_error("league", str(bad)) == [
        f"error: {bad}: line 2, result: expected 'win' or 'draw' or 'loss', got 'red'",
    ]
    bad.write_text("round,home,away,board,colour,result\n", encoding="utf-8")
    lines = run_error("league", str(bad))
    assert lines[0] == (
        f"error: {bad}: line 1, header: unknown column 'colour': expected round, home, away, "
        "board, home_colour, result"
    )


@pytest.mark.parametrize("command", ["rescore", "league"])
def test_help_has_an_example(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "Example" in result.stdout and f"knockout {command}" in result.stdout


def test_views_render_aligned_with_chinese_names() -> None:
    event = read_results(Path(EVENT))
    diff, ratio, trad = (rescore(event, s) for s in (DIFFERENCE, RATIO, TRADITIONAL))
    for renderable in (
        score_table(diff),
        compare_table(ratio, trad),
        player_rounds(ratio, ratio.standing("赵鑫鑫")),
        league_view(read_league(Path(LEAGUE))),
    ):
        text = render(renderable)
        rows = [line for line in text.splitlines() if "│" in line or "┃" in line]
        assert rows
        widths = {cell_len(line) for line in rows}
        assert len(widths) <= 2  # the matches and teams tables of the league view


def test_score_table_prints_the_seed_decimals() -> None:
    event = read_results(Path(EVENT))
    text = render(score_table(rescore(event, DIFFERENCE)))
    assert "16.0" in text and "15.0" in text  # one decimal, as the seed prints
    text = render(score_table(rescore(event, TRADITIONAL)))
    assert " 16 " in text and " 100 " in text and "16.0" not in text


DOCS = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"


def test_docs_commands_run() -> None:
    text = DOCS.read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```sh\n")[1:]]
    commands = [line.split()[1:] for b in blocks for line in b.splitlines() if line.strip()]
    assert len(commands) == 7  # rescore x3, league, league-odds x3
    root = DOCS.parent.parent
    for command in commands:
        args = [str(root / a) if a.startswith("scenarios/") else a for a in command]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
