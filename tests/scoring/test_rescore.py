"""Re-scoring: seed 000's worked example (2010 national championship, men) reproduced exactly.

The bundled data (``scenarios/data``):

* ``2010-national-individual-men.csv``: the games of the nine players whose round-by-round tables
  seed 000 prints (先 = red, 后 = black; 胜/和/负 = win/draw/loss), opponents as printed;
* ``seed000-round-tables.csv``: those tables as printed, for both the difference method (差额法)
  and the ratio method (比值法): result, opponent, points this round, running total, progressive;
* ``seed000-top8.csv``: the three top-eight tables (traditional, difference, ratio);
* ``seed000-colour-stats.csv``: the seed's first table (Red wins, draws, Black wins per event).

Every printed figure is checked. The seed is inconsistent in one place, stated in
:data:`SEED_INCONSISTENCIES` and checked to be the only one.
"""

from __future__ import annotations

import csv
import json
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockout.errors import InputError
from knockout.game import Colour, Result
from knockout.points import DIFFERENCE, RATIO, ROUND_ROBIN, TRADITIONAL, GameDetails, get_scoring
from knockout.program import app
from knockout.scoring.rescore import compare, rescore, to_json
from knockout.scoring.results import Results, parse_results, read_results
from knockout.standings.records import Outcome
from knockout.standings.tiebreaks import json_number

D = Decimal
DATA = Path(__file__).resolve().parents[2] / "scenarios" / "data"
EVENT = DATA / "2010-national-individual-men.csv"
TENTH = D("0.1")
HEADER = "round,player,opponent,colour,result\n"

#: Where seed 000 contradicts itself: (table, place) -> (the seed's figure, the computed one).
SEED_INCONSISTENCIES = {
    # The ratio-method "top eight" is the traditional top eight re-ranked. 赵鑫鑫's own
    # printed ratio table (and the seed's text: "赵鑫鑫按比值法得分为14.3分，排在...赵国荣的前面")
    # gives him 14.3 / 96.2, ahead of 赵国荣's 13.8 / 89.3: among the printed players he is
    # 8th, and 赵国荣 9th.
    ("ratio", 8): ("赵国荣 13.8 / 89.3", "赵鑫鑫 14.3 / 96.2"),
}


def read_csv(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def event() -> Results:
    return read_results(EVENT)


def test_bundled_results_are_the_nine_printed_players(event: Results) -> None:
    assert event.rounds == 11
    assert event.players == (
        "蒋川",
        "王跃飞",
        "赵国荣",
        "王天一",
        "郑一泓",
        "党斐",
        "郑惟桐",
        "谢靖",
        "赵鑫鑫",
    )
    assert all(len(event.by_player[p]) == 11 for p in event.players)
    # 程 鸣 / 程鸣, 才 溢 / 才溢, 孟 辰 are one player each once white space is normalised.
    assert {"程鸣", "才溢", "孟辰"} <= set(event.opponents_without_rows)
    assert not any(" " in name for name in event.opponents_without_rows)
    # 22 games between two printed players appear twice, from both sides, and agree.
    pairs = [r for r in event.rows if r.opponent in event.players]
    assert len(pairs) == 22


@pytest.mark.parametrize("method", ["difference", "ratio"])
def test_both_printed_sections_show_the_bundled_games(event: Results, method: str) -> None:
    colour = {"先": Colour.RED, "后": Colour.BLACK}
    outcome = {"胜": Outcome.WIN, "和": Outcome.DRAW, "负": Outcome.LOSS}
    printed = [r for r in read_csv("seed000-round-tables.csv") if r["method"] == method]
    assert len(printed) == 99
    for r in printed:
        game = event.by_player[r["player"]][int(r["round"])]
        assert game.colour is colour[r["game"][0]]
        assert game.outcome is outcome[r["game"][1]]
        assert game.opponent == "".join(r["opponent"].split())


@pytest.mark.parametrize("method", ["difference", "ratio"])
def test_every_printed_round_figure_is_reproduced(event: Results, method: str) -> None:
    """Points this round, running total and progressive score: 3 x 99 figures per method."""
    table = rescore(event, get_scoring(method))
    printed = [r for r in read_csv("seed000-round-tables.csv") if r["method"] == method]
    mismatches = []
    for r in printed:
        s = table.standing(r["player"])
        i = int(r["round"]) - 1
        computed = {
            "points": s.round_points[i],
            "running": s.running[i],
            "progressive": sum(s.running[: i + 1], D(0)),
        }
        for column, value in computed.items():
            assert value is not None
            # The seed prints one decimal (差额法: "4.0") or drops a trailing zero (比值法: "4").
            if value.quantize(TENTH) != D(r[column]):
                mismatches.append((r["player"], r["round"], column, r[column], str(value)))
    assert mismatches == []


def test_traditional_progressive_is_an_integer_sum(event: Results) -> None:
    table = rescore(event, TRADITIONAL)
    assert table.standing("蒋川").running == tuple(
        D(x) for x in (2, 4, 4, 6, 8, 9, 10, 12, 14, 15, 16)
    )
    assert table.standing("蒋川").progressive == 100


@pytest.mark.parametrize("method", ["traditional", "difference", "ratio"])
def test_top_eight_tables(event: Results, method: str) -> None:
    """Each printed top-eight table against the ranking of the nine printed players."""
    table = rescore(event, get_scoring(method))
    seed = [r for r in read_csv("seed000-top8.csv") if r["method"] == method]
    found = {}
    for r, s in zip(seed, table.standings[:8], strict=True):
        assert int(r["rank"]) == s.rank
        printed = f"{r['name']} {r['points']} / {r['progressive']}"
        places = 0 if method == "traditional" else 1
        computed = f"{s.name} {s.points:.{places}f} / {s.progressive:.{places}f}"
        if printed != computed:
            found[method, s.rank] = (printed, computed)
    assert found == {k: v for k, v in SEED_INCONSISTENCIES.items() if k[0] == method}
    # Every player the seed lists has exactly the seed's points and progressive score, and the
    # seed's order among the eight it lists is the computed order.
    by_name = {s.name: s for s in table.standings}
    for r in seed:
        assert by_name[r["name"]].points == D(r["points"])
        assert by_name[r["name"]].progressive == D(r["progressive"])
    listed = [s.name for s in table.standings if s.name in {r["name"] for r in seed}]
    assert listed == [r["name"] for r in seed]


def test_seed000_text_claims(event: Results) -> None:
    trad, diff, ratio = (rescore(event, s) for s in (TRADITIONAL, DIFFERENCE, RATIO))
    # "积15分的多达6人"
    assert sum(s.points == 15 for s in trad.standings[:8]) == 6
    # "前八名只有2人积分相同" (difference): only 郑一泓 and 党斐 share 15.2.
    points = [s.points for s in diff.standings[:8]]
    assert [p for p in points if points.count(p) > 1] == [D("15.2")] * 2
    # "先后排名为：郑一泓、党斐、王天一、谢靖、郑惟桐、赵国荣" (the six on 15 traditional points).
    fifteen = {s.name for s in trad.standings if s.points == 15}
    assert [s.name for s in diff.standings if s.name in fifteen] == [
        "郑一泓",
        "党斐",
        "王天一",
        "谢靖",
        "郑惟桐",
        "赵国荣",
    ]
    # "赵国荣获胜的6盘棋中有5盘是先手取胜"; he and 王天一 had 6 Reds, the last four 5.
    wins = [g for g in event.by_player["赵国荣"].values() if g.outcome is Outcome.WIN]
    assert (len(wins), sum(g.colour is Colour.RED for g in wins)) == (6, 5)
    reds = {p: sum(g.colour is Colour.RED for g in event.by_player[p].values()) for p in fifteen}
    assert reds == {"赵国荣": 6, "王天一": 6, "郑一泓": 5, "党斐": 5, "郑惟桐": 5, "谢靖": 5}
    # 赵鑫鑫: 14.3 under the ratio method, 14.1 under the difference method (赵国荣 14.6).
    assert ratio.standing("赵鑫鑫").points == D("14.3")
    assert diff.standing("赵鑫鑫").points == D("14.1") < diff.standing("赵国荣").points
    # "表面上看，采用比值法和差额法得到的前八名排名完全相同" (for the eight the seed lists).
    eight = {s.name for s in diff.standings[:8]}
    assert [s.name for s in ratio.standings if s.name in eight] == [
        s.name for s in diff.standings[:8]
    ]


def test_seed000_points_lost_and_gained_under_the_ratio_method(event: Results) -> None:
    """八.2: both sides' points in 蒋川's games 21.7, 郑一泓's 22.6, top-eight average 21.925."""

    def both_sides(player: str) -> Decimal:
        return sum((sum(RATIO.points(g.result)) for g in event.by_player[player].values()), D(0))

    assert both_sides("蒋川") == D("21.7")
    assert both_sides("郑一泓") == D("22.6")
    top8 = [s.name for s in rescore(event, TRADITIONAL).standings[:8]]
    assert sum(both_sides(p) for p in top8) / 8 == D("21.925")


def test_ratio_as_computed_reorders_the_top(event: Results) -> None:
    """With the unrounded 1.63 / 2.37 the top eight is no longer the difference method's order."""
    table = rescore(event, get_scoring("ratio-computed"))
    assert [(s.name, str(s.points)) for s in table.standings[:4]] == [
        ("蒋川", "16.00"),
        ("郑一泓", "15.74"),
        ("党斐", "15.74"),
        ("王跃飞", "15.63"),
    ]


def test_colour_statistics_table() -> None:
    rows = read_csv("seed000-colour-stats.csv")
    *events, total = rows
    assert total["event"] == "合计"
    for column in ("games", "red_wins", "draws", "black_wins"):
        assert sum(int(r[column]) for r in events) == int(total[column])
    assert (int(total["games"]), int(total["red_wins"]), int(total["draws"])) == (1218, 391, 557)
    assert int(total["black_wins"]) == 270
    for r in rows:
        games = int(r["games"])
        assert int(r["red_wins"]) + int(r["draws"]) + int(r["black_wins"]) == games
        for count, rate in (("red_wins", "red_rate"), ("draws", "draw_rate")):
            assert f"{100 * int(r[count]) / games:.2f}%" == r[rate]
        assert f"{100 * int(r['black_wins']) / games:.2f}%" == r["black_rate"]


def test_ranks_are_shared_by_ties() -> None:
    text = HEADER + "1,A,X,red,win\n1,B,Y,red,win\n1,C,Z,black,draw\n1,D,W,red,win\n"
    table = rescore(parse_results(text, source="t.csv"), TRADITIONAL)
    assert [(s.name, s.rank) for s in table.standings] == [("A", 1), ("B", 1), ("D", 1), ("C", 4)]
    text = HEADER + "1,A,X,red,win\n2,A,Y,red,loss\n1,B,Z,red,loss\n2,B,W,red,win\n"
    table = rescore(parse_results(text, source="t.csv"), TRADITIONAL)
    assert [(s.name, s.rank, s.progressive) for s in table.standings] == [
        ("A", 1, D(4)),
        ("B", 2, D(2)),
    ]
    table = rescore(parse_results(text, source="t.csv"), TRADITIONAL, tiebreaks=())
    assert [s.rank for s in table.standings] == [1, 1]


def test_missing_rounds_score_nothing() -> None:
    text = HEADER + "1,A,X,red,win\n3,A,Y,black,win\n"
    (s,) = rescore(parse_results(text, source="t.csv"), DIFFERENCE).standings
    assert s.round_points == (D("1.9"), None, D("2.1"))
    assert s.running == (D("1.9"), D("1.9"), D("4.0"))
    assert s.progressive == D("7.8")


def test_json_numbers_have_no_float_noise() -> None:
    """Six Red wins and five Black draws: 1.9 x 6 + 5 = 16.4, running totals without noise."""
    rows = [f"{r},A,P{r},red,win" for r in range(1, 7)]
    rows += [f"{r},A,P{r},black,draw" for r in range(7, 12)]
    table = rescore(parse_results(HEADER + "\n".join(rows), source="t.csv"), DIFFERENCE)
    assert 1.9 + 1.9 + 1.9 == 5.699999999999999  # the noise that binary floats would give
    text = json.dumps(to_json(table))
    doc = json.loads(text)
    (player,) = doc["players"]
    assert player["points"] == 16.4 and '"points": 16.4' in text
    assert player["running"][:3] == [1.9, 3.8, 5.7]
    assert player["progressive"] == 111.9
    assert json_number(D("16.0")) == 16 and isinstance(json_number(D("16.0")), int)


def test_json_contract_with_compare(event: Results) -> None:
    table, base = rescore(event, DIFFERENCE), rescore(event, TRADITIONAL)
    doc = to_json(table, baseline=base)
    assert doc["scoring"] == "difference" and doc["tiebreaks"] == ["PS"] and doc["rounds"] == 11
    first = doc["players"][0]
    assert set(first) >= {"name", "rank", "points", "progressive", "running"}
    assert (first["name"], first["points"], first["progressive"]) == ("蒋川", 16, 99.9)
    zhao = next(p for p in doc["players"] if p["name"] == "赵国荣")
    assert (zhao["rank"], zhao["baseline_rank"], zhao["rank_change"]) == (8, 3, -5)
    assert doc["compare"]["scoring"] == "traditional"
    assert [m.change for m in compare(table, base)] == [0, 0, 2, 2, -1, 2, 0, -5, 0]


def test_tiebreaks_that_need_opponents_are_refused_without_their_rows(event: Results) -> None:
    for code in ("BH", "BH-M1", "BH-C1", "SB", "SB-C1", "BH-C2"):
        with pytest.raises(InputError) as caught:
            rescore(event, DIFFERENCE, tiebreaks=("PS", code))
        (line,) = caught.value.lines()
        assert line.startswith(
            f"{EVENT}: tie-break {code}: needs every opponent's total, but 44 opponents have no "
            "rows (郝继超, 李少庚, 汪洋, 武俊强, 万春林, ...)"
        )


def test_registry_tiebreaks_on_the_seed_data(event: Results) -> None:
    """Tie-breaks of the player's own games work without the opponents' rows."""
    table = rescore(event, DIFFERENCE, tiebreaks=("DE", "PS", "WON", "BWG", "BPG"))
    assert table.tiebreaks == ("DE", "PS", "WON", "BWG", "BPG")
    zheng, dang = table.standing("郑一泓"), table.standing("党斐")
    assert (zheng.rank, dang.rank) == (3, 4)  # 15.2 each: they never met, so PS decides
    assert zheng.tiebreaks["DE"] is None and zheng.tiebreaks["PS"] == D("92.7")
    zhao = table.standing("赵国荣")
    assert (zhao.tiebreaks["WON"], zhao.tiebreaks["BWG"], zhao.tiebreaks["BPG"]) == (6, 1, 5)
    # Placeholders (opponents without rows) are not ranked and do not shift anyone's rank.
    assert [s.rank for s in table.standings] == list(range(1, 10))


#: Seed 000's points per game: (Red win, Black win, draw), straight from its text (a loss is 0).
SEED_POINTS = {
    "traditional": (D(2), D(2), D(1)),
    "difference": (D("1.9"), D("2.1"), D(1)),
    "ratio": (D("1.7"), D("2.3"), D(1)),
}


@pytest.mark.parametrize("method", sorted(SEED_POINTS))
def test_progressive_scores_are_the_sums_of_running_totals(event: Results, method: str) -> None:
    """Running totals and progressive scores, recomputed from the CSV rows by hand."""
    red_win, black_win, draw = SEED_POINTS[method]
    table = rescore(event, get_scoring(method))
    for s in table.standings:
        total, running = D(0), []
        for rnd in range(1, event.rounds + 1):
            row = event.by_player[s.name].get(rnd)
            if row is not None and row.outcome is Outcome.WIN:
                total += red_win if row.colour is Colour.RED else black_win
            elif row is not None and row.outcome is Outcome.DRAW:
                total += draw
            running.append(total)
        assert s.running == tuple(running)
        assert s.progressive == sum(running, D(0)) == s.tiebreaks["PS"]
        assert s.points == total


def test_opponent_tiebreaks_in_the_chosen_scoring_with_complete_rows() -> None:
    """A four-player round robin with every row: Buchholz and Sonneborn-Berger in 1.9 / 2.1."""
    games = [
        (1, "A", "B", "red", "win"),
        (1, "C", "D", "black", "draw"),
        (2, "A", "C", "black", "win"),
        (2, "B", "D", "red", "loss"),
        (3, "A", "D", "red", "draw"),
        (3, "B", "C", "black", "win"),
    ]
    mirror = {"win": "loss", "loss": "win", "draw": "draw"}
    other = {"red": "black", "black": "red"}
    rows = [f"{r},{p},{o},{c},{x}" for r, p, o, c, x in games]
    rows += [f"{r},{o},{p},{other[c]},{mirror[x]}" for r, p, o, c, x in games]
    results = parse_results(HEADER + "\n".join(rows), source="t.csv")
    table = rescore(results, DIFFERENCE, tiebreaks=("BH", "SB"))
    points = {s.name: s.points for s in table.standings}
    # A: Red win 1.9 + Black win 2.1 + draw 1; B: Black win 2.1; C: draw 1; D: draw 1 + Black
    # win 2.1 + draw 1.
    assert points == {"A": D(5), "B": D("2.1"), "C": D(1), "D": D("4.1")}
    a = table.standing("A")
    assert a.tiebreaks["BH"] == points["B"] + points["C"] + points["D"]
    # Sonneborn-Berger weights each opponent's total by the points scored against them (FIDE
    # C.07 with game points; here 1.9 for the Red win, 2.1 for the Black win, 1 for the draw).
    assert a.tiebreaks["SB"] == points["B"] * D("1.9") + points["C"] * D("2.1") + points["D"]
    assert a.tiebreaks["SB"] == D("10.19")
    assert [s.name for s in table.standings] == ["A", "D", "B", "C"]


def test_round_robin_scoring_needs_moves_and_material() -> None:
    head = "round,player,opponent,colour,result,moves,attack_red,attack_black\n"
    text = head + "1,A,B,red,draw,25,,\n2,A,C,black,draw,75,5,2.5\n3,A,D,red,win,,,\n"
    (s,) = rescore(parse_results(text, source="t.csv"), ROUND_ROBIN).standings
    # Red draw in 25 moves 0.1; Black draw after 75 moves with less material 0.7; Red win 3.
    assert s.round_points == (D("0.1"), D("0.7"), D(3))
    assert s.points == D("3.8")
    bad = head + "1,A,B,red,draw,,,\n2,A,C,black,draw,75,5,\n3,A,D,red,loss,,,\n"
    with pytest.raises(InputError) as caught:
        rescore(parse_results(bad, source="t.csv"), ROUND_ROBIN)
    assert caught.value.lines() == [
        "t.csv: line 2: a draw under this rule needs its number of moves (scoring 'round-robin')",
        "t.csv: line 3: a draw of more than 60 moves needs both sides' attacking material "
        "(scoring 'round-robin')",
    ]


def test_result_helpers_agree_with_the_scoring_systems() -> None:
    text = HEADER + "1,A,B,black,win\n"
    (row,) = parse_results(text, source="t.csv").rows
    assert row.result is Result.BLACK
    assert RATIO.points_for(row.colour, row.result) == D("2.3")


def test_round_robin_chain_black_wins_then_red_wins() -> None:
    """Seed 001's round-robin ranking chain: points, head-to-head, Black wins, Red wins, ...

    A, B and C each win one game and lose one (3 points each, no head-to-head winner among all
    three since it is a cycle): A won with Black, B and C with Red; so A is first. B and C are
    still level on Black wins and Red wins; the draws decide nothing either (none), so they
    share second place.
    """

    rows = [
        "round,player,opponent,colour,result",
        "1,B,A,red,loss",
        "1,A,B,black,win",
        "2,B,C,red,win",
        "2,C,B,black,loss",
        "3,C,A,red,win",
        "3,A,C,black,loss",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rr.csv"
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
        result = CliRunner().invoke(
            app, ["rescore", str(path), "--scoring", "round-robin", "--json"]
        )
    assert result.exit_code == 0, result.output
    players = json.loads(result.stdout)["players"]
    assert [(p["name"], p["rank"]) for p in players] == [("A", 1), ("B", 2), ("C", 2)]
    assert players[0]["tiebreaks"]["BWG"] == 1 and players[1]["tiebreaks"]["RWG"] == 1


def test_a_draw_scored_from_its_final_position() -> None:
    """The fen column (a game's final position) scores a long draw from the record: Red keeps a
    rook and a crossed pawn (6), Black a horse (2.5): Red the stronger side, 0.9 / 0.7; the move
    count from the position's move number when the moves cell is empty (Black to move after
    move 75: 75 moves)."""
    head = "round,player,opponent,colour,result,moves,attack_red,attack_black,fen\n"
    fen = "3k5/9/9/4P4/9/2n6/9/9/R8/4K4 b - - 0 75"
    text = head + f"1,A,B,red,draw,,,,{fen}\n"
    (row,) = parse_results(text, source="t.csv").rows
    assert row.details == GameDetails(75, D(6), D("2.5"))
    (s,) = rescore(parse_results(text, source="t.csv"), ROUND_ROBIN).standings
    assert s.round_points == (D("0.9"),)
    # Red to move after move 31 is 30 moves: a draw of 30 moves or fewer, 0.1 for Red.
    short = head + "1,A,B,red,draw,,,,3k5/9/9/4P4/9/2n6/9/9/R8/4K4 w - - 0 31\n"
    (s,) = rescore(parse_results(short, source="t.csv"), ROUND_ROBIN).standings
    assert s.round_points == (D("0.1"),)


def test_typed_details_must_agree_with_the_final_position() -> None:
    head = "round,player,opponent,colour,result,moves,attack_red,attack_black,fen\n"
    fen = "3k5/9/9/4P4/9/2n6/9/9/R8/4K4 b - - 0 75"
    with pytest.raises(InputError) as caught:
        parse_results(
            head + f"1,A,B,red,draw,70,7,2.5,{fen}\n2,A,C,red,draw,,,,9/9 w\n", source="t.csv"
        )
    lines = caught.value.lines()
    assert "t.csv: line 2, attack_red: the final position (fen) has 6.0, the row says 7" in lines
    assert (
        "t.csv: line 2, moves: the final position (fen) is after move 75, the row says 70" in lines
    )
    assert any(line.startswith("t.csv: line 3, fen: ") for line in lines)
    assert len(lines) == 3


def test_the_games_layout_is_read_as_each_players_rows(tmp_path: Path) -> None:
    """The bundled round-robin-5.csv (round,red,black,result: the layout knockout standings
    reads) is re-scored as its per-player form written out by hand, row for row: each game
    is Red's row and Black's, results mirrored; it once was refused for its header."""
    games = Path(__file__).resolve().parents[2] / "scenarios" / "data" / "round-robin-5.csv"
    mirrored = {"red": ("win", "loss"), "draw": ("draw", "draw"), "black": ("loss", "win")}
    lines = ["round,player,opponent,colour,result"]
    with games.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            red_out, black_out = mirrored[row["result"]]
            lines.append(f"{row['round']},{row['red']},{row['black']},red,{red_out}")
            lines.append(f"{row['round']},{row['black']},{row['red']},black,{black_out}")
    per_player = tmp_path / "per-player.csv"
    per_player.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for scoring in ("traditional", "difference", "ratio"):
        a = CliRunner().invoke(app, ["rescore", str(games), "--scoring", scoring, "--json"])
        b = CliRunner().invoke(app, ["rescore", str(per_player), "--scoring", scoring, "--json"])
        assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
        doc_a, doc_b = json.loads(a.stdout), json.loads(b.stdout)
        doc_a.pop("source"), doc_b.pop("source")
        assert doc_a == doc_b
    # a bye or forfeit has no result to re-score: one line naming it
    bad = tmp_path / "bye.csv"
    bad.write_text("round,red,black,result\n1,A,B,red\n1,C,,bye\n2,A,C,+-\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["rescore", str(bad)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    errors = result.stderr.strip().splitlines()
    assert any("line 3" in e and "a bye has no result to re-score" in e for e in errors)
    assert any("line 4" in e and "expected red, 1-0, draw" in e and "got '+-'" in e for e in errors)
