"""Rich views of one match: exact odds, and the game log of a played match."""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from knockout.dashboard.fit import Fit, fit_headers, fitted, table
from knockout.dashboard.spread import interval_caption, percent_interval
from knockout.dashboard.times import duration, minutes
from knockout.game import Result
from knockout.i18n import N_, _, ngettext
from knockout.i18n.terms import colour_label, colour_word, reply_label, stage_label
from knockout.rules.model.players import Player
from knockout.rules.model.sd import Spread
from knockout.rules.model.strength import TimeClass
from knockout.rules.scenario.aggregate import Scenario

if TYPE_CHECKING:  # the answers' types only: loading them costs a short command time
    from knockout.answers import MatchOdds, SuddenDeath

if TYPE_CHECKING:  # the SimPy engine's records: only `play` needs the engine itself
    from knockout.engine.match import GameRecord, LogEvent, MatchRecord

__all__ = [
    "bar",
    "clock_text",
    "log_view",
    "match_record_view",
    "odds_view",
    "pct",
    "sudden_death_view",
]


def pct(p: float | None, digits: int = 1) -> str:
    """``0.4567`` -> ``"45.7%"``; None -> ``"-"``."""
    return "-" if p is None else f"{100 * p:.{digits}f}%"


def rating_text(player: Player, rating: float | None = None) -> str:
    """``2450`` or, for an uncertain rating, ``2450±150`` (the rating_sd)."""
    value = f"{player.rating if rating is None else rating:g}"
    return value + (f"±{player.rating_sd:g}" if player.rating_sd > 0 else "")


def bar(p: float, width: int = 20) -> Text:
    """A horizontal bar of ``width`` cells filled in proportion to ``p``."""
    eighths = round(max(0.0, min(1.0, p)) * width * 8)
    full, part = divmod(eighths, 8)
    partial = "" if part == 0 else " ▏▎▍▌▋▊▉"[part]
    body = "█" * full + partial
    return Text(body.ljust(width), style="cyan")


def clock_text(clocks: tuple[float, float], increment: float) -> str:
    """``60+10`` for equal clocks, ``30/10+10`` for unequal ones (base minutes, Red's first, and
    the increment in seconds); a sealed bid to the hundredth of a minute (``30/19.89+2``)."""
    red, black = clocks
    base = minutes(red) if red == black else f"{minutes(red)}/{minutes(black)}"
    return f"{base}+{increment:g}"


#: Said wherever clocks are shown in the arbiters' notation.
CLOCK_NOTE = N_("clocks: base minutes (Red/Black when unequal) + seconds added a move")


def _points(p: Decimal) -> str:
    return f"{p:g}"


def odds_view(odds: MatchOdds, scenario: Scenario) -> RenderableType:
    """Exact odds of a match: who advances, where it is decided, the sudden-death choice; with
    uncertain constants the central 95 % interval of each figure beside it."""
    a, b = odds.players

    if_exact = odds.win_if_ratings_exact
    spread = odds.model_uncertainty

    def head(with_bar: bool) -> RenderableType:
        caption = (
            None
            if if_exact is None
            else _(
                "Rating±sd: the true strength is uncertain by that sd (Elo, at every time "
                "control); Advances averages over it. If exact: the chance if every rating were "
                "exact."
            )
        )
        t = table(_("{scenario} - exact odds").format(scenario=scenario.name), caption=caption)
        t.add_column(_("Player"), overflow="fold")
        headers = (
            _("Rating"),
            _("Rapid"),
            _("Blitz"),
            _("Advances"),
            *(() if spread is None else ("95 %",)),
            *(() if if_exact is None else (_("If exact"),)),
        )
        for header in headers:
            t.add_column(header, justify="right", no_wrap=True)
        if with_bar:
            t.add_column("", no_wrap=True)
        for player in scenario.players:
            t.add_row(
                player.name,
                rating_text(player),
                f"{player.rating_for(TimeClass.RAPID):g}",
                f"{player.rating_for(TimeClass.BLITZ):g}",
                pct(odds.win[player.name], 2),
                *([] if spread is None else [percent_interval(spread, f"win.{player.name}")]),
                *([] if if_exact is None else [pct(if_exact[player.name], 2)]),
                *([bar(odds.win[player.name], 20 if if_exact is None else 12)] if with_bar else []),
            )
        return fitted(t)

    stages = table(
        _("Where the match is decided"),
        caption=_("Decided: P(decided in that stage); by name: P(that player wins it there)"),
    )
    stages.add_column(_("Stage"), overflow="fold")
    stages.add_column(_("Decided"), justify="right", no_wrap=True)
    if spread is not None:
        stages.add_column("95 %", justify="right", no_wrap=True)
    stages.add_column(a, justify="right", no_wrap=True)
    stages.add_column(b, justify="right", no_wrap=True)
    for name, p in odds.decided.items():
        stages.add_row(
            stage_label(name),
            pct(p, 2),
            *([] if spread is None else [percent_interval(spread, f"match.decided.{name}")]),
            pct(odds.decided_by[name][a], 2),
            pct(odds.decided_by[name][b], 2),
        )
    parts: list[RenderableType] = [
        Fit(partial(head, True), partial(head, False)),
        fit_headers(stages),
    ]
    if odds.sudden_death is not None:
        parts.append(sudden_death_view(odds.sudden_death, spread))
    if odds.chooser is not None:
        sd = table(_("Sudden-death choice (given it is reached)"))
        sd.add_column(_("Quantity"), overflow="fold")
        sd.add_column(_("Probability"), justify="right", no_wrap=True)
        if spread is not None:
            sd.add_column("95 %", justify="right", no_wrap=True)
        rows = [
            (_("sudden death reached"), odds.sudden_death_reached, "match.sudden_death_reached"),
            (
                _("{name} is 甲 (chooser)").format(name=a),
                odds.chooser[a],
                f"match.sudden_death.chooser.{a}",
            ),
            (
                _("{name} is 甲 (chooser)").format(name=b),
                odds.chooser[b],
                f"match.sudden_death.chooser.{b}",
            ),
            (_("甲 announces Red"), odds.announce_red, "match.bidding.announce_red"),
            (_("乙 objects"), odds.objects, "match.bidding.object"),
            (_("甲 advances"), odds.chooser_advances, "match.chooser_advances"),
        ]
        for label, value, path in rows:
            extra = [] if spread is None else [percent_interval(spread, path, 2)]
            sd.add_row(label, pct(value, 2), *extra)
        parts.append(fitted(sd))
    shown = list(odds.games.items())
    # As many numbers of games as fit, at most 12; the rest summed under ">k".
    counts = [n for n in range(min(len(shown), 12), 1, -1) if n == len(shown) or n < 12]
    parts.append(Fit(*(partial(_games_table, shown, n, spread) for n in counts or [len(shown)])))
    if spread is not None:
        parts.append(Text(interval_caption(spread), style="dim"))
    return Group(*parts)


def _games_table(
    shown: list[tuple[int, float]], columns: int, spread: Spread | None = None
) -> RenderableType:
    """P(the match has k games): ``columns`` columns, the last one ``>k`` if some are left;
    with uncertain constants each number's interval under it."""
    t = table(_("Games played"))
    if columns >= len(shown):
        head, rest = shown, None
    else:
        head, rest = shown[: columns - 1], sum(p for _k, p in shown[columns - 1 :])
    for k, _p in head:
        t.add_column(str(k), justify="right", no_wrap=True)
    if rest is not None:
        t.add_column(f">{head[-1][0]}", justify="right", no_wrap=True)
    t.add_row(*[pct(p) for _k, p in head], *([] if rest is None else [pct(rest)]))
    if spread is not None:
        cells = [percent_interval(spread, f"match.games.{k}", 0) for k, _p in head]
        t.add_row(*cells, *([] if rest is None else [""]))
    return fitted(t)


def _mark(p: float) -> str:
    """How surely a side picks an option: ◀ when it always does, ◀ with its probability when
    it sometimes does (private beliefs), nothing when it never does."""
    if p >= 1.0:
        return " ◀"
    if p <= 0.0 or math.isnan(p):
        return ""
    if p > 0.995:
        return " ◀>99%"
    if p < 0.005:
        return " ◀<1%"
    return f" ◀{100 * p:.0f}%"


def sudden_death_view(sd: SuddenDeath, spread: Spread | None = None) -> RenderableType:
    """For each player as 甲: the bidding rule's 2x2 of branches with P(甲 advances) in each,
    the branch's effective clocks, and the choices each side makes under the strategy (with
    uncertain constants, each chance's interval)."""
    tables: list[RenderableType] = []
    for name, values in sd.as_chooser.items():
        red, obj_red, obj_black = sd.decisions.get(name, (float("nan"),) * 3)
        where = f"match.sudden_death.as_chooser.{name}"
        band = percent_interval(spread, f"{where}.advances")
        t = table(
            _("{name} as 甲: advances {share}").format(name=name, share=pct(values["advances"], 2))
            + (f" {band}" if band else "")
        )
        t.add_column(_("甲 announces"), overflow="fold")
        t.add_column(_("乙 accepts"), justify="right", no_wrap=True)
        t.add_column(_("乙 objects"), justify="right", no_wrap=True)
        for colour, p_announce, p_object in (("Red", red, obj_red), ("Black", 1 - red, obj_black)):
            cells: list[Text] = []
            for reply, p_reply in (("accept", 1 - p_object), ("object", p_object)):
                key = f"{colour.lower()}_{reply}"
                r_clock, b_clock = sd.clocks.get(key, (float("nan"), float("nan")))
                cell = Text(f"{pct(values[key], 1)}{_mark(p_reply)}\n")
                band = percent_interval(spread, f"{where}.{key}")
                if band:
                    cell.append(f"{band}\n")
                cell.append(
                    _("Red {red} v {black}").format(red=minutes(r_clock), black=minutes(b_clock)),
                    style="dim",
                )
                cells.append(cell)
            t.add_row(f"{colour_label(colour)}{_mark(p_announce)}", *cells)
        tables.append(fitted(t))
    caption = Text(
        _(
            "The sudden-death game ({time_class}). Each cell: P(甲 advances) if that branch were "
            "played, and its effective clocks in minutes (base + 60 moves of increment); ◀ marks "
            "what 甲 announces and how 乙 replies under the strategy."
        ).format(time_class=stage_label(str(sd.time_class))),
        style="dim",
    )
    return Group(*tables, caption)


def _result_cell(g: GameRecord) -> Text:
    text = {Result.RED: "1-0", Result.DRAW: "½-½", Result.BLACK: "0-1"}[g.result]
    if g.flag_fall:
        text += " F"
    return Text(text, style="yellow" if g.result is Result.DRAW else "")


def match_record_view(record: MatchRecord, *, title: str | None = None) -> RenderableType:
    """The game log of one match as a table, the sudden-death bidding, then who advanced.

    Results are written Red first (1-0: Red won; F: lost on time).
    """
    a, b = record.players
    t = table(
        title or _("{red} v {black}").format(red=a, black=b),
        caption=_(
            "Red first: 1-0 Red won, ½-½ draw, 0-1 Black won, F flag fall; Pts: per-game "
            "points, Red-Black; {clocks}"
        ).format(clocks=_(CLOCK_NOTE)),
    )
    t.add_column("#", justify="right", no_wrap=True)
    t.add_column(_("Stage"), no_wrap=True)
    t.add_column(colour_label("Red"), style="red", overflow="fold")
    t.add_column(colour_label("Black"), overflow="fold")
    t.add_column(_("Clock"), no_wrap=True)
    t.add_column(_("Result"), no_wrap=True)
    t.add_column(_("Red used"), justify="right", no_wrap=True)
    t.add_column(_("Black used"), justify="right", no_wrap=True)
    t.add_column(_("Pts"), justify="right", no_wrap=True)
    notes: list[RenderableType] = []
    for g in record.games:
        t.add_row(
            str(g.number),
            stage_label(g.stage),
            g.red,
            g.black,
            clock_text(g.clock, g.increment_seconds),
            _result_cell(g),
            duration(g.time_used[g.red], to_the_second=True),
            duration(g.time_used[g.black], to_the_second=True),
            f"{_points(g.points[g.red])}-{_points(g.points[g.black])}",
        )
        if g.bids is not None:
            bids = _(", ").join(
                _("{name} {minutes} min").format(name=name, minutes=minutes(m))
                for name, m in g.bids.items()
            )
            notes.append(
                Text(
                    _(
                        "Game {game}: sealed bids {bids}: {black} Black on {black_minutes} min v "
                        "{red} Red on {red_minutes} min"
                    ).format(
                        game=g.number,
                        bids=bids,
                        black=g.black,
                        black_minutes=minutes(g.clock[1]),
                        red=g.red,
                        red_minutes=minutes(g.clock[0]),
                    )
                )
            )
        if g.chooser is not None and g.colour is not None:
            notes.append(
                Text(
                    _(
                        "Game {game}: {chooser} chose {colour}: {red} Red {red_minutes} min v "
                        "{black} Black {black_minutes} min"
                    ).format(
                        game=g.number,
                        chooser=g.chooser,
                        colour=colour_word(g.colour.value),
                        red=g.red,
                        red_minutes=minutes(g.clock[0]),
                        black=g.black,
                        black_minutes=minutes(g.clock[1]),
                    )
                )
            )
        elif g.chooser is not None:
            bidder = b if g.chooser == a else a
            notes.append(
                Text(
                    _(
                        "Game {game}: 甲 (chooser) = {chooser}{why}; announced {announce}; "
                        "乙 = {bidder} {reply}: {red} Red {red_minutes} min v {black} Black "
                        "{black_minutes} min"
                    ).format(
                        game=g.number,
                        chooser=g.chooser,
                        why=_why_chooser(record, g.number, g.chooser, bidder),
                        announce=colour_word(str(g.announce)),
                        bidder=bidder,
                        reply=reply_label(str(g.reply)),
                        red=g.red,
                        red_minutes=minutes(g.clock[0]),
                        black=g.black,
                        black_minutes=minutes(g.clock[1]),
                    )
                )
            )
    totals = record.points()
    games = len(record.games)
    summary = Text.assemble(
        (record.winner, "bold green"),
        ngettext(
            " advances (decided in {stage}, {n:,} game; points {a} {a_points}, {b} {b_points})",
            " advances (decided in {stage}, {n:,} games; points {a} {a_points}, {b} {b_points})",
            games,
        ).format(
            stage=stage_label(record.decided_in),
            n=games,
            a=a,
            a_points=_points(totals[a]),
            b=b,
            b_points=_points(totals[b]),
        ),
    )
    return Group(fitted(t), *notes, summary)


def _why_chooser(record: MatchRecord, number: int, chooser: str, bidder: str) -> str:
    """``, who used less time in game N`` when the previous game's times show it (else 甲 was
    drawn by lot, or recorded without those times: nothing to add)."""
    if number < 2:
        return ""
    used = record.games[number - 2].time_used
    mine, theirs = used.get(chooser, math.nan), used.get(bidder, math.nan)
    return _(", who used less time in game {game}").format(game=number - 1) if mine < theirs else ""


def log_view(log: Sequence[LogEvent]) -> RenderableType:
    """The event log: simulated time from the start and what happened."""
    t = table(_("Event log (simulated time from the start)"))
    t.add_column(_("Time"), justify="right", style="dim", no_wrap=True)
    t.add_column(_("Event"), overflow="fold")
    for e in log:
        t.add_row(duration(e.time, to_the_second=True), e.text)
    return fitted(t)
