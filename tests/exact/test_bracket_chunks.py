"""The chunked bracket solver gives the answers of the one it replaced, to the last bit.

``bracket_reference.py`` is the exact bracket odds as they were before the pairs were gathered
from per-player arrays and solved in chunks (every pair built in Python, all solved at once).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from knockout.exact import bracket as chunked
from knockout.exact.solver import advance_probabilities, solve
from knockout.io.scenario import load_scenario
from knockout.rules.match import Pairing, Roster
from knockout.rules.scenario import Scenario, parse_scenario
from tests.exact import bracket_reference as reference

ROOT = Path(__file__).resolve().parents[2]


def field(n: int, **extra: Any) -> Scenario:
    """``n`` players 600 Elo apart top to bottom, with speeds that vary (so 甲 varies)."""
    players = [
        {
            "name": f"P{i:04d}",
            "rating": 2700 - 600 * i / n,
            "rating_rapid": 2690 - 600 * i / n + (i % 7) * 5,
            "speed": {"mean": 0.6 + 0.03 * ((i * 7) % 11), "sd": 0.1},
        }
        for i in range(n)
    ]
    return parse_scenario({"players": players, **extra})


def assert_same(sc: Scenario) -> None:
    new, old = chunked.bracket_odds(sc), reference.bracket_odds(sc)
    assert new.reach == old.reach  # floats compared exactly
    assert new.win_if_ratings_exact == old.win_if_ratings_exact


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"strategy": {"kind": "believed", "belief_sd": 80}},
        {"strategy": {"kind": "naive"}, "format": {"preset": "official-playoff"}},
    ],
    ids=["rational", "believed", "official-playoff"],
)
def test_64_players_bit_identical(extra: dict[str, Any]) -> None:
    assert_same(field(64, **extra))


@pytest.mark.slow
def test_1024_players_bit_identical() -> None:
    assert_same(field(1024, strategy={"kind": "believed", "belief_sd": 80}))


@pytest.mark.parametrize("name", ["national-64.toml", "open-12-in-progress.toml", "newcomer.toml"])
def test_bundled_scenarios_bit_identical(name: str) -> None:
    sc = load_scenario(ROOT / "scenarios" / name)
    if sc.is_bracket:
        assert_same(sc)


def test_withdrawals_and_uncertain_ratings_bit_identical() -> None:
    players = [
        {"name": f"Q{i}", "rating": 2500 - 13 * i, "rating_sd": 40.0 if i % 3 == 0 else 0.0}
        for i in range(11)
    ]
    for i in (2, 5, 6):
        players[i]["withdrawn"] = True
    assert_same(parse_scenario({"players": players}))


def test_small_chunks_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    sc = field(40, strategy={"kind": "bayesian", "belief_sd": 60})
    whole = chunked.bracket_odds(sc)
    monkeypatch.setattr(chunked.pair_wins, "__kwdefaults__", {"chunk": 7})
    assert chunked.bracket_odds(sc).reach == whole.reach


def test_roster_pairs_are_the_pairings_of_the_two_lists() -> None:
    sc = field(9, format={"preset": "official-playoff"})
    players = list(sc.players)
    a, b = np.array([0, 3, 8, 8]), np.array([5, 1, 2, 0])
    gathered = Roster.of(sc.format, players, model=sc.model, strategy=sc.strategy).pairs(a, b)
    listed = Pairing.of(
        sc.format,
        [players[i] for i in a],
        [players[i] for i in b],
        model=sc.model,
        strategy=sc.strategy,
    )
    for tc, (ra, rb) in listed.ratings.items():
        np.testing.assert_array_equal(gathered.ratings[tc][0], ra)
        np.testing.assert_array_equal(gathered.ratings[tc][1], rb)
    assert gathered.colour_chooser.keys() == listed.colour_chooser.keys()
    for k, v in listed.colour_chooser.items():
        np.testing.assert_array_equal(gathered.colour_chooser[k], v)
    np.testing.assert_array_equal(solve(gathered).win, solve(listed).win)


@pytest.mark.parametrize("preset", ["xq-bidding", "blitz-pairs", "armageddon-bid"])
def test_advance_probabilities_are_the_solvers_win(preset: str) -> None:
    sc = field(12, format={"preset": preset}, strategy={"kind": "believed", "belief_sd": 50})
    iu, ju = np.triu_indices(12, k=1)
    pairing = chunked.roster(sc, tuple(p.name for p in sc.players)).pairs(iu, ju)
    np.testing.assert_array_equal(advance_probabilities(pairing), solve(pairing).win)
