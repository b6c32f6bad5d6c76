"""Command-line interface (typer). Only this package imports typer."""

from knockout.cli import commands as commands
from knockout.cli.app import app, main

__all__ = ["app", "main"]
