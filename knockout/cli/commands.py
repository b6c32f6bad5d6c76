"""Registers every command module on the app (one import line per module)."""

from knockout.cli import match, scoring  # scoring: rescore, league

__all__ = ["match", "scoring"]
