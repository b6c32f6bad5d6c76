"""The language setting (--lang, KNOCKOUT_LANG, the locale) and --help in Chinese."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from knockout.i18n import (
    LanguageChoice,
    _,
    choose_language,
    language,
    language_from_locale,
    parse_language,
    set_language,
    speaking,
    use_event_language,
)
from knockout.i18n.typed import typed_colour, typed_reply, typed_result, typed_text


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """Leave the process speaking English, typer's own words included."""
    yield
    from knockout.cli.localise import set_typer_words

    set_language("en", explicit=False)
    set_typer_words(_)


def test_the_flag_beats_the_environment_which_beats_the_locale() -> None:
    env = {"KNOCKOUT_LANG": "en", "LANG": "zh_CN.UTF-8"}
    assert choose_language("zh", env).language == "zh_CN"
    assert choose_language(None, env).language == "en"
    chosen = choose_language(None, {"LANG": "zh_CN.UTF-8"})
    assert (chosen.language, chosen.explicit) == ("zh_CN", False)
    assert choose_language(None, {}).language == "en"


def test_the_locale_is_read_without_being_installed() -> None:
    # zh_TW.Big5 is installed on almost no machine; only its name is read.
    assert language_from_locale({"LC_ALL": "", "LANG": "zh_TW.Big5"}) == "zh_TW"
    assert language_from_locale({"LC_MESSAGES": "zh_CN.GB18030", "LANG": "en_US"}) == "zh_CN"
    assert language_from_locale({"LANG": "C"}) == "en"
    assert language_from_locale({}) is None


def test_an_unknown_language_is_refused_naming_its_source() -> None:
    with pytest.raises(ValueError, match="KNOCKOUT_LANG: expected one of zh, zh_TW, en, got 'fr'"):
        choose_language(None, {"KNOCKOUT_LANG": "fr"})
    with pytest.raises(ValueError, match="--lang"):
        choose_language("xx", {})
    assert parse_language("ZH-hans") == "zh_CN"


def test_an_events_language_yields_to_an_explicit_choice_only() -> None:
    set_language("en", explicit=False)  # from the locale
    use_event_language("zh_CN")
    assert language() == "zh_CN"
    set_language("en", explicit=True)  # --lang en
    use_event_language("zh_CN")
    assert language() == "en"


def test_speaking_sets_the_language_for_a_block_only() -> None:
    set_language("en")
    with speaking("zh_CN"):
        assert _("Options") == "选项"
    assert _("Options") == "Options"
    assert repr(LanguageChoice("en", explicit=True)) == "LanguageChoice('en', explicit=True)"


def test_typed_values_have_chinese_forms_and_keep_english_ones() -> None:
    assert [typed_colour(t) for t in ("红", "黑方", "red", "Black")] == [
        "red",
        "black",
        "red",
        "Black",
    ]
    assert [typed_result(t) for t in ("红胜", "和", "１－０", "1/2")] == [
        "1-0",
        "draw",
        "1-0",
        "1/2",
    ]
    assert [typed_reply(t) for t in ("接受", "反对", "object")] == ["accept", "object", "object"]
    assert typed_text(" １２：０５ ") == "12:05"


def _command_paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from _command_paths(sub, (*path, name))


def _all_paths() -> list[tuple[str, ...]]:
    from typer.main import get_command

    from knockout.program import app

    return list(_command_paths(get_command(app)))


@functools.cache
def _english_help_texts() -> frozenset[str]:
    """Every help text of the English command tree (each command's and option's)."""
    from typer.main import get_command

    from knockout.cli.localise import localised
    from knockout.program import app

    texts: set[str] = set()

    def record(text: str) -> str:
        if len(text) > 12 and re.search("[a-z]{4}", text):
            texts.add(text)
        return text

    localised(get_command(app), record)
    return frozenset(texts)


@pytest.mark.parametrize("path", _all_paths(), ids=lambda p: " ".join(p) or "knockout")
def test_every_commands_help_is_in_chinese(
    path: tuple[str, ...], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from knockout.cli.app import prepared

    monkeypatch.setenv("COLUMNS", "100")
    command, args = prepared(["--lang", "zh", *path, "--help"])
    command.main(args=args, prog_name="knockout", standalone_mode=False)
    text = " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert text.startswith("用法：knockout")
    assert "[选项]" in text
    for title in ("Options", "Arguments", "Commands", "Usage", "Show this message"):
        assert title not in text
    for english in _english_help_texts():
        first_words = " ".join(english.split()[:4])
        assert first_words not in text, f"untranslated help: {english[:60]!r}"


@pytest.mark.system
def test_lang_is_accepted_after_the_command_and_in_the_environment() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    run = [sys.executable, "-c", "from knockout.program import main; main()"]
    after = subprocess.run(
        [*run, "odds", "--help", "--lang", "zh"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    by_locale = subprocess.run(
        [*run, "odds", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**env, "LANG": "zh_CN.UTF-8", "KNOCKOUT_LANG": ""},
    )
    english = subprocess.run(
        [*run, "odds", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**env, "LANG": "zh_CN.UTF-8", "KNOCKOUT_LANG": "en"},
    )
    assert "用法：" in after.stdout
    assert "用法：" in by_locale.stdout
    assert "Usage:" in english.stdout


def test_a_usage_error_is_one_line_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    from knockout.program import main

    argv = sys.argv
    sys.argv = ["knockout", "--lang", "zh", "odds", "--bogus"]
    try:
        with pytest.raises(SystemExit) as stop:
            main()
    finally:
        sys.argv = argv
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert err == "错误：knockout odds：没有选项：--bogus（见 knockout odds --help）\n"
