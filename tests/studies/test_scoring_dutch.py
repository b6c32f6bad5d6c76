"""The scoring study's Dutch pairing, checked against the caissify-pairings library itself.

The library is driven directly: every round of a simulated event is paired again by
``caissify_pairings.generate_pairings`` from standings this test builds from the event's games,
and by the library's own checker (``caissify_pairings.fpc.check_trf``), which rebuilds the
standings from a TRF-16 file written by ``knockout.standings.trf``.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import networkx as nx
import numpy as np
import pytest
from caissify_pairings import generate_pairings
from caissify_pairings.engines.round_robin import berger_schedule
from caissify_pairings.fpc import check_trf
from hypothesis import given, settings
from hypothesis import strategies as st

from knockout.errors import InputError
from knockout.points import get_scoring
from knockout.scoring.rescore import point_scale
from knockout.standings.records import CrossTable, Kind, bye_entry, game_entries
from knockout.standings.tiebreaks import progressive_score
from knockout.standings.trf import to_trf
from knockout.studies.scoring import dutch
from knockout.studies.scoring.dutch import (
    _MATCHING,
    _plain_matching,
    plain_adjacency,
    play_dutch,
    play_dutch_event,
    simulate_dutch,
)
from knockout.studies.scoring.events import RESULT_CODES, PointsTable, draw_ratings
from knockout.studies.scoring.pairings import berger_table
from knockout.studies.scoring.report import (
    FEWER_TIES,
    MIN_EVENTS,
    claims,
    summary_markdown,
    verdict_events,
)
from knockout.studies.scoring.study import (
    DIFFERENTIAL_SUFFIX,
    SIMPLIFIED_SUFFIX,
    StudyResult,
    event_numbers,
    parse_study,
    run_study,
)


def _table(name: str) -> PointsTable:
    return PointsTable.from_system(get_scoring(name), 100)


def _event(n: int, rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return draw_ratings(rng, 1, n, mean=2300, sd=200)[0], rng.random((rounds, n // 2))


def _library_round(
    n: int, rounds: int, rnd: int, played: list[tuple[int, int, int, int]], table: PointsTable
) -> tuple[set[tuple[int, int]], int]:
    """The library's pairing of round ``rnd`` (1-based) from the games before it.

    ``played`` holds ``(round, red, black, result code)``, and ``(round, bye, -1, -1)`` for a
    bye. Standings as the library's README asks for them: scores in wins, colours of games
    played, floats from the scores before each round, byes.
    """
    win = int(table.red[0] + table.black[2])
    units = [[0] * n for _ in range(rounds + 1)]  # units[r][i]: after round r
    colours: list[list[str]] = [[] for _ in range(n)]
    floats: list[list[str]] = [[] for _ in range(n)]
    byes = [0] * n
    met = set()
    for r in range(1, rnd):
        units[r] = list(units[r - 1])
        for rr, a, b, code in played:
            if rr != r:
                continue
            if b < 0:
                units[r][a] += table.bye
                byes[a] += 1
                floats[a].append("down")
                continue
            units[r][a] += int(table.red[code])
            units[r][b] += int(table.black[code])
            colours[a].append("white")
            colours[b].append("black")
            sa, sb = units[r - 1][a], units[r - 1][b]
            floats[a].append("down" if sa > sb else "up" if sa < sb else "none")
            floats[b].append("down" if sb > sa else "up" if sb < sa else "none")
            met.add((a + 1, b + 1))
    players = [
        {
            "id": i + 1,
            "name": f"{i + 1:04d}",
            "score": 2 * units[rnd - 1][i] / win,
            "rating": 0,
            "starting_number": i + 1,
            "pairing_number": i + 1,
            "color_hist": colours[i],
            "float_history": floats[i],
            "bye_count": byes[i],
        }
        for i in range(n)
    ]
    # the library as it is: networkx's own matching function, not the study's plain adjacency
    assert nx.max_weight_matching is _MATCHING
    out = generate_pairings("dutch", players, met, rnd, rounds, bye_value=table.bye / (win / 2))
    games = {(p["white_id"] - 1, p["black_id"] - 1) for p in out if p["black_id"] is not None}
    bye = [p["white_id"] - 1 for p in out if p["black_id"] is None]
    return games, bye[0] if bye else -1


def _played(event) -> list[tuple[int, int, int, int]]:  # type: ignore[no-untyped-def]
    out = []
    for r in range(event.red.shape[0]):
        for a, b, code in zip(event.red[r], event.black[r], event.results[r], strict=True):
            out.append((r + 1, int(a), int(b), int(code)))
        if event.bye[r] >= 0:
            out.append((r + 1, int(event.bye[r]), -1, -1))
    return out


@pytest.mark.parametrize(
    ("n", "rounds", "pairing", "seed"),
    [
        (12, 6, "traditional", 1),
        (11, 6, "ratio", 2),
        (16, 7, "difference", 3),
        # the bundled event's 11 rounds with several score brackets a round
        pytest.param(40, 11, "traditional", 4, marks=pytest.mark.slow),
    ],
)
def test_each_round_is_the_librarys_own_pairing(
    n: int, rounds: int, pairing: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The study pairs with networkx on plain adjacency dicts; the library, re-pairing the
    same standings here, with networkx as it is: the pairings are the same round by round."""
    table = _table(pairing)
    ratings, u = _event(n, rounds, seed)
    graphs = []

    class Counted(dutch._Adjacency):
        def __init__(self, graph: nx.Graph) -> None:
            super().__init__(graph)
            graphs.append(len(graph))

    monkeypatch.setattr(dutch, "_Adjacency", Counted)
    event = play_dutch_event(ratings, table, u)
    assert graphs, "the study's pairing went through the plain adjacency"
    played = _played(event)
    for rnd in range(1, rounds + 1):
        games, bye = _library_round(n, rounds, rnd, played, table)
        ours = set(zip(event.red[rnd - 1].tolist(), event.black[rnd - 1].tolist(), strict=True))
        assert ours == games, f"round {rnd}"
        assert int(event.bye[rnd - 1]) == bye
    assert event.rematches == 0


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 14),
    density=st.floats(0.2, 1.0),
    top=st.sampled_from([1, 3, 2**70]),
    cardinality=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_plain_adjacency_finds_networkxs_own_matching(
    n: int, density: float, top: int, cardinality: bool, seed: int
) -> None:
    """The same matching, edge for edge and in the same orientation, as networkx's public
    function on the same graph: with few distinct weights (many tied optima) and with
    bit-packed weights beyond 64 bits, as the engine's."""
    rng = np.random.default_rng(seed)
    G = nx.Graph()
    G.add_nodes_from(rng.permutation(n).tolist())
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < density:
                G.add_edge(i, j, weight=int(rng.integers(1, 4)) * top + int(rng.integers(0, 2)))
    expected = nx.max_weight_matching(G, maxcardinality=cardinality)
    with plain_adjacency():
        assert nx.max_weight_matching is _plain_matching
        got = nx.max_weight_matching(G, maxcardinality=cardinality)
    assert nx.max_weight_matching is not _plain_matching  # restored
    assert got == expected
    assert sorted(got) == sorted(expected)


def test_plain_adjacency_restores_networkx_on_an_exception(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """networkx's own function is back after the block, also when the engine raises."""
    with pytest.raises(RuntimeError, match="inside"), plain_adjacency():
        assert nx.max_weight_matching is _plain_matching
        raise RuntimeError("inside")
    assert nx.max_weight_matching is _MATCHING

    def failing(*args: object, **kwargs: object) -> None:
        assert nx.max_weight_matching is _plain_matching
        raise ValueError("engine failed")

    monkeypatch.setattr(dutch, "generate_pairings", failing)
    ratings, u = _event(8, 3, 4)
    with pytest.raises(ValueError, match="engine failed"):
        play_dutch_event(ratings, _table("traditional"), u)
    assert nx.max_weight_matching is _MATCHING


def test_plain_adjacency_leaves_other_graphs_to_networkx() -> None:
    """Directed graphs and multigraphs go to networkx's public function, which refuses them."""
    for graph in (nx.DiGraph([(0, 1)]), nx.MultiGraph([(0, 1)])):
        with plain_adjacency(), pytest.raises(nx.NetworkXNotImplemented):
            nx.max_weight_matching(graph)


def _cross_table(event, system: str | None = None) -> CrossTable:  # type: ignore[no-untyped-def]
    """The event's games as knockout.standings records (classical points by default)."""
    names = [f"p{i + 1:03d}" for i in range(event.red.shape[1] * 2 + (event.bye >= 0).any())]
    scale = {} if system is None else {"scale": point_scale(get_scoring(system))}
    entries = []
    for r, a, b, code in _played(event):
        if b < 0:
            entries.append((names[a], bye_entry(r, Kind.PAIRING_BYE, **scale)))
        else:
            entries += game_entries(r, names[a], names[b], RESULT_CODES[code], **scale)
    return CrossTable.from_entries(names, entries, title="simulated event", **scale)


@pytest.mark.parametrize(("n", "seed"), [(14, 4), (13, 5)])
def test_the_librarys_checker_finds_no_discrepancy(n: int, seed: int) -> None:
    """Re-paired from a TRF file by the library's own checker: every round agrees."""
    ratings, u = _event(n, 7, seed)
    event = play_dutch_event(ratings, _table("traditional"), u)
    report = check_trf(to_trf(_cross_table(event)))
    assert report["summary"]["rounds_checked"] == 7
    assert report["summary"]["total_discrepancies"] == 0, report["rounds"]


def test_byes_are_scored_as_the_standings_score_them() -> None:
    """Odd players: one bye a round, nobody twice; points and progressive scores equal those of
    knockout.standings under each system."""
    n, rounds = 9, 6
    rng = np.random.default_rng(8)
    ratings = draw_ratings(rng, 3, n, mean=2300, sd=200)
    u = rng.random((3, rounds, n // 2))
    names = ["traditional", "difference", "ratio-computed"]
    tables = [_table(s) for s in names]
    samples = simulate_dutch(ratings, tables, u, pairing=tables[0])
    byes = play_dutch(ratings, tables[0], u)[3]
    assert (byes >= 0).all()
    for e in range(3):
        assert len(set(byes[e].tolist())) == rounds
        event = play_dutch_event(ratings[e], tables[0], u[e])
        for system, sample in zip(names, samples, strict=True):
            ct = _cross_table(event, system)
            players = ct.players
            points = [ct.score(p) for p in players]
            assert [Decimal(int(x)) / 100 for x in sample.points[e]] == points
            progressive = [progressive_score(ct, p) for p in players]
            assert [Decimal(int(x)) / 100 for x in sample.progressive[e]] == progressive
            assert (sample.games[e] == rounds - (byes[e][:, None] == np.arange(n)).sum(0)).all()
    assert tables[1].bye == 210  # difference: a bye is the larger win, 2.1


def test_a_shorter_run_is_the_start_of_a_longer_one() -> None:
    """The first K events of a study's event are the same whatever its number of simulations:
    a short Dutch run is the start of a longer one on the same seed."""
    spec = parse_study(STUDY).events[2]
    assert spec.dutch
    long_r, long_u = event_numbers(replace(spec, simulations=9), np.random.default_rng(5))
    short_r, short_u = event_numbers(replace(spec, simulations=4), np.random.default_rng(5))
    assert np.array_equal(long_r[:4], short_r) and np.array_equal(long_u[:4], short_u)
    assert not np.array_equal(long_r[4], long_r[3])
    table = _table("traditional")
    long = play_dutch(long_r, table, long_u)
    short = play_dutch(short_r, table, short_u)
    for a, b in zip(long, short, strict=True):
        assert np.array_equal(a[:4], b)


@pytest.mark.system
def test_workers_do_not_change_the_events() -> None:
    rng = np.random.default_rng(9)
    ratings = draw_ratings(rng, 4, 10, mean=2300, sd=200)
    u = rng.random((4, 4, 5))
    one = play_dutch(ratings, _table("traditional"), u, workers=1)
    two = play_dutch(ratings, _table("traditional"), u, workers=2)
    for a, b in zip(one, two, strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12, 14, 20])
def test_berger_tables_equal_the_librarys(n: int) -> None:
    ours = (berger_table(n) + 1).tolist()
    assert [[list(pair) for pair in rnd] for rnd in berger_schedule(n)] == ours


STUDY = {
    "name": "both pairings",
    "seed": 11,
    "systems": ["traditional", "difference", "ratio"],
    "events": [
        {"name": "rr", "format": "round-robin", "players": 8, "simulations": 200},
        {
            "name": "swiss-simple",
            "format": "swiss",
            "players": 12,
            "rounds": 5,
            "simulations": 40,
            "pairing_system": "simplified",
        },
        {
            "name": "swiss-dutch",
            "format": "swiss",
            "players": 12,
            "rounds": 5,
            "simulations": 12,
            "pairing_system": "dutch",
        },
        {
            "name": "swiss-odd",
            "format": "swiss",
            "players": 9,
            "rounds": 4,
            "simulations": 4,
            "pairing_system": "dutch",
            "pairing": "own",
        },
    ],
}


@pytest.fixture(scope="module")
def both() -> StudyResult:
    """The study run; its simulated rows counted as MIN_EVENTS events where they have fewer
    (a dozen Dutch events keep the test quick; the tests here are about which event decides,
    not about the count, which tests/studies/test_scoring_study.py checks)."""
    messages: list[str] = []
    result = run_study(parse_study(STUDY), progress=messages.append)
    assert any("swiss-dutch: Dutch pairing, 1/12 events" in m and "left" in m for m in messages)
    assert any("swiss-odd: Dutch pairing, 12/12 events" in m for m in messages)  # 3 systems
    return replace(
        result,
        rows=tuple(
            replace(r, simulations=max(r.simulations, MIN_EVENTS))
            if r.method == "simulation"
            else r
            for r in result.rows
        ),
    )


def test_the_study_runs_under_both_pairing_systems(both: StudyResult) -> None:
    labels = {r.event for r in both.rows}
    assert {"rr", "swiss-simple", "swiss-dutch", "swiss-odd"} <= labels
    assert "swiss-dutch" + SIMPLIFIED_SUFFIX in labels
    assert "swiss-dutch" + DIFFERENTIAL_SUFFIX in labels
    assert "swiss-odd" + SIMPLIFIED_SUFFIX not in labels  # odd: the simplification has no byes
    for system in ("traditional", "ratio"):
        for metric in ("extra_red_points", "extra_red_share", "top_tie", "strongest_first"):
            dutch = both.value("swiss-dutch", system, metric)
            simple = both.value("swiss-dutch" + SIMPLIFIED_SUFFIX, system, metric)
            diff = both.value("swiss-dutch" + DIFFERENTIAL_SUFFIX, system, metric)
            assert diff.value == pytest.approx(dutch.value - simple.value, abs=1e-12)
            # a paired difference's standard error, checked against its bound
            assert diff.se <= dutch.se + simple.se + 1e-12
    assert [e.name for e in verdict_events(both.study)] == ["rr", "swiss-dutch", "swiss-odd"]
    text = summary_markdown(both)
    assert "## FIDE's Dutch pairing against the simplification" in text
    assert "The verdicts rest on: rr, swiss-dutch, swiss-odd." in text


def _with(result: StudyResult, changes: dict[tuple[str, str], tuple[float, float]]) -> StudyResult:
    rows = []
    for r in result.rows:
        key = (r.event, r.metric)
        rows.append(replace(r, value=changes[key][0], se=changes[key][1]) if key in changes else r)
    return replace(result, rows=tuple(rows))


def _verdict(result: StudyResult, start: str) -> str:
    return next(c.verdict for c in claims(result) if c.claim.startswith(start))


SWISS_CLAIM = "In a Swiss event, players with more Reds"


def test_verdicts_follow_the_dutch_figures(both: StudyResult) -> None:
    """Contradicting numbers: the Dutch event's figures decide, the simplified ones do not."""
    twin = "swiss-dutch" + SIMPLIFIED_SUFFIX
    dutch_high = _with(
        both,
        {
            ("swiss-dutch", "extra_red_points"): (1.0, 0.01),
            (twin, "extra_red_points"): (-1.0, 0.01),
            ("swiss-simple", "extra_red_points"): (-1.0, 0.01),
        },
    )
    assert _verdict(dutch_high, SWISS_CLAIM) == "holds"
    dutch_low = _with(
        both,
        {
            ("swiss-dutch", "extra_red_points"): (-1.0, 0.01),
            (twin, "extra_red_points"): (1.0, 0.01),
            ("swiss-simple", "extra_red_points"): (1.0, 0.01),
        },
    )
    assert _verdict(dutch_low, SWISS_CLAIM) == "does not hold"
    noisy = _with(both, {("swiss-dutch", "extra_red_points"): (0.1, 0.1)})
    assert _verdict(noisy, SWISS_CLAIM) == "cannot be settled by these data"
    # the summary says what the simplified pairing of the same events would have concluded
    assert (
        "In a Swiss event, players with more Reds finish higher (the seed's evidence). would be "
        "HOLDS, where the Dutch pairing gives DOES NOT HOLD" in (summary_markdown(dutch_low))
    )
    # the twin's figures all equal to the Dutch ones: every verdict the same
    dutch_rows = {(r.system, r.metric): r for r in dutch_high.rows if r.event == "swiss-dutch"}
    same = replace(
        dutch_high,
        rows=tuple(
            replace(r, value=dutch_rows[r.system, r.metric].value,
                    se=dutch_rows[r.system, r.metric].se)
            if r.event == twin else r
            for r in dutch_high.rows
        ),
    )  # fmt: skip
    assert "would be the same" in summary_markdown(same)
    # the odd Dutch event, which the simplification cannot pair, is judged in both views
    assert "same events (swiss-odd kept: it has no byes): every verdict" in summary_markdown(same)


def test_tie_verdict_follows_the_dutch_event(both: StudyResult) -> None:
    base = both.study.baseline

    def tied(dutch_new: float, simple_new: float) -> StudyResult:
        rows = []
        new = {"rr": 0.01, "swiss-odd": 0.01, "swiss-dutch": dutch_new}
        new |= {"swiss-simple": simple_new, "swiss-dutch" + SIMPLIFIED_SUFFIX: simple_new}
        for r in both.rows:
            if r.method == "simulation" and r.event in new and r.metric == "top_tie":
                value = 0.4 if r.system == base else new[r.event]
                rows.append(replace(r, value=value, se=0.001))
            elif r.event in new and r.metric == "top_tie_minus_baseline":
                rows.append(replace(r, value=new[r.event] - 0.4, se=0.001))
            elif r.event in new and r.metric == "top_tie_excess":
                rows.append(replace(r, value=new[r.event] - FEWER_TIES * 0.4, se=0.001))
            else:
                rows.append(r)
        return replace(both, rows=tuple(rows))

    claim = "The new scoring greatly reduces equal scores"
    assert _verdict(tied(0.01, 0.39), claim) == "holds"
    assert _verdict(tied(0.39, 0.01), claim) == "does not hold"


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (
            {"format": "swiss", "players": 11, "rounds": 5},
            "events[0].players: expected an even number with pairing_system = 'simplified'",
        ),
        (
            {"format": "round-robin", "players": 8, "pairing_system": "dutch"},
            "events[0].pairing_system: a round robin is paired by the Berger tables",
        ),
        ({"format": "swiss", "players": 12, "rounds": 5, "pairing_system": "burstein"}, "dutch"),
        ({"format": "round-robin", "players": 7}, "events[0].players: expected an even number"),
    ],
)
def test_pairing_system_problems(event: dict[str, object], expected: str) -> None:
    raw = {"events": [{"name": "e", "simulations": 10, **event}]}
    with pytest.raises(InputError) as exc:
        parse_study(raw, source="s.toml")
    lines = [str(p) for p in exc.value.problems]
    assert any(expected in line for line in lines), lines


def test_odd_players_are_accepted_with_the_dutch_system() -> None:
    raw = {
        "events": [
            {
                "name": "e",
                "simulations": 10,
                "format": "swiss",
                "players": 11,
                "rounds": 5,
                "pairing_system": "dutch",
            }
        ]
    }
    spec = parse_study(raw).events[0]
    assert spec.dutch and not spec.differential
