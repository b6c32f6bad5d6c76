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


#: Modules no short command needs: the SimPy engine's simulator, scipy (the Normal CDF is
#: knockout.rules.normal's), plotting and the Monte Carlo layer.
SHORT_HEAVY = ("simpy", "scipy", "matplotlib", "dask", "distributed", "sims", "jinja2")


def command_modules(args: list[str], cwd: str) -> set[str]:
    """Every module in ``sys.modules`` after running ``knockout ARGS`` in a fresh interpreter."""
    code = (
        "import json, sys\nfrom knockout.program import main\n"
        "sys.argv = ['knockout', *sys.argv[1:]]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('\\n' + json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *args], check=True, capture_output=True, text=True, cwd=cwd
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


@pytest.fixture(scope="module")
def event_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    from pathlib import Path

    from typer.testing import CliRunner

    from knockout.program import app

    root = Path(__file__).resolve().parents[1] / "scenarios" / "events"
    folder = tmp_path_factory.mktemp("startup")
    path = folder / "cup.db"
    result = CliRunner().invoke(
        app,
        [
            "event",
            "new",
            str(path),
            "--scenario",
            str(root / "city-cup-16.toml"),
            "--players",
            str(root / "city-cup-16-players.csv"),
            "--seed",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    return str(path)


@pytest.mark.parametrize(
    "args",
    [
        ["odds", "{final}"],
        ["odds", "{final}", "--json"],
        ["event", "next", "{db}"],
        ["event", "record", "{db}", "R1-M1", "1", "1-0", "--dry-run"],
        ["event", "show", "{db}"],
        ["event", "odds", "{db}"],
        ["event", "log", "{db}"],
    ],
    ids=lambda a: " ".join(x for x in a if not x.startswith("{")),
)
def test_short_commands_load_no_simulator_scipy_or_plots(args: list[str], event_file: str) -> None:
    from pathlib import Path

    final = str(Path(__file__).resolve().parents[1] / "scenarios" / "final-2600-vs-2550.toml")
    argv = [a.format(final=final, db=event_file) for a in args]
    loaded = command_modules(argv, str(Path(event_file).parent))
    assert "knockout.cli.app" in loaded  # the command ran through the CLI
    tops = {m.split(".")[0] for m in loaded}
    assert sorted(tops & set(SHORT_HEAVY)) == []
    # nor the studies' and the scoring reform's input models
    assert not any(m.startswith(("knockout.studies", "knockout.scoring")) for m in loaded)


def test_the_console_script_gives_a_usage_error_in_one_line() -> None:
    """``knockout`` (``knockout.program:main``, what bench times) runs the CLI's main: a usage
    error is one line on stderr and exit code 2, not click's box."""
    code = "import sys\nfrom knockout.program import main\nsys.argv[0] = 'knockout'\nmain()"
    done = subprocess.run(
        [sys.executable, "-c", code, "simulate", "--bogus"],
        check=False,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("error: knockout simulate: No such option: --bogus")
