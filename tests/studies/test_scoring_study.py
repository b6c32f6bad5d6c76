"""The scoring-reform study: study files, metrics against plain references, outputs, CLI."""

from __future__ import annotations

import csv
import json
import re
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import spearmanr
from typer.testing import CliRunner

from knockout.errors import InputError
from knockout.points import TRADITIONAL
from knockout.program import app
from knockout.studies.scoring.events import PointsTable, draw_ratings, simulate_swiss
from knockout.studies.scoring.report import (
    FEWER_TIES,
    SIGNIFICANT_SE,
    balance_point,
    claims,
    summary_markdown,
    tie_excess,
    write_outputs,
)
from knockout.studies.scoring.study import (
    CSV_COLUMNS,
    EventSpec,
    Study,
    exact_rows,
    load_study,
    parse_study,
    run_study,
    sample_metrics,
)

ROOT = Path(__file__).resolve().parents[2]
STUDY = ROOT / "scenarios" / "studies" / "scoring-reform.toml"
runner = CliRunner()


def small_study(simulations: int = 30) -> Study:
    study = load_study(STUDY)
    events = (
        EventSpec("rr", "round-robin", 8, 7, simulations, 2400.0, 100.0),
        EventSpec("swiss", "swiss", 20, 5, simulations, 2300.0, 200.0, "traditional"),
        EventSpec("swiss-own", "swiss", 20, 5, simulations, 2300.0, 200.0, "own"),
    )
    return replace(study, events=events)


def small_bundled(folder: Path) -> Path:
    """The bundled study file with events of 12 players (and 5 Swiss rounds): the Dutch event
    of 80 players takes about half a minute an event."""
    text = STUDY.read_text(encoding="utf-8")
    text = re.sub(r"players = \d+", "players = 12", text).replace("rounds = 11", "rounds = 5")
    path = folder / "scoring-reform-small.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_bundled_study_file() -> None:
    study = load_study(STUDY)
    assert [s.name for s in study.systems] == [
        "traditional",
        "difference",
        "ratio",
        "ratio-computed",
        "3-1-0",
    ]
    swiss = study.events[1]
    assert (swiss.format, swiss.players, swiss.rounds, swiss.simulations) == (
        "swiss",
        100,
        11,
        1000,
    )
    assert study.events[0].rounds == 11 and study.events[0].shares_games
    assert not study.events[2].shares_games
    assert [e.pairing_system for e in study.events[1:]] == ["simplified", "simplified", "dutch"]
    dutch = study.events[3]
    assert (dutch.players, dutch.rounds, dutch.pairing, dutch.differential) == (
        80,  # about 2010's national championship: 439 games, 40 boards over 11 rounds
        11,
        "traditional",
        True,
    )


def test_study_file_problems_are_all_reported() -> None:
    data = {
        "seed": -1,
        "colour": "red",
        "systems": ["traditional", "golf", "round-robin"],
        "baseline": "golf",
        "events": [
            {"name": "x", "format": "knockout", "players": 7, "simulations": 1},
            {"name": "y", "format": "swiss", "players": 10, "rounds": 10, "simulations": 5,
             "rating_sd": -1, "pairing": "fancy"},
            {"name": "z", "format": "round-robin", "players": 10, "rounds": 5, "simulations": 5},
        ],
        "model": {"draw_nu": 0},
        "sensitivity": {"red_advantage": [0, "x"]},
    }  # fmt: skip
    with pytest.raises(InputError) as caught:
        parse_study(data, source="s.toml")
    keys = sorted(p.key for p in caught.value.problems)
    assert keys == sorted(
        [
            "colour",
            "seed",
            "systems[1]",
            "systems[2]",
            "baseline",
            "events[0].format",
            "events[0].players",
            "events[0].simulations",
            "events[1].rounds",
            "events[1].rating_sd",
            "events[1].pairing",
            "events[2].rounds",
            "model.draw_nu",
            "sensitivity.red_advantage[1]",
        ]
    )
    lines = caught.value.lines()
    assert any(
        line.startswith("s.toml: systems[1]: unknown scoring system 'golf'") for line in lines
    )
    assert any(
        "systems[2]" in line and "scores draws by moves and material" in line for line in lines
    )


def test_custom_systems_in_a_study() -> None:
    data = {
        "systems": ["traditional", "gentle"],
        "scoring": {"gentle": {"red_win": 1.8, "black_win": 2.2, "red_draw": 1, "black_draw": 1}},
        "events": [{"name": "rr", "format": "round-robin", "players": 4, "simulations": 3}],
    }
    study = parse_study(data)
    assert (study.systems[1].red_win, study.systems[1].black_win) == (
        Decimal("1.8"),
        Decimal("2.2"),
    )
    assert study.system("gentle").red_win == study.systems[1].red_win
    assert run_study(study).value("rr", "gentle", "points_per_game").method == "simulation"


def reference_metrics(points: np.ndarray, prog: np.ndarray, reds: np.ndarray, ratings: np.ndarray,
                      rounds: int) -> dict[str, float]:  # fmt: skip
    """One event's metrics, computed plainly."""
    n = len(points)
    order = sorted(range(n), key=lambda i: (-points[i], -prog[i]))
    rank = {}
    for place, i in enumerate(order):
        prev = order[place - 1] if place else None
        same = prev is not None and (points[prev], prog[prev]) == (points[i], prog[i])
        rank[i] = rank[prev] if same and prev is not None else place + 1
    more = [i for i in range(n) if reds[i] > rounds - reds[i]]
    fewer = [i for i in range(n) if reds[i] < rounds - reds[i]]
    key = [(points[i], prog[i]) for i in range(n)]
    top8 = sorted(range(n), key=lambda i: rank[i])[:8]
    return {
        "extra_red_points": float(np.mean(points[more]) - np.mean(points[fewer])),
        "extra_red_rank": float(
            np.mean([rank[i] for i in fewer]) - np.mean([rank[i] for i in more])
        ),
        "top_tie": float(sum(p == max(points) for p in points) > 1),
        "top_tie_after_progressive": float(key.count(max(key)) > 1),
        "spearman_strength": float(
            spearmanr([points[i] * 10**6 + prog[i] for i in range(n)], ratings)[0]
        ),
        "strongest_first": float(rank[int(np.argmax(ratings))] == 1),
        "top8_sharing": float(sum(sum(points[j] == points[i] for j in top8) > 1 for i in top8)),
    }


def test_metrics_match_a_plain_reference() -> None:
    rng = np.random.default_rng(9)
    ratings = draw_ratings(rng, 25, 16, mean=2400, sd=150)
    (sample,) = simulate_swiss(
        ratings, [PointsTable.from_system(TRADITIONAL, 1)], rng.random((25, 7, 8))
    )
    metrics = sample_metrics(sample, None)
    for e in range(25):
        ref = reference_metrics(
            sample.points[e], sample.progressive[e], sample.reds[e], ratings[e], 7
        )
        for name, value in ref.items():
            assert metrics[name][e] == pytest.approx(value), (e, name)


def test_run_study_rows_and_common_random_numbers() -> None:
    result = run_study(small_study())
    metrics = {(r.event, r.metric) for r in result.rows if r.method == "simulation"}
    assert ("rr", "winner_changed_vs_baseline") in metrics
    assert ("swiss", "spearman_vs_baseline") in metrics
    assert ("swiss-own", "spearman_vs_baseline") not in metrics  # different games per system
    # The baseline against itself: identical games, identical order.
    assert result.value("swiss", "traditional", "spearman_vs_baseline").value == 1.0
    assert result.value("rr", "traditional", "points_per_game").value == 2.0
    again = run_study(small_study())
    assert again.rows == result.rows  # same seed, same figures
    assert len(exact_rows(small_study())) == 2 * 5 * (1 + 5 * 4)


@pytest.mark.slow
def test_extra_red_matches_the_exact_value_between_equal_players() -> None:
    """Equal players in a round robin: one extra Red is worth exactly Red's edge in one game."""
    study = replace(
        small_study(),
        events=(EventSpec("rr", "round-robin", 12, 11, 20_000, 2400.0, 0.0),),
        red_advantages=(),
        draw_nus=(),
    )
    result = run_study(study)
    for system in study.systems:
        exact = next(
            r.value
            for r in result.rows
            if (r.event, r.system, r.metric) == ("model", system.name, "red_minus_black")
        )
        for metric in ("extra_red_points", "red_game_value"):
            row = result.value("rr", system.name, metric)
            assert abs(row.value - exact) < 4 * row.se, (system.name, metric, row, exact)


def test_balance_points() -> None:
    study = load_study(STUDY)
    assert balance_point(study, "traditional", 1.714) == pytest.approx(0, abs=1e-6)
    # 1.63 / 2.37 was fitted to 32.10 % / 22.17 %, i.e. about the model's 64 Elo.
    assert balance_point(study, "ratio-computed", 1.714) == pytest.approx(64.3, abs=1.5)


def test_outputs(tmp_path: Path) -> None:
    result = run_study(small_study())
    files = write_outputs(result, tmp_path)
    assert [f.name for f in files] == [
        "results.csv",
        "results.json",
        "extra-red.png",
        "ties.png",
        "strength.png",
        "sensitivity.png",
        "summary.md",
    ]
    assert all(f.stat().st_size > 0 for f in files)
    assert (tmp_path / "extra-red.png").read_bytes()[:4] == b"\x89PNG"
    with (tmp_path / "results.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert {r["method"] for r in rows} == {"simulation", "exact"}
    text = summary_markdown(result)
    assert "## The seed's claims" in text
    assert len(claims(result)) == 7


@pytest.mark.system
def test_cli_study_json(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "scoring-study",
            str(small_bundled(tmp_path)),
            "--out",
            str(tmp_path),
            "-n",
            "4",
            "--seed",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["seed"] == 1 and len(doc["claims"]) == 7
    assert {c["verdict"] for c in doc["claims"]} <= {
        "holds",
        "does not hold",
        "partly holds",
        "not shown (noise)",
    }
    assert (tmp_path / "summary.md").exists()
    assert "swiss-100: 4 swiss events" in result.stderr
    assert "swiss-80-dutch: Dutch pairing, 4/4 events" in result.stderr


def test_cli_study_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('systems = ["golf"]\n[[events]]\nname = "x"\n', encoding="utf-8")
    result = runner.invoke(app, ["scoring-study", str(bad), "--out", str(tmp_path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert any(
        line.startswith(f"error: {bad}: systems[0]: unknown scoring system 'golf'")
        for line in lines
    )
    assert all(line.startswith("error: ") for line in lines) and len(lines) == 5
    result = runner.invoke(app, ["scoring-study", "nope.toml"])
    assert result.exit_code == 2
    assert (
        result.stderr.strip() == "error: nope.toml: cannot read the file: No such file or directory"
    )


def test_cli_study_help_has_an_example() -> None:
    result = runner.invoke(app, ["scoring-study", "--help"])
    assert result.exit_code == 0
    assert "Example" in result.stdout and "knockout scoring-study" in result.stdout


def test_docs_study_file_example_parses() -> None:
    import tomllib

    text = (ROOT / "docs" / "scoring-study.md").read_text(encoding="utf-8")
    block = text.split("```toml\n", 1)[1].split("```", 1)[0]
    study = parse_study(tomllib.loads(block), source="docs")
    assert [e.name for e in study.events] == ["round-robin-12", "swiss-100"]
    assert study.system("gentle").black_win == Decimal("2.2")


def _with(result, changes):  # type: ignore[no-untyped-def]
    """``result`` with rows replaced: {(event, system, metric, method): (value, se)}."""
    rows = []
    for row in result.rows:
        key = (row.event, row.system, row.metric, row.method)
        if key in changes:
            value, se = changes.pop(key)
            rows.append(replace(row, value=value, se=se))
        else:
            rows.append(row)
    assert not changes, f"no such rows: {list(changes)}"
    return replace(result, rows=tuple(rows))


@pytest.fixture(scope="module")
def study_result():  # type: ignore[no-untyped-def]
    return run_study(small_study(20))


EVENTS = ("rr", "swiss", "swiss-own")
SYSTEMS = ("traditional", "difference", "ratio", "ratio-computed", "3-1-0")

# Claim (by position: 1 extra Red pays, 2 balance, 3 fewer ties, 4 order, 5 objectivity,
# 6 total 22, 7 the Swiss example), rows that contradict what the small study found, and the
# verdict those rows must force.
CONTRADICTIONS = [
    (1, {("model", "traditional", "red_minus_black", "exact"): (-0.05, 0.0)}, "does not hold"),
    (1, {("model", "traditional", "red_minus_black", "exact"): (0.6, 0.0)}, "holds"),
    (2, {("model", "difference", "red_minus_black", "exact"): (0.0, 0.0),
         ("model", "ratio", "red_minus_black", "exact"): (0.005, 0.0)}, "holds"),
    (3, {**{(e, s, "top_tie", "simulation"): (0.5 if s == "traditional" else 0.0, 0.001)
            for e in EVENTS for s in SYSTEMS},
         **{(e, s, "top_tie_minus_baseline", "simulation"): (-0.5, 0.001)
            for e in EVENTS for s in SYSTEMS[1:]}}, "holds"),
    (3, {**{(e, s, "top_tie", "simulation"): (0.1 if s == "traditional" else 0.5, 0.001)
            for e in EVENTS for s in SYSTEMS},
         **{(e, s, "top_tie_minus_baseline", "simulation"): (0.4, 0.001)
            for e in EVENTS for s in SYSTEMS[1:]}}, "does not hold"),
    (4, {("rr", "difference", "spearman_vs_baseline", "simulation"): (0.5, 0.01)},
     "does not hold"),
    (4, {("rr", "ratio", "spearman_vs_baseline", "simulation"): (0.5, 0.01)}, "holds"),
    (5, {(e, "ratio", "spearman_strength_minus_baseline", "simulation"): (0.1, 0.001)
         for e in EVENTS}, "holds"),
    (5, {("rr", "ratio", "spearman_strength_minus_baseline", "simulation"): (-0.1, 0.001)},
     "does not hold"),
    (6, {("model", "ratio", "points_per_game", "exact"): (2.0, 0.0)}, "holds"),
    (7, {("swiss", "traditional", "extra_red_points", "simulation"): (0.1, 0.1)},
     "not shown (noise)"),
    (7, {("swiss", "traditional", "extra_red_points", "simulation"): (-1.0, 0.1)},
     "does not hold"),
]  # fmt: skip


@pytest.mark.parametrize(("number", "changes", "verdict"), CONTRADICTIONS)
def test_verdicts_follow_the_numbers(study_result, number, changes, verdict) -> None:  # type: ignore[no-untyped-def]
    before = claims(study_result)[number - 1]
    after = claims(_with(study_result, dict(changes)))[number - 1]
    assert before.verdict != verdict, "pick rows that contradict the small study's finding"
    assert after.verdict == verdict
    assert after.evidence != before.evidence


def test_tie_excess_is_the_paired_difference(study_result) -> None:  # type: ignore[no-untyped-def]
    """The excess over FEWER_TIES x the baseline's ties, from the three rows, equals the mean and
    standard error of the event-by-event difference computed directly."""
    rng = np.random.default_rng(12)
    base = (rng.random(400) < 0.3).astype(np.float64)
    new = np.where(base > 0, rng.random(400) < 0.3, rng.random(400) < 0.03).astype(np.float64)

    def row(x: np.ndarray) -> tuple[float, float]:
        return float(x.mean()), float(x.std(ddof=1) / np.sqrt(x.size))

    result = _with(
        study_result,
        {
            ("rr", "traditional", "top_tie", "simulation"): row(base),
            ("rr", "ratio", "top_tie", "simulation"): row(new),
            ("rr", "ratio", "top_tie_minus_baseline", "simulation"): row(new - base),
        },
    )
    value, se = tie_excess(result, "rr", "ratio")
    direct = row(new - FEWER_TIES * base)
    assert value == pytest.approx(direct[0], abs=1e-12)
    assert se == pytest.approx(direct[1], rel=1e-9)
    # pairing pays: the independent errors' bound is wider
    assert se < np.hypot(row(new)[1], FEWER_TIES * row(base)[1])


def test_the_tie_verdict_uses_the_paired_error(study_result) -> None:  # type: ignore[no-untyped-def]
    """Ties 0.4 -> 0.1 with wide errors on each (0.05, 0.03) but a tight paired difference: the
    separate errors could not decide, the paired test does; and widening the paired error
    (no correlation left) makes it noise."""
    claim = 2  # the third claim

    def tied(diff_se: float):  # type: ignore[no-untyped-def]
        changes = {}
        for e in ("rr", "swiss", "swiss-own"):
            changes[(e, "traditional", "top_tie", "simulation")] = (0.4, 0.05)
            for s in ("difference", "ratio", "ratio-computed"):
                changes[(e, s, "top_tie", "simulation")] = (0.1, 0.03)
                changes[(e, s, "top_tie_minus_baseline", "simulation")] = (-0.3, diff_se)
        return _with(study_result, changes)

    tight = tied(0.03)
    excess, se = tie_excess(tight, "rr", "ratio")
    assert excess + SIGNIFICANT_SE * se < 0
    separate = 0.1 + SIGNIFICANT_SE * 0.03 < FEWER_TIES * (0.4 - SIGNIFICANT_SE * 0.05)
    assert not separate
    assert claims(tight)[claim].verdict == "holds"
    loose = tied(float(np.hypot(0.05, 0.03)))
    assert claims(loose)[claim].verdict == "not shown (noise)"


def test_the_words_follow_the_numbers(study_result) -> None:  # type: ignore[no-untyped-def]
    flat = _with(study_result, {("model", "traditional", "red_minus_black", "exact"): (0.0, 0.0)})
    first = claims(flat)[0]
    assert first.verdict == "does not hold" and "0.0 % of a win; small" in first.evidence
    big = _with(study_result, {("model", "traditional", "red_minus_black", "exact"): (0.6, 0.0)})
    assert "30.0 % of a win; large" in claims(big)[0].evidence
    # "marked" (明显) follows the named line: the small study's 9.9 % of a win is not marked
    assert claims(study_result)[0].verdict == "partly holds"
    assert "not a marked one" in claims(study_result)[0].evidence
    assert claims(big)[0].verdict == "holds" and "a marked advantage" in claims(big)[0].evidence
    worse = _with(
        study_result,
        {("rr", "ratio", "spearman_strength_minus_baseline", "simulation"): (-0.1, 0.001)},
    )
    assert "further from their strength" in claims(worse)[4].evidence
    assert "further from their strength" not in claims(study_result)[4].evidence
