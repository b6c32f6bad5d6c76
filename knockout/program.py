"""The ``knockout`` program: every CLI command, plus ``knockout bench`` above them.

The benchmark times the CLI (start-up in fresh processes, the Monte Carlo it drives), so it
sits above :mod:`knockout.cli` in the layers; this module, the console-script entry point,
assembles the two (on first use of :data:`app`, or in :func:`main`).
"""

from __future__ import annotations

import gc
import os
import sys

from knockout.version import __version__

TYPE_CHECKING = False  # typing's, without importing typing (see knockout/__init__.py)
if TYPE_CHECKING:
    from typing import Any

    from knockout.cli import app

__all__ = ["app", "main"]

_assembled = False


def _app() -> Any:
    """The CLI's app with ``knockout bench`` registered and every command's help reflowed."""
    global _assembled  # noqa: PLW0603  (once per process)
    from knockout.bench import command as _command  # noqa: F401, PLC0415  (registers `bench`)
    from knockout.cli import app  # noqa: PLC0415 (start-up: the CLI, not for --version)
    from knockout.cli.app import reflow_help  # noqa: PLC0415 (start-up: the CLI, not for --version)

    if not _assembled:
        reflow_help(app)
        _assembled = True
    return app


def __getattr__(name: str) -> Any:
    if name == "app":
        return _app()
    raise AttributeError(f"module 'knockout.program' has no attribute {name!r}")


def main() -> None:
    """Console-script entry point: the CLI's :func:`~knockout.cli.app.main` (a usage error is
    one line and exit code 2), with ``knockout bench`` registered.

    ``knockout --version`` alone is answered before the command line is built (the line
    typer's eager ``--version`` prints, exit code 0): typer, rich and the command modules are
    most of any other command's start-up.

    The program's pydantic models are its own input tables, so pydantic's plugins (hooks found
    by scanning every installed package's entry points: about 0.1 s of every short command)
    are not loaded, unless ``PYDANTIC_DISABLE_PLUGINS`` is set otherwise.
    """
    if sys.argv[1:] == ["--version"]:
        sys.stdout.write(f"knockout {__version__}\n")
        return
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "1")
    gc.disable()
    try:
        _app()
        from knockout.cli import main as cli_main  # noqa: PLC0415 (start-up: the CLI, not for --version)
    except BaseException:
        _collect_from_here()
        raise
    cli_main(built=_collect_from_here)


def _collect_from_here() -> None:
    """The cyclic garbage collector back on, over what is made from here on only.

    Building the command line (typer, rich, the command modules, the command's parameters)
    makes tens of thousands of objects that live as long as the process: modules, classes,
    functions. Collected as they are made, they were traversed again and again (and once more
    at exit), about a tenth of a short command's CPU; :func:`main` builds them with the
    collector off and then freezes them (:func:`gc.freeze`: kept out of every later
    collection) before the command runs with the collector on as usual.
    """
    gc.freeze()
    gc.enable()
