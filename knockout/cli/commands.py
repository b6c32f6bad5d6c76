"""Registers every command module on the app (one import line per module)."""

from knockout.cli import (
    backtest,
    calibrate,
    equilibrium,
    event,
    games,
    hall,
    incentives,
    match,
    scoring,
    selfplay,
    simulate,
    standings,
    studies,
)
from knockout.cli.app import app, reflow_help

reflow_help(app)  # after every command is registered

__all__ = [
    "backtest",
    "calibrate",
    "equilibrium",
    "event",
    "games",
    "hall",
    "incentives",
    "match",
    "scoring",
    "selfplay",
    "simulate",
    "standings",
    "studies",
]
