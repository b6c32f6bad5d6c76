"""The ``knockout`` program: every CLI command, plus ``knockout bench`` above them.

The benchmark times the CLI (start-up in fresh processes, the Monte Carlo it drives), so it
sits above :mod:`knockout.cli` in the layers; this module, the console-script entry point,
assembles the two.
"""

from __future__ import annotations

import os

from knockout.bench import command as command  # registers `knockout bench`
from knockout.cli import app
from knockout.cli import main as cli_main
from knockout.cli.app import reflow_help

reflow_help(app)

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point: the CLI's :func:`~knockout.cli.app.main` (a usage error is
    one line and exit code 2), with ``knockout bench`` registered.

    The program's pydantic models are its own input tables, so pydantic's plugins (hooks found
    by scanning every installed package's entry points: about 0.1 s of every short command)
    are not loaded, unless ``PYDANTIC_DISABLE_PLUGINS`` is set otherwise.
    """
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "1")
    cli_main()
