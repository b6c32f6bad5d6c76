"""A knockout event's final ranking follows the rules version its scenario names."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from knockout.engine.event import play_event
from knockout.engine.ranking import final_ranking
from knockout.errors import ScenarioError
from knockout.rules.scenario.aggregate import Scenario, parse_scenario


def scenario(**ranking: Any) -> Scenario:
    """Four players; D withdrew, so A wins the semi-final by walkover; C beats B, A beats C.

    Every game is given, and each is decisive in the one slow game of ``single-slow``, so the
    event is the same whatever the seed.
    """
    return parse_scenario(
        {
            "format": {"preset": "single-slow"},
            "players": [
                {"name": "A", "rating": 2600},
                {"name": "B", "rating": 2550},
                {"name": "C", "rating": 2500},
                {"name": "D", "rating": 2450, "withdrawn": True},
            ],
            "ranking": {"tiebreaks": ["BH"], **ranking},
            "played": [
                {"red": "C", "black": "B", "stage": "slow", "result": "red"},
                {"red": "A", "black": "C", "stage": "slow", "result": "red"},
            ],
        }
    )


def buchholz_by_name(sc: Scenario) -> dict[str, Decimal | None]:
    record, _ = play_event(sc, seed=1)
    ranking = final_ranking(record, sc)
    assert [(s.name, s.reached) for s in ranking] == [
        ("A", "champion"),
        ("C", "final"),
        ("B", "semi-final"),
        ("D", "semi-final"),
    ]
    return {s.name: s.tiebreaks["BH"] for s in ranking}


# Two game slots (semi-final, final), per-game points win 3, draw 1, loss 0. A: walkover (0
# points) then a win over C: 3. C: 3 (beat B, lost to A). D never played: a forfeit loss and an
# absence after it, which counts as a draw (1 point) for D's opponents. A's walkover is an
# unplayed round: under the 2024 rules a dummy opponent with A's own 3 (BH 3 + C's 3 = 6); the
# 2026 revision (C.07 16.4.1) bounds it by D's adjusted score 1 (BH 1 + 3 = 4).
@pytest.mark.parametrize(("rules", "a_buchholz"), [("2024", 6), ("2026", 4), (None, 4)])
def test_the_scenario_rules_decide_unplayed_rounds(rules: str | None, a_buchholz: int) -> None:
    sc = scenario() if rules is None else scenario(rules=rules)
    assert sc.ranking.rules == (rules or "2026")
    bh = buchholz_by_name(sc)
    # C: B (1 + an absence counted as a draw: 1) + A (3) = 4; B: C (3) + own absence (0) = 3.
    assert bh == {"A": a_buchholz, "C": 4, "B": 3, "D": 0}


def test_the_rules_are_written_into_the_resolved_scenario() -> None:
    sc = scenario(rules="2024")
    assert sc.to_dict()["ranking"] == {"tiebreaks": ["BH"], "lots": False, "rules": "2024"}
    assert parse_scenario(sc.to_dict()) == sc
    assert scenario().to_dict()["ranking"]["rules"] == "2026"


def test_an_unknown_rules_version_is_a_scenario_error() -> None:
    with pytest.raises(ScenarioError, match=r"ranking\.rules"):
        scenario(rules="2025")
