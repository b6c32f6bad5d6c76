"""``scenarios/final-measured.toml``: the national final on the constants the corpus measures."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from knockout.corpus.bundle import BUNDLED
from knockout.io.scenario import load_scenario
from knockout.strengths.calibrate import calibrate_strengths
from knockout.strengths.table import read_table

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "final-measured.toml"


def test_the_scenario_carries_the_measured_constants_and_their_uncertainty() -> None:
    text = SCENARIO.read_text(encoding="utf-8")
    assert text.startswith(
        "# Written by: knockout calibrate knockout/corpus/data/ccpd-games.csv.xz --strengths"
    )
    data = tomllib.loads(text)
    model = data["model"]
    assert set(model["red_advantage"]) == set(model["draw_nu"]) == {"classical", "rapid"}
    assert set(model["sd"]) == {"red_advantage", "draw_nu"}  # elo_per_doubling: not measured
    scenario = load_scenario(SCENARIO)
    assert scenario.model.draw_nu.rapid == model["draw_nu"]["rapid"]
    assert [p.name for p in scenario.players] == ["王天一", "郑惟桐"]


@pytest.mark.slow
def test_its_model_is_what_the_fit_of_the_bundled_table_writes() -> None:
    """The file's [model] is the fit's today (the command in its header: the constants do not
    depend on the bootstrap); each sd is at least the curvature's standard error (the header's
    bootstrap may widen it)."""
    text = SCENARIO.read_text(encoding="utf-8")
    header = []
    for line in text.splitlines():
        if line.startswith("# Red's advantage"):
            break
        header.append(line.removeprefix("# "))
    command = " ".join(header).removeprefix("Written by: ")
    assert "--min-games 100" in command and "--by time_class" in command
    cal = calibrate_strengths(read_table(BUNDLED), by="time_class", min_games=100)
    fresh = tomllib.loads(cal.model_toml(command))["model"]
    model = tomllib.loads(text)["model"]
    assert model["correlation"] == fresh["correlation"]
    for name in ("red_advantage", "draw_nu"):
        assert model[name] == fresh[name]
        for tc, sd in model["sd"][name].items():
            assert sd >= fresh["sd"][name][tc]
