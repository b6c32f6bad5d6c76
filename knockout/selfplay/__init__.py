"""Engine self-play: a Xiangqi engine against itself under node, move-time or clock budgets.

The evidence for the model's constants from real play (``knockout selfplay``,
``docs/selfplay.md``): :mod:`~knockout.selfplay.uci` runs the engine processes,
:mod:`~knockout.selfplay.openings` draws seeded openings, :mod:`~knockout.selfplay.adjudicate`
ends games by the rules (through ``pyffish``), :mod:`~knockout.selfplay.budgets` holds the
budgets and odds, and :mod:`~knockout.selfplay.run` plays a run and writes its files. Nothing
here prints: progress goes to a callback.
"""

from knockout.selfplay.adjudicate import Adjudication, Ending, Reason, Referee, replay
from knockout.selfplay.budgets import Pairing, pairings, parse_clock, parse_odds
from knockout.selfplay.openings import OpeningBook, OpeningConfig
from knockout.selfplay.run import (
    CALIBRATION_COLUMNS,
    DETAIL_COLUMNS,
    GameRecord,
    Progress,
    RunSummary,
    SelfPlayConfig,
    detail_path,
    play,
    read_detail,
)
from knockout.selfplay.uci import Engine, EngineError, find_engine

__all__ = [
    "CALIBRATION_COLUMNS",
    "DETAIL_COLUMNS",
    "Adjudication",
    "Ending",
    "Engine",
    "EngineError",
    "GameRecord",
    "OpeningBook",
    "OpeningConfig",
    "Pairing",
    "Progress",
    "Reason",
    "Referee",
    "RunSummary",
    "SelfPlayConfig",
    "detail_path",
    "find_engine",
    "pairings",
    "parse_clock",
    "parse_odds",
    "play",
    "read_detail",
    "replay",
]
