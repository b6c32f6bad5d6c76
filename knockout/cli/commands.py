"""Registers every command module on the app (one import line per module)."""

from knockout.cli import match

__all__ = ["match"]
