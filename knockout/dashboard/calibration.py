"""Rich view of a calibration: the fitted model constants per time class, with their notes."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from knockout.calibration import Calibration, Estimate

__all__ = ["calibration_view"]

#: Decimals each constant is shown with (Elo to 1/100, nu to 1/10,000).
_PLACES = {"red_advantage": 2, "draw_nu": 4, "elo_per_doubling": 2}


def _cells(name: str, est: Estimate) -> tuple[str, str]:
    """The estimate and its standard error (or bound) as text."""
    places = _PLACES[name]
    if est.estimate is None:
        return "-", "-"
    value = f"{est.estimate:.{places}f}"
    if est.stderr is not None:
        return value, f"± {est.stderr:.{places}f}"
    if est.upper_95 is not None:
        return value, f"≤ {est.upper_95:.{places}f}"
    return value, "-"


def calibration_view(fit: Calibration) -> RenderableType:
    """One row per time class and constant: games, estimate, standard error; notes below."""
    table = Table(
        title=f"{fit.source}: maximum-likelihood fit, moves = {fit.moves:g}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("class", no_wrap=True)
    table.add_column("R/D/B", no_wrap=True)
    table.add_column("constant", no_wrap=True)
    table.add_column("estimate", justify="right", no_wrap=True)
    table.add_column("stderr", justify="left", no_wrap=True)
    table.add_column("note", justify="right", no_wrap=True)
    notes: list[str] = []
    for c in fit.classes:
        red, draw, black = c.games
        first = True
        for name, est in c.estimates().items():
            mark = ""
            if est.reason is not None:
                notes.append(f"[{len(notes) + 1}] {c.time_class} {name}: {est.reason}.")
                mark = f"[{len(notes)}]"
            value, spread = _cells(name, est)
            table.add_row(
                c.time_class.value if first else "",
                f"{red}/{draw}/{black}" if first else "",
                name,
                value,
                spread,
                mark,
            )
            first = False
        table.add_section()
    parts: list[RenderableType] = [table]
    parts += [Text(note, style="dim") for note in notes]
    parts.append(
        Text(
            "R/D/B: Red wins, draws, Black wins. red_advantage and elo_per_doubling in Elo. "
            "stderr: from the inverse observed information at the maximum; ≤: a one-sided 95% "
            "upper bound for a constant on the boundary of its range. See docs/calibration.md.",
            style="dim",
        )
    )
    return Group(*parts)
