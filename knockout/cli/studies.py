"""``knockout compare``, ``knockout fair`` and ``knockout study``: the rule designer's tools."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
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
    read_scenario,
    say_line,
    show,
    show_study,
    step_line,
    user_errors,
)
from knockout.cli.match import JsonOpt, ScenarioArg
from knockout.errors import KnockoutError
from knockout.i18n import N_, _


def _numbers(text: str, option: str) -> list[float]:
    """Comma-separated finite numbers, at least one."""
    import math

    try:
        values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise KnockoutError(f"{option}: expected numbers like 0,50,100, got {text!r}") from None
    if not values:
        raise KnockoutError(f"{option}: expected at least one gap, like 0,50,100, got {text!r}")
    if not all(math.isfinite(v) for v in values):
        raise KnockoutError(f"{option}: expected finite numbers like 0,50,100, got {text!r}")
    return values


def _format_names(text: str | None) -> list[str] | None:
    """The names of --formats (None: the default list)."""
    if text is None:
        return None
    names = [f.strip() for f in text.split(",") if f.strip()]
    if not names:
        raise KnockoutError(
            "--formats: expected at least one format (scenario, a preset name or a scenario "
            f"file), got {text!r}"
        )
    return names


@app.command()
def compare(
    scenario: ScenarioArg,
    formats: Annotated[
        str | None,
        typer.Option(
            "--formats",
            help="Comma-separated formats: scenario (the scenario's own), preset names, or "
            "scenario files. Default: the scenario's own, then every preset.",
            show_default=False,
        ),
    ] = None,
    gaps: Annotated[
        str, typer.Option("--gaps", help="Rating gaps (Elo) between the two players.")
    ] = "0,50,100,200",
    base: Annotated[float, typer.Option("--base", help="The stronger player's rating.")] = 2500.0,
    json_out: JsonOpt = False,
    export: ExportOpt = None,
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
) -> None:
    """Compare match formats under the scenario's model and strategy (exact).

    Each format is a row: P(the stronger player advances) for each rating gap, and for equal
    players the decider's edge (what the last stage's decision is worth), P(the decider is
    reached), the expected games and the expected playing time. --export FILE.png draws
    P(stronger advances) against the gap, a line per format (.svg or .html saves the table).

    Example:

        knockout compare scenarios/final-2600-vs-2550.toml --gaps 0,50,100,200,300
    """
    from knockout.io.envelope import envelope
    from knockout.studies.compare import compare_formats, resolve_formats

    with user_errors():
        check_export(export, json_out=json_out, suffixes=(".svg", ".html", ".png"))
        sc = read_scenario(scenario, encoding, sets)
        names = _format_names(formats)
        result = compare_formats(
            sc,
            resolve_formats(sc, names, encoding=encoding),
            gaps=_numbers(gaps, "--gaps"),
            base=base,
        )
        if json_out:
            emit_json(envelope(result.to_json(), scenario=sc.to_dict()))
            return
        from knockout.dashboard.studies import comparison_view

        view = comparison_view(
            result, _("{scenario}: formats compared (exact)").format(scenario=sc.name)
        )
        if export is not None and export.suffix.lower() == ".png":
            show(view, None)
            _compare_plot(result, export)
            err_console.print(_("saved {file}").format(file=export))
        else:
            show(view, export, title=sc.name)


def _compare_plot(result: object, path: Path) -> None:
    from knockout.studies.compare import Comparison
    from knockout.studies.plots import line_plot

    assert isinstance(result, Comparison)
    if not path.parent.exists():
        raise KnockoutError(f"--export: the folder {str(path.parent)!r} does not exist")
    u = result.model_uncertainty
    bands = None
    if u is not None:
        bands = {
            r.format: (
                [u.figures[f"rows.{r.format}.stronger_advances.{g:g}"].q025 for g in result.gaps],
                [u.figures[f"rows.{r.format}.stronger_advances.{g:g}"].q975 for g in result.gaps],
            )
            for r in result.rows
            if all(f"rows.{r.format}.stronger_advances.{g:g}" in u.figures for g in result.gaps)
        }
    line_plot(
        path,
        list(result.gaps),
        {r.format: [r.stronger_advances[g] for g in result.gaps] for r in result.rows},
        bands=bands,
        title=_("P(the player rated {base:g} beats one rated {base:g} - gap)").format(
            base=result.base
        ),
        xlabel=_("rating gap (Elo)"),
        ylabel=_("P(stronger player advances)"),
    )


@app.command()
def fair(
    scenario: ScenarioArg,
    black_minutes: Annotated[
        float,
        typer.Option("--black-minutes", help="Black's base minutes of the split (above 5)."),
    ] = 10.0,
    max_minutes: Annotated[
        float | None,
        typer.Option(
            "--max-minutes",
            help="The largest Red clock searched for the split. Default: 10 times Black's.",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed of the Monte Carlo check (default: random, reported).",
            callback=check_seed,
        ),
    ] = None,
    json_out: JsonOpt = False,
    export: ExportOpt = None,
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
) -> None:
    """Fair rules for the sudden-death game, under the scenario's model.

    Finds the Armageddon split (Red's minutes against Black's) at which equal players have
    P(Red advances) = 1/2 on the sudden-death stage's increment, draw rule and time class; builds
    the seed-shaped menu on it (accept [R, B], object_red [B, R], object_black [R+5, B-5]);
    compares the chooser's edge under the scenario's menu and the fair one, also under private
    beliefs and across rating gaps; and checks the split by simulation (standard error below
    0.001).

    Example:

        knockout fair scenarios/final-2600-vs-2550.toml --seed 1
    """
    from knockout.cli.app import fresh_seed
    from knockout.io.envelope import envelope
    from knockout.studies.fair import fair_rules

    used_seed = fresh_seed() if seed is None else seed
    with user_errors():
        sc = read_scenario(scenario, encoding, sets)
        result = fair_rules(
            sc, black_minutes=black_minutes, seed=used_seed, max_minutes=max_minutes
        )
        if json_out:
            emit_json(envelope(result.to_json(), seed=used_seed, scenario=sc.to_dict()))
            return
        from knockout.dashboard.studies import fair_view

        show(
            fair_view(result, _("{scenario}: fair rules").format(scenario=sc.name)),
            export,
            title=sc.name,
        )


@app.command()
def study(
    study_file: Annotated[
        Path, typer.Argument(help="Study file (TOML).", show_default=False, metavar="STUDY")
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Folder for results.csv, results.json, the plots and summary.md "
            "(default: out/<study file name>).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="Seed (overrides the study file).",
            show_default=False,
            callback=check_seed,
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help="Worker processes for Monte Carlo metrics (a scoring study: for the Dutch "
            "pairing)."
        ),
    ] = 1,
    executor: Annotated[
        Literal["local", "dask"],
        typer.Option(help="local: this process or a process pool; dask: a Dask cluster."),
    ] = "local",
    yes: Annotated[
        bool,
        typer.Option(
            "--yes",
            help="Run a study of more than 1,000,000 grid points, or estimated at more than 10 "
            "minutes on a pilot of 8 points (refused without it; a study of at most 50 x 50 "
            "points at 200,000 runs a point of odds, fair and simulate metrics only never is).",
        ),
    ] = False,
    json_out: JsonOpt = False,
    encoding: EncodingOpt = None,
) -> None:
    """Run a study: sweep scenario values over a grid and measure outputs at every point.

    A study file names a base scenario, a \\[grid] of --set paths (lists of values, or
    {from, to, steps}) and metrics (key paths into the odds, compare, fair or simulate
    output). Exact where the solver applies (odds metrics of a match are solved for many grid
    points in one vectorised call); Monte Carlo metrics use the same seed at every point.
    Writes results.csv (tidy), results.json, a PNG plot per metric (a line for one swept path,
    a heat map for two, a line per category for a path of categories; labelled in words, with
    the scenario's own values marked) and summary.md, which says why a metric or a grid gets
    no plot. A run of more than 1,000,000 points or estimated above 10 minutes needs --yes. A
    scoring-reform study file (with [\\[events]]) runs the Swiss/round-robin study instead, or,
    when every event has format = "league", seasons of seed 001's team league.
    Ctrl-C keeps the points finished.

    Example:

        knockout study scenarios/studies/chooser-edge.toml --out out/chooser-edge
    """
    if executor not in ("local", "dask"):
        with user_errors():
            raise KnockoutError(f"--executor: expected local or dask, got {executor!r}")
    folder = out if out is not None else Path("out") / study_file.stem
    with user_errors():
        from knockout.studies.load import RunOptions, load_study

        found = load_study(study_file, encoding=encoding)
        options = RunOptions(
            seed, workers, executor, yes=yes, say=say_line, steps=step_line,
            points=_progress(found.name),
            pilot=_progress(_("{name}: timing a pilot").format(name=found.name)),
        )  # fmt: skip
        run = found.run(folder, options)
    show_study(run, json_out)


def _progress(total_label: str) -> Callable[[int, int], None]:
    """A progress line on stderr (rewritten in place on a terminal, a line a tenth when
    piped), with the time left at the pace measured since the first call (the points done
    then, a pilot's, are left out of the pace)."""
    import sys
    import time

    from knockout.io.text import duration

    last = [-1]
    first: list[tuple[int, float]] = []

    def update(done: int, total: int) -> None:
        now = time.perf_counter()
        if not first:
            first.append((done, now))
        tenth = done * 10 // max(total, 1)
        if sys.stderr.isatty() or tenth != last[0] or done == total:
            last[0] = tenth
            end = "\n" if done == total or not sys.stderr.isatty() else "\r"
            base, start = first[0]
            elapsed, fresh = now - start, done - base
            line = _("{label}: {done}/{total} points").format(
                label=total_label, done=done, total=total
            )
            if fresh > 0 and done < total and elapsed > 5:
                remaining = duration(elapsed / fresh * (total - done), to_the_second=True)
                line += _(", about {remaining} left at this pace").format(remaining=remaining)
            sys.stderr.write(line + end)
            sys.stderr.flush()

    return update


@app.command()
def design(
    design_file: Annotated[
        Path, typer.Argument(help="Design file (TOML).", show_default=False, metavar="DESIGN")
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Folder for results.csv, results.json, front.png, summary.md and the best "
            "format per budget as scenario files (default: out/<design file name>).",
            show_default=False,
        ),
    ] = None,
    json_out: JsonOpt = False,
    workers: Annotated[
        str,
        typer.Option(
            help="Most processes to use, or auto (every CPU). This process computes too; "
            "helpers start only when the work is long enough to pay for them."
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
    yes: Annotated[
        bool,
        typer.Option(
            "--yes",
            help="Run a design estimated at more than 10 minutes on one process, or at more "
            "than 100 MB of output (refused without it; the estimate comes first, from a "
            "pilot of the space's first 1,000 combinations).",
        ),
    ] = False,
    encoding: EncodingOpt = None,
) -> None:
    """Search the formats of a design space for the one that best separates strength within
    a time budget (exact).

    A design file names a base scenario, a \\[space] (slow_games, rapid_games,
    super_rapid_games with their _clock, _colours and _repeat lists, and the deciders:
    presets or tables), an \\[objective] (stronger_advances = { gap = 100 }; for a bracket
    top_seed_wins, champion_rating or champion_seed), \\[constraints] (expected_minutes, a
    budget or a list of them; decider_edge; max_minutes; p99_minutes; decider_reached) and
    optionally \\[robustness] (models: names or tables; rank = worst or mean). Every format is
    evaluated exactly under every model. Writes results.csv (tidy), results.json, front.png
    (the Pareto front of the objective against the expected minutes, constraints marked),
    summary.md and best-<budget>-min.toml (scenario files odds, compare and event new read).
    Before any work the run is sized: the combinations counted, and a large space timed on a
    pilot (enumeration, evaluation and output); it says the estimate when it passes 10 s or
    10 MB, and runs above 10 minutes or 100 MB only with --yes. Ctrl-C keeps the formats
    finished.

    Example:

        knockout design scenarios/designs/day.toml --out docs/studies/design-day
    """
    from rich.markdown import Markdown

    from knockout.cli.app import out_console
    from knockout.dashboard.simulation import progress_bar, progress_lines
    from knockout.studies.design import design_job, enumerate_space, load_space, run_design
    from knockout.studies.design_report import design_document, write_design
    from sims.runner import parse_workers

    folder = out if out is not None else Path("out") / design_file.stem
    with user_errors():
        space = load_space(design_file, encoding=encoding)
        for key, message in space.scenario.model_sd.notes():
            err_console.print(f"note: {space.scenario_path}: {key}: {message}", markup=False,
                              soft_wrap=True)  # fmt: skip
        if space.scenario.model_sd.uncertain:
            err_console.print(
                _(
                    "note: {path}: design judges each format under the models of [robustness] "
                    "(or the scenario's central constants): the scenario's [model.sd] is not "
                    "sampled"
                ).format(path=space.scenario_path),
                markup=False,
                soft_wrap=True,
            )
        _check_design_size(space, yes)
        plan = enumerate_space(space)
        job = design_job(plan)
        count = len(plan.candidates)
        bar, update = (
            progress_bar(err_console, job.n_units, label=N_("evaluating"))
            if err_console.is_terminal
            else progress_lines(err_console, done_word=N_("evaluated"), unit=N_("units"))
        )
        with bar:
            result = run_design(
                plan,
                executor=executor,
                workers=parse_workers(workers),
                scheduler=scheduler,
                progress=update,
                job=job,
            )
        if result.interrupted:
            err_console.print(
                _(
                    "interrupted: {done:,} of {count:,} formats finished; the outputs use those"
                ).format(done=result.evaluated, count=count)
            )
        files = write_design(result, folder) if result.scored else []
        if json_out:
            emit_json(design_document(result))
        else:
            out_console.print(Markdown(files[-1].read_text(encoding="utf-8")))
            err_console.print(
                _(
                    "evaluated {done:,} formats x {models} model(s) in {seconds:.1f} s on "
                    "{processes} process(es)"
                ).format(
                    done=result.evaluated,
                    models=len(plan.models),
                    seconds=result.seconds,
                    processes=result.processes,
                ),
                style="dim",
            )
            err_console.print(
                _("written: {files}").format(files=_(", ").join(map(str, files))), style="dim"
            )
    if result.interrupted:
        raise typer.Exit(130)


def _check_design_size(space: object, yes: bool) -> None:
    """Size a design run before any of its work: refuse one above the documented limits
    without --yes, say the estimate of a long or large one (on stderr)."""
    from knockout.dashboard.times import duration
    from knockout.studies.design import Space
    from knockout.studies.design_size import MAX_OUTPUT_BYTES, needs_yes, size_space
    from knockout.studies.estimate import LONG_RUN_SECONDS

    assert isinstance(space, Space)
    try:
        size = size_space(space)
    except KeyboardInterrupt:
        err_console.print("interrupted while timing the pilot: nothing was run or written")
        raise typer.Exit(130) from None
    if size.seconds is None or size.output_bytes is None:
        return
    seconds = duration(size.seconds, to_the_second=True)  # "25 s", not "about 0 min"
    what = (
        f"{size.combinations:,} combinations (about {size.formats:,} formats) x "
        f"{size.models} model(s): about {seconds} on one process and about "
        f"{size.output_bytes / 1e6:,.0f} MB of output (timed on a pilot of the first "
        f"{size.pilot:,} combinations, {size.pilot_seconds:.1f} s)"
    )
    if needs_yes(size) and not yes:
        raise KnockoutError(
            f"{space.source}: {what}: a design above {LONG_RUN_SECONDS / 60:g} minutes or "
            f"{MAX_OUTPUT_BYTES / 1e6:g} MB runs only with --yes (or make the space smaller)"
        )
    if size.seconds > 10 or size.output_bytes > 10_000_000:
        err_console.print(f"{what}; Ctrl-C stops and keeps the formats finished", markup=False,
                          soft_wrap=True)  # fmt: skip
