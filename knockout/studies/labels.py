"""Readable labels, with units, for the keys a study sweeps and measures: what a plot's axes and
colour bar say (the key itself goes in small print beside it).

A registry of key patterns, each with the words for it; ``{1}``, ``{2}`` ... are the pattern's
parts (a time class, a player's name, a stage, a format). A key no pattern knows is shown as it
is.

>>> label("model.elo_per_doubling.rapid")
'Elo per doubling of thinking time, rapid'
>>> label("fair.chooser_advantage.seed_menu")
"P(甲 advances) - 1/2, equal players, the seed's menu"
>>> label("simulate.win.王天一")
'P(王天一 advances), Monte Carlo'
>>> label("golf.handicap")
'golf.handicap'
"""

from __future__ import annotations

import re

from knockout.i18n import N_, _
from knockout.i18n.terms import stage_label

__all__ = ["LABELS", "label"]

_TC = r"(classical|rapid|blitz)"
_NAME = r"([^.]+)"

#: (pattern of a whole key, its label): the first that matches is used.
LABELS: tuple[tuple[str, str], ...] = (
    # scenario values a grid sweeps
    (rf"model\.elo_per_doubling\.{_TC}", N_("Elo per doubling of thinking time, {1}")),
    (rf"model\.draw_nu\.{_TC}", N_("draw parameter ν, {1} (no unit; more ν, more draws)")),
    (rf"model\.red_advantage\.{_TC}", N_("Red's first-move advantage, {1} (Elo)")),
    (r"model\.moves", N_("moves a side per game (for the effective clock)")),
    (rf"players\.{_NAME}\.rating", N_("{1}'s rating (Elo)")),
    (rf"players\.{_NAME}\.rating_{_TC}", N_("{1}'s {2} rating (Elo)")),
    (rf"players\.{_NAME}\.rating_sd", N_("uncertainty of {1}'s rating (Elo, one sd)")),
    (rf"players\.{_NAME}\.speed\.mean", N_("{1}'s speed (share of the clock used, mean)")),
    (rf"players\.{_NAME}\.speed\.sd", N_("{1}'s speed (share of the clock used, sd)")),
    (r"strategy\.belief_sd", N_("noise of each player's estimate of the gap (Elo, one sd)")),
    (r"strategy\.kind", N_("how the players bid")),
    (r"incentives\.pace_min", N_("the fastest pace a player may choose (clock share)")),
    (r"format\.preset", N_("format")),
    (r"format\.increment_seconds", N_("increment (seconds a move)")),
    (r"format\.(\w+)_minutes", N_("{1} games' base minutes")),
    (r"format\.(\w+)_games", N_("{1} games")),
    (
        r"format\.sudden_death\.(accept|object_red|object_black)",
        N_("{1} clocks [Red, Black] (min)"),
    ),
    # metrics
    (r"odds\.win\.(.+)", N_("P({1} advances)")),
    (r"odds\.match\.chooser_advances", N_("P(甲 advances | the sudden death is reached)")),
    (r"odds\.match\.decided\.(\w+)", N_("P(the match is decided in the {1} stage)")),
    (r"odds\.match\.games\.(\d+)", N_("P(the match takes {1} games)")),
    (r"odds\.match\.sudden_death(?:_reached|\.reached)", N_("P(the sudden death is reached)")),
    (r"odds\.match\.bidding\.announce_red", N_("P(甲 announces Red | sudden death)")),
    (r"odds\.match\.bidding\.object", N_("P(乙 objects | sudden death)")),
    (
        r"fair\.chooser_advantage\.seed_menu",
        N_("P(甲 advances) - 1/2, equal players, the seed's menu"),
    ),
    (
        r"fair\.chooser_advantage\.fair_menu",
        N_("P(甲 advances) - 1/2, equal players, the fair menu"),
    ),
    (r"fair\.armageddon\.red", N_("fair Red minutes against Black's fixed clock (min)")),
    (r"fair\.armageddon\.black", N_("Black's minutes of the split (min)")),
    (r"fair\.menu\.(\w+)\.0", N_("fair menu, {1}: Red's minutes")),
    (r"fair\.menu\.(\w+)\.1", N_("fair menu, {1}: Black's minutes")),
    (r"fair\.verified\.red_advances", N_("P(Red advances) on the fair split, Monte Carlo")),
    (
        r"compare\.rows\.(.+)\.stronger_advances\.(.+)",
        N_("P(the stronger advances), {1}, gap {2} Elo"),
    ),
    (
        r"compare\.rows\.0\.decider_edge",
        N_("the decider's edge, equal players (P - 1/2)"),
    ),
    (r"compare\.rows\.(.+)\.decider_edge", N_("the decider's edge, {1} (P - 1/2, equal players)")),
    (r"compare\.rows\.(.+)\.decider_reached", N_("P(the decider is reached), {1}, equal players")),
    (r"compare\.rows\.(.+)\.expected_games", N_("expected games, {1}, equal players")),
    (r"compare\.rows\.(.+)\.expected_minutes", N_("expected playing time, {1} (min)")),
    (
        r"incentives\.manipulation_gain",
        N_("the most either player gains by choosing a pace (P(advance))"),
    ),
    (r"incentives\.best_response\.(.+)\.gain", N_("{1}'s gain from the best pace v natural play")),
    (r"incentives\.best_response\.(.+)\.pace", N_("{1}'s best pace v natural play (clock share)")),
    (
        r"incentives\.equilibria\.0\.chooser_advances",
        N_("P(甲 advances | sudden death), pace-game equilibrium"),
    ),
    (
        r"incentives\.equilibria\.0\.pace\.(.+)",
        N_("{1}'s pace in the pace-game equilibrium (clock share)"),
    ),
    (r"incentives\.equilibria\.0\.win\.(.+)", N_("P({1} advances), pace-game equilibrium")),
    (
        r"incentives\.equilibria\.(\d+)\.chooser_advances",
        N_("P(甲 advances | sudden death), pace-game equilibrium no. {1} (from 0)"),
    ),
    (
        r"incentives\.equilibria\.(\d+)\.pace\.(.+)",
        N_("{2}'s pace, pace-game equilibrium no. {1} (from 0; clock share)"),
    ),
    (
        r"incentives\.sequential_fairness\.distance",
        N_("equal players in equilibrium: |P(甲 advances) - 1/2|"),
    ),
    (
        r"equilibrium\.max_deviation_gain",
        N_("best-response gain v equilibrium (P(advance))"),
    ),
    (
        r"equilibrium\.exploitability\.(\w+)\.gain",
        N_("best-response gain v {1} play (P(advance))"),
    ),
    (
        r"equilibrium\.equilibria\.0\.chooser_advances",
        N_("P(甲 advances | the decisive game is reached), equilibrium play"),
    ),
    (r"equilibrium\.equilibria\.0\.win\.(.+)", N_("P({1} advances), equilibrium play")),
    (
        r"equilibrium\.equilibria\.(\d+)\.chooser_advances",
        N_("P(甲 advances | the decisive game is reached), equilibrium no. {1} (from 0)"),
    ),
)

_COMPILED = tuple((re.compile(pattern + r"\Z"), text) for pattern, text in LABELS)


def label(key: str) -> str:
    """The readable label of a scenario path or a metric; the key itself if none is known."""
    if key.startswith("simulate."):
        inner = label("odds." + key.removeprefix("simulate."))
        return key if inner.startswith("odds.") else _("{label}, Monte Carlo").format(label=inner)
    for pattern, text in _COMPILED:
        match = pattern.match(key)
        if match:
            return _(text).format(None, *(stage_label(g) for g in match.groups()))
    return key
