"""Registers every command module on the app (one import line per module)."""

from knockout.cli import calibrate, event, match, scoring, simulate, standings, studies

__all__ = ["calibrate", "event", "match", "scoring", "simulate", "standings", "studies"]
