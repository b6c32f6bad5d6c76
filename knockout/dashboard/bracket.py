"""Rich views of a knockout event: chances per round, the bracket tree, rounds, the ranking."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from knockout.dashboard.fit import Fit, fitted, table
from knockout.dashboard.match import bar, pct, rating_text
from knockout.dashboard.spread import interval_caption, percent_interval
from knockout.dashboard.times import duration
from knockout.i18n import N_, _, ngettext
from knockout.i18n.terms import reached_label, round_label, round_short, stage_label
from knockout.rules.book.bracket import Bracket, round_name
from knockout.rules.model.sd import Spread
from knockout.rules.scenario.aggregate import Scenario

if TYPE_CHECKING:  # the answers' types only: loading them costs a short command time
    from knockout.answers import BracketOdds, Simulated

if TYPE_CHECKING:  # the SimPy engine's records: only `play` and `schedule` need the engine
    from knockout.engine.event import EventRecord, ScheduleSummary
    from knockout.engine.match import MatchRecord
    from knockout.engine.ranking import KnockoutStanding

__all__ = [
    "bracket_entrant",
    "bracket_tree",
    "clock",
    "event_view",
    "ranking_view",
    "reach_view",
    "simulated_reach_view",
]


def clock(seconds: float) -> str:
    """Simulated time from the start of the event, with units (``19 h 25 min``)."""
    return duration(seconds)


@dataclass(frozen=True)
class _Reach:
    """What a chances-per-round table shows (exact, or estimates with their errors)."""

    title: str
    scenario: Scenario
    bracket: Bracket
    round_names: Sequence[str]
    reach: Mapping[str, Sequence[float]]
    stderr: Mapping[str, Sequence[float]] | None = None
    exact: Mapping[str, Sequence[float]] | None = None
    #: P(wins) with every rating taken as exact, where some rating is uncertain
    if_exact: Mapping[str, float] | None = None
    #: With uncertain constants: the exact P(wins)'s spread, under ``spread_prefix``
    spread: Spread | None = None
    spread_prefix: str = ""

    def layouts(self) -> list[Callable[[], RenderableType]]:
        """Richest first: with the bar and ratings; without the bar; without ratings; then
        leaving out the earliest rounds one by one (``Wins`` always stays)."""
        rounds = len(self.round_names) - 1
        out: list[Callable[[], RenderableType]] = [
            partial(self.table, with_bar=True, with_rating=True, skip=0),
            partial(self.table, with_bar=False, with_rating=True, skip=0),
        ]
        out += [
            partial(self.table, with_bar=False, with_rating=False, skip=k)
            for k in range(rounds + 1)
        ]
        return out

    def caption(self, shown: Sequence[str], skip: int) -> str:
        """What the columns mean, which rounds are left out, and the uncertain ratings."""
        caption = _("Columns: P(still in at the start of that round; a bye counts as in), P(wins).")
        if skip:
            left_out = shown[0] if skip == 1 else f"{shown[0]}-{shown[skip - 1]}"
            caption += _(" {rounds} left out at this width (--json has every round).").format(
                rounds=left_out
            )
        if self.if_exact is not None:
            caption += _(
                " Rating±sd: an uncertain rating, averaged over; if exact: P(wins) were every "
                "rating exact."
            )
        if self.spread is not None:
            caption += " " + interval_caption(self.spread, "95 %", N_("the exact P(wins)"))
        return caption

    def _cells(self, name: str, skip: int) -> list[str]:
        """A player's numbers: the rounds shown, P(wins) and what goes beside it."""
        r = self.reach[name]
        cells = [pct(x) for x in r[1 + skip :]]
        if self.stderr is not None:
            cells[-1] = pct(r[-1], 2)
            cells.append(f"{100 * self.stderr[name][-1]:.2f}")
        if self.exact is not None:
            cells.append(pct(self.exact[name][-1], 2))
        if self.spread is not None:
            cells.append(percent_interval(self.spread, f"{self.spread_prefix}win.{name}", 2))
        if self.if_exact is not None:
            cells.append(pct(self.if_exact[name], 2))
        return cells

    def table(self, *, with_bar: bool, with_rating: bool, skip: int) -> Table:
        """The table with or without its bar and rating columns, ``skip`` rounds left out."""
        shown = [round_short(name) for name in self.round_names[1:]]
        t = table(self.title, caption=self.caption(shown, skip))
        t.add_column("#", justify="right", no_wrap=True)
        t.add_column(_("Player"), overflow="fold")
        with_rating = with_rating and self.stderr is None
        if with_rating:
            t.add_column(_("Rating"), justify="right", no_wrap=True)
        for name in shown[skip:]:
            t.add_column(name, justify="right", no_wrap=True)
        t.add_column(_("Wins"), justify="right", no_wrap=True)
        if self.stderr is not None:
            t.add_column(_("±s.e."), justify="right", no_wrap=True)
        if self.exact is not None:
            t.add_column(_("exact"), justify="right", no_wrap=True)
        if self.spread is not None:
            t.add_column("95 %", justify="right", no_wrap=True)
        if self.if_exact is not None:
            t.add_column(_("if exact"), justify="right", no_wrap=True)
        if with_bar:
            t.add_column("", no_wrap=True)
        bracket = self.bracket
        for p in sorted(self.scenario.players, key=lambda p: bracket.seeds[p.name]):
            cells = self._cells(p.name, skip)
            label = p.name + (_(" (bye)") if bracket.has_bye(p.name) else "")
            label += _(" (withdrawn)") if p.withdrawn else ""
            rating = [rating_text(p)] if with_rating else []
            decoration = [bar(self.reach[p.name][-1], 10)] if with_bar else []
            t.add_row(str(bracket.seeds[p.name]), label, *rating, *cells, *decoration)
        return fitted(t)


def reach_view(odds: BracketOdds, scenario: Scenario) -> RenderableType:
    """Exact P(still in at the start of each round) and P(wins), with bars where they fit."""
    reach = _Reach(
        ngettext(
            "{scenario} - exact chances per round ({n:,} player)",
            "{scenario} - exact chances per round ({n:,} players)",
            len(scenario.players),
        ).format(scenario=scenario.name, n=len(scenario.players)),
        scenario,
        odds.bracket,
        odds.round_names,
        odds.reach,
        if_exact=odds.win_if_ratings_exact,
        spread=odds.model_uncertainty,
    )
    return Fit(*reach.layouts())


def simulated_reach_view(
    est: Simulated[BracketOdds], scenario: Scenario, exact: BracketOdds | None
) -> RenderableType:
    """Monte Carlo chances per round; the last column has its standard error and the exact
    value in brackets; then the event figures."""
    value, stderr = est.value, est.stderr
    reach = _Reach(
        ngettext(
            "{scenario} - Monte Carlo, {n:,} event (seed {seed})",
            "{scenario} - Monte Carlo, {n:,} events (seed {seed})",
            est.runs,
        ).format(scenario=scenario.name, n=est.runs, seed=est.seed),
        scenario,
        value.bracket,
        value.round_names,
        value.reach,
        stderr.reach,
        None if exact is None else exact.reach,
        if_exact=None if exact is None else exact.win_if_ratings_exact,
        spread=None if exact is None else exact.model_uncertainty,
    )
    assert value.event is not None and stderr.event is not None
    figures = table(box=None, show_header=False)
    figures.add_column("", overflow="fold")
    figures.add_column("", justify="right", no_wrap=True)
    figures.add_row(
        _("a highest-rated player wins"),
        f"{pct(value.event.top_rated_wins, 2)} ± {100 * stderr.event.top_rated_wins:.2f}",
    )
    figures.add_row(_("expected upsets"), f"{value.event.upsets:.3f} ± {stderr.event.upsets:.3f}")
    games = value.event.games
    mean_games = sum(g * p for g, p in games.items())
    lo, hi = min(games), max(games)
    figures.add_row(
        _("games per event"),
        _("mean {mean:.1f} (from {lo} to {hi})").format(mean=mean_games, lo=lo, hi=hi),
    )
    return Group(Fit(*reach.layouts()), Text(""), fitted(figures))


def _match_label(m: MatchRecord | None, players: tuple[str | None, str | None]) -> Text:
    up, down = players
    names = _("{red} v {black}").format(red=up or "?", black=down or "?")
    if m is None:
        return Text(names, style="dim")
    if m.decided_in == "walkover" and not m.games:
        return Text.assemble(names, "  ", (m.winner, "bold green"), _(" (walkover)"))
    if m.decided_in == "walkover":  # a withdrawal during the match, as every view says it
        loser = down if m.winner == up else up
        games = ngettext("{n} game", "{n} games", len(m.games)).format(n=len(m.games))
        how = _(" ({loser} withdrew after {games})").format(loser=loser or "?", games=games)
        return Text.assemble(names, "  ", (m.winner, "bold green"), how)
    games = ngettext(" ({stage}, {n:,} game)", " ({stage}, {n:,} games)", len(m.games)).format(
        stage=stage_label(m.decided_in), n=len(m.games)
    )
    return Text.assemble(names, "  ", (m.winner, "bold green"), games)


def bracket_entrant(
    bracket: Bracket, results: Mapping[tuple[int, int], MatchRecord], k: int, block: int
) -> str | None:
    """Who comes out of ``block`` into round ``k``, if known (byes advance at once)."""
    if k == 1:
        return bracket.lines[block]
    r = results.get((k - 1, block))
    if r is not None:
        return r.winner
    if k == 2:
        up, down = bracket.lines[2 * block], bracket.lines[2 * block + 1]
        if up is None or down is None:
            return up or down
    return None


def bracket_tree(
    bracket: Bracket,
    results: Mapping[tuple[int, int], MatchRecord],
    *,
    title: str = "Bracket",
    live: Mapping[tuple[int, int], Text] | None = None,
    depth: int | None = None,
) -> Tree:
    """The bracket as a tree: the final at the root, each match above the two it comes from.

    ``results`` maps ``(round, match index)`` to finished matches; ``live`` to a line describing
    a match in progress. Unknown players show as ``?``; byes as ``bye``. ``depth`` limits the
    tree to the last rounds (their entrants become leaves), for screens of limited height.
    """
    rounds = bracket.rounds
    lowest = 1 if depth is None else max(1, rounds - depth + 1)

    def entrant(k: int, block: int) -> str | None:
        return bracket_entrant(bracket, results, k, block)

    def node(parent: Tree, k: int, m: int) -> None:
        if k < lowest:
            who = entrant(k + 1, m)
            parent.add(Text(who or "?", style="" if who else "dim"))
            return
        up, down = entrant(k, 2 * m), entrant(k, 2 * m + 1)
        if k == 1 and (up is None or down is None):
            parent.add(Text(f"{up or down}" + _(" (bye)"), style="dim"))
            return
        label = round_label(round_name(k, rounds))
        text = Text(_("{round}: ").format(round=label[:1].upper() + label[1:]))
        if live is not None and (k, m) in live:
            text.append_text(live[(k, m)])
        else:
            text.append_text(_match_label(results.get((k, m)), (up, down)))
        branch = parent.add(text)
        if k > 1:
            node(branch, k - 1, 2 * m)
            node(branch, k - 1, 2 * m + 1)

    final = results.get((rounds, 0))
    root = Tree(
        Text.assemble(title, "  ", (_("champion: {name}").format(name=final.winner), "bold yellow"))
        if final is not None
        else Text(title)
    )
    node(root, rounds, 0)
    return root


def results_by_slot(record: EventRecord) -> dict[tuple[int, int], MatchRecord]:
    """Finished matches by ``(round, match index)`` (byes have no match)."""
    out: dict[tuple[int, int], MatchRecord] = {}
    alive: list[str | None] = list(record.bracket.lines)
    for r in record.rounds:
        by_players = {frozenset(m.players): m for m in r.matches}
        nxt: list[str | None] = []
        for m in range(len(alive) // 2):
            up, down = alive[2 * m], alive[2 * m + 1]
            found = by_players.get(frozenset((up, down))) if up and down else None
            if found is not None:
                out[(r.number, m)] = found
                nxt.append(found.winner)
            else:
                nxt.append(up or down)
        alive = nxt
    return out


#: The title of a ranking table, unless one is given.
FINAL_RANKING = N_("Final ranking")


def ranking_view(ranking: Sequence[KnockoutStanding], title: str = FINAL_RANKING) -> Table:
    """Rank, player, what they reached, per-game points and tie-breaks (``title`` a catalogue
    message)."""
    t = table(_(title))
    t.add_column(_("Rank"), justify="right", no_wrap=True)
    t.add_column(_("Player"), overflow="fold")
    t.add_column(_("Reached"), no_wrap=True)
    t.add_column(_("Points"), justify="right", no_wrap=True)
    codes = list(ranking[0].tiebreaks) if ranking else []
    for code in codes:
        t.add_column(code, justify="right", no_wrap=True)
    for s in ranking:
        t.add_row(
            str(s.rank),
            s.name,
            reached_label(s.reached),
            f"{s.points.normalize():f}",
            *("-" if v is None else f"{v.normalize():f}" for v in s.tiebreaks.values()),
        )
    return fitted(t)


def event_view(
    record: EventRecord, ranking: Sequence[KnockoutStanding], scenario: Scenario, seed: int
) -> RenderableType:
    """A played event: the bracket tree, when each round ended, and the final ranking."""
    tree = bracket_tree(
        record.bracket,
        results_by_slot(record),
        title=_("{scenario} (seed {seed})").format(scenario=scenario.name, seed=seed),
    )
    timing = table(_("Schedule (simulated time from the start)"))
    timing.add_column(_("Round"), no_wrap=True)
    timing.add_column(_("Starts"), justify="right", no_wrap=True)
    timing.add_column(_("Ends"), justify="right", no_wrap=True)
    timing.add_column(_("Matches"), justify="right", no_wrap=True)
    timing.add_column(_("Games"), justify="right", no_wrap=True)
    for r in record.rounds:
        timing.add_row(
            round_label(r.name),
            clock(r.start),
            clock(r.end),
            str(len(r.matches)),
            str(sum(len(m.games) for m in r.matches)),
        )
    if record.third_place is not None:
        timing.add_row(
            round_label("third place"),
            clock(record.third_place.start),
            clock(record.third_place.end),
            "1",
            str(len(record.third_place.games)),
        )
    summary = Text(
        _("Event duration {duration} on {boards} boards; champion {champion}.").format(
            duration=clock(record.duration),
            boards=scenario.schedule.boards,
            champion=record.champion,
        )
    )
    return Group(tree, fitted(timing), summary, ranking_view(ranking))


_SCHEDULE_COLUMNS = (N_("Mean"), N_("± s.e."), N_("SD"), "5%", N_("Median"), "95%", N_("Max"))


def schedule_view(summary: ScheduleSummary, scenario: Scenario) -> RenderableType:
    """When each round and the event end, over many played events: one table where it fits,
    else the spread (mean, error, SD) and the quantiles one under the other."""
    last = summary.seed + summary.runs - 1
    title = ngettext(
        "{scenario}: when each round ends, simulated time from the start ({n:,} event, "
        "{boards} boards, seeds {first}..{last})",
        "{scenario}: when each round ends, simulated time from the start ({n:,} events, "
        "{boards} boards, seeds {first}..{last})",
        summary.runs,
    ).format(
        scenario=scenario.name,
        n=summary.runs,
        boards=scenario.schedule.boards,
        first=summary.seed,
        last=last,
    )
    rows = {
        name: (
            clock(d.mean),
            duration(d.stderr),
            duration(d.sd),
            clock(d.p05),
            clock(d.median),
            clock(d.p95),
            clock(d.max),
        )
        for name, d in summary.ends.items()
    }

    def part(heading: str | None, columns: range) -> Table:
        t = table(heading)
        t.add_column(_("Round"), overflow="fold")
        for j in columns:
            t.add_column(_(_SCHEDULE_COLUMNS[j]), justify="right", no_wrap=True)
        for name, cells in rows.items():
            t.add_row(round_label(name), *(cells[j] for j in columns))
        return fitted(t)

    return Fit(
        lambda: part(title, range(7)),
        lambda: Group(part(title, range(3)), part(None, range(3, 7))),
    )
