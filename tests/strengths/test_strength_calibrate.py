"""``calibrate_strengths``: which games, the classes and their fallback, the outputs."""

from __future__ import annotations

import math
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from knockout.errors import InputError
from knockout.io.scenario import load_scenario
from knockout.strengths.calibrate import (
    MIN_CLASS_GAMES,
    calibrate_strengths,
    players_csv,
    select_games,
)
from knockout.strengths.simulate import simulate_field
from knockout.strengths.table import GameRow, GameTable, Outcome, TableClass, parse_table

PLAYERS = '\n[[players]]\nname = "A"\nrating = 2500\n\n[[players]]\nname = "B"\nrating = 2450\n'


@pytest.fixture(scope="module")
def table() -> GameTable:
    sim = simulate_field(
        np.random.default_rng(4),
        players=50,
        events_per_year=6,
        folders=("以賽事分類", "以棋手分類"),
    )
    t = parse_table(sim.csv, source="sim.csv")
    # A few blitz games (too few for constants of their own), a tie-break, an engine game, an
    # unknown result and a game without a year.
    games = list(t.games)
    for i in range(12):
        games[i] = replace(games[i], time_class=TableClass.BLITZ)
    games[12] = replace(games[12], time_class=TableClass.TIEBREAK)
    games[13] = replace(games[13], kind="engine")
    games[14] = replace(games[14], result=Outcome.UNKNOWN)
    games[15] = replace(games[15], year=None)
    return replace(t, games=tuple(games))


@pytest.fixture(scope="module")
def per_class(table: GameTable):  # type: ignore[no-untyped-def]
    return calibrate_strengths(table, by="time_class")


def test_games_left_out_by_reason(table: GameTable) -> None:
    assert select_games(table).left_out == {
        "tie-break games (clocks not stated)": 1,
        "engine games": 1,
        "result not known (*)": 1,
        "no year": 1,
    }


def test_the_json_contract_and_the_blitz_fallback(table: GameTable, per_class) -> None:  # type: ignore[no-untyped-def]
    data = per_class.to_json()
    for tc in ("classical", "rapid", "blitz"):
        assert {"games", "red_advantage", "draw_nu"} <= set(data[tc])
        assert {"estimate", "stderr"} <= set(data[tc]["red_advantage"])
    assert data["classical"]["red_advantage"]["stderr"] > 0
    blitz = data["blitz"]
    assert blitz["games"] == 12 and blitz["red_advantage"]["estimate"] is None
    assert blitz["fitted_in"] == "classical"
    assert blitz["reason"].startswith("12 games (")
    assert f"fewer than the {MIN_CLASS_GAMES} a class needs" in blitz["reason"]
    # The simulation writes slow games as unknown: without them no classical game is left.
    without = data["classical"]["without_unknown"]
    assert without["games"] == 0 and without["red_advantage"]["estimate"] is None
    assert set(data["by_source"]) == {"以賽事分類", "以棋手分類"}
    assert data["strengths"]["players"] == 50 and data["strengths"]["drift"] > 0
    used = sum(data[tc]["games"] for tc in ("classical", "rapid", "blitz"))
    assert used == data["games"]["measured"] == data["games"]["fitted"]
    assert used == len(select_games(table).games)
    assert data["min_games"] == {"games": 0, "players": 0}


def test_one_set_for_every_class(table: GameTable) -> None:
    pooled = calibrate_strengths(table, by=None).to_json()
    assert pooled["by"] is None
    values = {pooled[tc]["draw_nu"]["estimate"] for tc in ("classical", "rapid", "blitz")}
    assert len(values) == 1 and next(iter(values)) > 0


def test_constants_measured_between_established_players(table: GameTable) -> None:
    """With min_games, the classes count only the games between two players with that many
    games; the strengths still use every game."""
    games = select_games(table).games
    played: dict[str, int] = {}
    for g in games:
        for p in (g.red, g.black):
            played[p] = played.get(p, 0) + 1
    cut = sorted(played.values())[len(played) // 2]
    between = [g for g in games if played[g.red] >= cut and played[g.black] >= cut]
    data = calibrate_strengths(table, by="time_class", min_games=cut).to_json()
    assert data["games"] == {
        "fitted": len(games),
        "measured": len(between),
        "left_out": select_games(table).left_out,
    }
    assert data["min_games"] == {"games": cut, "players": sum(n >= cut for n in played.values())}
    assert sum(data[tc]["games"] for tc in ("classical", "rapid", "blitz")) == len(between)
    assert all("others" not in pair[0] + pair[1] for pair in data["correlation"])
    with pytest.raises(InputError, match="--min-games: expected at least 100 games between two"):
        calibrate_strengths(table, min_games=10_000)


def test_the_model_file_is_a_scenario_model_with_its_uncertainty(  # type: ignore[no-untyped-def]
    per_class, tmp_path: Path
) -> None:
    text = per_class.model_toml("knockout calibrate sim.csv --strengths --by time_class")
    assert text.startswith("# Written by: knockout calibrate sim.csv --strengths")
    parsed = tomllib.loads(text)
    model = parsed["model"]
    assert set(model["red_advantage"]) == {"classical", "rapid"}  # blitz: too few games
    assert set(parsed["model"]["sd"]["draw_nu"]) == {"classical", "rapid"}
    classical = per_class.main.by_class()["classical"]
    assert model["draw_nu"]["classical"] == classical.draw_nu.estimate
    path = tmp_path / "s.toml"
    path.write_text(text + PLAYERS, encoding="utf-8")
    loaded = load_scenario(path).model
    assert loaded.red_advantage.rapid == pytest.approx(model["red_advantage"]["rapid"])


def test_the_players_table(per_class) -> None:  # type: ignore[no-untyped-def]
    lines = players_csv(per_class).splitlines()
    assert lines[0] == "player,games,first_year,last_year,strength,stderr,peak,peak_year"
    strengths = [float(line.split(",")[4]) for line in lines[1:]]
    assert strengths == sorted(strengths, reverse=True) and len(strengths) == 50
    regular = [p.strength for p in per_class.players if p.games >= 20]
    assert math.isclose(float(np.mean(regular)), 0.0, abs_tol=1e-6)


def test_too_few_games_is_one_line(table: GameTable) -> None:
    few = replace(table, games=table.games[:60])
    with pytest.raises(InputError) as info:
        calibrate_strengths(few)
    (line,) = info.value.lines()
    assert line.startswith(
        f"sim.csv: expected at least {MIN_CLASS_GAMES} master games with a result and a year"
    )
    assert "got 56 (" in line and "left out: 1 tie-break games" in line


@pytest.mark.slow
def test_the_standard_errors_against_a_bootstrap_over_events(table: GameTable) -> None:
    """The curvature's standard errors and the spread over 40 resamples of whole events agree
    within the bootstrap's own precision (a sd from 40 draws is within about 25 % at 2 se)."""
    cal = calibrate_strengths(table, by="time_class", bootstrap=40, rng=np.random.default_rng(0))
    assert cal.bootstrap is not None
    boot = cal.bootstrap["stderr"]
    data = cal.to_json()
    for path, sd in boot.items():
        name, tc = path.split(".")
        se = data[tc][name]["stderr"]
        assert 0.65 < sd / se < 1.45, (path, sd, se)


def test_a_bootstrap_wider_than_the_curvature_widens_the_model_files_sd(per_class) -> None:  # type: ignore[no-untyped-def]
    curvature = per_class.main.by_class()["classical"].draw_nu.stderr
    spread = {"draw_nu.classical": 2 * curvature, "red_advantage.classical": 0.001}
    boot = {"replicates": 50, "events": 120, "stderr": spread}
    text = replace(per_class, bootstrap=boot).model_toml("knockout calibrate x --strengths")
    sd = tomllib.loads(text)["model"]["sd"]
    assert sd["draw_nu"]["classical"] == 2 * curvature
    red = per_class.main.by_class()["classical"].red_advantage.stderr
    assert sd["red_advantage"]["classical"] == red
    header = " ".join(line[2:] for line in text.splitlines() if line.startswith("# "))
    assert (
        "the spread over 50 resamples of the 120 events; the bootstrap's for draw_nu.classical"
        in header
    )


def test_events_named_slow_give_the_classical_fit_without_unknown_games(  # type: ignore[no-untyped-def]
    table: GameTable, per_class
) -> None:
    """--classical-events: the unknown games of the events named are classical; the main fit
    (unknown games fitted as classical anyway) does not move, and the classical fit without
    the unknown games now stands on those games alone."""
    slow = [
        g
        for g in select_games(table).games
        if g.time_class is TableClass.UNKNOWN and any(e in g.event for e in ("Cup 1", "Cup 2"))
    ]
    assert len(slow) >= MIN_CLASS_GAMES
    cal = calibrate_strengths(table, by="time_class", classical_events=["Cup 1", "Cup2"])
    data, before = cal.to_json(), per_class.to_json()
    assert data["classical_events"] == {"events": ["Cup 1", "Cup2"], "games": len(slow)}
    assert cal.marked_classical == len(slow)
    for tc in ("classical", "rapid"):
        for name in ("red_advantage", "draw_nu"):
            assert data[tc][name]["estimate"] == pytest.approx(
                before[tc][name]["estimate"], rel=1e-9
            )
    without = data["classical"]["without_unknown"]
    assert without["games"] == len(slow)
    assert without["results"] == dict(zip(("red", "draw", "black"), _counts(slow), strict=True))
    assert without["red_advantage"]["stderr"] > data["classical"]["red_advantage"]["stderr"]
    assert before["classical"]["without_unknown"]["games"] == 0
    assert "classical_events" not in before


def _counts(games: list[GameRow]) -> tuple[int, int, int]:
    codes = [g.result.code for g in games]
    return codes.count(0), codes.count(1), codes.count(2)
