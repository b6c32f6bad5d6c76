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
        "from knockout.program import app",  # the program's CLI, bench registered (main alone
        # imports nothing of it until it runs: a bare --version never does)
    ],
)
@pytest.mark.system
def test_importing_the_cli_pulls_in_no_heavy_module(statement: str) -> None:
    loaded = modules_after(statement)
    assert "typer" in loaded  # the check itself works
    assert sorted(loaded & set(HEAVY)) == []


@pytest.mark.system
def test_version_runs_without_the_heavy_modules() -> None:
    code = (
        "import sys\n"
        "from knockout.program import main\n"
        "sys.argv = ['knockout', '--version']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
    )
    loaded = modules_after(code)
    assert sorted(loaded & set(HEAVY)) == []


@pytest.mark.system
def test_importing_the_cli_does_not_import_numpy() -> None:
    assert "numpy" not in modules_after("from knockout.cli import main")


def test_the_standings_help_lists_the_registrys_codes() -> None:
    from knockout.cli.standings import TIEBREAK_CODES
    from knockout.standings.tiebreaks import TIEBREAKS

    assert tuple(TIEBREAKS) == TIEBREAK_CODES


#: Modules no short command needs: the SimPy engine's simulator, scipy (the Normal CDF is
#: knockout.rules.model.normal's), plotting and the Monte Carlo layer.
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
@pytest.mark.system
def test_short_commands_load_no_simulator_scipy_or_plots(args: list[str], event_file: str) -> None:
    from pathlib import Path

    final = str(Path(__file__).resolve().parents[1] / "scenarios" / "final-2600-vs-2550.toml")
    argv = [a.format(final=final, db=event_file) for a in args]
    loaded = command_modules(argv, str(Path(event_file).parent))
    assert "knockout.cli.app" in loaded  # the command ran through the CLI
    tops = {m.split(".")[0] for m in loaded}
    assert sorted(tops & set(SHORT_HEAVY)) == []
    # typer's pydantic adapters for command-line values (typer 0.29) are not built either
    assert "typer._adapters" not in loaded
    # nor the studies' and the scoring reform's input models
    assert not any(m.startswith(("knockout.studies", "knockout.scoring")) for m in loaded)
    # a valid scenario is checked without pydantic (knockout.schema), and the colour lot is
    # drawn without numpy.random (knockout.event.lot)
    assert "pydantic" not in tops
    assert "numpy.random" not in loaded
    assert "numpy.ma" not in loaded  # numpy's median and quantile import it


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.system
def test_a_short_simulation_with_helpers_allowed_loads_what_one_process_does(
    workers: str,
) -> None:
    """Allowing helpers costs a short run nothing it would not pay alone: deciding on them
    (the median of a few blocks' times) does not import numpy.ma, 0.1 s of CPU."""
    from pathlib import Path

    final = str(Path(__file__).resolve().parents[1] / "scenarios" / "final-2600-vs-2550.toml")
    argv = ["simulate", final, "--runs", "1000000", "--seed", "1", "--json", "--workers", workers]
    loaded = command_modules(argv, str(Path(final).parent))
    assert "sims.runner" in loaded  # the run went through the runner
    assert "numpy.ma" not in loaded


@pytest.mark.system
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


def test_typer_builds_only_the_invoked_command() -> None:
    """The CLI hands typer a copy holding only the command named (typer builds every registered
    command's parameters at each call); the whole program when no command is named."""
    from knockout.cli.app import invoked_only
    from knockout.program import app

    def names(program: object, group: str | None = None) -> list[str]:
        from typer.main import get_command

        command = get_command(program)  # type: ignore[arg-type]
        if group is not None:
            command = command.commands[group]  # type: ignore[attr-defined]
        return sorted(command.commands)  # type: ignore[attr-defined]

    everything = names(app)
    assert len(everything) > 15 and "odds" in everything and "event" in everything
    assert names(invoked_only(app, ["odds", "x.toml", "--json"])) == ["odds"]
    assert names(invoked_only(app, ["event", "next", "cup.db"])) == ["event"]
    assert names(invoked_only(app, ["event", "next", "cup.db"]), "event") == ["next"]
    assert names(invoked_only(app, ["event", "--help"]), "event") == names(app, "event")
    for args in ([], ["--help"], ["--version"], ["odsd"]):
        assert invoked_only(app, args) is app
    # the copies leave the program as it was
    assert names(app) == everything


@pytest.mark.parametrize("args", [["--help"], ["odds", "--help"], ["event", "nexx"], ["odsd"]])
def test_help_and_unknown_commands_read_as_before(args: list[str]) -> None:
    """What the pruned program prints equals what the whole program prints."""
    from typer.testing import CliRunner

    from knockout.cli.app import invoked_only
    from knockout.program import app

    whole = CliRunner().invoke(app, args)
    pruned = CliRunner().invoke(invoked_only(app, args), args)
    assert (pruned.exit_code, pruned.output) == (whole.exit_code, whole.output)
