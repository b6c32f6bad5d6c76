"""Engines for the self-play tests: the real one where installed, and a stand-in that plays the
first legal move (tests/selfplay/fake_engine.py) for everything that needs no real play."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

FAKE = Path(__file__).with_name("fake_engine.py")
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
