"""The typer application and the helpers every command shares.

The CLI is a thin adapter: parse arguments, build config objects, call one core function, hand the
result to the dashboard (rich) or to :func:`emit_json`. Errors the user caused
(:class:`~knockout.errors.KnockoutError`) become one line per problem on stderr and exit code 2.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType

from knockout import __version__
from knockout.errors import InputError, KnockoutError

__all__ = [
    "ExportOpt",
    "app",
    "emit_json",
    "err_console",
    "fresh_seed",
    "main",
    "out_console",
    "show",
    "user_errors",
]

app = typer.Typer(
    name="knockout",
    help="Xiangqi knockout matches with time-bidding sudden death: exact odds, simulation, "
    "brackets, rankings and scoring.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

out_console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"knockout {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Xiangqi knockout matches with time-bidding sudden death."""


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn a KnockoutError into one stderr line per problem and exit code 2."""
    try:
        yield
    except InputError as exc:
        for line in exc.lines():
            err_console.print(f"error: {line}", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
    except KnockoutError as exc:
        err_console.print(f"error: {exc}", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None


def fresh_seed() -> int:
    """A random seed from OS entropy, reported in outputs so the run can be repeated."""
    import numpy as np  # noqa: PLC0415  (not needed to start: knockout --version)

    return int(np.random.default_rng().integers(0, 2**31))


ExportOpt = Annotated[
    Path | None,
    typer.Option(
        "--export",
        help="Also save the view as SVG or HTML (by the file's extension: .svg, .html).",
        show_default=False,
    ),
]


def show(renderable: RenderableType, export: Path | None, *, title: str = "knockout") -> None:
    """Print ``renderable``; with ``export``, also save it as SVG or HTML.

    Raises:
        KnockoutError: For an export file that is neither .svg nor .html.
    """
    if export is not None and export.suffix.lower() not in (".svg", ".html", ".htm"):
        raise KnockoutError(f"--export: expected a .svg or .html file, got {str(export)!r}")
    out_console.print(renderable)
    if export is None:
        return
    recorder = Console(record=True, width=max(out_console.width, 100), file=io.StringIO())
    recorder.print(renderable)
    if export.suffix.lower() == ".svg":
        recorder.save_svg(str(export), title=title)
    else:
        recorder.save_html(str(export))
    err_console.print(f"saved {export}")


def emit_json(payload: dict[str, Any]) -> None:
    """Write ``payload`` as JSON to stdout (UTF-8, names unescaped)."""
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, allow_nan=False) + "\n")


def main() -> None:
    """Console-script entry point."""
    app()
