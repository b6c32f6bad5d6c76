"""The chunked bracket solver gives the answers of the one it replaced, to the last bit.

``bracket_unchunked.py`` is the exact bracket odds as they were before the pairs were gathered
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
from knockout.rules.chain.match import MatchState
from knockout.rules.chain.pairing import Pairing, Roster, p_first_chooses
from knockout.rules.model.sd import design
from knockout.rules.model.strength import ModelParams
from knockout.rules.scenario.aggregate import Scenario, parse_scenario
from tests.exact import bracket_unchunked as reference

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


def _uncertain(sc: Scenario, draws: int) -> tuple[ModelParams, Any]:
    """A vectorised model of ``draws`` sets of the scenario's uncertain constants."""
    des = design(sc.model, sc.model_sd, draws=draws)
    return des.model(sc.model), des


def _line_matrix_all_at_once(sc: Scenario, z: Any, model: ModelParams) -> Any:
    """``M[d, i, a, j, b]`` for the pairs of a bracket without a match played, as main built
    it before the chunks: every pair built in Python, all solved at once under their draws."""
    state = sc.event_state()
    names = state.bracket.players
    index = {name: i for i, name in enumerate(state.bracket.lines) if name is not None}
    players = {p.name: p for p in sc.players}
    draws, k = model.size or 1, len(z)
    iu, ju = np.triu_indices(len(names), k=1)
    pairing = Pairing.of(
        sc.format,
        [players[names[i]] for i in iu],
        [players[names[j]] for j in ju],
        model=sc.model,
        strategy=sc.strategy,
    )
    sd = np.array([players[n].rating_sd for n in names])
    shift = np.broadcast_to(
        sd[iu, None, None, None] * z[None, None, :, None]
        - sd[ju, None, None, None] * z[None, None, None, :],
        (iu.size, draws, k, k),
    ).ravel()
    pair = np.repeat(np.arange(iu.size), draws * k * k)
    draw = np.tile(np.repeat(np.arange(draws), k * k), iu.size)
    expanded = pairing.expanded(pair, shift).with_model(model.take(draw))
    p_up = solve(expanded).win[:, 0].reshape(iu.size, draws, k, k)
    size = state.bracket.size
    m = np.zeros((draws, size, k, size, k))
    li = np.array([index[names[i]] for i in iu])
    lj = np.array([index[names[j]] for j in ju])
    for d in range(draws):
        m[d, li, :, lj, :] = p_up[:, d]
        m[d, lj, :, li, :] = 1.0 - p_up[:, d].transpose(0, 2, 1)
    return m


UNCERTAIN = {
    "sd": {
        "red_advantage": {"classical": 14, "rapid": 25},
        "draw_nu": {"rapid": 0.25},
        "elo_per_doubling": {"rapid": 40},
    }
}


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"format": {"preset": "official-1", "decider": {"chooser": "higher-ranked"}}},
    ],
    ids=["xq-bidding", "official-1-higher-ranked"],
)
def test_uncertain_constants_chunked_bit_identical(
    extra: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bracket over draws of ``[model.sd]`` (``M[d, i, a, j, b]``), pairs gathered and solved
    in chunks (one pair a chunk here), equals
    every pair built and solved at once under its draw."""
    players = [
        {"name": f"R{i}", "rating": 2600 - 17 * i, "rating_sd": 30.0 if i % 2 else 0.0}
        for i in range(9)
    ]
    sc = parse_scenario({"players": players, "model": UNCERTAIN, **extra})
    model, _ = _uncertain(sc, 8)
    z, _ = chunked._nodes(sc, True)
    expected = _line_matrix_all_at_once(sc, z, model)
    state = sc.event_state()
    np.testing.assert_array_equal(chunked.line_matrix(sc, state, z, model=model), expected)
    monkeypatch.setattr(chunked.pair_wins, "__kwdefaults__", {"model": None, "chunk": 50})
    np.testing.assert_array_equal(chunked.line_matrix(sc, state, z, model=model), expected)


def test_roster_gathers_the_higher_ranked_chooser() -> None:
    """``higher-ranked`` between gathered pairs: the better given seed when both have one,
    else the higher rating, else a lot, as :func:`p_first_chooses` says pair by pair."""
    sc = parse_scenario(
        {
            "format": {"preset": "official-1", "decider": {"chooser": "higher-ranked"}},
            "players": [
                {"name": "S1", "rating": 2500, "seed": 2},
                {"name": "S2", "rating": 2550, "seed": 1},
                {"name": "S3", "rating": 2550},
                {"name": "S4", "rating": 2500},
                {"name": "S5", "rating": 2500, "seed": 3},
            ],
        }
    )
    players = list(sc.players)
    iu, ju = np.triu_indices(len(players), k=1)
    a, b = np.concatenate([iu, ju]), np.concatenate([ju, iu])
    gathered = Roster.of(sc.format, players, model=sc.model, strategy=sc.strategy).pairs(a, b)
    (stage,) = gathered.colour_chooser
    expected = [
        p_first_chooses("higher-ranked", players[i], players[j]) for i, j in zip(a, b, strict=True)
    ]
    assert gathered.colour_chooser[stage].tolist() == expected
    assert set(expected) == {0.0, 0.5, 1.0}


def test_a_paced_game_is_cached_per_pairing_never_shared() -> None:
    """The game that decides 甲 under chosen paces is computed once per pairing (Red or Black)
    and each pairing keeps its own: another pace never gets a game computed at this one."""
    sc = load_scenario(ROOT / "scenarios" / "final-2600-vs-2550.toml")
    a, b = sc.players
    plain = Pairing.of(sc.format, a, b, model=sc.model, strategy=sc.strategy)
    deciding = plain.deciding_game
    assert deciding is not None
    state = MatchState(deciding[0], deciding[1])
    slow, fast = plain.with_paces(0.9, 0.9), plain.with_paces(0.5, 0.9)
    for red in (0, 1):
        first = slow.game_at(state, red)
        assert slow.game_at(state, red) is first
        np.testing.assert_array_equal(np.asarray(first), np.asarray(slow._paced_game(state, red)))
        other = fast.game_at(state, red)
        np.testing.assert_array_equal(np.asarray(other), np.asarray(fast._paced_game(state, red)))
        assert not np.array_equal(np.asarray(first), np.asarray(other))
        np.testing.assert_array_equal(
            np.asarray(plain.game_at(state, red)), np.asarray(plain.game(state.stage, red))
        )


def test_upper_pairs_are_triu_indices() -> None:
    for n in (2, 3, 7, 64, 1000):
        iu, ju = chunked.upper_pairs(n)
        a, b = np.triu_indices(n, k=1)
        np.testing.assert_array_equal(iu, a)
        np.testing.assert_array_equal(ju, b)
        assert iu.dtype == ju.dtype == np.int32


def test_many_chunks_keep_freed_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunk after chunk frees and reallocates the same arrays: the solver tunes the allocator
    (as the Monte Carlo runner does) when there is more than one chunk, not for one."""
    calls: list[int] = []
    monkeypatch.setattr(chunked, "keep_freed_memory", lambda: calls.append(1))
    sc = field(12)
    names = tuple(p.name for p in sc.players)
    iu, ju = chunked.upper_pairs(12)
    whole = chunked.pair_wins(sc, names, iu, ju)
    assert not calls
    np.testing.assert_array_equal(chunked.pair_wins(sc, names, iu, ju, chunk=10), whole)
    assert calls
