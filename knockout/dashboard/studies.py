"""Rich views of the rule-designer studies: format comparisons, fair rules, sweeps."""

from __future__ import annotations

from rich import box
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from knockout.dashboard.match import pct
from knockout.dashboard.spread import interval_caption, percent_interval, points_interval
from knockout.i18n import N_, _, pgettext
from knockout.i18n.terms import stage_label
from knockout.rules.model.sd import Spread
from knockout.studies.compare import Comparison
from knockout.studies.equilibrium import EquilibriumReport
from knockout.studies.fair import FairClockSpread, FairRules
from knockout.studies.fair_report import clock_interval, how_sure

__all__ = ["comparison_view", "equilibrium_view", "fair_view"]

#: Labels of the interval captions (translated where shown).
UNDER_EACH_NUMBER = N_("Under each number")
UNDER_A_NUMBER = N_("Under a number, or in [a, b]")
IT = N_("it")
#: The menus a fair-rules study compares.
MENU_NAMES = {"seed_menu": N_("seed menu"), "fair_menu": N_("fair menu")}


def _ends(intervals: list[list[float | None]]) -> str:
    if not intervals:
        return _("never")
    parts = []
    for lo, hi in intervals:
        left = "-inf" if lo is None else f"{lo:.1f}"
        right = "inf" if hi is None else f"{hi:.1f}"
        parts.append(f"[{left}, {right})")
    return " ∪ ".join(parts)


def equilibrium_view(r: EquilibriumReport) -> RenderableType:
    """The equilibria (thresholds or tables), P(advance) under each kind, exploitability."""
    names = [p.name for p in r.scenario.players]
    parts: list[RenderableType] = [
        Text(
            _("{scenario}: {rule}, belief_sd {belief_sd:g} Elo").format(
                scenario=r.scenario.name, rule=r.rule, belief_sd=r.scenario.belief_sd
            ),
            style="bold",
        )
    ]
    for i, eq in enumerate(r.equilibria, 1):
        st = eq["strategies"]
        t = Table(
            title=_("equilibrium {number}").format(number=i),
            title_justify="left",
            box=box.SIMPLE_HEAD,
        )
        if "estimate" in st:
            key = "bid" if "bid" in st else "cut"
            t.add_column(_("own estimate (Elo)"), justify="right")
            t.add_column(_("bid (min)") if key == "bid" else _("cut (min)"), justify="right")
            for e, v in zip(st["estimate"], st[key], strict=True):
                t.add_row(f"{e:+.0f}", f"{v:.2f}")
        else:
            t.add_column(_("decision"))
            t.add_column(_("where (the decider's estimate, Elo)"))
            for key, intervals in st.items():
                t.add_row(key, _ends(intervals))
        parts.append(t)
        ca = eq["chooser_advances"]
        u = r.model_uncertainty if i == 1 else None
        at = f"equilibria.{i - 1}."
        line = _(", ").join(
            f"{n} {pct(eq['win'][n], 2)}" + _space(percent_interval(u, f"{at}win.{n}", 2))
            for n in names
        )
        parts.append(
            Text(
                _("P(advance): {line}").format(line=line)
                + (
                    ""
                    if ca is None
                    else _("; P(甲 advances | reached) {share}").format(share=pct(ca, 2))
                    + _space(percent_interval(u, f"{at}chooser_advances", 2))
                )
            )
        )
    t = Table(title=_("each way of playing"), title_justify="left", box=box.SIMPLE_HEAD)
    t.add_column(_("strategy"))
    for n in names:
        t.add_column(f"P({n})", justify="right")
    t.add_column(_("exploitable by"), justify="right")
    t.add_column(_("gain"), justify="right")
    u = r.model_uncertainty
    for kind, gain in r.exploitability.items():
        win = r.win_by_kind[kind]
        t.add_row(
            kind,
            *(
                _with_band(pct(win[n], 2), percent_interval(u, f"win_by_kind.{kind}.{n}", 2))
                for n in names
            ),
            gain["by"] or "-",
            f"{gain['gain']:.2e}",
        )
    parts.append(t)
    parts.append(Text(_("gains: fractions of the whole match's P(advance)")))
    if u is not None:
        parts.append(Text(interval_caption(u, N_("Under a P(...), or in [a, b]"), IT), style="dim"))
    parts += [Text(n) for n in r.notes]
    parts.append(Text(_("solved in {seconds:.1f} s").format(seconds=r.seconds)))
    return Group(*parts)


def _space(band: str) -> str:
    return f" {band}" if band else ""


def _signed(p: float | None) -> str:
    return "-" if p is None else f"{100 * p:+.2f}"


def _band(spread: Spread | None, path: str, fmt: str, scale: float = 1.0) -> str:
    """A compact interval for a two-line cell (``56-60``, ``-6.2..+13.7``)."""
    found = None if spread is None else spread.get(path)
    if found is None:
        return ""
    lo, hi = scale * found.q025, scale * found.q975
    sep = ".." if "+" in fmt else "-"
    return f"{lo:{fmt}}{sep}{hi:{fmt}}"


def _with_band(value: str, band: str) -> str:
    return value if not band else f"{value}\n{band}"


def comparison_view(c: Comparison, title: str) -> RenderableType:
    """One row per format: P(stronger advances) per gap, then the equal-players figures; with
    uncertain constants each number's central 95 % interval under it."""
    u = c.model_uncertainty

    def cells(i: int) -> list[str]:
        r = c.rows[i]
        at = f"rows.{r.format}."
        return [
            r.format + ("*" if r.format in c.without_sd else ""),
            *(
                _with_band(pct(r.stronger_advances[g], 1),
                           _band(u, f"{at}stronger_advances.{g:g}", ".0f", 100))
                for g in c.gaps
            ),
            _with_band(_signed(r.decider_edge), _band(u, f"{at}decider_edge", "+.0f", 100)),
            _with_band(pct(r.decider_reached, 1), _band(u, f"{at}decider_reached", ".0f", 100)),
            _with_band(f"{r.expected_games:.2f}", _band(u, f"{at}expected_games", ".1f")),
            _with_band(f"{r.expected_minutes:.0f}", _band(u, f"{at}expected_minutes", ".0f")),
        ]  # fmt: skip

    rows = [cells(i) for i in range(len(c.rows))]
    headers = [
        _("Format"),
        *(f"Δ{g:g}" for g in c.gaps),
        _("edge"),
        _("reached"),
        pgettext("column", "games"),
        _("min"),
    ]
    table = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column(headers[0], overflow="fold")  # names wrap; numbers never do
    for j, header in enumerate(headers[1:], start=1):
        width = max(cell_len(header), *(len(line) for row in rows for line in row[j].split("\n")))
        table.add_column(header, justify="right", no_wrap=True, min_width=width)
    for row in rows:
        table.add_row(*row)
    note = Text(
        _(
            "Δ columns: P(the player rated {base:g} beats one rated {base:g} - Δ). The rest are "
            "for equal players. edge: what the last stage's decision is worth to the side it "
            "favours (甲 for the bidding, the chooser for a colour choice, the cutter for "
            "cut-and-choose, Red for a lot or sealed bids), in percentage points over 50 (- "
            "where the last stage is not one decisive game); reached: P(the last stage is "
            "played); min: expected playing time in minutes (effective clocks times mean speeds)."
        ).format(base=c.base)
        + ("" if u is None else " " + interval_caption(u, UNDER_EACH_NUMBER, IT))
        + _without_sd_note(c),
        style="dim",
    )
    return Group(table, note)


def _without_sd_note(c: Comparison) -> str:
    """What the * beside a format means: the constants its games use that carry no sd,
    grouped by the formats that share them."""
    if not c.without_sd:
        return ""
    groups: dict[tuple[str, ...], list[str]] = {}
    for label, paths in c.without_sd.items():
        groups.setdefault(paths, []).append(label)
    parts = [f"{_(', ').join(labels)}: {_(', ').join(paths)}" for paths, labels in groups.items()]
    return " " + _(
        "*: constants these formats' games use carry no sd in [model.sd] ({groups}), so their "
        "intervals leave that uncertainty out and are narrower than the truth: a narrow interval "
        "there does not mean the rule is certain."
    ).format(groups=_("; ").join(parts))


def _clock_pair(clocks: tuple[float, float]) -> str:
    return f"{clocks[0]:.2f} / {clocks[1]:.2f}"


def fair_view(f: FairRules, title: str) -> RenderableType:
    """The fair split, the menus side by side, and 甲's chances across rating gaps."""
    parts: list[RenderableType] = []
    u = f.model_uncertainty
    if f.red is None:
        no_split = _("{title}\nNo fair split: {reason}.")
        parts.append(Text(no_split.format(title=title, reason=f.reason)))
    else:
        band = clock_interval(f)
        red = None if u is None else u.get("armageddon.red")
        without = red.share_without_fair_clock if isinstance(red, FairClockSpread) else 0.0
        parts.append(
            Text(
                _(
                    "{title}\nFair Armageddon split ({time_class} game, the stage's increment "
                    "and draw rule): Red {red:.2f} min{band} v Black {black:g} min{without}."
                ).format(
                    title=title,
                    time_class=stage_label(f.time_class.value),
                    red=f.red,
                    band=f" {band}" if band else "",
                    black=f.black,
                    without=_(
                        " (no fair clock up to {cap:g} min in {share:.1f} % of the draws)"
                    ).format(cap=f.max_minutes, share=100 * without)
                    if without > 0
                    else "",
                )
            )
        )
    menus = _menus_table(f, u)
    parts.append(menus)
    gaps = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        title=_("P(甲 advances), % when 甲 is the stronger / the weaker by the gap"),
        title_justify="left",
    )
    gaps.add_column(_("gap"), justify="right", no_wrap=True)
    columns = [
        (menu, kind, rows)
        for menu, strategies in f.by_gap.items()
        for kind, rows in strategies.items()
    ]
    for menu, kind, _rows in columns:
        gaps.add_column(_(MENU_NAMES.get(menu, menu)) + f"\n{kind}", justify="right",
                        no_wrap=True, min_width=11)  # fmt: skip
    for g in columns[0][2]:
        gaps.add_row(
            f"{g:g}",
            *(
                _with_band(
                    f"{100 * rows[g][0]:.1f} / {100 * rows[g][1]:.1f}",
                    _pair_band(u, f"by_gap.{menu}.{kind}.{g:g}"),
                )
                for menu, kind, rows in columns
            ),
        )
    parts.append(gaps)
    if f.verified is not None:
        runs, p, se = f.verified
        z = (p - 0.5) / se if se > 0 else 0.0
        parts.append(
            Text(
                _(
                    "Monte Carlo check of the split: {runs:,} games (seed {seed}), P(Red "
                    "advances) {share:.2f} % ± {se:.2f} (z = {z:+.1f} against 50 %)."
                ).format(runs=runs, seed=f.seed, share=100 * p, se=100 * se, z=z)
            )
        )
    parts.append(
        Text(
            _(
                "Edge: P(甲 advances | sudden death) - 50 %, in percentage points, under the "
                "scenario's strategy."
            )
            + (
                ""
                if u is None
                else " "
                + interval_caption(u, UNDER_A_NUMBER, IT)
                + _(" The split is found again at each draw; the menus are as printed.")
            ),
            style="dim",
        )
    )
    sentences = how_sure(f)
    if sentences:
        parts.append(Text(_("How sure: ") + " ".join(sentences)))
    return Group(*parts)


def _menus_table(f: FairRules, u: Spread | None) -> Table:
    """The seed's menu and the fair one side by side, with the chooser's edge under each."""
    menus = Table(box=box.SIMPLE_HEAD, pad_edge=False,
                  title=_("Menus (Red / Black base minutes)"), title_justify="left")  # fmt: skip
    menus.add_column(_("branch"))
    menus.add_column(_("seed's menu"), justify="right", no_wrap=True)
    if f.fair_menu is not None:
        menus.add_column(_("fair menu"), justify="right", no_wrap=True)
    for key in ("accept", "object_red", "object_black"):
        row = [key, _clock_pair(getattr(f.seed_menu, key))]
        if f.fair_menu is not None:
            row.append(_clock_pair(getattr(f.fair_menu, key)))
        menus.add_row(*row)
    adv = [
        _("甲's edge, equal players"),
        _with_band(_signed(f.advantage["seed_menu"]),
                   points_interval(u, "chooser_advantage.seed_menu")),
    ]  # fmt: skip
    if f.fair_menu is not None:
        adv.append(
            _with_band(_signed(f.advantage["fair_menu"]),
                       points_interval(u, "chooser_advantage.fair_menu"))
        )  # fmt: skip
    menus.add_row(*adv)
    for key, label in (("seed_menu", _("P(edge > 0)")),):
        found = None if u is None else u.get(f"chooser_advantage.{key}")
        if found is not None and found.p_above_zero is not None:
            row = [label, f"{found.p_above_zero:.2f}"]
            fair = None if u is None else u.get("chooser_advantage.fair_menu")
            if f.fair_menu is not None and fair is not None and fair.p_above_zero is not None:
                row.append(f"{fair.p_above_zero:.2f}")
            menus.add_row(*row)
    return menus


def _pair_band(u: Spread | None, path: str) -> str:
    """``lo-hi / lo-hi`` of a stronger / weaker pair of chances, in percent."""
    strong = _band(u, f"{path}.stronger", ".0f", 100)
    weak = _band(u, f"{path}.weaker", ".0f", 100)
    return "" if not strong else f"{strong} / {weak}"
