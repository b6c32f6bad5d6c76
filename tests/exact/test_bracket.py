"""Brackets: the draw, invariants of played events, exact odds against simulation, rankings."""

from __future__ import annotations

import io
import itertools
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from knockout.dashboard.live import LiveEvent
from knockout.engine.event import EventRun, play_event
from knockout.engine.ranking import final_ranking
from knockout.errors import ScenarioError
from knockout.exact.bracket import bracket_odds
from knockout.rules.book.bracket import Bracket, seed_order
from knockout.rules.model.players import Player
from knockout.rules.scenario.aggregate import Scenario, parse_scenario
from sims.bracket import simulate_bracket


def field(n: int, **extra: Any) -> Scenario:
    ratings = np.linspace(2600, 2300, n)
    players = [{"name": f"P{i + 1:02d}", "rating": float(r)} for i, r in enumerate(ratings)]
    for key in ("withdrawn",):
        for i in extra.pop(key, ()):
            players[i][key] = True
    return parse_scenario({"players": players, **extra})


@given(st.integers(0, 8))
def test_seed_order_keeps_top_seeds_apart(k: int) -> None:
    size = 1 << k
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # seeds 1..2^j are in different blocks of size / 2^j
    for j in range(k + 1):
        block = size >> j
        blocks = {order.index(s) // block for s in range(1, (1 << j) + 1)}
        assert len(blocks) == 1 << j


def test_standard_order_for_sixteen() -> None:
    assert seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@given(st.integers(2, 70))
def test_byes_only_for_top_seeds(n: int) -> None:
    players = [Player(f"P{i}", 2600 - i) for i in range(n)]
    b = Bracket.draw(players)
    byes = b.size - n
    assert sorted(b.seeds[p] for p in b.byes()) == list(range(1, byes + 1))
    assert b.size >= n > b.size // 2


def test_seeding_modes() -> None:
    players = [Player(f"P{i}", 2600 - i, seed=8 - i) for i in range(8)]
    assert Bracket.draw(players, seeding="given").lines[0] == "P7"
    assert Bracket.draw(players).lines[0] == "P0"
    one = Bracket.draw(players, seeding="random", draw_seed=5)
    assert one == Bracket.draw(players, seeding="random", draw_seed=5)
    assert one != Bracket.draw(players, seeding="random", draw_seed=6)
    with pytest.raises(ScenarioError, match="'given' needs every player's seed"):
        parse_scenario(
            {
                "players": [
                    {"name": "A", "rating": 1, "seed": 1},
                    {"name": "B", "rating": 1},
                    {"name": "C", "rating": 1},
                ],
                "bracket": {"seeding": "given"},
            }
        )


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(3, 20),
    third=st.booleans(),
    withdrawn=st.sets(st.integers(0, 19), max_size=3),
    seed=st.integers(0, 10_000),
)
def test_played_event_invariants(n: int, third: bool, withdrawn: set[int], seed: int) -> None:
    third = third and n >= 4  # three players have one semi-final: third place is refused
    sc = field(n, bracket={"third_place": third}, withdrawn=[i for i in withdrawn if i < n])
    record, _ = play_event(sc, seed=seed)
    matches = record.matches
    # A third-place match needs two semi-final losers (a semi-final can be a bye in tiny fields).
    semis = record.rounds[-2].matches if record.bracket.rounds >= 2 else ()
    third_played = third and len(semis) == 2
    assert (record.third_place is not None) == third_played
    assert len(matches) == n - 1 + (1 if third_played else 0)
    losses = Counter(m.loser for m in matches if m is not record.third_place)
    assert all(c == 1 for c in losses.values())
    champion = record.champion
    assert champion not in losses
    assert set(losses) | {champion} == {p.name for p in sc.players}
    if third_played:
        assert record.third_place is not None
        semi_losers = {m.loser for m in record.rounds[-2].matches}
        assert set(record.third_place.players) == semi_losers
    ranking = final_ranking(record, sc)
    assert ranking[0].name == champion and ranking[0].rank == 1
    assert [s.rank for s in ranking] == sorted(s.rank for s in ranking)
    for r in record.rounds[1:]:
        assert r.start >= record.rounds[r.number - 2].end


def test_exact_bracket_agrees_with_monte_carlo() -> None:
    cases = [
        field(6, strategy={"kind": "believed", "belief_sd": 120}),
        field(8, format={"preset": "official-playoff"}, withdrawn=[5]),
        field(11, format={"preset": "single-slow"}),
    ]
    for sc in cases:
        exact = bracket_odds(sc)
        est, _ = simulate_bracket(sc, 60_000, 11)
        assert est is not None
        for name in exact.players:
            pairs = zip(
                est.value.reach[name], est.stderr.reach[name], exact.reach[name], strict=True
            )
            for v, se, x in pairs:
                assert abs(v - x) <= 4 * max(se, 1e-12) + 1e-12, (sc.name, name)


def test_reach_starts_at_one_and_sums_to_one() -> None:
    sc = field(13)
    odds = bracket_odds(sc)
    assert all(r[0] == 1.0 for r in odds.reach.values())
    assert sum(odds.win.values()) == pytest.approx(1.0)
    rounds = odds.bracket.rounds
    for k in range(rounds + 1):
        expected = odds.bracket.size >> k
        assert sum(r[k] for r in odds.reach.values()) == pytest.approx(
            expected if k else len(sc.players)
        )
    assert all(len(r) == rounds + 1 for r in odds.reach.values())


IN_PROGRESS: dict[str, Any] = {
    "players": [{"name": f"P{i}", "rating": 2500 - 20 * i} for i in range(8)],
    "played": [
        {"red": "P0", "black": "P7", "stage": "slow", "result": "red"},
        {"red": "P7", "black": "P0", "stage": "slow", "result": "draw"},  # P0 through
        {"red": "P3", "black": "P4", "stage": "slow", "result": "black"},  # P4 leads 1-0
    ],
}


def test_bracket_in_progress() -> None:
    sc = parse_scenario(IN_PROGRESS)
    state = sc.event_state()
    assert state.winner(1, 0) == "P0"
    odds = bracket_odds(sc)
    assert odds.reach["P7"][1] == 0.0 and odds.reach["P0"][1] == 1.0
    assert odds.reach["P4"][1] > 0.75
    est, _ = simulate_bracket(sc, 40_000, 3)
    assert est is not None
    for name in odds.players:
        pairs = zip(est.value.reach[name], est.stderr.reach[name], odds.reach[name], strict=True)
        for v, se, x in pairs:
            assert abs(v - x) <= 4 * max(se, 1e-12) + 1e-12
    record, _ = play_event(sc, seed=4)
    first = record.rounds[0].matches[0]
    assert first.winner == "P0" and all(g.replayed for g in first.games)


def test_played_games_that_cannot_have_happened() -> None:
    bad = dict(IN_PROGRESS)
    bad["played"] = [{"red": "P0", "black": "P3", "stage": "slow", "result": "red"}]
    with pytest.raises(ScenarioError) as err:
        parse_scenario(bad).event_state()
    # P0 beat nobody yet and P3 v P4 is not decided: both reasons are facts, the first is given
    assert err.value.lines() == [
        "<scenario>: played[0]: P0 and P3 can only meet in the semi-final (round 2), and their "
        "quarter-final match (P0 v P7) is not decided"
    ]


@pytest.mark.slow
def test_engine_events_agree_with_exact_odds() -> None:
    sc = field(6)
    exact = bracket_odds(sc)
    n = 400
    wins = Counter(play_event(sc, seed=s)[0].champion for s in range(n))
    for name, p in exact.win.items():
        assert wins[name] / n == pytest.approx(p, abs=4 * (p * (1 - p) / n) ** 0.5 + 1e-9)


def test_exact_bracket_256_players_runs() -> None:
    sc = field(256)
    odds = bracket_odds(sc)
    assert len(odds.round_names) == 8
    assert sum(odds.win.values()) == pytest.approx(1.0)


def test_ranking_ties_and_lots() -> None:
    sc = field(8, ranking={"tiebreaks": [], "lots": False})
    record, _ = play_event(sc, seed=1)
    ranking = final_ranking(record, sc)
    ranks = [s.rank for s in ranking]
    # without tie-breaks, equal (round reached, points) share a rank: 1, 2, 2, 4 style
    for a, b in itertools.pairwise(ranking):
        if (a.reached, a.points) == (b.reached, b.points):
            assert a.rank == b.rank
    assert ranks[0] == 1
    with_lots = parse_scenario({**sc.to_dict(), "ranking": {"tiebreaks": [], "lots": True}})
    lots = final_ranking(record, with_lots, seed=3)
    assert sorted(s.rank for s in lots) == list(range(1, 9))
    assert lots == final_ranking(record, with_lots, seed=3)


def test_live_dashboard_renders_frames_and_ends_with_champion() -> None:
    sc = field(8, strategy={"kind": "naive"})
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, force_terminal=True)
    runner = LiveEvent(EventRun(sc, seed=2), speed=20_000, fps=2, sleep=lambda _: None)
    first = runner.frame()
    text = io.StringIO()
    Console(file=text, width=100, color_system=None).print(first)
    assert "On the boards" in text.getvalue() and "Bracket" in text.getvalue()
    record = runner.play(console)
    ranking = final_ranking(record, sc, seed=2)
    assert runner.done and ranking[0].name == record.champion
    final = io.StringIO()
    Console(file=final, width=100, color_system=None).print(runner.frame())
    assert "champion: " + record.champion in final.getvalue()
    # the same seed plays the same event live or not
    assert play_event(sc, seed=2)[0].champion == record.champion


def test_withdrawal_in_the_middle_of_a_match_keeps_its_games() -> None:
    data = {
        "players": [
            {"name": f"P{i}", "rating": 2500 - 20 * i, "withdrawn": i == 3} for i in range(4)
        ],
        "played": [{"red": "P0", "black": "P3", "stage": "slow", "result": "red"}],
    }
    sc = parse_scenario(data)
    state = sc.event_state()
    assert state.winner(1, 0) == "P0" and state.progress[(1, 0)].walkover == "P0"
    record, _ = play_event(sc, seed=1)
    first = record.rounds[0].matches[0]
    assert first.decided_in == "walkover" and len(first.games) == 1
    ranking = {s.name: s for s in final_ranking(record, sc)}
    # P3 scored nothing in the one game it played and lost the rest by walkover
    assert ranking["P3"].points == 0 and ranking["P3"].reached == "semi-final"
    p0_games = [g for m in record.matches for g in m.games if "P0" in (g.red, g.black)]
    assert ranking["P0"].points == sum(g.points["P0"] for g in p0_games) >= 3


def test_third_place_needs_four_players() -> None:
    with pytest.raises(ScenarioError) as err:
        field(3, bracket={"third_place": True})
    assert err.value.lines() == [
        "<scenario>: bracket.third_place: a match for third place needs two semi-finals "
        "(at least 4 players), got 3"
    ]


def test_third_place_games_can_be_entered() -> None:
    """A beat D and C beat B in the semi-finals; D v B is then the match for third place."""
    data = {
        "players": [
            {"name": n, "rating": r} for n, r in zip("ABCD", (2600, 2550, 2500, 2450), strict=True)
        ],
        "bracket": {"third_place": True},
        "played": [
            {"red": "A", "black": "D", "stage": "slow", "result": "red"},
            {"red": "D", "black": "A", "stage": "slow", "result": "draw"},
            {"red": "C", "black": "B", "stage": "slow", "result": "red"},
            {"red": "B", "black": "C", "stage": "slow", "result": "draw"},
            {"red": "D", "black": "B", "stage": "slow", "result": "red"},
        ],
    }
    sc = parse_scenario(data)
    third = sc.event_state().third_place
    assert third is not None and set(third.players) == {"D", "B"} and len(third.games) == 1
    record, _ = play_event(sc, seed=2)
    assert record.third_place is not None and record.third_place.games[0].replayed
    # a game between a finalist and a semi-final loser is refused with the reason
    bad = {**data, "played": [*data["played"][:4], {"red": "A", "black": "B", "stage": "slow",
                                                     "result": "red"}]}  # fmt: skip
    with pytest.raises(ScenarioError) as err:
        parse_scenario(bad).event_state()
    assert err.value.lines() == [
        "<scenario>: played[4]: A and B can only meet in the final (round 2) or in the match "
        "for third place, and A won their semi-final while B lost theirs"
    ]
