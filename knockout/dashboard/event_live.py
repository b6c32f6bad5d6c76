"""The live view of a real event (``knockout event show --live``), fitted to the terminal.

What the hall needs most comes first: a headline, the games to play now (board, match, colours,
clocks) and the decisions to ask (the sudden-death bids); then the bracket, one line per match,
as far as it fits ("and N more"); then the latest results and the ranking so far if there is
room. :class:`EventFrame` picks, at render time, the richest layout whose height fits the
terminal (each section grows a row at a time, in that order: :func:`upgrades`), so a frame is
never taller than the screen; it is laid out again at every refresh, so a resized terminal gets
a frame of its new size (the live view draws on the alternate screen, which it redraws whole).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from knockout.dashboard.bracket import bracket_tree
from knockout.dashboard.fit import fit_height, fitted
from knockout.dashboard.fit import table as fit_table
from knockout.dashboard.match import clock_text
from knockout.event.facts import (
    Decision,
    MatchFacts,
    decisions,
    half_points,
    match_facts,
    next_games,
)
from knockout.event.facts import score_text as score
from knockout.event.state import Event, NextGame, PendingDecision
from knockout.i18n import _, language, ngettext, pgettext, speaking
from knockout.i18n.terms import reached_label, stage_label

__all__ = ["EventFrame", "FrameLayout", "bracket_lines", "upgrades"]

#: Latest results the frame may list.
RESULTS = 8
#: Players of the ranking the frame may list.
RANKED = 16
_SECTIONS = ("games", "decisions", "bracket", "results", "ranking")


@dataclass(frozen=True)
class FrameLayout:
    """How many rows of each section a frame shows (0: a one-line summary, or nothing).

    Attributes:
        games: Games to play now listed (the rest counted).
        decisions: Decisions to ask listed.
        bracket: Matches listed, one line each.
        results: Latest results listed.
        ranking: Players of the ranking so far listed.
        tree: The whole bracket as a tree instead of the list (when everything fits).
    """

    games: int = 0
    decisions: int = 0
    bracket: int = 0
    results: int = 0
    ranking: int = 0
    tree: bool = False


def bracket_lines(event: Event, facts: tuple[MatchFacts, ...]) -> list[Text]:
    """One line per match: the current round first (the lowest round with a match not decided),
    then the rounds after it, then the rounds before it."""
    undecided = [f.round for f in facts if f.winner is None]
    current = min(undecided, default=event.rounds)
    order = sorted(facts, key=lambda f: (f.round < current, f.round, f.match == "3RD"))
    out: list[Text] = []
    for f in order:
        line = Text(f"{f.match:<6} ", style="bold")
        if f.players is None:
            line.append(_("players not known yet"), style="dim")
        else:
            a, b = f.players
            line.append(a, style="green bold" if f.winner == a else "")
            line.append(_(" v "))
            line.append(b, style="green bold" if f.winner == b else "")
            if f.winner is not None:
                line.append(f"  {_how(f)}", style="dim")
            else:
                line.append(f"  {f.score}" if f.games else "")
                line.append_text(_next(event, f))
        out.append(line)
    return out


def _how(f: MatchFacts) -> str:
    """Who advanced and how, short: ``王立新 1½-½ (slow)``."""
    assert f.winner is not None and f.loser is not None
    if f.how == "walkover":
        return _("{winner} by walkover ({loser} withdrew)").format(winner=f.winner, loser=f.loser)
    if f.how == "withdrawal":
        games = ngettext("{n} game", "{n} games", len(f.games)).format(n=len(f.games))
        return _("{winner}: {loser} withdrew after {games}").format(
            winner=f.winner, loser=f.loser, games=games
        )
    if f.how == "sudden-death draw":
        return _("{winner} on the sudden-death draw (Black)").format(winner=f.winner)
    won = f"{half_points(f.points[f.winner])}-{half_points(f.points[f.loser])}"
    stage = stage_label(f.decided_in or "").replace("_", " ")
    return _("{winner} {score} ({stage})").format(winner=f.winner, score=won, stage=stage)


def _next(event: Event, f: MatchFacts) -> Text:
    step = event.next_step(event.find_match(f.match))
    board = "" if f.board is None else _(", board {board}").format(board=f.board)
    if isinstance(step, PendingDecision) and step.kind == "bid":
        return Text("  " + _("sudden-death bid to record{board}").format(board=board), "yellow")
    if step is not None and not isinstance(step, NextGame):
        what = _("{what} to record{board}").format(what=_pending_words(step.kind), board=board)
        return Text("  " + what, style="yellow")
    if isinstance(step, NextGame):
        stage = stage_label(step.stage)
        text = _("next: game {game} ({stage}){board}").format(
            game=step.number, stage=stage, board=board
        )
        return Text("  " + text, style="cyan")
    return Text("")


def _pending_words(kind: str) -> str:
    """A decision still to record, in a few words."""
    return {
        "bid": _("sudden-death bid"),
        "choice": _("colour choice"),
        "sealed-bid": _("sealed bids"),
        "cut": _("cut"),
    }.get(kind, kind)


def decision_line(d: Decision) -> Text:
    """A decision to ask, on one line (it wraps on a narrow terminal)."""
    a, b = d.players
    where = _("{match} game {game}").format(match=d.match, game=d.game)
    if d.board is not None:
        where += _(", board {board}").format(board=d.board)
    text = Text(_("{where}: ").format(where=where), style="bold")
    if d.kind == "choice":
        who = d.chooser or _("the lot's winner ({a} or {b}; --chooser)").format(a=a, b=b)
        text.append(_("colour choice: {who} chooses Red or Black").format(who=who))
    elif d.kind == "sealed-bid":
        text.append(_("sealed bids: {a} and {b} each bid Black's minutes").format(a=a, b=b))
    elif d.kind == "cut":
        who = d.chooser or _("the cutter by lot ({a} or {b}; --cutter)").format(a=a, b=b)
        text.append(
            _("cut and choose: {who} names Red's minutes, the other picks the colour").format(
                who=who
            )
        )
    elif d.chooser is not None:
        text.append(
            _(
                "sudden-death bid: ask 甲 {chooser} Red or Black, then 乙 {other} accept or object"
            ).format(chooser=d.chooser, other=d.other)
        )
    else:
        text.append(
            _(
                "sudden-death bid: draw lots for 甲 ({a} or {b}; --chooser), then ask Red or "
                "Black, accept or object"
            ).format(a=a, b=b),
            style="yellow",
        )
    return text


def upgrades(sizes: dict[str, int]) -> Iterator[tuple[str, int | bool]]:
    """The steps from the barest frame to the fullest: the games a row at a time, then the
    decisions, the bracket's lines, the latest results, the ranking, and last the whole tree."""
    for key in ("games", "decisions", "bracket", "results", "ranking"):
        for n in range(1, sizes[key] + 1):
            yield key, n
    yield "tree", True


@dataclass
class EventFrame:
    """The live view of ``event``, laid out at render time to fit the console.

    Attributes:
        event: The event as last read.
        now: When it was read (shown in the headline).
        away: Why the event file cannot be read now (shown under the headline), or None.
        lang: The language it speaks: the one in force where it is made (the live view draws
            it from another thread, which would otherwise speak the default).
    """

    event: Event
    now: datetime
    away: str | None = None
    lang: str = field(default_factory=language)

    def __post_init__(self) -> None:
        from knockout.event.ranking import standings  # noqa: PLC0415  (the engine's records)

        ev = self.event
        self.facts = match_facts(ev)
        self.games = next_games(ev)
        self.asks = decisions(ev)
        with speaking(self.lang):
            self.lines = bracket_lines(ev, self.facts)
        self.results = list(reversed(ev.games[-RESULTS:]))
        self.ranking = standings(ev)[:RANKED]

    def sizes(self) -> dict[str, int]:
        """How many rows each section has in full."""
        return {
            "games": len(self.games),
            "decisions": len(self.asks),
            "bracket": len(self.lines),
            "results": len(self.results),
            "ranking": len(self.ranking),
        }

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        with speaking(self.lang):
            frame = self.layout(self.fit(console, options))
        yield frame

    def fit(self, console: Console, options: ConsoleOptions) -> FrameLayout:
        """The fullest layout (by :func:`upgrades`) whose frame is no taller than the console."""

        def shown(layout: FrameLayout) -> list[tuple[str, int | bool]]:
            return [("header", 0), *(self._shown(layout, k) for k in _SECTIONS)]

        return fit_height(
            console, options, FrameLayout(), upgrades(self.sizes()), shown, self.section
        )

    def layout(self, layout: FrameLayout) -> Group:
        """The frame with ``layout``'s share of each section."""
        parts = [self.section("header", 0)]
        parts += [self.section(*self._shown(layout, key)) for key in _SECTIONS]
        return Group(*(p for p in parts if p is not None))

    @staticmethod
    def _shown(layout: FrameLayout, key: str) -> tuple[str, int | bool]:
        """The section drawn in ``key``'s place: the whole tree instead of the bracket's
        lines, when it fits."""
        if key == "bracket" and layout.tree:
            return "tree", True
        return key, getattr(layout, key)

    def section(self, key: str, value: int | bool) -> RenderableType | None:
        """One section at the size ``value`` (see :class:`FrameLayout`)."""
        from knockout.event.ranking import decided_records  # noqa: PLC0415  (the engine's records)

        ev = self.event
        n = int(value)
        if key == "header":
            games, asks = len(self.games), len(self.asks)
            status = (
                _("finished, champion {name}").format(name=ev.champion)
                if ev.finished
                else _("{games}, {decisions}").format(
                    games=ngettext("{n:,} game to play", "{n:,} games to play", games).format(
                        n=games
                    ),
                    decisions=ngettext(
                        "{n:,} decision to ask", "{n:,} decisions to ask", asks
                    ).format(n=asks),
                )
            )
            head = Text.assemble(
                (ev.name, "bold"),
                "  "
                + _("entry #{seq}, read {time}").format(
                    seq=ev.entries[-1].seq, time=f"{self.now:%H:%M:%S}"
                )
                + "  ",
                (status, "yellow" if ev.finished else "cyan"),
            )
            if self.away is None:
                return head
            return Group(head, Text(self.away, style="bold red"))
        if key == "games":
            return self._games(n)
        if key == "decisions":
            return self._decisions(n)
        if key == "bracket":
            return self._bracket(n)
        if key == "results":
            return self._results(n) if n else None
        if key == "ranking":
            return self._ranking(n) if n else None
        if key == "tree":
            if not value:
                return None
            return bracket_tree(
                ev.state.bracket, decided_records(ev), title=_("Bracket"), live=self._live_labels()
            )
        raise KeyError(key)

    def _live_labels(self) -> dict[tuple[int, int], Text]:
        """The matches in play, as the tree shows them."""
        out: dict[tuple[int, int], Text] = {}
        for f in self.facts:
            if f.players is None or f.winner is not None or f.match == "3RD":
                continue
            a, b = f.players
            played = f" {f.score}" if f.games else ""
            names = _("{red} v {black}").format(red=a, black=b)
            label = f"{names}{played}  {_next(self.event, f).plain.strip()}"
            out[self.event.find_match(f.match).key] = Text(label, style="cyan")
        return out

    def _games(self, n: int) -> RenderableType:
        if not self.games:
            return Text(
                _("No game can be played now.") if not self.event.finished else "", style="dim"
            )
        if n == 0:
            return Text(
                _("Games to play now: {n} (knockout event next)").format(n=len(self.games)),
                style="bold",
            )
        t = fit_table(_("Games to play now"))
        t.add_column(_("Bd"), justify="right", no_wrap=True)
        t.add_column(_("Match"), no_wrap=True)
        t.add_column(_("G"), justify="right", no_wrap=True)
        t.add_column(_("Stage"), no_wrap=True)
        t.add_column(pgettext("side", "Red"), style="red", overflow="fold")
        t.add_column(pgettext("side", "Black"), overflow="fold")
        t.add_column(_("Clock"), no_wrap=True)
        for g in self.games[:n]:
            t.add_row(
                "-" if g.board is None else str(g.board),
                g.match,
                str(g.number),
                stage_label(g.stage),
                g.red,
                g.black,
                clock_text(g.clock, g.increment_seconds),
            )
        more = len(self.games) - n
        if more <= 0:
            return fitted(t)
        note = Text(
            ngettext(
                "and {n:,} more game to play (knockout event next)",
                "and {n:,} more games to play (knockout event next)",
                more,
            ).format(n=more),
            style="dim",
        )
        return Group(fitted(t), note)

    def _decisions(self, n: int) -> RenderableType | None:
        if not self.asks:
            return None
        head = Text(_("Decisions to ask: {n}").format(n=len(self.asks)), style="bold yellow")
        lines: list[RenderableType] = [head, *(decision_line(d) for d in self.asks[:n])]
        more = len(self.asks) - n
        if more > 0:
            lines.append(Text(_("and {n} more (knockout event next)").format(n=more), style="dim"))
        return Group(*lines)

    def _bracket(self, n: int) -> RenderableType:
        decided = sum(1 for f in self.facts if f.winner is not None)
        total = len(self.facts)
        head = Text.assemble(
            (_("Bracket"), "bold"),
            ngettext(
                ": {decided} of {n:,} match decided", ": {decided} of {n:,} matches decided", total
            ).format(decided=decided, n=total),
        )
        if n == 0:
            return head
        lines: list[RenderableType] = [head, *self.lines[:n]]
        more = len(self.lines) - n
        if more > 0:
            lines.append(Text(_("and {n} more (knockout event show)").format(n=more), style="dim"))
        return Group(*lines)

    def _results(self, n: int) -> Table:
        t = fit_table(_("Latest results"))
        t.add_column(_("Match"), no_wrap=True)
        t.add_column(_("G"), justify="right", no_wrap=True)
        t.add_column(pgettext("side", "Red"), style="red", overflow="fold")
        t.add_column("", no_wrap=True)
        t.add_column(pgettext("side", "Black"), overflow="fold")
        for g in self.results[:n]:
            t.add_row(g.match, str(g.number), g.red, score(g.result), g.black)
        return fitted(t)

    def _ranking(self, n: int) -> Table:
        t = fit_table(_("Final ranking") if self.event.finished else _("Ranking so far"))
        t.add_column("#", justify="right", no_wrap=True)
        t.add_column(_("Player"), overflow="fold")
        t.add_column(_("Reached"), no_wrap=True)
        t.add_column(_("Pts"), justify="right", no_wrap=True)
        for s in self.ranking[:n]:
            t.add_row(str(s.rank), s.name, reached_label(s.reached), f"{s.points.normalize():f}")
        return fitted(t)
