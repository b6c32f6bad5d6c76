"""Blocks, seeds and executors: the same seed gives bit-identical counts however it is run."""

from __future__ import annotations

import json
import os
import time
from functools import partial
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from knockout.answers import MatchTally
from knockout.errors import KnockoutError
from knockout.io.scenario import load_scenario
from knockout.program import app
from knockout.rules.chain.pairing import Pairing
from sims import runner
from sims.kernel import MatchTables
from sims.match import match_block, simulate_match
from sims.runner import (
    STARTUP_SECONDS,
    _chunks,
    _Helpers,
    _helpers_wanted,
    _Tally,
    available_cpus,
    block_rng,
    parse_workers,
    resolve_workers,
    run_blocks,
)

ROOT = Path(__file__).resolve().parents[2]
FINAL = ROOT / "scenarios" / "final-2600-vs-2550.toml"
SPECIALIST = ROOT / "scenarios" / "single-slow-rapid-specialist.toml"


def tables_for(path: Path) -> MatchTables:
    sc = load_scenario(path)
    return MatchTables.from_pairing(
        Pairing.of(sc.format, *sc.players, model=sc.model, strategy=sc.strategy)
    )


def test_block_seeds_are_independent_of_split() -> None:
    assert block_rng(5, 3).random() == block_rng(5, 3).random()
    assert block_rng(5, 3).random() != block_rng(5, 4).random()
    assert block_rng(5, 3).random() != block_rng(6, 3).random()


def test_block_boundaries_are_fixed() -> None:
    block = partial(match_block, tables_for(FINAL))
    r = run_blocks(block, 10_000, 1, block_size=4096)
    assert r.blocks == (0, 1, 2) and r.runs == 10_000
    assert r.counts is not None and r.counts.runs == 10_000


@pytest.mark.slow
@pytest.mark.parametrize("path", [FINAL, SPECIALIST], ids=["rational", "believed"])
@pytest.mark.system
def test_bit_identical_across_workers_and_dask(path: Path) -> None:
    block = partial(match_block, tables_for(path))
    runs, seed = 60_000, 2024
    results = [run_blocks(block, runs, seed, block_size=4096, workers=w).counts for w in (1, 2, 4)]
    dask = run_blocks(block, runs, seed, block_size=4096, executor="dask", workers=2)
    assert results[0] == results[1] == results[2] == dask.counts
    other = run_blocks(block, runs, seed + 1, block_size=4096).counts
    assert other != results[0]


@pytest.mark.slow
@pytest.mark.system
def test_existing_dask_scheduler() -> None:
    from distributed import LocalCluster

    block = partial(match_block, tables_for(FINAL))
    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as cluster:
        remote = run_blocks(
            block, 30_000, 3, block_size=4096, executor="dask", scheduler=cluster.scheduler_address
        )
    assert remote.counts == run_blocks(block, 30_000, 3, block_size=4096).counts


def _interrupting_block(index: int, size: int, seed: int) -> MatchTally:
    if index == 3:
        raise KeyboardInterrupt
    return MatchTally(size, (size, 0), ((size, 0),))


def test_ctrl_c_keeps_completed_blocks() -> None:
    r = run_blocks(_interrupting_block, 100, 0, block_size=10)
    assert r.interrupted and r.blocks == (0, 1, 2) and r.runs == 30 and r.requested == 100
    assert r.counts is not None and r.counts.runs == 30


def test_bad_arguments() -> None:
    block = partial(match_block, tables_for(FINAL))
    with pytest.raises(KnockoutError, match="runs must be at least 1"):
        run_blocks(block, 0, 1)
    with pytest.raises(KnockoutError, match="--scheduler needs --executor dask"):
        run_blocks(block, 10, 1, scheduler="tcp://x:1")


def test_estimates_have_standard_errors() -> None:
    sc = load_scenario(FINAL)
    est, result = simulate_match(sc, 100_000, 9)
    assert est is not None and not result.interrupted
    a = sc.players[0].name
    p, se = est.value.win[a], est.stderr.win[a]
    assert se == pytest.approx((p * (1 - p) / 100_000) ** 0.5)
    c, c_se = est.value.chooser_advances, est.stderr.chooser_advances
    assert c is not None and c_se is not None
    reached = result.counts.reached if result.counts else 0
    assert c_se == pytest.approx((c * (1 - c) / reached) ** 0.5)


def test_simulate_cli_json_contract() -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["simulate", str(FINAL), "--runs", "50000", "--seed", "4", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["runs"] == 50_000 and data["seed"] == 4
    assert data["players"] == ["王天一", "郑惟桐"]
    assert set(data["win"]) == set(data["stderr"]["win"]) == {"王天一", "郑惟桐"}
    assert list(data["match"]["decided"]) == ["slow", "rapid", "sudden_death"]
    assert set(data["stderr"]["match"]["decided"]) == {"slow", "rapid", "sudden_death"}
    assert 0 < data["stderr"]["match"]["decided"]["rapid"] < 0.01
    assert data["match"]["chooser_advances"] is not None
    assert data["stderr"]["match"]["chooser_advances"] > 0
    assert set(data["match"]["bidding"]) == {"announce_red", "object"}
    assert sum(data["match"]["games"].values()) == pytest.approx(1.0)
    assert data["scenario"]["format"]["preset"] == "xq-bidding"
    again = runner.invoke(app, ["simulate", str(FINAL), "--runs", "50000", "--seed", "4", "--json"])
    assert json.loads(again.stdout) == data


def test_simulate_cli_table_and_errors() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["simulate", str(FINAL), "--runs", "20000", "--seed", "1"])
    assert result.exit_code == 0 and "Exact" in result.stdout and "Std. error" in result.stdout
    bad = runner.invoke(app, ["simulate", str(FINAL), "--runs", "0"])
    assert bad.exit_code == 2 and "runs must be at least 1" in bad.stderr
    bad = runner.invoke(app, ["simulate", str(FINAL), "--runs", "10", "--scheduler", "tcp://x:1"])
    assert bad.exit_code == 2 and "--scheduler needs --executor dask" in bad.stderr


# ---------------------------------------------------------------------------------------------
# Helper processes: whichever process computes a block, the counts are the same.


@pytest.mark.parametrize("method", ["fork", "spawn"])
@pytest.mark.system
def test_helpers_give_bit_identical_counts(method: str) -> None:
    block = partial(match_block, tables_for(SPECIALIST))
    runs, seed = 120_000, 77
    alone = run_blocks(block, runs, seed, block_size=2048)
    helped = run_blocks(
        block, runs, seed, block_size=2048, workers=2, adaptive=False, start_method=method
    )
    assert helped.processes == 2 and alone.processes == 1
    assert helped.counts == alone.counts and helped.blocks == alone.blocks
    assert helped.runs == runs and not helped.interrupted


@pytest.mark.system
def test_progress_reaches_the_total_with_helpers() -> None:
    seen: list[tuple[int, int]] = []
    block = partial(match_block, tables_for(FINAL))
    run_blocks(
        block,
        50_000,
        1,
        block_size=1000,
        workers=2,
        adaptive=False,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen[-1] == (50_000, 50_000)
    assert all(total == 50_000 and 0 < done <= total for done, total in seen)


def _dies_in_helpers(parent: int, index: int, size: int, seed: int) -> MatchTally:
    if os.getpid() != parent:
        os._exit(3)  # a helper killed mid-run (out of memory, say)
    return MatchTally(size, (size, 0), ((size, 0),), games={index: 1})


@pytest.mark.system
def test_blocks_of_a_dead_helper_are_computed_here() -> None:
    block = partial(_dies_in_helpers, os.getpid())
    r = run_blocks(block, 40, 0, block_size=2, workers=2, adaptive=False)
    assert r.blocks == tuple(range(20)) and r.runs == 40 and not r.interrupted
    assert r.counts is not None and r.counts.games == {i: 1 for i in range(20)}


def _fails_in_helpers(parent: int, index: int, size: int, seed: int) -> MatchTally:
    if os.getpid() != parent:
        raise ValueError(f"block {index} failed")
    time.sleep(0.01)
    return MatchTally(size, (size, 0), ((size, 0),))


@pytest.mark.system
def test_a_helper_error_is_raised_here() -> None:
    block = partial(_fails_in_helpers, os.getpid())
    with pytest.raises(ValueError, match="failed"):
        run_blocks(block, 400, 0, block_size=2, workers=2, adaptive=False)


def test_workers_above_the_cpus_are_capped_with_a_warning() -> None:
    cpus = available_cpus()
    said: list[str] = []
    assert resolve_workers(cpus + 3, said.append) == cpus
    assert said == [f"--workers {cpus + 3} is more than the {cpus} CPUs available; using {cpus}"]
    assert resolve_workers("auto", said.append) == cpus and len(said) == 1
    assert resolve_workers(1, said.append) == 1
    with pytest.raises(KnockoutError, match="at least 1"):
        resolve_workers(0)


def test_parse_workers() -> None:
    assert parse_workers("auto") == "auto" and parse_workers(" AUTO ") == "auto"
    assert parse_workers("3") == 3
    for bad in ("0", "-1", "two", ""):
        with pytest.raises(KnockoutError, match="--workers: expected a number"):
            parse_workers(bad)


def test_small_runs_stay_in_this_process() -> None:
    block = partial(match_block, tables_for(FINAL))
    r = run_blocks(block, 5 * 4096, 3, block_size=4096, workers="auto")
    assert r.processes == 1
    assert _helpers_wanted(2, 0.01, STARTUP_SECONDS["fork"], adaptive=True) == 0
    assert _helpers_wanted(2, 10.0, STARTUP_SECONDS["fork"], adaptive=True) == 1
    assert _helpers_wanted(8, 0.25, STARTUP_SECONDS["fork"], adaptive=True) == 2
    assert _helpers_wanted(2, 0.0, STARTUP_SECONDS["fork"], adaptive=False) == 1


def test_a_spare_block_gives_way_to_a_helpers_range() -> None:
    tally: _Tally[MatchTally] = _Tally(10, 1, None)
    one = MatchTally(1, (1, 0), ((1, 0),))
    assert tally.add(9, 10, one, spare=True)
    assert tally.add(5, 10, MatchTally(5, (5, 0), ((5, 0),)))  # the helper's range wins
    assert not tally.add(7, 8, one, spare=True)
    assert not tally.add(0, 6, MatchTally(6, (6, 0), ((6, 0),)))  # overlaps a range
    assert tally.completed_runs == 5 and tally.pending.tolist() == [0, 1, 2, 3, 4]


def test_dask_chunks_cover_every_block_once() -> None:
    chunks = _chunks(1, 1000, 2, 64)
    covered = [i for start, stop in chunks for i in range(start, stop)]
    assert covered == list(range(1, 1000)) and max(b - a for a, b in chunks) <= 64
    assert len(_chunks(1, 10, 2, 64)) == 9  # few blocks: one per task


def test_simulate_cli_workers_option() -> None:
    runner = CliRunner()
    args = ["simulate", str(FINAL), "--runs", "20000", "--seed", "2", "--json"]
    auto = runner.invoke(app, args)
    assert auto.exit_code == 0, auto.output
    many = runner.invoke(app, [*args, "--workers", str(available_cpus() + 1)])
    assert many.exit_code == 0 and json.loads(many.stdout) == json.loads(auto.stdout)
    assert many.stderr.count("\n") == 1 and "CPUs available; using" in many.stderr
    bad = runner.invoke(app, [*args, "--workers", "lots"])
    assert bad.exit_code == 2 and bad.stderr.startswith("error: --workers: expected a number")


def _slow_in_helpers(parent: int, index: int, size: int, seed: int) -> MatchTally:
    time.sleep(0.002 if os.getpid() == parent else 0.03)  # helpers on a busy CPU
    return MatchTally(size, (index, 1), ((index, 1),), games={index % 7: 1})


@pytest.mark.system
def test_helpers_that_do_not_pay_are_stopped_and_counts_stay_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runner, "_others_running", lambda: 0)  # the other CPUs look idle
    block = partial(_slow_in_helpers, os.getpid())
    alone = run_blocks(block, 400, 0, block_size=1)
    helped = run_blocks(block, 400, 0, block_size=1, workers=2)
    assert helped.processes == 2  # started (the run was long enough) ...
    assert helped.counts == alone.counts and helped.blocks == tuple(range(400))


@pytest.mark.system
def test_short_runs_start_helpers_only_on_idle_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    block = partial(_slow_in_helpers, os.getpid())
    monkeypatch.setattr(runner, "_others_running", lambda: 0)
    assert run_blocks(block, 100, 0, block_size=1, workers=2).processes == 2
    monkeypatch.setattr(runner, "_others_running", available_cpus)  # all busy
    assert run_blocks(block, 100, 0, block_size=1, workers=2).processes == 1


def test_review_stops_helpers_that_add_too_little() -> None:
    team = object.__new__(_Helpers)
    team.shared = SimpleNamespace(stop=SimpleNamespace(value=0), cpu=[0.0])  # type: ignore[assignment]
    team.window = 0.2
    # A second of wall time in which this process had 0.9 s of CPU ...
    team.review_at = (time.perf_counter() - 1.0, time.process_time() - 0.9)
    team.shared.cpu[0] = 0.05  # ... and its helper almost none: they share one CPU
    team._review()
    assert team.shared.stop.value == 1
    team.shared.stop.value = 0
    team.review_at = (time.perf_counter() - 1.0, time.process_time() - 0.9)
    team.shared.cpu[0] = 0.95  # the helper had a CPU of its own: they pay
    team._review()
    assert team.shared.stop.value == 0
