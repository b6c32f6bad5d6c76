"""What ``knockout design`` writes: the tidy CSV and JSON of every format evaluated, the Pareto
front as a PNG, a summary computed from the numbers, and the best format per budget as a
scenario file that ``odds``, ``compare`` and organiser mode read.

Every sentence of the summary is computed from the figures it reports; its verdicts use the
thresholds named here (:data:`MEANINGFUL_GAIN`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from knockout.event.toml import dumps
from knockout.i18n import _, ngettext
from knockout.io.envelope import envelope
from knockout.rules.scenario.format_tables import format_to_dict
from knockout.studies.design import (
    OBJECTIVE_DECIMALS,
    Design,
    DesignResult,
    Scored,
    score_formats,
)
from knockout.studies.output import StudyFiles, write_study
from knockout.studies.plots import pyplot, save

__all__ = [
    "MEANINGFUL_GAIN",
    "USUAL_EDGE_LINE",
    "design_document",
    "design_files",
    "scenario_name",
    "summary_markdown",
    "write_design",
]

#: Up to this many formats results.json is indented for reading; beyond, it is one line.
READABLE_FORMATS = 2000
#: A gain in the objective (a probability) below this is not called an improvement: half a
#: point of P(the stronger player advances).
MEANINGFUL_GAIN = 0.005


def _number(x: float | None) -> float | None:
    """A figure for JSON: None for NaN and infinities (a stage that repeats without a cap)."""
    if x is None or not math.isfinite(x):
        return None
    return x


def _entry(design: Design, s: Scored) -> dict[str, Any]:
    """A front entry: exactly the issue's keys."""
    return {
        "format": format_to_dict(design.candidates[s.index].format),
        "objective": s.objective,
        "expected_minutes": s.expected_minutes,
        "decider_edge": s.decider_edge,
        "max_minutes": _number(s.max_minutes),
    }


def _best_entry(
    design: Design, s: Scored, budget: float | None, file: str | None
) -> dict[str, Any]:
    return _entry(design, s) | {
        "label": design.candidates[s.index].label,
        "budget": budget,
        "p99_minutes": _number(s.p99_minutes),
        "decider_reached": s.decider_reached,
        "expected_games": s.expected_games,
        "stronger_advances": {f"{g:g}": p for g, p in s.stronger_advances.items()},
        "models": s.per_model,
        "scenario": file,
    }


def scenario_name(budget: float | None) -> str:
    """The file the best format within ``budget`` is written to."""
    return "best.toml" if budget is None else f"best-{budget:g}-min.toml"


def design_document(result: DesignResult, *, files: bool = True) -> dict[str, Any]:
    """``{"version", "design", "evaluated", "feasible", "front", "best", "scenario"}``:
    ``scenario`` is the base scenario resolved (every default filled in, as in ``odds
    --json``); ``per_budget`` with several budgets (``best`` is the first one's),
    ``interrupted`` when the run was stopped."""
    design = result.design
    scored = result.scored
    best = [
        _best_entry(design, scored[i], b, scenario_name(b) if files else None)
        for b, i in result.best
    ]
    out: dict[str, Any] = {
        "design": design.table,
        "evaluated": result.evaluated,
        "feasible": result.feasible,
        "front": [_entry(design, scored[i]) for i in result.front],
        "best": best[0] if best else None,
    }
    if len(design.constraints.budgets) > 1:
        out["per_budget"] = best
    if result.interrupted:
        out["interrupted"] = True
    return envelope(out, scenario=design.scenario.to_dict())


def _rows(result: DesignResult) -> tuple[list[str], list[list[Any]]]:
    design = result.design
    gaps = design.objective.gaps
    header = [
        "id",
        *design.dimensions,
        "model",
        "objective",
        *(f"stronger_advances_{g:g}" for g in gaps),
        "expected_minutes",
        "expected_games",
        "decider_edge",
        "decider_reached",
        "max_minutes",
        "p99_minutes",
        "feasible",
        "on_front",
    ]
    front = set(result.front)
    several = len(design.models) > 1
    rows: list[list[Any]] = []
    for pos, s in enumerate(result.scored):
        c = design.candidates[s.index]
        head = [s.index, *(c.values.get(d) for d in design.dimensions)]
        for name, figures in s.per_model.items():
            rows.append(
                [
                    *head,
                    name,
                    figures["objective"],
                    *(figures["stronger_advances"][f"{g:g}"] for g in gaps),
                    figures["expected_minutes"],
                    figures["expected_games"],
                    figures["decider_edge"],
                    figures["decider_reached"],
                    s.max_minutes,
                    figures["p99_minutes"],
                    None if several else s.feasible,
                    None if several else pos in front,
                ]
            )
        if several:
            rows.append(
                [
                    *head,
                    "worst case" if design.rank == "worst" else "mean",
                    s.objective,
                    *(s.stronger_advances[g] for g in gaps),
                    s.expected_minutes,
                    s.expected_games,
                    s.decider_edge,
                    s.decider_reached,
                    s.max_minutes,
                    s.p99_minutes,
                    s.feasible,
                    pos in front,
                ]
            )
    return header, rows


def _document(result: DesignResult) -> dict[str, Any]:
    """The results file: the JSON answer plus every format evaluated."""
    design = result.design
    out = design_document(result)
    front = set(result.front)
    out["formats"] = [
        {
            "id": s.index,
            "label": design.candidates[s.index].label,
            "space": design.candidates[s.index].values,
            "objective": s.objective,
            "expected_minutes": s.expected_minutes,
            "expected_games": s.expected_games,
            "decider_edge": s.decider_edge,
            "decider_reached": s.decider_reached,
            "max_minutes": _number(s.max_minutes),
            "p99_minutes": _number(s.p99_minutes),
            "fails": list(s.fails),
            "feasible": s.feasible,
            "on_front": pos in front,
        }
        for pos, s in enumerate(result.scored)
    ]
    out["seconds"] = result.seconds
    out["scenario"] = out.pop("scenario")  # last, as in every output
    return out


def _points(p: float) -> str:
    """A probability in points (1 point = 0.01)."""
    return ngettext("{n:g} point", "{n:g} points", 1 if 100 * p == 1 else 2).format(n=100 * p)


def _pct(p: float) -> str:
    return f"{100 * p:.2f} %"


def _value(design: Design, x: float) -> str:
    """An objective as the summary writes it."""
    if design.objective.kind in ("stronger_advances", "top_seed_wins"):
        return _pct(x)
    return f"{x:.2f}"


def _gain(design: Design, gain: float) -> str:
    if design.objective.kind in ("stronger_advances", "top_seed_wins"):
        return _("{points:+.2f} points").format(points=100 * gain)
    return f"{gain:+.3f}"


def _edge(edge: float | None) -> str:
    if edge is None:
        return _("none (no single deciding game)")
    return _("{points:+.2f} points").format(points=100 * edge)


def _minutes(x: float) -> str:
    if not math.isfinite(x):
        return _("unbounded (a stage repeats until won)")
    return _("{minutes:.0f} min").format(minutes=x)


def _constraint_lines(result: DesignResult) -> list[str]:
    design = result.design
    c = design.constraints
    scored = result.scored
    lines = []
    bounds: list[tuple[str, float | None, Callable[[float], str]]] = [
        (
            "decider_edge",
            c.decider_edge,
            lambda b: _("|decider edge| <= {points}").format(points=_points(b)),
        ),
        ("max_minutes", c.max_minutes, lambda b: _("longest match <= {b:g} min").format(b=b)),
        (
            "p99_minutes",
            c.p99_minutes,
            lambda b: _("99th percentile of its length <= {b:g} min").format(b=b),
        ),
        (
            "decider_reached",
            c.decider_reached,
            lambda b: _("P(decider reached) <= {share}").format(share=_pct(b)),
        ),
    ]
    for name, bound, words in bounds:
        if bound is None:
            continue
        failing = sum(name in s.fails for s in scored)
        lines.append(
            _("- {bound}: {failing} of {n} formats fail it.").format(
                bound=words(bound), failing=failing, n=len(scored)
            )
        )
    for budget in c.budgets:
        over = sum(s.expected_minutes > budget for s in scored)
        lines.append(
            _("- expected minutes <= {budget:g}: {over} of {n} formats need more.").format(
                budget=budget, over=over, n=len(scored)
            )
        )
    return lines or [_("- none besides the space itself.")]


def _best_lines(result: DesignResult, reference: Scored | None) -> list[str]:
    design = result.design
    maximise = design.objective.maximise
    lines = []
    for budget, i in result.best:
        s = result.scored[i]
        within = (
            _("overall")
            if budget is None
            else _("within {budget:g} expected minutes").format(budget=budget)
        )
        lines.append(
            _(
                "- **Best {within}: {label}**: {value}, {minutes:.1f} expected minutes, decider "
                "edge {edge}, longest match {longest} (99 % of matches within {p99}, every game "
                "on full clocks); written to `{file}`."
            ).format(
                within=within,
                label=design.candidates[s.index].label,
                value=_value(design, s.objective),
                minutes=s.expected_minutes,
                edge=_edge(s.decider_edge),
                longest=_minutes(s.max_minutes),
                p99=_minutes(s.p99_minutes),
                file=scenario_name(budget),
            )
        )
        if reference is not None:
            gain = (s.objective - reference.objective) * (1 if maximise else -1)
            extra = s.expected_minutes - reference.expected_minutes
            lines.append(
                _("  {against}, for {extra:+.1f} minutes.").format(
                    against=_against(design, gain), extra=extra
                )
            )
        edge = _edge_line(design, s)
        if edge is not None:
            lines.append(edge)
    return lines


def _against(design: Design, gain: float) -> str:
    """The best format against the scenario's own, judged by :data:`MEANINGFUL_GAIN`."""
    probability = design.objective.kind in ("stronger_advances", "top_seed_wins")
    line = (
        _("{points:g} points").format(points=100 * MEANINGFUL_GAIN)
        if probability
        else f"{MEANINGFUL_GAIN:g}"
    )
    size = _gain(design, abs(gain)).lstrip("+")
    if gain >= MEANINGFUL_GAIN:
        return _(
            "Against the scenario's own format it gains {size} (at least the {line} line)"
        ).format(size=size, line=line)
    if gain <= -MEANINGFUL_GAIN:
        return _("It falls {size} short of the scenario's own format").format(size=size)
    return _("It is within {line} of the scenario's own format (no meaningful difference)").format(
        line=line
    )


def _front_lines(result: DesignResult) -> list[str]:
    design = result.design
    front = [result.scored[i] for i in result.front]
    if not front:
        return [_("No format meets the constraints other than the budget.")]
    first, last = front[0], front[-1]
    lines = [
        _(
            "The front has {n} formats, from {first:.0f} minutes ({first_value}) to {last:.0f} "
            "minutes ({last_value})."
        ).format(
            n=len(front),
            first=first.expected_minutes,
            first_value=_value(design, first.objective),
            last=last.expected_minutes,
            last_value=_value(design, last.objective),
        )
        if len(front) > 1
        else _(
            "The front is one format: {first:.0f} minutes ({first_value}); no other is as good "
            "in as few minutes."
        ).format(first=first.expected_minutes, first_value=_value(design, first.objective))
    ]
    if len(front) > 1 and last.expected_minutes > first.expected_minutes:
        per_hour = (last.objective - first.objective) / (
            (last.expected_minutes - first.expected_minutes) / 60
        )
        lines.append(
            _("Along it an hour more buys {gain} on average.").format(gain=_gain(design, per_hour))
        )
    bests = [(b, result.scored[i]) for b, i in result.best if b is not None]
    for (b0, s0), (b1, s1) in itertools.pairwise(bests):
        extra = s1.expected_minutes - s0.expected_minutes
        if extra > 0:
            lines.append(
                _(
                    "From the best within {b0:g} minutes to the best within {b1:g}, {extra:.1f} "
                    "more minutes buy {gain} ({per_hour} an hour)."
                ).format(
                    b0=b0,
                    b1=b1,
                    extra=extra,
                    gain=_gain(design, s1.objective - s0.objective),
                    per_hour=_gain(design, (s1.objective - s0.objective) / (extra / 60)),
                )
            )
    rows = [
        _("| expected minutes | objective | decider edge | longest | format |"),
        "|---|---|---|---|---|",
    ]
    for s in front:
        rows.append(
            f"| {s.expected_minutes:.1f} | {_value(design, s.objective)} | {_edge(s.decider_edge)} "
            f"| {_minutes(s.max_minutes)} | {design.candidates[s.index].label} |"
        )
    return [*lines, "", *rows]


def _robust_lines(result: DesignResult) -> list[str]:
    """How the first best format fares under each model, and under how many of them it is
    also the best among the formats that meet every constraint within the same budget (the
    comparison that can come out either way: without the budget the longest format wins
    under every model)."""
    design = result.design
    if len(design.models) < 2 or not result.best:
        return []
    budget, i = result.best[0]
    s = result.scored[i]
    values = {name: f["objective"] for name, f in s.per_model.items()}
    low = min(values, key=values.__getitem__)
    high = max(values, key=values.__getitem__)
    sign = 1 if design.objective.maximise else -1
    feasible = [
        t for t in result.scored if not t.fails and (budget is None or t.expected_minutes <= budget)
    ]
    agree = []
    preferred: dict[int, list[tuple[str, float]]] = {}
    for name, value in values.items():
        own = max(feasible, key=lambda t: t.per_model[name]["objective"] * sign)
        gain = (own.per_model[name]["objective"] - value) * sign
        if gain <= 10.0**-OBJECTIVE_DECIMALS:
            agree.append(name)
        else:
            preferred.setdefault(own.index, []).append((name, gain))
    ranked = (
        _(
            "Ranked by the worst case over {n} models ({names}). The first best format's "
            "objective runs from {low_value} ({low}) to {high_value} ({high})."
        )
        if design.rank == "worst"
        else _(
            "Ranked by the mean over {n} models ({names}). The first best format's objective "
            "runs from {low_value} ({low}) to {high_value} ({high})."
        )
    ).format(
        n=len(values),
        names=_(", ").join(values),
        low_value=_value(design, values[low]),
        low=low,
        high_value=_value(design, values[high]),
        high=high,
    )
    among = (
        _(
            "Among the {count} formats that meet every constraint, it is also the best under "
            "{agree} of the {n} models taken one at a time"
        )
        if budget is None
        else _(
            "Among the {count} formats that meet every constraint within {budget:g} expected "
            "minutes, it is also the best under {agree} of the {n} models taken one at a time"
        )
    ).format(count=len(feasible), budget=budget or 0.0, agree=len(agree), n=len(values))
    return ["", _("## Across the models"), "", f"{ranked} {among}{_others(design, preferred)}"]


def _others(design: Design, preferred: dict[int, list[tuple[str, float]]]) -> str:
    """What the other models prefer, by how much, against :data:`MEANINGFUL_GAIN` (the end
    of the robustness sentence)."""
    if not preferred:
        return "."
    parts = []
    for index, who in preferred.items():
        names = [n for n, _gain_of in who]
        gains = sorted(g for _name, g in who)
        low_gain, high_gain = _gain(design, gains[0]), _gain(design, gains[-1])
        by = low_gain if low_gain == high_gain else f"{low_gain} to {high_gain}"
        listed = names[0] if len(names) == 1 else _(", ").join(names[:-1]) + _(" and ") + names[-1]
        parts.append(
            (
                _("{models} prefers {label} (by {by})")
                if len(names) == 1
                else _("{models} prefer {label} (by {by})")
            ).format(models=listed, label=design.candidates[index].label, by=by)
        )
    largest = max(g for who in preferred.values() for _name, g in who)
    probability = design.objective.kind in ("stronger_advances", "top_seed_wins")
    line = (
        _("{points:g} points").format(points=100 * MEANINGFUL_GAIN)
        if probability
        else f"{MEANINGFUL_GAIN:g}"
    )
    tail = (
        _(", each below the {line} line of a meaningful gain.").format(line=line)
        if largest < MEANINGFUL_GAIN
        else _(", up to {gain}, past the {line} line of a meaningful gain.").format(
            gain=_gain(design, largest), line=line
        )
    )
    return _("; under the others: {parts}").format(parts=_("; ").join(parts)) + tail


#: The committee's usual line for the decider's edge: one point (the bound the bundled design,
#: scenarios/designs/day.toml, sets). A design without a ``decider_edge`` constraint is told
#: when its best format passes it.
USUAL_EDGE_LINE = 0.01


def _edge_line(design: Design, s: Scored) -> str | None:
    """Without a ``decider_edge`` constraint: whether the best format's decider edge passes
    :data:`USUAL_EDGE_LINE` (None where the format has no single deciding game, or a bound
    was set: then the constraint has said it)."""
    if design.constraints.decider_edge is not None or s.decider_edge is None:
        return None
    edge = s.decider_edge
    line = _points(USUAL_EDGE_LINE)
    if abs(edge) <= USUAL_EDGE_LINE:
        return _("  Its decider edge, {edge}, is within the committee's usual {line} line.").format(
            edge=_edge(edge), line=line
        )
    return _(
        "  Its decider edge, {edge}, passes the committee's usual {line} line (|decider edge| "
        "<= {line}): the last stage's decision hands the side it favours that much; no "
        "decider_edge bound was set (add decider_edge = {bound:g} under [constraints] to rule "
        "such formats out)."
    ).format(edge=_edge(edge), line=line, bound=USUAL_EDGE_LINE)


def _most_refused(design: Design) -> str:
    """The commonest reason a combination is not a playable format, if any."""
    if not design.refused:
        return ""
    reason, count = max(design.refused.items(), key=lambda kv: kv[1])
    share = _("all") if count == sum(design.refused.values()) else f"{count}"
    return _(" ({share} of them: {reason})").format(share=share, reason=reason)


def summary_markdown(result: DesignResult, reference: Scored | None) -> str:
    """The summary, every sentence computed from the figures."""
    design = result.design
    models = len(design.models)
    refused = sum(design.refused.values())
    duplicates = design.combinations - refused - len(design.candidates)
    interrupted = (
        _(" **Interrupted**: {done} of {n} formats finished.").format(
            done=result.evaluated, n=len(design.candidates)
        )
        if result.interrupted
        else ""
    )
    head = [
        f"# {design.name}",
        "",
        ngettext(
            "Objective: {objective}, under the strategy and model of `{scenario}`. "
            "{combinations} combinations of the space: {refused} not playable{why}, "
            "{duplicates} duplicates; {formats} formats, {evaluated} evaluated under {models} "
            "model in {seconds:.1f} s; {feasible} meet every constraint.{interrupted}",
            "Objective: {objective}, under the strategy and model of `{scenario}`. "
            "{combinations} combinations of the space: {refused} not playable{why}, "
            "{duplicates} duplicates; {formats} formats, {evaluated} evaluated under {models} "
            "models in {seconds:.1f} s; {feasible} meet every constraint.{interrupted}",
            models,
        ).format(
            objective=design.objective.describe(),
            scenario=design.scenario_path,
            combinations=design.combinations,
            refused=refused,
            why=_most_refused(design),
            duplicates=duplicates,
            formats=len(design.candidates),
            evaluated=result.evaluated,
            models=models,
            seconds=result.seconds,
            feasible=result.feasible,
            interrupted=interrupted,
        ),
    ]
    if reference is not None:
        how = ""
        if models > 1:
            how = (
                _(" (worst case over the {n} models)")
                if design.rank == "worst"
                else _(" (mean over the {n} models)")
            ).format(n=models)
        head += [
            "",
            _(
                "The scenario's own format{how}: {value}, {minutes:.1f} expected minutes, decider "
                "edge {edge}."
            ).format(
                how=how,
                value=_value(design, reference.objective),
                minutes=reference.expected_minutes,
                edge=_edge(reference.decider_edge),
            ),
        ]
    return (
        "\n".join(
            [
                *head,
                "",
                _("## Constraints"),
                "",
                *_constraint_lines(result),
                "",
                _("## Best formats"),
                "",
                *(_best_lines(result, reference) or [_("No format finished.")]),
                "",
                _("## The front (objective against expected minutes)"),
                "",
                *_front_lines(result),
                *_robust_lines(result),
                "",
                _("## Plots"),
                "",
                _(
                    "- `front.png`: every format's objective against its expected minutes; the "
                    "front as a line, formats failing a constraint other than the budget in grey, "
                    "each budget a dashed line, the best format within it a star."
                ),
            ]
        )
        + "\n"
    )


def _axis_label(design: Design) -> str:
    """The objective as a plot's axis says it."""
    if design.objective.kind == "stronger_advances":
        gaps = _(", ").join(f"{g:g}" for g in design.objective.gaps)
        return _("P(stronger advances), {gaps} Elo apart").format(gaps=gaps)
    return {
        "top_seed_wins": _("P(top seed wins)"),
        "champion_rating": _("champion's expected rating"),
        "champion_seed": _("champion's expected seed"),
    }[design.objective.kind]


def _failing_words(design: Design, names: Sequence[str]) -> str:
    """The constraints other than the budget, as a legend says them."""
    c = design.constraints
    words = {
        "decider_edge": lambda: _("|decider edge| <= {points}").format(
            points=_points(c.decider_edge or 0.0)
        ),
        "max_minutes": lambda: _("longest match <= {b:g} min").format(b=c.max_minutes),
        "p99_minutes": lambda: _("99th percentile <= {b:g} min").format(b=c.p99_minutes),
        "decider_reached": lambda: _("P(decider reached) <= {share}").format(
            share=_pct(c.decider_reached or 0.0)
        ),
    }
    return _("fails {constraints}").format(constraints=_(" or ").join(words[n]() for n in names))


def _front_plot(result: DesignResult, path: Path) -> Path:
    design = result.design
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 6.2))
    scale = 100 if design.objective.kind in ("stronger_advances", "top_seed_wins") else 1
    ok = [s for s in result.scored if not s.fails]
    bad = [s for s in result.scored if s.fails]
    if bad:
        names = sorted({f for s in bad for f in s.fails})
        ax.scatter(
            [s.expected_minutes for s in bad],
            [scale * s.objective for s in bad],
            s=10,
            color="0.7",
            marker="x",
            linewidths=0.7,
            label=_failing_words(design, names),
        )
    ax.scatter(
        [s.expected_minutes for s in ok],
        [scale * s.objective for s in ok],
        s=10,
        color="tab:blue",
        alpha=0.5,
        label=_("meets them") if bad else _("every format"),
    )
    front = [result.scored[i] for i in result.front]
    ax.step(
        [s.expected_minutes for s in front],
        [scale * s.objective for s in front],
        where="post",
        color="tab:red",
        linewidth=1.4,
        label=_("the front"),
    )
    notes = []
    for k, (budget, i) in enumerate(result.best):
        s = result.scored[i]
        mark = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[k % 26]
        if budget is not None:
            ax.axvline(budget, color="black", linestyle="--", linewidth=0.9)
            ax.annotate(
                _("{budget:g} min").format(budget=budget),
                (budget, 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(3, -12),
                textcoords="offset points",
                fontsize=8,
            )
        ax.plot(
            s.expected_minutes,
            scale * s.objective,
            marker="*",
            markersize=15,
            color="gold",
            markeredgecolor="black",
            linestyle="none",
        )
        ax.annotate(
            mark,
            (s.expected_minutes, scale * s.objective),
            textcoords="offset points",
            xytext=(-6, 8),
            ha="right",
            fontsize=9,
        )
        within = (
            _("best") if budget is None else _("best within {budget:g} min").format(budget=budget)
        )
        notes.append(f"{mark} ({within}): {design.candidates[s.index].label}")
    unit = " (%)" if scale == 100 else ""
    ax.set_xlabel(_("expected playing minutes, equal players"))
    ax.set_ylabel(f"{_axis_label(design)}{unit}")
    models = ""
    if len(design.models) > 1:
        models = (
            _(", worst case over {n} models")
            if design.rank == "worst"
            else _(", mean over {n} models")
        ).format(n=len(design.models))
    title = _("{name}\n{n} formats{models}").format(
        name=design.name, n=result.evaluated, models=models
    )
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout(rect=(0, 0.04 * len(notes), 1, 1))
    for k, note in enumerate(notes):
        fig.text(0.01, 0.04 * (len(notes) - k) - 0.03, note, fontsize=8)
    return save(fig, path)


def design_files(result: DesignResult, *, reference: bool = True) -> StudyFiles:
    """The study files of a design run (the scenario files are written beside them);
    ``reference=False`` leaves out the scenario's own format (a pilot's)."""
    design = result.design
    own = design.scenario.format
    scored = None
    if reference and not result.interrupted:
        scored = score_formats(design, [own])[0]
    header, rows = _rows(result)
    return StudyFiles(
        header=header,
        rows=rows,
        document=_document(result),
        plots=[lambda out: [_front_plot(result, out / "front.png")]] if result.scored else [],
        summary=summary_markdown(result, scored),
        indent=2 if result.evaluated <= READABLE_FORMATS else None,
    )


def write_design(result: DesignResult, out: Path) -> list[Path]:
    """Write the study files and the best format per budget as scenario files into ``out``."""
    written = write_study(design_files(result), out)
    design = result.design
    base = design.scenario.to_dict()
    for budget, i in result.best:
        s = result.scored[i]
        c = design.candidates[s.index]
        within = "" if budget is None else f" within {budget:g} expected minutes"
        data = base | {
            "name": f"{design.scenario.name}: the best format{within} ({design.name})",
            "format": format_to_dict(c.format),
        }
        path = out / scenario_name(budget)
        path.write_text(
            dumps(
                data,
                header=[
                    f"knockout design {design.source}: the best format{within}:",
                    f"{c.label}; objective {s.objective:.6f}, {s.expected_minutes:.1f} expected "
                    "minutes.",
                ],
            ),
            encoding="utf-8",
        )
        written.insert(-1, path)
    return written
