"""``knockout backtest`` and ``knockout calibrate --strengths``: files, JSON, exit codes."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from knockout.backtest.scores import per_game
from knockout.program import app
from knockout.strengths.simulate import simulate_field
from knockout.version import __version__

runner = CliRunner()
KEYS = ["log_loss", "log_loss_se", "brier", "brier_se", "rps", "rps_se", "ece"]


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("games") / "games.csv"
    sim = simulate_field(np.random.default_rng(8), players=40, events_per_year=5)
    path.write_text(sim.csv, encoding="utf-8")
    return path


def test_out_writes_every_file_and_the_forecasts_rescore(games: Path, tmp_path: Path) -> None:
    out = tmp_path / "bt"
    result = runner.invoke(
        app, ["backtest", str(games), "--from", "2006", "--by", "time_class", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        "forecasts.csv", "matches.csv", "reliability-black.png", "reliability-draw.png",
        "reliability-red.png", "scores.json", "summary.md",
    ]  # fmt: skip
    rows = list(csv.DictReader((out / "forecasts.csv").open(encoding="utf-8")))
    assert list(rows[0]) == [
        "id", "date", "red", "black", "time_class", "p_red", "p_draw", "p_black", "result",
    ]  # fmt: skip
    assert {r["result"] for r in rows} <= {"1-0", "1/2-1/2", "0-1"}
    scores = json.loads((out / "scores.json").read_text(encoding="utf-8"))
    assert scores["version"] == __version__ and scores["n"] == len(rows)
    assert list(scores["model"]) == KEYS
    assert set(scores["baselines"]) == {"uniform", "colour base rates", "elo"}
    assert all(list(v) == KEYS for v in scores["baselines"].values())
    # Re-scored from the file alone: the same log loss and Brier score.
    p = np.array([[float(r["p_red"]), float(r["p_draw"]), float(r["p_black"])] for r in rows])
    outcome = np.array([("1-0", "1/2-1/2", "0-1").index(r["result"]) for r in rows])
    each = per_game(p, outcome)
    assert math.isclose(float(each["log_loss"].mean()), scores["model"]["log_loss"], rel_tol=1e-12)
    assert math.isclose(float(each["brier"].mean()), scores["model"]["brier"], rel_tol=1e-12)
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert f"knockout backtest {games} --from 2006 --by time_class --out {out}" in summary
    assert "## By time class" in summary


def test_json_is_clean_and_progress_goes_to_stderr(games: Path) -> None:
    result = runner.invoke(app, ["backtest", str(games), "--from", "2008", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["from"] == 2008 and data["by"] is None and data["n"] > 0
    assert "differences" in data and len(data["reliability"]) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--from", "2020"],
            "--from: expected a year up to 2009, the last year with games, got 2020",
        ),
        (["--from", "2000"], "--from: expected at least 100 games before 2000 to fit the model on"),
        (["--by", "year"], "error: --by: expected time_class, got 'year'"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(games: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["backtest", str(games), *args])
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_a_table_with_bad_rows_is_refused(tmp_path: Path, games: Path) -> None:
    lines = games.read_text(encoding="utf-8").splitlines()
    cells = lines[3].split(",")
    cells[5] = ""  # no Red player
    cells[9] = ""  # no result
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join([*lines[:3], ",".join(cells), *lines[4:]]) + "\n", encoding="utf-8")
    for command in (["backtest", str(bad)], ["calibrate", str(bad), "--strengths"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2
        assert result.stderr.splitlines() == [
            f"error: {bad}: line 4, result: expected one of 1-0, 1/2-1/2, 0-1, *, got ''",
        ]


def test_games_without_names_are_left_out_in_one_line(tmp_path: Path, games: Path) -> None:
    lines = games.read_text(encoding="utf-8").splitlines()
    rows = []
    for k, line in enumerate(lines[1:]):
        cells = line.split(",")
        if k % 10 == 0:
            cells[5] = ""  # no Red player
        rows.append(",".join(cells))
    nameless = tmp_path / "nameless.csv"
    nameless.write_text("\n".join([lines[0], *rows]) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["backtest", str(nameless), "--from", "2008", "--json"])
    assert result.exit_code == 0, result.output
    left = (len(lines) - 1 + 9) // 10
    assert f"note: left out {left:,} games with no player's name" in result.stderr.splitlines()
    assert json.loads(result.stdout)["left_out"] == {"no player's name": left}


def test_calibrate_strengths_json_players_and_model(games: Path, tmp_path: Path) -> None:
    model = tmp_path / "measured.toml"
    players = tmp_path / "players.csv"
    result = runner.invoke(
        app,
        ["calibrate", str(games), "--strengths", "--by", "time_class", "--json",
         "--write-model", str(model), "--players", str(players)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["by"] == "time_class"
    for tc in ("classical", "rapid", "blitz"):
        assert {"games", "red_advantage", "draw_nu"} <= set(data[tc])
    assert data["blitz"]["games"] == 0 and data["blitz"]["red_advantage"]["estimate"] is None
    text = model.read_text(encoding="utf-8")
    header = " ".join(line[2:] for line in text.splitlines() if line.startswith("# "))
    assert header.startswith(
        f"Written by: knockout calibrate {games} --strengths --by time_class --write-model {model}"
    )
    assert all(len(line) <= 100 for line in text.splitlines() if line.startswith("#"))
    assert players.read_text(encoding="utf-8").startswith("player,games,")
    assert f"wrote {model}" in result.stderr


def test_strength_options_need_strengths(games: Path) -> None:
    result = runner.invoke(app, ["calibrate", str(games), "--players", "p.csv"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --players: expected only with --strengths"


def test_calibrate_classical_events(games: Path, tmp_path: Path) -> None:
    events = tmp_path / "slow.txt"
    events.write_text("Cup 1\n\nCup 2\n", encoding="utf-8")
    result = runner.invoke(
        app,
        ["calibrate", str(games), "--strengths", "--by", "time_class", "--json",
         "--classical-events", str(events)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    n = data["classical_events"]["games"]
    assert data["classical_events"]["events"] == ["Cup 1", "Cup 2"] and n > 0
    assert data["classical"]["without_unknown"]["games"] == n
    assert f"note: {n:,} games of the 2 events in {events} read as classical" in result.stderr
    events.write_text("\n \n", encoding="utf-8")
    result = runner.invoke(
        app, ["calibrate", str(games), "--strengths", "--classical-events", str(events)]
    )
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"error: {events}: --classical-events: expected event names, one a line, got none"
    )
    result = runner.invoke(app, ["calibrate", str(games), "--classical-events", str(events)])
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --classical-events: expected only with --strengths"


def test_calibrate_view_shows_the_classical_row_without_unknown_games(games: Path) -> None:
    result = runner.invoke(app, ["calibrate", str(games), "--strengths", "--by", "time_class"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    row = next(line for line in lines if line.lstrip().startswith("no unknown"))
    assert "classical [" in row and " 0 " in row
    assert "no game is marked classical" in result.stdout


def test_the_reliability_plots_speak_chinese(
    games: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In Chinese the plots' titles, axes and legends are the catalogue's Chinese."""
    import knockout.dashboard.backtest as views
    from knockout.i18n import speaking

    figures: dict[str, Any] = {}
    save = views.save

    def keep(fig: Any, path: Path) -> Path:
        figures[path.name] = fig
        return save(fig, path)

    monkeypatch.setattr(views, "save", keep)
    out = tmp_path / "bt"
    with speaking("zh_CN"):
        result = runner.invoke(app, ["backtest", str(games), "--from", "2006", "--out", str(out)])
    assert result.exit_code == 0, result.output
    top, bottom = figures["reliability-red.png"].axes
    assert top.get_ylabel() == "红方胜的实际比例" and bottom.get_ylabel() == "对局数"
    assert bottom.get_xlabel() == "预测的 P（红方胜），10 个等宽区间"
    assert top.get_title().startswith("模型 P（红方胜）的可靠性")
    legend = [t.get_text() for t in top.get_legend().get_texts()]
    assert legend == ["完全校准", "实际比例（95 % 区间）"]
    assert (out / "reliability-black.png").stat().st_size > 0
