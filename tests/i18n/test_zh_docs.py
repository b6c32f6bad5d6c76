"""The Chinese pages' terminal sessions run as tests, like the English organiser page's: each
``$ knockout ...`` line of a ``console`` block in docs/zh/, in order, in one folder, prints what
the page shows (a line ``...`` stands for any number of lines) and exits 2 exactly when it
shows an ``错误：`` line. Commands go through the program's own entry (``--lang`` included)."""

from __future__ import annotations

import importlib.util
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from knockout.i18n import set_language

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs" / "zh").glob("*.md"))

_spec = importlib.util.spec_from_file_location(
    "docs_transcripts", ROOT / "tests" / "test_docs_transcripts.py"
)
assert _spec is not None and _spec.loader is not None
_transcripts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_transcripts)
transcripts, matches = _transcripts.transcripts, _transcripts.matches


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    from knockout.cli.localise import set_typer_words
    from knockout.i18n import _

    set_language("en", explicit=False)
    set_typer_words(_)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    import sys

    from knockout.program import main

    saved = sys.argv
    sys.argv = ["knockout", *argv]
    try:
        main()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 0
    finally:
        sys.argv = saved
    out = capsys.readouterr()
    return code, [line.rstrip() for line in (out.out + out.err).splitlines()]


@pytest.mark.parametrize("page", [p for p in PAGES if "```console" in p.read_text("utf-8")],
                         ids=lambda p: p.name)  # fmt: skip
def test_the_chinese_pages_run_as_shown(
    page: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")
    for name in ("LC_ALL", "LC_MESSAGES", "KNOCKOUT_LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    steps = transcripts(page.read_text(encoding="utf-8"))
    assert steps
    for command, expected in steps:
        argv = shlex.split(command)
        assert argv[0] == "knockout", command
        code, actual = run(argv[1:], capsys)
        while actual and not actual[-1]:
            actual.pop()
        while expected and not expected[-1]:
            expected.pop()
        fails = any(x.startswith("错误：") for x in expected)
        assert code == (2 if fails else 0), (command, actual)
        assert matches(expected, actual), (command, "\n".join(actual))
