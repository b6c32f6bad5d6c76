"""knockout compare: formats side by side, checked against odds, hand values and the engine."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from conftest import SCENARIOS, run_json
from typer.testing import CliRunner

from knockout.engine.match import play_match
from knockout.exact.odds import match_odds
from knockout.io.scenario import load_scenario
from knockout.program import app
from knockout.rules.book.presets import FORMATS
from knockout.rules.model.players import Player
from knockout.rules.model.strength import DEFAULT_RED_ADVANTAGE
from knockout.rules.scenario.aggregate import parse_scenario
from knockout.studies.compare import compare_formats, resolve_formats

FINAL = str(SCENARIOS / "final-2600-vs-2550.toml")
runner = CliRunner()


def davidson(d: float, nu: float) -> tuple[float, float, float]:
    g = 10 ** (d / 400)
    z = g + 1 + nu * math.sqrt(g)
    return g / z, nu * math.sqrt(g) / z, 1 / z


@pytest.fixture(scope="module")
def comparison():  # type: ignore[no-untyped-def]
    sc = load_scenario(FINAL)
    return sc, compare_formats(sc, resolve_formats(sc, None), gaps=(0, 50, 150), base=2450)


def test_every_preset_is_a_row(comparison) -> None:  # type: ignore[no-untyped-def]
    _, c = comparison
    assert {r.format for r in c.rows} == set(FORMATS)


def test_compare_agrees_with_odds_for_every_format(comparison) -> None:  # type: ignore[no-untyped-def]
    sc, c = comparison
    formats = dict(resolve_formats(sc, None))
    for row in c.rows:
        for gap, p in row.stronger_advances.items():
            data = sc.to_dict()
            data["players"] = [
                {"name": "S", "rating": 2450},
                {"name": "W", "rating": 2450 - gap},
            ]
            fmt = formats[row.format]
            odds = match_odds(replace(parse_scenario(data), format=fmt))
            assert odds.win["S"] == pytest.approx(p, abs=1e-12), (row.format, gap)


def test_decider_edges_by_hand(comparison) -> None:  # type: ignore[no-untyped-def]
    _, c = comparison
    rows = {r.format: r for r in c.rows}
    adv = DEFAULT_RED_ADVANTAGE
    # bidding and Armageddon by lot: Red on 30/10 + 10 s (effective 40 v 20), rapid, nu 1
    red = davidson(adv + 120 * math.log2(40 / 20), 1.0)[0]
    assert rows["xq-bidding"].decider_edge == pytest.approx(red - 0.5, abs=1e-12)
    assert rows["armageddon-lot"].decider_edge == pytest.approx(red - 0.5, abs=1e-12)
    # Red's base cut by 40 %: Red 9 v Black 15 minutes + 10 s = 19 v 25 (rapid); draw -> Black
    handicap = davidson(adv + 120 * math.log2(19 / 25), 1.0)[0]
    assert rows["red-handicap"].decider_edge == pytest.approx(handicap - 0.5, abs=1e-12)
    # the official decider (6/4 + 3 s: 9 v 7, blitz, nu 0.8): the chooser takes the better colour
    r, d, b = davidson(adv + 120 * math.log2(9 / 7), 0.8)
    assert rows["official-playoff"].decider_edge == pytest.approx(max(r, d + b) - 0.5, abs=1e-12)
    # sealed bids between equal players: both bid the indifference clock, Red advances half
    assert rows["armageddon-bid"].decider_edge == pytest.approx(0.0, abs=1e-9)
    assert rows["blitz-pairs"].decider_edge is None


@pytest.mark.slow
def test_expected_minutes_agree_with_the_engine(comparison) -> None:  # type: ignore[no-untyped-def]
    """The exact expected playing time against the engine's time used, game by game."""
    sc, c = comparison
    row = next(r for r in c.rows if r.format == "xq-bidding")
    a, b = Player("S", 2450), Player("W", 2450)
    rng = np.random.default_rng(8)
    n = 2000
    minutes = np.array(
        [
            sum(sum(g.time_used.values()) for g in rec.games) / 60
            for rec in (
                play_match(
                    FORMATS["xq-bidding"], a, b, strategy=sc.strategy, model=sc.model, rng=rng
                )[0]
                for _ in range(n)
            )
        ]
    )
    se = minutes.std(ddof=1) / math.sqrt(n)
    assert abs(minutes.mean() - row.expected_minutes) <= 4 * se


def test_cli_json_and_png(tmp_path: Path) -> None:
    data = run_json("compare", FINAL, "--formats", "xq-bidding,blitz-pairs", "--json")
    assert list(data) == ["version", "gaps", "base", "rows", "scenario"]
    assert [r["format"] for r in data["rows"]] == ["xq-bidding", "blitz-pairs"]  # type: ignore[index]
    assert set(data["rows"][0]["stronger_advances"]) == {"0", "50", "100", "200"}  # type: ignore[index]
    png = tmp_path / "cmp.png"
    result = runner.invoke(app, ["compare", FINAL, "--gaps", "0,100,300", "--export", str(png)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--formats", "golf"], "error: --formats: unknown format 'golf': expected one of"),
        (["--gaps", "0,x"], "error: --gaps: expected numbers like 0,50,100, got '0,x'"),
        (["--gaps", "-50"], "error: --gaps: expected gaps >= 0, got [-50.0]"),
    ],
)
def test_cli_bad_options(args: list[str], line: str) -> None:
    result = runner.invoke(app, ["compare", FINAL, *args])
    assert result.exit_code == 2 and result.stderr.startswith(line)


def test_a_preset_keeps_its_name_only_when_unmodified() -> None:
    sc = load_scenario(FINAL)
    assert resolve_formats(sc, ["scenario"])[0][0] == "xq-bidding"
    changed = load_scenario(FINAL, overrides=["format.rapid_minutes=25"])
    labels = [label for label, _ in resolve_formats(changed, None)]
    assert labels[0] == "scenario" and "xq-bidding" in labels  # the real preset is a row too
    rows = compare_formats(changed, resolve_formats(changed, ["scenario", "xq-bidding"])).rows
    assert [r.format for r in rows] == ["scenario", "xq-bidding"]
    assert rows[0].expected_minutes != rows[1].expected_minutes
    data = run_json("compare", FINAL, "--set", "format.rapid_minutes=25", "--json")
    named = [(r["name"], r["format"]) for r in data["rows"]]  # type: ignore[index, union-attr]
    assert named[0] == ("scenario", "scenario") and ("xq-bidding", "xq-bidding") in named


def test_the_scenarios_row_is_a_study_metric() -> None:
    from knockout.studies.sweep import parse_sweep, run_sweep

    sweep = parse_sweep(
        {
            "scenario": "../final-2600-vs-2550.toml",
            "metrics": [
                "compare.rows.scenario.decider_edge",
                "compare.rows.xq-bidding.decider_edge",
            ],
            "grid": {"model.draw_nu.rapid": [0.5, 1.0]},
        },
        source="s.toml",
        folder=Path(str(SCENARIOS / "studies")),
    )
    for point in run_sweep(sweep).points:
        own, preset = (point.values[m][0] for m in sweep.metrics)
        assert own == preset  # an unmodified preset is the scenario's own row


def test_figures_whose_constants_carry_no_sd_are_marked() -> None:
    """With [model.sd] giving no sd for blitz constants, the formats whose games are blitz
    (the official playoff's super-rapid and 6/4 decider: effective clocks 8 and 9/7 minutes)
    are named with the constants left out, and marked in the table: their intervals (the
    rule book's "+3..+3") would otherwise read as certainty beside the seed's "-6..+14"."""
    how_sure = str(SCENARIOS / "final-how-sure.toml")
    doc = run_json("compare", how_sure, "--json")
    without = doc["model_uncertainty"]["without_sd"]  # type: ignore[index]
    # by hand: the seed's format is classical then rapid, and every sd it needs is given
    assert "xq-bidding" not in without and "single-slow" not in without
    # super-rapid 5+3 and the decider 6/4+3 are blitz (T <= 10); the decider's clocks differ
    assert without["official-playoff"] == [
        "red_advantage.blitz",
        "draw_nu.blitz",
        "elo_per_doubling.blitz",
    ]
    # blitz pairs on equal 5+3 clocks: time odds never act
    assert without["blitz-pairs"] == ["red_advantage.blitz", "draw_nu.blitz"]
    result = runner.invoke(app, ["compare", how_sure])
    assert result.exit_code == 0
    flat = " ".join(result.output.split())
    assert "official-1*" in flat and "xq-bidding*" not in flat
    assert "carry no sd in [model.sd]" in flat and "does not mean the rule is certain" in flat
    # with every class given an sd, nothing is marked
    sets = [f"model.sd.{c}.blitz={v}" for c, v in
            (("red_advantage", 25), ("draw_nu", 0.2), ("elo_per_doubling", 40))]  # fmt: skip
    args = [x for s in sets for x in ("--set", s)]
    full = run_json("compare", how_sure, "--json", *args)
    assert full["model_uncertainty"]["without_sd"] == {}  # type: ignore[index]
    # and without [model.sd] there is no model_uncertainty at all
    assert "model_uncertainty" not in run_json("compare", FINAL,
                                               "--json")  # fmt: skip
