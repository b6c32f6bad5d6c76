"""Calibration by maximum likelihood: the seed's constants, synthetic data from the model, the
standard errors, identifiability, boundaries, and the CSV reader's problems."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from knockout.calibration import (
    Calibration,
    ClassGames,
    calibrate,
    fit_class,
    parse_games,
    read_games,
)
from knockout.errors import InputError
from knockout.io.scenario import load_scenario
from knockout.rules.model.strength import (
    DEFAULT_DRAW_NU,
    DEFAULT_MODEL,
    DEFAULT_RED_ADVANTAGE,
    ModelParams,
    TimeClass,
    classify,
    effective_minutes,
    game_probabilities,
)

SEED_GAMES = Path(__file__).resolve().parents[2] / "scenarios" / "data" / "seed000-games.csv"
HEADER = "red_rating,black_rating,time_class,red_minutes,black_minutes,increment_seconds,result"
ELO = 400 / math.log(10)  # Elo per natural-log unit of g

#: The model the synthetic games are drawn from: every class its own constants, time odds in
#: rapid (the only class with unequal clocks).
TRUE = DEFAULT_MODEL.with_overrides(
    red_advantage={"classical": 64.0, "rapid": 40.0, "blitz": 25.0},
    draw_nu={"classical": 1.7, "rapid": 1.0, "blitz": 0.8},
    elo_per_doubling={"classical": 120.0, "rapid": 120.0, "blitz": 120.0},
)
#: (red base, black base, increment, games): classical 60+10; rapid 15+10 and the seed's
#: sudden-death clocks 30/10, 10/30 and 35/5 + 10 s (ratios 2, 1/2 and 3); blitz 5+3.
PLAN = [
    (60, 60, 10, 4000),
    (15, 15, 10, 3000),
    (30, 10, 10, 2000),
    (10, 30, 10, 2000),
    (35, 5, 10, 1000),
    (5, 5, 3, 4000),
]


def synthetic_csv(model: ModelParams, seed: int = 20261130) -> str:
    """One line per game, drawn from ``model`` with ratings Normal(2400, 150), classes left
    empty (derived from the clocks)."""
    rng = np.random.default_rng(seed)
    lines = [HEADER]
    for red_base, black_base, inc, n in PLAN:
        tc = classify(red_base, black_base, inc, model.moves)
        red = rng.normal(2400, 150, n).round()
        black = rng.normal(2400, 150, n).round()
        t_red, t_black = effective_minutes([red_base, black_base], inc, model.moves)
        p = game_probabilities(
            red, black, tc, model=model, red_minutes=t_red, black_minutes=t_black
        )
        u = rng.random(n)
        results = np.where(u < p.red, "red", np.where(u < p.red + p.draw, "draw", "black"))
        lines += [
            f"{r:g},{b:g},,{red_base},{black_base},{inc},{y}"
            for r, b, y in zip(red, black, results, strict=True)
        ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def synthetic() -> Calibration:
    return calibrate(parse_games(synthetic_csv(TRUE), source="synthetic.csv"))


def one_cell(
    red: float, draw: float, black: float, tc: TimeClass = TimeClass.CLASSICAL
) -> ClassGames:
    """Equal players on equal clocks."""
    z = np.zeros(1)
    return ClassGames(tc, z, z, np.array([red]), np.array([draw]), np.array([black]))


# --- the seed -----------------------------------------------------------------------------------


def test_the_seeds_counts_give_the_models_classical_defaults_exactly() -> None:
    fit = calibrate(read_games(SEED_GAMES))
    assert [c.time_class for c in fit.classes] == [TimeClass.CLASSICAL]
    c = fit.classes[0]
    assert c.games == (391, 557, 270)
    # The MLE of the saturated trinomial is closed-form: the model's defaults.
    assert c.red_advantage.estimate == pytest.approx(DEFAULT_RED_ADVANTAGE, abs=1e-6)
    assert c.draw_nu.estimate == pytest.approx(DEFAULT_DRAW_NU.classical, abs=1e-6)
    assert (DEFAULT_RED_ADVANTAGE, DEFAULT_DRAW_NU.classical) == (
        400 * math.log10(391 / 270),
        557 / math.sqrt(391 * 270),
    )
    # ... and so is the observed information (the delta method on the multinomial):
    # Var(ln(r/b)) = 1/r + 1/b, Var(ln nu) = 1/d + 1/(4r) + 1/(4b).
    assert c.red_advantage.stderr == pytest.approx(ELO * math.sqrt(1 / 391 + 1 / 270), rel=1e-6)
    nu_se = DEFAULT_DRAW_NU.classical * math.sqrt(1 / 557 + 1 / (4 * 391) + 1 / (4 * 270))
    assert c.draw_nu.stderr == pytest.approx(nu_se, rel=1e-6)
    assert c.elo_per_doubling.estimate is None and c.elo_per_doubling.stderr is None
    assert "equal effective clocks" in (c.elo_per_doubling.reason or "")


def test_the_fitted_model_reproduces_the_seeds_frequencies() -> None:
    c = calibrate(read_games(SEED_GAMES)).classes[0]
    assert c.red_advantage.estimate is not None and c.draw_nu.estimate is not None
    model = DEFAULT_MODEL.with_overrides(
        red_advantage={"classical": c.red_advantage.estimate},
        draw_nu={"classical": c.draw_nu.estimate},
    )
    p = game_probabilities(2500, 2500, TimeClass.CLASSICAL, model=model)
    assert [float(x) * 1218 for x in p] == pytest.approx([391, 557, 270], abs=1e-6)
    expected = sum(k * math.log(k / 1218) for k in (391, 557, 270))
    assert c.log_likelihood == pytest.approx(expected, abs=1e-9)


# --- synthetic data from the model --------------------------------------------------------------


def test_synthetic_games_recover_the_models_constants_within_3_standard_errors(
    synthetic: Calibration,
) -> None:
    by_class = {c.time_class: c for c in synthetic.classes}
    assert set(by_class) == set(TimeClass)
    assert by_class[TimeClass.RAPID].games[0] + sum(by_class[TimeClass.RAPID].games[1:]) == 8000
    checked = 0
    for tc, c in by_class.items():
        for name, est in c.estimates().items():
            if name == "elo_per_doubling" and tc is not TimeClass.RAPID:
                assert est.estimate is None and "equal effective clocks" in (est.reason or "")
                continue
            assert est.estimate is not None and est.stderr is not None, (tc, name)
            true = getattr(TRUE, name)[tc]
            z = (est.estimate - true) / est.stderr
            assert abs(z) < 3, f"{tc} {name}: true {true}, {est.estimate:.3f} ± {est.stderr:.3f}"
            checked += 1
    assert checked == 7


def test_time_odds_are_estimated_to_a_useful_precision(synthetic: Calibration) -> None:
    rapid = next(c for c in synthetic.classes if c.time_class is TimeClass.RAPID)
    est = rapid.elo_per_doubling
    assert est.stderr is not None and est.stderr < 10  # Elo, from 5,000 unequal-clock games
    assert est.reason is None and est.upper_95 is None


def test_the_log_likelihood_is_the_models(synthetic: Calibration) -> None:
    """The fit's maximised log-likelihood equals the sum of log P(result) from the model's own
    game_probabilities at the estimates (the likelihood uses the same formula)."""
    text = synthetic_csv(TRUE)
    fitted = DEFAULT_MODEL.with_overrides(
        **{
            name: {c.time_class.value: e.estimate for c in synthetic.classes
                   if (e := c.estimates()[name]).estimate is not None}
            for name in ("red_advantage", "draw_nu", "elo_per_doubling")
        }
    )  # fmt: skip
    total = {tc: 0.0 for tc in TimeClass}
    for line in text.splitlines()[1:]:
        r, b, _, rb, bb, inc, y = line.split(",")
        tc = classify(float(rb), float(bb), float(inc), 60)
        t_red, t_black = effective_minutes([float(rb), float(bb)], float(inc))
        p = game_probabilities(
            float(r), float(b), tc, model=fitted, red_minutes=t_red, black_minutes=t_black
        )
        total[tc] += math.log(float(getattr(p, y)))
    for c in synthetic.classes:
        assert c.log_likelihood == pytest.approx(total[c.time_class], abs=1e-6)


def test_standard_errors_are_the_curvature_of_the_models_likelihood(
    synthetic: Calibration,
) -> None:
    """The reported standard errors equal those from a finite-difference Hessian of the
    log-likelihood written with game_probabilities, in (red_advantage, draw_nu,
    elo_per_doubling)."""
    rows = [line.split(",") for line in synthetic_csv(TRUE).splitlines()[1:]]
    rapid = [r for r in rows if classify(float(r[3]), float(r[4]), float(r[5]), 60) == "rapid"]
    diff = np.array([float(r[0]) - float(r[1]) for r in rapid])
    t = np.array([effective_minutes([float(r[3]), float(r[4])], float(r[5])) for r in rapid])
    result = np.array([r[6] for r in rapid])

    def loglik(theta: np.ndarray) -> float:
        model = DEFAULT_MODEL.with_overrides(
            red_advantage={"rapid": float(theta[0])},
            draw_nu={"rapid": float(theta[1])},
            elo_per_doubling={"rapid": float(theta[2])},
        )
        p = game_probabilities(
            diff, 0.0, TimeClass.RAPID, model=model, red_minutes=t[:, 0], black_minutes=t[:, 1]
        )
        chosen = np.where(result == "red", p.red, np.where(result == "draw", p.draw, p.black))
        return float(np.sum(np.log(chosen)))

    fit = next(c for c in synthetic.classes if c.time_class is TimeClass.RAPID)
    est = [fit.red_advantage, fit.draw_nu, fit.elo_per_doubling]
    x = np.array([e.estimate for e in est], dtype=float)
    steps = np.array([0.5, 0.002, 0.5])
    hess = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            ei, ej = np.eye(3)[i] * steps[i], np.eye(3)[j] * steps[j]
            hess[i, j] = (
                loglik(x + ei + ej)
                - loglik(x + ei - ej)
                - loglik(x - ei + ej)
                + loglik(x - ei - ej)
            ) / (4 * steps[i] * steps[j])
    numeric = np.sqrt(np.diag(np.linalg.inv(-hess)))
    assert [e.stderr for e in est] == pytest.approx(numeric, rel=1e-3)


@pytest.mark.slow
def test_standard_errors_match_the_spread_of_estimates_over_replications() -> None:
    """300 data sets of 2,080 rapid games (rating gaps -300..300, clock ratios 1, 2, 1/2, 3):
    the standard deviation of the estimates agrees with the mean standard error, and
    estimate ± 1.96 SE covers the truth about 95 % of the time."""
    model = DEFAULT_MODEL.with_overrides(
        red_advantage={"rapid": 40.0}, draw_nu={"rapid": 1.0}, elo_per_doubling={"rapid": 120.0}
    )
    diff = np.repeat(np.arange(-300, 301, 50.0), 4)
    log_ratio = np.tile(np.log2([1.0, 2.0, 0.5, 3.0]), 13)
    p = game_probabilities(
        diff, 0.0, TimeClass.RAPID, model=model, red_minutes=2**log_ratio, black_minutes=1.0
    )
    probs = np.stack([p.red, p.draw, p.black], axis=1)
    rng = np.random.default_rng(5)
    estimates, stderrs = [], []
    for _ in range(300):
        counts = np.array([rng.multinomial(40, q) for q in probs], dtype=float)
        fit = fit_class(
            ClassGames(TimeClass.RAPID, diff, log_ratio, counts[:, 0], counts[:, 1], counts[:, 2])
        )
        estimates.append([e.estimate for e in fit.estimates().values()])
        stderrs.append([e.stderr for e in fit.estimates().values()])
    est, se = np.array(estimates, dtype=float), np.array(stderrs, dtype=float)
    true = np.array([40.0, 1.0, 120.0])
    assert est.std(axis=0, ddof=1) == pytest.approx(se.mean(axis=0), rel=0.15)
    coverage = (np.abs(est - true) < 1.96 * se).mean(axis=0)
    assert np.all((coverage > 0.90) & (coverage < 0.99)), coverage
    assert np.all(np.abs(est.mean(axis=0) - true) < 3 * est.std(axis=0) / np.sqrt(300))


def test_aggregated_rows_fit_like_single_games() -> None:
    single = (
        HEADER
        + "\n"
        + "\n".join(
            ["2500,2400,,15,15,10,red"] * 7
            + ["2500,2400,,15,15,10,draw"] * 5
            + ["2400,2500,,30,10,10,black"] * 3
            + ["2400,2500,,30,10,10,red"] * 4
            + ["2450,2450,,10,30,10,black"] * 6
            + ["2450,2450,,10,30,10,draw"] * 2
        )
    )
    counted = (
        HEADER
        + ",count\n2500,2400,,15,15,10,red,7\n2500,2400,,15,15,10,draw,5\n"
        + "2400,2500,,30,10,10,black,3\n2400,2500,,30,10,10,red,4\n"
        + "2450,2450,,10,30,10,black,6\n2450,2450,,10,30,10,draw,2\n"
        + "2450,2450,,10,30,10,red,0\n"
    )
    a = calibrate(parse_games(single, source="x")).classes
    b = calibrate(parse_games(counted, source="x")).classes
    for x, y in zip(a, b, strict=True):
        for name, est in x.estimates().items():
            other = y.estimates()[name]
            assert (est.estimate, est.stderr) == pytest.approx((other.estimate, other.stderr))
    assert a[0].games == (11, 7, 9)


# --- identifiability and boundaries -------------------------------------------------------------


def test_equal_clocks_only_leave_time_odds_unidentified() -> None:
    text = HEADER + ",count\n2500,2500,,15,15,10,red,30\n2500,2450,,15,15,10,draw,30\n"
    text += "2500,2500,,20,20,0,black,20\n"  # equal base clocks, another increment: still 1:1
    c = calibrate(parse_games(text, source="x")).classes[0]
    assert c.time_class is TimeClass.RAPID
    e = c.elo_per_doubling
    assert e.estimate is None and e.stderr is None
    assert e.reason == (
        "every game was on equal effective clocks, so the data say nothing about time odds"
    )
    assert e.to_json() == {"estimate": None, "stderr": None, "reason": e.reason}
    assert c.red_advantage.stderr is not None and c.draw_nu.stderr is not None


def test_one_clock_ratio_only_confounds_time_odds_with_the_red_advantage() -> None:
    text = HEADER + ",count\n2500,2500,,30,10,10,red,30\n2500,2500,,30,10,10,draw,40\n"
    text += "2500,2500,,30,10,10,black,20\n"
    c = calibrate(parse_games(text, source="x")).classes[0]
    assert c.red_advantage.estimate is None and c.elo_per_doubling.estimate is None
    combined = 400 * math.log10(30 / 20)
    assert f"identified: {combined:.2f}" in (c.red_advantage.reason or "")
    assert c.draw_nu.estimate == pytest.approx(40 / math.sqrt(30 * 20), rel=1e-9)


def test_a_class_without_draws_has_draw_nu_zero_on_the_boundary() -> None:
    """No draws: the likelihood falls as draw_nu rises from 0, so the MLE is 0, on the edge of
    the range. The observed information says nothing there (the score is not zero), so there
    is no standard error; the upper bound is the draw_nu at which the profile log-likelihood
    has fallen by ln 20, i.e. under which a record without draws has probability 5 %."""
    c = fit_class(one_cell(60, 0, 40, TimeClass.BLITZ))
    nu = c.draw_nu
    assert nu.estimate == 0.0 and nu.stderr is None
    assert nu.reason is not None and nu.reason.startswith("no draws in 100 games")
    assert nu.upper_95 is not None
    assert c.red_advantage.estimate == pytest.approx(400 * math.log10(60 / 40), abs=1e-6)
    assert c.red_advantage.stderr == pytest.approx(ELO * math.sqrt(1 / 60 + 1 / 40), rel=1e-6)

    def profile(v: float) -> float:  # max over red_advantage of the log-likelihood at nu = v
        model = DEFAULT_MODEL.with_overrides(draw_nu={"blitz": v})

        def nll(a: float) -> float:
            m = model.with_overrides(red_advantage={"blitz": a})
            p = game_probabilities(0.0, 0.0, TimeClass.BLITZ, model=m)
            return -(60 * math.log(float(p.red)) + 40 * math.log(float(p.black)))

        return -float(minimize_scalar(nll, bounds=(-500, 500), method="bounded",
                                      options={"xatol": 1e-9}).fun)  # fmt: skip

    assert profile(0.0) - profile(nu.upper_95) == pytest.approx(math.log(20), abs=1e-6)
    # Roughly the rule of three: P(draw) ~ nu / 2 per game, 3 expected draws in 100 games.
    assert nu.upper_95 == pytest.approx(0.06, rel=0.1)


def test_no_draws_is_written_as_zero_with_its_note(tmp_path: Path) -> None:
    text = HEADER + ",count\n2500,2500,,5,5,3,red,60\n2500,2500,,5,5,3,black,40\n"
    fit = calibrate(parse_games(text, source="x"))
    toml = fit.model_toml()
    assert "draw_nu = { blitz = 0.0 }" in toml and "#   draw_nu: no draws" in toml
    path = tmp_path / "s.toml"
    path.write_text(toml + PLAYERS, encoding="utf-8")
    assert load_scenario(path).model.draw_nu.blitz == 0.0


def test_time_odds_against_the_model_are_held_at_zero_not_written_negative(
    tmp_path: Path,
) -> None:
    """More time did worse: the unconstrained maximum is negative, which the model (and the
    scenario validator) refuses; the fit is the maximum over elo_per_doubling >= 0, which by
    concavity is at 0, with the other constants refitted there."""
    text = HEADER + ",count\n" + "\n".join(
        [
            "2500,2500,,15,15,10,red,30", "2500,2500,,15,15,10,draw,40",
            "2500,2500,,15,15,10,black,30", "2500,2500,,30,10,10,red,20",
            "2500,2500,,30,10,10,draw,40", "2500,2500,,30,10,10,black,40",
            "2500,2500,,10,30,10,red,40", "2500,2500,,10,30,10,draw,40",
            "2500,2500,,10,30,10,black,20",
        ]
    )  # fmt: skip
    c = calibrate(parse_games(text, source="x")).classes[0]
    e = c.elo_per_doubling
    assert e.estimate == 0.0 and e.stderr is None
    assert e.reason is not None and "unconstrained maximum is at -" in e.reason
    assert e.upper_95 is not None and 0 < e.upper_95 < 100
    # At elo_per_doubling = 0 the clocks do not matter: the same as the pooled counts.
    assert c.red_advantage.estimate == pytest.approx(0.0, abs=1e-6)
    assert c.draw_nu.estimate == pytest.approx(120 / 90, rel=1e-6)
    path = tmp_path / "s.toml"
    path.write_text(calibrate(parse_games(text, source="x")).model_toml() + PLAYERS, "utf-8")
    assert load_scenario(path).model.elo_per_doubling.rapid == 0.0


@pytest.mark.parametrize(
    ("counts", "says"),
    [
        ((0, 10, 0), "every game was drawn"),
        ((10, 5, 0), "no Black wins"),
        ((0, 5, 10), "no Red wins"),
    ],
)
def test_classes_without_a_finite_maximum_estimate_nothing(
    counts: tuple[int, int, int], says: str
) -> None:
    c = fit_class(one_cell(*counts))
    assert c.log_likelihood is None
    for est in c.estimates().values():
        assert est.estimate is None and est.stderr is None
        assert est.reason is not None and says in est.reason


def test_results_separated_by_clocks_have_no_finite_time_odds() -> None:
    """The side with more time won every game on unequal clocks: the likelihood rises for ever
    with elo_per_doubling."""
    games = ClassGames(
        TimeClass.RAPID,
        np.zeros(3),
        np.array([0.0, 1.0, -1.0]),
        np.array([10.0, 10.0, 0.0]),
        np.array([5.0, 0.0, 0.0]),
        np.array([10.0, 0.0, 10.0]),
    )
    c = fit_class(games)
    assert c.elo_per_doubling.estimate is None
    assert "goes to infinity" in (c.elo_per_doubling.reason or "")


def test_results_separated_against_the_clocks_are_held_at_zero() -> None:
    games = ClassGames(
        TimeClass.RAPID,
        np.zeros(3),
        np.array([0.0, 1.0, -1.0]),
        np.array([10.0, 0.0, 10.0]),
        np.array([5.0, 0.0, 0.0]),
        np.array([10.0, 10.0, 0.0]),
    )
    e = fit_class(games).elo_per_doubling
    assert e.estimate == 0.0 and e.stderr is None
    assert "at minus infinity" in (e.reason or "")


# --- the model file -----------------------------------------------------------------------------

PLAYERS = '\n[[players]]\nname = "A"\nrating = 2500\n\n[[players]]\nname = "B"\nrating = 2450\n'


def test_the_model_file_loads_as_a_scenario_with_only_the_estimated_constants(
    synthetic: Calibration, tmp_path: Path
) -> None:
    path = tmp_path / "fitted.toml"
    path.write_text(synthetic.model_toml() + PLAYERS, encoding="utf-8")
    model = load_scenario(path).model
    for c in synthetic.classes:
        tc = c.time_class
        assert model.red_advantage[tc] == c.red_advantage.estimate
        assert model.draw_nu[tc] == c.draw_nu.estimate
    rapid = next(c for c in synthetic.classes if c.time_class is TimeClass.RAPID)
    assert model.elo_per_doubling.rapid == rapid.elo_per_doubling.estimate
    # Not estimated (equal clocks only): the scenario keeps the default, nothing is invented.
    assert model.elo_per_doubling.classical == DEFAULT_MODEL.elo_per_doubling.classical
    assert "elo_per_doubling = { rapid = " in synthetic.model_toml()
    assert model.moves == 60


def test_the_model_file_carries_the_moves_the_fit_used(tmp_path: Path) -> None:
    text = HEADER + ",count\n2500,2500,,55,55,5,red,30\n2500,2500,,55,55,5,black,20\n"
    assert calibrate(parse_games(text, source="x")).classes[0].time_class is TimeClass.CLASSICAL
    fit = calibrate(parse_games(text, source="x", moves=30))
    assert fit.classes[0].time_class is TimeClass.RAPID  # 55 + 30 * 5 / 60 = 57.5 minutes
    path = tmp_path / "m.toml"
    path.write_text(fit.model_toml() + PLAYERS, encoding="utf-8")
    assert load_scenario(path).model.moves == 30


# --- reading ------------------------------------------------------------------------------------


def test_bad_rows_are_refused_one_line_each_naming_the_line() -> None:
    text = "\n".join(
        [
            HEADER + ",count",
            "2500,2500,,60,60,10,red,3",
            "2500,2500,,60,60,10,x,1",
            "abc,2500,slow,0,60,-1,draw,2.5",
            "2500,2500,,60,60,10",
            "2500,2500,Rapid,15,15,10,Black,1",
        ]
    )
    with pytest.raises(InputError) as info:
        parse_games(text, source="g.csv")
    assert info.value.lines() == [
        "g.csv: line 3, result: expected red, draw or black, got 'x'",
        "g.csv: line 4, red_rating: expected a number, got 'abc'",
        "g.csv: line 4, time_class: expected classical, rapid, blitz or nothing (from the "
        "clocks), got 'slow'",
        "g.csv: line 4, red_minutes: expected minutes > 0, got '0'",
        "g.csv: line 4, increment_seconds: expected seconds >= 0, got '-1'",
        "g.csv: line 4, count: expected a whole number >= 0, got '2.5'",
        "g.csv: line 5: expected 8 cells (red_rating, black_rating, time_class, red_minutes, "
        "black_minutes, increment_seconds, result, count), got 6",
    ]


def test_a_wrong_header_or_no_games_is_refused() -> None:
    with pytest.raises(InputError) as info:
        parse_games("red_rating,black_rating,result\n", source="g.csv")
    assert info.value.lines()[0].startswith("g.csv: line 1, header: missing column 'time_class'")
    with pytest.raises(InputError) as info:
        parse_games(HEADER + ",count\n2500,2500,,60,60,10,red,0\n", source="g.csv")
    assert info.value.lines() == ["g.csv: expected at least one game, got none"]


def test_classes_are_derived_from_the_effective_clocks_or_taken_as_given() -> None:
    text = (
        HEADER
        + "\n"
        + "\n".join(
            [
                "2500,2500,,60,60,10,red",  # 70 min: classical
                "2500,2500,,15,15,10,red",  # 25: rapid
                "2500,2500,,6,4,3,red",  # mean 8: blitz
                "2500,2500,classical,15,15,10,black",  # as given
            ]
        )
    )
    table = parse_games(text, source="x")
    assert {c.time_class: c.totals for c in table.classes} == {
        TimeClass.CLASSICAL: (1, 0, 1),
        TimeClass.RAPID: (1, 0, 0),
        TimeClass.BLITZ: (1, 0, 0),
    }
    blitz = next(c for c in table.classes if c.time_class is TimeClass.BLITZ)
    assert blitz.log_ratio[0] == pytest.approx(math.log2(9 / 7))  # effective clocks 9 v 7
