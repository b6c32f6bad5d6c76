"""``knockout incentives``: can a player game the "less time used" rule?"""

from __future__ import annotations

from typing import Annotated

import typer

from knockout.cli.app import (
    EncodingOpt,
    ExportOpt,
    SetOpt,
    app,
    check_export,
    emit_json,
    read_scenario,
    show,
    user_errors,
)
from knockout.cli.match import JsonOpt, ScenarioArg

#: The default of --grid (knockout.studies.incentives.DEFAULT_GRID; a test keeps them equal).
GRID_DEFAULT = 41


@app.command()
def incentives(
    scenario: ScenarioArg,
    grid: Annotated[
        int,
        typer.Option(
            "--grid",
            help="Paces per player on the search grid (5 to 401), each player's range with "
            "the natural pace on it.",
        ),
    ] = GRID_DEFAULT,
    json_out: JsonOpt = False,
    export: ExportOpt = None,
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
) -> None:
    """Time use as a choice: best responses, equilibria and the manipulation gain (exact).

    The sudden-death choice goes to the player who used less time in the previous game. Each
    player picks a pace in that game (the fraction of their effective clock they aim to use,
    from \\[incentives] pace_min to 1): hurrying below their natural pace (speed.mean) costs
    strength in that game, stalling costs nothing but clock. For a match scenario: each
    player's best response to the other's natural pace and its gain in P(advance), the
    manipulation gain (the most either gains: the rule's strategy-proofness figure), the
    pure-strategy equilibria (a grid refined by a 1-D optimiser, verified), and for equal
    players their chances at the sudden death in equilibrium (sequential fairness).

    Example:

        knockout incentives scenarios/final-2600-vs-2550.toml --grid 81
    """
    from knockout.dashboard.incentives import incentives_view
    from knockout.io.envelope import envelope
    from knockout.studies.incentives import incentives as solve_incentives

    with user_errors():
        check_export(export, json_out=json_out)
        sc = read_scenario(scenario, encoding, sets)
        result = solve_incentives(sc, grid=grid)
        if json_out:
            emit_json(envelope(result.to_json(), scenario=sc.to_dict()))
            return
        show(incentives_view(result, sc.name), export, title=sc.name)
