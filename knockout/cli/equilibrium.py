"""``knockout equilibrium``: equilibrium play of the decisive decision, and exploitability."""

from __future__ import annotations

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


@app.command()
def equilibrium(
    scenario: ScenarioArg,
    json_out: JsonOpt = False,
    export: ExportOpt = None,
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
) -> None:
    """Equilibria of a match's decisive decision when strengths are known only roughly.

    Each player holds a private estimate of the rating gap (the truth plus Normal(0,
    belief_sd)). Prints the equilibrium strategies (thresholds, or bid and cut tables), P(advance)
    under each strategy kind, and how much a best response of either role gains against each
    (fractions of the whole match's P(advance)), with the equilibrium's own as its check.

    Example:

        knockout equilibrium scenarios/final-2600-vs-2550.toml --set strategy.belief_sd=200
    """
    from knockout.io.envelope import envelope
    from knockout.studies.equilibrium import equilibrium_report

    with user_errors():
        check_export(export, json_out=json_out)
        sc = read_scenario(scenario, encoding, sets)
        report = equilibrium_report(sc)
        if json_out:
            emit_json(envelope(report.to_json(), scenario=sc.to_dict()))
            return
        from knockout.dashboard.studies import equilibrium_view

        show(equilibrium_view(report), export, title=sc.name)
