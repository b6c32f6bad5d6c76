"""Outputs of the league study: a tidy CSV, PNG plots and a Markdown summary.

The summary answers seed 001's question (is the team whose captain has Red favoured?) and checks
its claims about the league with the figures that decide them. The verdict rules are fixed here
and named, so the words follow the numbers: the captain's colour "matters" when the exact gap
between equal teams exceeds :data:`MATTERS` match points a match; a simulated difference counts
only beyond :data:`SIGNIFICANT_SE` standard errors; drawing every board "pays" when it gives more
than :data:`DRAW_MARGIN` match points over playing normally.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from scipy.optimize import brentq

from knockout.rules.model.strength import TimeClass
from knockout.scoring.captains import MAX_CHANGES
from knockout.studies.output import StudyFiles, write_study
from knockout.studies.scoring.league_season import double_round_robin
from knockout.studies.scoring.league_study import (
    LEAGUE_CSV_COLUMNS,
    STEPS,
    LeagueRow,
    LeagueStudy,
    LeagueStudyResult,
    captain_gap,
)
from knockout.studies.scoring.report import Claim
from knockout.studies.verdicts import DOES_NOT_HOLD, HOLDS
from knockout.version import __version__

__all__ = [
    "DRAW_MARGIN",
    "MATTERS",
    "SIGNIFICANT_SE",
    "captain_flip",
    "league_claims",
    "league_files",
    "league_summary",
    "write_league_outputs",
    "write_league_plots",
]

#: Exact gap (match points a match, equal teams) beyond which the captain's colour "matters".
MATTERS = 0.05
#: A simulated difference counts only beyond this many standard errors.
SIGNIFICANT_SE = 3.0
#: Drawing every board "pays" when it beats normal play by more than this (match points).
DRAW_MARGIN = 0.0
#: Red advantages (Elo) searched for the point where the captain's colour stops mattering.
FLIP_RANGE = (-400.0, 400.0)

STEP_LABELS = {
    "head_to_head": "head-to-head",
    "board_points": "board points",
    "black_wins": "Black wins",
    "red_wins": "Red wins",
    "black_draws": "Black draws",
    "red_draws": "Red draws",
    "still_tied": "still tied",
}


def _fmt(row: LeagueRow, digits: int = 3) -> str:
    """``value ± se``, with more decimals where the standard error would round to 0 (it is
    never shown as ± 0 unless it is 0: a figure that does not vary)."""
    if math.isnan(row.value):
        return "n/a"
    if 0 < row.se < 0.5 * 10.0**-digits:
        digits = min(-math.floor(math.log10(row.se)), 6)
    return f"{row.value:.{digits}f} ± {row.se:.{digits}f}"


def _pct(p: float) -> str:
    return f"{100 * p:.1f} %"


def _exact(result: LeagueStudyResult, event: str, policy: str, metric: str) -> float:
    return result.value(event, policy, metric).value


def _sim_events(result: LeagueStudyResult) -> list[str]:
    return [e.name for e in result.study.events]


def captain_flip(study: LeagueStudy) -> float | None:
    """The Red advantage (every time class, within :data:`FLIP_RANGE`) at which equal teams'
    captain-Red and captain-Black sides expect the same match points, or None."""

    def gap(a: float) -> float:
        model = study.model.with_overrides(
            red_advantage=dict.fromkeys(("classical", "rapid", "blitz"), a)
        )
        return captain_gap(study, model)

    lo, hi = FLIP_RANGE
    if gap(lo) * gap(hi) > 0:
        return None
    return float(brentq(gap, lo, hi, xtol=1e-6))


def _direction(gap: float) -> str:
    if gap > MATTERS:
        return "red"
    if gap < -MATTERS:
        return "black"
    return "neither"


def _claim_totals(result: LeagueStudyResult) -> Claim:
    """四: the two teams' board totals are never equal."""
    equal = _exact(result, "rules", "", "equal_board_totals")
    outcomes = _exact(result, "rules", "", "outcomes")
    simulated = [r for r in result.rows if r.metric == "equal_board_totals" and r.event != "rules"]
    seen = [r for r in simulated if r.value > 0]
    matches = sum(e.simulations * e.matches * len(e.policies) for e in result.study.events)
    sim_text = (
        f"Simulated, {matches:,} matches: none had equal totals."
        if not seen
        else "Simulated: equal totals in "
        + ", ".join(f"{r.event} ({r.policy}) {_pct(r.value)} of matches" for r in seen)
        + "."
    )
    return Claim(
        "本方案中,双方的总局分百分之一百不会一样 (详解 四)",
        "The two teams' board totals are never equal, so every match has a winner.",
        "holds" if equal == 0 and not seen else "does not hold",
        f"{equal:.0f} of the {outcomes:.0f} outcomes (81 per colour of the home captain, every "
        f"win/draw/loss on four boards) have equal board totals. {sim_text}",
    )


def _claim_draws(result: LeagueStudyResult) -> Claim | None:
    """三: a team cannot profit by aiming for draws."""
    study = result.study
    if not study.rating_gaps:
        return None
    parts: list[str] = []
    pays: list[str] = []
    never: list[str] = []
    for colour in ("red", "black"):
        normal = {
            r.rating_gap: r.value
            for r in result.exact("draw-aim", "normal_match_points")
            if r.policy == colour
        }
        draws = _exact_draws(result, colour)
        paying = [g for g, v in sorted(normal.items()) if draws - v > DRAW_MARGIN]
        even = result.value("draw-aim", colour, "break_even_gap").value
        where = (
            f"it pays from a gap of {even:.0f} Elo"
            if not math.isnan(even)
            else "it does not pay at any gap up to 1000 Elo"
        )
        listing = ", ".join(f"{g:g}: {v:.2f}" for g, v in sorted(normal.items()))
        parts.append(
            f"captain {colour}: four draws give {draws:g}; playing normally (gap: expected match "
            f"points) {listing}; {where}"
        )
        (pays if paying else never).append(colour)
    smallest = min(study.rating_gaps)
    at_smallest = [
        c
        for c in ("red", "black")
        if any(
            r.policy == c
            and r.rating_gap == smallest
            and _exact_draws(result, c) - r.value > DRAW_MARGIN
            for r in result.exact("draw-aim", "normal_match_points")
        )
    ]
    # The shared words (knockout.studies.verdicts): drawing pays somewhere in the grid, so the
    # claim that a team cannot profit does not hold; where it pays is said in the reading.
    verdict = HOLDS if not pays else DOES_NOT_HOLD
    reading = (
        "Drawing every board never pays within the grid."
        if not pays
        else f"At the smallest gap ({smallest:g} Elo) drawing pays for a side whose captain has "
        f"{' and '.join(at_smallest)}."
        if at_smallest
        else f"At the smallest gap ({smallest:g} Elo) it does not pay, so between equal teams "
        f"the claim is right; against a stronger team it pays for a side whose captain has "
        f"{' and '.join(pays)}, if the draws are sure."
    )
    gaps = ", ".join(f"{g:g}" for g in study.rating_gaps)
    return Claim(
        "就算成功的做到这样,也只是得了1分积分,你要三轮1分才追上人家一轮胜利 (详解 三)",
        "A team cannot profit by aiming for draws: even four draws are worth only 1 match point "
        "(captain Red) or 0.5 (captain Black).",
        verdict,
        f"A team weaker by a rating gap on every board (gaps {gaps} Elo), against drawing all "
        f"four boards for sure (the best a draw-seeker can hope for; it pays when it beats normal "
        f"play by more than {DRAW_MARGIN:g} match points): {'; '.join(parts)}. {reading}",
    )


def _exact_draws(result: LeagueStudyResult, colour: str) -> float:
    rows = [r for r in result.exact("draw-aim", "all_draws_match_points") if r.policy == colour]
    return rows[0].value


def _claim_captain(result: LeagueStudyResult) -> Claim:
    """五: is the team whose captain has Red favoured? (The seed leaves it open.)"""
    study = result.study
    gap = _exact(result, "model", "", "captain_red_minus_black")
    red_home = result.value("model", "red", "home_match_points").value
    red_away = result.value("model", "red", "away_match_points").value
    red_win = result.value("model", "red", "home_win").value
    red_loss = result.value("model", "red", "home_loss").value
    side = _direction(gap)
    grid = sorted(
        result.exact("sensitivity", "captain_red_minus_black"), key=lambda r: r.red_advantage
    )
    sides = {r.red_advantage: _direction(r.value) for r in grid}
    flip = captain_flip(study)
    grid_text = ", ".join(
        f"{a:g} Elo {r.value:+.3f}" for a, r in ((r.red_advantage, r) for r in grid)
    )
    if grid:
        by_side = {
            d: ", ".join(f"{a:g}" for a, x in sides.items() if x == d)
            for d in dict.fromkeys(sides.values())
        }
        named = {"red": "captain Red favoured", "black": "captain Black favoured"}
        listing = "; ".join(f"{named.get(d, 'neither')} at {a} Elo" for d, a in by_side.items())
        robust = (
            f"The same answer at every Red advantage of the grid ({grid_text})"
            if len(by_side) == 1
            else f"Across the Red advantage: {listing} ({grid_text})"
        )
    else:
        robust = "No sensitivity grid was given"
    flip_text = (
        f"; the two colours are worth the same at a Red advantage of {flip:.0f} Elo"
        if flip is not None
        else f"; the colours are never worth the same between {FLIP_RANGE[0]:g} and "
        f"{FLIP_RANGE[1]:g} Elo"
    )
    sims = []
    for e in study.events:
        if "lot" in e.policies:
            sims.append(f"{e.name} {_fmt(result.value(e.name, 'lot', 'captain_red_edge'))}")
    sim_text = (
        " Simulated with colours by lot, the captain-Red side's match points minus the other's: "
        + ", ".join(sims)
        + "."
        + (
            " (Unequal teams average the gap over their strengths.)"
            if any(e.rating_sd > 0 or e.board_sd > 0 for e in study.events)
            else ""
        )
        if sims
        else ""
    )
    verdict = {"red": "captain red favoured", "black": "captain black favoured"}.get(
        side, "no material difference"
    )
    adv = study.model.red_advantage[TimeClass.CLASSICAL]
    rapid = study.model.red_advantage[TimeClass.RAPID]
    return Claim(
        "究竟主将执红的一队有利?还是主将执黑的一队有利?这需要实战的探索 (详解 五)",
        "Which team is favoured, the one whose captain has Red (and three Blacks) or the one "
        "whose captain has Black (and three Reds)?",
        verdict,
        f"Equal teams, Red advantage {adv:.1f} Elo classical and {rapid:.1f} rapid: the "
        f"captain-Red side wins 3 : 0 {_pct(red_win)} and loses 0 : 3 {_pct(red_loss)}, expecting "
        f"{red_home:.3f} match points against {red_away:.3f}, a gap of {gap:+.3f} a match "
        f"(it matters beyond ±{MATTERS:g}). {robust}{flip_text}.{sim_text}",
    )


def league_claims(result: LeagueStudyResult) -> list[Claim]:
    """The seed's question and claims about the league, with verdicts from the figures."""
    found = [_claim_captain(result), _claim_totals(result), _claim_draws(result)]
    return [c for c in found if c is not None]


def _table(rows: Sequence[Sequence[str]]) -> str:
    head, *body = rows
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(lines)


def _setup_lines(study: LeagueStudy) -> list[str]:
    m = study.model
    clocks = ", ".join(
        f"board {i + 1} {c.minutes:g}+{c.increment_seconds:g} ({tc})"
        for i, (c, tc) in enumerate(zip(study.clocks, study.classes, strict=True))
    )
    lines = [
        f"# {study.name}",
        "",
        f"Study file `{study.source}`, seed {study.seed}. Seed 001's team league: four boards, the "
        "captains on board 1; a captain with Red has three team-mates with Black; board points "
        "5 / draw Black 3, Red 2 on board 1 and 3 / draw Black 1.5, Red 1 on the others; 3 : 0 "
        "match points, or 1 : 0.5 when the captains drew and the others went three draws or one "
        "win, one draw, one loss. Ranking: match points; head-to-head; board points; Black wins; "
        f"Red wins; Black draws; Red draws. Clocks: {clocks}. Model: Red advantage "
        f"{m.red_advantage[TimeClass.CLASSICAL]:.1f} Elo classical, "
        f"{m.red_advantage[TimeClass.RAPID]:.1f} rapid; draw_nu "
        f"{m.draw_nu[TimeClass.CLASSICAL]:.3f} classical, {m.draw_nu[TimeClass.RAPID]:.3f} rapid. "
        "Simulated figures are means over seasons ± one standard error; policies are the home "
        "side's choice of its captain's colour (lot: a coin; red, black: always; best: the colour "
        "with more expected match points), compared on the same random numbers.",
        "",
        "Captains and the lot (seed 001, 一.1-2): a team's best player is its declared captain; "
        "when he misses a match (with the event's probability, match by match) the next "
        f"strongest captains it and a reserve joins boards 2-4, at most {MAX_CHANGES} times a "
        "season; a captain missing a match after that forfeits board 1 (a loss; both forfeited: "
        "neither side scores on it). Boards 2-4 are paired by lot (one of six pairings, "
        "uniformly).",
        "",
        "| event | teams | matches a season | seasons | team strength | players around it | "
        "squad | P(captain absent) | policies |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for e in study.events:
        lines.append(
            f"| {e.name} | {e.teams} | {e.matches} | {e.simulations} | "
            f"N({e.rating_mean:g}, {e.rating_sd:g}) | N(0, {e.board_sd:g}) | {e.squad} | "
            f"{e.captain_absence:g} | {', '.join(e.policies)} |"
        )
    return lines


_FIGURES = (
    ("captain_absences", "captain absences a team, a season"),
    ("captain_changes", "captain changes a team, a season"),
    ("captain_forfeits", "board-1 forfeits a team, a season"),
    ("home_win", "home wins 3 : 0"),
    ("home_narrow_win", "home wins 1 : 0.5"),
    ("home_narrow_loss", "home loses 0.5 : 1"),
    ("home_loss", "home loses 0 : 3"),
    ("home_edge", "home minus away, match points"),
    ("captain_red_edge", "captain-Red side minus the other"),
    ("captain_red_share", "home captain had Red"),
    ("strongest_first", "P(strongest team first)"),
    ("spearman_strength", "rank correlation with strength"),
    ("winner_changed_vs_baseline", "winner differs from the baseline's"),
)


def _figure_lines(result: LeagueStudyResult) -> list[str]:
    lines = ["## The seasons", ""]
    for e in result.study.events:
        rows = [["figure", *e.policies]]
        for metric, label in _FIGURES:
            cells = []
            for p in e.policies:
                try:
                    cells.append(_fmt(result.value(e.name, p, metric)))
                except KeyError:
                    cells.append("")
            if any(c not in ("", "n/a") for c in cells):
                rows.append([label, *cells])
        lines += [f"**{e.name}** (baseline {e.policies[0]})", "", _table(rows), ""]
        lines += _home_choice_lines(result, e.name, e.policies)
    return lines


def _beyond(a: LeagueRow, b: LeagueRow) -> bool:
    return abs(a.value - b.value) > SIGNIFICANT_SE * math.hypot(a.se, b.se)


def _home_choice_lines(result: LeagueStudyResult, event: str, policies: Sequence[str]) -> list[str]:
    """What the home side's choice does to the table, in computed sentences."""
    if "best" not in policies or "lot" not in policies:
        return []
    spec = next(e for e in result.study.events if e.name == event)
    home, _ = double_round_robin(spec.teams)
    hosts = {int((home == t).sum()) for t in range(spec.teams)}
    edge = result.value(event, "best", "home_edge")
    share = result.value(event, "best", "captain_red_share")
    parts = [
        f"Choosing well is worth {_fmt(edge)} match points to the home side a match (the home "
        f"captain took Red in {_pct(share.value)} of them); "
        + (
            f"every team is at home in {hosts.pop()} of its matches, so over the double round "
            "robin each team gets the choice equally often."
            if len(hosts) == 1
            else "the teams are at home unequally often."
        )
    ]
    best, lot = (result.value(event, p, "strongest_first") for p in ("best", "lot"))
    if not math.isnan(best.value) and not math.isnan(lot.value):
        moved = _beyond(best, lot)
        parts.append(
            f"The strongest team wins the league {_fmt(best)} with the best choice and "
            f"{_fmt(lot)} by lot: "
            + (
                f"a difference beyond {SIGNIFICANT_SE:g} standard errors."
                if moved
                else f"no difference beyond {SIGNIFICANT_SE:g} standard errors."
            )
        )
    return [" ".join(parts), ""]


def _tiebreak_lines(result: LeagueStudyResult) -> list[str]:
    lines = [
        "## How far down the ranking cascade a season goes",
        "",
        "P(a season's table needs each step after match points) anywhere in the table and for "
        "first place, under each event's baseline policy; 'still tied' counts tables with teams "
        "equal on every criterion (they share a rank).",
        "",
    ]
    rows = [
        [
            "step",
            *(f"{e.name} (table)" for e in result.study.events),
            *(f"{e.name} (title)" for e in result.study.events),
        ]
    ]
    for step in STEPS:
        cells = [STEP_LABELS[step]]
        for prefix in ("reached", "title_reached"):
            for e in result.study.events:
                cells.append(_fmt(result.value(e.name, e.policies[0], f"{prefix}_{step}")))
        rows.append(cells)
    lines += [_table(rows), ""]
    for e in result.study.events:
        h2h = result.value(e.name, e.policies[0], "reached_head_to_head")
        bp = result.value(e.name, e.policies[0], "reached_board_points")
        title = result.value(e.name, e.policies[0], "title_reached_head_to_head")
        lines.append(
            f"{e.name}: teams level on match points in {_pct(h2h.value)} of seasons "
            f"(first place {_pct(title.value)}); head-to-head left a tie for board points in "
            f"{_pct(bp.value)}."
        )
    return [*lines, ""]


def _sensitivity_lines(result: LeagueStudyResult) -> list[str]:
    grid = sorted(
        result.exact("sensitivity", "captain_red_minus_black"), key=lambda r: r.red_advantage
    )
    if not grid:
        return []
    rows = [
        ["Red advantage (Elo)", *(f"{r.red_advantage:g}" for r in grid)],
        ["captain Red minus Black", *(f"{r.value:+.3f}" for r in grid)],
        ["favoured", *(_direction(r.value) for r in grid)],
    ]
    return [
        "## Sensitivity: the uncertain Red advantage",
        "",
        "Equal teams, exact: the captain-Red side's expected match points minus the captain-Black "
        "side's, with the Red advantage set in every time class at once ('neither' within "
        f"±{MATTERS:g}).",
        "",
        _table(rows),
        "",
    ]


def _draw_lines(result: LeagueStudyResult) -> list[str]:
    normal = result.exact("draw-aim", "normal_match_points")
    if not normal:
        return []
    gaps = sorted({r.rating_gap for r in normal})
    rows = [["weaker team's captain", *(f"{g:g} Elo" for g in gaps), "four draws", "pays from"]]
    for colour in ("red", "black"):
        values = {r.rating_gap: r.value for r in normal if r.policy == colour}
        even = result.value("draw-aim", colour, "break_even_gap").value
        rows.append(
            [
                colour,
                *(f"{values[g]:.3f}" for g in gaps),
                f"{_exact_draws(result, colour):g}",
                "never" if math.isnan(even) else f"{even:.0f} Elo",
            ]
        )
    return [
        "## Aiming for draws",
        "",
        "Exact: a team weaker by the gap on every board, its expected match points playing "
        "normally, against the match points of four sure draws.",
        "",
        _table(rows),
        "",
    ]


def league_summary(result: LeagueStudyResult) -> str:
    """The league study's Markdown summary."""
    lines = [*_setup_lines(result.study), "", "## The seed's question and claims", ""]
    for c in league_claims(result):
        lines += [f"- **{c.verdict.upper()}**: {c.claim} ({c.quote})", f"  {c.evidence}", ""]
    lines += _figure_lines(result)
    lines += _tiebreak_lines(result)
    lines += _sensitivity_lines(result)
    lines += _draw_lines(result)
    return "\n".join(lines).rstrip("\n") + "\n"


# --- plots ---------------------------------------------------------------------------------


def _captain_plot(plt: Any, result: LeagueStudyResult, path: Path) -> Path | None:
    grid = sorted(
        result.exact("sensitivity", "captain_red_minus_black"), key=lambda r: r.red_advantage
    )
    if len(grid) < 2:
        return None
    study = result.study
    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs = [r.red_advantage for r in grid]
    ax.axhspan(-MATTERS, MATTERS, color="grey", alpha=0.15, label=f"within ±{MATTERS:g} (neither)")
    ax.plot(xs, [r.value for r in grid], "-o", label="exact, equal teams")
    adv = study.model.red_advantage[TimeClass.CLASSICAL]
    gap = _exact(result, "model", "", "captain_red_minus_black")
    ax.scatter([adv], [gap], color="black", zorder=3, label=f"the model ({adv:.1f} Elo)")
    for i, e in enumerate(e for e in study.events if "lot" in e.policies):
        row = result.value(e.name, "lot", "captain_red_edge")
        ax.errorbar(
            [adv + 4 * (i + 1)],
            [row.value],
            yerr=[2 * row.se],
            fmt="s",
            capsize=3,
            label=f"simulated by lot, {e.name} (± 2 SE)",
        )
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("Red advantage, every time class (Elo)")
    ax.set_ylabel("match points a match")
    ax.set_title("Captain-Red side's expected match points minus the captain-Black side's")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _draws_plot(plt: Any, result: LeagueStudyResult, path: Path) -> Path | None:
    normal = result.exact("draw-aim", "normal_match_points")
    if len({r.rating_gap for r in normal}) < 2:
        return None
    fig, ax = plt.subplots(figsize=(8, 4.5))
    colours = {"red": "tab:red", "black": "black"}
    for colour, line in colours.items():
        pts = sorted((r.rating_gap, r.value) for r in normal if r.policy == colour)
        ax.plot(
            [g for g, _ in pts],
            [v for _, v in pts],
            "-o",
            color=line,
            label=f"captain {colour}: playing normally",
        )
        draws = _exact_draws(result, colour)
        ax.axhline(
            draws,
            color=line,
            linestyle="--",
            linewidth=1,
            label=f"captain {colour}: four sure draws ({draws:g})",
        )
        even = result.value("draw-aim", colour, "break_even_gap").value
        if not math.isnan(even) and even <= pts[-1][0]:
            ax.axvline(even, color=line, linestyle=":", linewidth=1)
            ax.annotate(
                f"{even:.0f} Elo",
                (even, draws),
                textcoords="offset points",
                xytext=(4, 6),
                fontsize=8,
                color=line,
            )
    ax.set_xlabel("rating gap on every board (Elo)")
    ax.set_ylabel("the weaker team's expected match points")
    ax.set_title("Aiming for draws: four sure draws against playing normally")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _policy_plot(plt: Any, result: LeagueStudyResult, path: Path) -> Path:
    events = result.study.events
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
    for ax, metric, title in (
        (axes[0], "strongest_first", "P(the strongest team wins the league)"),
        (axes[1], "home_edge", "Home minus away match points, a match"),
    ):
        width = 0.8 / len(events)
        policies = list(dict.fromkeys(p for e in events for p in e.policies))
        for i, e in enumerate(events):
            rows = [result.value(e.name, p, metric) if p in e.policies else None for p in policies]
            x = [j + (i - (len(events) - 1) / 2) * width for j in range(len(policies))]
            vals = [math.nan if r is None else r.value for r in rows]
            errs = [0.0 if r is None or math.isnan(r.se) else 2 * r.se for r in rows]
            if all(math.isnan(v) for v in vals):
                continue
            ax.bar(x, vals, width, yerr=errs, capsize=2, label=e.name)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xticks(range(len(policies)), policies)
        ax.set_xlabel("home side's captain colour")
        ax.set_title(f"{title} (± 2 SE)", fontsize=10)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _tiebreak_plot(plt: Any, result: LeagueStudyResult, path: Path) -> Path:
    events = result.study.events
    fig, ax = plt.subplots(figsize=(9, 4.5))
    series = [(e, prefix) for e in events for prefix in ("reached", "title_reached")]
    width = 0.8 / len(series)
    for i, (e, prefix) in enumerate(series):
        rows = [result.value(e.name, e.policies[0], f"{prefix}_{s}") for s in STEPS]
        x = [j + (i - (len(series) - 1) / 2) * width for j in range(len(STEPS))]
        where = "anywhere" if prefix == "reached" else "first place"
        ax.bar(
            x,
            [r.value for r in rows],
            width,
            yerr=[2 * r.se for r in rows],
            capsize=2,
            label=f"{e.name}, {where}",
        )
    ax.set_xticks(range(len(STEPS)), [STEP_LABELS[s] for s in STEPS], rotation=15)
    ax.set_ylabel("share of seasons")
    ax.set_title("P(the ranking needs this step after match points) (± 2 SE)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def write_league_plots(result: LeagueStudyResult, out: Path) -> list[Path]:
    """PNG plots (matplotlib): captain colour, draws, policies, tie-break steps."""
    import matplotlib  # noqa: PLC0415  (loaded only to plot)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 (start-up: matplotlib, loaded to plot)

    drawn = [
        _captain_plot(plt, result, out / "league-captain-colour.png"),
        _draws_plot(plt, result, out / "league-draws.png"),
        _policy_plot(plt, result, out / "league-policies.png"),
        _tiebreak_plot(plt, result, out / "league-tiebreaks.png"),
    ]
    return [p for p in drawn if p is not None]


def league_files(result: LeagueStudyResult) -> StudyFiles:
    """The league study's outputs in the shape every study writes."""
    study = result.study
    document = {
        "version": __version__,
        "study": study.name,
        "source": study.source,
        "seed": study.seed,
        "claims": [vars(c) for c in league_claims(result)],
        "rows": [dict(zip(LEAGUE_CSV_COLUMNS, r.to_csv(), strict=True)) for r in result.rows],
    }
    return StudyFiles(
        LEAGUE_CSV_COLUMNS,
        [r.to_csv() for r in result.rows],
        document,
        [partial(write_league_plots, result)],
        league_summary(result),
    )


def write_league_outputs(result: LeagueStudyResult, out: Path) -> list[Path]:
    """Write ``results.csv``, ``results.json``, the PNG plots and ``summary.md`` into ``out``."""
    return write_study(league_files(result), out)
