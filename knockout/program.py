"""The ``knockout`` program: every CLI command, plus ``knockout bench`` above them.

The benchmark times the CLI (start-up in fresh processes, the Monte Carlo it drives), so it
sits above :mod:`knockout.cli` in the layers; this module, the console-script entry point,
assembles the two.
"""

from __future__ import annotations

from knockout.bench import command as command  # registers `knockout bench`
from knockout.cli import app
from knockout.cli.app import reflow_help

reflow_help(app)

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point."""
    app()
