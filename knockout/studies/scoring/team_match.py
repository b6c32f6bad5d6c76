"""Exact odds of one match of seed 001's team league: all 81 outcomes of its four boards.

A match has four boards, board 1 the captains'; if a captain has Red his three team-mates have
Black (the home side chooses its captain's colour). Each board is one game under the shared model
(:func:`knockout.rules.model.strength.game_probabilities`, equal clocks on a board, the board's time
class from its clock), the boards independent. Every one of the ``3 ** 4 = 81`` combinations of the
home side's results is scored once by the league's own rules
(:class:`knockout.scoring.league.LeagueMatch`: board points, match points, the narrow 1 : 0.5
matches) into an :class:`OutcomeTable`; a match's odds are the product of its boards'
probabilities summed over that table. Nothing is sampled.

Why here, in the scoring study: the odds need the game model (``knockout.rules``) and the league's
points (``knockout.scoring``). ``knockout.scoring`` may not import ``knockout.rules`` (the scoring
layer knows nothing of the match chain), and the league season simulation that uses these odds
(:mod:`knockout.studies.scoring.league_season`) may not import ``knockout.exact``; the study layer
may import both.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from knockout.arrays import FloatArray, Int64Array
from knockout.game import Colour
from knockout.io.teams import BOARDS, TeamMatchFile
from knockout.rules.model.players import Player
from knockout.rules.model.strength import ModelParams, TimeClass, game_probabilities
from knockout.scoring.league import LEAGUE_RULES, Board, LeagueMatch, LeagueRules
from knockout.standings.records import Outcome

__all__ = [
    "KINDS",
    "OUTCOMES",
    "MatchOdds",
    "OutcomeTable",
    "SideOdds",
    "TeamMatchOdds",
    "best_colour",
    "board_probabilities",
    "match_odds",
    "odds_json",
    "outcome_probabilities",
    "outcome_table",
    "team_match_odds",
]

#: The home side's results in the order of the result codes 0, 1, 2.
RESULTS = (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)
#: The 81 outcomes of a match (the home side's result on boards 1-4); index ``27a + 9b + 3c + d``.
OUTCOMES: tuple[tuple[Outcome, ...], ...] = tuple(itertools.product(RESULTS, repeat=BOARDS))
#: A side's kinds of match result, in the order of :attr:`OutcomeTable.kind`.
KINDS = ("win", "narrow_win", "narrow_loss", "loss")


def _scale(values: Sequence[Decimal]) -> int:
    """The smallest power of ten that makes every value whole."""
    places = [max(0, -int(v.normalize().as_tuple().exponent)) for v in values]
    return int(10 ** max(places, default=0))


@dataclass(frozen=True)
class OutcomeTable:
    """The 81 outcomes of a match whose home captain has ``captain``, scored by the league's rules.

    Points are whole numbers of ``1 / scale`` points, so totals and ties stay exact.

    Attributes:
        captain: The home captain's colour.
        scale: Units per point.
        match_points: ``(81, 2)`` home and away match points.
        board_points: ``(81, 2)`` home and away board points.
        kind: ``(81, 2)`` each side's kind of result, an index into :data:`KINDS` (-1 where the
            board totals are equal and the rules name no winner).
        games: ``(81, 2, 4)`` each side's Black wins, Red wins, Black draws, Red draws.
        equal_totals: Outcomes whose board totals are equal (the rules then name no winner).
    """

    captain: Colour
    scale: int
    match_points: Int64Array
    board_points: Int64Array
    kind: Int64Array
    games: Int64Array
    equal_totals: int


@cache
def outcome_table(captain: Colour, rules: LeagueRules = LEAGUE_RULES) -> OutcomeTable:
    """Score every outcome with :class:`~knockout.scoring.league.LeagueMatch` (``rules``)."""
    colours = (captain, *(captain.other for _ in range(rules.boards - 1)))
    matches = []
    equal = 0
    for outcomes in OUTCOMES:
        boards = tuple(
            Board(n, c, o) for n, (c, o) in enumerate(zip(colours, outcomes, strict=True), 1)
        )
        match = LeagueMatch(1, "home", "away", boards, rules)
        home_bp, away_bp = match.board_points
        equal += home_bp == away_bp
        matches.append(match)
    decimals = [
        rules.win,
        rules.narrow_win,
        rules.narrow_loss,
        rules.loss,
        *(x for m in matches for x in m.board_points),
    ]
    scale = _scale(decimals)
    mp = np.zeros((len(OUTCOMES), 2), dtype=np.int64)
    bp = np.zeros_like(mp)
    kind = np.zeros_like(mp)
    games = np.zeros((len(OUTCOMES), 2, 4), dtype=np.int64)
    order = (
        (Colour.BLACK, Outcome.WIN),
        (Colour.RED, Outcome.WIN),
        (Colour.BLACK, Outcome.DRAW),
        (Colour.RED, Outcome.DRAW),
    )
    for i, m in enumerate(matches):
        bp[i] = [int(x * scale) for x in m.board_points]
        if m.board_points[0] != m.board_points[1]:
            mp[i] = [int(x * scale) for x in m.match_points]
            for side, team in enumerate(("home", "away")):
                won = m.is_won_by(team)
                kind[i, side] = (0 if won else 3) if not m.is_narrow else (1 if won else 2)
        else:  # no winner under the rules: no kind, no match points (counted in equal_totals)
            kind[i] = (-1, -1)
        for side, team in enumerate(("home", "away")):
            played = m.games_of(team)
            games[i, side] = [played.count(k) for k in order]
    return OutcomeTable(captain, scale, mp, bp, kind, games, int(equal))


def board_probabilities(
    home: npt.ArrayLike,
    away: npt.ArrayLike,
    captain: Colour,
    classes: Sequence[TimeClass],
    model: ModelParams,
) -> FloatArray:
    """``(..., 4, 3)`` P(home win, draw, home loss) on each board.

    Args:
        home: ``(..., 4)`` the home players' ratings for their board's time class.
        away: ``(..., 4)`` the away players' ratings.
        captain: The home captain's colour (the home side's other boards have the other colour).
        classes: Each board's time class.
        model: The game model.
    """
    home_arr = np.asarray(home, dtype=np.float64)
    away_arr = np.asarray(away, dtype=np.float64)
    out = np.empty((*np.broadcast_shapes(home_arr.shape, away_arr.shape), 3), dtype=np.float64)
    for b, tc in enumerate(classes):
        colour = captain if b == 0 else captain.other
        h, a = home_arr[..., b], away_arr[..., b]
        if colour is Colour.RED:
            p = game_probabilities(h, a, tc, model=model)
            out[..., b, :] = np.stack([p.red, p.draw, p.black], axis=-1)
        else:
            p = game_probabilities(a, h, tc, model=model)
            out[..., b, :] = np.stack([p.black, p.draw, p.red], axis=-1)
    return out


def outcome_probabilities(boards: FloatArray) -> FloatArray:
    """``(..., 81)`` the probability of each outcome (:data:`OUTCOMES`) from ``(..., 4, 3)``."""
    p = boards
    joint = (
        p[..., 0, :, None, None, None]
        * p[..., 1, None, :, None, None]
        * p[..., 2, None, None, :, None]
        * p[..., 3, None, None, None, :]
    )
    return np.asarray(joint.reshape(*p.shape[:-2], len(OUTCOMES)), dtype=np.float64)


@dataclass(frozen=True)
class SideOdds:
    """One side's odds in a match.

    Attributes:
        win: P(more board points, 3 match points).
        narrow_win: P(more board points in a narrow match, 1 match point).
        narrow_loss: P(fewer board points in a narrow match, 0.5 match points).
        loss: P(fewer board points, 0 match points).
        match_points: Expected match points.
        board_points: Expected board points.
    """

    win: float
    narrow_win: float
    narrow_loss: float
    loss: float
    match_points: float
    board_points: float

    def to_json(self) -> dict[str, float]:
        """``{"win", "narrow_win", "narrow_loss", "loss", "match_points", "board_points"}``."""
        return dict(vars(self))


@dataclass(frozen=True)
class MatchOdds:
    """Both sides' odds with the home captain on one colour."""

    captain: Colour
    home: SideOdds
    away: SideOdds


def match_odds(boards: FloatArray, captain: Colour, rules: LeagueRules = LEAGUE_RULES) -> MatchOdds:
    """The odds of one match from its boards' ``(4, 3)`` P(home win, draw, home loss)."""
    table = outcome_table(captain, rules)
    p = outcome_probabilities(np.asarray(boards, dtype=np.float64))

    def side(s: int) -> SideOdds:
        win, narrow_win, narrow_loss, loss = (
            float(p[table.kind[:, s] == k].sum()) for k in range(len(KINDS))
        )
        return SideOdds(
            win,
            narrow_win,
            narrow_loss,
            loss,
            match_points=float(p @ table.match_points[:, s]) / table.scale,
            board_points=float(p @ table.board_points[:, s]) / table.scale,
        )

    return MatchOdds(captain, side(0), side(1))


def best_colour(red: MatchOdds, black: MatchOdds) -> Colour:
    """The home captain's colour with the higher expected match points for the home side (Red
    when they are equal)."""
    return Colour.BLACK if black.home.match_points > red.home.match_points else Colour.RED


def _ratings(players: Sequence[Player], classes: Sequence[TimeClass]) -> list[float]:
    return [p.rating_for(tc) for p, tc in zip(players, classes, strict=True)]


@dataclass(frozen=True)
class TeamMatchOdds:
    """``knockout league-odds``: the match's odds for each colour of the home captain.

    Attributes:
        teams: The team-match file.
        classes: Each board's time class.
        boards: ``{captain colour: (4, 3)}`` P(home win, draw, home loss) per board.
        red: Odds with the home captain on Red.
        black: Odds with the home captain on Black.
        best: The colour the home side should pick.
    """

    teams: TeamMatchFile
    classes: tuple[TimeClass, ...]
    boards: dict[Colour, FloatArray]
    red: MatchOdds
    black: MatchOdds
    best: Colour

    @property
    def chosen(self) -> Colour:
        """The colour the file asks for (``best``: :attr:`best`)."""
        choice = self.teams.captain_colour
        return self.best if choice == "best" else Colour(choice)


def team_match_odds(teams: TeamMatchFile, rules: LeagueRules = LEAGUE_RULES) -> TeamMatchOdds:
    """Exact odds of the match in ``teams`` for both colours of the home captain."""
    classes = teams.time_classes()
    home = _ratings(teams.home, classes)
    away = _ratings(teams.away, classes)
    boards = {
        c: board_probabilities(home, away, c, classes, teams.model)
        for c in (Colour.RED, Colour.BLACK)
    }
    red = match_odds(boards[Colour.RED], Colour.RED, rules)
    black = match_odds(boards[Colour.BLACK], Colour.BLACK, rules)
    return TeamMatchOdds(teams, classes, boards, red, black, best_colour(red, black))


def odds_json(odds: TeamMatchOdds) -> dict[str, Any]:
    """The body of ``knockout league-odds --json``: ``captain_red`` and ``captain_black`` (each
    ``{"home", "away"}`` side odds) and ``best``."""
    return {
        "captain_red": {"home": odds.red.home.to_json(), "away": odds.red.away.to_json()},
        "captain_black": {"home": odds.black.home.to_json(), "away": odds.black.away.to_json()},
        "best": str(odds.best),
    }
