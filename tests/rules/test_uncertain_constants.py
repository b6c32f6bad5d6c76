"""Uncertain constants: the [model.sd] and [model] correlation keys, the distributions of the
draws (checked against scipy.stats' own distributions), and the spread statistics."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from knockout.errors import ScenarioError
from knockout.io.scenario import load_scenario
from knockout.rules.model.sd import (
    PATHS,
    ModelSd,
    design,
    figure_summary,
    flatten,
    spread_of_values,
)
from knockout.rules.model.strength import DEFAULT_MODEL, PerClass
from knockout.rules.scenario.aggregate import parse_scenario

TWO = [{"name": "A", "rating": 2500}, {"name": "B", "rating": 2400}]


def problems(data: dict[str, object]) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(data, source="s.toml")
    return [str(p) for p in info.value.problems]


def test_the_keys_are_accepted_and_round_trip() -> None:
    sc = parse_scenario(
        {
            "players": TWO,
            "model": {
                "sd": {"red_advantage": {"rapid": 25}, "elo_per_doubling": {"rapid": 40.0}},
                "correlation": [["red_advantage.rapid", "elo_per_doubling.rapid", 0.3]],
            },
        }
    )
    assert sc.model_sd.sd("red_advantage.rapid") == 25
    assert sc.model_sd.sd("red_advantage.classical") == 0  # one class only
    assert sc.model_sd.uncertain == ("red_advantage.rapid", "elo_per_doubling.rapid")
    d = sc.to_dict()["model"]
    assert d["sd"]["elo_per_doubling"] == {"classical": 0.0, "rapid": 40.0, "blitz": 0.0}
    assert d["correlation"] == [["red_advantage.rapid", "elo_per_doubling.rapid", 0.3]]
    assert parse_scenario(sc.to_dict()) == sc


def test_unknown_keys_are_still_refused() -> None:
    found = problems({"players": TWO, "model": {"sd": {"draw": {"rapid": 1}}, "sds": 1}})
    assert any("model.sd.draw: unknown key" in p for p in found)
    assert any("model.sds: unknown key" in p for p in found)
    found = problems({"players": TWO, "model": {"sd": {"draw_nu": {"fast": 0.1}}}})
    assert any("model.sd.draw_nu.fast: unknown key" in p for p in found)


def test_set_works_and_bad_values_get_one_line_each(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('[[players]]\nname = "A"\nrating = 2500\n[[players]]\nname = "B"\n'
                    "rating = 2400\n", encoding="utf-8")  # fmt: skip
    sc = load_scenario(path, overrides=["model.sd.elo_per_doubling.rapid=40"])
    assert sc.model_sd.sd("elo_per_doubling.rapid") == 40.0
    with pytest.raises(ScenarioError) as info:
        load_scenario(
            path,
            overrides=["model.sd.elo_per_doubling.rapid=-40", "model.sd.draw_nu.rapid=inf"],
        )
    lines = sorted(str(p) for p in info.value.problems)
    assert lines == [
        "--set: model.sd.draw_nu.rapid: expected a finite number, got inf",
        "--set: model.sd.elo_per_doubling.rapid: expected a number >= 0, got -40",
    ]


def test_correlation_problems_name_the_entry() -> None:
    found = problems(
        {
            "players": TWO,
            "model": {
                "correlation": [
                    ["red_advantage.rapid", "nope", 0.5],
                    ["draw_nu.rapid", "draw_nu.rapid", 0.1],
                    ["draw_nu.rapid", "elo_per_doubling.rapid", 1.5],
                    3,
                ]
            },
        }
    )
    assert any("model.correlation[0][1]: expected a constant" in p for p in found)
    assert any("model.correlation[1]: expected two different constants" in p for p in found)
    assert any("model.correlation[2][2]: expected a correlation between -1 and 1" in p
               for p in found)  # fmt: skip
    assert any("model.correlation[3]: expected [PATH_A, PATH_B, RHO]" in p for p in found)
    inconsistent = [
        ["red_advantage.rapid", "draw_nu.rapid", 0.9],
        ["red_advantage.rapid", "elo_per_doubling.rapid", 0.9],
        ["draw_nu.rapid", "elo_per_doubling.rapid", -0.9],
    ]
    found = problems({"players": TWO, "model": {"correlation": inconsistent}})
    assert any("model.correlation: expected correlations that some joint distribution has" in p
               for p in found)  # fmt: skip


def test_a_log_normal_draw_nu_needs_a_value_above_zero() -> None:
    found = problems(
        {"players": TWO, "model": {"draw_nu": {"rapid": 0}, "sd": {"draw_nu": {"rapid": 0.1}}}}
    )
    assert any("model.sd.draw_nu.rapid: expected 0" in p for p in found)


def test_a_scenario_built_in_python_is_checked_too() -> None:
    sc = parse_scenario({"players": TWO})
    with pytest.raises(ScenarioError, match=r"model\.sd\.red_advantage\.rapid"):
        replace(sc, model_sd=ModelSd(red_advantage=PerClass(0.0, -1.0, 0.0)))


SD = ModelSd(
    red_advantage=PerClass(13.75, 25.0, 0.0),
    draw_nu=PerClass(0.0, 0.3, 0.0),
    elo_per_doubling=PerClass(0.0, 60.0, 0.0),
    correlation=(
        ("red_advantage.classical", "red_advantage.rapid", 0.55),
        ("draw_nu.rapid", "elo_per_doubling.rapid", -0.4),
    ),
)
CENTER = DEFAULT_MODEL.with_overrides(elo_per_doubling={"rapid": 60.0})


def test_each_constant_has_the_stated_distribution() -> None:
    """Normal red_advantage; log-normal draw_nu with median the value and sd of log nu =
    sd / value; elo_per_doubling a Normal truncated at 0 (scipy.stats.truncnorm's quantiles)."""
    des = design(CENTER, SD, draws=4096, replicates=8)
    ra = des.values["red_advantage.rapid"]
    nu = des.values["draw_nu.rapid"]
    elo = des.values["elo_per_doubling.rapid"]
    assert abs(ra.mean() - CENTER.red_advantage.rapid) < 0.01 * 25
    assert abs(ra.std() - 25) < 0.02 * 25
    assert abs(np.median(nu) - 1.0) < 0.01 and abs(np.log(nu).std() - 0.3) < 0.01
    assert (elo >= 0).all()
    truncated = stats.truncnorm(a=-60 / 60, b=np.inf, loc=60, scale=60)
    for q in (0.1, 0.5, 0.9):
        assert abs(np.quantile(elo, q) - truncated.ppf(q)) < 0.02 * 60
    assert abs(elo.mean() - truncated.mean()) < 0.01 * 60
    # the correlations: exact for the Normal pair, of the latent Normals for the other
    rho = np.corrcoef(des.values["red_advantage.classical"], ra)[0, 1]
    assert abs(rho - 0.55) < 0.02
    latent = stats.spearmanr(np.log(nu), elo).statistic
    assert -0.5 < latent < -0.3


def test_the_held_blocks_hold_one_constant_and_redraw_the_others_given_it() -> None:
    des = design(CENTER, SD, draws=2048, replicates=8, hold_each=True)
    n = des.draws
    assert des.blocks == 1 + len(SD.uncertain) and des.size == n * des.blocks
    for i, path in enumerate(des.paths):
        block = slice((i + 1) * n, (i + 2) * n)
        name, tc = path.split(".")
        assert (des.values[path][block] == getattr(CENTER, name)[tc]).all()
    # red_advantage.rapid given red_advantage.classical held at its value: sd 25 sqrt(1 - rho^2)
    rapid_given = des.values["red_advantage.rapid"][n : 2 * n]
    assert abs(rapid_given.std() - 25 * math.sqrt(1 - 0.55**2)) < 0.03 * 25
    # a constant with no correlation to the one held keeps its very draws
    assert (des.values["draw_nu.rapid"][n : 2 * n] == des.values["draw_nu.rapid"][:n]).all()


def test_draws_are_reproducible_and_need_a_power_of_two() -> None:
    a = design(CENTER, SD, draws=64, replicates=8)
    b = design(CENTER, SD, draws=64, replicates=8)
    assert all((a.values[p] == b.values[p]).all() for p in a.paths)
    with pytest.raises(ValueError, match="power of two"):
        design(CENTER, SD, draws=96, replicates=8)
    assert design(CENTER, ModelSd()).paths == ()


def test_flatten_names_every_number_by_its_path() -> None:
    tree = {"a": {"b": 1, "c": None, "t": "x", "f": True}, "rows": [{"format": "f1", "v": 2.0}],
            "reach": {"P": [0.5, 0.25]}}  # fmt: skip
    assert flatten(tree) == {"a.b": 1.0, "a.c": None, "rows.f1.v": 2.0, "reach.P.0": 0.5,
                             "reach.P.1": 0.25}  # fmt: skip
    assert set(PATHS) == {f"{c}.{tc}" for c in ("red_advantage", "draw_nu", "elo_per_doubling")
                          for tc in ("classical", "rapid", "blitz")}  # fmt: skip


def test_the_statistics_are_the_draws_own_with_replicate_errors() -> None:
    rng = np.random.default_rng(5)
    y = rng.normal(0.3, 1.0, size=1024)
    found = figure_summary(y, 1024, 8, signed=True)
    assert found is not None
    s, se, undefined = found
    assert s.mean == pytest.approx(y.mean()) and s.sd == pytest.approx(y.std())
    assert s.q025 == pytest.approx(np.quantile(y, 0.025))
    assert s.p_above_zero == pytest.approx((y > 0).mean()) and undefined == 0
    parts = y.reshape(8, 128)
    assert se.mean == pytest.approx(parts.mean(axis=1).std(ddof=1) / math.sqrt(8))
    y[:10] = np.nan
    s2, _, undefined = figure_summary(y, 1024, 8, signed=False) or (None, None, 0)
    assert undefined == pytest.approx(10 / 1024) and s2 is not None and s2.p_above_zero is None


def test_the_decomposition_says_which_constant_matters() -> None:
    """A figure that depends on elo_per_doubling.rapid only: knowing it removes all of its
    variance, knowing any other constant none."""
    sd = replace(SD, correlation=())
    des = design(CENTER, sd, draws=512, replicates=8, hold_each=True)
    y = 0.001 * des.values["elo_per_doubling.rapid"]
    spread = spread_of_values(
        {"edge": 0.06}, {"edge": y}, des, sd, CENTER, probability=lambda p: False,
        decompose=["edge"],
    )  # fmt: skip
    assert spread.main_contributor("edge") == ("elo_per_doubling.rapid", 1.0)
    cuts = spread.decomposition["edge"]
    assert all(cuts[p]["variance_cut"] == 0 for p in cuts if p != "elo_per_doubling.rapid")
