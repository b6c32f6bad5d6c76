"""Tie-breaks and rankings: seed 003's and FIDE's worked examples, the unplayed-round conventions,
and invariants under any scoring scale."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from standings_helpers import (
    FIDE_EXERCISE_2024,
    crosstable,
    events,
    opponents_scoring,
    scaled,
)

from knockout.game import Colour, Result
from knockout.points import ScoringSystem
from knockout.standings.conventions import Conventions
from knockout.standings.records import (
    CLASSICAL,
    CrossTable,
    Kind,
    Outcome,
    PointScale,
    bye_entry,
    game_entries,
)
from knockout.standings.tiebreaks import (
    TIEBREAKS,
    adjusted_score,
    black_games,
    black_wins,
    buchholz,
    direct_encounter,
    games_won,
    get_tiebreak,
    json_number,
    parse_tiebreaks,
    progressive_score,
    rank_players,
    running_totals,
    sonneborn_berger,
    wins,
)

D = Decimal
SWISS_2024 = Conventions("2024", "swiss")
SWISS_2026 = Conventions("2026", "swiss")


def ds(*values: str) -> list[Decimal]:
    return [D(v) for v in values]


# --- seed 003 (RULES.md section 4) ---------------------------------------------------------------


def test_seed_buchholz_and_median() -> None:
    table = opponents_scoring(ds("1", "2.5", "4", "3", "5", "2", "3"))
    assert buchholz(table, "P") == D("20.5")
    assert buchholz(table, "P", low=1, high=1) == D("14.5")
    assert get_tiebreak("BH-M1").evaluate(table, ["P"], None, Conventions())["P"].shown == D("14.5")


def test_seed_buchholz_cut_1() -> None:
    table = opponents_scoring(ds("1", "2.5", "4", "3", "5", "2", "3", "4", "6"))
    assert buchholz(table, "P", low=1) == D("29.5")
    assert get_tiebreak("BH-C1").evaluate(table, ["P"], None, Conventions())["P"].shown == D("29.5")


# --- seed 003's seven-round floor ("至少保留7轮比赛成绩参加计算") ------------------------

SWISS_FLOOR = Conventions("2026", "swiss", "floor-7")


def _cut_values(scores: list[Decimal], code: str, conventions: Conventions) -> Decimal | None:
    table = opponents_scoring(scores)
    return get_tiebreak(code).evaluate(table, ["P"], None, conventions)["P"].shown


def test_the_floor_changes_a_cut_buchholz_in_a_seven_round_event() -> None:
    """Seed 003's own seven-round example: FIDE cuts 1 (BH-C1 19.5) and median cuts 1 and 5
    (14.5, the seed's figure); with the floor nothing may be cut from seven rounds (20.5)."""
    seven = ds("1", "2.5", "4", "3", "5", "2", "3")
    assert _cut_values(seven, "BH-C1", SWISS_2026) == D("19.5")
    assert _cut_values(seven, "BH-M1", SWISS_2026) == D("14.5")
    assert _cut_values(seven, "BH-C1", SWISS_FLOOR) == D("20.5")
    assert _cut_values(seven, "BH-M1", SWISS_FLOOR) == D("20.5")
    assert _cut_values(seven, "BH", SWISS_FLOOR) == D("20.5")


def test_the_floor_changes_nothing_in_a_nine_round_event() -> None:
    """Seed 003's nine-round cut-1 example (29.5): eight values are left, more than seven, and
    the median leaves seven: both rules agree."""
    nine = ds("1", "2.5", "4", "3", "5", "2", "3", "4", "6")
    for code, value in (("BH-C1", "29.5"), ("BH-M1", "23.5"), ("BH-C2", "27.5")):
        assert _cut_values(nine, code, SWISS_2026) == D(value)
        assert _cut_values(nine, code, SWISS_FLOOR) == D(value)
    # Cutting two from each end would leave five: the floor stops at seven, one from each end.
    assert _cut_values(nine, "BH-M2", SWISS_2026) == D("16.5")
    assert _cut_values(nine, "BH-M2", SWISS_FLOOR) == D("23.5")


def test_the_floor_in_an_eight_round_event_cuts_the_lowest_only() -> None:
    eight = ds("1", "2.5", "4", "3", "5", "2", "3", "6")
    assert _cut_values(eight, "BH-C1", SWISS_FLOOR) == D("25.5")
    assert _cut_values(eight, "BH-M1", SWISS_FLOOR) == D("25.5")  # the 6 stays
    assert _cut_values(eight, "BH-M1", SWISS_2026) == D("19.5")
    assert _cut_values(eight, "SB-C1", SWISS_FLOOR) == D("0")  # P lost every game


def test_the_floor_is_a_brute_force_minimum_of_kept_values() -> None:
    """Against a plain reading of the rule: sort the opponents' scores, cut ``low`` from the
    bottom and ``high`` from the top, but never below seven kept (cuts taken from the bottom
    and the top in turn, the bottom first: every way of stopping is enumerated)."""
    rng = np.random.default_rng(3)
    for _ in range(40):
        n = int(rng.integers(3, 12))
        scores = [D(int(x)) / 2 for x in rng.integers(2, 2 * n, size=n)]
        for low, high in ((1, 0), (1, 1), (2, 0), (2, 2)):
            ordered = sorted(scores)
            order = [side for pair in zip("L" * low, "H" * high, strict=False) for side in pair]
            order += ["L"] * (low - high) + ["H"] * (high - low)
            taken = order[: max(n - 7, 0)]
            cut_low, cut_high = taken.count("L"), taken.count("H")
            expected = sum(ordered[cut_low : n - cut_high], D(0))
            code = f"BH-{'M' if high else 'C'}{low}"
            assert _cut_values(scores, code, SWISS_FLOOR) == expected, (scores, code)


def _results_table(results: str) -> CrossTable:
    """Player P with results like "WWLDWLW" against fresh opponents, P always Red."""
    code = {"W": Result.RED, "D": Result.DRAW, "L": Result.BLACK}
    entries = []
    for r, c in enumerate(results, start=1):
        entries.extend(game_entries(r, "P", f"Q{r}", code[c]))
    return CrossTable.from_entries(["P"] + [f"Q{r}" for r in range(1, len(results) + 1)], entries)


def test_seed_progressive_score() -> None:
    table = _results_table("WWLDWLW")
    assert running_totals(table, "P") == tuple(ds("1", "2", "2", "2.5", "3.5", "3.5", "4.5"))
    assert progressive_score(table, "P") == 19
    assert progressive_score(table, "P", cut=1) == 18  # FIDE PS-C1: without the first total
    assert get_tiebreak("PS-C2").evaluate(table, ["P"], None, Conventions())["P"].shown == 16


def test_progressive_score_cut_rule_breaks_ties_round_by_round() -> None:
    # A: W D L D -> running 1, 1.5, 1.5, 2 (PS 6); B: D W D L -> 0.5, 1.5, 2, 2 (PS 6).
    a = []
    b = []
    for r, (ra, rb) in enumerate(
        [
            (Result.RED, Result.DRAW),
            (Result.DRAW, Result.RED),
            (Result.BLACK, Result.DRAW),
            (Result.DRAW, Result.BLACK),
        ],
        start=1,
    ):
        a.extend(game_entries(r, "A", f"X{r}", ra))
        b.extend(game_entries(r, "B", f"Y{r}", rb))
    players = ["A", "B"] + [f"X{r}" for r in range(1, 5)] + [f"Y{r}" for r in range(1, 5)]
    table = CrossTable.from_entries(players, a + b)
    assert progressive_score(table, "A") == progressive_score(table, "B") == 6
    # Dropping the first round: A 5, B 5.5 -> B ahead (the seed's rule: lower early score wins).
    assert progressive_score(table, "A", cut=1) == 5
    assert progressive_score(table, "B", cut=1) == D("5.5")
    ranked = rank_players(table, ["PS"])
    top = [s.name for s in ranked.players[:2]]
    assert top == ["B", "A"]
    assert [s.rank for s in ranked.players[:2]] == [1, 2]
    assert ranked.players[0].tiebreaks["PS"] == 6  # the shown value is the full PS


def _de_example(c_meets_a: bool) -> CrossTable:
    """Seed example B (A beats B, B beats C, C draws A) or C (C and A never meet), padded with
    games against outsiders so that A, B and C finish on the same score."""
    entries = [*game_entries(1, "A", "B", Result.RED), *game_entries(2, "B", "C", Result.RED)]
    if c_meets_a:
        entries += game_entries(3, "C", "A", Result.DRAW)
        # A 1.5, B 1, C 0.5 so far: B draws X, C beats Y, A loses to Z.
        entries += game_entries(4, "B", "X", Result.DRAW)
        entries += game_entries(4, "C", "Y", Result.RED)
        entries += game_entries(4, "Z", "A", Result.RED)
    else:
        # A 1, B 1, C 0 so far: C beats Y.
        entries += game_entries(3, "C", "Y", Result.RED)
    return CrossTable.from_entries(["A", "B", "C", "X", "Y", "Z"], entries)


def test_seed_direct_encounter_two_players() -> None:
    table = CrossTable.from_entries(
        ["A", "B", "C"],
        [*game_entries(1, "A", "B", Result.RED), *game_entries(2, "C", "B", Result.BLACK)],
    )
    assert table.score("A") == table.score("B") == 1
    assert direct_encounter(table, ["A", "B"]) == {"A": 1, "B": 0}
    ranked = rank_players(table, ["DE"])
    assert [(s.name, s.rank, s.tiebreaks["DE"]) for s in ranked.players] == [
        ("A", 1, D(1)),
        ("B", 2, D(0)),
        ("C", 3, None),
    ]


def test_seed_direct_encounter_three_players_all_met() -> None:
    table = _de_example(c_meets_a=True)
    assert table.score("A") == table.score("B") == table.score("C") == D("1.5")
    assert direct_encounter(table, ["A", "B", "C"]) == {"A": D("1.5"), "B": 1, "C": D("0.5")}
    ranked = rank_players(table, ["DE"])
    assert [s.name for s in ranked.players[:3]] == ["A", "B", "C"]
    assert [s.rank for s in ranked.players[:3]] == [1, 2, 3]


def test_seed_direct_encounter_not_all_met() -> None:
    table = _de_example(c_meets_a=False)
    assert table.score("A") == table.score("B") == table.score("C") == 1
    assert direct_encounter(table, ["A", "B", "C"]) is None
    ranked = rank_players(table, ["DE"])
    assert [s.rank for s in ranked.players if s.name in "ABC"] == [1, 1, 1]
    assert all(s.tiebreaks["DE"] is None for s in ranked.players)


def test_direct_encounter_is_reapplied_to_groups_still_tied() -> None:
    # A round robin of four, all finishing on 2: among themselves A 2, B 2, C 1, D 1; A beat B and
    # C beat D, so the tie-break reapplied to {A, B} and {C, D} orders them A, B, C, D.
    games = [
        ("A", "B", Result.RED),
        ("C", "D", Result.RED),
        ("A", "C", Result.RED),
        ("B", "D", Result.RED),
        ("D", "A", Result.RED),
        ("B", "C", Result.RED),
    ]
    entries = []
    for i, (red, black, result) in enumerate(games):
        entries.extend(game_entries(i // 2 + 1, red, black, result))
    entries += game_entries(4, "Z", "A", Result.RED)
    entries += game_entries(4, "W", "B", Result.RED)
    entries += game_entries(4, "C", "X", Result.RED)
    entries += game_entries(4, "D", "Y", Result.RED)
    table = CrossTable.from_entries(list("ABCDWXYZ"), entries)
    assert {table.score(p) for p in "ABCD"} == {D(2)}
    ranked = rank_players(table, ["DE"])
    top = ranked.players[:4]
    assert [(s.name, s.rank, s.tiebreaks["DE"]) for s in top] == [
        ("A", 1, D(1)),
        ("B", 2, D(0)),
        ("C", 3, D(1)),
        ("D", 4, D(0)),
    ]


def test_direct_encounter_ignores_forfeits() -> None:
    table = crosstable({"A": ["+FB"], "B": ["-FA"]})
    assert direct_encounter(table, ["A", "B"]) is None


# --- FIDE's worked examples --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "bh"),
    [
        ("2", "13"),  # exercise 1
        ("1", "12.5"),  # exercise 2
        ("3", "15.5"),
        ("5", "8.5"),  # exercise 3
        ("8", "13.5"),
        ("11", "13.5"),  # forfeit win: a dummy opponent with 11's own score
        ("16", "12.5"),  # exercise 4
        ("4", "15"),  # half-point bye (dummy), and 12 withdrew after round 3 (draws)
    ],
)
def test_fide_tec_exercise_buchholz(player: str, bh: str) -> None:
    # The exercise was set under the rules in force from 1 April 2024.
    table = crosstable(FIDE_EXERCISE_2024)
    assert buchholz(table, player, conventions=SWISS_2024) == D(bh)


@pytest.mark.parametrize(("player", "bh_c1"), [("5", "7.5"), ("8", "12"), ("11", "12")])
def test_fide_tec_exercise_buchholz_cut_1(player: str, bh_c1: str) -> None:
    table = crosstable(FIDE_EXERCISE_2024)
    assert buchholz(table, player, low=1, conventions=SWISS_2024) == D(bh_c1)


@pytest.mark.parametrize(
    ("player", "bh_2026", "why"),
    [
        # 11 won round 4 by forfeit against 9 (1.5 points: -, -, H, -, U): the dummy opponent is
        # worth min(11's own 2.5, 9's 1.5) = 1.5 instead of 2.5 (article 16.4.1).
        ("11", "12.5", "forfeit"),
        # 4 took a half-point bye: min(4's own 3.5, 0.5 x 5 rounds) = 2.5 instead of 3.5 (16.4.2).
        ("4", "14", "bye"),
        # No unplayed round of their own: the same value as in 2024.
        ("2", "13", "none"),
        ("16", "12.5", "none"),
    ],
)
def test_fide_exercise_under_the_2026_rules(player: str, bh_2026: str, why: str) -> None:
    table = crosstable(FIDE_EXERCISE_2024)
    assert buchholz(table, player, conventions=SWISS_2026) == D(bh_2026), why


def test_fide_exercise_withdrawn_player_counts_draws_for_opponents() -> None:
    table = crosstable(FIDE_EXERCISE_2024)
    # 12: lost, bye, forfeit win, then absent: scores 2, counts 2 + 2 x 0.5 for opponents.
    assert table.score("12") == 2
    assert adjusted_score(table, "12") == 3
    # 14 was absent in round 4 but played again in round 5: no adjustment.
    assert adjusted_score(table, "14") == table.score("14") == 2


# --- conventions for byes, forfeits and unplayed games -----------------------------------------


def test_win_counts_unplayed_wins_won_does_not() -> None:
    table = crosstable({"A": ["+FB", "+BYE", "+WB", "FBYE"], "B": ["-FA", "--", "-BA", "--"]})
    assert wins(table, "A") == 4
    assert games_won(table, "A") == 1


def test_black_games_and_wins_count_only_games_over_the_board() -> None:
    table = crosstable(
        {
            "A": ["+BB", "=BB", "-BB", "+FB"],
            "B": ["-WA", "=WA", "+WA", "-FA"],
        }
    )
    assert black_games(table, "A") == 3
    assert black_wins(table, "A") == 1
    assert black_games(table, "B") == black_wins(table, "B") == 0


def test_unplayed_round_is_a_dummy_opponent_with_own_score() -> None:
    table = crosstable({"A": ["+WB", "+BYE", "=BYE"], "B": ["-BA", "ZBYE", "+BYE"]})
    # A: 2.5 points. Round 1 B (1 point), rounds 2-3 dummies with 2.5 each.
    assert buchholz(table, "A", conventions=SWISS_2024) == D("6")
    # SB: 1 x 1 (beat B) + 2.5 x 1 (bye) + 2.5 x 0.5 (half-point bye).
    assert sonneborn_berger(table, "A", conventions=SWISS_2024) == D("4.75")


def test_2026_bounds_a_bye_by_a_draw_per_round() -> None:
    table = crosstable({"A": ["+WB", "+BYE", "=BYE"], "B": ["-BA", "ZBYE", "+BYE"]})
    # The dummies are worth min(2.5, 0.5 x 3 rounds) = 1.5: BH 1 + 1.5 + 1.5.
    assert buchholz(table, "A", conventions=SWISS_2026) == 4
    # SB: 1 x 1 + 1.5 x 1 + 1.5 x 0.5.
    assert sonneborn_berger(table, "A", conventions=SWISS_2026) == D("3.25")
    # Undated and paired round by round (byes with points): the 2026 Swiss conventions.
    assert Conventions.for_event(table) == SWISS_2026
    assert buchholz(table, "A") == 4


def test_2026_bounds_a_forfeit_by_the_opponents_score() -> None:
    # A beat C, then won by forfeit against B, who lost everything: 2 points.
    table = crosstable(
        {"A": ["+WC", "+FB"], "B": ["-WD", "-FA"], "C": ["-BA", "+WD"], "D": ["+BB", "-BC"]}
    )
    assert table.score("A") == 2 and table.score("B") == 0 and table.score("C") == 1
    # 2024: C (1) + a dummy with A's own 2. 2026: the dummy is worth min(2, B's 0) = 0.
    assert buchholz(table, "A", conventions=SWISS_2024) == 3
    assert buchholz(table, "A", conventions=SWISS_2026) == 1
    # SB: 1 x 1 + dummy x 1.
    assert sonneborn_berger(table, "A", conventions=SWISS_2024) == 3
    assert sonneborn_berger(table, "A", conventions=SWISS_2026) == 1


def test_voluntarily_unplayed_rounds_are_cut_first() -> None:
    # A: half-point bye in round 1 (a VUR worth A's own 2.5), then beats B (0) and C (1).
    table = crosstable(
        {
            "A": ["=BYE", "+WB", "+BC", "--"],
            "B": ["-WC", "-BA", "--", "--"],
            "C": ["+BB", "--", "-WA", "+BYE"],
        }
    )
    assert table.score("A") == D("2.5")
    # B withdrew after round 2: 0 + 0 + two draws = 1 for its opponents; C scored 2.
    assert adjusted_score(table, "B") == 1
    # A: dummy 2.5 (half-point bye) + B 1 + C 2 + dummy 2.5 (absent).
    assert buchholz(table, "A", conventions=SWISS_2024) == 8
    # Cut 1 removes a VUR (a dummy worth 2.5), not B's 1.
    assert buchholz(table, "A", low=1, conventions=SWISS_2024) == D("5.5")
    # Median 1: a VUR from below, the other 2.5 from above.
    assert buchholz(table, "A", low=1, high=1, conventions=SWISS_2024) == 3
    # 2026: each dummy is worth min(2.5, 0.5 x 4 rounds) = 2: BH 2 + 1 + 2 + 2, still a VUR cut
    # first (5), and the median cuts the other dummy from above (3).
    assert buchholz(table, "A", conventions=SWISS_2026) == 7
    assert buchholz(table, "A", low=1, conventions=SWISS_2026) == 5
    assert buchholz(table, "A", low=1, high=1, conventions=SWISS_2026) == 3


def test_not_voluntary_unplayed_rounds_are_cut_by_value() -> None:
    table = crosstable({"A": ["+BYE", "+WB"], "B": ["--", "-BA"]})
    # A: 2 points; bye -> dummy 2, B scored 0; the bye is not voluntary, so the 0 is cut.
    assert buchholz(table, "A", conventions=SWISS_2024) == 2
    assert buchholz(table, "A", low=1, conventions=SWISS_2024) == 2
    # 2026: the bye is worth min(2, 0.5 x 2 rounds) = 1.
    assert buchholz(table, "A", conventions=SWISS_2026) == 1
    assert buchholz(table, "A", low=1, conventions=SWISS_2026) == 1


# --- ranking -----------------------------------------------------------------------------------


def _four_players() -> CrossTable:
    return CrossTable.from_entries(
        ["A", "B", "C", "D"],
        [*game_entries(1, "A", "D", Result.RED), *game_entries(1, "B", "C", Result.DRAW)],
    )


def test_tied_players_share_a_rank() -> None:
    ranked = rank_players(_four_players(), ["BH", "SB"])
    assert [(s.name, s.rank) for s in ranked.players] == [("A", 1), ("B", 2), ("C", 2), ("D", 4)]
    assert ranked.codes == ("BH", "SB")
    assert ranked.to_json()["players"][1] == {
        "name": "B",
        "rank": 2,
        "points": 0.5,
        "tiebreaks": {"BH": 0.5, "SB": 0.25},
    }


def test_lots_are_deterministic_for_a_seed() -> None:
    table = _four_players()

    def order(seed: int) -> list[str]:
        ranked = rank_players(table, ["BH", "lots"], rng=np.random.default_rng(seed))
        assert [s.rank for s in ranked.players] == [1, 2, 3, 4]
        return [s.name for s in ranked.players]

    assert order(7) == order(7)
    assert {tuple(order(seed)[1:3]) for seed in range(10)} == {("B", "C"), ("C", "B")}


def test_lots_need_a_generator() -> None:
    with pytest.raises(ValueError, match="lots"):
        rank_players(_four_players(), ["lots"])


def test_registry_and_codes() -> None:
    assert set(TIEBREAKS) == {
        "DE", "BH", "BH-C1", "BH-M1", "SB", "SB-C1", "PS", "WIN", "WON", "BWG", "BPG", "lots",
        "RWG", "BDG", "RDG",  # seed 001's chains
    }  # fmt: skip
    assert get_tiebreak("bh-m2").code == "BH-M2"
    assert get_tiebreak("LOTS").code == "lots"
    assert [tb.code for tb in parse_tiebreaks(" BH, sb-c2 ,PS-C1,")] == ["BH", "SB-C2", "PS-C1"]
    with pytest.raises(ValueError, match=r"unknown tie-break: 'XX'"):
        get_tiebreak("XX")
    with pytest.raises(ValueError, match="twice"):
        parse_tiebreaks("BH,bh")


# --- other scoring scales ----------------------------------------------------------------------

DIFFERENCE = PointScale(
    "difference",
    ScoringSystem("difference", D("1.9"), D("2.1"), D(1), D(1)),
    unplayed_win=D(2),
    unplayed_draw=D(1),
)
"""Seed 000's difference method: a game is worth 2; Red wins 1.9, Black wins 2.1, draws 1."""


def test_tiebreaks_use_the_points_each_entry_carries() -> None:
    entries = [
        *game_entries(1, "A", "B", Result.RED, scale=DIFFERENCE),
        *game_entries(1, "C", "D", Result.BLACK, scale=DIFFERENCE),
        *game_entries(2, "D", "A", Result.DRAW, scale=DIFFERENCE),
        *game_entries(2, "B", "C", Result.BLACK, scale=DIFFERENCE),
        ("A", bye_entry(3, Kind.PAIRING_BYE, scale=DIFFERENCE)),
        *game_entries(3, "B", "D", Result.RED, scale=DIFFERENCE),
    ]
    table = CrossTable.from_entries(list("ABCD"), entries, draw_points=D(1), rounds=3)
    assert table.scores == {"A": D("4.9"), "B": D("1.9"), "C": D("2.1"), "D": D("3.1")}
    # A: B (1.9) + D (3.1) + dummy (4.9); SB: 1.9 x 1.9 + 3.1 x 1 + 4.9 x 2.
    assert buchholz(table, "A", conventions=SWISS_2024) == D("9.9")
    assert sonneborn_berger(table, "A", conventions=SWISS_2024) == D("16.51")
    # 2026: the bye's dummy is worth min(4.9, a draw (1) x 3 rounds) = 3.
    assert buchholz(table, "A", conventions=SWISS_2026) == 8
    assert sonneborn_berger(table, "A", conventions=SWISS_2026) == D("12.71")
    assert progressive_score(table, "A") == D("1.9") + D("2.9") + D("4.9")
    ranked = rank_players(table, ["BH", "SB", "PS"], conventions=SWISS_2024)
    first = ranked.to_json()["players"][0]
    assert first == {
        "name": "A",
        "rank": 1,
        "points": 4.9,
        "tiebreaks": {"BH": 9.9, "SB": 16.51, "PS": 9.7},
    }


def test_json_numbers_have_no_float_noise() -> None:
    assert json_number(D("0.1") + D("0.2")) == 0.3
    assert repr(json_number(D("2.1") * D("3.3"))) == "6.93"
    assert json_number(D("1.9") + D("2.1")) == 4
    assert isinstance(json_number(D("4.00")), int)


ALL = ["DE", "BH", "BH-C1", "BH-M1", "SB", "SB-C1", "PS", "WIN", "WON", "BWG", "BPG"]


@settings(max_examples=40, deadline=None)
@given(events(), st.sampled_from(["2", "3", "0.5", "1.9"]))
def test_rankings_do_not_depend_on_the_scale_of_points(table: CrossTable, factor: str) -> None:
    c = D(factor)
    big = scaled(table, c)
    for name in table.players:
        assert buchholz(big, name, low=1) == c * buchholz(table, name, low=1)
        assert sonneborn_berger(big, name) == c * c * sonneborn_berger(table, name)
        assert progressive_score(big, name) == c * progressive_score(table, name)
        assert wins(big, name) == wins(table, name)
    before = rank_players(table, ALL)
    after = rank_players(big, ALL)
    assert [(s.name, s.rank) for s in before.players] == [(s.name, s.rank) for s in after.players]


@settings(max_examples=40, deadline=None)
@given(events())
def test_ranking_invariants(table: CrossTable) -> None:
    ranked = rank_players(table, ["BH-C1", "BH", "SB", "DE", "PS", "WIN"])
    players = ranked.players
    assert sorted(s.name for s in players) == sorted(table.players)
    assert players[0].rank == 1
    for i, s in enumerate(players):
        ahead = [t for t in players if t.rank < s.rank]
        assert s.rank == len(ahead) + 1
        if i:
            prev = players[i - 1]
            assert prev.points >= s.points
            if prev.rank == s.rank:
                assert prev.points == s.points
                assert prev.tiebreaks == s.tiebreaks
    for s in players:
        assert s.points == table.score(s.name)
        assert s.tiebreaks["BH-C1"] <= s.tiebreaks["BH"]
        assert s.tiebreaks["WIN"] >= games_won(table, s.name) >= black_wins(table, s.name)


@settings(max_examples=30, deadline=None)
@given(events(), st.integers(0, 2**32 - 1))
def test_lots_separate_everyone(table: CrossTable, seed: int) -> None:
    ranked = rank_players(table, ["BH", "lots"], rng=np.random.default_rng(seed))
    assert [s.rank for s in ranked.players] == list(range(1, len(table.players) + 1))
    again = rank_players(table, ["BH", "lots"], rng=np.random.default_rng(seed))
    assert ranked == again


def test_classical_scale_points() -> None:
    assert CLASSICAL.points(Kind.PLAYED, Outcome.WIN, Colour.BLACK) == 1
    assert CLASSICAL.points(Kind.HALF_BYE, Outcome.DRAW, None) == D("0.5")
    assert CLASSICAL.points(Kind.FORFEIT, Outcome.LOSS, Colour.RED) == 0
