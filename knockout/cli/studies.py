"""``knockout compare``, ``knockout fair`` and ``knockout study``: the rule designer's tools."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from knockout.cli.app import (
    EncodingOpt,
    ExportOpt,
    SetOpt,
    app,
    check_export,
    emit_json,
    err_console,
    read_scenario,
    show,
    user_errors,
)
from knockout.cli.match import JsonOpt, ScenarioArg
from knockout.errors import KnockoutError
from knockout.io.envelope import envelope


def _numbers(text: str, option: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise KnockoutError(f"{option}: expected numbers like 0,50,100, got {text!r}") from None


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
    from sims.studies.compare import compare_formats, resolve_formats  # noqa: PLC0415

    with user_errors():
        check_export(export, json_out=json_out, suffixes=(".svg", ".html", ".png"))
        sc = read_scenario(scenario, encoding, sets)
        names = None if formats is None else [f.strip() for f in formats.split(",") if f.strip()]
        result = compare_formats(
            sc,
            resolve_formats(sc, names, encoding=encoding),
            gaps=_numbers(gaps, "--gaps"),
            base=base,
        )
        if json_out:
            emit_json(envelope(result.to_json(), scenario=sc.to_dict()))
            return
        from knockout.dashboard.studies import comparison_view  # noqa: PLC0415

        view = comparison_view(result, f"{sc.name}: formats compared (exact)")
        if export is not None and export.suffix.lower() == ".png":
            show(view, None)
            _compare_plot(result, export)
            err_console.print(f"saved {export}")
        else:
            show(view, export, title=sc.name)


def _compare_plot(result: object, path: Path) -> None:
    from sims.studies.compare import Comparison  # noqa: PLC0415
    from sims.studies.plots import line_plot  # noqa: PLC0415

    assert isinstance(result, Comparison)
    if not path.parent.exists():
        raise KnockoutError(f"--export: the folder {str(path.parent)!r} does not exist")
    line_plot(
        path,
        list(result.gaps),
        {r.format: [r.stronger_advances[g] for g in result.gaps] for r in result.rows},
        title=f"P(the player rated {result.base:g} beats one rated {result.base:g} - gap)",
        xlabel="rating gap (Elo)",
        ylabel="P(stronger player advances)",
    )
