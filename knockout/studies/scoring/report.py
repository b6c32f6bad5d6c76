"""Outputs of the scoring-reform study: a tidy CSV, PNG plots and a Markdown summary.

The summary states, claim by claim, whether seed 000's claims hold under the model, with the
figures (and standard errors) that decide it. The verdict rules are fixed here, so the words follow
the numbers: a simulated difference counts only beyond three standard errors, and the colour
balance is judged on the exact expectation between equal players (no sampling noise).

When the study has Swiss events paired by FIDE's Dutch system, the verdicts rest on those (and the
round robins): :func:`verdict_events`. Swiss events paired by the simplification then only show
their figures, and the differential table says how far the simplification moves each figure the
verdicts use, on common random numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from scipy.optimize import brentq
from scipy.stats import norm

from knockout.rules.model.strength import TimeClass
from knockout.studies.labels import label as key_label
from knockout.studies.output import StudyFiles, write_study
from knockout.studies.scoring.study import (
    CSV_COLUMNS,
    DIFFERENTIAL_SUFFIX,
    SIMPLIFIED_SUFFIX,
    TIE_SHARE,
    EventSpec,
    Study,
    StudyResult,
    TidyRow,
    exact_probabilities,
    exact_value,
)
from knockout.studies.scoring.uncertainty import has_uncertainty
from knockout.studies.verdicts import (
    DOES_NOT_HOLD,
    HOLDS,
    LEVEL,
    Interval,
    Judgement,
    Threshold,
    decide,
    every,
    wilson,
)
from knockout.studies.verdicts import MIN_EVENTS as SHARED_MIN_EVENTS
from knockout.version import __version__

__all__ = [
    "Claim",
    "balance_point",
    "claims",
    "study_files",
    "summary_markdown",
    "tie_excess",
    "verdict_events",
    "write_outputs",
    "write_plots",
]

#: Exact Red-over-Black value (points per game, equal players) below which a system "balances".
BALANCED = 0.01
#: A simulated difference counts only beyond this many standard errors (the simulation's and
#: the constants' together): a simulated verdict's interval is the estimate ± this many.
SIGNIFICANT_SE = 3.0
#: A Red edge below this share of a win's points is called small; at or above it, large: the
#: "marked advantage" (明显的优势) seed 000 claims for an extra Red needs at least this much.
SMALL_EDGE = 0.10
#: "Greatly reduces ties": the new system's P(tie for first) at most this share of the baseline's.
FEWER_TIES = TIE_SHARE
#: Rank correlation with the baseline order at or above which a system "keeps" it ...
KEEPS_ORDER = 0.95
#: ... and below which it "overturns" it.
OVERTURNS_ORDER = 0.8
#: How close 11 games' expected points must be to 22 to "tend to 22".
TOTAL_TOLERANCE = 0.05
#: A simulated verdict needs at least this many events in each event it rests on.
MIN_EVENTS = SHARED_MIN_EVENTS
#: The confidence of a simulated verdict's interval (± SIGNIFICANT_SE standard errors).
SIMULATED_LEVEL = 2 * float(norm.cdf(SIGNIFICANT_SE)) - 1
#: How the summary names each Swiss pairing system.
PAIRING_NAMES = {
    "dutch": "FIDE Dutch (caissify-pairings)",
    "simplified": "simplified Dutch",
}
#: The figures the differential table compares, with their names in the summary.
DIFFERENTIAL_METRICS = {
    "extra_red_points": "extra-Red gain (points)",
    "extra_red_share": "share of players with an extra Red",
    "top_tie": "P(tie for first on points)",
    "strongest_first": "P(strongest player first)",
}
#: Seed 000's methods: the two it proposes, and the ratio as first computed.
PROPOSED = ("difference", "ratio")
SEED_METHODS = (*PROPOSED, "ratio-computed")
#: Metrics that are a proportion of events (0 or 1 in each): shown with an exact interval.
PROPORTIONS = frozenset(
    {"top_tie", "top_tie_after_progressive", "strongest_first", "winner_changed_vs_baseline"}
)


@dataclass(frozen=True)
class Claim:
    """One claim of the seed and the study's verdict.

    Attributes:
        quote: The seed's words (Chinese) and where they are.
        claim: The claim in English.
        verdict: One of the shared words (:data:`knockout.studies.verdicts.VERDICTS`): holds,
            does not hold, cannot be settled by these data, too few events.
        evidence: The figures behind the verdict, with the interval and the line that decided
            it.
    """

    quote: str
    claim: str
    verdict: str
    evidence: str


def _fmt(row: TidyRow, digits: int = 3) -> str:
    """``value ± se`` (more decimals where the error would round to 0); a proportion of
    events as ``value [low, high]``, Wilson's 95 % interval, never ``0.000 ± 0.000``."""
    if math.isnan(row.value):
        return "n/a"
    proportion = row.metric in PROPORTIONS and not row.event.endswith(DIFFERENTIAL_SUFFIX)
    if row.method == "simulation" and proportion and row.simulations >= 1:
        k = round(row.value * row.simulations)
        if 0 <= k <= row.simulations and abs(k - row.value * row.simulations) < 1e-6:
            return wilson(k, row.simulations).format(digits)
    if 0 < row.se < 0.5 * 10.0**-digits:
        digits = min(-math.floor(math.log10(row.se)), 6)
    return f"{row.value:.{digits}f} ± {row.se:.{digits}f}"


def _exact(result: StudyResult, system: str, metric: str) -> float:
    return _exact_row(result, system, metric).value


def _exact_row(result: StudyResult, system: str, metric: str) -> TidyRow:
    for row in result.rows:
        if (row.event, row.method, row.system, row.metric) == ("model", "exact", system, metric):
            return row
    raise KeyError((system, metric))


def _constants_sd(row: TidyRow) -> float:
    return 0.0 if math.isnan(row.sd_constants) else row.sd_constants


def _exact_interval(row: TidyRow, scale: float = 1.0) -> Interval:
    """An exact figure's 95 % interval over the fitted constants (``sd_constants``)."""
    return Interval.from_se(row.value * scale, _constants_sd(row) * scale, LEVEL)


def _simulated_interval(row: TidyRow) -> Interval:
    """A simulated figure ± SIGNIFICANT_SE standard errors, the simulation's and the
    constants' together."""
    return Interval.from_se(row.value, math.hypot(row.se, _constants_sd(row)), SIMULATED_LEVEL)


def _judge(row: TidyRow, threshold: Threshold, digits: int = 3) -> Judgement:
    """A simulated figure judged against ``threshold``, with the minimum number of events."""
    return decide(
        _simulated_interval(row),
        threshold,
        events=row.simulations,
        min_events=MIN_EVENTS,
        digits=digits,
    )


def _constants_note(result: StudyResult) -> str:
    """What the intervals carry, said once per claim that uses them."""
    sd = result.study.model_sd
    if not has_uncertainty(sd):
        return (
            " (The study gives the model's constants no uncertainty, [model.sd]: the intervals "
            "hold them fixed.)"
        )
    return ""


def _significant(row: TidyRow) -> bool:
    return abs(row.value) > SIGNIFICANT_SE * row.se


def _beyond(a: TidyRow, b: TidyRow) -> bool:
    """``a`` exceeds ``b`` by more than SIGNIFICANT_SE combined standard errors."""
    return a.value - b.value > SIGNIFICANT_SE * math.hypot(a.se, b.se)


def verdict_events(study: Study) -> list[EventSpec]:
    """The events the verdicts rest on: every round robin, and the Swiss events paired by the
    Dutch system if there are any (real pairings), else every Swiss event."""
    dutch = any(e.dutch for e in study.events)
    return [e for e in study.events if e.format != "swiss" or e.dutch or not dutch]


def _events(result: StudyResult, fmt: str) -> list[str]:
    return [e.name for e in verdict_events(result.study) if e.format == fmt]


def _noise(row: TidyRow) -> str:
    return (
        f" (beyond {SIGNIFICANT_SE:g} standard errors)"
        if _significant(row)
        else f" (within {SIGNIFICANT_SE:g} standard errors: noise)"
    )


def _claim_extra_red(result: StudyResult, rr: list[str]) -> Claim | None:
    """1. An extra Red pays under the traditional scoring: a marked advantage, at least
    SMALL_EDGE of a win, judged on the exact edge's interval over the fitted constants."""
    study, base = result.study, result.study.baseline
    if not rr or base not in [s.name for s in study.systems]:
        return None
    row = result.value(rr[0], base, "extra_red_points")
    rank = result.value(rr[0], base, "extra_red_rank")
    exact = _exact_row(result, base, "red_minus_black")
    win = float(study.system(base).red_win)
    share = _exact_interval(exact, 100 / win)
    line = Threshold("SMALL_EDGE", 100 * SMALL_EDGE, "above")
    judged = decide(share, line, digits=1)
    some = decide(share, Threshold("no advantage", 0.0, "above"), digits=1)
    advantage = (
        "an advantage of some size holds (the interval is above 0)"
        if some.verdict == HOLDS
        else "even an advantage of any size is not shown (the interval reaches 0)"
    )
    return Claim(
        "采用传统的无差异计分方法时，11轮比赛6先5后比5先6后占有明显的优势 (八.4)",
        f"Under the {base} scoring, 6 Reds and 5 Blacks give a marked advantage over 5 Reds and "
        f"6 Blacks (at least {100 * SMALL_EDGE:.0f} % of a win a game, SMALL_EDGE).",
        judged.verdict,
        f"The exact value of Red over Black between equal players is {exact.value:.3f} ± "
        f"{_constants_sd(exact):.3f} points a game over the fitted constants' uncertainty, as a "
        f"share of a win in %: {judged.reason}; {advantage}. Simulated, {rr[0]}: the players "
        f"with 6 Reds score {_fmt(row)} points more than those with 5 Reds{_noise(row)} and "
        f"rank {_fmt(rank, 2)} places higher.{_constants_note(result)}",
    )


def _claim_balance(
    result: StudyResult, rr: list[str], method: str, methods: list[str]
) -> Claim | None:
    """2. The proposed scoring balances Red and Black completely: one claim per method, judged
    on its exact Red edge's interval over the fitted constants against +-BALANCED."""
    if method not in methods:
        return None
    study, base = result.study, result.study.baseline
    trad = _exact(result, base, "red_minus_black")
    row = _exact_row(result, method, "red_minus_black")
    judged = decide(_exact_interval(row), Threshold("BALANCED", BALANCED, "within"))
    scoring = study.system(method)
    share = f" ({100 * row.value / trad:.0f} % of {base}'s)" if trad else ""
    sim = ""
    if rr:
        gain = _fmt(result.value(rr[0], method, "extra_red_points"))
        sim = f" Simulated in {rr[0]}, one extra Red gains {gain}."
    others = [f"{m} {_exact(result, m, 'red_minus_black'):+.3f}" for m in methods if m != method]
    point = balance_point(study, method, study.model.draw_nu[TimeClass.CLASSICAL])
    where = (
        f" It would balance exactly at a Red advantage of {point:.0f} Elo (the model's "
        f"{study.model.red_advantage[TimeClass.CLASSICAL]:.1f})."
        if point is not None
        else ""
    )
    return Claim(
        "采用本计分方法，彻底平衡了红方和黑方的关系，持先手与持后手完全均势 (八.4)",
        f"The {method} method (Red win {float(scoring.red_win):g}, Black win "
        f"{float(scoring.black_win):g}) balances Red and Black completely (Red's exact edge "
        f"within ±{BALANCED:g} a game, BALANCED).",
        judged.verdict,
        f"Red's exact edge a game between equal players, over the fitted constants' "
        f"uncertainty: {judged.reason}; that is {row.value:+.3f} ± {_constants_sd(row):.3f}"
        f"{share}.{sim}{where} The other methods' exact edges: {', '.join(others) or 'none'}."
        f"{_constants_note(result)}",
    )


def tie_excess(result: StudyResult, event: str, system: str) -> tuple[float, float]:
    """``system``'s P(tie for first) minus ``FEWER_TIES`` times the baseline's, and its standard
    error, paired event by event (common random numbers).

    The three rows ``top_tie`` (system, baseline) and ``top_tie_minus_baseline`` are means over
    the same events, so their standard errors give the covariance:
    ``Var(r - h b) = Var(r) + h^2 Var(b) - h (Var(r) + Var(b) - Var(r - b))``. (A study run
    now also has the row ``top_tie_excess``, the same difference event by event.)
    """
    h = FEWER_TIES
    r = result.value(event, system, "top_tie")
    b = result.value(event, result.study.baseline, "top_tie")
    d = result.value(event, system, "top_tie_minus_baseline")
    var = r.se**2 + h * h * b.se**2 - h * (r.se**2 + b.se**2 - d.se**2)
    return r.value - h * b.value, math.sqrt(max(var, 0.0))


def _tie_row(result: StudyResult, event: str, system: str) -> TidyRow:
    """The row ``top_tie_excess`` (or one made by :func:`tie_excess` for older results)."""
    try:
        return result.value(event, system, "top_tie_excess")
    except KeyError:
        value, se = tie_excess(result, event, system)
        base = result.value(event, system, "top_tie")
        return replace(base, metric="top_tie_excess", value=value, se=se, sd_constants=0.0)


def _claim_ties(result: StudyResult, methods: list[str], others: list[str]) -> Claim | None:
    """3. Fewer equal scores: a system's P(tie for first) at most ``FEWER_TIES`` of the
    baseline's, tested on ``top_tie_excess`` (``r - FEWER_TIES * b`` event by event)."""
    if not methods:
        return None
    base, events = result.study.baseline, [e.name for e in verdict_events(result.study)]
    h = FEWER_TIES
    line = Threshold("FEWER_TIES", 0.0, "below")
    judged = {
        (e, name): _judge(_tie_row(result, e, name), line) for e in events for name in methods
    }
    verdict = every([j.verdict for j in judged.values()])
    sharing = [
        f"{e}: {result.value(e, base, 'top8_sharing').value:.2f} -> "
        + ", ".join(f"{n} {result.value(e, n, 'top8_sharing').value:.2f}" for n in others)
        for e in events
        if _has(result, e, base, "top8_sharing")
    ]
    ties = [
        f"{e}: {base} {_fmt(result.value(e, base, 'top_tie'))}, "
        + ", ".join(f"{n} {_fmt(result.value(e, n, 'top_tie'))}" for n in others)
        for e in events
    ]
    paired = [f"{e}, {n}: {j.reason}" for (e, n), j in judged.items()]
    after = max(result.value(e, base, "top_tie_after_progressive").value for e in events)
    return Claim(
        "可以极大降低局分相同的情况 (五)",
        f"The new scoring greatly reduces equal scores (ties for first at most {100 * h:.0f} % "
        f"of {base}'s).",
        verdict,
        f"P(a tie for first on points; a share of events with Wilson's 95 % interval): "
        f"{'; '.join(ties)}. The test, event by event on the same games: P(tie) minus {h:g} x "
        f"{base}'s must be below 0 in every event, its interval ± {SIGNIFICANT_SE:g} standard "
        f"errors (the simulation's and the constants' together; at least {MIN_EVENTS} events): "
        f"{'; '.join(paired)}. Top-eight players sharing their score with another of the eight "
        f"(seed 000: six, then two): {'; '.join(sharing)}. (The progressive score already breaks "
        f"nearly every tie for first: at most {100 * after:.1f} % remain under {base}.)",
    )


def _has(result: StudyResult, event: str, system: str, metric: str) -> bool:
    try:
        result.value(event, system, metric)
    except KeyError:
        return False
    return True


def _claim_order(
    result: StudyResult, shared: list[str], others: list[str], method: str
) -> Claim | None:
    """4. The difference method keeps the traditional order (rank correlation with it at least
    KEEPS_ORDER); the ratio method overturns it (below OVERTURNS_ORDER): one claim each."""
    if not shared or method not in others:
        return None
    base, e = result.study.baseline, shared[0]
    row = result.value(e, method, "spearman_vs_baseline")
    winner = result.value(e, method, "winner_changed_vs_baseline")
    if method == "difference":
        quote, does = "差额法…与传统计分格局没有大的变化 (四.4.3)", "keeps"
        line = Threshold("KEEPS_ORDER", KEEPS_ORDER, "above")
        how = f"of at least {KEEPS_ORDER}"
    else:
        quote, does = "比值法…完全颠覆了传统计分格局 (四.4.3)", "overturns"
        line = Threshold("OVERTURNS_ORDER", OVERTURNS_ORDER, "below")
        how = f"below {OVERTURNS_ORDER}"
    judged = _judge(row, line)
    return Claim(
        quote,
        f"The {method} method {does} the {base} order (a rank correlation with it {how}, "
        f"{line.name}).",
        judged.verdict,
        f"{e} (the same games under every system): rank correlation with the {base} order "
        f"{_fmt(row)}: {judged.reason}. The winner changes in {_fmt(winner)} of events.",
    )


def _claim_objective(result: StudyResult, others: list[str]) -> Claim | None:
    """5. The ratio method is the objective one: closer to true strength than the baseline in
    every event the verdicts rest on."""
    if "ratio" not in others:
        return None
    base, events = result.study.baseline, [e.name for e in verdict_events(result.study)]
    diffs = {
        (e, n): result.value(e, n, "spearman_strength_minus_baseline")
        for e in events
        for n in others
    }
    line = Threshold("CLOSER", 0.0, "above")
    judged = {e: _judge(diffs[e, "ratio"], line, digits=4) for e in events}
    verdict = every([j.verdict for j in judged.values()])
    closer = [f"{n} ({e})" for (e, n), r in diffs.items() if _judge(r, line).verdict == HOLDS]
    further = [
        f"{n} ({e})" for (e, n), r in diffs.items() if _judge(r, line).verdict == DOES_NOT_HOLD
    ]
    detail = "; ".join(
        f"{e}: " + ", ".join(f"{n} {_fmt(diffs[e, n], 4)}" for n in others) for e in events
    )
    return Claim(
        "若追求比赛的客观公正…则宜选用比值法 (七.2)",
        "The ratio method ranks players more objectively (closer to their true strength than "
        f"the {base} scoring in every event: above 0, CLOSER).",
        verdict,
        f"Rank correlation with true strength minus the {base}'s, event by event (common random "
        f"numbers): {detail}. The ratio method: "
        + "; ".join(f"{e}: {j.reason}" for e, j in judged.items())
        + f". Closer to true strength than {base}: {', '.join(closer) or 'none'}. Further: "
        f"{', '.join(further) or 'none'}.",
    )


def _claim_total(result: StudyResult) -> Claim | None:
    """6. The total tends to 22 points: 11 games' exact expected points within TOTAL_TOLERANCE
    of 22, over the fitted constants' uncertainty."""
    study = result.study
    if "ratio" not in [s.name for s in study.systems]:
        return None
    events = [e.name for e in verdict_events(study)]
    row = _exact_row(result, "ratio", "points_per_game")
    ratio = study.system("ratio")
    red_w, black_w = float(ratio.red_win), float(ratio.black_win)
    p_red, _, p_black = exact_probabilities(study.model)
    simulated = [result.value(e, "ratio", "points_per_game") for e in events]
    more = "Red" if p_red > p_black else "Black"
    line = Threshold("TOTAL_TOLERANCE", 22 + TOTAL_TOLERANCE, "within", low=22 - TOTAL_TOLERANCE)
    judged = decide(_exact_interval(row, 11.0), line, digits=2)
    return Claim(
        "统计的人数越多，越接近总局分22分 (八.2)",
        f"Under the ratio method the points of 11 games tend to 22 (2 a game; within "
        f"{TOTAL_TOLERANCE}, TOTAL_TOLERANCE).",
        judged.verdict,
        f"Exactly {row.value:.4f} ± {_constants_sd(row):.4f} a game between equal players over "
        f"the fitted constants; for 11 games: {judged.reason}. A Red win is worth {red_w:g} and "
        f"a Black win {black_w:g}, and {more} wins are the more frequent ({100 * p_red:.1f} % v "
        f"{100 * p_black:.1f} %). Simulated: "
        + ", ".join(f"{r.event} {_fmt(r, 4)}" for r in simulated)
        + f".{_constants_note(result)}",
    )


def _claim_swiss_example(result: StudyResult, rr: list[str]) -> Claim | None:
    """7. The seed's example of 6-Red players at the top of a score group."""
    study, base = result.study, result.study.baseline
    swiss = [e for e in verdict_events(study) if e.format == "swiss" and e.pairing != "own"]
    if not swiss or not rr:
        return None
    e = swiss[0].name
    assoc = result.value(e, base, "extra_red_points")
    causal = result.value(rr[0], base, "extra_red_points")
    judged = _judge(assoc, Threshold("no association", 0.0, "above"))
    if _beyond(assoc, causal):
        times = f"{assoc.value / causal.value:.1f} times " if causal.value > 0 else "more than "
        reading = (
            f"That is {times}the {_fmt(causal)} one extra Red is worth in a round robin, where "
            "colours are fixed in advance: in a Swiss event colours follow results, so the "
            "association overstates the colour's effect, and the seed's example is evidence of "
            "the association only."
        )
    else:
        reading = (
            f"That is not beyond {SIGNIFICANT_SE:g} standard errors of the {_fmt(causal)} one "
            "extra Red is worth in a round robin (colours fixed in advance): the association "
            "does not overstate the colour's effect here."
        )
    return Claim(
        "积分为15分的第二集团6人中，排前两位的赵国荣和王天一都是6先5后 (八.4)",
        "In a Swiss event, players with more Reds finish higher (the seed's evidence).",
        judged.verdict,
        f"{e}: players with more Reds score {_fmt(assoc)} points more under {base}: "
        f"{judged.reason}. {reading}",
    )


def claims(result: StudyResult) -> list[Claim]:
    """The verdict on each of seed 000's claims the study can test, in the shared words
    (:mod:`knockout.studies.verdicts`).

    Every verdict and sentence is computed from the figures, with the thresholds named in this
    module (``BALANCED``, ``SIGNIFICANT_SE``, ``SMALL_EDGE``, ``FEWER_TIES``, ``KEEPS_ORDER``,
    ``OVERTURNS_ORDER``, ``TOTAL_TOLERANCE``, ``MIN_EVENTS``) stated in the text. An exact
    figure is judged on its 95 % interval over the fitted constants' uncertainty
    (``sd_constants``); a simulated one on ± ``SIGNIFICANT_SE`` standard errors, the
    simulation's and the constants' together, and only from ``MIN_EVENTS`` events or more.
    """
    study = result.study
    others = [s.name for s in study.systems if s.name != study.baseline]
    rr = _events(result, "round-robin")
    shared = [e.name for e in verdict_events(study) if e.shares_games]
    methods = [m for m in SEED_METHODS if m in others]
    found = [
        _claim_extra_red(result, rr),
        *(_claim_balance(result, rr, m, methods) for m in PROPOSED),
        _claim_ties(result, methods, others),
        _claim_order(result, shared, others, "difference"),
        _claim_order(result, shared, others, "ratio"),
        _claim_objective(result, others),
        _claim_total(result),
        _claim_swiss_example(result, rr),
    ]
    return [c for c in found if c is not None]


def balance_point(study: Study, system: str, draw_nu: float) -> float | None:
    """The classical Red advantage (Elo, within +-800) at which ``system`` gives Red and Black
    equal expected points between equal players, or None if there is none."""
    scoring = study.system(system)

    def gap(advantage: float) -> float:
        model = study.model.with_overrides(
            red_advantage={"classical": advantage}, draw_nu={"classical": draw_nu}
        )
        return exact_value(scoring, model)[0]

    lo, hi = -800.0, 800.0
    if gap(lo) * gap(hi) > 0:
        return None
    return float(brentq(gap, lo, hi, xtol=1e-6))


def _table(rows: Sequence[Sequence[str]]) -> str:
    head, *body = rows
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(lines)


def _setup_lines(study: Study) -> list[str]:
    adv = study.model.red_advantage[TimeClass.CLASSICAL]
    nu = study.model.draw_nu[TimeClass.CLASSICAL]
    lines = [
        f"# {study.name}",
        "",
        f"Study file `{study.source}`, seed {study.seed}. Classical games under the shared model "
        f"(Red advantage {adv:.1f} Elo, draw_nu {nu:.3f}). Systems: "
        f"{', '.join(s.name for s in study.systems)}; baseline {study.baseline}. Figures are means "
        "over simulated events ± one standard error; final order by points, then progressive "
        "score.",
        "",
        "| event | format | players | rounds | simulations | ratings | pairing | score groups |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for e in study.events:
        swiss = e.format == "swiss"
        system = PAIRING_NAMES[e.pairing_system] if swiss else "Berger tables"
        lines.append(
            f"| {e.name} | {e.format} | {e.players} | {e.rounds} | {e.simulations} | "
            f"N({e.rating_mean:g}, {e.rating_sd:g}) | {system} | {e.pairing if swiss else ''} |"
        )
    return [*lines, "", _basis_line(study), "", _uncertainty_line(study)]


def _uncertainty_line(study: Study) -> str:
    """The constants' uncertainty the verdicts carry, and how."""
    sd = study.model_sd
    if not has_uncertainty(sd):
        return (
            "The model's constants are taken as known (no [model.sd]): the verdicts' intervals "
            "carry the simulation's error only."
        )
    tc = TimeClass.CLASSICAL
    rho = sd.rho("red_advantage.classical", "draw_nu.classical")
    return (
        f"The constants' own uncertainty ([model.sd]): Red advantage ± "
        f"{sd.red_advantage[tc]:g} Elo, draw_nu ± {sd.draw_nu[tc]:g}, correlation {rho:g}. "
        "Every figure carries its standard deviation over them (sd_constants, by the delta "
        "method; for a simulated figure the gradient is the likelihood-ratio estimate from the "
        "events themselves). Verdicts: an exact figure on its 95 % interval over the constants; "
        f"a simulated one on ± {SIGNIFICANT_SE:g} standard errors, the simulation's and the "
        f"constants' together, from at least {MIN_EVENTS} events. The words: holds, does not "
        "hold, cannot be settled by these data (the interval straddles the claim's line), too "
        "few events."
    )


def _basis_line(study: Study) -> str:
    """Which events the verdicts rest on, and why."""
    used = verdict_events(study)
    left = [e.name for e in study.events if e not in used]
    why = (
        f" Swiss events paired by the simplification ({', '.join(left)}) are shown, not judged: "
        "the Dutch system is how real Swiss events are paired."
        if left
        else ""
    )
    dutch = [e for e in study.events if e.dutch]
    fast = (
        ""
        if dutch or not any(e.format == "swiss" for e in study.events)
        else " Swiss events are paired by the simplification (vectorised, for speed; "
        'pairing_system = "dutch" pairs them by FIDE\'s Dutch system).'
    )
    return f"The verdicts rest on: {', '.join(e.name for e in used)}.{why}{fast}"


def _figure_lines(result: StudyResult) -> list[str]:
    systems = [s.name for s in result.study.systems]
    metrics = (
        "extra_red_points",
        "red_game_value",
        "top_tie",
        "top8_sharing",
        "spearman_strength",
        "winner_changed_vs_baseline",
    )
    lines = ["## Key figures", ""]
    for e in result.study.events:
        rows = [["metric", *systems]]
        for metric in metrics:
            try:
                rows.append([metric, *(_fmt(result.value(e.name, s, metric)) for s in systems)])
            except KeyError:
                continue
        lines += [f"**{e.name}**", "", _table(rows), ""]
    return lines


def _sensitivity_lines(result: StudyResult) -> list[str]:
    study = result.study
    systems = [s.name for s in study.systems]
    nu = study.model.draw_nu[TimeClass.CLASSICAL]
    exact = [r for r in result.rows if r.event == "sensitivity" and r.metric == "red_minus_black"]
    table_nu = min({r.draw_nu for r in exact}, key=lambda x: (abs(x - nu), x), default=nu)
    grid = [r for r in exact if r.draw_nu == table_nu]
    advantages = sorted({r.red_advantage for r in grid})
    if len(advantages) < 2:
        return []
    rows = [["system", *(f"{a:g} Elo" for a in advantages)]]
    for s in systems:
        values = {r.red_advantage: r.value for r in grid if r.system == s}
        rows.append([s, *(f"{values[a]:+.3f}" for a in advantages)])
    points = ((s, balance_point(study, s, table_nu)) for s in systems)
    return [
        "## Sensitivity",
        "",
        "Exact value of Red over Black between equal players (points a game) as the model's "
        f"Red advantage varies (draw_nu {table_nu:g}; the tidy CSV also varies draw_nu). "
        "Each system balances Red and Black at one Red advantage only: "
        + ", ".join(f"{s} at {a:.0f} Elo" if a is not None else f"{s} nowhere" for s, a in points)
        + ".",
        "",
        _table(rows),
        "",
    ]


def _differential_lines(result: StudyResult) -> list[str]:
    """For each Dutch event paired both ways: Dutch, simplified and their difference."""
    study = result.study
    lines: list[str] = []
    for e in (e for e in study.events if e.differential):
        rows = [["figure", "system", "Dutch", "simplified", "Dutch − simplified"]]
        runs = result.value(e.name, study.baseline, "top_tie").simulations
        moved = []
        for metric, label in DIFFERENTIAL_METRICS.items():
            for s in study.systems:
                diff = result.value(e.name + DIFFERENTIAL_SUFFIX, s.name, metric)
                rows.append(
                    [
                        label,
                        s.name,
                        _fmt(result.value(e.name, s.name, metric)),
                        _fmt(result.value(e.name + SIMPLIFIED_SUFFIX, s.name, metric)),
                        _fmt(diff),
                    ]
                )
                if _significant(diff):
                    moved.append(f"{label} under {s.name} ({diff.value:+.3f})")
        lines += [
            f"**{e.name}**: {runs} events paired both ways from the same ratings and "
            "game numbers (common random numbers); the difference is taken event by event, ± "
            f"one standard error. Moved by the simplification beyond {SIGNIFICANT_SE:g} "
            f"standard errors: {'; '.join(moved) or 'nothing'}.",
            "",
            _table(rows),
            "",
        ]
    if not lines:
        return []
    again = _simplified_view(result)
    if again is not None:
        before = {c.claim: c.verdict for c in claims(result)}
        changed = [
            f"{c.claim} would be {c.verdict.upper()}, where the Dutch pairing gives "
            f"{before[c.claim].upper()}"
            for c in claims(again)
            if c.claim in before and c.verdict != before[c.claim]
        ]
        kept = [e.name for e in study.events if e.dutch and not e.differential]
        lines += [
            "Had the verdicts rested on the simplified pairing of the same events"
            + (f" ({', '.join(kept)} kept: it has no byes)" if kept else "")
            + ": "
            + ("every verdict would be the same." if not changed else "; ".join(changed) + "."),
            "",
        ]
    return ["## FIDE's Dutch pairing against the simplification", "", *lines]


def _simplified_view(result: StudyResult) -> StudyResult | None:
    """The result as if the Dutch events paired both ways had been paired by the
    simplification alone (their twins' rows under their names), with the simplified-only Swiss
    events left out: the same events, judged on the simplified pairing where it can pair them.
    Dutch events it cannot pair (an odd number of players) stay as they are, so a changed
    verdict is the simplification's doing. (The events keep their specs, so the verdicts rest
    on the same events: only the twins' figures replace the Dutch ones.)"""
    study = result.study
    twins = {e.name for e in study.events if e.differential}
    if not twins:
        return None
    events = tuple(e for e in study.events if e.format != "swiss" or e.dutch)
    rows = tuple(
        replace(r, event=r.event.removesuffix(SIMPLIFIED_SUFFIX))
        for r in result.rows
        if r.event not in twins
        and not r.event.endswith(DIFFERENTIAL_SUFFIX)
        and (
            r.method == "exact"
            or r.event.removesuffix(SIMPLIFIED_SUFFIX) in {e.name for e in events}
        )
    )
    return StudyResult(replace(study, events=events), rows)


def _interrupted_lines(result: StudyResult) -> list[str]:
    """Said first when Ctrl-C stopped the run: the claims rest on the events that finished."""
    if not result.interrupted:
        return []
    done = len(result.study.events)
    return [
        "",
        f"**Interrupted**: {done} of {result.planned} events finished; the claims and figures "
        "below rest on those alone.",
    ]


def summary_markdown(result: StudyResult) -> str:
    """The study's Markdown summary: setup, verdicts, key figures, sensitivity."""
    lines = [
        *_setup_lines(result.study),
        *_interrupted_lines(result),
        "",
        "## The seed's claims",
        "",
    ]
    for c in claims(result):
        lines += [f"- **{c.verdict.upper()}**: {c.claim} ({c.quote})", f"  {c.evidence}", ""]
    lines += _figure_lines(result)
    lines += _differential_lines(result)
    lines += _sensitivity_lines(result)
    rematches = [
        r
        for r in result.rows
        if r.metric == "rematches" and r.value > 0 and not r.event.endswith(DIFFERENTIAL_SUFFIX)
    ]
    lines.append(
        "Swiss pairings: no rematch was needed."
        if not rematches
        else f"Swiss pairings kept rematches in {len(rematches)} event/system cells."
    )
    return "\n".join(lines) + "\n"


def _bar_plot(
    plt: Any, result: StudyResult, metric: str, title: str, ylabel: str, path: Path
) -> Path:
    """One bar per system and event, ± 2 standard errors (for a probability, within 0 and 1)."""
    systems = [s.name for s in result.study.systems]
    events = [e.name for e in result.study.events]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.8 / len(events)
    for i, e in enumerate(events):
        rows = [result.value(e, s, metric) for s in systems]
        x = [j + (i - (len(events) - 1) / 2) * width for j in range(len(systems))]
        low = [2 * r.se for r in rows]
        high = list(low)
        if metric in PROBABILITIES:
            low = [min(d, r.value) for d, r in zip(low, rows, strict=True)]
            high = [min(d, 1 - r.value) for d, r in zip(high, rows, strict=True)]
        ax.bar(x, [r.value for r in rows], width, yerr=[low, high], label=e)
    if metric == "extra_red_points":
        exact = [_exact(result, s, "red_minus_black") for s in systems]
        ax.scatter(range(len(systems)), exact, color="black", marker="_", s=400, zorder=3,
                   label="exact, one game (equal players)")  # fmt: skip
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks(range(len(systems)), systems)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=4)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


#: Metrics that are probabilities: their error bars stop at 0 and 1.
PROBABILITIES = frozenset({"top_tie", "top_tie_after_progressive", "strongest_first"})


def _sensitivity_plot(plt: Any, result: StudyResult, path: Path) -> Path | None:
    """Exact Red-minus-Black against the Red advantage, a line per system and draw_nu."""
    study = result.study
    grid = [r for r in result.rows if r.event == "sensitivity" and r.metric == "red_minus_black"]
    if len({r.red_advantage for r in grid}) < 2:
        return None
    nus = sorted({r.draw_nu for r in grid})
    model_nu = study.model.draw_nu[TimeClass.CLASSICAL]
    nu = min(nus, key=lambda x: (abs(x - model_nu), x))
    fig, ax = plt.subplots(figsize=(8, 4.5))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, name in enumerate(s.name for s in study.systems):
        for n in nus:
            pts = sorted(
                (r.red_advantage, r.value) for r in grid if (r.system, r.draw_nu) == (name, n)
            )
            if len(pts) < 2:
                continue
            ax.plot(
                [a for a, _ in pts],
                [v for _, v in pts],
                "-" if n == nu else ":",
                color=colours[i % len(colours)],
                label=name if n == nu else None,
            )
    ax.axhline(0, color="grey", linewidth=0.8)
    # the words every study's plots use for these model keys (knockout.studies.labels)
    ax.set_xlabel(key_label("model.red_advantage.classical"))
    ax.set_ylabel("Red minus Black, points a game (equal players)")
    dotted = ", ".join(f"{n:g}" for n in nus if n != nu)
    ax.set_title(f"Exact, equal players (solid: draw parameter ν {nu:g}; dotted: ν {dotted})")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def write_plots(result: StudyResult, out: Path) -> list[Path]:
    """PNG plots (matplotlib): extra Red, ties, strength, sensitivity."""
    from knockout.studies.plots import pyplot  # noqa: PLC0415  (matplotlib: only to plot)

    plt = pyplot()  # the Agg backend and the CJK font every study plot uses

    written = [
        _bar_plot(
            plt,
            result,
            "extra_red_points",
            "More Reds than Blacks: points over the players with more Blacks (± 2 SE)",
            "points over the players with more Blacks",
            out / "extra-red.png",
        ),
        _bar_plot(
            plt,
            result,
            "top_tie",
            "P(a tie for first place on points) (± 2 SE, within 0 and 1)",
            "P(a tie for first on points)",
            out / "ties.png",
        ),
        _bar_plot(
            plt,
            result,
            "spearman_strength",
            "Rank correlation of the final order with true strength (± 2 SE)",
            "Spearman rank correlation with true strength",
            out / "strength.png",
        ),
    ]
    sensitivity = _sensitivity_plot(plt, result, out / "sensitivity.png")
    return written + ([] if sensitivity is None else [sensitivity])


def study_files(result: StudyResult) -> StudyFiles:
    """The scoring study's outputs, in the shape every study writes
    (:mod:`knockout.studies.output`): the tidy CSV (one row per event, system and metric, and
    model point for exact rows), the JSON document (every row and every claim), the PNG plots
    and the summary."""
    study = result.study
    document = {
        "version": __version__,
        "study": study.name,
        "source": study.source,
        "seed": study.seed,
        "claims": [vars(c) for c in claims(result)],
        "rows": [dict(zip(CSV_COLUMNS, row.to_csv(), strict=True)) for row in result.rows],
    }
    if result.interrupted:
        document["interrupted"] = True
        document["events_finished"] = [e.name for e in study.events]
    return StudyFiles(
        CSV_COLUMNS,
        [row.to_csv() for row in result.rows],
        document,
        [partial(write_plots, result)],
        summary_markdown(result),
    )


def write_outputs(result: StudyResult, out: Path) -> list[Path]:
    """Write ``results.csv``, ``results.json``, the PNG plots and ``summary.md`` into ``out``."""
    return write_study(study_files(result), out)
