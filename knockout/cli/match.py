"""``knockout odds``, ``knockout play`` and ``knockout schedule``: a match or a whole bracket."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Annotated

import typer

from knockout import __version__
from knockout.cli.app import (
    ExportOpt,
    app,
    emit_json,
    err_console,
    fresh_seed,
    out_console,
    show,
    user_errors,
)
from knockout.dashboard.bracket import clock, event_view, reach_view
from knockout.dashboard.live import LiveEvent
from knockout.dashboard.match import log_view, match_record_view, odds_view
from knockout.engine.event import play_event
from knockout.engine.match import play_match
from knockout.engine.ranking import final_ranking
from knockout.errors import KnockoutError
from knockout.exact.bracket import bracket_odds
from knockout.exact.odds import match_odds
from knockout.io.scenario import Scenario, load_scenario

ScenarioArg = Annotated[
    Path,
    typer.Argument(
        help="Scenario file (TOML); see scenarios/ for bundled examples.",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Write JSON to stdout instead of tables.")]


@app.command()
def odds(scenario: ScenarioArg, json_out: JsonOpt = False, export: ExportOpt = None) -> None:
    """Exact odds, computed without sampling: of a match (two players) or a whole bracket.

    For a match: P(each player advances), P(the match is decided in each stage), the
    sudden-death choice (who is 甲, what they announce, whether 乙 objects, P(甲 advances | sudden
    death reached)) and the games played. For a bracket (more than two players): each player's
    chance to be in at the start of every round and to win. Games already played
    ([[played]]) are taken into account.

    Example:

        knockout odds scenarios/final-2600-vs-2550.toml --json
    """
    with user_errors():
        sc = load_scenario(scenario)
        if sc.is_bracket:
            b = bracket_odds(sc)
            if json_out:
                emit_json({"version": __version__, **b.to_json(), "scenario": sc.to_dict()})
                return
            show(reach_view(b, sc), export, title=sc.name)
            return
        result = match_odds(sc)
        if json_out:
            emit_json({"version": __version__, **result.to_json(), "scenario": sc.to_dict()})
            return
        show(odds_view(result, sc), export, title=sc.name)


def _play_bracket(sc: Scenario, seed: int, json_out: bool, log: bool, export: Path | None) -> None:
    record, events = play_event(sc, seed=seed)
    ranking = final_ranking(record, sc, seed=seed)
    if json_out:
        emit_json(
            {
                "version": __version__,
                "seed": seed,
                **record.to_json(),
                "ranking": [s.to_json() for s in ranking],
                "scenario": sc.to_dict(),
            }
        )
        return
    show(event_view(record, ranking, sc, seed), export, title=sc.name)
    if log:
        out_console.print(log_view(events))


@app.command()
def play(
    scenario: ScenarioArg,
    seed: Annotated[
        int | None,
        typer.Option(help="Random seed; the same seed replays the same event. Default: random."),
    ] = None,
    log: Annotated[bool, typer.Option("--log", help="Also print the timed event log.")] = False,
    live: Annotated[
        bool, typer.Option("--live", help="Show a bracket live as the engine plays it.")
    ] = False,
    speed: Annotated[
        float,
        typer.Option(help="With --live: simulated seconds per real second.", min=1.0),
    ] = 1200.0,
    json_out: JsonOpt = False,
    export: ExportOpt = None,
) -> None:
    """Play the scenario through the SimPy engine and show what happened.

    A match: the game log (stage, colours, clocks, result, time used, per-game points, and for
    the sudden-death game who chose (甲), the announcement and the reply). A bracket: every
    round on the boards of [schedule], when each round ended, the event's duration and the final
    ranking; --live shows the bracket filling in, the games on the boards with their clocks and
    the sudden-death bidding as it happens.

    Example:

        knockout play scenarios/final-2600-vs-2550.toml --seed 7
        knockout play scenarios/national-64.toml --live --speed 3000
    """
    used_seed = fresh_seed() if seed is None else seed
    with user_errors():
        sc = load_scenario(scenario)
        if live and (json_out or not sc.is_bracket):
            raise KnockoutError("--live shows a bracket (more than two players), without --json")
        if sc.is_bracket:
            if live:
                runner = LiveEvent(sc, used_seed, speed=speed)
                event, ranking = runner.run(out_console)
                show(event_view(event, ranking, sc, used_seed), export, title=sc.name)
                return
            _play_bracket(sc, used_seed, json_out, log, export)
            return
        a, b = sc.players
        if a.withdrawn or b.withdrawn:
            raise KnockoutError(f"{scenario}: a withdrawn player: the match is a walkover")
        record, events = play_match(
            sc.format, a, b, strategy=sc.strategy, model=sc.model, seed=used_seed, played=sc.played
        )
    if json_out:
        emit_json(
            {
                "version": __version__,
                "seed": used_seed,
                "matches": [record.to_json()],
                "log": [{"time": round(e.time, 1), "kind": e.kind, "text": e.text} for e in events],
                "scenario": sc.to_dict(),
            }
        )
        return
    with user_errors():
        show(match_record_view(record, title=f"{sc.name} (seed {used_seed})"), export)
    if log:
        out_console.print(log_view(events))


@app.command()
def schedule(
    scenario: ScenarioArg,
    runs: Annotated[
        int, typer.Option("--runs", help="Events to play through the engine.", min=1)
    ] = 100,
    seed: Annotated[int | None, typer.Option(help="Random seed (default: random).")] = None,
    json_out: JsonOpt = False,
    export: ExportOpt = None,
) -> None:
    """How long the event takes: Monte Carlo over the SimPy engine.

    Plays the bracket RUNS times on the boards of [schedule] and reports, for each round and
    for the whole event, the mean, standard deviation and quantiles of when it ends (simulated
    time from the start), so organisers can plan sessions.

    Example:

        knockout schedule scenarios/national-64.toml --runs 200 --seed 1
    """
    from rich.table import Table  # noqa: PLC0415  (presentation only)

    used_seed = fresh_seed() if seed is None else seed
    with user_errors():
        sc = load_scenario(scenario)
        if not sc.is_bracket:
            raise KnockoutError(f"{scenario}: schedule needs a bracket (more than two players)")
        ends: list[list[float]] = []
        for i in range(runs):
            record, _ = play_event(sc, seed=used_seed + i)
            ends.append([r.end for r in record.rounds] + [record.duration])
            if runs >= 20 and (i + 1) % max(1, runs // 10) == 0 and not json_out:
                err_console.print(f"[dim]{i + 1}/{runs} events played[/dim]")
        names = [r.name for r in record.rounds] + ["event"]
        columns = list(zip(*ends, strict=True))

        def summary(values: tuple[float, ...]) -> dict[str, float]:
            q = statistics.quantiles(values, n=20) if len(values) > 1 else [values[0]] * 19
            return {
                "mean": statistics.fmean(values),
                "sd": statistics.stdev(values) if len(values) > 1 else 0.0,
                "stderr": (statistics.stdev(values) / len(values) ** 0.5)
                if len(values) > 1
                else 0.0,
                "p05": q[0],
                "median": statistics.median(values),
                "p95": q[-1],
                "min": min(values),
                "max": max(values),
            }

        stats = {name: summary(col) for name, col in zip(names, columns, strict=True)}
        if json_out:
            emit_json(
                {
                    "version": __version__,
                    "seed": used_seed,
                    "runs": runs,
                    "ends": {k: {s: round(v, 1) for s, v in d.items()} for k, d in stats.items()},
                    "scenario": sc.to_dict(),
                }
            )
            return
        table = Table(
            title=f"{sc.name}: when each round ends ({runs} events, {sc.schedule.boards} boards,"
            f" seeds {used_seed}..{used_seed + runs - 1})",
            title_justify="left",
        )
        for col in ("Round", "Mean", "± s.e.", "SD", "5%", "Median", "95%", "Max"):
            table.add_column(col, justify="left" if col == "Round" else "right")
        for name, d in stats.items():
            table.add_row(
                name,
                clock(d["mean"]),
                f"{d['stderr'] / 60:.0f} min",
                f"{d['sd'] / 60:.0f} min",
                clock(d["p05"]),
                clock(d["median"]),
                clock(d["p95"]),
                clock(d["max"]),
            )
        show(table, export, title=sc.name)
