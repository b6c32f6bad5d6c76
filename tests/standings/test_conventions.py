"""Which rules and which conventions: dates, tournament types, round-robin detection, and the
round-robin treatment of unplayed games (hand-computed values)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from standings_helpers import FIDE_EXERCISE_2024, crosstable

from knockout.standings.conventions import (
    Conventions,
    get_cut_rule,
    get_rules,
    get_tournament_kind,
    is_complete_round_robin,
    kind_from_type,
    parse_event_date,
    rules_in_force,
)
from knockout.standings.files import read_crosstable
from knockout.standings.records import CrossTable
from knockout.standings.tiebreaks import (
    adjusted_score,
    buchholz,
    direct_encounter,
    rank_players,
    sonneborn_berger,
)

D = Decimal
DATA = Path(__file__).resolve().parents[2] / "scenarios" / "data"
ROUND_ROBIN_5 = read_crosstable(DATA / "round-robin-5.csv")
ROUND_ROBIN = Conventions("2026", "round-robin")
SWISS_2024 = Conventions("2024", "swiss")
SWISS_2026 = Conventions("2026", "swiss")


@pytest.mark.parametrize(
    ("day", "rules"),
    [
        (date(2024, 4, 1), "2024"),
        (date(2026, 2, 28), "2024"),
        (date(2026, 3, 1), "2026"),
        (date(2027, 1, 1), "2026"),
        (None, "2026"),  # undated: the newest, as FIDE's checker does
    ],
)
def test_the_rules_in_force_on_a_day(day: date | None, rules: str) -> None:
    assert rules_in_force(day) == rules


def test_names_of_rules_and_kinds() -> None:
    assert get_rules(" 2024 ") == "2024"
    assert get_tournament_kind("Round-Robin") == "round-robin"
    with pytest.raises(ValueError, match="expected 2024 or 2026, got '2023'"):
        get_rules("2023")
    with pytest.raises(ValueError, match="expected swiss or round-robin, got 'rr'"):
        get_tournament_kind("rr")
    with pytest.raises(ValueError, match="expected a date"):
        parse_event_date("March 2026")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Individual: Swiss-System", "swiss"),
        ("Swiss Dutch", "swiss"),
        ("瑞士制", "swiss"),
        ("Round Robin", "round-robin"),
        ("Double round-robin", "round-robin"),
        ("Berger", "round-robin"),
        ("RR", "round-robin"),
        ("双循环", "round-robin"),
        ("Individual", None),
        ("Barrage", None),
        ("", None),
    ],
)
def test_tournament_types(text: str, kind: str | None) -> None:
    assert kind_from_type(text) == kind


def _round_robin(games: list[tuple[int, str, str, str]]) -> list[str]:
    return ["round,red,black,result", *(f"{r},{a},{b},{x}" for r, a, b, x in games)]


def _table(tmp_path: Path, lines: list[str]) -> CrossTable:
    path = tmp_path / "event.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return read_crosstable(path)


SINGLE = [(1, "A", "B", "red"), (1, "C", "D", "draw"), (2, "A", "C", "black")]
SINGLE += [(2, "B", "D", "red"), (3, "D", "A", "draw"), (3, "B", "C", "+-")]


def test_round_robins_are_recognised_from_the_games(tmp_path: Path) -> None:
    assert is_complete_round_robin(ROUND_ROBIN_5)  # odd: each player sits one round out
    assert is_complete_round_robin(_table(tmp_path, _round_robin(SINGLE)))  # a forfeit meets
    double = SINGLE + [(r + 3, b, a, x) for r, a, b, x in SINGLE]
    assert is_complete_round_robin(_table(tmp_path, _round_robin(double)))
    # One pair twice, the others once: not a complete round robin.
    assert not is_complete_round_robin(
        _table(tmp_path, _round_robin([*SINGLE, (4, "A", "B", "red")]))
    )
    # A pair that never met.
    assert not is_complete_round_robin(_table(tmp_path, _round_robin(SINGLE[:-1])))
    # A bye that earns points belongs to an event paired round by round.
    with_bye = [*_round_robin(SINGLE), "4,A,,half-bye"]
    assert not is_complete_round_robin(_table(tmp_path, with_bye))
    # FIDE's exercise is a Swiss.
    assert not is_complete_round_robin(crosstable(FIDE_EXERCISE_2024))


def test_conventions_for_an_event_and_overrides() -> None:
    assert Conventions.for_event(ROUND_ROBIN_5) == Conventions("2026", "round-robin")
    assert Conventions.for_event(ROUND_ROBIN_5, on=date(2025, 6, 1)).rules == "2024"
    assert Conventions.for_event(ROUND_ROBIN_5, rules="2024", on=date(2026, 6, 1)).rules == "2024"
    assert Conventions.for_event(ROUND_ROBIN_5, tournament="swiss").tournament == "swiss"
    assert Conventions("2024", "round-robin").to_json() == {
        "rules": "2024",
        "tournament": "round-robin",
        "cuts": "fide",
    }
    assert Conventions.for_event(ROUND_ROBIN_5, cuts="floor-7").cut_floor == 7
    assert Conventions.for_event(ROUND_ROBIN_5).cut_floor == 0
    assert get_cut_rule(" Floor-7 ") == "floor-7"
    with pytest.raises(ValueError, match="expected fide or floor-7, got 'seven'"):
        get_cut_rule("seven")


def test_a_round_robin_counts_a_forfeit_as_a_game(tmp_path: Path) -> None:
    # A beat B by forfeit in round 1; B still scored 2 (beat D and C).
    games = [
        (1, "A", "B", "+-"), (1, "C", "D", "red"),
        (2, "A", "C", "draw"), (2, "B", "D", "red"),
        (3, "D", "A", "red"), (3, "B", "C", "red"),
    ]  # fmt: skip
    table = _table(tmp_path, _round_robin(games))
    assert {p: table.score(p) for p in "ABCD"} == {"A": D("1.5"), "B": 2, "C": D("1.5"), "D": 1}
    assert Conventions.for_event(table) == ROUND_ROBIN
    # Round robin: B's 2 counts like any opponent's; SB 2 x 1 + 1.5 x 0.5 + 1 x 0.
    assert buchholz(table, "A", conventions=ROUND_ROBIN) == D("4.5")
    assert sonneborn_berger(table, "A", conventions=ROUND_ROBIN) == D("2.75")
    # Swiss: a dummy opponent with A's own 1.5 (under 2026: min(1.5, B's 2) = 1.5 as well).
    for swiss in (SWISS_2024, SWISS_2026):
        assert buchholz(table, "A", conventions=swiss) == 4
        assert sonneborn_berger(table, "A", conventions=swiss) == D("2.25")


def test_direct_encounter_counts_a_forfeit_in_a_round_robin(tmp_path: Path) -> None:
    games = [
        (1, "A", "B", "+-"), (1, "C", "D", "red"),
        (2, "A", "C", "draw"), (2, "B", "D", "red"),
        (3, "D", "A", "red"), (3, "B", "C", "draw"),
    ]  # fmt: skip
    table = _table(tmp_path, _round_robin(games))
    assert table.score("A") == table.score("B") == D("1.5")
    assert direct_encounter(table, ["A", "B"], round_robin=True) == {"A": 1, "B": 0}
    assert direct_encounter(table, ["A", "B"]) is None  # a Swiss: a forfeit is no encounter
    ranked = rank_players(table, ["DE"])
    assert [(s.name, s.rank, s.tiebreaks["DE"]) for s in ranked.players[1:3]] == [
        ("A", 2, 1),
        ("B", 3, 0),
    ]


def test_a_round_robin_withdrawal_counts_nothing_after_it(tmp_path: Path) -> None:
    # D left after round 1; its later games were not recorded (no forfeits), nor B's and A's
    # games against D. Declared a round robin (the games alone would not say so).
    games = [(1, "A", "B", "red"), (1, "C", "D", "black"), (2, "A", "C", "draw")]
    games += [(3, "B", "C", "black")]
    table = _table(tmp_path, _round_robin(games))
    assert {p: table.score(p) for p in "ABCD"} == {"A": D("1.5"), "B": 0, "C": D("1.5"), "D": 1}
    assert Conventions.for_event(table).tournament == "swiss"
    # D's rounds 2 and 3 come after its last game: draws in a Swiss, nothing in a round robin.
    assert adjusted_score(table, "D") == 2
    assert adjusted_score(table, "D", round_robin=True) == 1
    # C met D (1), A (1.5) and B (0). Read as a Swiss, D counts 2 and so does A, whose round 3
    # without a game also comes after its last game: 2 + 2 + 0.
    assert buchholz(table, "C", conventions=ROUND_ROBIN) == D("2.5")
    assert buchholz(table, "C", conventions=SWISS_2024) == 4
    # A's round 3 (no game) is left out in a round robin; a Swiss counts a dummy with 1.5.
    assert buchholz(table, "A", conventions=ROUND_ROBIN) == D("1.5")
    assert buchholz(table, "A", conventions=SWISS_2024) == 3
    assert buchholz(table, "A", conventions=SWISS_2026) == 3  # min(1.5, 0.5 x 3) = 1.5
