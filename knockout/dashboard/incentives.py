"""Rich view of the pace game (``knockout incentives``): best responses, equilibria, sentences."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from knockout.dashboard.fit import fit_headers, table
from knockout.dashboard.match import pct
from knockout.i18n import _
from knockout.i18n.terms import stage_label
from knockout.studies.incentives import TOLERANCE, Incentives

__all__ = ["incentives_view"]


def _signed_points(x: float) -> str:
    return f"{100 * x:+.2f}"


def incentives_view(result: Incentives, title: str) -> RenderableType:
    """One row per player (natural play and best response to the other's natural pace), one
    row per equilibrium, then the summary's sentences."""
    stage, tc = result.deciding_stage
    in_class = "" if tc == stage else f" ({stage_label(str(tc))})"
    head = Text(
        _(
            "{title}\nTime use as a choice in the {stage} game{time_class}, whose times decide "
            "甲: exact, on a grid of {grid} paces a player, refined.\n"
        ).format(title=title, stage=stage_label(stage), time_class=in_class, grid=result.grid)
    )
    players = table(_("Natural play, and the best reply to the other's natural pace"))
    players.add_column(_("player"), overflow="fold")
    for header in (_("paces"), _("natural pace"), _("P(advance)"), _("best reply pace"),
                   _("P(advance)"), _("gain (points)")):  # fmt: skip
        players.add_column(header, justify="right", no_wrap=True)
    for k, name in enumerate(result.names):
        br = result.best_response[k]
        lo, hi = result.bounds[k]
        players.add_row(
            name,
            f"{lo:.2f}-{hi:.2f}",
            f"{result.natural_pace[k]:.3f}",
            pct(result.natural_win[k], 2),
            f"{br.pace:.3f}",
            pct(br.win, 2),
            _signed_points(br.gain),
        )
    parts: list[RenderableType] = [head, fit_headers(players)]
    if result.equilibria:
        a, b = result.names
        eq = table(
            _(
                "Pure-strategy equilibria (neither player gains more than {points:.4f} points by "
                "any deviation)"
            ).format(points=100 * TOLERANCE)
        )
        eq.add_column("#", justify="right", no_wrap=True)
        for header in (_("{name} pace").format(name=a), _("{name} pace").format(name=b),
                       _("{name} P(adv)").format(name=a), _("{name} P(adv)").format(name=b),
                       _("P(甲 adv | SD)")):  # fmt: skip
            eq.add_column(header, justify="right", no_wrap=True)
        for i, e in enumerate(result.equilibria, start=1):
            eq.add_row(
                str(i),
                f"{e.pace[0]:.4f}",
                f"{e.pace[1]:.4f}",
                pct(e.win[0], 2),
                pct(e.win[1], 2),
                pct(e.chooser_advances, 2),
            )
        parts.append(fit_headers(eq))
    parts.append(Text("\n" + "\n".join(result.sentences()) + "\n"))
    parts.append(
        Text(
            _(
                "Pace: the fraction of the effective clock a player aims to use in the game that "
                "decides 甲; below the natural pace it costs strength in that game, above it only "
                "clock. P(advance) is for the whole match; gains in percentage points."
            ),
            style="dim",
        )
    )
    return Group(*parts)
