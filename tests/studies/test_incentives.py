"""knockout incentives: the pace game, checked against the model written out by hand
(``pace_reference``) and brute-force searches over fine grids of paces, written here."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from conftest import SCENARIOS
from pace_reference import Match
from scipy.special import ndtr

from knockout.exact.odds import match_odds
from knockout.exact.pace import pace_game
from knockout.io.scenario import load_scenario
from knockout.rules.scenario.aggregate import Scenario
from knockout.studies.incentives import TOLERANCE, Incentives, incentives

FINAL = str(SCENARIOS / "final-2600-vs-2550.toml")
A, B = "王天一", "郑惟桐"
SINGLE = ["format.preset=single-slow"]

#: name: (--set overrides of the final, the same match in the reference)
CASES: dict[str, tuple[list[str], Match]] = {
    # the defaults: hurrying costs more than being 甲 is worth, stalling only loses 甲
    "natural": ([], Match(2600, 2550, 0.8, 0.7)),
    # time worth nothing, draws common: both would rather be 乙 and stall, free of charge
    "stall": (
        ["model.elo_per_doubling.rapid=0", "model.draw_nu.rapid=2"],
        Match(2600, 2550, 0.8, 0.7, epd_rapid=0, nu_rapid=2),
    ),
    # one slow game decides 甲, cheap to hurry: a race to the fastest pace allowed
    "hurry": (
        [*SINGLE, "model.elo_per_doubling.classical=20", "model.draw_nu.rapid=0.3"],
        Match(2600, 2550, 0.8, 0.7, epd_classical=20, nu_rapid=0.3, slow_games=1, rapid=False),
    ),
    # dearer: each undercuts the other until one gives up, then the other relaxes: no pure
    # equilibrium
    "race": (
        [*SINGLE, "model.elo_per_doubling.classical=40", "model.draw_nu.rapid=0.3"],
        Match(2600, 2550, 0.8, 0.7, epd_classical=40, nu_rapid=0.3, slow_games=1, rapid=False),
    ),
    # a fast favourite keeps its pace; the slow challenger hurries to just above it
    "interior": (
        [
            *SINGLE,
            "model.elo_per_doubling.classical=40",
            "model.draw_nu.rapid=0.6",
            f"players.{A}.rating=2700",
            f"players.{A}.speed={{mean = 0.4, sd = 0.2}}",
            f"players.{B}.speed={{mean = 0.8, sd = 0.2}}",
        ],
        Match(2700, 2550, 0.4, 0.8, 0.2, 0.2, 40, 120, nu_rapid=0.6, slow_games=1, rapid=False),
    ),
}


def _scenario(sets: list[str]) -> Scenario:
    return load_scenario(FINAL, overrides=sets)


_SOLVED: dict[str, Incentives] = {}


def _solved(case: str) -> Incentives:
    if case not in _SOLVED:
        _SOLVED[case] = incentives(_scenario(CASES[case][0]), fairness=False)
    return _SOLVED[case]


def _fine(lo: float, natural: float, n: int = 40_001) -> np.ndarray:
    return np.unique(np.append(np.linspace(lo, 1.0, n), natural))


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_pace_game_is_the_model_as_written(case: str) -> None:
    sets, ref = CASES[case]
    game = pace_game(_scenario(sets))
    rng = np.random.default_rng(5)
    pa, pb = rng.uniform(0.2, 1.0, 500), rng.uniform(0.2, 1.0, 500)
    pa[:3], pb[:3] = (ref.mean_a, 0.2, 1.0), (ref.mean_b, 1.0, 0.2)  # natural play, the bounds
    got = game.values(pa, pb).win
    np.testing.assert_allclose(got[:, 0], ref.win(pa, pb), rtol=0, atol=1e-12)
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=0, atol=1e-12)


@pytest.mark.parametrize("case", sorted(CASES))
def test_best_responses_equal_a_brute_force_search(case: str) -> None:
    _, ref = CASES[case]
    result = _solved(case)
    for k, br in enumerate(result.best_response):
        natural, other = (ref.mean_a, ref.mean_b) if k == 0 else (ref.mean_b, ref.mean_a)
        grid = _fine(0.2, natural)
        payoff = ref.win(grid, other) if k == 0 else 1.0 - ref.win(other, grid)
        at_natural = payoff[np.searchsorted(grid, natural)]
        best = int(np.argmax(payoff))
        brute_gain = float(payoff[best] - at_natural)
        # as good as the fine grid, never better than the model allows
        assert br.gain >= brute_gain - 1e-12
        assert br.gain <= brute_gain + 1e-7
        mine = ref.win(br.pace, other) if k == 0 else 1.0 - ref.win(other, br.pace)
        assert float(mine) == pytest.approx(br.win, abs=1e-12)
        if brute_gain > TOLERANCE:
            assert br.pace == pytest.approx(float(grid[best]), abs=1e-3)
        else:
            assert br.pace == natural and br.gain <= TOLERANCE


def _regret(ref: Match, grid_a: np.ndarray, grid_b: np.ndarray) -> np.ndarray:
    w_a = ref.win(grid_a[:, None], grid_b[None, :])
    w_b = 1.0 - w_a
    return np.maximum(w_a.max(axis=0) - w_a, (w_b.max(axis=1)[:, None] - w_b))


def _clusters(mask: np.ndarray) -> int:
    """Connected regions of ``mask`` (8 neighbours), by flood fill."""
    seen = np.zeros_like(mask)
    count = 0
    for start in zip(*np.nonzero(mask), strict=True):
        if seen[start]:
            continue
        count += 1
        stack = [start]
        seen[start] = True
        while stack:
            i, j = stack.pop()
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    n = (i + di, j + dj)
                    inside = 0 <= n[0] < mask.shape[0] and 0 <= n[1] < mask.shape[1]
                    if inside and mask[n] and not seen[n]:
                        seen[n] = True
                        stack.append(n)
    return count


#: A cell of the brute-force grid is an equilibrium of it when neither player gains more than
#: this by deviating on the grid: far above the grid's own discretisation (about 1e-7 at
#: 801 paces a player), far below the regret of the race's best cell (about 5e-4).
BRUTE_EQUILIBRIUM = 1e-5


@pytest.mark.parametrize("case", sorted(CASES))
def test_equilibria_equal_a_brute_force_search(case: str) -> None:
    _, ref = CASES[case]
    result = _solved(case)
    grid_a, grid_b = _fine(0.2, ref.mean_a, 801), _fine(0.2, ref.mean_b, 801)
    regret = _regret(ref, grid_a, grid_b)
    brute = regret <= BRUTE_EQUILIBRIUM
    assert len(result.equilibria) == _clusters(brute)
    fine_a, fine_b = _fine(0.2, ref.mean_a), _fine(0.2, ref.mean_b)
    for eq in result.equilibria:
        a, b = eq.pace
        # verified independently: no deviation on a fine grid gains more than the tolerance
        here = float(ref.win(a, b))
        assert eq.win[0] == pytest.approx(here, abs=1e-12)
        assert float(ref.win(fine_a, b).max()) - here <= TOLERANCE
        assert float((1.0 - ref.win(a, fine_b)).max()) - (1.0 - here) <= TOLERANCE
        # and the brute force finds it, within a few of its grid steps
        cells = np.argwhere(brute)
        near = np.min(np.abs(grid_a[cells[:, 0]] - a) + np.abs(grid_b[cells[:, 1]] - b))
        assert near <= 0.004
    if not result.equilibria:
        assert regret.min() > 10 * BRUTE_EQUILIBRIUM


def test_the_cases_cover_what_they_claim() -> None:
    natural, stall, hurry, race, interior = (
        _solved(c) for c in ("natural", "stall", "hurry", "race", "interior")
    )
    assert [e.pace for e in natural.equilibria] == [(0.8, 0.7)]
    assert natural.manipulation_gain == 0.0 and natural.strategy_proof
    assert [e.pace for e in stall.equilibria] == [(1.0, 1.0)]
    assert all(br.pace == 1.0 for br in stall.best_response) and not stall.strategy_proof
    assert [e.pace for e in hurry.equilibria] == [(0.2, 0.2)]
    assert all(0.2 < br.pace < nat for br, nat in zip(hurry.best_response, (0.8, 0.7), strict=True))
    assert race.equilibria == () and race.least_regret[1] > 1e-4
    ((a, b),) = [e.pace for e in interior.equilibria]
    assert a == 0.4 and 0.4 < b < 0.8  # the favourite keeps its pace, the other hurries
    text = " ".join(race.sentences())
    assert "No pure-strategy equilibrium" in text


@pytest.mark.parametrize(
    "sets",
    [
        [],
        ["model.elo_per_doubling.rapid=0", "model.draw_nu.rapid=2"],
        [*SINGLE, "model.elo_per_doubling.classical=20", "model.draw_nu.rapid=0.3"],
        [*SINGLE, "model.elo_per_doubling.classical=40", "model.draw_nu.rapid=0.3"],
    ],
)
def test_a_symmetric_match_has_symmetric_equilibria(sets: list[str]) -> None:
    equal = [
        f"players.{A}.rating=2575",
        f"players.{B}.rating=2575",
        f"players.{A}.speed={{mean = 0.75, sd = 0.1}}",
        f"players.{B}.speed={{mean = 0.75, sd = 0.1}}",
    ]
    result = incentives(_scenario([*sets, *equal]), fairness=False)
    paces = [eq.pace for eq in result.equilibria]
    for a, b in paces:  # every equilibrium's mirror image is one too
        assert any(abs(a - y) < 1e-5 and abs(b - x) < 1e-5 for x, y in paces)
    assert any(abs(a - b) < 1e-5 for a, b in paces) or not paces
    br_a, br_b = result.best_response
    assert br_a.pace == pytest.approx(br_b.pace, abs=1e-6)
    assert br_a.gain == pytest.approx(br_b.gain, abs=1e-9)
    for eq in result.equilibria:
        assert eq.win[0] == pytest.approx(0.5, abs=1e-9)  # a fair lot of the symmetric game


def _free_pace_gain(sc: Scenario, name: str, other: str, pace_min: float) -> tuple[float, float]:
    """The gain from moving P(name is 甲) as far as the bounds allow, the deciding game's
    strength unchanged: P(sudden death) x (P(advance as 甲) - P(advance as 乙)) x the move in
    P(甲), the bound being pace_min for a player who would rather be 甲 and 1 otherwise; with
    the best pace."""
    odds = match_odds(sc)
    sd = odds.sudden_death
    assert sd is not None
    as_chooser = sd.as_chooser[name]["advances"]
    as_other = 1.0 - sd.as_chooser[other]["advances"]  # type: ignore[operator]
    assert as_chooser is not None
    me, them = sc.player(name).speed, sc.player(other).speed
    spread = math.hypot(me.sd, them.sd)  # equal clocks in the game that decides 甲

    def chooser(pace: float) -> float:
        return float(ndtr((them.mean - pace) / spread))

    best = min(pace_min, me.mean) if as_chooser > as_other else 1.0
    gain = odds.sudden_death_reached * (as_chooser - as_other) * (chooser(best) - chooser(me.mean))
    return gain, best


@pytest.mark.parametrize(
    "sets",
    [
        ["model.elo_per_doubling.rapid=0", "model.draw_nu.rapid=2"],
        ["model.elo_per_doubling.rapid=0", "model.draw_nu.rapid=0.5", "incentives.pace_min=0.5"],
        # one slow game decides 甲: its (classical) time is worth nothing, 甲 is worth having
        [*SINGLE, "model.elo_per_doubling.classical=0"],
        [*SINGLE, "model.elo_per_doubling.classical=0", "incentives.pace_min=0.6"],
    ],
)
def test_with_time_worth_nothing_every_pace_is_free(sets: list[str]) -> None:
    sc = _scenario(sets)
    result = incentives(sc, fairness=False)
    gains = []
    for k, (name, other) in enumerate(((A, B), (B, A))):
        gain, best = _free_pace_gain(sc, name, other, sc.incentives.pace_min)
        assert result.best_response[k].gain == pytest.approx(gain, abs=1e-12)
        assert result.best_response[k].pace == best
        gains.append(gain)
    assert result.manipulation_gain == pytest.approx(max(gains), abs=1e-12)


@pytest.mark.parametrize(
    "sets",
    [
        [],
        ["strategy.kind=believed"],
        ["strategy.kind=bayesian", "strategy.belief_sd=150"],
        [f"players.{A}.rating_sd=120", f"players.{B}.rating_sd=60"],
        [*SINGLE, "model.draw_nu.rapid=0.4"],
        ["format.rapid_games=2"],
        # a slow game already played: the pace game starts from there
        ['played=[{red = "王天一", black = "郑惟桐", stage = "slow", result = "draw"}]'],
    ],
)
def test_natural_paces_reproduce_knockout_odds_exactly(sets: list[str]) -> None:
    sc = _scenario(sets)
    odds = match_odds(sc)
    game = pace_game(sc)
    win = game.values(*game.natural).win[0]
    assert (float(win[0]), float(win[1])) == (odds.win[A], odds.win[B])
    result = incentives(sc, grid=11, fairness=False)
    assert result.natural_win == (odds.win[A], odds.win[B])


def test_a_natural_pace_below_pace_min_widens_the_range() -> None:
    sc = _scenario([f"players.{B}.speed={{mean = 0.15, sd = 0.05}}", "incentives.pace_min=0.3"])
    game = pace_game(sc)
    assert game.bounds == ((0.3, 1.0), (0.15, 1.0))


def test_the_sentences_follow_the_numbers() -> None:
    base = _solved("natural")
    from dataclasses import replace

    from knockout.studies.incentives import BestResponse, Equilibrium, Fairness

    def with_gain(gain: float) -> Incentives:
        return replace(
            base, best_response=(BestResponse(0.6, 0.58 + gain, gain), base.best_response[1])
        )

    assert "is strategy-proof within 0.1 points" in " ".join(with_gain(0.0009).sentences())
    text = " ".join(with_gain(0.0011).sentences())
    assert "is not strategy-proof within 0.1 points" in text and "by hurrying" in text
    eq = base.equilibria[0]
    two = replace(base, equilibria=(eq, Equilibrium((0.3, 0.3), eq.win, 0.6, (0.0, 0.0))))
    assert "Several pure-strategy equilibria (2)" in " ".join(two.sentences())
    none = replace(base, equilibria=())
    assert "No pure-strategy equilibrium" in " ".join(none.sentences())
    speed = load_scenario(FINAL).players[0].speed
    fair = Fairness(False, {"rapid": 2575.0}, speed, ((0.75, 0.75),), 0.5004, 0.0004)
    unfair = replace(fair, chooser_advances=0.52, distance=0.02)
    assert "fair within 0.1 points" in replace(base, fairness=fair).sentences()[-1]
    assert "not fair within" in replace(base, fairness=unfair).sentences()[-1]


def test_a_study_sweeps_the_incentive_metrics(tmp_path: Path) -> None:
    from knockout.studies.sweep import load_sweep, run_sweep

    study = tmp_path / "pace.toml"
    final = (Path(__file__).resolve().parents[2] / FINAL).as_posix()
    study.write_text(
        f"""
name = "pace"
scenario = "{final}"
pace_grid = 11
metrics = ["incentives.manipulation_gain", "incentives.equilibria.0.chooser_advances"]
[set]
"format.preset" = "single-slow"
"model.draw_nu.rapid" = 0.3
[grid]
"model.elo_per_doubling.classical" = [20, 40]
""",
        encoding="utf-8",
    )
    sweep = load_sweep(study)
    result = run_sweep(sweep)
    for point in result.points:
        direct = incentives(sweep.scenario_at(point.point), grid=11, fairness=False)
        gain, _, method = point.values["incentives.manipulation_gain"]
        assert method == "exact" and gain == direct.manipulation_gain
        chooser = point.values["incentives.equilibria.0.chooser_advances"][0]
        if direct.equilibria:
            assert chooser == direct.equilibria[0].chooser_advances
        else:  # no equilibrium at this point: undefined there
            assert math.isnan(chooser)
    assert any(math.isnan(p.values["incentives.equilibria.0.chooser_advances"][0])
               for p in result.points)  # fmt: skip


@pytest.mark.slow
def test_the_bundled_study_agrees_with_the_model_written_out() -> None:
    """docs/studies/incentives: at every point the manipulation gain is the brute-force one, and
    the challenger's equilibrium pace with the favourite's best reply to it is an equilibrium of
    the model written out, with the chooser's chance the study reports."""
    root = Path(__file__).resolve().parents[2]
    document = json.loads((root / "docs/studies/incentives/results.json").read_text("utf-8"))
    fine = _fine(0.2, 0.8, 8001)
    fine = np.unique(np.append(fine, 0.7))
    assert len(document["points"]) == 441
    for point in document["points"]:
        where, metrics = point["point"], point["metrics"]
        ref = Match(
            2600, 2550, 0.8, 0.7,
            epd_rapid=where["model.elo_per_doubling.rapid"],
            nu_rapid=where["model.draw_nu.rapid"],
        )  # fmt: skip
        gain_a = ref.win(fine, 0.7).max() - ref.win(0.8, 0.7)
        gain_b = (1 - ref.win(0.8, fine)).max() - (1 - ref.win(0.8, 0.7))
        reported = metrics["incentives.manipulation_gain"]["estimate"]
        assert reported == pytest.approx(max(gain_a, gain_b), abs=1e-9)
        b = metrics[f"incentives.equilibria.0.pace.{B}"]["estimate"]
        a = float(fine[np.argmax(ref.win(fine, b))])
        assert (1 - ref.win(a, fine)).max() - (1 - ref.win(a, b)) <= TOLERANCE
        chooser = metrics["incentives.equilibria.0.chooser_advances"]["estimate"]
        assert chooser == pytest.approx(ref.chooser_advances(a, b), abs=1e-9)


def test_the_figures_the_readme_and_the_model_page_give() -> None:
    base = incentives(load_scenario(FINAL))
    assert [round(100 * x, 2) for x in base.roles[0]] == [56.53, 53.29]  # type: ignore[arg-type]
    assert base.manipulation_gain == 0.0 and [e.pace for e in base.equilibria] == [(0.8, 0.7)]
    assert base.fairness is not None and base.fairness.chooser_advances is not None
    assert round(100 * base.fairness.chooser_advances, 2) == 51.70
    draws = incentives(_scenario(["model.draw_nu.rapid=2"]), fairness=False)
    assert round(100 * draws.best_response[1].gain, 2) == 1.06
    assert [e.pace for e in draws.equilibria] == [(1.0, 1.0)]
    assert round(100 * _solved("stall").best_response[1].gain, 2) == 4.82
    root = Path(__file__).resolve().parents[2]
    document = json.loads((root / "docs/studies/incentives/results.json").read_text("utf-8"))
    gains = [p["metrics"]["incentives.manipulation_gain"]["estimate"] for p in document["points"]]
    paces = [
        p["metrics"][f"incentives.equilibria.0.pace.{B}"]["estimate"] for p in document["points"]
    ]
    assert sum(g == 0.0 for g in gains) == 267 and sum(p == 1.0 for p in paces) == 174
    assert sum(g >= 0.001 for g in gains) == 164 and round(100 * max(gains), 2) == 4.82
    assert min(paces) == 0.7  # nobody hurries anywhere on the grid


def test_a_custom_format_with_a_less_time_chooser_has_the_pace_game() -> None:
    """Any format whose sudden-death 甲 used less time: here a blitz game decides 甲 (its own
    elo_per_doubling), after two slow games; the answer is the brute force over its own grid."""
    from knockout.rules.scenario.aggregate import parse_scenario

    sc = parse_scenario(
        {
            "name": "slow, blitz, then the bidding",
            "format": {
                "preset": "custom",
                "stages": [
                    {"name": "slow", "games": 2, "minutes": 60},
                    {"name": "blitz", "games": 1, "minutes": 5, "increment_seconds": 3},
                    {
                        "name": "sudden_death",
                        "games": 1,
                        "colours": "bidding",
                        "draw_winner": "black",
                        "accept": [30, 10],
                        "object_red": [10, 30],
                        "object_black": [35, 5],
                    },
                ],
            },
            "model": {"elo_per_doubling": {"blitz": 10}, "draw_nu": {"rapid": 0.4}},
            "players": [
                {"name": "A", "rating": 2550, "speed": {"mean": 0.8, "sd": 0.1}},
                {"name": "B", "rating": 2500, "speed": {"mean": 0.6, "sd": 0.1}},
            ],
        }
    )
    result = incentives(sc, fairness=False)
    assert result.deciding_stage == ("blitz", "blitz")
    game = pace_game(sc)
    grid = np.unique(np.append(np.linspace(0.2, 1.0, 4001), 0.8))
    brute = game.values(grid, 0.6).win[:, 0]
    natural = float(game.values(0.8, 0.6).win[0, 0])
    assert result.natural_win[0] == match_odds(sc).win["A"]
    assert result.best_response[0].gain == pytest.approx(brute.max() - natural, abs=1e-7)
    assert result.best_response[0].gain > 0.001  # cheap blitz time: hurrying pays
    assert result.best_response[0].pace == pytest.approx(grid[brute.argmax()], abs=1e-3)


def test_uncertain_constants_are_carried_against_the_model_written_out() -> None:
    """With [model.sd] on the rapid game's constants the manipulation gain carries its spread:
    at each draw of the constants (the same draws) a brute-force search of the model written
    out gives the gain, and the spread's quantiles and share past the 0.1-point line are
    theirs. The verdict is said in the shared words, from the interval against the line."""
    from knockout.rules.model.sd import design
    from knockout.studies.incentives import SPREAD_DRAWS, STRATEGY_PROOF
    from knockout.studies.verdicts import CANNOT_SETTLE, DOES_NOT_HOLD, HOLDS

    sets = ["model.sd.draw_nu.rapid=0.25", "model.sd.elo_per_doubling.rapid=40"]
    sc = _scenario(sets)
    result = incentives(sc, fairness=False)
    u = result.model_uncertainty
    assert u is not None and u.draws == SPREAD_DRAWS
    des = design(sc.model, sc.model_sd, draws=SPREAD_DRAWS)
    gains = []
    for i in range(des.size):
        m = des.model_at(sc.model, i)
        ref = Match(2600, 2550, 0.8, 0.7, epd_rapid=m.elo_per_doubling.rapid,
                    nu_rapid=m.draw_nu.rapid)  # fmt: skip
        best = 0.0
        for k, (natural, other) in enumerate(((0.8, 0.7), (0.7, 0.8))):
            grid = _fine(0.2, natural, 4001)
            payoff = ref.win(grid, other) if k == 0 else 1.0 - ref.win(other, grid)
            best = max(best, float(payoff.max() - payoff[np.searchsorted(grid, natural)]))
        gains.append(best)
    brute = np.array(gains)
    found = u.figures["manipulation_gain"]
    assert found.mean == pytest.approx(float(brute.mean()), abs=1e-6)
    assert found.q975 == pytest.approx(float(np.quantile(brute, 0.975)), abs=1e-6)
    assert found.q025 == pytest.approx(float(np.quantile(brute, 0.025)), abs=1e-6)
    assert result.not_strategy_proof_share == pytest.approx(
        float(np.mean(brute >= STRATEGY_PROOF)), abs=1.5 / SPREAD_DRAWS
    )
    assert 0 < float(np.mean(brute >= STRATEGY_PROOF)) < 1  # the case straddles the line
    text = " ".join(result.sentences())
    verdict = (
        HOLDS if found.q975 < STRATEGY_PROOF
        else DOES_NOT_HOLD if found.q025 >= STRATEGY_PROOF
        else CANNOT_SETTLE
    )  # fmt: skip
    assert verdict in text and "The equilibria below are at the central constants" in text
    doc = result.to_json()
    assert doc["model_uncertainty"]["figures"]["manipulation_gain"]["q975"] == found.q975
    assert set(doc["model_uncertainty"]["figures"]) >= {
        f"best_response.{A}.gain",
        f"natural.win.{B}",
        "manipulation_gain",
    }
    # without [model.sd]: no spread, no such sentence
    plain = _solved("natural")
    assert plain.model_uncertainty is None
    assert "Over the uncertain constants" not in " ".join(plain.sentences())


def test_stalling_carries_its_caveat_from_the_numbers() -> None:
    """Where a best response or an equilibrium stalls (a pace above the natural one), the
    summary says the pace model charges stalling nothing (no flag falls); natural play says
    nothing of it."""
    stall = _solved("stall")
    assert any(br.pace > stall.natural_pace[k] for k, br in enumerate(stall.best_response))
    caveat = [s for s in stall.sentences() if s.startswith("Caveat: stalling is free")]
    assert len(caveat) == 1
    assert "pace 1.000, the full clock" in caveat[0] and "no flag fall" in caveat[0]
    natural = _solved("natural")
    assert not any("Caveat" in s for s in natural.sentences())
    hurry = _solved("hurry")
    assert all(br.pace <= hurry.natural_pace[k] for k, br in enumerate(hurry.best_response))
    assert all(e.pace[k] <= hurry.natural_pace[k] for e in hurry.equilibria for k in (0, 1))
    assert not any("Caveat" in s for s in hurry.sentences())
