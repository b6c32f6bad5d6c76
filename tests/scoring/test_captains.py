"""The league's captains (主将), their changes, and the lot for boards 2-4 (seed 001, 一.1-2)."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from knockout.errors import InputError
from knockout.program import app
from knockout.scoring.captains import (
    CaptainChange,
    Squad,
    captain_schedule,
    draw_boards,
    line_up,
)
from knockout.scoring.league_file import parse_league_file, read_league_file

ROOT = Path(__file__).resolve().parents[2]
SEASON = ROOT / "scenarios" / "data" / "league-season.toml"
RED = Squad("红队", "甲", ("甲", "乙", "丙", "丁", "戊"))
BLUE = Squad("蓝队", "子", ("子", "丑", "寅", "卯"))


def _file(**extra: Any) -> dict[str, Any]:
    return {
        "name": "test",
        "teams": [
            {"name": "红队", "captain": "甲", "players": ["甲", "乙", "丙", "丁", "戊"]},
            {"name": "蓝队", "captain": "子", "players": ["子", "丑", "寅", "卯"]},
        ],
        **extra,
    }


def test_three_changes_are_accepted_and_the_fourth_refused() -> None:
    """The captain misses rounds 2, 3 and 7 (three changes); a fourth, round 9, is refused with
    one line naming its round and the rounds of the earlier three."""
    changes = [CaptainChange(r, "红队", "乙", f"changes[{i}]") for i, r in enumerate((2, 3, 7, 9))]
    schedule, problems = captain_schedule([RED, BLUE], changes, source="season.toml")
    assert [str(p) for p in problems] == [
        "season.toml: changes[3]: 红队, round 9: a fourth captain change is refused (seed 001, "
        "一.1: at most 3 a season); the earlier three were in rounds 2, 3, 7"
    ]
    assert [c.round for c in schedule.changes["红队"]] == [2, 3, 7]
    assert schedule.changes_left("红队") == 0
    # A returning captain resumes: rounds 1, 4-6 and 8 are 甲's, and 9 too (the change refused).
    assert [schedule.captain("红队", r) for r in range(1, 10)] == list("甲乙乙甲甲甲乙甲甲")


def test_the_order_of_the_file_does_not_decide_which_change_is_the_fourth() -> None:
    changes = [CaptainChange(r, "红队", "丙", f"changes[{i}]") for i, r in enumerate((8, 1, 5, 3))]
    _, problems = captain_schedule([RED, BLUE], changes, source="s")
    assert len(problems) == 1
    assert "round 8: a fourth captain change" in str(problems[0])
    assert "rounds 1, 3, 5" in str(problems[0])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (CaptainChange(2, "红队", "甲", "changes[0]"), "甲 is the declared captain"),
        (CaptainChange(2, "红队", "子", "changes[0]"), "expected a player of the squad"),
        (
            CaptainChange(2, "绿队", "乙", "changes[0]"),
            "changes[0].team: expected one of the teams",
        ),
    ],
)
def test_bad_changes_are_one_line_each(change: CaptainChange, message: str) -> None:
    _, problems = captain_schedule([RED, BLUE], [change], source="s")
    assert len(problems) == 1
    assert message in str(problems[0])


def test_two_changes_for_one_match_are_refused() -> None:
    changes = [CaptainChange(2, "红队", "乙", "changes[0]"), CaptainChange(2, "红队", "丙", "x")]
    _, problems = captain_schedule([RED, BLUE], changes, source="s")
    assert len(problems) == 1
    assert "a second change for the same match" in str(problems[0])


def test_the_line_up_is_the_captain_and_the_next_three() -> None:
    changes = [CaptainChange(2, "红队", "乙", "c")]
    schedule, _ = captain_schedule([RED, BLUE], changes, source="s")
    assert line_up(schedule, "红队", 1) == ("甲", "乙", "丙", "丁")
    # 甲 is absent: 乙 captains, and the reserve 戊 comes in.
    assert line_up(schedule, "红队", 2) == ("乙", "丙", "丁", "戊")
    assert line_up(schedule, "蓝队", 2) == ("子", "丑", "寅", "卯")


def test_the_lot_is_reproducible_and_pairs_every_player_once() -> None:
    home, away = ("甲", "乙", "丙", "丁"), ("子", "丑", "寅", "卯")
    first = draw_boards(3, "红队", "蓝队", home, away, seed=11)
    assert first == draw_boards(3, "红队", "蓝队", home, away, seed=11)
    assert first.boards[0] == ("甲", "子")  # captain v captain
    assert [h for h, _ in first.boards] == list(home)
    assert sorted(a for _, a in first.boards[1:]) == sorted(away[1:])
    pairings = {draw_boards(3, "红队", "蓝队", home, away, seed=s).boards for s in range(40)}
    assert len(pairings) == 6  # every pairing of boards 2-4 occurs


def test_the_lot_is_uniform_over_the_six_pairings() -> None:
    """3,000 seeds: each of the six pairings 500 times on average; the count's standard
    deviation is sqrt(3000 * 1/6 * 5/6) = 20.4, and every count lies within 4 of them."""
    home, away = ("甲", "乙", "丙", "丁"), ("子", "丑", "寅", "卯")
    n = 3000
    counts = Counter(draw_boards(1, "红队", "蓝队", home, away, seed=s).boards for s in range(n))
    assert len(counts) == 6
    sd = math.sqrt(n * (1 / 6) * (5 / 6))
    assert all(abs(k - n / 6) < 4 * sd for k in counts.values()), counts


def test_a_matchs_lot_does_not_depend_on_the_other_fixtures() -> None:
    one = _file(seed=5, fixtures=[{"round": 1, "home": "红队", "away": "蓝队"}])
    season = parse_league_file(one, source="a.toml")
    more = _file(
        seed=5,
        teams=[
            *one["teams"],
            {"name": "绿队", "captain": "天", "players": ["天", "地", "玄", "黄"]},
            {"name": "黄队", "captain": "日", "players": ["日", "月", "星", "辰"]},
        ],
        fixtures=[
            {"round": 1, "home": "绿队", "away": "黄队"},
            {"round": 1, "home": "红队", "away": "蓝队"},
        ],
    )
    other = parse_league_file(more, source="b.toml")
    [drawn] = season.draws()
    assert drawn in other.draws()
    assert season.draws(seed=6) != season.draws() or season.draws(seed=7) != season.draws()


def test_the_league_files_problems_all_at_once() -> None:
    data = _file(
        teams=[
            {"name": "红队", "captain": "庚", "players": ["甲", "乙", "丙"]},
            {"name": "蓝队", "captain": "子", "players": ["子", "丑", "寅", "卯"]},
        ],
        changes=[{"round": 1, "team": "蓝队", "captain": "子"}],
        fixtures=[
            {"round": 1, "home": "红队", "away": "绿队"},
            {"round": 1, "home": "蓝队", "away": "红队"},
        ],
    )
    with pytest.raises(InputError) as info:
        parse_league_file(data, source="x.toml")
    lines = info.value.lines()
    assert any("teams[0].captain: expected one of the team's players" in x for x in lines)
    assert any("teams[0].players: expected at least 4 players" in x for x in lines)
    assert any("蓝队, round 1: 子 is the declared captain" in x for x in lines)
    assert any("fixtures[0]: team '绿队' is not among the teams" in x for x in lines)
    assert any("fixtures[1]: round 1: 红队 already plays 红队 v 绿队" in x for x in lines)


def test_the_bundled_league_file() -> None:
    season = read_league_file(SEASON)
    assert season.table is not None
    assert season.seed == 2024
    assert season.schedule.changes_left("广东") == 1
    assert [d.round for d in season.draws()] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    guangdong = next(d for d in season.draws(round=5) if "广东" in (d.home, d.away))
    assert guangdong.boards[0] == ("钱军", "李明")  # 陈刚 replaced in round 5


runner = CliRunner()


def test_the_league_command_on_a_league_file() -> None:
    result = runner.invoke(app, ["league", str(SEASON), "--json", "--round", "5"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert {"teams", "matches", "captains", "lot"} <= set(doc)
    assert doc["lot"]["seed"] == 2024
    assert {m["round"] for m in doc["lot"]["matches"]} == {5}
    again = json.loads(runner.invoke(app, ["league", str(SEASON), "--json"]).stdout)
    assert again["lot"]["matches"][8:10] == doc["lot"]["matches"]
    other = json.loads(runner.invoke(app, ["league", str(SEASON), "--json", "--seed", "1"]).stdout)
    assert other["lot"]["seed"] == 1
    result = runner.invoke(app, ["league", str(SEASON)], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    assert "boards 2-4 by lot (seed 2024)" in result.stdout


def test_a_fourth_change_in_a_league_file_exits_2_with_one_line(tmp_path: Path) -> None:
    text = SEASON.read_text(encoding="utf-8").replace('results = "league-example.csv"', "")
    for r in (1, 3):
        text += f'\n[[changes]]\nround = {r}\nteam = "广东"\ncaptain = "张华"\n'
    path = tmp_path / "season.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["league", str(path)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {path}: changes[1]: 广东, round 5: a fourth captain change is refused (seed "
        "001, 一.1: at most 3 a season); the earlier three were in rounds 1, 2, 3"
    ]


def test_the_lot_needs_a_league_file() -> None:
    csv = ROOT / "scenarios" / "data" / "league-example.csv"
    result = runner.invoke(app, ["league", str(csv), "--seed", "3"])
    assert result.exit_code == 2
    assert "--seed: the lot needs a league file (.toml)" in result.stderr
