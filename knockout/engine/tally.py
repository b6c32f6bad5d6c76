"""The engine's plays counted into the answer types every walker fills (knockout.answers).

Playing a scenario many times through the SimPy engine and counting gives the same
:class:`~knockout.answers.MatchOdds` / :class:`~knockout.answers.BracketOdds` as the exact solver
and the Monte Carlo, with standard errors, so the three walkers are compared on one footing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np

from knockout.answers import BracketTally, MatchTally, branch_units
from knockout.engine.event import EventRecord
from knockout.engine.match import MatchRecord
from knockout.game import Colour
from knockout.rules.chain.pairing import Pairing
from knockout.rules.scenario.aggregate import Scenario

__all__ = ["tally_events", "tally_matches"]


def tally_matches(records: Iterable[MatchRecord], scenario: Scenario) -> MatchTally:
    """Count played matches of the scenario's two players (in scenario order).

    The bidding branches' values come from the model at the scenario's ratings, summed over the
    matches that reached the sudden-death game. A match record does not keep the strengths drawn
    for it, so with uncertain ratings (``rating_sd``) these are the values at the ratings, not
    averaged over the draws as the exact solver and the Monte Carlo average them; the counts
    (wins, stages, 甲, choices) are the engine's own either way.
    """
    a, b = scenario.players
    players = (a.name, b.name)
    stage_names = scenario.format.stage_names
    pairing = Pairing.of(scenario.format, a, b, model=scenario.model, strategy=scenario.strategy)
    game, bid_stage = pairing.bidding_game, scenario.format.bidding_stage
    runs = 0
    wins = [0, 0]
    decided = [[0, 0] for _ in stage_names]
    games: Counter[int] = Counter()
    reached = chooser_a = chooser_won = chooser_a_won = announce_red = objects = 0
    stage_index = {name: k for k, name in enumerate(stage_names)}
    walkovers: set[str | None] = set()
    for r in records:
        runs += 1
        walkovers.add(r.winner if r.decided_in == "walkover" else None)
        side = players.index(r.winner)
        wins[side] += 1
        if r.decided_in in stage_index:
            decided[stage_index[r.decided_in]][side] += 1
        games[len(r.games)] += 1
        bid = next((g for g in r.games if g.announce is not None), None)
        if bid is not None:
            reached += 1
            chooser_a += bid.chooser == players[0]
            chooser_won += bid.chooser == r.winner
            chooser_a_won += bid.chooser == r.winner == players[0]
            announce_red += bid.announce is Colour.RED
            objects += bid.reply is not None and bid.reply.value == "object"
    counts = np.array([chooser_a, reached - chooser_a], dtype=np.int64)[:, None]
    values = (
        np.zeros((2, 4))
        if game is None
        else np.stack([game.branch_values(pairing.advantage(side))[0] for side in (0, 1)])
    )
    return MatchTally(
        runs=runs,
        wins=(wins[0], wins[1]),
        decided=tuple((a, b) for a, b in decided),
        games=dict(games),
        reached=reached,
        chooser_a=chooser_a,
        chooser_won=chooser_won,
        announce_red=announce_red,
        objects=objects,
        walkover=walkovers.pop() if len(walkovers) == 1 else None,
        chooser_a_won=chooser_a_won,
        branch_sum=tuple((counts * branch_units(values)).ravel().tolist()),
        branch_sq=tuple((counts * branch_units(values**2)).ravel().tolist()),
        time_class=None if bid_stage is None else pairing.stage_class(bid_stage).value,
    )


def tally_events(records: Iterable[EventRecord], scenario: Scenario) -> BracketTally:
    """Count played events of ``scenario`` (reach in bracket order: ``bracket.players``)."""
    ratings = {p.name: p.rating for p in scenario.players}
    top = max(ratings.values())
    runs = top_rated = upsets = upsets_sq = 0
    reach: list[list[int]] | None = None
    games: Counter[int] = Counter()
    for rec in records:
        names = rec.bracket.players
        rounds = rec.bracket.rounds
        if reach is None:
            reach = [[0] * (rounds + 1) for _ in names]
        out_in = {m.loser: r.number for r in rec.rounds for m in r.matches}
        for i, name in enumerate(names):
            last = out_in.get(name, rounds + 1)  # the round a player lost in
            for k in range(min(last, rounds)):
                reach[i][k] += 1
            reach[i][rounds] += name == rec.champion
        runs += 1
        top_rated += ratings[rec.champion] == top
        played = [m for m in rec.matches if m.decided_in != "walkover"]
        n_upsets = sum(ratings[m.winner] < ratings[m.loser] for m in played)
        upsets += n_upsets
        upsets_sq += n_upsets * n_upsets
        games[sum(len(m.games) for m in rec.matches)] += 1
    assert reach is not None, "no events to count"
    return BracketTally(
        runs=runs,
        reach=tuple(tuple(r) for r in reach),
        top_rated_wins=top_rated,
        upsets=upsets,
        upsets_squared=upsets_sq,
        games=dict(games),
    )
