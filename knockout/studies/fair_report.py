"""What ``knockout fair`` says about its answer: the committee's sentences ("how sure") and the
fair clock's interval, every figure computed from the spread beside it and printed to the
precision its standard error allows (:mod:`knockout.rules.model.precision`).

The fair Red clock's interval is over every draw of the constants: where more than 2.5 % of the
draws have no fair clock up to the search cap (the split lies above it), its upper end is open,
"more than 100 minutes", and the share of draws without a fair clock is said beside it.
"""

from __future__ import annotations

import math

from knockout.i18n import _
from knockout.rules.model.precision import fixed
from knockout.rules.model.sd import FigureSpread, Spread
from knockout.studies.fair import FairClockSpread, FairRules
from knockout.studies.verdicts import CANNOT_SETTLE

__all__ = ["SETTLED", "clock_interval", "how_sure"]

#: P(edge > 0) at or above which the seed's rule is said to favour 甲 (at or below one minus
#: it, 乙); between them its sign is said to be unsettled.
SETTLED = 0.95


def _pts(x: float, se: float | None = None) -> str:
    """An edge in signed percentage points, to the precision of ``se`` (a fraction)."""
    return fixed(100 * x, None if se is None else 100 * se, sign=True)


def _end(value: float, se: float | None, cap: float) -> str:
    """One end of the fair clock's interval: minutes to their precision, or an open end."""
    if value == math.inf:
        return f"> {cap:g}"
    if value == -math.inf:
        return "< 0"
    return fixed(value, se)


def clock_interval(f: FairRules) -> str:
    """``[12.9, > 100]``: the fair clock's central 95 % over the constants (every draw
    counted; ``""`` without a spread)."""
    spread = f.model_uncertainty
    red = None if spread is None else spread.get("armageddon.red")
    if spread is None or red is None:
        return ""
    se = spread.stderr.get("armageddon.red")
    lo = _end(red.q025, None if se is None else se.q025, f.max_minutes)
    hi = _end(red.q975, None if se is None else se.q975, f.max_minutes)
    return f"[{lo}, {hi}]"


def how_sure(f: FairRules) -> list[str]:
    """The committee's sentences, computed from the spread of ``f`` (none without uncertain
    constants): the seed menu's edge between equals with its interval and P(edge > 0) and the
    verdict at the :data:`SETTLED` threshold, the fair Red clock with its interval over every
    draw (and whether the seed's own Red clock lies inside), what the fair menu leaves, and
    which constant's uncertainty contributes most to the edge's spread."""
    spread = f.model_uncertainty
    edge = None if spread is None else spread.get("chooser_advantage.seed_menu")
    if spread is None or edge is None or edge.p_above_zero is None:
        return []
    central = f.advantage["seed_menu"]
    assert central is not None
    err = spread.stderr.get("chooser_advantage.seed_menu")
    p = edge.p_above_zero
    lines = [
        _(
            "Under the stated uncertainty of the model's constants ({constants}; {draws} draws): "
            "the seed's menu gives 甲 an edge of {central} points between equal players at the "
            "central constants; over the constants it is {mean} on average, between {low} and "
            "{high} points in 95 % of the draws, and above zero with probability {p:.2f}."
        ).format(
            constants=_(", ").join(spread.constants),
            draws=spread.draws,
            central=_pts(central),
            mean=_pts(edge.mean, _se(err, "mean")),
            low=_pts(edge.q025, _se(err, "q025")),
            high=_pts(edge.q975, _se(err, "q975")),
            p=p,
        )
    ]
    if p >= SETTLED:
        lines.append(
            _(
                "So the seed's rule favours 甲 with probability {p:.2f} (at least {line:.0%})."
            ).format(p=p, line=SETTLED)
        )
    elif p <= 1 - SETTLED:
        lines.append(
            _(
                "So the seed's rule favours 乙, the player who replies, with probability {p:.2f} "
                "(at least {line:.0%})."
            ).format(p=1 - p, line=SETTLED)
        )
    else:
        lines.append(
            _(
                "So whether the seed's rule favours 甲 {cannot_settle}: P(edge > 0) = {p:.2f} lies "
                "between {low:.0%} and {high:.0%}."
            ).format(cannot_settle=_(CANNOT_SETTLE), p=p, low=1 - SETTLED, high=SETTLED)
        )
    lines += _split_lines(f, spread)
    lines += _contributor_lines(spread)
    return lines


def _se(err: FigureSpread | None, stat: str) -> float | None:
    return None if err is None else float(getattr(err, stat))


def _split_lines(f: FairRules, spread: Spread) -> list[str]:
    red = spread.get("armageddon.red")
    if f.red is None or red is None:
        return []
    err = spread.stderr.get("armageddon.red")
    without = red.share_without_fair_clock if isinstance(red, FairClockSpread) else 0.0
    seed_red = f.seed_menu.accept[0]
    lo = _end(red.q025, _se(err, "q025"), f.max_minutes)
    hi = (
        _("more than {cap:g}").format(cap=f.max_minutes)
        if red.q975 == math.inf
        else _end(red.q975, _se(err, "q975"), f.max_minutes)
    )
    text = _(
        "The fair Red clock against Black's {black:g} minutes is {red:.2f} minutes at the "
        "central constants; over the constants it lies between {low} and {high} minutes in 95 % "
        "of the draws"
    ).format(black=f.black, red=f.red, low=lo, high=hi)
    if without > 0:
        text += _(": in {share:.1f} % of them no Red clock up to {cap:g} minutes is fair").format(
            share=100 * without, cap=f.max_minutes
        )
        if red.q975 == math.inf:
            text += _(
                " (more than the 2.5 % the interval leaves above its end), so it is open-ended"
            )
    text += (
        _("; the seed's {minutes:g} minutes lies inside that interval.")
        if red.contains(seed_red)
        else _("; the seed's {minutes:g} minutes lies outside that interval.")
    ).format(minutes=seed_red)
    out = [text]
    fair_edge = spread.get("chooser_advantage.fair_menu")
    fair_err = spread.stderr.get("chooser_advantage.fair_menu")
    if fair_edge is not None and fair_edge.p_above_zero is not None:
        out.append(
            _(
                "The fair menu built on {red:.2f} / {black:g} leaves 甲 {mean} points on average "
                "over the constants, between {low} and {high} in 95 % of the draws (above zero "
                "with probability {p:.2f})."
            ).format(
                red=f.red,
                black=f.black,
                mean=_pts(fair_edge.mean, _se(fair_err, "mean")),
                low=_pts(fair_edge.q025, _se(fair_err, "q025")),
                high=_pts(fair_edge.q975, _se(fair_err, "q975")),
                p=fair_edge.p_above_zero,
            )
        )
    return out


def _contributor_lines(spread: Spread) -> list[str]:
    cuts = {
        k: v["variance_cut"]
        for k, v in spread.decomposition.get("chooser_advantage.seed_menu", {}).items()
    }
    if not cuts:
        return []
    ranked = sorted(cuts, key=lambda k: -cuts[k])
    best = ranked[0]
    text = _(
        "The constant whose uncertainty contributes most to the spread of the seed menu's edge "
        "is {best}: knowing it exactly would remove {cut:.0%} of the edge's variance"
    ).format(best=best, cut=max(cuts[best], 0.0))
    if len(ranked) > 1:
        text += _(" (next: {name}, {cut:.0%})").format(
            name=ranked[1], cut=max(cuts[ranked[1]], 0.0)
        )
    return [text + _(".")]
