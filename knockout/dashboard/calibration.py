"""Rich view of a calibration: the fitted model constants per time class, with their notes."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from knockout.calibration import SCORING_METHOD, Calibration, Estimate, Interval, ScoringDerivation
from knockout.dashboard.fit import fitted
from knockout.points import get_scoring

__all__ = ["calibration_view", "score_scale_lines"]

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
    parts += [Text(line) for line in score_scale_lines(fit)]
    parts.append(
        Text(
            "R/D/B: Red wins, draws, Black wins. red_advantage and elo_per_doubling in Elo. "
            "stderr: from the inverse observed information at the maximum; ≤: a one-sided 95% "
            "upper bound for a constant on the boundary of its range. See docs/calibration.md.",
            style="dim",
        )
    )
    if fit.scoring is not None:
        parts += scoring_view(fit.scoring)
    return Group(*parts)


def score_scale_lines(fit: Calibration) -> list[str]:
    """``elo_per_doubling`` on the score scale beside the Davidson parameter, per class that
    has it, and the games' own score-based Elo at each clock ratio."""
    lines = []
    for c in fit.classes:
        scale, e, nu = c.score_scale, c.elo_per_doubling, c.draw_nu
        if scale is None or e.estimate is None or nu.estimate is None:
            continue
        spread = "" if scale.stderr is None else f" ± {scale.stderr:.2f}"
        observed = "; ".join(
            f"{o.doublings:g} doubling{'s' if o.doublings != 1 else ''}: {o.games} games, "
            f"score {o.score:.3f}, "
            + ("-" if o.elo is None else f"{o.elo:.2f}")
            + ("" if o.stderr is None else f" ± {o.stderr:.2f}")
            for o in scale.observed
        )
        lines.append(
            f"{c.time_class} elo_per_doubling {e.estimate:.2f} is a Davidson parameter; on the "
            f"score scale (a score-based Elo: draws count half, each side Red half the time, "
            f"draw_nu {nu.estimate:.4f}) one doubling is worth {scale.estimate:.2f}{spread}."
            + (f" From the games' scores alone: {observed}." if observed else "")
        )
    return lines


#: The seed's published scores, from the scoring registry (``difference``: 1.9 / 2.1,
#: ``ratio``: 1.7 / 2.3), and the traditional 2 / 2.
SEED_SYSTEMS = ("difference", "ratio")


def _published(system: str) -> tuple[float, float]:
    s = get_scoring(system)
    return float(s.red_win), float(s.black_win)


def _row(label: str, x: Interval, places: int, seed: float | None) -> list[str]:
    inside = "" if seed is None else ("yes" if x.contains(seed) else "no")
    return [
        label,
        f"{x.estimate:.{places}f}",
        f"± {x.stderr:.{places}f}",
        f"{x.q025:.{places}f} to {x.q975:.{places}f}",
        "" if seed is None else f"{seed:g}",
        inside,
    ]


def scoring_view(d: ScoringDerivation) -> list[RenderableType]:
    """Seed 000's derivation with its error: the gap in win rates and both methods' scores
    with their intervals, and whether the seed's published scores lie inside them."""
    r, draws, b = d.games
    table = Table(
        title=f"Seed 000's derivation of its scores, with its error ({r + draws + b:,} "
        f"classical games on equal clocks, R/D/B {r}/{draws}/{b})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for header in ("quantity", "estimate", "stderr", "95 % interval", "seed", "inside"):
        table.add_column(header, justify="left" if header == "quantity" else "right",
                         no_wrap=header != "quantity", overflow="fold")  # fmt: skip
    gap = d.red_minus_black
    pct = Interval(100 * gap.estimate, 100 * gap.stderr, 100 * gap.q025, 100 * gap.q975)
    table.add_row(*_row("Red - Black wins, %", pct, 2, None))
    methods = {"difference": d.difference, "ratio": d.ratio}
    verdicts = []
    for system in SEED_SYSTEMS:
        scores = methods[system]
        if scores is None:
            continue
        red, black = _published(system)
        table.add_row(*_row(f"{system}: Red win", scores["red_win"], 4, red))
        table.add_row(*_row(f"{system}: Black win", scores["black_win"], 4, black))
        both = scores["red_win"].contains(red) and scores["black_win"].contains(black)
        verdicts.append(f"{red:g} / {black:g} {'lies inside' if both else 'lies outside'} the "
                        f"{system} method's intervals")  # fmt: skip
    even = [
        system
        for system in SEED_SYSTEMS
        if (scores := methods[system]) is not None and not scores["red_win"].contains(2.0)
    ]
    sentence = "The seed's " + "; its ".join(verdicts) + "."
    if even:
        sentence += (
            " The traditional 2 / 2 lies outside the "
            + " and the ".join(even)
            + f" method's interval{'s' if len(even) > 1 else ''}: these games do show Red "
            "winning more often than Black."
        )
    else:
        sentence += " The traditional 2 / 2 lies inside: these games cannot tell Red from Black."
    return [
        fitted(table),
        Text(sentence),
        Text(f"How: {SCORING_METHOD}. docs/calibration.md.", style="dim"),
    ]
