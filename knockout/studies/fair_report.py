"""What ``knockout fair`` says about its answer: the committee's sentences ("how sure") and the
fair clock's interval, every figure computed from the spread beside it and printed to the
precision its standard error allows (:mod:`knockout.rules.model.precision`).

The fair Red clock's interval is over every draw of the constants: where more than 2.5 % of the
draws have no fair clock up to the search cap (the split lies above it), its upper end is open,
"more than 100 minutes", and the share of draws without a fair clock is said beside it.
"""

from __future__ import annotations

import math

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
        f"Under the stated uncertainty of the model's constants ({', '.join(spread.constants)}; "
        f"{spread.draws} draws): the seed's menu gives 甲 an edge of {_pts(central)} points "
        f"between equal players at the central constants; over the constants it is "
        f"{_pts(edge.mean, _se(err, 'mean'))} on average, between "
        f"{_pts(edge.q025, _se(err, 'q025'))} and {_pts(edge.q975, _se(err, 'q975'))} points "
        f"in 95 % of the draws, and above zero with probability {p:.2f}."
    ]
    if p >= SETTLED:
        lines.append(
            f"So the seed's rule favours 甲 with probability {p:.2f} (at least {SETTLED:.0%})."
        )
    elif p <= 1 - SETTLED:
        lines.append(
            f"So the seed's rule favours 乙, the player who replies, with probability "
            f"{1 - p:.2f} (at least {SETTLED:.0%})."
        )
    else:
        lines.append(
            f"So whether the seed's rule favours 甲 {CANNOT_SETTLE}: "
            f"P(edge > 0) = {p:.2f} lies between {1 - SETTLED:.0%} and {SETTLED:.0%}."
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
    where = "inside" if red.contains(seed_red) else "outside"
    lo = _end(red.q025, _se(err, "q025"), f.max_minutes)
    hi = (
        f"more than {f.max_minutes:g}"
        if red.q975 == math.inf
        else _end(red.q975, _se(err, "q975"), f.max_minutes)
    )
    text = (
        f"The fair Red clock against Black's {f.black:g} minutes is {f.red:.2f} minutes at the "
        f"central constants; over the constants it lies between {lo} and {hi} minutes in 95 % "
        "of the draws"
    )
    if without > 0:
        text += (
            f": in {100 * without:.1f} % of them no Red clock up to {f.max_minutes:g} minutes "
            "is fair"
        )
        if red.q975 == math.inf:
            text += " (more than the 2.5 % the interval leaves above its end), so it is open-ended"
    text += f"; the seed's {seed_red:g} minutes lies {where} that interval."
    out = [text]
    fair_edge = spread.get("chooser_advantage.fair_menu")
    fair_err = spread.stderr.get("chooser_advantage.fair_menu")
    if fair_edge is not None and fair_edge.p_above_zero is not None:
        out.append(
            f"The fair menu built on {f.red:.2f} / {f.black:g} leaves 甲 "
            f"{_pts(fair_edge.mean, _se(fair_err, 'mean'))} points on average over the "
            f"constants, between {_pts(fair_edge.q025, _se(fair_err, 'q025'))} and "
            f"{_pts(fair_edge.q975, _se(fair_err, 'q975'))} in 95 % of the draws (above zero "
            f"with probability {fair_edge.p_above_zero:.2f})."
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
    text = (
        f"The constant whose uncertainty contributes most to the spread of the seed menu's edge "
        f"is {best}: knowing it exactly would remove {max(cuts[best], 0.0):.0%} of the edge's "
        "variance"
    )
    if len(ranked) > 1:
        text += f" (next: {ranked[1]}, {max(cuts[ranked[1]], 0.0):.0%})"
    return [text + "."]
