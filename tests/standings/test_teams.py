"""Team events (seed 003's 场分 and 局分): knockout/standings/teams.py.

Seed 003's worked examples, a plain re-implementation of the ranking from the rows (match points,
game points, then Buchholz of match points) on random events, and the file's problems.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from knockout.errors import InputError
from knockout.standings.files import standings_from_file
from knockout.standings.records import Outcome
from knockout.standings.teams import (
    TeamBoard,
    TeamEvent,
    TeamMatch,
    parse_team_results,
    rank_teams,
    team_crosstable,
)

D = Decimal
DATA = Path(__file__).resolve().parents[2] / "scenarios" / "data"
W, DR, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


def _match(rnd: int, home: str, away: str, *outcomes: Outcome) -> TeamMatch:
    return TeamMatch(rnd, home, away, tuple(TeamBoard(n, o) for n, o in enumerate(outcomes, 1)))


def test_seed_003_game_points_example() -> None:
    """局分: A1 beat B1, A2 beat B2, A3 drew B3: A 1 + 1 + 0.5 = 2.5, B 0 + 0 + 0.5 = 0.5; A
    has more game points, so A wins the match: 2 match points, B none."""
    m = _match(1, "A", "B", W, W, DR)
    assert m.game_points == (D("2.5"), D("0.5"))
    assert m.match_points == (D(2), D(0))


def test_seed_003_match_points_example() -> None:
    """场分: A won two boards and lost one: 2 : 1, A gets 2 match points and B none."""
    m = _match(1, "A", "B", W, L, W)
    assert m.game_points == (D(2), D(1))
    assert m.match_points == (D(2), D(0))


def test_equal_game_points_are_a_drawn_match() -> None:
    m = _match(1, "A", "B", W, L, DR, DR)
    assert m.game_points == (D(2), D(2))
    assert m.match_points == (D(1), D(1))


def test_ranking_is_match_points_then_game_points_then_the_users_order() -> None:
    event = TeamEvent.from_matches(
        [
            _match(1, "A", "B", W, W, DR),  # A 2 : 0, GP 2.5 : 0.5
            _match(1, "C", "D", L, DR, W),  # 1 : 1, GP 1.5 : 1.5
            _match(2, "A", "C", DR, L, W),  # 1 : 1
            _match(2, "B", "D", W, W, L),  # B 2 : 0
            _match(3, "D", "A", W, W, W),  # D 2 : 0
            _match(3, "B", "C", W, DR, DR),  # B 2 : 0
        ]
    )
    ranked = rank_teams(event, ["BH"])
    assert ranked.codes == ("GP", "BH")
    order = [(s.name, s.points, s.tiebreaks["GP"]) for s in ranked.players]
    # A 3 MP (GP 4), B 4 MP (GP 4.5), C 2 MP (GP 4), D 3 MP (GP 5.5): B; D over A on GP; C.
    assert order == [
        ("B", D(4), D("4.5")),
        ("D", D(3), D("5.5")),
        ("A", D(3), D(4)),
        ("C", D(2), D(4)),
    ]
    # The user may put direct encounter before game points: D beat A.
    de_first = rank_teams(event, ["DE", "GP"])
    assert [s.name for s in de_first.players] == ["B", "D", "A", "C"]
    assert de_first.codes == ("DE", "GP")
    assert de_first.players[1].tiebreaks["DE"] == D(2)
    doc = ranked.to_json()
    assert doc["event"] == "team"
    assert doc["teams"][0] == {
        "name": "B",
        "rank": 1,
        "match_points": 4,
        "tiebreaks": {"GP": 4.5, "BH": 8},
    }


def _plain_ranking(event: TeamEvent) -> list[tuple[str, int]]:
    """The ranking read straight from the matches: match points, game points, then the sum of
    the opponents' match points; equal on all three share a rank."""
    mp: dict[str, Decimal] = dict.fromkeys(event.teams, D(0))
    gp: dict[str, Decimal] = dict.fromkeys(event.teams, D(0))
    opponents: dict[str, list[str]] = {t: [] for t in event.teams}
    for m in event.matches:
        home_gp = sum((D(1) if b.outcome is W else D("0.5") if b.outcome is DR else D(0))
                      for b in m.boards)  # fmt: skip
        away_gp = len(m.boards) - home_gp
        gp[m.home] += home_gp
        gp[m.away] += away_gp
        mp[m.home] += 2 if home_gp > away_gp else 1 if home_gp == away_gp else 0
        mp[m.away] += 2 if away_gp > home_gp else 1 if home_gp == away_gp else 0
        opponents[m.home].append(m.away)
        opponents[m.away].append(m.home)
    bh = {t: sum((mp[o] for o in opponents[t]), D(0)) for t in event.teams}
    key = {t: (mp[t], gp[t], bh[t]) for t in event.teams}
    return [(t, 1 + sum(1 for u in event.teams if key[u] > key[t])) for t in event.teams]


def test_random_round_robins_rank_as_read_from_the_rows() -> None:
    rng = np.random.default_rng(43)
    for _ in range(30):
        teams = [f"T{i}" for i in range(int(rng.integers(3, 7)))]
        boards = int(rng.integers(2, 6))
        matches = []
        pairs = [(a, b) for a in range(len(teams)) for b in range(a + 1, len(teams))]
        for rnd, (a, b) in enumerate(pairs, 1):
            outcomes = [(W, DR, L)[k] for k in rng.integers(0, 3, size=boards)]
            matches.append(_match(rnd, teams[a], teams[b], *outcomes))
        event = TeamEvent.from_matches(matches)
        ranked = rank_teams(event, ["BH"])
        got = sorted((s.name, s.rank) for s in ranked.players)
        assert got == sorted(_plain_ranking(event))


def test_the_team_cross_table_counts_match_points() -> None:
    event = TeamEvent.from_matches([_match(1, "A", "B", W, W, DR), _match(2, "B", "A", DR, DR)])
    table = team_crosstable(event)
    assert table.scores == {"A": D(3), "B": D(1)}
    assert not table.inconsistencies()


def test_a_league_file_is_a_team_results_file() -> None:
    """Seed 001's league CSV (with its home_colour column) ranks as a team event of 1 / 0.5 / 0
    boards, as seed 003 scores teams (not the league's own 5 / 3 points)."""
    standings = standings_from_file(DATA / "league-example.csv")
    assert standings.teams
    assert standings.codes == ("GP", "DE", "BH")
    assert len(standings.players) == 4


def test_standings_of_a_team_file(tmp_path: Path) -> None:
    path = tmp_path / "teams.csv"
    path.write_text(
        "round,home,away,board,result\n1,红队,蓝队,1,1-0\n1,红队,蓝队,2,1/2-1/2\n"
        "1,红队,蓝队,3,0-1\n1,红队,蓝队,4,+-\n",
        encoding="utf-8",
    )
    standings = standings_from_file(path, ["GP"])
    assert [(s.name, s.points, s.tiebreaks["GP"]) for s in standings.players] == [
        ("红队", D(2), D("2.5")),
        ("蓝队", D(0), D("1.5")),
    ]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (
            "1,A,B,1,win\n1,A,B,1,loss\n",
            "lines 2, 3: round 1, A v B: expected boards 1 to 2 once each, got 1, 1",
        ),
        ("1,A,B,1,won\n", "line 2, result: expected win, 1-0, draw"),
        ("1,A,B,1,win\n1,A,C,1,win\n", "round 1, A v C: A also plays A v B in round 1"),
        ("1,A,B,1,win\n1,A,B,2,win\n2,A,B,1,win\n", "round 2, A v B: 1 boards, but round 1"),
        ("1,A,A,1,win\n", "line 2, away: 'A' cannot play itself"),
        ("x,A,B,1,win\n", "line 2, round: expected a whole number >= 1, got 'x'"),
    ],
)
def test_bad_team_files_are_one_line_each(rows: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_team_results("round,home,away,board,result\n" + rows, source="t.csv")
    assert message in str(info.value)


def test_game_points_are_refused_for_an_individual_event() -> None:
    with pytest.raises(InputError, match="GP \\(game points\\) is for team events"):
        standings_from_file(DATA / "swiss-9.csv", ["GP"])
