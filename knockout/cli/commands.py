"""Registers every command module on the app (one import line per module)."""

from knockout.cli import match as match  # odds, play
from knockout.cli import standings  # noqa: F401  (standings)
