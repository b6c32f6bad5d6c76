"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import json
import multiprocessing.process
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"

# One terminal width for the whole run, in every pytest-xdist worker (which starts with COLUMNS=80
# and LINES=24 in its environment) and every command a test starts, whatever the developer's shell
# exports: with no terminal attached (pytest captures the output) rich and click wrap at their
# default, 80 columns. COLUMNS is removed, not set: a rich console built while it is set keeps that
# width for good (the CLI's consoles are built when knockout.cli is imported, after this file), so
# a test could not widen it. A test that needs another width passes its own (CliRunner's env=, or
# a Console's width=).
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)

settings.register_profile(
    "default", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")


@pytest.fixture(autouse=True)
def _an_empty_working_directory(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test starts in a new empty directory, so none reads the repository through the
    current directory (the suite passes from any directory) or leaves files in it. A test that
    runs a documented command the way a reader would, from the repository, says so with
    ``monkeypatch.chdir(ROOT)``."""
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))


@pytest.fixture(autouse=True)
def _processes_only_in_system_tests(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """A test that starts a process (a subprocess, a process pool, a Dask cluster) must be
    marked ``system``, so that ``make test-fast`` (``-m "not system"``) stays quick and starts
    none: an unmarked one fails at teardown saying so (docs/contributing.md)."""
    if request.node.get_closest_marker("system") is not None:
        yield
        return
    started: list[str] = []
    popen = subprocess.Popen._execute_child  # type: ignore[attr-defined]
    start = multiprocessing.process.BaseProcess.start

    def execute_child(self: subprocess.Popen[Any], args: Any, *rest: Any, **kw: Any) -> Any:
        started.append(f"subprocess {args!r}"[:120])
        return popen(self, args, *rest, **kw)

    def start_process(self: multiprocessing.process.BaseProcess) -> None:
        started.append(f"process {self.name}")
        start(self)

    monkeypatch.setattr(subprocess.Popen, "_execute_child", execute_child)
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", start_process)
    yield
    if started:
        pytest.fail(
            f"this test starts a process ({started[0]}): mark it @pytest.mark.system",
            pytrace=False,
        )


@pytest.fixture
def scenarios_dir() -> Path:
    return SCENARIOS


def z_tolerance(p: float, n: int, z: float = 4.0) -> float:
    """``z`` standard errors of a proportion ``p`` estimated from ``n`` samples."""
    return z * max(p * (1 - p), 1e-12) ** 0.5 / n**0.5


def run_json(*args: str) -> dict[str, object]:
    """Run the CLI, expect exit code 0, and parse its JSON output."""
    from knockout.program import app

    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


# Engines for the self-play tests (tests/selfplay): the real one where installed, and a stand-in
# that plays a legal move chosen by pyffish (tests/selfplay/fake_engine.py) for the rest.
FAKE = Path(__file__).resolve().parent / "selfplay" / "fake_engine.py"
REAL = shutil.which("fairy-stockfish") or shutil.which("fairy-stockfish", path="/usr/games")
NO_ENGINE = (
    "the Xiangqi engine fairy-stockfish is not installed (apt-get install fairy-stockfish; "
    ".ci/run installs it)"
)


@pytest.fixture
def fake_engine(tmp_path: Path) -> Callable[..., str]:
    """A function that writes an executable stand-in engine with the given environment."""

    def make(name: str = "fake-engine", **env: str) -> str:
        script = tmp_path / name
        exports = "".join(f"export {k}={v}\n" for k, v in env.items())
        script.write_text(f"#!/bin/sh\n{exports}exec {sys.executable} {FAKE}\n")
        script.chmod(0o755)
        return str(script)

    return make


@pytest.fixture
def real_engine() -> str:
    """Fairy-Stockfish's path, or the test skips saying how to install it."""
    pytest.importorskip("pyffish", reason="pip install 'knockout[selfplay]' for the rules library")
    if REAL is None or not os.access(REAL, os.X_OK):
        pytest.skip(NO_ENGINE)
    return REAL
