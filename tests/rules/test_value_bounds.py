"""Values no player could have are refused, one line each, exit code 2: the issue's four
(an sd of 1e300 Elo, belief_sd 1e9, a rating of 1e12, elo_per_doubling 1e6) and every other
bound the scenario docs state, whether the value comes from --set, a file, or Python."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import SCENARIOS
from typer.testing import CliRunner

from knockout.errors import ScenarioError
from knockout.io.scenario import load_scenario
from knockout.program import app
from knockout.rules.decisions.strategies import get_strategy
from knockout.rules.model.players import MAX_BELIEF_SD, MAX_RATING, MAX_RATING_SD
from knockout.rules.model.strength import BOUNDS, MAX_MOVES, SD_BOUNDS

HOW_SURE = str(SCENARIOS / "final-how-sure.toml")
runner = CliRunner()

SDS, EPD = SD_BOUNDS, BOUNDS["elo_per_doubling"][1]
#: (--set, the key in the message, the bound)
TOO_BIG = [
    ("model.sd.red_advantage.rapid=1e300", "model.sd.red_advantage.rapid", SDS["red_advantage"]),
    ("strategy.belief_sd=1e9", "strategy.belief_sd", MAX_BELIEF_SD),
    ("players.王天一.rating=1e12", "players[0].rating", MAX_RATING),
    ("model.elo_per_doubling.rapid=1e6", "model.elo_per_doubling.rapid", EPD),
    ("model.red_advantage.blitz=801", "model.red_advantage.blitz", BOUNDS["red_advantage"][1]),
    ("model.draw_nu.classical=51", "model.draw_nu.classical", BOUNDS["draw_nu"][1]),
    ("model.sd.draw_nu.rapid=6", "model.sd.draw_nu.rapid", SDS["draw_nu"]),
    (
        "model.sd.elo_per_doubling.rapid=501",
        "model.sd.elo_per_doubling.rapid",
        SDS["red_advantage"],
    ),
    ("players.郑惟桐.rating_rapid=4001", "players[1].rating_rapid", MAX_RATING),
    ("model.moves=1001", "model.moves", MAX_MOVES),
]


@pytest.mark.parametrize(("setting", "key", "bound"), TOO_BIG)
def test_absurd_values_are_refused_in_one_line(setting: str, key: str, bound: float) -> None:
    result = runner.invoke(app, ["odds", HOW_SURE, "--set", setting])
    assert result.exit_code == 2 and "Traceback" not in result.output
    (line,) = result.stderr.strip().splitlines()
    assert key in line and f"<= {bound:g}" in line


def test_the_bounds_themselves_are_accepted() -> None:
    sets = [
        f"model.sd.red_advantage.rapid={SD_BOUNDS['red_advantage']:g}",
        f"strategy.belief_sd={MAX_BELIEF_SD:g}",
        f"players.王天一.rating={MAX_RATING:g}",
        f"model.elo_per_doubling.rapid={BOUNDS['elo_per_doubling'][1]:g}",
        f"model.red_advantage.blitz={BOUNDS['red_advantage'][0]:g}",
    ]
    sc = load_scenario(HOW_SURE, overrides=sets)
    assert sc.players[0].rating == MAX_RATING and sc.belief_sd == MAX_BELIEF_SD
    assert MAX_RATING_SD == 500  # the bound the docs already stated


def test_a_file_and_python_are_held_to_the_same_bounds(tmp_path: Path) -> None:
    text = Path(HOW_SURE).read_text(encoding="utf-8").replace("rating = 2600", "rating = 1e12")
    bad = tmp_path / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["odds", str(bad)])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"error: {bad}: players[0].rating: expected a number <= {MAX_RATING:g}, got 1000000000000.0"
    )
    sc = load_scenario(HOW_SURE)
    with pytest.raises(ScenarioError, match=r"players\[0\]\.rating"):
        replace(sc, players=(replace(sc.players[0], rating=1e12), sc.players[1]))
    with pytest.raises(ScenarioError, match=r"strategy\.belief_sd"):
        replace(sc, strategy=get_strategy("believed", belief_sd=1e9))
    with pytest.raises(ScenarioError, match=r"model\.elo_per_doubling\.rapid"):
        replace(sc, model=sc.model.with_overrides(elo_per_doubling={"rapid": 1e6}))
