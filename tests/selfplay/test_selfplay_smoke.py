"""Smoke test with the real engine (CI installs it; elsewhere it skips saying how): a few games at
tiny node budgets, every move legal when replayed through the rules library, every game
adjudicated, and the output a file ``knockout calibrate`` reads."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockout.calibration import COLUMNS, read_games
from knockout.cli import app
from knockout.selfplay import Adjudication, Reason, detail_path, read_detail, replay

pytestmark = pytest.mark.system

RULE_ENDINGS = {
    Reason.CHECKMATE,
    Reason.STALEMATE,
    Reason.PERPETUAL_CHECK,
    Reason.PERPETUAL_CHASE,
    Reason.REPETITION,
    Reason.MOVE_RULE_60,
    Reason.MOVE_RULE_50,
    Reason.MATERIAL,
    Reason.MOVE_CAP,
}


def test_a_few_engine_games_are_legal_adjudicated_and_well_formed(
    real_engine: str, tmp_path: Path
) -> None:
    out = tmp_path / "games.csv"
    result = CliRunner().invoke(
        app,
        [
            "selfplay",
            "--engine",
            real_engine,
            "--nodes",
            "200",
            "--odds",
            "2:1",
            "--games",
            "6",
            "--seed",
            "1",
            "--jobs",
            "2",
            "--max-plies",
            "160",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "6 games in" in result.output
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 6 and tuple(rows[0]) == COLUMNS
    assert {r["result"] for r in rows} <= {"red", "draw", "black"}
    detail = read_detail(detail_path(out))
    assert [int(r["game"]) for r in detail] == list(range(6))
    assert {(r["red_budget"], r["black_budget"]) for r in detail} == {
        ("400", "200"),
        ("200", "400"),
    }
    adjudication = Adjudication(resign_cp=1000, resign_plies=8, max_plies=160)
    for row in detail:
        moves = row["moves"].split()
        reason = Reason(row["reason"])
        assert reason is not Reason.ILLEGAL_MOVE
        ending, plies = replay(moves, adjudication)
        assert plies == len(moves) == int(row["plies"])  # every move legal, none after an end
        if reason in RULE_ENDINGS:
            assert ending is not None and (ending.result, ending.reason) == (row["result"], reason)
        else:  # ended on the engines' scores: the rules had not ended it
            assert reason is Reason.SCORE and (ending is None or ending.reason is Reason.MOVE_CAP)
        assert row["engine"].startswith("Fairy-Stockfish") and row["contempt"] == "0"
    table = read_games(out)
    assert [c.time_class for c in table.classes] == ["rapid"]
    assert Path(str(out).replace(".csv", "-run.json")).exists()
