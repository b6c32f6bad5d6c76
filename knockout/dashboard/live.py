"""The live terminal dashboard: a knockout event filling in as the SimPy engine plays it.

:class:`LiveEvent` advances the simulation in steps of ``speed`` simulated seconds per real
second and redraws: the headline (the clock and current round), the games on the boards with
both clocks, the latest events (including each sudden-death announcement and reply), this round's
matches, and the bracket tree with results so far. The clock and the sleep are injected, so tests
can render frames without waiting.

A frame fits the terminal it is drawn on: the headline always shows; below it, the sections give
way from the bottom up (fewer rounds of the tree, fewer latest events, fewer board rows, then one
summary line for this round and for the bracket) until the frame fits the terminal's height.
Games in play beyond the board rows shown are counted, and each is still on the bracket.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.live import Live
from rich.text import Text

from knockout.dashboard.bracket import bracket_entrant, bracket_tree, clock
from knockout.dashboard.fit import fit_height, fitted, table
from knockout.dashboard.times import duration
from knockout.engine.event import EventRecord, EventRun
from knockout.engine.match import LiveGame, LogEvent, MatchRecord
from knockout.io.text import plural
from knockout.rules.book.bracket import round_name
from knockout.rules.scenario.aggregate import Scenario

__all__ = ["UPGRADES", "Layout", "LiveEvent"]


#: The sections under the headline, top to bottom (the fields of :class:`Layout`).
_SECTIONS = ("board_rows", "recent", "this_round", "tree_depth")

#: Log events shown under "Latest".
_SHOWN = ("bid", "match_end", "flag", "round_start", "round_end")


@dataclass(frozen=True)
class Layout:
    """How much of each section a frame shows.

    Attributes:
        board_rows: Games listed on the boards (the rest are counted).
        recent: Latest events listed.
        this_round: Every match of this round, or one summary line.
        tree_depth: Rounds of the bracket tree shown (from the final down); 0: one summary line.
    """

    board_rows: int = 0
    recent: int = 0
    this_round: bool = False
    tree_depth: int = 0


#: What a frame adds, in this order, to the barest layout (the headline and one summary line
#: per section) while it still fits the terminal's height: a few board rows and latest events,
#: the final, the other board rows and events, this round in full, then deeper rounds.
UPGRADES: tuple[tuple[str, int | bool], ...] = (
    *(("board_rows", n) for n in range(1, 5)),
    *(("recent", n) for n in range(1, 4)),
    ("tree_depth", 1),
    *(("board_rows", n) for n in range(5, 9)),
    *(("recent", n) for n in range(4, 7)),
    ("this_round", True),
    ("tree_depth", 2),
    ("tree_depth", 3),
)


@dataclass
class LiveEvent:
    """Shows an event run live: advances it frame by frame and redraws.

    The run (:class:`~knockout.engine.event.EventRun`) owns the simulation; this view only asks
    it to play on and reads where it stands.

    Attributes:
        run: The event being played.
        speed: Simulated seconds per real second.
        fps: Redraws per real second.
        sleep: Waits between frames (``time.sleep``; tests pass a no-op).
        max_board_rows: At most this many games listed on the boards table (the rest are counted).
        recent_count: At most this many of the latest events are shown.
    """

    run: EventRun
    speed: float = 1200.0
    fps: float = 4.0
    sleep: Callable[[float], None] = time.sleep
    max_board_rows: int = 8
    recent_count: int = 6

    @property
    def scenario(self) -> Scenario:
        """The scenario being played."""
        return self.run.scenario

    @property
    def recent(self) -> list[LogEvent]:
        """The latest events worth showing (bids, results, flag falls, rounds)."""
        shown = [e for e in self.run.log if e.kind in _SHOWN]
        return shown[-self.recent_count :]

    @property
    def round(self) -> str:
        """The current round's name, or ``<name> over`` between rounds."""
        for e in reversed(self.run.log):
            if e.kind == "round_start":
                return e.text.removesuffix(" begins").lower()
            if e.kind == "round_end":
                return f"{e.text.removesuffix(' ends').lower()} over"
        return "round 1"

    @property
    def done(self) -> bool:
        """Whether the event is over."""
        return self.run.done

    def step(self) -> None:
        """Advance the simulation by one frame's worth of simulated time."""
        self.run.advance(self.speed / self.fps)

    def third_place(self) -> MatchRecord | None:
        """The finished match for third place, if any (it is not on the tree)."""
        losers: set[str] = set()
        for m in self.run.finished:
            if m.players[0] in losers and m.players[1] in losers:
                return m
            losers.add(m.loser)
        return None

    def results(self) -> dict[tuple[int, int], MatchRecord]:
        """Finished matches placed on the bracket."""
        bracket = self.run.bracket
        out: dict[tuple[int, int], MatchRecord] = {}
        losers: set[str] = set()
        for m in self.run.finished:
            if m.players[0] in losers and m.players[1] in losers:
                continue  # the match for third place: not on the tree
            out[bracket.meeting_round(*m.players)] = m
            losers.add(m.loser)
        return out

    def frame(self) -> RenderableType:
        """The current picture; it fits the console it is drawn on (see the module)."""
        results = self.results()
        eliminated = {m.loser for m in results.values()}
        games = list(self.run.live.items())
        labels: dict[tuple[int, int], Text] = {}
        third: Text | None = None
        for names, g in games:
            if names[0] not in eliminated and names[1] not in eliminated:
                labels[self.run.bracket.meeting_round(*names)] = _live_label(g)
            else:  # two players out of the bracket: the match for third place
                third = _live_label(g)
        done = self.third_place()
        if done is not None:
            third = Text.assemble((done.winner, "green"), f" > {done.loser} ({done.decided_in})")
        header = Text.assemble(
            (self.scenario.name, "bold"),
            f"   simulated time {clock(self.run.now)}   {self.round}   ",
            (
                f"{plural(len(games), 'game')} on {self.scenario.schedule.boards} boards",
                "cyan",
            ),
        )
        started = frozenset(frozenset(e.players) for e in self.run.log if e.kind == "match_start")
        return _Frame(self, header, [g for _, g in games], labels, results, started, third)

    def _current_round(self, results: dict[tuple[int, int], MatchRecord]) -> int:
        """The lowest round with a match still to finish."""
        bracket = self.run.bracket
        for k in range(1, bracket.rounds + 1):
            for m in range(bracket.size >> k):
                block = bracket.lines[m << k : (m + 1) << k]
                real = [x for x in block if x is not None]
                if len(real) > 1 and (k, m) not in results:
                    return k
        return bracket.rounds

    def _cell(
        self,
        k: int,
        m: int,
        results: dict[tuple[int, int], MatchRecord],
        live: dict[tuple[int, int], Text],
        started: frozenset[frozenset[str]] = frozenset(),
    ) -> Text:
        if (k, m) in live:
            return live[(k, m)]
        r = results.get((k, m))
        if r is not None:
            how = "walkover" if r.decided_in == "walkover" else r.decided_in
            return Text.assemble((r.winner, "green"), f" > {r.loser} ({how})")
        bracket = self.run.bracket
        up = bracket_entrant(bracket, results, k, 2 * m)
        down = bracket_entrant(bracket, results, k, 2 * m + 1)
        if k == 1 and (up is None or down is None):
            return Text(f"{up or down} (bye)", style="dim")
        if up is not None and down is not None and frozenset((up, down)) in started:
            return Text(f"{up} v {down} (between games)", style="cyan")
        return Text(f"{up or '?'} v {down or '?'} (waiting)", style="dim")

    def play(self, console: Console) -> EventRecord:
        """Play to the end, redrawing on ``console``; returns the record."""
        with Live(
            self.frame(),
            console=console,
            auto_refresh=False,
            vertical_overflow="crop",
            transient=False,
        ) as live:
            while not self.done:
                self.step()
                live.update(self.frame(), refresh=True)
                self.sleep(1.0 / self.fps)
        return self.run.record


def _live_label(g: LiveGame) -> Text:
    """A game in play as the bracket shows it: who, the stage, both clocks left."""
    red, black = (duration(c) for c in g.clock_seconds)
    return Text(f"{g.red} v {g.black}: {g.stage}, {red} / {black} left", style="cyan")


@dataclass
class _Frame:
    """One frame: what the run showed when it was taken, laid out at render time to fit the
    console's width and height."""

    view: LiveEvent
    header: Text
    games: list[LiveGame]
    labels: dict[tuple[int, int], Text]
    results: dict[tuple[int, int], MatchRecord]
    started: frozenset[frozenset[str]]
    third: Text | None = None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.layout(self.fit(console, options))

    def fit(self, console: Console, options: ConsoleOptions) -> Layout:
        """The richest layout (by :data:`UPGRADES`) whose frame is no taller than the console."""

        def shown(layout: Layout) -> list[tuple[str, int | bool]]:
            return [("header", 0), *((k, getattr(layout, k)) for k in _SECTIONS)]

        return fit_height(console, options, Layout(), UPGRADES, shown, self.section)

    def layout(self, layout: Layout) -> Group:
        """The frame with ``layout``'s share of each section."""
        parts = [self.section("header", 0)]
        parts += [self.section(key, getattr(layout, key)) for key in _SECTIONS]
        return Group(*(p for p in parts if p is not None))

    def section(self, key: str, value: int | bool) -> RenderableType | None:
        """One section of the frame at the size ``value`` (see :class:`Layout`)."""
        if key == "header":
            return self.header
        if key == "board_rows":
            rows = min(int(value), self.view.max_board_rows)
            if rows and self.games:
                return self._boards(rows)
            playing = plural(len(self.games), "game") if self.games else "no game"
            return Text(f"On the boards: {playing} in play", style="dim")
        if key == "recent":
            count = min(int(value), self.view.recent_count)
            recent = self.view.recent[-count:] if count else []
            return self._latest(recent) if recent else None
        if key == "this_round":
            return self._this_round(full=bool(value))
        return self._tree(int(value))

    def _boards(self, rows: int) -> RenderableType:
        boards = table("On the boards")
        boards.add_column("Stage", no_wrap=True)
        boards.add_column("Red", style="red", overflow="fold")
        boards.add_column("clock", justify="right", no_wrap=True)
        boards.add_column("Black", overflow="fold")
        boards.add_column("clock", justify="right", no_wrap=True)
        boards.add_column("Move", justify="right", no_wrap=True)
        for g in self.games[:rows]:
            boards.add_row(
                g.stage,
                g.red,
                duration(g.clock_seconds[0], to_the_second=True),
                g.black,
                duration(g.clock_seconds[1], to_the_second=True),
                str(g.moves + 1),
            )
        more = len(self.games) - rows
        if more <= 0:
            return fitted(boards)
        note = Text(f"and {plural(more, 'more game')} in play (on the bracket below)", style="dim")
        return Group(fitted(boards), note)

    def _latest(self, recent: list[LogEvent]) -> RenderableType:
        events = table("Latest", box=None, show_header=False)
        events.add_column("time", style="dim", justify="right", no_wrap=True)
        events.add_column("event", overflow="fold")
        for e in recent:
            events.add_row(clock(e.time), e.text)
        return fitted(events)

    def _this_round(self, *, full: bool) -> RenderableType:
        view = self.view
        bracket = view.run.bracket
        k = view._current_round(self.results)
        cells = [
            view._cell(k, m, self.results, self.labels, self.started)
            for m in range(bracket.size >> k)
        ]
        title = f"This round ({round_name(k, bracket.rounds)})"
        if k == bracket.rounds and self.third is not None:
            cells.append(Text.assemble("third place: ", self.third))
        if full:
            return Columns(cells, padding=(0, 2), equal=True, title=Text(title, style="italic"))
        decided = sum(1 for m in range(bracket.size >> k) if (k, m) in self.results)
        playing = sum(
            1
            for m, c in enumerate(cells)
            if (k, m) in self.labels or c.plain.endswith("(between games)")
        )
        matches = sum(
            1 for c in cells if not c.plain.endswith("(bye)") and not c.plain.startswith("third")
        )
        waiting = matches - decided - playing
        return Text.assemble(
            (title, "italic"),
            f": {decided} of {plural(matches, 'match', 'matches')} decided, {playing} in play, "
            f"{waiting} waiting",
        )

    def _tree(self, depth: int) -> RenderableType:
        bracket = self.view.run.bracket
        if depth > 0:
            return bracket_tree(
                bracket,
                self.results,
                title="Bracket (last rounds)",
                live=self.labels,
                depth=depth,
            )
        matches = sum(
            1
            for k in range(1, bracket.rounds + 1)
            for m in range(bracket.size >> k)
            if len([x for x in bracket.lines[m << k : (m + 1) << k] if x is not None]) > 1
        )
        out = {m.loser for m in self.results.values()}
        still_in = sum(1 for name in bracket.lines if name is not None and name not in out)
        final = self.results.get((bracket.rounds, 0))
        return Text.assemble(
            f"Bracket: {len(self.results)} of {plural(matches, 'match', 'matches')} decided, "
            f"{plural(still_in, 'player')} still in",
            ("" if final is None else f"; champion: {final.winner}", "bold yellow"),
        )
