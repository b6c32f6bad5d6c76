"""``knockout bench``: the command, registered on the CLI's app by :mod:`knockout.program`.

The benchmark sits above the CLI (it times the CLI's start-up in fresh processes), so the CLI
does not import it: the program assembles both.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from knockout.cli.app import (
    EncodingOpt,
    SetOpt,
    app,
    emit_json,
    err_console,
    out_console,
    read_scenario,
    user_errors,
)
from knockout.cli.match import JsonOpt
from knockout.errors import KnockoutError
from knockout.version import __version__

__all__ = ["bench"]


@app.command()
def bench(
    scenario: Annotated[
        Path, typer.Argument(help="Two-player scenario to benchmark.", show_default=True)
    ] = Path("scenarios/final-2600-vs-2550.toml"),
    bracket: Annotated[
        Path | None,
        typer.Option(help="Bracket scenario for the bracket Monte Carlo figures."),
    ] = Path("scenarios/national-64.toml"),
    scaling_runs: Annotated[
        int | None,
        typer.Option(
            help="Matches in the long run (1 process against many); default: about 4 s of one "
            "process at the kernel speed measured first.",
            show_default=False,
        ),
    ] = None,
    workers: Annotated[
        str, typer.Option(help="Processes to compare with one, or auto (every CPU).")
    ] = "auto",
    dask: Annotated[
        bool, typer.Option("--dask/--no-dask", help="Also time a local Dask cluster.")
    ] = True,
    json_out: JsonOpt = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print Markdown tables (the README's).")
    ] = False,
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
) -> None:
    """Measure the performance goals and figures in one run: each goal's measured ratio beside
    its target.

    Goals: the per-match kernel against PCG64 uniforms for its random numbers, under rational
    and under believed bidders (the kernel's own generator calls shown beside); a long run on
    every CPU against one process, as a share of this machine's own ceiling; runs of every size
    never slower with more processes allowed; the start-up of knockout --version against python
    -c pass; the bracket Monte Carlo per match against the single-match kernel; self-play with
    two jobs against one (games a minute, with the engine installed); where users wait: the
    short commands (odds, event next/record/show/odds) in CPU against import numpy, exact
    bracket odds of 4,096 players (CPU, peak memory, growth from 1,024), a study of a
    simulate. metric against the kernel, the estimates before simulate and study against the
    runs; the strength fit and the backtest of the bundled games table (calibrate --strengths,
    backtest --from 1990), CPU against a minute each; a local Dask cluster against the
    ceiling. Each ratio's two sides are measured in this run, interleaved; start-up ratios in
    CPU with one BLAS thread on both sides (the steady yardstick). Nothing here fails on a slow
    machine. Takes several minutes.

    Example:

        knockout bench scenarios/final-2600-vs-2550.toml --json
    """
    from knockout.bench.figures import BenchSettings, run_benchmark
    from knockout.bench.view import bench_view
    from knockout.io.scenario import load_scenario
    from sims.runner import parse_workers, resolve_workers

    with user_errors():
        sc = read_scenario(scenario, encoding, sets)
        if sc.is_bracket:
            raise KnockoutError(f"{scenario}: bench needs a two-player scenario (see --bracket)")
        brk = None if bracket is None else load_scenario(bracket)
        if brk is not None and not brk.is_bracket:
            raise KnockoutError(f"--bracket: {bracket} has two players, not a bracket")
        count = resolve_workers(
            parse_workers(workers),
            lambda message: err_console.print(f"warning: {message}", markup=False),
        )
        figures = run_benchmark(
            sc,
            path=scenario,
            bracket=brk,
            workers=count,
            settings=BenchSettings(scaling_runs=scaling_runs, dask=dask),
            progress=lambda text: err_console.print(f"[dim]measuring {text}...[/dim]"),
        )
    if json_out:
        emit_json({"version": __version__, **figures.to_json()})
    elif markdown:
        sys.stdout.write(figures.markdown())
    else:
        out_console.print(bench_view(figures))
