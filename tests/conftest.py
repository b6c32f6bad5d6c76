"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from knockout.program import app

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"

settings.register_profile(
    "default", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")


@pytest.fixture
def scenarios_dir() -> Path:
    return SCENARIOS


def z_tolerance(p: float, n: int, z: float = 4.0) -> float:
    """``z`` standard errors of a proportion ``p`` estimated from ``n`` samples."""
    return z * max(p * (1 - p), 1e-12) ** 0.5 / n**0.5


def run_json(*args: str) -> dict[str, object]:
    """Run the CLI, expect exit code 0, and parse its JSON output."""
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data
