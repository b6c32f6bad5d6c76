"""Pairings for simulated round-robin and Swiss events, vectorised over the simulated events.

Players are indices ``0 .. n-1``; in a Swiss event index order is the initial ranking (0 is the
top seed). A round's pairings are an integer array ``(..., boards, 2)`` of ``(red, black)``.

**Round robin** (:func:`berger_table`): the FIDE Berger tables (Handbook C.05, annex 1). With
``n`` players (even), players ``1 .. n-1`` rotate and player ``n`` is fixed: in round ``r`` the
rotating players are listed from ``1 + (r - 1) * n / 2`` (mod ``n - 1``); the first of them plays
player ``n`` (who has Black in odd rounds and Red in even ones), and the ``k``-th from each end
play each other, the earlier one with Red. Every pair meets once; every player has ``n/2`` or
``n/2 - 1`` Reds.

**Swiss** (:func:`swiss_round`), a documented simplification (not FIDE Dutch):

* Round 1: the top half plays the bottom half by initial ranking (1 v n/2+1, 2 v n/2+2, ...);
  the higher-ranked player has Red on boards 1, 3, 5, ... and Black on boards 2, 4, 6, ...
* Later rounds, by score groups: players are ordered by pairing score, then initial ranking;
  equal scores form a score group. Going down the order, the highest unpaired player is paired
  with the unpaired player he has not met who is nearest to his ideal partner: for a player in
  the top half of his group, the player half a group further down (1 v 5, 2 v 6, ... in a group
  of 8: the Dutch system's S1 v S2); otherwise the next player (a nearer place wins, a later one
  on a tie). If nobody of his group is left, he floats down to the highest unpaired player of
  the next group. If the last players left have all met, the rematch is undone by swapping
  partners with the nearest earlier pair that allows it; only if no swap works is a rematch kept
  (counted and reported). FIDE's other Dutch criteria (colour-driven transpositions, float
  history, absolute colour limits) are not applied.
* Colours: the player with fewer Reds than Blacks so far (the lower colour difference) gets Red;
  if equal, the one who had Black last gets Red; if still equal, the higher-ranked player gets the
  colour opposite to his last one. This alternates colours and keeps them balanced.

The number of players must be even (no byes).
"""

from __future__ import annotations

import numpy as np

from knockout.arrays import BoolArray, Int64Array

__all__ = ["berger_table", "first_swiss_round", "swiss_colours", "swiss_round"]


def _check_even(n: int) -> None:
    if n < 2 or n % 2:
        raise ValueError(f"expected an even number of players >= 2, got {n}")


def berger_table(n: int) -> Int64Array:
    """The Berger round-robin table for ``n`` players (even).

    Returns:
        ``(n - 1, n // 2, 2)``: for each round and board, ``(red, black)`` player indices.

    >>> berger_table(4).tolist()
    [[[0, 3], [1, 2]], [[3, 2], [0, 1]], [[1, 3], [2, 0]]]
    """
    _check_even(n)
    m, half = n - 1, n // 2
    table = np.empty((m, half, 2), dtype=np.int64)
    start = 0
    for r in range(m):
        s = [(start + i) % m for i in range(m)]
        table[r, 0] = (m, s[0]) if r % 2 else (s[0], m)
        for k in range(1, half):
            table[r, k] = (s[k], s[m - k])
        start = (start + half) % m
    return table


def first_swiss_round(events: int, n: int) -> Int64Array:
    """Round 1 of the simplified Swiss: top half v bottom half, colours alternating by board.

    Returns:
        ``(events, n // 2, 2)`` ``(red, black)`` pairs.
    """
    _check_even(n)
    half = n // 2
    top = np.arange(half, dtype=np.int64)
    bottom = top + half
    top_red = top % 2 == 0
    pairs = np.stack([np.where(top_red, top, bottom), np.where(top_red, bottom, top)], axis=-1)
    return np.broadcast_to(pairs, (events, half, 2)).copy()


def swiss_colours(
    pairs: Int64Array, position: Int64Array, colour_diff: Int64Array, last: Int64Array
) -> Int64Array:
    """Give each pair its colours by the simplified Swiss colour rule.

    Args:
        pairs: ``(E, B, 2)`` player indices, in any order within a pair.
        position: ``(E, n)`` each player's place in this round's order (0 = top).
        colour_diff: ``(E, n)`` Reds minus Blacks so far.
        last: ``(E, n)`` last colour: ``+1`` Red, ``-1`` Black, ``0`` none yet.

    Returns:
        ``(E, B, 2)`` ``(red, black)`` pairs.
    """
    a, b = pairs[..., 0], pairs[..., 1]
    higher_first = np.take_along_axis(position, a, 1) < np.take_along_axis(position, b, 1)
    hi, lo = np.where(higher_first, a, b), np.where(higher_first, b, a)
    d_hi, d_lo = np.take_along_axis(colour_diff, hi, 1), np.take_along_axis(colour_diff, lo, 1)
    l_hi, l_lo = np.take_along_axis(last, hi, 1), np.take_along_axis(last, lo, 1)
    hi_red = np.where(
        d_hi != d_lo,
        d_hi < d_lo,
        np.where(l_hi != l_lo, l_hi < l_lo, l_hi <= 0),
    )
    return np.stack([np.where(hi_red, hi, lo), np.where(hi_red, lo, hi)], axis=-1)


def _repair(pairs: Int64Array, met: BoolArray) -> Int64Array:
    """Undo rematches by swapping partners with the nearest earlier pair that allows it.

    Returns:
        ``(E,)`` rematches that could not be undone.
    """
    events, boards, _ = pairs.shape
    rows = np.arange(events)
    for j in range(boards - 1, -1, -1):
        bad = met[rows, pairs[:, j, 0], pairs[:, j, 1]]
        for k in range(j - 1, -1, -1):
            idx = np.flatnonzero(bad)
            if idx.size == 0:
                break
            a, b = pairs[idx, j, 0], pairs[idx, j, 1]
            c, d = pairs[idx, k, 0], pairs[idx, k, 1]
            one = ~met[idx, a, c] & ~met[idx, b, d]
            two = ~one & ~met[idx, a, d] & ~met[idx, b, c]
            pairs[idx[one], j, 1], pairs[idx[one], k, 0] = c[one], b[one]
            pairs[idx[two], j, 1], pairs[idx[two], k, 1] = d[two], b[two]
            bad[idx[one | two]] = False
    return np.asarray(met[rows[:, None], pairs[..., 0], pairs[..., 1]].sum(1), dtype=np.int64)


def swiss_round(
    score: Int64Array, met: BoolArray, colour_diff: Int64Array, last: Int64Array
) -> tuple[Int64Array, Int64Array]:
    """One later round of the simplified Swiss, for many events at once.

    Args:
        score: ``(E, n)`` pairing scores so far (whole numbers; equal scores form a score group).
        met: ``(E, n, n)`` who has met whom.
        colour_diff: ``(E, n)`` Reds minus Blacks so far.
        last: ``(E, n)`` last colour (``+1`` Red, ``-1`` Black, ``0`` none).

    Returns:
        ``(E, n // 2, 2)`` ``(red, black)`` pairs, board 1 first, and ``(E,)`` rematches kept.
    """
    events, n = score.shape
    _check_even(n)
    rows = np.arange(events)
    places = np.broadcast_to(np.arange(n), score.shape)
    # Order by score (descending), then initial ranking (the index).
    order = np.lexsort((places, -score), axis=1)
    position = np.empty_like(order)
    np.put_along_axis(position, order, places, 1)
    ordered = np.take_along_axis(score, order, 1)
    group = np.concatenate(
        [np.zeros((events, 1), dtype=np.int64), np.cumsum(ordered[:, 1:] != ordered[:, :-1], 1)],
        axis=1,
    )
    in_group = group[:, :, None] == np.arange(n)  # (E, place, group)
    starts, sizes = np.argmax(in_group, axis=1), in_group.sum(axis=1)
    half = np.take_along_axis(sizes // 2, group, 1)
    offset = places - np.take_along_axis(starts, group, 1)
    # A top-half player's ideal partner is half a group further down; anyone else's the next.
    target = np.where(offset < half, places + half, places + 1)
    free = np.ones((events, n), dtype=bool)  # by place in ``order``
    pairs = np.empty((events, n // 2, 2), dtype=np.int64)
    far = 4 * n * n
    for board in range(n // 2):
        top = np.argmax(free, axis=1)
        free[rows, top] = False
        player = order[rows, top]
        unmet = ~np.take_along_axis(met[rows, player], order, 1)
        g_top = group[rows, top][:, None]
        t = target[rows, top][:, None]
        distance = np.abs(places - t)
        preference = np.where(
            group == g_top,
            2 * distance + (places < t),
            far * (group - g_top) + places,
        )
        candidates = free & unmet
        has = candidates.any(axis=1)
        pick = np.argmin(np.where(candidates, preference, np.iinfo(np.int64).max), axis=1)
        partner = np.where(has, pick, np.argmax(free, axis=1))
        free[rows, partner] = False
        pairs[:, board, 0] = player
        pairs[:, board, 1] = order[rows, partner]
    rematches = _repair(pairs, met)
    return swiss_colours(pairs, position, colour_diff, last), rematches
