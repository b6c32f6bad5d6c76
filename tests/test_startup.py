"""A fast start: importing the CLI pulls in none of the heavy layers (checked in a clean process).

``knockout --version`` and ``--help`` need only typer, rich and the command definitions; each
command imports the core, scipy, pydantic or sims in its own body. Nothing here is timed
(``knockout bench`` measures the start-up against ``python -c "import numpy"``).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: Modules that must not be imported by ``import knockout.cli``.
HEAVY = ("scipy", "matplotlib", "dask", "distributed", "sims", "pyffish")


def modules_after(statement: str) -> set[str]:
    """Top-level packages in ``sys.modules`` after running ``statement`` in a fresh interpreter."""
    code = f"{statement}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    return {name.split(".")[0] for name in json.loads(out.splitlines()[-1])}


@pytest.mark.parametrize(
    "statement",
    [
        "import knockout.cli",
        "from knockout.cli import app, main",
        "from knockout.program import main",
    ],
)
def test_importing_the_cli_pulls_in_no_heavy_module(statement: str) -> None:
    loaded = modules_after(statement)
    assert "typer" in loaded  # the check itself works
    assert sorted(loaded & set(HEAVY)) == []


def test_version_runs_without_the_heavy_modules() -> None:
    code = (
        "import sys\n"
        "from knockout.program import main\n"
        "sys.argv = ['knockout', '--version']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
    )
    loaded = modules_after(code)
    assert sorted(loaded & set(HEAVY)) == []


def test_importing_the_cli_does_not_import_numpy() -> None:
    assert "numpy" not in modules_after("from knockout.cli import main")


def test_the_standings_help_lists_the_registrys_codes() -> None:
    from knockout.cli.standings import TIEBREAK_CODES
    from knockout.standings.tiebreaks import TIEBREAKS

    assert tuple(TIEBREAKS) == TIEBREAK_CODES
