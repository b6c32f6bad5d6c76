"""The console-script entry point (``knockout.program:main``): a bare ``--version`` is answered
before the command line is built, with the line typer's ``--version`` prints; anything else goes
through the command line."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from knockout.program import app
from knockout.version import __version__

PROBE = """
import sys
sys.argv = ["knockout", *sys.argv[1:]]
from knockout.program import main
try:
    main()
except SystemExit:
    pass
print(sorted(m for m in ("typer", "rich", "numpy", "typing", "knockout.cli") if m in sys.modules))
"""


def probe(*args: str) -> tuple[str, list[str]]:
    """What the program printed, and which heavy modules it had loaded."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True
    )
    printed, _, loaded = done.stdout.rstrip("\n").rpartition("\n")
    return printed + "\n", ast.literal_eval(loaded)


@pytest.mark.system
def test_a_bare_version_is_typers_line_without_the_command_line() -> None:
    printed, loaded = probe("--version")
    assert printed == f"knockout {__version__}\n"
    assert loaded == []
    typer_says = CliRunner().invoke(app, ["--version"])
    assert typer_says.exit_code == 0 and typer_says.output == printed


@pytest.mark.system
def test_version_with_anything_else_goes_through_the_command_line() -> None:
    printed, loaded = probe("--version", "odds")
    assert printed == f"knockout {__version__}\n"  # typer's eager option
    assert {"typer", "knockout.cli"} <= set(loaded)


#: Runs the program, recording whether the collector was on while its command was built and
#: after it ran, and whether what was built was frozen.
COLLECTOR = """
import gc, json, sys
sys.argv = ["knockout", *sys.argv[1:]]
import knockout.cli
cli = sys.modules["knockout.cli.app"]
building = []
real = cli.prepared


def prepared(argv):
    building.append(gc.isenabled())
    return real(argv)


cli.prepared = prepared
from knockout.program import main
try:
    main()
except SystemExit:
    pass
print(json.dumps([building, gc.isenabled(), gc.get_freeze_count() > 0]))
"""


@pytest.mark.system
@pytest.mark.parametrize("args", [["odds", "--help"], ["no-such-command"]])
def test_the_collector_is_off_while_the_command_is_built_and_on_when_it_runs(
    args: list[str],
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", COLLECTOR, *args], capture_output=True, text=True, check=True
    )
    building, enabled, frozen = json.loads(done.stdout.strip().splitlines()[-1])
    assert building == [False]
    assert enabled and frozen
