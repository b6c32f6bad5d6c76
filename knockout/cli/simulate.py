"""``knockout simulate``: the Monte Carlo layer (sims) from the CLI."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from knockout.cli.app import (
    EncodingOpt,
    ExportOpt,
    SetOpt,
    app,
    check_export,
    check_seed,
    emit_json,
    err_console,
    fresh_seed,
    read_scenario,
    show,
    user_errors,
)
from knockout.cli.match import JsonOpt, ScenarioArg


@app.command()
def simulate(
    scenario: ScenarioArg,
    runs: Annotated[int, typer.Option("--runs", help="Number of matches to simulate.")],
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Random seed (default: random, reported in the output).", callback=check_seed
        ),
    ] = None,
    workers: Annotated[
        str,
        typer.Option(
            help="Most processes to use, or auto (every CPU). This process computes too; "
            "helpers start only when the run is long enough to pay for them."
        ),
    ] = "auto",
    executor: Annotated[
        Literal["local", "dask"],
        typer.Option(help="local: this process or a process pool; dask: a Dask cluster."),
    ] = "local",
    scheduler: Annotated[
        str | None,
        typer.Option(help="Address of an existing Dask scheduler, e.g. tcp://10.0.0.5:8786."),
    ] = None,
    json_out: JsonOpt = False,
    export: ExportOpt = None,
) -> None:
    """Monte Carlo odds of the scenario's match or bracket, with standard errors.

    Work is simulated in blocks (65,536 matches or 4,096 events), each seeded from the run's
    seed and its block number, so the same seed gives bit-identical results with any number of
    workers or executor. Tables show each estimate beside the exact value. For a bracket: each
    player's chance to be in at the start of every round and to win, P(a highest-rated player
    wins), the expected number of upsets and the games played. Ctrl-C stops cleanly and reports
    the blocks completed.

    Example:

        knockout simulate scenarios/final-2600-vs-2550.toml --runs 1000000 --seed 1 --workers 2
    """
    import knockout
    from knockout.dashboard.simulation import (
        estimate_line,
        progress_bar,
        progress_lines,
        simulated_view,
    )
    from knockout.io.envelope import envelope
    from sims.runner import parse_workers

    used_seed = fresh_seed() if seed is None else seed
    with user_errors():
        check_export(export, json_out=json_out)
        sc = read_scenario(scenario, encoding, sets)
        most = parse_workers(workers)

        def warn(message: str) -> None:
            err_console.print(f"warning: {message}", markup=False)

        def long_run(seconds: float, processes: int) -> None:
            err_console.print(estimate_line(seconds, runs, processes), markup=False, soft_wrap=True)

        # A bar on a terminal; plain lines now and then in a log or a pipe.
        bar, update = (
            progress_bar(err_console, runs)
            if err_console.is_terminal
            else progress_lines(err_console)
        )
        with bar:
            sim = knockout.simulate(
                sc,
                runs=runs,
                seed=used_seed,
                workers=most,
                executor=executor,
                scheduler=scheduler,
                progress=update,
                warn=warn,
                long_run=long_run,
            )
        result = sim.result
        if result.interrupted:
            err_console.print(
                f"interrupted: {len(result.blocks)} blocks, {result.runs:,} of "
                f"{result.requested:,} runs completed; the estimates use those"
            )
        if sim.estimates is None:
            raise typer.Exit(130)
        if json_out:
            emit_json(envelope(sim.to_json(), seed=used_seed, scenario=sc.to_dict()))
        else:
            show(simulated_view(sim, sc), export, title=sc.name)
    if result.interrupted:
        raise typer.Exit(130)
