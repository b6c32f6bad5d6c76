"""knockout fair: the fair Armageddon split, its menu, and the check by simulation."""

from __future__ import annotations

import math

import pytest
from conftest import SCENARIOS, run_json
from typer.testing import CliRunner

from knockout.io.scenario import load_scenario
from knockout.program import app
from knockout.rules.model.strength import DEFAULT_RED_ADVANTAGE
from knockout.studies.fair import fair_rules

FINAL = str(SCENARIOS / "final-2600-vs-2550.toml")
runner = CliRunner()


def davidson(d: float, nu: float) -> tuple[float, float, float]:
    g = 10 ** (d / 400)
    z = g + 1 + nu * math.sqrt(g)
    return g / z, nu * math.sqrt(g) / z, 1 / z


def test_the_split_makes_red_an_even_bet_by_hand() -> None:
    sc = load_scenario(FINAL)
    f = fair_rules(sc, black_minutes=10.0, seed=3)
    assert f.red is not None and f.reason is None
    # Red on R + 10 s v Black on 10 + 10 s (60 moves), a rapid game; a draw goes to Black
    d = DEFAULT_RED_ADVANTAGE + 120 * math.log2((f.red + 10) / 20)
    assert davidson(d, 1.0)[0] == pytest.approx(0.5, abs=1e-9)

    # to 0.01 minute: a hundredth less is short of an even bet, a hundredth more beyond it
    def red(minutes: float) -> float:
        return davidson(DEFAULT_RED_ADVANTAGE + 120 * math.log2((minutes + 10) / 20), 1.0)[0]

    assert red(f.red - 0.01) < 0.5 < red(f.red + 0.01)
    menu = f.fair_menu
    assert menu is not None
    assert menu.accept == (f.red, 10.0) and menu.object_red == (10.0, f.red)
    assert menu.object_black == (f.red + 5, 5.0)


def test_under_rational_the_fair_menu_leaves_the_chooser_nothing() -> None:
    f = fair_rules(load_scenario(FINAL), seed=1)
    assert f.advantage["seed_menu"] == pytest.approx(0.0169612, abs=1e-6)
    assert f.advantage["fair_menu"] == pytest.approx(0.0, abs=1e-9)
    # under private beliefs and with a rating gap the menus differ
    rows = f.by_gap["fair_menu"]["believed"]
    # (a mistaken reply on a private belief can only help 甲: a hair above 1/2 at gap 0)
    assert 0.5 <= rows[0.0][0] < 0.5001 and rows[200.0][0] > 0.6


def test_the_split_is_verified_by_simulation_within_4_standard_errors() -> None:
    f = fair_rules(load_scenario(FINAL), seed=11)
    assert f.verified is not None
    runs, p, se = f.verified
    assert se < 0.001 and runs >= 250_000
    assert abs(p - 0.5) <= 4 * se


def test_no_split_when_time_is_worth_nothing() -> None:
    sc = load_scenario(FINAL, overrides=["model.elo_per_doubling.rapid=0"])
    f = fair_rules(sc, seed=1)
    assert f.red is None and f.fair_menu is None and f.verified is None
    assert f.reason is not None and "even with 100 minutes" in f.reason
    data = run_json(
        "fair", FINAL, "--set", "model.elo_per_doubling.rapid=0", "--seed", "1", "--json"
    )
    assert data["armageddon"] is None and "reason" in data


def test_cli_json_keys() -> None:
    data = run_json("fair", FINAL, "--black-minutes", "12", "--seed", "4", "--json")
    keys = ("armageddon", "menu", "chooser_advantage", "verified", "seed", "version", "scenario")
    assert all(key in data for key in keys)
    assert data["armageddon"]["black"] == 12.0  # type: ignore[index]
    assert set(data["verified"]) == {"runs", "red_advances", "stderr"}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--black-minutes", "5"], "error: --black-minutes: expected a finite number more than 5"),
        (["--set", "format.preset=official-playoff"], "needs a format with a sudden-death stage"),
    ],
)
def test_cli_refusals(args: list[str], line: str) -> None:
    result = runner.invoke(app, ["fair", FINAL, *args])
    assert result.exit_code == 2
    assert line in result.stderr


def test_a_bracket_file_is_accepted_as_compare_accepts_it() -> None:
    """The split depends on the format and the model, not on who plays: a 64-player bracket
    with a match for third place gives the final's split, its check run on two equal players
    (it once refused with the sub-bracket's "third place needs at least 4 players")."""
    bracket = run_json("fair", str(SCENARIOS / "national-64.toml"), "--seed", "2", "--json")
    final = run_json("fair", FINAL, "--seed", "2", "--json")
    assert load_scenario(SCENARIOS / "national-64.toml").bracket.third_place
    assert bracket["armageddon"] == final["armageddon"]
    verified = bracket["verified"]
    assert isinstance(verified, dict)
    assert abs(verified["red_advances"] - 0.5) <= 4 * verified["stderr"]


ABOVE_CAP = ["model.elo_per_doubling.rapid=75", "model.draw_nu.rapid=1.6"]


def test_a_split_beyond_the_search_is_above_the_cap_not_absent() -> None:
    """At 75 Elo a doubling and draw_nu 1.6 the fair Red clock is about 106 minutes: beyond the
    default cap (10 times Black's 10), found once the cap is raised."""
    sc = load_scenario(FINAL, overrides=ABOVE_CAP)
    capped = fair_rules(sc, seed=1, detail=False)
    assert capped.red is None and capped.no_split == "above_cap"
    assert capped.reason is not None and "above the 100-minute cap" in capped.reason
    assert "no split is fair" not in capped.reason
    found = fair_rules(sc, seed=1, detail=False, max_minutes=200)
    assert found.red is not None and 100 < found.red < 120
    r, _, _ = davidson(DEFAULT_RED_ADVANTAGE + 75 * math.log2((found.red + 10) / 20), 1.6)
    assert r == pytest.approx(0.5, abs=1e-9)
    assert found.to_json()["max_minutes"] == 200


def test_time_worth_nothing_is_no_split_at_any_cap() -> None:
    sc = load_scenario(FINAL, overrides=["model.elo_per_doubling.rapid=0"])
    f = fair_rules(sc, seed=1, detail=False, max_minutes=10_000)
    assert f.red is None and f.no_split == "time_worth_nothing"
    assert f.to_json()["no_split"] == "time_worth_nothing"


def test_cli_max_minutes() -> None:
    args = ["fair", FINAL, *(a for s in ABOVE_CAP for a in ("--set", s)), "--seed", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "above the 100-minute cap" in " ".join(result.stdout.split())
    data = run_json(*args, "--max-minutes", "150", "--json")
    assert 100 < data["armageddon"]["red"] < 120  # type: ignore[index]
