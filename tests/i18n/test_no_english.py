"""The rule designer's commands in Chinese leave no English sentence of the catalogue on screen.

Each command runs with ``--lang zh`` through the program's own entry; its output (and a study's
summary.md) must not hold any English text of the catalogue: every stretch of a message id
between its placeholders, three words or longer, is looked for. Names, keys, numbers and the
scenario's own words (its name, its stage keys) are data and may stay as they are.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from knockout.i18n import LOCALE_DIR, set_language

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FINAL = str(ROOT / "scenarios" / "final-2600-vs-2550.toml")
HOW_SURE = str(ROOT / "scenarios" / "final-how-sure.toml")


def english_stretches() -> set[str]:
    """Every stretch of English of three words or more in the catalogue's message ids."""
    with (LOCALE_DIR / "knockout.pot").open("rb") as file:
        catalog = read_po(file)
    found: set[str] = set()
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for msgid in ids:
            if not msgid or any(loc[0] == "--help" for loc in message.locations):
                continue
            for part in re.split(r"\{[^{}]*\}|\[/?\w*\]|\n|`[^`]*`", msgid):
                words = re.findall(r"[A-Za-z][A-Za-z'-]+", part)
                if len(words) >= 3:
                    found.add(" ".join(words))
    return found


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    from knockout.cli.localise import set_typer_words
    from knockout.i18n import _

    set_language("en", explicit=False)
    set_typer_words(_)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    from knockout.program import main

    saved = sys.argv
    sys.argv = ["knockout", "--lang", "zh", *argv]
    try:
        main()
    except SystemExit as stop:
        assert stop.code in (0, None), capsys.readouterr()
    finally:
        sys.argv = saved
    out = capsys.readouterr()
    return out.out + out.err


def english_left(text: str) -> list[str]:
    flat = " ".join(re.findall(r"[A-Za-z][A-Za-z'-]+", text))
    return sorted(s for s in english_stretches() if s in flat)


def test_the_check_finds_english() -> None:
    assert english_left("Where the match is decided") == ["Where the match is decided"]
    assert english_left("对阵在哪个阶段决出胜负") == []


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", FINAL],
        ["odds", str(ROOT / "scenarios" / "national-64.toml")],
        ["odds", HOW_SURE],
        ["compare", FINAL, "--gaps", "0,100"],
        ["fair", HOW_SURE, "--seed", "1"],
        ["incentives", FINAL, "--grid", "21"],
        ["simulate", FINAL, "--runs", "20000", "--seed", "1"],
        ["play", FINAL, "--seed", "7"],
        ["equilibrium", FINAL],
    ],
    ids=lambda a: " ".join(Path(x).name for x in a),
)
def test_the_designers_commands_speak_chinese(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert english_left(run(argv, capsys)) == []


def test_a_studys_summary_speaks_chinese(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    study = tmp_path / "study.toml"
    study.write_text(
        f'name = "小研究"\nscenario = "{HOW_SURE}"\n'
        'metrics = ["fair.chooser_advantage.seed_menu", "odds.match.chooser_advances"]\n'
        "[grid]\n"
        '"model.elo_per_doubling.rapid" = { from = 0, to = 200, steps = 3 }\n'
        '"model.draw_nu.rapid" = { from = 0.3, to = 2.0, steps = 3 }\n',
        encoding="utf-8",
    )
    shown = run(["study", str(study), "--out", str(tmp_path / "out")], capsys)
    summary = (tmp_path / "out" / "summary.md").read_text(encoding="utf-8")
    assert english_left(shown) == []
    assert english_left(summary) == []
