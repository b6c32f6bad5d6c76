"""``knockout odds`` and ``knockout play``: one match from a scenario file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from knockout import __version__
from knockout.cli.app import app, emit_json, fresh_seed, out_console, user_errors
from knockout.dashboard.match import log_view, match_record_view, odds_view
from knockout.engine import play_match
from knockout.errors import KnockoutError
from knockout.odds import match_odds
from knockout.scenario import load_scenario

ScenarioArg = Annotated[
    Path,
    typer.Argument(
        help="Scenario file (TOML); see scenarios/ for bundled examples.",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Write JSON to stdout instead of tables.")]


@app.command()
def odds(scenario: ScenarioArg, json_out: JsonOpt = False) -> None:
    """Exact odds of the scenario's match, computed without sampling.

    Shows P(each player advances), P(the match is decided in each stage), the sudden-death choice
    (who is 甲, what they announce, whether 乙 objects, P(甲 advances | sudden death reached)) and
    the distribution of games played.

    Example:

        knockout odds scenarios/final-2600-vs-2550.toml --json
    """
    with user_errors():
        sc = load_scenario(scenario)
        result = match_odds(sc)
    if json_out:
        emit_json({"version": __version__, **result.to_json(), "scenario": sc.to_dict()})
    else:
        out_console.print(odds_view(result, sc))


@app.command()
def play(
    scenario: ScenarioArg,
    seed: Annotated[
        int | None,
        typer.Option(help="Random seed; the same seed replays the same match. Default: random."),
    ] = None,
    log: Annotated[bool, typer.Option("--log", help="Also print the timed event log.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Play the scenario's match through the SimPy engine and show the game log.

    Each game is played move by move on two clocks; results come from the model. The table
    shows every game's stage, colours, clocks, result, time used and per-game points, and for the
    sudden-death game who chose (甲), the announcement and the reply.

    Example:

        knockout play scenarios/final-2600-vs-2550.toml --seed 7
    """
    used_seed = fresh_seed() if seed is None else seed
    with user_errors():
        sc = load_scenario(scenario)
        if len(sc.players) != 2:
            raise KnockoutError(
                f"{scenario}: a match needs exactly two players, got {len(sc.players)}"
            )
        record, events = play_match(
            sc.format, *sc.players, strategy=sc.strategy, model=sc.model, seed=used_seed
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
    out_console.print(match_record_view(record, title=f"{sc.name} (seed {used_seed})"))
    if log:
        out_console.print(log_view(events))
