"""The command line in the reader's language: ``--lang``, and ``--help`` translated.

typer builds the click command tree from the help texts given where each command is defined, in
English (the catalogue's message ids). :func:`localised` walks the tree it builds and puts every
text a person reads through the catalogue: each command's help, each option's help, argument
names and value labels, the usage line, the panel titles and typer's own words. The language is
settled from ``argv`` and the environment (:func:`split_lang`,
:func:`knockout.i18n.choose_language`) before the tree is built, so ``--help`` speaks it.
"""

from __future__ import annotations

import copy
import importlib
import re
from collections.abc import Callable, Sequence
from typing import Any

from knockout.i18n import N_, _, language

__all__ = [
    "TYPER_WORDS",
    "localised",
    "localised_click_error",
    "set_typer_words",
    "split_lang",
]

#: typer's own words in --help and its errors (typer.rich_utils), as module attributes.
TYPER_WORDS = {
    "DEPRECATED_STRING": N_("(deprecated) "),
    "DEFAULT_STRING": N_("[default: {}]"),
    "ENVVAR_STRING": N_("[env var: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "ABORTED_TEXT": N_("Aborted."),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
}

#: click's words in the usage line and the help option's help.
USAGE_PREFIX = N_("Usage: ")
OPTIONS_METAVAR = N_("[OPTIONS]")
SUBCOMMAND_METAVAR = N_("COMMAND [ARGS]...")
HELP_HELP = N_("Show this message and exit.")

#: The labels of value types in --help (typer shows ``<path>``, ``<int>``...).
TYPE_LABELS = {
    "<path>": N_("<path>"),
    "<str>": N_("<str>"),
    "<text>": N_("<text>"),
    "<int>": N_("<int>"),
    "<integer>": N_("<integer>"),
    "<float>": N_("<float>"),
    "<file>": N_("<file>"),
}


def split_lang(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` (or ``--lang=X``) taken out of ``argv``, wherever it stands before a
    ``--``: a global option, accepted before the command or after it.

    >>> split_lang(["--lang", "zh", "odds", "x.toml"])
    ('zh', ['odds', 'x.toml'])
    >>> split_lang(["odds", "x.toml", "--lang=en", "--", "--lang"])
    ('en', ['odds', 'x.toml', '--', '--lang'])
    >>> split_lang(["odds", "--lang"])
    Traceback (most recent call last):
    ValueError: --lang: expected a language (zh, zh_TW or en)
    """
    rest: list[str] = []
    lang: str | None = None
    items = list(argv)
    i = 0
    while i < len(items):
        item = items[i]
        if item == "--":
            rest.extend(items[i:])
            break
        if item == "--lang":
            if i + 1 >= len(items) or items[i + 1].startswith("-"):
                raise ValueError("--lang: expected a language (zh, zh_TW or en)")
            lang = items[i + 1]
            i += 2
            continue
        if item.startswith("--lang="):
            lang = item.removeprefix("--lang=")
            i += 1
            continue
        rest.append(item)
        i += 1
    return lang, rest


def _click_module(name: str) -> Any:
    """A module of the click typer parses with (typer 0.28 vendors it as ``typer._click``)."""
    try:
        return importlib.import_module(f"typer._click.{name}")
    except ImportError:  # a typer that uses click itself
        return importlib.import_module(f"click.{name}")


def _localised_context_class(base: type[Any]) -> type[Any]:
    """A click context class whose help formatter writes the usage prefix in the catalogue's
    words."""
    formatter_base = base.formatter_class

    class Formatter(formatter_base):  # type: ignore[misc,valid-type]
        def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
            super().write_usage(prog, args, _(USAGE_PREFIX) if prefix is None else prefix)

    class Context(base):  # type: ignore[misc]
        formatter_class = Formatter

    return Context


def _optional(translate: Callable[[str], str], text: Any) -> Any:
    return translate(text) if isinstance(text, str) and text else text


def _localise_param(param: Any, ctx: Any, translate: Callable[[str], str]) -> None:
    param.help = _optional(translate, getattr(param, "help", None))
    param.rich_help_panel = _optional(translate, getattr(param, "rich_help_panel", None))
    if param.param_type_name == "argument":
        param.metavar = translate(param.metavar or param.name or "")
        label = param.type.get_metavar(param=param, ctx=ctx)
        if label is None and getattr(param.type, "name", None):
            param.type = copy.copy(param.type)
            param.type.name = translate(param.type.name)
        return
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return
    metavar = param.metavar or param.make_metavar(ctx=ctx)
    if not metavar.startswith("["):  # a choice's values ([red|black]) are typed as they are
        param.metavar = translate(TYPE_LABELS.get(metavar, metavar))


def _localise_command(
    command: Any, contexts: dict[type[Any], type[Any]], translate: Callable[[str], str]
) -> None:
    base = command.context_class
    if base not in contexts:  # one subclass per context class (typer's, click's)
        contexts[base] = _localised_context_class(base)
    command.context_class = contexts[base]
    ctx = command.context_class(command)
    command.help = _optional(translate, command.help)
    command.short_help = _optional(translate, command.short_help)
    command.epilog = _optional(translate, command.epilog)
    command.rich_help_panel = _optional(translate, getattr(command, "rich_help_panel", None))
    if command.options_metavar:
        command.options_metavar = translate(OPTIONS_METAVAR)
    if hasattr(command, "subcommand_metavar"):
        command.subcommand_metavar = translate(SUBCOMMAND_METAVAR)
    for param in command.params:
        _localise_param(param, ctx, translate)
    help_option = command.get_help_option(ctx)
    if help_option is not None:
        help_option.help = translate(HELP_HELP)
    format_help = command.format_help

    def format_help_in_language(ctx: Any, formatter: Any) -> None:
        set_typer_words(translate)
        format_help(ctx, formatter)

    command.format_help = format_help_in_language
    for sub in getattr(command, "commands", {}).values():
        _localise_command(sub, contexts, translate)


#: Whether this process has translated a command tree (into any language) before.
_localised_before: set[bool] = set()


def set_typer_words(translate: Callable[[str], str]) -> None:
    """typer's own words (:data:`TYPER_WORDS`) as ``translate`` gives them."""
    rich_utils = importlib.import_module("typer.rich_utils")
    for name, message in TYPER_WORDS.items():
        setattr(rich_utils, name, translate(message))


def localised(command: Any, translate: Callable[[str], str] | None = None) -> Any:
    """``command`` (a click command tree typer built) with every text a person reads in the
    language in force: changed in place and returned.

    ``translate`` is the catalogue's (the language in force); the catalogue's extraction passes
    one that records each text it is given, so that it finds exactly the texts translated here.
    In English, in a process that has spoken no other language, the tree is already as it
    should be and is returned untouched (a short command's start-up pays nothing). typer's own
    words (panel titles, ``[required]``) live in ``typer.rich_utils``, which typer imports only
    to format help: they are set as help is formatted, so that a command that prints no help
    does not import it.
    """
    if translate is None:
        if language() == "en" and not _localised_before:
            return command
        translate = _
    _localised_before.add(True)
    _localise_command(command, {}, translate)
    return command


#: click's error messages (English, not marked in the click typer vendors), each with the
#: catalogue's message that says the same with the same fields.
CLICK_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), message)
    for pattern, message in (
        (r"^Missing argument '(?P<name>[^']*)'\.$", N_("Missing argument '{name}'.")),
        (r"^Missing option '(?P<name>[^']*)'\.$", N_("Missing option '{name}'.")),
        (
            r"^No such option: (?P<name>\S+) \(Possible options: (?P<options>.*)\)$",
            N_("No such option: {name} (Possible options: {options})"),
        ),
        (r"^No such option: (?P<name>\S+)$", N_("No such option: {name}")),
        (r"^No such command '(?P<name>.*)'\.$", N_("No such command '{name}'.")),
        (
            r"^Got unexpected extra arguments? \((?P<args>.*)\)$",
            N_("Got unexpected extra arguments ({args})"),
        ),
        (
            r"^Option '(?P<name>[^']*)' requires an argument\.$",
            N_("Option '{name}' requires an argument."),
        ),
        (
            r"^Invalid value for '(?P<name>[^']*)': '(?P<value>.*)' is not a valid "
            r"(?P<kind>integer|float|path)(?: range)?\.$",
            N_("Invalid value for '{name}': '{value}' is not a valid {kind}."),
        ),
        (
            r"^Invalid value for '(?P<name>[^']*)': '?(?P<value>.*?)'? is not one of "
            r"(?P<choices>.*)\.$",
            N_("Invalid value for '{name}': '{value}' is not one of {choices}."),
        ),
        (
            r"^Invalid value for '(?P<name>[^']*)': (?P<problem>.*)$",
            N_("Invalid value for '{name}': {problem}"),
        ),
    )
)

#: The words of a value's kind in click's "is not a valid ..." message.
KIND_WORDS = {"integer": N_("integer"), "float": N_("float"), "path": N_("path")}


def localised_click_error(message: str) -> str:
    """One of click's English error messages in the language in force (as it was when it is
    not one :data:`CLICK_ERRORS` knows).

    >>> localised_click_error("Missing argument '{scenario}'.")
    "Missing argument '{scenario}'."
    """
    for pattern, template in CLICK_ERRORS:
        match = pattern.match(message)
        if match is not None:
            fields = match.groupdict()
            if "kind" in fields:
                fields["kind"] = _(KIND_WORDS[fields["kind"]])
            return _(template).format(**fields)
    return message
