"""The league season study: the ranking against ``league_table``, the simulated matches against the
exact odds (within 4 SE), the verdicts against contradicting numbers, the file and the command."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from knockout.errors import InputError
from knockout.game import Colour
from knockout.program import app
from knockout.rules.model.strength import DEFAULT_MODEL, TimeClass
from knockout.scoring.league import Board, LeagueMatch, league_table
from knockout.studies.scoring.league_report import (
    MATTERS,
    league_claims,
    league_summary,
    write_league_outputs,
)
from knockout.studies.scoring.league_season import double_round_robin, line_ups, play_seasons
from knockout.studies.scoring.league_study import (
    LeagueStudyResult,
    load_league_study,
    parse_league_study,
    run_league_study,
)
from knockout.studies.scoring.study import parse_study
from knockout.studies.scoring.team_match import KINDS, OUTCOMES, board_probabilities, match_odds

ROOT = Path(__file__).resolve().parents[2]
STUDY = ROOT / "scenarios" / "studies" / "league-season.toml"
CLASSES = (TimeClass.CLASSICAL, TimeClass.RAPID, TimeClass.RAPID, TimeClass.RAPID)
runner = CliRunner()


def seasons(teams: int, events: int, seed: int, policy: str = "lot", sd: float = 40.0) -> Any:
    rng = np.random.default_rng(seed)
    ratings = rng.normal(2450, sd, (events, teams, 1)) + rng.normal(0, 20, (events, teams, 4))
    ratings = -np.sort(-ratings, axis=2)
    matches = teams * (teams - 1)
    u = rng.random((events, matches, 4))
    lot = rng.random((events, matches)) < 0.5
    return play_seasons(ratings, u, lot, policy, classes=CLASSES, model=DEFAULT_MODEL)


@pytest.mark.parametrize("sd", [40.0, 0.0])
@pytest.mark.slow
def test_the_ranking_equals_league_table_season_by_season(sd: float) -> None:
    sample = seasons(6, 300, seed=3, sd=sd)
    home, away = double_round_robin(6)
    for e in range(300):
        matches = []
        for m, (h, a) in enumerate(zip(home, away, strict=True)):
            captain = Colour.RED if sample.captain_red[e, m] else Colour.BLACK
            boards = tuple(
                Board(n, captain if n == 1 else captain.other, o)
                for n, o in enumerate(OUTCOMES[sample.outcome[e, m]], start=1)
            )
            matches.append(LeagueMatch(m + 1, f"t{h}", f"t{a}", boards))
        table = league_table(matches)
        ranks = {line.team: line.rank for line in table.teams}
        assert [ranks[f"t{t}"] for t in range(6)] == list(sample.ranks[e])
        mps = {line.team: line.match_points for line in table.teams}
        assert [float(mps[f"t{t}"]) for t in range(6)] == list(
            sample.totals[e, :, 0] / sample.scale
        )
        # head-to-head is needed exactly when two teams share match points; a tie survives the
        # whole chain exactly when two teams share a rank
        points = sample.totals[e, :, 0]
        assert sample.reached[e, 1] == (len(set(points)) < 6)
        assert sample.reached[e, -1] == (len(set(sample.ranks[e])) < 6)


@pytest.mark.parametrize("policy", ["red", "black", "lot", "best"])
def test_simulated_match_frequencies_agree_with_the_exact_odds(policy: str) -> None:
    """Two fixed, unequal teams: each plays at home once a season; 4 SE of a proportion."""
    events = 20_000
    a = [2560.0, 2500, 2470, 2440]
    b = [2520.0, 2510, 2490, 2400]
    ratings = np.broadcast_to(np.array([a, b]), (events, 2, 4)).copy()
    rng = np.random.default_rng(11)
    u = rng.random((events, 2, 4))
    lot = rng.random((events, 2)) < 0.5
    sample = play_seasons(ratings, u, lot, policy, classes=CLASSES, model=DEFAULT_MODEL)
    home, away = double_round_robin(2)
    for m in range(2):
        h, w = [a, b][home[m]], [a, b][away[m]]
        odds = {
            c: match_odds(board_probabilities(h, w, c, CLASSES, DEFAULT_MODEL), c)
            for c in (Colour.RED, Colour.BLACK)
        }
        weights = {"red": (1.0, 0.0), "black": (0.0, 1.0), "lot": (0.5, 0.5)}.get(policy)
        if weights is None:  # best: the exact better colour for the home side
            better = odds[Colour.BLACK].home.match_points > odds[Colour.RED].home.match_points
            weights = (0.0, 1.0) if better else (1.0, 0.0)
        for k, kind in enumerate(KINDS):
            p = sum(
                w * getattr(odds[c].home, kind)
                for w, c in zip(weights, (Colour.RED, Colour.BLACK), strict=True)
            )
            freq = float((sample.kind[:, m, 0] == k).mean())
            se = math.sqrt(max(p * (1 - p), 1e-12) / events)
            assert abs(freq - p) <= 4 * se, (policy, m, kind, freq, p)
        mp = sum(
            w * odds[c].home.match_points
            for w, c in zip(weights, (Colour.RED, Colour.BLACK), strict=True)
        )
        values = sample.match_points[:, m, 0] / sample.scale
        assert abs(values.mean() - mp) <= 4 * values.std(ddof=1) / math.sqrt(events)


@pytest.fixture(scope="module")
def result() -> LeagueStudyResult:
    return run_league_study(load_league_study(STUDY), simulations=40)


def with_value(res: LeagueStudyResult, change: dict[tuple[Any, ...], float]) -> Any:
    """``res`` with some rows' values replaced: keys (event, policy, metric) or, for the grid
    rows, (event, policy, metric, rating_gap)."""
    rows = []
    for row in res.rows:
        key = (row.event, row.policy, row.metric)
        value = change.get(key, change.get((*key, row.rating_gap)))
        rows.append(row if value is None else replace(row, value=value))
    return replace(res, rows=tuple(rows))


def verdicts(res: LeagueStudyResult) -> list[str]:
    return [c.verdict for c in league_claims(res)]


def test_verdicts_at_the_bundled_study(result: LeagueStudyResult) -> None:
    assert verdicts(result) == ["captain black favoured", "holds", "does not hold"]


def test_the_captain_verdict_follows_the_gap(result: LeagueStudyResult) -> None:
    key = ("model", "", "captain_red_minus_black")
    assert verdicts(with_value(result, {key: 2 * MATTERS}))[0] == "captain red favoured"
    assert verdicts(with_value(result, {key: MATTERS / 2}))[0] == "no material difference"
    text = league_claims(with_value(result, {key: 0.2}))[0].evidence
    assert "a gap of +0.200 a match" in text


def test_the_totals_verdict_follows_the_count(result: LeagueStudyResult) -> None:
    changed = with_value(result, {("rules", "", "equal_board_totals"): 3.0})
    assert verdicts(changed)[1] == "does not hold"
    assert "3 of the 162 outcomes" in league_claims(changed)[1].evidence
    event = result.study.events[0].name
    changed = with_value(result, {(event, "lot", "equal_board_totals"): 0.01})
    assert verdicts(changed)[1] == "does not hold"


def test_the_draw_verdict_follows_the_numbers(result: LeagueStudyResult) -> None:
    gaps = result.study.rating_gaps
    strong = {
        ("draw-aim", c, "normal_match_points", g): 2.0 for c in ("red", "black") for g in gaps
    }
    assert verdicts(with_value(result, strong))[2] == "holds"
    weak = {("draw-aim", "red", "normal_match_points", min(gaps)): 0.2}
    assert verdicts(with_value(result, weak))[2] == "does not hold"
    pays_at_zero = league_claims(with_value(result, weak))[2].evidence
    assert (
        "At the smallest gap (0 Elo) drawing pays for a side whose captain has red" in pays_at_zero
    )
    # The bundled figures: it pays only against a stronger team, which the evidence says.
    assert "between equal teams the claim is right" in league_claims(result)[2].evidence


@pytest.mark.slow
def test_outputs_and_plots(tmp_path: Path, result: LeagueStudyResult) -> None:
    files = write_league_outputs(result, tmp_path)
    names = {f.name for f in files}
    assert {"results.csv", "results.json", "summary.md", "league-captain-colour.png",
            "league-draws.png", "league-policies.png", "league-tiebreaks.png"} <= names  # fmt: skip
    doc = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert [c["verdict"] for c in doc["claims"]] == verdicts(result)
    header = (tmp_path / "results.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("event,format,teams,simulations,policy,metric,value,se")
    summary = league_summary(result)
    assert "40 |" in summary  # the --simulations override is what the table shows


def test_the_bundled_study_file() -> None:
    study = load_league_study(STUDY)
    assert [e.policies[0] for e in study.events] == ["lot", "lot"]
    assert study.classes == CLASSES
    assert [(e.squad, e.captain_absence) for e in study.events] == [(5, 0.05), (4, 0.0)]


def test_captain_rows_follow_the_absences(result: LeagueStudyResult) -> None:
    """With P(absent) 0.05 over 14 matches a team's captain misses 0.7 a season; nearly all are
    changes (more than three absences in 14 matches: P = 0.0004 a team-season)."""
    absences = result.value("league-8", "lot", "captain_absences")
    changes = result.value("league-8", "lot", "captain_changes")
    assert abs(absences.value - 0.7) < 4 * absences.se + 0.05
    assert changes.value <= absences.value
    with pytest.raises(KeyError):
        result.value("league-12-equal", "lot", "captain_changes")


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        ({"teams": 1}, "events[0].teams: expected a number >= 2, got 1"),
        ({"policies": ["lot", "green"]}, "events[0].policies[1]: expected one of"),
        ({"policies": ["lot", "lot"]}, "events[0].policies: expected each policy once"),
        ({"format": "league", "extra": 1}, "events[0].extra: unknown key"),
        ({"captain_absence": 0.1}, "events[0].squad: expected at least 5 players when a captain"),
        ({"captain_absence": 1.5, "squad": 5}, "events[0].captain_absence: expected a number"),
        ({"squad": 3}, "events[0].squad: expected a number >= 4"),
    ],
)
def test_league_study_problems(edit: dict[str, Any], expected: str) -> None:
    event = {"name": "x", "format": "league", "teams": 4, "simulations": 10, **edit}
    with pytest.raises(InputError) as info:
        parse_league_study({"events": [event]}, source="s.toml")
    assert any(line.startswith(f"s.toml: {expected}") for line in info.value.lines())


def test_a_league_mixed_into_a_swiss_study_is_refused() -> None:
    data = {
        "events": [
            {"name": "rr", "format": "round-robin", "players": 4, "simulations": 10},
            {"name": "l", "format": "league", "teams": 4, "simulations": 10},
        ]
    }
    with pytest.raises(InputError) as info:
        parse_study(data, source="s.toml")
    assert info.value.lines() == [
        "s.toml: events[1].format: a league goes in a study file whose events are all leagues"
    ]


@pytest.mark.slow
def test_cli_runs_a_league_study(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["scoring-study", str(STUDY), "--out", str(out), "-n", "20", "--json"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["seed"] == 2007
    assert [c["verdict"] for c in doc["claims"]][1:] == ["holds", "does not hold"]
    small = tmp_path / "small.toml"
    text = STUDY.read_text(encoding="utf-8")
    small.write_text(text.replace("simulations = 10000", "simulations = 20").replace(
        "simulations = 2000", "simulations = 20"), encoding="utf-8")  # fmt: skip
    again = runner.invoke(app, ["study", str(small), "--out", str(out), "--seed", "3"])
    assert again.exit_code == 0, again.output
    assert "CAPTAIN BLACK FAVOURED" in again.stdout


def test_cli_league_study_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[[events]]\nname = "x"\nformat = "league"\nteams = 4\n', encoding="utf-8")
    result = runner.invoke(app, ["scoring-study", str(path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {path}: events[0].simulations: required key is missing"
    ]


def test_docs_league_study_example_parses() -> None:
    import tomllib

    text = (ROOT / "docs" / "scoring-study.md").read_text(encoding="utf-8")
    block = text.split('```toml\nname = "Seed 001', 1)[1].split("```", 1)[0]
    study = parse_league_study(tomllib.loads('name = "Seed 001' + block), source="docs")
    assert [e.name for e in study.events] == ["league-8"]
    assert study.rating_gaps[-1] == 400


def test_docs_team_file_example_parses() -> None:
    import tomllib

    from knockout.io.teams import parse_team_match

    text = (ROOT / "docs" / "scoring.md").read_text(encoding="utf-8")
    block = text.split('```toml\ncaptain_colour = "red"', 1)[1].split("```", 1)[0]
    data = tomllib.loads('captain_colour = "red"' + block)
    data["home"] = [{"name": f"甲{i}", "rating": 2500} for i in range(1, 5)]
    data["away"] = [{"name": f"乙{i}", "rating": 2500} for i in range(1, 5)]
    teams = parse_team_match(data, source="docs")
    assert teams.model.red_advantage["rapid"] == 30


# --- captains and the lot (seed 001, 一.1-2) ----------------------------------------------------


def _plain_line_ups(
    squads: Any, absent: Any, pairing: Any
) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
    """The seed's captain rule and the lot, season by season and match by match in plain
    Python: a team's declared captain is its best player; a match he misses is a change (the
    next strongest captains, the following three play) while fewer than three were made, else a
    forfeit of board 1 (boards 2-4: players 2-4); the away side's boards 2-4 are permuted by the
    lot."""
    from itertools import permutations

    orders = list(permutations(range(3)))
    events, teams, _ = squads.shape
    home, away = double_round_robin(teams)
    out_home, out_away, out_forfeit, out_changes = [], [], [], []
    for e in range(events):
        used = [0] * teams
        h_rows, a_rows, f_rows = [], [], []
        for m, (h, a) in enumerate(zip(home, away, strict=True)):
            sides, forfeits = [], []
            for side, t in ((0, h), (1, a)):
                if not absent[e, m, side]:
                    picks, forfeit = [0, 1, 2, 3], False
                elif used[t] < 3:
                    used[t] += 1
                    picks, forfeit = [1, 2, 3, 4], False
                else:
                    picks, forfeit = [1, 1, 2, 3], True
                sides.append([squads[e, t, i] for i in picks])
                forfeits.append(forfeit)
            order = orders[pairing[e, m]]
            away_line = [sides[1][0]] + [sides[1][1 + j] for j in order]
            h_rows.append(sides[0])
            a_rows.append(away_line)
            f_rows.append(forfeits)
        out_home.append(h_rows)
        out_away.append(a_rows)
        out_forfeit.append(f_rows)
        out_changes.append(used)
    return out_home, out_away, out_forfeit, out_changes


def test_line_ups_follow_the_captain_rule_and_the_lot() -> None:
    rng = np.random.default_rng(43)
    events, teams = 30, 4
    matches = teams * (teams - 1)
    squads = -np.sort(-rng.normal(2450, 60, (events, teams, 6)), axis=2)
    absent = rng.random((events, matches, 2)) < 0.4  # often, so the limit binds
    pairing = rng.integers(0, 6, (events, matches))
    got = line_ups(squads, absent, pairing)
    home, away, forfeit, changes = _plain_line_ups(squads, absent, pairing)
    played = ~np.asarray(forfeit)
    assert np.array_equal(got.forfeit, np.asarray(forfeit))
    assert got.forfeit.any() and (absent & ~got.forfeit).any()
    assert np.array_equal(got.changes, np.asarray(changes))
    assert got.changes.max() == 3
    # board 1 of a forfeited side is not played: compare it only where it is
    assert np.array_equal(got.home[..., 1:], np.asarray(home)[..., 1:])
    assert np.array_equal(got.away[..., 1:], np.asarray(away)[..., 1:])
    assert np.array_equal(
        got.home[..., 0][played[..., 0]], np.asarray(home)[..., 0][played[..., 0]]
    )
    assert np.array_equal(
        got.away[..., 0][played[..., 1]], np.asarray(away)[..., 0][played[..., 1]]
    )


def test_the_lot_matches_the_exact_odds_averaged_over_the_six_pairings() -> None:
    """Two fixed teams, the lot on, no absences: each kind of match result's frequency against
    the exact odds averaged over the six pairings of boards 2-4 (within 4 standard errors)."""
    from itertools import permutations

    events = 20_000
    a = [2560.0, 2540, 2460, 2380]
    b = [2520.0, 2530, 2450, 2400]
    squads = np.broadcast_to(np.array([a, b]), (events, 2, 4)).copy()
    rng = np.random.default_rng(12)
    u = rng.random((events, 2, 4))
    lot = rng.random((events, 2)) < 0.5
    pairing = rng.integers(0, 6, (events, 2))
    teams = line_ups(squads, np.zeros((events, 2, 2), dtype=bool), pairing)
    sample = play_seasons(
        squads, u, lot, "red", classes=CLASSES, model=DEFAULT_MODEL, line_ups=teams
    )
    home, away = double_round_robin(2)
    for m in range(2):
        h, w = [a, b][home[m]], [a, b][away[m]]
        exact = np.zeros(len(KINDS))
        for order in permutations(range(3)):
            drawn = [w[0]] + [w[1 + j] for j in order]
            odds = match_odds(
                board_probabilities(h, drawn, Colour.RED, CLASSES, DEFAULT_MODEL), Colour.RED
            )
            exact += np.array([getattr(odds.home, k) for k in KINDS]) / 6
        for k, p in enumerate(exact):
            freq = float((sample.kind[:, m, 0] == k).mean())
            se = math.sqrt(max(p * (1 - p), 1e-12) / events)
            assert abs(freq - p) <= 4 * se, (m, KINDS[k], freq, p)


def test_forfeits_score_as_the_rule_says() -> None:
    """Home captain absent after three changes: board 1 lost by forfeit and counted in no colour
    column; both absent: board 1 scores nothing for either side and the larger board total wins
    3 : 0."""
    events, teams = 1, 2
    squads = np.full((events, teams, 5), 2450.0)
    absent = np.zeros((events, 2, 2), dtype=bool)
    ups = line_ups(squads, absent, np.zeros((events, 2), dtype=np.int64))
    forfeit = np.array([[[True, False], [True, True]]])
    ups = replace(ups, forfeit=forfeit)
    u = np.array([[[0.5, 0.01, 0.01, 0.99], [0.5, 0.01, 0.99, 0.99]]])  # boards 2-4: W W L; W L L
    lot = np.array([[True, True]])
    sample = play_seasons(squads, u, lot, "red", classes=CLASSES, model=DEFAULT_MODEL, line_ups=ups)
    s = sample.scale
    # match 0 (home forfeits): home W W L on boards 2-4 with Black: 3 + 3 + 0 = 6 against away's
    # captain 5 (a forfeit win) + 3 = 8: away wins 3 : 0.
    assert [x / s for x in sample.match_points[0, 0]] == [0, 3]
    # match 1 (team 1 at home, both forfeit): home W L L with Black: 3 against 6: away wins 3 : 0.
    assert [x / s for x in sample.match_points[0, 1]] == [0, 3]
    assert list(sample.kind[0, 1]) == [3, 0]
    assert [x / s for x in sample.totals[0, :, 2]] == [12, 11]  # board points 6 + 6; 8 + 3
    # Black wins, Red wins over the board only: team 0 won two boards with Black (match 0) and
    # two with Red (match 1); team 1 one with Red (match 0) and one with Black (match 1), its
    # forfeit win on board 1 of match 0 not counted.
    assert [list(sample.totals[0, t, 3:5]) for t in range(2)] == [[2, 2], [1, 1]]
