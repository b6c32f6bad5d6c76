"""elo_per_doubling on the score scale (calibration.score_elo, score_scale): the conversion of
the Davidson parameter, checked against the games' own scores and against games simulated from
known constants."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from knockout.calibration import calibrate, parse_games, read_games, score_elo
from knockout.rules.model.strength import davidson

DATA = Path(__file__).resolve().parents[2] / "scenarios" / "data"


@pytest.mark.parametrize("d", [0.0, 50.0, 200.0, 400.0])
def test_without_draws_or_colour_the_scales_agree(d: float) -> None:
    assert score_elo(d, 0.0) == pytest.approx(d, abs=1e-9)


def test_draws_pull_the_score_scale_below_the_davidson_parameter() -> None:
    values = [score_elo(200.0, nu) for nu in (0.0, 0.5, 1.0, 2.0)]
    assert values == sorted(values, reverse=True)
    assert score_elo(-200.0, 1.0) == pytest.approx(-score_elo(200.0, 1.0))


def test_the_fit_converted_is_the_games_own_score_on_the_bundled_file() -> None:
    """The maximum-likelihood fit matches the doubled side's wins minus losses exactly (the
    statistic elo_per_doubling answers to), and the colours are balanced, so the converted
    parameter is the games' own score-based Elo; the two standard errors (delta method through
    the fit; the multinomial of the score) agree within 5 %."""
    fit = calibrate(read_games(DATA / "selfplay-nodes4k.csv"))
    rapid = fit.classes[0]
    scale = rapid.score_scale
    assert scale is not None and scale.stderr is not None
    [observed] = scale.observed
    assert observed.doublings == 1.0 and observed.games == 300
    assert observed.elo is not None and observed.stderr is not None
    assert scale.estimate == pytest.approx(observed.elo, abs=1e-4)
    assert scale.stderr == pytest.approx(observed.stderr, rel=0.05)
    assert rapid.elo_per_doubling.estimate is not None
    assert scale.estimate < rapid.elo_per_doubling.estimate
    doc = fit.to_json()["rapid"]["elo_per_doubling"]
    assert doc["score_scale"]["estimate"] == scale.estimate
    assert set(fit.to_json()) == {"source", "rapid"}


def test_simulated_games_give_the_converted_value() -> None:
    """40,000 games from known constants (equal ratings; clocks 8:4, 4:8 and 4:4): the score of
    the side with more time, as Elo, within 4 standard errors of score_elo of the truth."""
    rng = np.random.default_rng(43)
    e, nu, a = 250.0, 0.6, 30.0
    rows = ["red_rating,black_rating,time_class,red_minutes,black_minutes,increment_seconds,"
            "result,count"]  # fmt: skip
    for red_min, black_min, d in ((8, 4, e + a), (4, 8, a - e), (4, 4, a)):
        p = davidson(d, nu)
        counts = rng.multinomial(40_000 // 3, [float(p.red), float(p.draw), float(p.black)])
        for result, k in zip(("red", "draw", "black"), counts, strict=True):
            rows.append(f"0,0,rapid,{red_min},{black_min},0,{result},{k}")
    fit = calibrate(parse_games("\n".join(rows) + "\n", source="sim"))
    scale = fit.classes[0].score_scale
    assert scale is not None and scale.stderr is not None
    truth = score_elo(e, nu, a)
    assert abs(scale.estimate - truth) < 4 * scale.stderr
    assert math.isclose(scale.estimate, scale.observed[0].elo or 0.0, abs_tol=1e-3)


ROOT = Path(__file__).resolve().parents[2]


def test_the_calibration_pages_score_scale_example_runs_as_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import re

    from typer.testing import CliRunner

    from knockout.program import app

    text = (ROOT / "docs" / "calibration.md").read_text(encoding="utf-8")
    section = text.split("## Elo per doubling on the score scale", 1)[1]
    block = re.search(r"```console\n\$ (.*?)\n(.*?)```", section, re.S)
    assert block is not None
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, block.group(1).split()[1:], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.stderr
    got = [line.rstrip() for line in result.stdout.rstrip().splitlines()]
    assert got == block.group(2).rstrip().splitlines()


def _cells(page: str, first: str) -> list[str]:
    row = next(line for line in page.splitlines() if line.startswith(f"| {first} |"))
    return [c.strip() for c in row.strip("|").split("|")]


def test_the_selfplay_pages_scale_tables_are_computed() -> None:
    """docs/selfplay.md's comparison with the pilot: this run's figures on both scales from the
    fit, the pilot's converted at its own draw rate (29 % between equal budgets) and Red
    advantage, and the differences' standard errors."""
    from scipy.optimize import brentq

    page = (ROOT / "docs" / "selfplay.md").read_text(encoding="utf-8")
    doubling, red = page.split("| 8k v 4k, one doubling |", 1)[1].split("| Red's advantage", 1)
    rapid = calibrate(read_games(DATA / "selfplay-nodes4k.csv")).classes[0]
    e, a, nu = rapid.elo_per_doubling, rapid.red_advantage, rapid.draw_nu
    scale = rapid.score_scale
    assert scale is not None and scale.stderr is not None
    assert e.estimate is not None and e.stderr is not None and nu.estimate is not None
    assert a.estimate is not None and a.stderr is not None
    nu_pilot = 2 * 0.29 / 0.71

    def davidson_of(score: float, nu_: float, adv: float) -> tuple[float, float]:
        d = brentq(lambda x: score_elo(x, nu_, adv) - score, -1000, 1000)
        slope = score_elo(d + 0.5, nu_, adv) - score_elo(d - 0.5, nu_, adv)
        return d, 1 / slope

    pilot_d, per = davidson_of(184.0, nu_pilot, 24.0)
    assert _cells(doubling, "this run (`selfplay-nodes4k.csv`)") == [
        "this run (`selfplay-nodes4k.csv`)",
        f"{scale.estimate:.0f} ± {scale.stderr:.0f}",
        f"{e.estimate:.0f} ± {e.stderr:.0f} (fitted)",
    ]
    assert _cells(doubling, "the pilot")[2].startswith(f"{pilot_d:.0f} ± {23 * per:.0f}")
    gap = scale.estimate - 184.0, math.hypot(scale.stderr, 23.0)
    gap_d = e.estimate - pilot_d, math.hypot(e.stderr, 23 * per)
    assert _cells(doubling, "difference")[1:] == [
        f"{gap[0]:.0f} ± {gap[1]:.0f}: {gap[0] / gap[1]:.1f} standard errors",
        f"{gap_d[0]:.0f} ± {gap_d[1]:.0f}: {gap_d[0] / gap_d[1]:.1f} standard errors",
    ]
    ours = score_elo(a.estimate, nu.estimate)
    ours_se = a.stderr * (score_elo(a.estimate + 0.5, nu.estimate)
                          - score_elo(a.estimate - 0.5, nu.estimate))  # fmt: skip
    assert _cells(red, "this run")[1] == f"{ours:.0f} ± {ours_se:.0f} (at ν {nu.estimate:.2f})"
    pilot_a, per_a = davidson_of(24.0, nu_pilot, 0.0)
    assert _cells(red, "the pilot")[2] == f"{pilot_a:.0f} ± {18 * per_a:.0f} (at ν 0.82)"
