"""``knockout odds``, ``knockout play`` and ``knockout schedule``: a match or a whole bracket."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

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
    note_central_constants,
    out_console,
    read_scenario,
    show,
    user_errors,
)
from knockout.errors import KnockoutError

if TYPE_CHECKING:  # the core is imported where a command needs it: a fast start
    from knockout.rules.scenario.aggregate import Scenario

ScenarioArg = Annotated[
    Path,
    typer.Argument(
        help="Scenario file (TOML); see scenarios/ for bundled examples.",
        show_default=False,
    ),
]
#: Simulated seconds per real second of ``play --live`` unless ``--speed`` says otherwise.
LIVE_SPEED = 1200.0

JsonOpt = Annotated[bool, typer.Option("--json", help="Write JSON to stdout instead of tables.")]


@app.command()
def odds(
    scenario: ScenarioArg,
    json_out: JsonOpt = False,
    export: ExportOpt = None,
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
) -> None:
    """Exact odds, computed without sampling: of a match (two players) or a whole bracket.

    For a match: P(each player advances), P(the match is decided in each stage), the
    sudden-death choice (who is 甲, what they announce, whether 乙 objects, P(甲 advances | sudden
    death reached)) and the games played. For a bracket (more than two players): each player's
    chance to be in at the start of every round and to win. Games already played
    ([\\[played]]) are taken into account.

    Example:

        knockout odds scenarios/final-2600-vs-2550.toml --json
    """
    import knockout
    from knockout.answers import BracketOdds
    from knockout.dashboard.bracket import reach_view
    from knockout.dashboard.match import odds_view
    from knockout.io.envelope import envelope

    with user_errors():
        check_export(export, json_out=json_out)
        sc = read_scenario(scenario, encoding, sets)
        answer = knockout.odds(sc)
        if json_out:
            emit_json(envelope(answer.to_json(), scenario=sc.to_dict()))
        elif isinstance(answer, BracketOdds):
            show(reach_view(answer, sc), export, title=sc.name)
        else:
            show(odds_view(answer, sc), export, title=sc.name)


def _play_live(sc: Scenario, seed: int, speed: float, export: Path | None) -> None:
    from knockout.dashboard.bracket import event_view
    from knockout.dashboard.live import LiveEvent
    from knockout.engine.event import EventRun
    from knockout.engine.ranking import final_ranking

    record = LiveEvent(EventRun(sc, seed=seed), speed=speed).play(out_console)
    ranking = final_ranking(record, sc, seed=seed)
    show(event_view(record, ranking, sc, seed), export, title=sc.name)


def _show_played(sc: Scenario, seed: int, json_out: bool, log: bool, export: Path | None) -> None:
    """The match or the event the engine played (one call of the front door), shown."""
    import knockout
    from knockout.dashboard.bracket import event_view
    from knockout.dashboard.match import log_view, match_record_view
    from knockout.engine.played import PlayedEvent
    from knockout.io.envelope import envelope

    played = knockout.play(sc, seed=seed)
    if json_out:
        emit_json(envelope(played.to_json(), seed=seed, scenario=sc.to_dict()))
        return
    if isinstance(played, PlayedEvent):
        show(event_view(played.record, played.ranking, sc, seed), export, title=sc.name)
    else:
        show(match_record_view(played.record, title=f"{sc.name} (seed {seed})"), export)
    if log:
        out_console.print(log_view(list(played.log)))


@app.command()
def play(
    scenario: ScenarioArg,
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Random seed; the same seed replays the same event. Default: random.",
            callback=check_seed,
        ),
    ] = None,
    log: Annotated[bool, typer.Option("--log", help="Also print the timed event log.")] = False,
    live: Annotated[
        bool, typer.Option("--live", help="Show a bracket live as the engine plays it.")
    ] = False,
    speed: Annotated[
        float | None,
        typer.Option(
            help=f"With --live: simulated seconds per real second. Default: {LIVE_SPEED:g}.",
            min=1.0,
            show_default=False,
        ),
    ] = None,
    json_out: JsonOpt = False,
    export: ExportOpt = None,
) -> None:
    """Play the scenario through the SimPy engine and show what happened.

    A match: the game log (stage, colours, clocks, result, time used, per-game points, and for
    the sudden-death game who chose (甲), the announcement and the reply). A bracket: every
    round on the boards of \\[schedule], when each round ended, the event's duration and the final
    ranking; --live shows the bracket filling in, the games on the boards with their clocks and
    the sudden-death bidding as it happens.

    Example:

        knockout play scenarios/final-2600-vs-2550.toml --seed 7
        knockout play scenarios/national-64.toml --live --speed 3000
    """

    used_seed = fresh_seed() if seed is None else seed
    with user_errors():
        if speed is not None and not live:
            raise KnockoutError("--speed sets the pace of --live: add --live, or leave --speed out")
        check_export(export, json_out=json_out)
        sc = read_scenario(scenario, encoding, sets)
        note_central_constants(sc, "play draws its games")
        if live and (json_out or not sc.is_bracket):
            raise KnockoutError("--live shows a bracket (more than two players), without --json")
        if live:
            _play_live(sc, used_seed, LIVE_SPEED if speed is None else speed, export)
        else:
            _show_played(sc, used_seed, json_out, log, export)


@app.command()
def schedule(
    scenario: ScenarioArg,
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
    runs: Annotated[
        int, typer.Option("--runs", help="Events to play through the engine.", min=1)
    ] = 100,
    seed: Annotated[
        int | None, typer.Option(help="Random seed (default: random).", callback=check_seed)
    ] = None,
    json_out: JsonOpt = False,
    export: ExportOpt = None,
) -> None:
    """How long the event takes: Monte Carlo over the SimPy engine.

    Plays the bracket RUNS times on the boards of \\[schedule] and reports, for each round and
    for the whole event, the mean, standard deviation and quantiles of when it ends (simulated
    time from the start), so organisers can plan sessions.

    Example:

        knockout schedule scenarios/national-64.toml --runs 200 --seed 1
    """
    from knockout.dashboard.bracket import schedule_view
    from knockout.engine.event import schedule_summary
    from knockout.io.envelope import envelope

    used_seed = fresh_seed() if seed is None else seed
    with user_errors():
        check_export(export, json_out=json_out)
        sc = read_scenario(scenario, encoding, sets)
        if not sc.is_bracket:
            raise KnockoutError(f"{scenario}: schedule needs a bracket (more than two players)")
        note_central_constants(sc, "schedule plays its events")

        def progress(done: int, total: int) -> None:
            if total >= 20 and done % max(1, total // 10) == 0 and not json_out:
                err_console.print(f"[dim]{done}/{total} events played[/dim]")

        summary = schedule_summary(sc, runs, used_seed, progress=progress)
        if json_out:
            emit_json(envelope(summary.to_json(), seed=used_seed, scenario=sc.to_dict()))
            return
        show(schedule_view(summary, sc), export, title=sc.name)
