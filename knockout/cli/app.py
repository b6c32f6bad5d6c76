"""The typer application and the helpers every command shares.

The CLI is a thin adapter: parse arguments, build config objects, call one core function, hand the
result to the dashboard (rich) or to :func:`emit_json`. Errors the user caused
(:class:`~knockout.errors.KnockoutError`) become one line per problem on stderr and exit code 2.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import io
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, RenderableType
from typer.core import TyperOption

from knockout.dashboard import linebreak  # noqa: F401 (Chinese line breaking, help included)
from knockout.errors import InputError, KnockoutError
from knockout.i18n import _, choose_language, parse_language, set_language
from knockout.version import __version__

if TYPE_CHECKING:
    from knockout.rules.scenario.aggregate import Scenario
    from knockout.studies.load import StudyRun

__all__ = [
    "EncodingOpt",
    "ExportOpt",
    "SetOpt",
    "app",
    "check_export",
    "check_seed",
    "emit_json",
    "err_console",
    "fresh_seed",
    "main",
    "out_console",
    "prepared",
    "read_scenario",
    "reflow_help",
    "show",
    "usage_line",
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

#: typer 0.29's label of an option's type in --help (older typers leave out a flag's ``bool``).
_typer_type_label = getattr(TyperOption, "display_type_rich", None)


def _type_label(option: TyperOption, ctx: Any) -> str | None:
    """The type shown beside an option in --help: none for a flag, which takes no value (typer
    0.29 shows ``<bool>`` there)."""
    assert _typer_type_label is not None
    return None if option.is_flag else _typer_type_label(option, ctx)


if _typer_type_label is not None:
    TyperOption.display_type_rich = _type_label  # type: ignore[attr-defined]

out_console = Console(highlight=False, emoji=False)
err_console = Console(stderr=True, highlight=False, emoji=False)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"knockout {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
    lang: str | None = typer.Option(
        None,
        "--lang",
        metavar="zh|zh_TW|en",
        help="The language to speak: zh (Simplified Chinese), zh_TW (Traditional) or en. "
        "Accepted before or after the command. Without it: KNOCKOUT_LANG, else an event's own "
        "language (organiser commands), else the locale (LC_ALL, LC_MESSAGES, LANG), else "
        "English.",
        show_default=False,
    ),
) -> None:
    """Xiangqi knockout matches with time-bidding sudden death."""
    if lang is not None:  # the command was run without main() taking --lang out (a test)
        try:
            set_language(parse_language(lang))
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn a KnockoutError into one stderr line per problem and exit code 2."""
    try:
        yield
    except InputError as exc:
        for line in exc.lines():
            err_console.print(
                _("error: {problem}").format(problem=line), markup=False, soft_wrap=True
            )
        raise typer.Exit(2) from None
    except KnockoutError as exc:
        err_console.print(_("error: {problem}").format(problem=exc), markup=False, soft_wrap=True)
        raise typer.Exit(2) from None


def check_seed(value: int | None) -> int | None:
    """The ``--seed`` callback: a seed is a whole number from 0 (numpy's seeds are); anything
    else is one line on stderr and exit code 2."""
    if value is not None and value < 0:
        err_console.print(
            _("error: {problem}").format(
                problem=_("--seed: expected a whole number 0 or more, got {value}").format(
                    value=value
                )
            ),
            markup=False,
            soft_wrap=True,
        )
        raise typer.Exit(2)
    return value


def check_export(
    export: Path | None, *, json_out: bool = False, suffixes: tuple[str, ...] = (".svg", ".html")
) -> None:
    """Refuse an ``--export`` that could not be written, before any work is done.

    Raises:
        KnockoutError: With ``--json`` (which prints JSON, not a view to save), for a file of
            another kind than ``suffixes``, or in a folder that does not exist.
    """
    if export is None:
        return
    if json_out:
        raise KnockoutError("--export saves the table view; --json prints no view to save")
    allowed = (*suffixes, ".htm") if ".html" in suffixes else suffixes
    if export.suffix.lower() not in allowed:
        raise KnockoutError(
            f"--export: expected a {' or '.join(suffixes)} file, got {str(export)!r}"
        )
    folder = export.parent
    if not folder.is_dir():
        raise KnockoutError(f"--export: the folder {str(folder)!r} does not exist")


def fresh_seed() -> int:
    """A random seed from OS entropy, reported in outputs so the run can be repeated."""
    import numpy as np

    return int(np.random.default_rng().integers(0, 2**31))


ExportOpt = Annotated[
    Path | None,
    typer.Option(
        "--export",
        help="Also save the view as SVG or HTML (by the file's extension: .svg, .html).",
        show_default=False,
    ),
]


EncodingOpt = Annotated[
    str | None,
    typer.Option(
        "--encoding",
        help="The file's text encoding, e.g. gb18030 or utf-16 (default: UTF-8, or what the "
        "file's byte-order mark says).",
        show_default=False,
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help="Change one scenario value before running (repeatable): a dotted key and a TOML "
        "value, e.g. --set model.draw_nu.rapid=0.5 --set format.sudden_death.accept=[30,15] "
        "--set players.Alpha.rating=2600.",
        show_default=False,
    ),
]


def read_scenario(path: Path, encoding: str | None, sets: list[str] | None) -> Scenario:
    """The scenario at ``path`` (TOML, or JSON output), with ``--set`` overrides applied."""
    from knockout.io.scenario import load_scenario

    sc = load_scenario(path, encoding=encoding, overrides=sets or ())
    for key, message in sc.model_sd.notes():  # valid, but it does nothing: one line each
        err_console.print(f"note: {sc.source}: {key}: {message}", markup=False, soft_wrap=True)
    return sc


def note_central_constants(sc: Scenario, what: str) -> None:
    """One line on stderr where a command works at the central constants of a scenario whose
    ``[model.sd]`` makes them uncertain (``what``: what the command does there)."""
    if sc.model_sd.uncertain:
        err_console.print(
            f"note: {sc.source}: {what} at the central constants: [model.sd] is not sampled "
            "(odds, compare, fair, incentives, equilibrium and simulate's exact companion "
            "integrate over it)",
            markup=False,
            soft_wrap=True,
        )


def show(renderable: RenderableType, export: Path | None, *, title: str = "knockout") -> None:
    """Print ``renderable``; with ``export``, also save it as SVG or HTML.

    Raises:
        KnockoutError: For an export file that is neither .svg nor .html, in a folder that does
            not exist, or that cannot be written.
    """
    check_export(export)
    out_console.print(renderable)
    if export is None:
        return
    recorder = Console(
        record=True, width=max(out_console.width, 100), file=io.StringIO(), emoji=False
    )
    recorder.print(renderable)
    try:
        if export.suffix.lower() == ".svg":
            recorder.save_svg(str(export), title=title)
        else:
            recorder.save_html(str(export))
    except OSError as exc:
        raise KnockoutError(f"--export: cannot write {str(export)!r}: {exc.strerror}") from None
    err_console.print(f"saved {export}", markup=False)


def reflow(doc: str) -> str:
    """A docstring as --help shows it: each paragraph on one line, so the terminal wraps it at
    its own width (rich keeps the docstring's line breaks, which make ragged text at 80 columns);
    indented lines (examples) stay as they are.

    >>> reflow("One\\n    two.\\n\\nExample:\\n\\n    knockout odds x.toml\\n    knockout play y")
    'One two.\\n\\nExample:\\n\\n    knockout odds x.toml\\n    knockout play y'
    """
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(
        p if p.startswith((" ", "\b")) else " ".join(line.strip() for line in p.splitlines())
        for p in paragraphs
    )


def reflow_help(typer_app: typer.Typer) -> None:
    """Reflow (see :func:`reflow`) the help of every command of ``typer_app``, sub-apps too."""
    for command in typer_app.registered_commands:
        doc = command.help or inspect.getdoc(command.callback)
        if doc:
            command.help = reflow(doc)
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            reflow_help(group.typer_instance)
            info = group.typer_instance.info
            doc = group.help if isinstance(group.help, str) else info.help
            if isinstance(doc, str):
                group.help = reflow(doc)


def emit_json(payload: dict[str, Any]) -> None:
    """Write ``payload`` as JSON to stdout (UTF-8, names unescaped)."""
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, allow_nan=False) + "\n")


def _click_exceptions() -> Any:
    """The click exceptions module typer raises from (newer typer versions vendor click)."""
    import importlib

    try:
        return importlib.import_module("typer._click.exceptions")
    except ImportError:  # a typer that uses click itself
        return importlib.import_module("click.exceptions")


def prepared(argv: Sequence[str]) -> tuple[Any, list[str]]:
    """The click command to run for ``argv`` and the arguments it parses, in the language the
    run asks for (``--lang``, taken out of ``argv``; else the environment: see
    :func:`knockout.i18n.choose_language`), set before the command is built, so that its
    ``--help`` speaks that language.

    Raises:
        ValueError: For a ``--lang`` or ``KNOCKOUT_LANG`` that names no language spoken.
    """
    from typer.main import get_command

    from knockout.cli.localise import localised, split_lang

    flag, args = split_lang(argv)
    choice = choose_language(flag, os.environ)
    set_language(choice.language, explicit=choice.explicit)
    if not choice.explicit and args[:1] == ["event"]:
        _speak_the_events_language(args[2:])
    return localised(get_command(invoked_only(app, args))), args


def _speak_the_events_language(args: Sequence[str]) -> None:
    """An organiser command speaks its event's own language (``event new --lang``): the event
    file is the command's first argument that names an existing file."""
    from knockout.event.language import read_language
    from knockout.i18n import parse_language, use_event_language

    for arg in args:
        if not arg.startswith("-") and Path(arg).is_file():
            stored = read_language(arg)
            if stored is not None:
                with contextlib.suppress(ValueError):  # a language this version does not speak
                    use_event_language(parse_language(stored))
            return


def main(built: Callable[[], None] | None = None) -> None:
    """Console-script entry point.

    A usage error (an unknown option, a value out of range, a missing argument) is one line on
    stderr and exit code 2, like every other refusal, instead of click's boxed message.
    ``built``: called once the command to run is built, before it parses its arguments.
    """
    errors = _click_exceptions()
    no_args = getattr(errors, "NoArgsIsHelpError", ())
    try:
        command, args = prepared(sys.argv[1:])
    except ValueError as exc:
        err_console.print(_("error: {problem}").format(problem=exc), markup=False, soft_wrap=True)
        sys.exit(2)
    finally:
        if built is not None:
            built()
    try:
        code = command.main(args=args, prog_name="knockout", standalone_mode=False)
    except no_args:  # the help, printed as the error is made; exit 2 as click does
        sys.exit(2)
    except errors.ClickException as exc:
        err_console.print(
            _("error: {problem}").format(problem=usage_line(exc)), markup=False, soft_wrap=True
        )
        sys.exit(exc.exit_code)
    except (typer.Abort, getattr(errors, "Abort", typer.Abort)):
        err_console.print(_("Aborted."), markup=False)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


def invoked_only(program: typer.Typer, args: Sequence[str]) -> typer.Typer:
    """``program`` with only the command ``args`` name (and the groups above it).

    typer builds every registered command's parameters from its signature at each call, about
    0.1 s of CPU for the whole program, while one command runs. A copy that holds only the
    named command behaves the same for it: its options, help and errors are its own. When
    ``args`` names no command (none given, a root option such as ``--help``, or an unknown
    name, which click then answers with its suggestions), the whole ``program`` is returned.
    """
    from typer.main import get_command_name

    if not args or args[0].startswith("-"):
        return program
    name, rest = args[0], args[1:]
    for command in program.registered_commands:
        callback = command.callback
        own = command.name or (get_command_name(callback.__name__) if callback else None)
        if own == name:
            pruned = copy.copy(program)
            pruned.registered_commands, pruned.registered_groups = [command], []
            return pruned
    for group in program.registered_groups:
        sub = group.typer_instance
        own = group.name or (sub.info.name if sub is not None else None)
        if own == name and sub is not None:
            pruned = copy.copy(program)
            pruned.registered_commands = []
            only = copy.copy(group)
            only.typer_instance = invoked_only(sub, rest)
            pruned.registered_groups = [only]
            return pruned
    return program


def usage_line(exc: Exception) -> str:
    """A click error as one line: the command, what is wrong, where the help is."""
    from knockout.cli.localise import localised_click_error

    format_message = getattr(exc, "format_message", None)
    message = " ".join((format_message() if callable(format_message) else str(exc)).split())
    message = localised_click_error(message)
    ctx = getattr(exc, "ctx", None)
    if ctx is None:
        return message
    return _("{command}: {message} (see {command} --help)").format(
        command=ctx.command_path, message=message
    )


def say_line(text: str) -> None:
    """A line for the person running a long command (an estimate, a warning), on stderr."""
    err_console.print(text, markup=False, soft_wrap=True)


def step_line(text: str) -> None:
    """A command's own progress line, dim, on stderr."""
    err_console.print(text, style="dim", markup=False)


def show_study(run: StudyRun, json_out: bool) -> None:
    """A study's run, shown: its summary (or the JSON), the files written; exit code 130 if
    it was interrupted."""
    from rich.markdown import Markdown

    from knockout.io.envelope import envelope

    if json_out:
        emit_json(envelope(run.body, seed=run.seed))
    elif run.files:  # none when stopped before anything was finished (said already)
        out_console.print(Markdown(run.summary))
        written = _("written: {files}").format(files=_(", ").join(map(str, run.files)))
        err_console.print(written, style="dim")
    if run.interrupted:
        raise typer.Exit(130)
