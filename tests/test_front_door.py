"""The front door: ``knockout.load/odds/simulate/play`` take the whole scenario and return the
answer types the CLI prints, whose ``to_json()`` is the ``--json`` answer without its envelope."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import SCENARIOS, run_json

import knockout

ENVELOPE = ("version", "seed", "scenario")


def _body(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ENVELOPE}


def _same(api: dict[str, Any], cli: dict[str, Any]) -> None:
    # through JSON, as the CLI prints it (tuples become lists, numbers the same floats)
    assert _body(json.loads(json.dumps(api, ensure_ascii=False))) == _body(cli)


@pytest.mark.parametrize(
    "scenario", ["final-2600-vs-2550.toml", "open-12-in-progress.toml", "newcomer.toml"]
)
def test_odds_equals_the_odds_command(scenario: str) -> None:
    path = SCENARIOS / scenario
    _same(knockout.odds(knockout.load(path)).to_json(), run_json("odds", str(path), "--json"))


def test_load_takes_overrides() -> None:
    path = SCENARIOS / "final-2600-vs-2550.toml"
    sc = knockout.load(path, sets=["players.郑惟桐.rating=2600"])
    cli = run_json("odds", str(path), "--json", "--set", "players.郑惟桐.rating=2600")
    _same(knockout.odds(sc).to_json(), cli)


@pytest.mark.parametrize("scenario", ["final-2600-vs-2550.toml", "open-12-in-progress.toml"])
def test_simulate_equals_the_simulate_command(scenario: str) -> None:
    path = SCENARIOS / scenario
    api = knockout.simulate(knockout.load(path), runs=20_000, seed=5).to_json()
    cli = run_json("simulate", str(path), "--runs", "20000", "--seed", "5", "--json")
    _same(api, cli)


@pytest.mark.parametrize("scenario", ["final-2600-vs-2550.toml", "open-12-in-progress.toml"])
def test_play_equals_the_play_command(scenario: str) -> None:
    path = SCENARIOS / scenario
    api = knockout.play(knockout.load(path), seed=11).to_json()
    _same(api, run_json("play", str(path), "--seed", "11", "--json"))


@pytest.mark.system
def test_importing_knockout_stays_light() -> None:
    code = "import json, sys, knockout\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    loaded = {m.split(".")[0] for m in json.loads(out)}
    assert not loaded & {"numpy", "scipy", "simpy", "pydantic", "sims"}


def test_the_front_door_refuses_a_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[players]]\nname = "A"\nrating = "x"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="players"):
        knockout.load(bad)
