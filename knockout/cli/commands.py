"""Registers every command module on the app (one import line per module)."""

from knockout.cli import match, scoring, simulate, standings

__all__ = ["match", "scoring", "simulate", "standings"]
