"""The vectorised bracket block against the reference block, in distribution.

One field exercises every path of a round: byes (11 players in a 16-line draw), withdrawn players
(a walkover in round 1, and one in round 2 against whoever comes through), a match in progress,
the match for third place, and private beliefs in the sudden death. Every count of a
:class:`~knockout.answers.BracketTally` (reach per player and round, top-rated wins, upsets and
their squares, games) is compared: proportions and means from the two blocks agree within 4.5
standard errors of their difference.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from knockout.answers import BracketTally
from knockout.rules.scenario.aggregate import Scenario, parse_scenario
from sims.bracket import BracketJob, bracket_block
from tests.sims.bracket_reference import reference_block

Z = 4.5
EVENTS, BLOCKS = 4096, 8


def busy_field() -> Scenario:
    ratings = np.linspace(2650, 2350, 11)
    players: list[dict[str, Any]] = [
        {"name": f"P{i + 1:02d}", "rating": float(r)} for i, r in enumerate(ratings)
    ]
    players[1]["withdrawn"] = True  # a bye, then a walkover in round 2 (against 7 v 10)
    players[8]["withdrawn"] = True  # a walkover in round 1 (a fixed match)
    data: dict[str, Any] = {
        "players": players,
        "strategy": {"kind": "believed", "belief_sd": 150},
        "bracket": {"third_place": True},
    }
    lines = parse_scenario(data).event_state().bracket.lines
    first = next(
        (lines[i], lines[i + 1])
        for i in range(0, len(lines), 2)
        if None not in (lines[i], lines[i + 1]) and "P09" not in (lines[i], lines[i + 1])
    )
    data["played"] = [{"red": first[0], "black": first[1], "stage": "slow", "result": "black"}]
    return parse_scenario(data)


def run(block: Any, job: BracketJob, seed: int) -> BracketTally:
    total = block(job, 0, EVENTS, seed)
    for i in range(1, BLOCKS):
        total = total + block(job, i, EVENTS, seed)
    assert isinstance(total, BracketTally)
    return total


def close_proportions(a: int, b: int, n: int) -> bool:
    p = (a + b) / (2 * n)
    se = math.sqrt(max(2 * p * (1 - p) / n, 1e-18))
    return abs(a - b) / n <= Z * se + 1e-12


def close_means(sum_a: float, sq_a: float, sum_b: float, sq_b: float, n: int) -> bool:
    var = max(sq_a / n - (sum_a / n) ** 2, 0) + max(sq_b / n - (sum_b / n) ** 2, 0)
    return abs(sum_a - sum_b) / n <= Z * math.sqrt(var / n) + 1e-12


@pytest.mark.slow
def test_fast_block_agrees_with_the_reference() -> None:
    sc = busy_field()
    job = BracketJob.from_scenario(sc)
    plans, third = job.plans
    assert plans[0].byes.size == 5 and plans[0].fixed.size == 2 and third is not None
    fast, slow = run(bracket_block, job, 1), run(reference_block, job, 2)
    n = EVENTS * BLOCKS
    assert fast.runs == slow.runs == n
    for name, row_fast, row_slow in zip(job.names, fast.reach, slow.reach, strict=True):
        for k, (a, b) in enumerate(zip(row_fast, row_slow, strict=True)):
            assert close_proportions(a, b, n), (name, k, a, b)
    assert close_proportions(fast.top_rated_wins, slow.top_rated_wins, n)
    assert close_means(fast.upsets, fast.upsets_squared, slow.upsets, slow.upsets_squared, n)
    games = [
        (sum(g * c for g, c in t.games.items()), sum(g * g * c for g, c in t.games.items()))
        for t in (fast, slow)
    ]
    assert close_means(*games[0], *games[1], n)
    assert sum(fast.games.values()) == n


def test_withdrawn_players_go_no_further_than_their_next_match() -> None:
    job = BracketJob.from_scenario(busy_field())
    t = bracket_block(job, 0, 2048, 5)
    for name in ("P02", "P09"):  # P02 has a bye first, so is still in at the start of round 2
        row = t.reach[job.names.index(name)]
        assert row[0] == 2048 and row[2:] == (0,) * (len(row) - 2)


def test_blocks_are_reproducible_and_sum_exactly() -> None:
    job = BracketJob.from_scenario(busy_field())
    a, b = bracket_block(job, 3, 1000, 9), bracket_block(job, 3, 1000, 9)
    assert a == b and a != bracket_block(job, 4, 1000, 9)
    assert all(sum(row[k] for row in a.reach) <= 1000 * 16 >> k for k in range(5))


def test_score_lookup_and_its_fallback_count_the_same() -> None:
    """Formats whose games are not fixed by the exit count games and upsets per match instead
    of through the (pair, exit) table: the same counts from the same draws."""
    table = BracketJob.from_scenario(busy_field())
    fallback = BracketJob.from_scenario(busy_field())
    fallback.__dict__["exit_score"] = None  # as if the exits did not fix the games
    assert table.exit_score is not None
    assert bracket_block(table, 2, 3000, 8) == bracket_block(fallback, 2, 3000, 8)
