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


@app.command()
def fair(
    scenario: ScenarioArg,
    black_minutes: Annotated[
        float,
        typer.Option("--black-minutes", help="Black's base minutes of the split (above 5)."),
    ] = 10.0,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed of the Monte Carlo check (default: random, reported).", min=0),
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

        knockout fair scenarios/final-2600-vs-2550.toml --black-minutes 10 --seed 1
    """
    from knockout.cli.app import fresh_seed  # noqa: PLC0415
    from sims.studies.fair import fair_rules  # noqa: PLC0415

    used_seed = fresh_seed() if seed is None else seed
    with user_errors():
        sc = read_scenario(scenario, encoding, sets)
        result = fair_rules(sc, black_minutes=black_minutes, seed=used_seed)
        if json_out:
            emit_json(envelope(result.to_json(), seed=used_seed, scenario=sc.to_dict()))
            return
        from knockout.dashboard.studies import fair_view  # noqa: PLC0415

        show(fair_view(result, f"{sc.name}: fair rules"), export, title=sc.name)
