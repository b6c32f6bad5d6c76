"""Rich view of ``calibrate --strengths``: the constants per time class fitted with players'
strengths, beside the fit without unknown-class games and the fit per source folder."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from knockout.calibration import Estimate
from knockout.rules.model.strength import TimeClass
from knockout.strengths.calibrate import MIN_CLASS_GAMES, ConstantsFit, StrengthCalibration

__all__ = ["strengths_view"]

#: What a source folder of the corpus holds, for the view.
FOLDER_WORDS = {
    "以棋手分類": "player",
    "以賽事分類": "tournament",
    "以開局分類": "opening",
}


def _cell(est: Estimate, places: int) -> str:
    if est.estimate is None or est.stderr is None:
        return "-"
    return f"{est.estimate:.{places}f} ± {est.stderr:.{places}f}"


def _rows(
    table: Table, label: str, fit: ConstantsFit, notes: list[str], *, classical: bool = False
) -> None:
    """One section of the table: a row per class with games (``classical``: the classical row
    even without games, saying why it has none)."""
    first = True
    for c in fit.classes:
        empty_classical = classical and c.time_class is TimeClass.CLASSICAL and c.games == 0
        if c.games == 0 and not empty_classical:
            continue
        name = c.time_class.value
        if empty_classical:
            notes.append(
                f"[{len(notes) + 1}] {label}, classical: no game is marked classical; the "
                "table marks no event slow (name them with --classical-events FILE)."
            )
            name += f" [{len(notes)}]"
        elif c.reason is not None:
            notes.append(
                f"[{len(notes) + 1}] {label}, {c.time_class}: {c.games} games, fewer than "
                f"{MIN_CLASS_GAMES} or a result missing: fitted with the {c.group} constants."
            )
            name += f" [{len(notes)}]"
        r, d, b = c.results
        table.add_row(
            label if first else "",
            name,
            f"{c.games:,}",
            f"{r}/{d}/{b}",
            _cell(c.red_advantage, 1),
            _cell(c.draw_nu, 3),
        )
        first = False
    table.add_section()


def strengths_view(cal: StrengthCalibration) -> RenderableType:
    """The constants per class with standard errors, and how they were fitted."""
    table = Table(
        title=f"{cal.source}: constants fitted with players' strengths"
        + (" (one set for every class)" if cal.by is None else ""),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for name, right in (
        ("games", False),
        ("class", False),
        ("n", True),
        ("R/D/B", True),
        ("Red adv.", True),
        ("draw_nu", True),
    ):
        table.add_column(name, justify="right" if right else "left", no_wrap=True)
    notes: list[str] = []
    _rows(table, "all", cal.main, notes)
    if cal.without_unknown is not None:
        _rows(table, "no unknown", cal.without_unknown, notes, classical=True)
    for folder, fit in cal.by_source.items():
        _rows(table, FOLDER_WORDS.get(folder, folder), fit, notes)
    left = ", ".join(f"{n:,} {why}" for why, n in cal.left_out.items()) or "none"
    slow = (
        f"; {cal.marked_classical:,} games made classical by the {len(cal.classical_events)} "
        "events named slow (--classical-events)"
        if cal.classical_events
        else ""
    )
    h = cal.hyper
    parts: list[RenderableType] = [table, *(Text(n, style="dim") for n in notes)]
    parts.append(
        Text(
            f"{cal.fitted:,} master games fitted (left out: {left}); constants measured on "
            f"{cal.main.games:,}{cal._between()}; unknown-class games "
            f"fitted as classical{slow}. Strengths: one a player and year, {len(cal.players):,} "
            f"players, drift {h.drift:.1f} Elo a year, newcomers' spread {h.spread:.0f} Elo "
            f"(both by the marginal likelihood). Constants: the Laplace-approximate marginal "
            f"likelihood's maximum, ± one standard error (strengths profiled out). R/D/B: Red "
            f"wins, draws, Black wins; Red adv.: red_advantage in Elo. The rows after 'all' "
            f"refit a subset with the same drift and spread: no unknown (without unknown-class "
            f"games), and the games filed by player, by tournament, by opening. See "
            f"docs/validation.md.",
            style="dim",
        )
    )
    if cal.bootstrap is not None:
        boot = cal.bootstrap
        cells = ", ".join(f"{k} {v:.3g}" for k, v in boot["stderr"].items())
        parts.append(
            Text(
                f"Bootstrap over {boot['events']:,} events ({boot['replicates']} resamples): "
                f"standard deviations {cells}.",
                style="dim",
            )
        )
    return Group(*parts)
