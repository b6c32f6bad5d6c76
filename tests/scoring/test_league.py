"""Team league of seed 001: every outcome pattern of four boards, match points, the table.

``scenarios/data/seed001-league-board-points.csv`` transcribes the board-point totals the seed
lists for each pattern of wins, draws and losses ("新记分方案详解(一)", parts 一 and 二). All are
recomputed here; two are wrong, named in :data:`SEED_WRONG`.
"""

from __future__ import annotations

import csv
import itertools
from collections import Counter, defaultdict
from decimal import Decimal
from pathlib import Path

import pytest

from knockout.errors import InputError
from knockout.game import Colour
from knockout.scoring.league import (
    LEAGUE_RULES,
    Board,
    LeagueMatch,
    league_table,
    parse_league,
    read_league,
    to_json,
)
from knockout.scoring.results import Outcome

D = Decimal
W, DR, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS
DATA = Path(__file__).resolve().parents[2] / "scenarios" / "data"
HEADER = "round,home,away,board,home_colour,result\n"
CHINESE = {W: "胜", DR: "和", L: "负"}
COUNTS = "一二三四"

#: Seed figures that no arrangement of the pattern produces: (pattern, seed) -> computed.
SEED_WRONG = {
    # Captain wins, the others win, draw and lose: 5 + 3 + draw vs 3 (the lost board) + draw.
    # The seed forgot the winner's opponents' draw point(s): 9.5:4 (captain Red, team-mates
    # Black: draw 1.5 vs 1) and 9:4.5 (captain Black: draw 1 vs 1.5), not 9.5:3 and 9:3.
    ("二胜一和一负", "9.5:3"): "9.5:4",
    ("二胜一和一负", "9:3"): "9:4.5",
}


def match(captain: Colour, outcomes: tuple[Outcome, ...], rnd: int = 1) -> LeagueMatch:
    """A match whose home side has ``captain`` on board 1 and ``outcomes`` on boards 1-4."""
    boards = tuple(
        Board(n, captain if n == 1 else captain.other, o) for n, o in enumerate(outcomes, start=1)
    )
    return LeagueMatch(rnd, "A", "B", boards)


def ratio(m: LeagueMatch) -> str:
    home, away = m.board_points
    return f"{home.normalize():f}:{away.normalize():f}"


def pattern(outcomes: tuple[Outcome, ...]) -> str:
    """The seed's name of a pattern: 二胜一和一负 = two wins, one draw, one loss."""
    counts = Counter(outcomes)
    return "".join(f"{COUNTS[counts[o] - 1]}{CHINESE[o]}" for o in (W, DR, L) if counts[o])


def every_match() -> list[LeagueMatch]:
    return [
        match(captain, outcomes)
        for captain in Colour
        for outcomes in itertools.product((W, DR, L), repeat=4)
    ]


def seed_rows() -> list[dict[str, str]]:
    with (DATA / "seed001-league-board-points.csv").open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_seed_patterns_are_named_as_the_seed_names_them() -> None:
    for row in seed_rows():
        outcomes = (W,) * int(row["wins"]) + (DR,) * int(row["draws"]) + (L,) * int(row["losses"])
        assert row["pattern"].startswith(pattern(outcomes)) or row["part"] == "二A"


def test_part_one_every_winning_pattern() -> None:
    """The figures the seed lists for the six winning patterns, against every arrangement."""
    computed: dict[str, set[str]] = defaultdict(set)
    for m in every_match():
        home, away = m.board_points
        if home > away:
            computed[pattern(tuple(b.outcome for b in m.boards))].add(ratio(m))
    seed: dict[str, set[str]] = defaultdict(set)
    for row in seed_rows():
        if row["part"] == "一":
            seed[row["pattern"]].add(row["seed_figure"])
    assert set(seed) == {"四胜", "三胜一和", "三胜一负", "二胜二和", "二胜一和一负", "一胜三和"}
    wrong = {}
    for name, figures in seed.items():
        for figure in figures - computed[name]:
            wrong[name, figure] = None
        # Every pattern the seed calls a win is a win in every arrangement.
        assert all(
            m.board_points[0] > m.board_points[1]
            for m in every_match()
            if pattern(tuple(b.outcome for b in m.boards)) == name
        )
    assert set(wrong) == set(SEED_WRONG)
    # With the two wrong figures replaced, the seed lists exactly the computed totals.
    for (name, figure), right in SEED_WRONG.items():
        seed[name] = (seed[name] - {figure}) | {right}
    assert dict(seed) == {name: computed[name] for name in seed}


def test_part_two_the_patterns_that_used_to_be_draws() -> None:
    """二胜二负, 一胜二和一负 and 四和: who wins, by how much, and the 1 / 0.5 match points."""
    rows = {(r["part"], r["seed_figure"]) for r in seed_rows() if r["part"] != "一"}
    assert rows == {
        ("二A", "8:6"),
        ("二Ba", "8:5"),
        ("二Ba", "7:6"),
        ("二Bb", "7:6.5"),
        ("二C", "6.5:6"),
    }
    for m in every_match():
        outcomes = tuple(b.outcome for b in m.boards)
        name, captain = pattern(outcomes), outcomes[0]
        (home, away), points = m.board_points, m.match_points
        if name == "二胜二负":  # A: the side whose captain won wins 8:6 and takes 3
            assert (home, away) == ((D(8), D(6)) if captain is W else (D(6), D(8)))
            assert points == ((D(3), D(0)) if captain is W else (D(0), D(3)))
        elif name == "一胜二和一负" and captain is not DR:  # B a: 8:5 or 7:6, captain decides
            assert ratio(m) in (("8:5", "7:6") if captain is W else ("5:8", "6:7"))
            assert points == ((D(3), D(0)) if captain is W else (D(0), D(3)))
        elif name == "一胜二和一负":  # B b: 7:6.5 to the side whose captain had Black: 1 / 0.5
            black_captain_home = m.boards[0].home_colour is Colour.BLACK
            assert ratio(m) == ("7:6.5" if black_captain_home else "6.5:7")
            assert points == ((D(1), D("0.5")) if black_captain_home else (D("0.5"), D(1)))
        elif name == "四和":  # C: 6.5:6 to the side whose captain had Red: 1 / 0.5
            red_captain_home = m.boards[0].home_colour is Colour.RED
            assert ratio(m) == ("6.5:6" if red_captain_home else "6:6.5")
            assert points == ((D(1), D("0.5")) if red_captain_home else (D("0.5"), D(1)))


def test_board_points_are_never_equal() -> None:
    """Seed 001 (详解 四): "双方的总局分百分之一百不会一样" holds for all 162 matches."""
    matches = every_match()
    assert len(matches) == 162
    assert all(m.board_points[0] != m.board_points[1] for m in matches)
    narrow = [m for m in matches if m.is_narrow]
    assert len(narrow) == 2 * (1 + 6)  # captain draw and DDD or one of the 6 orders of W, D, L
    assert all(sorted(m.match_points) == [D("0.5"), D(1)] for m in narrow)
    assert all(sorted(m.match_points) == [D(0), D(3)] for m in matches if not m.is_narrow)


def test_board_points() -> None:
    assert LEAGUE_RULES.board_points(1, Colour.RED, DR) == (D(2), D(3))
    assert LEAGUE_RULES.board_points(1, Colour.BLACK, W) == (D(5), D(0))
    assert LEAGUE_RULES.board_points(3, Colour.BLACK, DR) == (D("1.5"), D(1))
    assert LEAGUE_RULES.board_points(4, Colour.RED, L) == (D(0), D(3))


def test_match_refuses_broken_colour_rule() -> None:
    with pytest.raises(ValueError, match="other colour"):
        LeagueMatch(1, "A", "B", tuple(Board(n, Colour.RED, W) for n in range(1, 5)))
    with pytest.raises(ValueError, match="boards 1 to 4"):
        LeagueMatch(1, "A", "B", (Board(1, Colour.RED, W),))


def test_example_league_and_head_to_head() -> None:
    table = read_league(DATA / "league-example.csv")
    assert [(t.team, t.rank, t.match_points, t.board_points) for t in table.teams] == [
        ("上海", 1, D(6), D("19.5")),
        ("湖北", 2, D("3.5"), D(20)),
        ("广东", 3, D("3.5"), D("22.5")),
        ("北京", 4, D(2), D("18.5")),
    ]
    # 湖北 and 广东 are level on match points; 湖北 beat 广东, so head-to-head puts it first
    # although 广东 has more board points.
    hubei, guangdong = table.teams[1], table.teams[2]
    assert (hubei.head_to_head, guangdong.head_to_head) == (D(3), D(0))
    assert [(m.round, ratio(m), m.match_points) for m in table.matches[:2]] == [
        (1, "6.5:7", (D("0.5"), D(1))),
        (1, "9:4.5", (D(3), D(0))),
    ]
    assert (guangdong.won, guangdong.narrow_lost, guangdong.lost) == (1, 1, 1)
    assert (guangdong.black_wins, guangdong.red_wins, guangdong.black_draws) == (2, 3, 1)
    doc = to_json(table)
    assert doc["teams"][1]["match_points"] == 3.5 and doc["teams"][0]["board_points"] == 19.5
    assert doc["matches"][0] == {
        "round": 1,
        "home": "广东",
        "away": "北京",
        "board_points": [6.5, 7],
        "match_points": [0.5, 1],
        "narrow": True,
    }


def test_ranking_chain_after_head_to_head() -> None:
    """Teams that have not all met skip head-to-head; then board points, Black wins, Red wins,
    Black draws, Red draws; equal on everything shares a rank."""
    # A beats B 9:5 with its captain losing as Black: A has 3 Red wins.
    # C beats D 9:5 the same way; E beats F with its captain winning as Red (5+...)
    ab = match(Colour.BLACK, (L, W, W, W))
    cd = LeagueMatch(1, "C", "D", ab.boards)
    table = league_table([ab, cd])
    assert [(t.team, t.rank) for t in table.teams] == [("A", 1), ("C", 1), ("B", 3), ("D", 3)]
    assert all(t.head_to_head is None for t in table.teams)
    # Same match points and board points (9), but E's wins came with Black: E ranks first.
    ef = LeagueMatch(1, "E", "F", match(Colour.RED, (L, W, W, W)).boards)
    table = league_table([ab, ef])
    assert ef.board_points == (D(9), D(5))
    assert [(t.team, t.rank, t.black_wins, t.red_wins) for t in table.teams[:2]] == [
        ("E", 1, 3, 0),
        ("A", 2, 0, 3),
    ]


def problems(text: str) -> list[str]:
    with pytest.raises(InputError) as caught:
        parse_league(text, source="l.csv")
    return list(caught.value.lines())


def test_league_csv_is_strict() -> None:
    text = HEADER + "1,A,B,1,Red,home\n1,A,B,5,red,win\n1,A,A,2,red,won\n"
    assert problems(text) == [
        "l.csv: line 2, home_colour: expected 'red' or 'black', got 'Red'",
        "l.csv: line 2, result: expected 'win' or 'draw' or 'loss', got 'home'",
        "l.csv: line 3, board: expected a board from 1 to 4, got '5'",
        "l.csv: line 4, away: 'A' cannot play itself",
        "l.csv: line 4, result: expected 'win' or 'draw' or 'loss', got 'won'",
    ]


def test_league_match_problems() -> None:
    rows = [
        "1,A,B,1,red,win",  # 2
        "1,A,B,2,black,win",  # 3
        "1,A,B,2,black,win",  # 4: board 2 twice, 3 and 4 missing
        "2,A,B,1,red,draw",  # 5
        "2,A,B,2,red,draw",  # 6: captain Red, so board 2 must be Black
        "2,A,B,3,black,draw",  # 7
        "2,A,B,4,black,draw",  # 8
        "2,C,A,1,red,win",  # 9: A in two matches of round 2
        "2,C,A,2,black,win",
        "2,C,A,3,black,win",
        "2,C,A,4,black,win",
    ]
    assert problems(HEADER + "\n".join(rows)) == [
        "l.csv: lines 2, 3, 4: round 1, A v B: board 2 given twice",
        "l.csv: lines 2, 3, 4: round 1, A v B: board 3, 4 missing (expected boards 1-4)",
        "l.csv: line 6: round 2, A v B: the home captain (board 1, line 5) has red, so boards "
        "2-4 must have black; board 2 has red",
        "l.csv: lines 9, 10, 11, 12: round 2, C v A: A also plays A v B in round 2",
    ]


def test_league_reads_bom_and_normalises_team_names(tmp_path: Path) -> None:
    path = tmp_path / "l.csv"
    rows = [f"1,广 东,北京,{n},{'red' if n == 1 else 'black'},draw" for n in range(1, 5)]
    path.write_bytes(b"\xef\xbb\xbf" + (HEADER + "\n".join(rows)).encode("utf-8"))
    table = read_league(path)
    assert [t.team for t in table.teams] == ["广东", "北京"]
    assert table.matches[0].match_points == (D(1), D("0.5"))


def test_docs_pattern_table() -> None:
    """The pattern table of docs/scoring.md is what the code computes."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"
    table = [
        line
        for line in docs.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and line.split("|")[1].strip().endswith(("胜", "和", "负"))
    ]
    assert len(table) == 9
    computed: dict[tuple[str, Outcome, Colour], str] = {}
    for m in every_match():
        outcomes = tuple(b.outcome for b in m.boards)
        (home, away), (mh, ma) = m.board_points, m.match_points
        figure = f"{home.normalize():f} : {away.normalize():f}"
        if m.is_narrow:
            figure += f" ({mh.normalize():f} : {ma.normalize():f})"
        computed[pattern(outcomes), outcomes[0], m.boards[0].home_colour] = figure
    checked = set()
    names = set()
    for line in table:
        name, *cells = (c.strip() for c in line.strip("|").split("|"))
        names.add(name)
        for captain, cell in zip((W, DR, L), cells, strict=True):
            for part in filter(None, cell.split(", ")):
                if part.startswith(("Red ", "Black ")):
                    colour, figure = part.split(" ", 1)
                    colours = [Colour(colour.lower())]
                else:
                    colours, figure = list(Colour), part
                for colour in colours:
                    assert computed[name, captain, colour] == figure, (name, captain, colour)
                    checked.add((name, captain, colour))
    # Every arrangement of every listed pattern is in the table.
    assert checked == {k for k in computed if k[0] in names}
