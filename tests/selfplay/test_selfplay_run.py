"""A run end to end with a stand-in engine (first legal move): the files, resuming, refusing
another run's file, a crashed or silent engine, the same files whatever --jobs, and Ctrl-C
leaving no engine (or worker process) behind."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("pyffish", reason="pip install 'knockout[selfplay]' for the rules library")

from typer.testing import CliRunner

from knockout.calibration import COLUMNS, calibrate, read_games
from knockout.cli import app
from knockout.errors import InputError
from knockout.selfplay import (
    Adjudication,
    Engine,
    EngineError,
    OpeningConfig,
    SelfPlayConfig,
    detail_path,
    pairings,
    play,
    read_detail,
    replay,
)
from knockout.selfplay.run import DETAIL_COLUMNS, ENGINE_OPTIONS

MakeEngine = Callable[..., str]


def config(engine: str, games: int = 6, seed: int = 3, jobs: int = 1) -> SelfPlayConfig:
    return SelfPlayConfig(
        engine=engine,
        pairings=pairings("nodes", 100, [(1, 1), (2, 1)]),
        games=games,
        seed=seed,
        jobs=jobs,
        openings=OpeningConfig(plies=2, nodes=10),
        adjudication=Adjudication(max_plies=24),
    )


@pytest.mark.system
def test_a_run_writes_the_calibration_detail_and_provenance_files(
    fake_engine: MakeEngine, tmp_path: Path
) -> None:
    out = tmp_path / "games.csv"
    seen: list[str] = []
    summary = play(config(fake_engine(), jobs=2), out, progress=lambda p: seen.append(p.phase))
    assert summary.games == summary.played == 6 and not summary.interrupted
    assert {"openings", "games"} <= set(seen)
    with out.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == COLUMNS
    assert [(r["red_minutes"], r["black_minutes"]) for r in rows[:3]] == [
        ("0.1", "0.1"),
        ("0.2", "0.1"),
        ("0.1", "0.2"),
    ]
    assert {r["time_class"] for r in rows} == {"rapid"}
    table = read_games(out)
    assert sum(float(g.red.sum() + g.draw.sum() + g.black.sum()) for g in table.classes) == 6
    calibrate(table)  # loads and fits (whatever the stand-in's results identify)
    detail = read_detail(detail_path(out))
    assert [int(r["game"]) for r in detail] == list(range(6))
    assert [r["result"] for r in detail] == [r["result"] for r in rows]
    for row in detail:
        moves = row["moves"].split()
        assert moves[:2] == row["opening"].split()
        assert row["contempt"] == ENGINE_OPTIONS["Contempt"] == "0"
        ending, plies = replay(moves, Adjudication(max_plies=24))
        assert ending is not None and plies == len(moves) == int(row["plies"])
        assert (ending.result, ending.reason.value) == (row["result"], row["reason"])
    # each opening once per pairing (both colours), and the openings differ
    assert [r["opening_index"] for r in detail] == ["0", "0", "0", "1", "1", "1"]
    assert detail[0]["opening"] != detail[3]["opening"]
    assert summary.provenance.exists()


@pytest.mark.system
def test_an_interrupted_run_resumes_with_the_missing_games_only(
    fake_engine: MakeEngine, tmp_path: Path
) -> None:
    engine = fake_engine()
    whole, part = tmp_path / "whole.csv", tmp_path / "part.csv"
    play(config(engine), whole)
    first = play(config(engine, games=3), part)
    detail = detail_path(part)
    # a crash mid-line leaves an unfinished last row: dropped, and that game played again
    lines = detail.read_text(encoding="utf-8").splitlines(keepends=True)
    detail.write_text("".join(lines[:-1]) + lines[-1][:15], encoding="utf-8")
    second = play(config(engine), part)
    assert (first.played, second.resumed, second.played) == (3, 2, 4)
    assert part.read_text() == whole.read_text()
    timing = ("red_seconds", "black_seconds")  # wall time, the only cells that differ

    def cells(path: Path) -> list[dict[str, str]]:
        return [{k: v for k, v in r.items() if k not in timing} for r in read_detail(path)]

    assert cells(detail) == cells(detail_path(whole))


@pytest.mark.system
def test_a_ctrl_c_between_a_games_two_rows_keeps_that_game(
    fake_engine: MakeEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game in the detail file is kept whenever the interrupt comes: here it comes after the
    game's detail row is written, before its calibration row (the closing rewrite used to drop
    that game, in both files)."""
    from knockout.selfplay import run

    out = tmp_path / "games.csv"
    real = run._calibration_row
    calls = {"n": 0}

    def interrupted_once(row: dict[str, str], time_class: str) -> list[str]:
        calls["n"] += 1
        if calls["n"] == 1:
            raise KeyboardInterrupt
        return real(row, time_class)

    monkeypatch.setattr(run, "_calibration_row", interrupted_once)
    with pytest.raises(KeyboardInterrupt):
        play(config(fake_engine()), out)
    kept = read_detail(detail_path(out))
    assert [r["game"] for r in kept] == ["0"]
    with out.open(encoding="utf-8") as f:
        assert len(list(csv.DictReader(f))) == 1  # its calibration row too


@pytest.mark.system
def test_the_files_are_the_same_whatever_the_jobs(fake_engine: MakeEngine, tmp_path: Path) -> None:
    """Games in one worker process or three: the same calibration file, and the same detail
    file but for the thinking times (node budgets: a game is a function of its moves)."""
    engine = fake_engine()
    one, three = tmp_path / "one.csv", tmp_path / "three.csv"
    alone = play(config(engine, games=7, jobs=1), one)
    shared = play(config(engine, games=7, jobs=3), three)
    assert alone.played == shared.played == 7
    assert one.read_text() == three.read_text()
    timing = ("red_seconds", "black_seconds")

    def cells(path: Path) -> list[dict[str, str]]:
        return [{k: v for k, v in r.items() if k not in timing} for r in read_detail(path)]

    assert cells(detail_path(one)) == cells(detail_path(three))
    for summary in (alone, shared):  # the workers' referee time is the program's, not the engines'
        assert summary.own_cpu_seconds > 0 and summary.engine_cpu_seconds >= 0


@pytest.mark.system
def test_another_runs_file_is_refused(fake_engine: MakeEngine, tmp_path: Path) -> None:
    out = tmp_path / "games.csv"
    play(config(fake_engine(), games=3), out)
    before = out.read_text()
    with pytest.raises(InputError, match="another run's games") as caught:
        play(config(fake_engine(), games=3, seed=4), out)
    assert "line 2, seed" in str(caught.value)
    assert out.read_text() == before  # nothing lost


@pytest.mark.system
def test_a_crashed_engine_is_one_line_and_the_finished_games_are_kept(
    fake_engine: MakeEngine, tmp_path: Path
) -> None:
    out = tmp_path / "games.csv"
    with pytest.raises(EngineError) as caught:
        play(config(fake_engine(FAKE_CRASH_AFTER="30")), out)
    message = str(caught.value)
    assert "\n" not in message
    assert "exited with code 3" in message and "game 2" in message
    assert len(read_detail(detail_path(out))) == 2  # 12 searches a game: games 0 and 1 finished


@pytest.mark.system
def test_a_silent_engine_is_stopped_at_the_deadline(fake_engine: MakeEngine) -> None:
    # The stand-in never answers, so the search can only end by its deadline: the error proves
    # the deadline fired (how soon after 0.5 s depends on the machine's load: not asserted).
    engine = Engine(fake_engine(FAKE_HANG="1"), {})
    with pytest.raises(EngineError, match=r"did not answer 'go nodes 1' within 0\.5 s"):
        engine.search([], "nodes 1", timeout=0.5)
    assert engine._proc.poll() is not None  # killed
    engine.close()


def test_the_cli_without_the_engine_says_how_to_install_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "selfplay",
            "--engine",
            str(tmp_path / "nope"),
            "--nodes",
            "100",
            "--games",
            "2",
            "--out",
            str(tmp_path / "g.csv"),
        ],
    )
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "apt-get install fairy-stockfish" in lines[0]


def test_the_default_engine_missing_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from knockout.selfplay import uci

    monkeypatch.setattr(uci.shutil, "which", lambda *a, **k: None)
    with pytest.raises(EngineError, match="not installed; install Fairy-Stockfish"):
        uci.find_engine(None)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--nodes", "100", "--clock", "3/1+0"], "exactly one of --nodes, --movetime, --clock"),
        ([], "exactly one of"),
        (["--nodes", "100", "--odds", "2-1"], "--odds: expected R:B"),
        (["--clock", "3/1", "--odds", "2:1"], "not with --clock"),
        (["--nodes", "100", "--jobs", "0"], "--jobs"),
    ],
)
def test_the_cli_refuses_bad_budgets_in_one_line(
    fake_engine: MakeEngine, tmp_path: Path, args: list[str], message: str
) -> None:
    result = CliRunner().invoke(
        app,
        [
            "selfplay",
            "--engine",
            fake_engine(),
            "--games",
            "2",
            "--out",
            str(tmp_path / "g.csv"),
            *args,
        ],
    )
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to list processes")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "kill"])
@pytest.mark.system
def test_ctrl_c_keeps_the_games_and_leaves_no_engine_running(
    fake_engine: MakeEngine, tmp_path: Path, stop: signal.Signals
) -> None:
    out = tmp_path / "games.csv"
    code = "import sys; from knockout.cli import main; sys.argv[0] = 'knockout'; main()"
    args = [
        "selfplay",
        "--engine",
        fake_engine(),
        "--nodes",
        "10",
        "--games",
        "40",
        "--opening-plies",
        "3",
        "--max-plies",
        "400",
        "--resign-plies",
        "0",
        "--jobs",
        "2",
        "--seed",
        "1",
        "--out",
        str(out),
    ]
    # A shell that starts this suite in the background (`make test &`, nohup) ignores SIGINT, the
    # child inherits that and Python then raises no KeyboardInterrupt: give it Python's usual
    # handler, as a terminal's foreground job has.
    code = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); " + code
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stderr=subprocess.PIPE, text=True)
    detail = detail_path(out)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if detail.exists() and len(detail.read_text().splitlines()) >= 2:
            break
        time.sleep(0.05)
    workers = _children(proc.pid)  # the games are played in worker processes
    engines = {pid for worker in workers for pid in _children(worker)}
    assert len(engines) == 4  # two games at once, two engines each
    proc.send_signal(stop)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted: the finished games are kept" in err
    assert "Traceback" not in err
    for pid in engines | workers:
        assert not Path(f"/proc/{pid}").exists() or _zombie(pid), f"process {pid} left running"
    kept = read_detail(detail)
    assert len(kept) >= 1
    assert len(out.read_text().splitlines()) == len(kept) + 1


def _zombie(pid: int) -> bool:
    try:
        return (Path(f"/proc/{pid}") / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_the_detail_header_is_the_documented_one() -> None:
    assert DETAIL_COLUMNS[:3] == ("game", "opening_index", "opening")
    assert {"moves", "reason", "red_budget", "black_budget"} <= set(DETAIL_COLUMNS)
    assert os.path.basename(str(detail_path(Path("x/selfplay-a.csv")))) == "selfplay-a-detail.csv"
