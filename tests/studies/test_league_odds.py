"""``knockout league-odds``: the exact team-match odds against a brute force written from the rules.

The reference below restates seed 001's league (RULES.md section 3) and MODEL.md's game model in
a few plain lines, independent of the package's tables: board points (captains' board win 5, draw
Black 3 / Red 2; other boards win 3, draw Black 1.5 / Red 1), match points (more board points 3
against 0; 1 against 0.5 when the captains drew and the others went three draws or one win, one
draw and one loss), the Davidson game with the Red advantage, the time class from the mean
effective clock.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from knockout.game import Colour
from knockout.io.teams import parse_team_match
from knockout.points import ScoringSystem
from knockout.program import app
from knockout.scoring.league import LeagueRules
from knockout.studies.scoring.team_match import outcome_table, team_match_odds
from knockout.version import __version__

ROOT = Path(__file__).resolve().parents[2]
TEAMS = ROOT / "scenarios" / "league-teams.toml"
runner = CliRunner()

# --- the reference, from RULES.md and MODEL.md alone ------------------------------------------

RED_ADV = 400 * math.log10(391 / 270)
NU = {"classical": 557 / math.sqrt(391 * 270), "rapid": 1.0, "blitz": 0.8}


def ref_class(minutes: float, inc: float, moves: float = 60) -> str:
    mean = minutes + moves * inc / 60
    return "classical" if mean >= 60 else "blitz" if mean <= 10 else "rapid"


def ref_game(red: float, black: float, adv: float, nu: float) -> tuple[float, float, float]:
    """P(Red wins), P(draw), P(Black wins)."""
    g = 10 ** ((red - black + adv) / 400)
    z = g + 1 + nu * math.sqrt(g)
    return g / z, nu * math.sqrt(g) / z, 1 / z


def ref_board_points(board: int, colour: str, result: str) -> tuple[float, float]:
    """(this player's, the opponent's) board points; result from this player's side."""
    win = 5 if board == 1 else 3
    red_draw, black_draw = (2, 3) if board == 1 else (1, 1.5)
    if result == "win":
        return win, 0
    if result == "loss":
        return 0, win
    mine, theirs = (red_draw, black_draw) if colour == "red" else (black_draw, red_draw)
    return mine, theirs


def ref_odds(
    home: list[float],
    away: list[float],
    captain: str,
    *,
    clocks: list[tuple[float, float]] | None = None,
    adv: dict[str, float] | None = None,
) -> dict[str, dict[str, float]]:
    clocks = clocks or [(60, 10), (40, 10), (40, 10), (40, 10)]
    adv = adv or {}
    other = "black" if captain == "red" else "red"
    colours = [captain, other, other, other]
    boards = []
    for b in range(4):
        tc = ref_class(*clocks[b])
        a, nu = adv.get(tc, RED_ADV), NU[tc]
        if colours[b] == "red":
            win, draw, loss = ref_game(home[b], away[b], a, nu)
        else:
            loss, draw, win = ref_game(away[b], home[b], a, nu)
        boards.append({"win": win, "draw": draw, "loss": loss})
    out = {s: dict.fromkeys(("win", "narrow_win", "narrow_loss", "loss", "mp", "bp"), 0.0)
           for s in ("home", "away")}  # fmt: skip
    for results in itertools.product(("win", "draw", "loss"), repeat=4):
        p = math.prod(boards[b][r] for b, r in enumerate(results))
        pts = [ref_board_points(b + 1, colours[b], r) for b, r in enumerate(results)]
        h, a = sum(x for x, _ in pts), sum(y for _, y in pts)
        assert h != a
        others = sorted(results[1:])
        narrow = results[0] == "draw" and others in (
            ["draw", "draw", "draw"],
            ["draw", "loss", "win"],
        )
        home_won = h > a
        for side, won, bp in (("home", home_won, h), ("away", not home_won, a)):
            kind = (
                ("narrow_win" if won else "narrow_loss") if narrow else ("win" if won else "loss")
            )
            out[side][kind] += p
            out[side]["mp"] += p * {"win": 3, "narrow_win": 1, "narrow_loss": 0.5, "loss": 0}[kind]
            out[side]["bp"] += p * bp
    return out


def teams_data(home: list[float], away: list[float], **extra: Any) -> dict[str, Any]:
    return {
        "home": [{"name": f"h{i}", "rating": r} for i, r in enumerate(home)],
        "away": [{"name": f"a{i}", "rating": r} for i, r in enumerate(away)],
        **extra,
    }


def check(odds: Any, ref: dict[str, dict[str, float]]) -> None:
    for side in ("home", "away"):
        got = getattr(odds, side)
        for key in ("win", "narrow_win", "narrow_loss", "loss"):
            assert getattr(got, key) == pytest.approx(ref[side][key], abs=1e-12)
        assert got.match_points == pytest.approx(ref[side]["mp"], abs=1e-12)
        assert got.board_points == pytest.approx(ref[side]["bp"], abs=1e-12)


ratings = st.lists(st.floats(2000, 2800), min_size=4, max_size=4)


@given(ratings, ratings)
def test_exact_odds_equal_the_brute_force_from_the_rules(
    home: list[float], away: list[float]
) -> None:
    odds = team_match_odds(parse_team_match(teams_data(home, away)))
    check(odds.red, ref_odds(home, away, "red"))
    check(odds.black, ref_odds(home, away, "black"))
    best = "black" if odds.black.home.match_points > odds.red.home.match_points else "red"
    assert str(odds.best) == best


@given(ratings, ratings, st.floats(-100, 200), st.floats(-100, 200))
def test_exact_odds_follow_model_overrides_and_clocks(
    home: list[float], away: list[float], classical: float, rapid: float
) -> None:
    # a rapid captain (40+10) and a classical board 4 (55+10): the classes follow the clocks
    data = teams_data(
        home,
        away,
        clocks={"minutes": [40, 40, 40, 55], "increment_seconds": [10, 10, 10, 10]},
        model={"red_advantage": {"classical": classical, "rapid": rapid}},
    )
    odds = team_match_odds(parse_team_match(data))
    clocks = [(40, 10), (40, 10), (40, 10), (55, 10)]
    adv = {"classical": classical, "rapid": rapid}
    check(odds.red, ref_odds(home, away, "red", clocks=clocks, adv=adv))
    check(odds.black, ref_odds(home, away, "black", clocks=clocks, adv=adv))


def test_board_totals_are_never_equal_under_the_seeds_points() -> None:
    assert outcome_table(Colour.RED).equal_totals == 0
    assert outcome_table(Colour.BLACK).equal_totals == 0


def test_equal_totals_are_counted_when_the_points_allow_them() -> None:
    # a captains' draw worth 2.5 each: four draws give 2.5 + 4.5 against 2.5 + 3 ... and so on;
    # some outcome then ties (captain drawn, one win and one loss, the third board drawn: 1 v 1)
    from decimal import Decimal

    even = ScoringSystem("even", Decimal(5), Decimal(5), Decimal("2.5"), Decimal("2.5"))
    flat = ScoringSystem("flat", Decimal(3), Decimal(3), Decimal(1), Decimal(1))
    table = outcome_table(Colour.RED, LeagueRules(captain=even, board=flat))
    assert table.equal_totals > 0


# --- the command ---------------------------------------------------------------------------

MINIMAL = """\
captain_colour = "red"            # the home captain's colour: red, black or best
[[home]]                           # board 1 (the captain) first
name = "甲1"
rating = 2500
[[home]]
name = "甲2"
rating = 2500
[[home]]
name = "甲3"
rating = 2500
[[home]]
name = "甲4"
rating = 2500
[[away]]
name = "乙1"
rating = 2500
[[away]]
name = "乙2"
rating = 2500
[[away]]
name = "乙3"
rating = 2500
[[away]]
name = "乙4"
rating = 2500
"""


def run(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def errors(*args: str) -> list[str]:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result.stderr.strip().splitlines()


def test_the_issues_minimal_file_works_as_written(tmp_path: Path) -> None:
    path = tmp_path / "teams.toml"
    path.write_text(MINIMAL, encoding="utf-8")
    doc = json.loads(run("league-odds", str(path), "--json").stdout)
    assert set(doc) == {"version", "scenario", "captain_red", "captain_black", "best"}
    assert doc["version"] == __version__
    side_keys = {"win", "narrow_win", "narrow_loss", "loss", "match_points", "board_points"}
    for colour in ("captain_red", "captain_black"):
        assert set(doc[colour]) == {"home", "away"}
        for side in ("home", "away"):
            assert set(doc[colour][side]) == side_keys
    home = [2500.0] * 4
    ref = ref_odds(home, home, "red")
    assert doc["captain_red"]["home"]["match_points"] == pytest.approx(ref["home"]["mp"])
    assert doc["captain_red"]["away"]["win"] == pytest.approx(ref["away"]["win"])
    assert doc["best"] in ("red", "black")
    # the JSON output reads back as the same match
    out = tmp_path / "odds.json"
    out.write_text(json.dumps(doc), encoding="utf-8")
    again = json.loads(run("league-odds", str(out), "--json").stdout)
    assert again["captain_red"] == doc["captain_red"]
    assert again["scenario"] == doc["scenario"]
    text = run("league-odds", str(path)).stdout
    assert "best: home should give its captain black" in text
    assert "the file asks for red" in text


def test_set_overrides_players_by_name_and_the_model(tmp_path: Path) -> None:
    path = tmp_path / "teams.toml"
    path.write_text(MINIMAL, encoding="utf-8")
    doc = json.loads(
        run(
            "league-odds", str(path), "--json", "--set", "home.甲1.rating=2600",
            "--set", "model.red_advantage.rapid=0", "--set", "captain_colour=black",
        ).stdout
    )  # fmt: skip
    ref = ref_odds([2600, 2500, 2500, 2500], [2500] * 4, "black", adv={"rapid": 0.0})
    assert doc["captain_black"]["home"]["match_points"] == pytest.approx(ref["home"]["mp"])
    assert doc["scenario"]["captain_colour"] == "black"
    lines = errors("league-odds", str(path), "--set", "home.甲9.rating=1")
    assert lines == [
        "error: --set: home.甲9.rating: no player named '甲9' in [[home]] "
        "(players: 甲1, 甲2, 甲3, 甲4)"
    ]


def test_the_bundled_teams_file_runs() -> None:
    doc = json.loads(run("league-odds", str(TEAMS), "--json").stdout)
    assert doc["scenario"]["home_team"] == "红队"
    home = [2560, 2520, 2480, 2450]  # 钱二's rapid rating plays on the rapid board 2
    away = [2600, 2480, 2450, 2420]
    for colour in ("red", "black"):
        ref = ref_odds(home, away, colour)
        assert doc[f"captain_{colour}"]["home"]["match_points"] == pytest.approx(ref["home"]["mp"])


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            lambda t: t.replace('[[home]]\nname = "甲4"\nrating = 2500\n', ""),
            "home: expected 4 players (a [[home]] table each, board 1, the captain, first), got 3",
        ),
        (
            lambda t: t.replace('captain_colour = "red"', 'captain_colour = "green"'),
            "captain_colour: expected one of 'red', 'black' or 'best', got 'green'",
        ),
        (
            lambda t: t.replace('name = "乙3"', 'name = "甲3"'),
            "away[2].name: '甲3' also plays for the home team (home[2]): a team cannot play itself",
        ),
        (
            lambda t: 'home_team = "红队"\naway_team = "红队"\n' + t,
            "away_team: '红队' cannot play itself (home_team too)",
        ),
        (
            lambda t: t + "\n[model.sd]\nred_advantage = 25\n",
            "model.sd: league-odds works at the model's central constants and does not carry "
            "their uncertainty: remove it (odds, compare, fair, incentives and equilibrium "
            "integrate over a scenario's [model.sd])",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, edit: Any, expected: str) -> None:
    path = tmp_path / "teams.toml"
    path.write_text(edit(MINIMAL), encoding="utf-8")
    assert errors("league-odds", str(path)) == [f"error: {path}: {expected}"]


def test_the_bundled_teams_file_round_trips() -> None:
    from knockout.io.teams import load_team_match

    teams = load_team_match(TEAMS)
    again = parse_team_match(json.loads(json.dumps(teams.to_dict())), source=str(TEAMS))
    assert again == teams
