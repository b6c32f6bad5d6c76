"""Matches: where the table holds one pairing's games in one knockout event, the exact solver's
forecast of who goes through, scored against who did.

* **An event** is a year and the event text up to its first round marker (第N輪, 決賽, 加賽,
  快棋, ...) or the first player's name: ``2004年全國象棋甲級聯賽第八輪 廣東 許銀川 先和 湖北 汪洋``
  is ``2004年全國象棋甲級聯賽`` of 2004.
* **A match** is a pairing with at least two games in one event that is a knockout: one of its
  games is a rapid, blitz or tie-break game, or its event text has a knockout word (淘汰, 決賽,
  半決賽, 四分之一, 八分之一, 加賽). A round robin's two games between the same players are
  not a match. Master games with a result only.
* **Who went through** is the player with more points over the pairing's games in the event
  (tie-breaks included); a match level on points (decided by a game the table does not hold,
  or by draw odds) is left out and counted.
* **The forecast**, made from the walk-forward fit of the games before the match's year (the
  same fit that forecasts its games), is the exact solver's P(the player goes through) for the
  format the games show: the pairing's slow (classical and unknown-class) games, or two rapid
  games when it has none, then pairs of rapid games until a pair is won; each player's strength
  the fit's, its uncertainty integrated over (Gauss-Hermite, 16 nodes on the difference).
  Baselines: a coin (1/2), and the Elo baseline's ratings through the same solver (no Red
  advantage, draws at the earlier years' share).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from knockout.arrays import FloatArray
from knockout.backtest.scores import Score
from knockout.exact.solver import solve
from knockout.rules.book.formats import Format, Stage
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.strategies import get_strategy
from knockout.rules.model.players import Player
from knockout.rules.model.strength import ModelParams, PerClass, TimeClass
from knockout.strengths.table import GameRow, Outcome, TableClass, event_of

__all__ = [
    "KNOCKOUT_WORDS",
    "Match",
    "MatchModel",
    "MatchScores",
    "find_matches",
    "match_forecasts",
    "model_params",
    "score_matches",
]

#: Words of an event text that mark a knockout stage.
KNOCKOUT_WORDS = (
    "淘汰",
    "決賽",
    "决赛",
    "半決賽",
    "半决赛",
    "四分之一",
    "八分之一",
    "加賽",
    "加赛",
)
_NODES, _WEIGHTS = np.polynomial.hermite.hermgauss(16)


@dataclass(frozen=True)
class Match:
    """One pairing's games in one knockout event.

    Attributes:
        year: The event's year.
        event: The event's name (:func:`event_of`).
        players: The two players, in name order.
        games: Their games in the event, in table order.
        winner: 0 or 1: who went through (more points).
    """

    year: int
    event: str
    players: tuple[str, str]
    games: tuple[GameRow, ...]
    winner: int

    @property
    def slow_games(self) -> int:
        """Games of the scheduled stage: the slow ones (classical or unknown class)."""
        return sum(g.time_class in (TableClass.CLASSICAL, TableClass.UNKNOWN) for g in self.games)


def _points(games: Sequence[GameRow], player: str) -> float:
    total = 0.0
    for g in games:
        score = {Outcome.RED: 1.0, Outcome.DRAW: 0.5, Outcome.BLACK: 0.0}[g.result]
        total += score if g.red == player else 1.0 - score
    return total


def find_matches(games: Sequence[GameRow], start: int) -> tuple[list[Match], dict[str, int]]:
    """The matches of ``games`` (master games with a result) from year ``start`` on, and the
    pairings left out by reason."""
    groups: dict[tuple[int, str, tuple[str, str]], list[GameRow]] = defaultdict(list)
    for g in games:
        if g.kind != "master" or g.result is Outcome.UNKNOWN or g.year is None:
            continue
        if not (g.red and g.black):
            continue
        year, event = event_of(g)
        if year is None or year < start or not event:
            continue
        pair = (min(g.red, g.black), max(g.red, g.black))
        groups[(year, event, pair)].append(g)
    matches = []
    left: Counter[str] = Counter()
    for (year, event, pair), rows in groups.items():
        if len(rows) < 2:
            continue
        knockout = any(
            g.time_class in (TableClass.RAPID, TableClass.BLITZ, TableClass.TIEBREAK)
            or any(w in g.event for w in KNOCKOUT_WORDS)
            for g in rows
        )
        if not knockout:
            continue
        a, b = _points(rows, pair[0]), _points(rows, pair[1])
        if a == b:
            left["level on points (decided by a game not in the table, or by draw odds)"] += 1
            continue
        matches.append(Match(year, event, pair, tuple(rows), 0 if a > b else 1))
    return sorted(matches, key=lambda m: (m.year, m.event, m.players)), dict(left)


@dataclass(frozen=True)
class MatchModel:
    """What a year's forecasts know: the constants and every player's strength.

    Attributes:
        model: Red's advantage and ``draw_nu`` per class.
        strengths: Name to (mean, variance) of the player's strength that year.
        newcomer: (mean, variance) of a player not seen before.
    """

    model: ModelParams
    strengths: Mapping[str, tuple[float, float]]
    newcomer: tuple[float, float]


def _format(slow: int) -> Format:
    """The pairing's slow games (or two rapid games), then rapid pairs until a pair is won."""
    stages = []
    if slow > 0:
        stages.append(Stage("slow", slow, TimeClass.CLASSICAL, (60.0, 60.0), 10.0))
    else:
        stages.append(Stage("rapid", 2, TimeClass.RAPID, (15.0, 15.0), 10.0))
    stages.append(Stage("tiebreak", 2, TimeClass.RAPID, (15.0, 15.0), 10.0, repeat=True))
    return Format(preset="observed", stages=tuple(stages))


def match_forecasts(matches: Sequence[Match], models: Mapping[int, MatchModel]) -> FloatArray:
    """P(the match's first player goes through) for each match, by the exact solver, each
    from its year's :class:`MatchModel` (strength uncertainty integrated over)."""
    out = np.zeros(len(matches))
    by_format: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, m in enumerate(matches):
        by_format[(m.year, min(m.slow_games, 8))].append(i)
    strategy = get_strategy("rational")
    for (year, slow), idx in by_format.items():
        state = models[year]
        fmt = _format(slow)
        a_players, b_players, weights = [], [], []
        for i in idx:
            ma, va = state.strengths.get(matches[i].players[0], state.newcomer)
            mb, vb = state.strengths.get(matches[i].players[1], state.newcomer)
            sd = math.sqrt(2.0 * (va + vb))
            for node, weight in zip(_NODES, _WEIGHTS, strict=True):
                a_players.append(Player("A", ma - mb + sd * float(node)))
                b_players.append(Player("B", 0.0))
                weights.append(weight / math.sqrt(math.pi))
        pairing = Pairing.of(fmt, a_players, b_players, model=state.model, strategy=strategy)
        win = solve(pairing).win[:, 0] * np.array(weights)
        out[idx] = win.reshape(len(idx), len(_NODES)).sum(axis=1)
    return out


@dataclass(frozen=True)
class MatchScores:
    """The matches' forecasts and their scores (binary: went through or not).

    Attributes:
        matches: The matches scored.
        model: P(first player through) by the model.
        baselines: The same by each baseline.
        left_out: Pairings left out by reason.
    """

    matches: tuple[Match, ...]
    model: FloatArray
    baselines: dict[str, FloatArray]
    left_out: dict[str, int]

    def _scores(self, p: FloatArray) -> dict[str, Score]:
        won = np.array([m.winner == 0 for m in self.matches], dtype=np.float64)
        chance = np.where(won == 1.0, p, 1.0 - p)
        return {"log_loss": Score.of(-np.log(chance)), "brier": Score.of((p - won) ** 2)}

    def to_json(self) -> dict[str, object]:
        """``{"n", "model": {"log_loss", "log_loss_se", "brier", "brier_se"}, "baselines",
        "differences", "left_out"}``."""

        def flat(s: dict[str, Score]) -> dict[str, float]:
            out = {}
            for k, v in s.items():
                out[k] = v.mean
                out[f"{k}_se"] = v.stderr
            return out

        won = np.array([m.winner == 0 for m in self.matches], dtype=np.float64)
        diffs = {}
        for name, q in self.baselines.items():
            pm = np.where(won == 1.0, self.model, 1.0 - self.model)
            pq = np.where(won == 1.0, q, 1.0 - q)
            diffs[name] = {
                "log_loss": Score.of(np.log(pq) - np.log(pm)).to_json(),
                "brier": Score.of((self.model - won) ** 2 - (q - won) ** 2).to_json(),
            }
        return {
            "n": len(self.matches),
            "model": flat(self._scores(self.model)),
            "baselines": {k: flat(self._scores(v)) for k, v in self.baselines.items()},
            "differences": diffs,
            "left_out": self.left_out,
        }


def score_matches(
    matches: Sequence[Match],
    models: Mapping[int, MatchModel],
    elo: Mapping[int, MatchModel],
    left_out: Mapping[str, int],
) -> MatchScores:
    """Forecast and score ``matches`` with the model, a coin and the Elo baseline."""
    usable = [m for m in matches if m.year in models]
    return MatchScores(
        tuple(usable),
        match_forecasts(usable, models),
        {"coin": np.full(len(usable), 0.5), "elo": match_forecasts(usable, elo)},
        dict(left_out),
    )


def model_params(red_advantage: Mapping[str, float], draw_nu: Mapping[str, float]) -> ModelParams:
    """The match forecasts' constants: classical and rapid from the fit (rapid falls back to
    classical, as the fit does for a class with too few games)."""
    classical_a = red_advantage.get("classical", next(iter(red_advantage.values())))
    classical_nu = draw_nu.get("classical", next(iter(draw_nu.values())))
    a = PerClass(classical_a, red_advantage.get("rapid", classical_a), classical_a)
    nu = PerClass(classical_nu, draw_nu.get("rapid", classical_nu), classical_nu)
    return ModelParams(red_advantage=a, draw_nu=nu)
