"""The bundled self-play data: each file loads in ``calibrate`` with the fit docs/selfplay.md
reports, agrees with its detail file, and a sample of its games replays through the rules
library move by move to the ending recorded."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockout.calibration import calibrate, read_games
from knockout.cli import app

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data"
DOC = ROOT / "docs" / "selfplay.md"
FILES = sorted(p for p in DATA.glob("selfplay-*.csv") if not p.stem.endswith("-detail"))


def doc_fits() -> dict[str, list[str]]:
    """The fit table of the doc: file name to its cells (games, R/D/B, three constants)."""
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\| `(selfplay-[\w-]+\.csv)` \| (.*) \|$", line)
        if match:
            rows[match.group(1)] = [c.strip() for c in match.group(2).split("|")]
    return rows


def test_the_bundled_files_are_there_with_at_least_2000_games() -> None:
    assert {p.name for p in FILES} >= {
        "selfplay-nodes1k.csv",
        "selfplay-nodes2k.csv",
        "selfplay-nodes4k.csv",
    }
    games = sum(len(p.read_text(encoding="utf-8").splitlines()) - 1 for p in FILES)
    assert games >= 2000
    for path in FILES:
        assert path.with_name(f"{path.stem}-detail.csv").exists()
        provenance = json.loads(path.with_name(f"{path.stem}-run.json").read_text())
        assert provenance["engine"].startswith("Fairy-Stockfish 11.1")
        assert provenance["engine_options"]["Contempt"] == "0"
        assert provenance["sessions"][0]["command"].startswith("knockout selfplay ")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_file_fits_as_the_doc_reports(path: Path) -> None:
    fit = calibrate(read_games(path)).to_json()["rapid"]
    cells = doc_fits()[path.name]
    with path.with_name(f"{path.stem}-detail.csv").open(encoding="utf-8") as f:
        detail = list(csv.DictReader(f))
    counts = [sum(r["result"] == k for r in detail) for k in ("red", "draw", "black")]
    assert cells[0] == str(len(detail))
    assert cells[1] == "/".join(map(str, counts))
    for cell, name, digits in zip(
        cells[2:5], ("red_advantage", "draw_nu", "elo_per_doubling"), (1, 3, 1), strict=True
    ):
        e = fit[name]
        want = f"{e['estimate']:.{digits}f} ± {e['stderr']:.{digits}f}"
        assert cell == want, name


def test_the_pooled_fit_is_as_the_doc_reports(tmp_path: Path) -> None:
    nodes = [p for p in FILES if p.stem.startswith("selfplay-nodes")]
    lines = [nodes[0].read_text(encoding="utf-8").splitlines()[0]]
    for path in nodes:
        lines += path.read_text(encoding="utf-8").splitlines()[1:]
    pooled = tmp_path / "pooled.csv"
    pooled.write_text("\n".join(lines) + "\n", encoding="utf-8")
    fit = calibrate(read_games(pooled)).to_json()["rapid"]
    row = next(
        line
        for line in DOC.read_text(encoding="utf-8").splitlines()
        if line.startswith("| all three files together |")
    )
    cells = [c.strip() for c in row.strip("|").split("|")][1:]
    assert cells[0] == str(len(lines) - 1)
    for cell, name, digits in zip(
        cells[2:5], ("red_advantage", "draw_nu", "elo_per_doubling"), (1, 3, 1), strict=True
    ):
        e = fit[name]
        assert cell == f"{e['estimate']:.{digits}f} ± {e['stderr']:.{digits}f}", name


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_calibration_rows_are_the_detail_rows(path: Path) -> None:
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    with path.with_name(f"{path.stem}-detail.csv").open(encoding="utf-8") as f:
        detail = list(csv.DictReader(f))
    assert [int(r["game"]) for r in detail] == list(range(len(detail)))
    assert [r["result"] for r in rows] == [r["result"] for r in detail]
    for row, game in zip(rows, detail, strict=True):
        scale = 60 if game["budget"] == "clock" else 1000
        assert float(row["red_minutes"]) == pytest.approx(float(game["red_budget"]) / scale)
        assert float(row["black_minutes"]) == pytest.approx(float(game["black_budget"]) / scale)
        assert row["time_class"] == "rapid"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
@pytest.mark.slow
def test_a_sample_of_games_replays_to_its_recorded_ending(path: Path) -> None:
    pytest.importorskip("pyffish", reason="pip install 'knockout[selfplay]' for the rules library")
    from knockout.selfplay import Adjudication, Reason, replay

    with path.with_name(f"{path.stem}-detail.csv").open(encoding="utf-8") as f:
        detail = list(csv.DictReader(f))
    for row in detail[:: max(1, len(detail) // 25)]:
        adjudication = Adjudication(
            int(row["resign_cp"]),
            int(row["resign_plies"]),
            int(row["max_plies"]),
            int(row["move_rule"]),
        )
        moves = row["moves"].split()
        assert moves[: int(row["opening_plies"])] == row["opening"].split()
        ending, plies = replay(moves, adjudication)
        assert plies == len(moves) == int(row["plies"])
        reason = Reason(row["reason"])
        if reason in (Reason.SCORE, Reason.TIME):  # the engines' scores or clocks, not the rules
            assert ending is None or ending.reason is Reason.MOVE_CAP
        else:
            assert ending is not None
            assert (ending.result, ending.reason) == (row["result"], reason)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_file_states_its_move_rule_and_labels_its_draws_by_it(path: Path) -> None:
    """Kept as played: the node files by the library's 50-move rule (their draws by it labelled
    move_rule_50), the move60 file by the Chinese 60 (move_rule_60); every row states the rule,
    no draw carries the other label, and run.json says the same with the same count."""
    with path.with_name(f"{path.stem}-detail.csv").open(encoding="utf-8") as f:
        detail = list(csv.DictReader(f))
    rule = "60" if path.stem.startswith("selfplay-move60") else "50"
    assert {r["move_rule"] for r in detail} == {rule}
    other = "50" if rule == "60" else "60"
    reasons = {r["reason"] for r in detail}
    assert "move_rule" not in reasons and f"move_rule_{other}" not in reasons
    by_rule = [r for r in detail if r["reason"] == f"move_rule_{rule}"]
    assert all(r["result"] == "draw" for r in by_rule)
    provenance = json.loads(path.with_name(f"{path.stem}-run.json").read_text())
    assert provenance["adjudication"]["move_rule"] == int(rule)
    assert provenance["reasons"].get(f"move_rule_{rule}", 0) == len(by_rule)
    assert "move_rule" not in provenance["reasons"]
    if rule == "50":
        assert by_rule  # each node file has draws by the 50-move rule


def test_the_60_move_games_are_the_50_move_games_until_the_50_move_rule() -> None:
    """The move60 file replays the first 150 games of the 1k file (same seed and budgets): the
    engine is deterministic at fixed nodes, so a game is the same move for move unless the
    50-move rule ended it, and then it went on from the same moves."""
    with (DATA / "selfplay-move60-nodes1k-detail.csv").open(encoding="utf-8") as f:
        sixty = list(csv.DictReader(f))
    with (DATA / "selfplay-nodes1k-detail.csv").open(encoding="utf-8") as f:
        fifty = list(csv.DictReader(f))[: len(sixty)]
    assert len(sixty) == 150
    changed = 0
    for new, old in zip(sixty, fifty, strict=True):
        assert (new["opening"], new["red_budget"], new["black_budget"]) == (
            old["opening"],
            old["red_budget"],
            old["black_budget"],
        )
        if old["reason"] == "move_rule_50":
            changed += 1
            assert new["moves"].split()[: int(old["plies"])] == old["moves"].split()
            assert int(new["plies"]) > int(old["plies"])
        else:
            assert (new["moves"], new["result"], new["reason"]) == (
                old["moves"],
                old["result"],
                old["reason"],
            )
    assert changed == 8


def doc_fairness() -> list[list[str]]:
    """The fairness table of the doc: label, the three constants, the split and the edge."""
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 6 and cells[4].endswith("/ 10") and cells[5][:1] in "+-":
            rows.append(cells)
    return rows


@pytest.mark.slow
def test_the_docs_fairness_rows_are_what_knockout_fair_says() -> None:
    rows = doc_fairness()
    assert len(rows) >= 4
    scenario = ROOT / "scenarios" / "final-2600-vs-2550.toml"
    for cells in (rows[0], rows[-1]):  # the model's defaults and the last engine-fitted row
        _, ra, nu, epd, split, edge = cells
        result = CliRunner().invoke(
            app,
            [
                "fair",
                str(scenario),
                "--seed",
                "1",
                "--json",
                "--set",
                f"model.red_advantage.rapid={ra}",
                "--set",
                f"model.draw_nu.rapid={nu}",
                "--set",
                f"model.elo_per_doubling.rapid={epd}",
            ],
        )
        assert result.exit_code == 0, result.output
        fair = json.loads(result.stdout)
        assert f"{fair['armageddon']['red']:.2f} / 10" == split
        assert f"{100 * fair['chooser_advantage']['seed_menu']:+.2f}" == edge
