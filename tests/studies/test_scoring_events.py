"""Berger tables, the simplified Swiss pairing and simulated events, against slow references."""

from __future__ import annotations

import numpy as np
import pytest

from knockout.points import DIFFERENCE, RATIO_COMPUTED, TRADITIONAL, get_scoring
from knockout.rules.model.strength import DEFAULT_MODEL, TimeClass, game_probabilities
from knockout.studies.scoring.events import (
    PointsTable,
    draw_ratings,
    play_games,
    scale_for,
    simulate_round_robin,
    simulate_swiss,
)
from knockout.studies.scoring.pairings import berger_table, first_swiss_round, swiss_round

# FIDE Handbook C.05, annex 1: Berger table for 5-6 players (first named has White/Red).
FIDE_BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def test_berger_table_is_fides() -> None:
    table = berger_table(6) + 1
    assert [[tuple(p) for p in rnd] for rnd in table.tolist()] == FIDE_BERGER_6


@pytest.mark.parametrize("n", [2, 4, 6, 8, 12, 20])
def test_berger_every_pair_once_colours_balanced(n: int) -> None:
    table = berger_table(n)
    assert table.shape == (n - 1, n // 2, 2)
    for rnd in table:
        assert sorted(rnd.ravel().tolist()) == list(range(n))
    assert len({frozenset(p) for p in table.reshape(-1, 2).tolist()}) == n * (n - 1) // 2
    reds = np.bincount(table[..., 0].ravel(), minlength=n)
    assert sorted(set(reds.tolist())) == sorted({n // 2, n // 2 - 1})
    with pytest.raises(ValueError, match="even number"):
        berger_table(n + 1)


def test_first_swiss_round() -> None:
    pairs = first_swiss_round(2, 8)
    assert pairs[0].tolist() == [[0, 4], [5, 1], [2, 6], [7, 3]]
    assert (pairs[1] == pairs[0]).all()


def reference_round(
    score: list[int], met: list[list[bool]], diff: list[int], last: list[int]
) -> tuple[list[tuple[int, int]], int]:
    """The simplified Swiss pairing of one event, written plainly."""
    n = len(score)
    order = sorted(range(n), key=lambda i: (-score[i], i))
    position = {p: k for k, p in enumerate(order)}
    groups = [score[p] for p in order]
    start = {g: groups.index(g) for g in groups}
    size = {g: groups.count(g) for g in groups}
    taken = [False] * n  # by place
    pairs: list[list[int]] = []
    for i in range(n):
        if taken[i]:
            continue
        taken[i] = True
        g = groups[i]
        half = size[g] // 2
        target = i + half if i - start[g] < half else i + 1

        def preference(j: int, g: int = g, target: int = target) -> tuple[int, int, int]:
            if groups[j] == g:
                return (0, abs(j - target), j < target)
            return (1, -groups[j], j)

        free = [j for j in range(n) if not taken[j]]
        unmet = [j for j in free if not met[order[i]][order[j]]]
        j = min(unmet, key=preference) if unmet else free[0]
        taken[j] = True
        pairs.append([order[i], order[j]])
    for j in reversed(range(len(pairs))):
        a, b = pairs[j]
        if not met[a][b]:
            continue
        for k in reversed(range(j)):
            c, d = pairs[k]
            if not met[a][c] and not met[b][d]:
                pairs[j], pairs[k] = [a, c], [b, d]
                break
            if not met[a][d] and not met[b][c]:
                pairs[j], pairs[k] = [a, d], [c, b]
                break
    out = []
    for a, b in pairs:
        hi, lo = (a, b) if position[a] < position[b] else (b, a)
        if diff[hi] != diff[lo]:
            hi_red = diff[hi] < diff[lo]
        elif last[hi] != last[lo]:
            hi_red = last[hi] < last[lo]
        else:
            hi_red = last[hi] <= 0
        out.append((hi, lo) if hi_red else (lo, hi))
    return out, sum(met[a][b] for a, b in out)


def reference_swiss(
    ratings: list[float], points: tuple[list[int], list[int]], u: np.ndarray
) -> tuple[list[int], list[int], list[int], int]:
    """A whole simplified Swiss event, one game at a time."""
    n, rounds = len(ratings), u.shape[0]
    score, prog, diff, last = [0] * n, [0] * n, [0] * n, [0] * n
    met = [[False] * n for _ in range(n)]
    kept = 0
    for rnd in range(rounds):
        if rnd == 0:
            pairs = [tuple(p) for p in first_swiss_round(1, n)[0].tolist()]
        else:
            pairs, k = reference_round(score, met, diff, last)
            kept += k
        for board, (red, black) in enumerate(pairs):
            p = game_probabilities(ratings[red], ratings[black], TimeClass.CLASSICAL)
            x = u[rnd, board]
            code = 0 if x < p.red else (1 if x < p.red + p.draw else 2)
            score[red] += points[0][code]
            score[black] += points[1][code]
            met[red][black] = met[black][red] = True
            diff[red] += 1
            diff[black] -= 1
            last[red], last[black] = 1, -1
        prog = [a + b for a, b in zip(prog, score, strict=True)]
    return score, prog, [(d + rounds) // 2 for d in diff], kept


def test_swiss_round_matches_the_reference() -> None:
    rng = np.random.default_rng(5)
    events, n = 40, 10
    score = rng.integers(0, 6, size=(events, n))
    met = rng.random((events, n, n)) < 0.25
    met = met | met.transpose(0, 2, 1)
    met[:, np.arange(n), np.arange(n)] = False
    diff = rng.integers(-2, 3, size=(events, n))
    last = rng.choice([-1, 1], size=(events, n))
    pairs, kept = swiss_round(score, met, diff, last)
    for e in range(events):
        ref, ref_kept = reference_round(
            score[e].tolist(), met[e].tolist(), diff[e].tolist(), last[e].tolist()
        )
        assert [tuple(p) for p in pairs[e].tolist()] == ref
        assert kept[e] == ref_kept


def test_swiss_event_matches_the_reference() -> None:
    rng = np.random.default_rng(11)
    events, n, rounds = 6, 12, 7
    ratings = draw_ratings(rng, events, n, mean=2400, sd=150)
    u = rng.random((events, rounds, n // 2))
    table = PointsTable.from_system(DIFFERENCE, 10)
    (sample,) = simulate_swiss(ratings, [table], u)
    for e in range(events):
        score, prog, reds, kept = reference_swiss(
            ratings[e].tolist(), (table.red.tolist(), table.black.tolist()), u[e]
        )
        assert sample.points[e].tolist() == score
        assert sample.progressive[e].tolist() == prog
        assert sample.reds[e].tolist() == reds
        assert sample.rematches[e] == kept


def test_swiss_100_players_11_rounds_has_no_rematches() -> None:
    rng = np.random.default_rng(3)
    ratings = draw_ratings(rng, 50, 100, mean=2300, sd=200)
    (sample,) = simulate_swiss(
        ratings, [PointsTable.from_system(TRADITIONAL, 1)], rng.random((50, 11, 50))
    )
    assert sample.rematches.sum() == 0
    assert (sample.points.sum(axis=1) == 2 * 11 * 50).all()  # 2 points a game, exactly
    assert set(np.unique(sample.reds).tolist()) <= {4, 5, 6, 7}


def test_round_robin_scores_one_set_of_games_under_every_system() -> None:
    rng = np.random.default_rng(2)
    systems = [TRADITIONAL, DIFFERENCE, RATIO_COMPUTED]
    scale = scale_for(systems)
    assert scale == 100
    tables = [PointsTable.from_system(s, scale) for s in systems]
    ratings = draw_ratings(rng, 200, 12, mean=2400, sd=100)
    trad, diff, computed = simulate_round_robin(ratings, tables, rng.random((200, 11, 6)))
    assert (trad.points.sum(axis=1) == 2 * 66 * 100).all()
    assert (trad.reds[0] == [6] * 6 + [5] * 6).all()
    # Same games: the difference method moves each Red win 0.1 down and each Black win 0.1 up,
    # so the totals differ by at most 0.1 a game.
    assert (np.abs(diff.points - trad.points) <= 11 * 10).all()
    assert computed.points.dtype == np.int64


def test_points_table() -> None:
    table = PointsTable.from_system(get_scoring("ratio-computed"), 100)
    assert table.red.tolist() == [163, 100, 0] and table.black.tolist() == [0, 100, 237]
    with pytest.raises(ValueError, match="not exact"):
        PointsTable.from_system(DIFFERENCE, 1)
    with pytest.raises(ValueError, match="needs moves"):
        PointsTable.from_system(get_scoring("round-robin"), 10)


def test_play_games_reproduces_the_seed_frequencies() -> None:
    """Equal players: Red wins 391/1218, draws 557/1218 (MODEL.md), within 4 standard errors."""
    rng = np.random.default_rng(8)
    n = 400_000
    codes = play_games(np.zeros(n), np.zeros(n), rng.random(n), DEFAULT_MODEL)
    counts = np.bincount(codes, minlength=3) / n
    for observed, expected in zip(counts, (391 / 1218, 557 / 1218, 270 / 1218), strict=True):
        assert abs(observed - expected) < 4 * np.sqrt(expected * (1 - expected) / n)
