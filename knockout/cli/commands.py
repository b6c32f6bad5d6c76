"""Registers every command module on the app (one import line per module)."""

from knockout.cli import event, match, scoring, simulate, standings, studies

__all__ = ["event", "match", "scoring", "simulate", "standings", "studies"]
