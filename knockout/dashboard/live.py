"""The live terminal dashboard: a knockout event filling in as the SimPy engine plays it.

:class:`LiveEvent` advances the simulation in steps of ``speed`` simulated seconds per real
second and redraws: the clock and current round, the games on the boards with both clocks, the
latest events (including each sudden-death announcement and reply), and the bracket tree with
results so far. The clock and the sleep are injected, so tests can render frames without waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text

from knockout.dashboard.bracket import bracket_entrant, bracket_tree, clock
from knockout.engine.event import EventRecord, EventRun
from knockout.engine.match import LogEvent, MatchRecord
from knockout.io.scenario import Scenario
from knockout.rules.bracket import round_name

__all__ = ["LiveEvent"]


def _mmss(seconds: float) -> str:
    s = max(0, round(seconds))
    return f"{s // 60}:{s % 60:02d}"


#: Log events shown under "Latest".
_SHOWN = ("bid", "match_end", "flag", "round_start", "round_end")


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
        max_board_rows: Games listed on the boards table (the rest are counted).
        recent_count: How many of the latest events are shown.
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
        """The current picture."""
        header = Text.assemble(
            (self.scenario.name, "bold"),
            f"   simulated time {clock(self.run.now)}   {self.round}   ",
            (f"{len(self.run.live)} games on {self.scenario.schedule.boards} boards", "cyan"),
        )
        boards = Table(
            box=box.SIMPLE_HEAD, pad_edge=False, title="On the boards", title_justify="left"
        )
        boards.add_column("Stage")
        boards.add_column("Red", style="red", no_wrap=True)
        boards.add_column("clock", justify="right")
        boards.add_column("Black", no_wrap=True)
        boards.add_column("clock", justify="right")
        boards.add_column("Move", justify="right")
        live_labels: dict[tuple[int, int], Text] = {}
        bracket = self.run.bracket
        results = self.results()
        eliminated = {m.loser for m in results.values()}
        shown = 0
        for names, g in list(self.run.live.items()):
            shown += 1
            if shown > self.max_board_rows:
                continue
            boards.add_row(
                g.stage,
                g.red,
                _mmss(g.clock_seconds[0]),
                g.black,
                _mmss(g.clock_seconds[1]),
                str(g.moves + 1),
            )
            if names[0] not in eliminated and names[1] not in eliminated:
                slot = bracket.meeting_round(*names)
                red_clock, black_clock = (_mmss(c) for c in g.clock_seconds)
                live_labels[slot] = Text(
                    f"{g.red} v {g.black} {g.stage} {red_clock}/{black_clock}", style="cyan"
                )
        events = Table(
            box=None, show_header=False, pad_edge=False, title="Latest", title_justify="left"
        )
        events.add_column("time", style="dim", justify="right")
        events.add_column("event")
        for e in self.recent:
            events.add_row(clock(e.time), e.text)
        current = self._current_round(results)
        this_round = Columns(
            [self._cell(current, m, results, live_labels) for m in range(bracket.size >> current)],
            padding=(0, 2),
            equal=True,
            title=Text(f"This round ({round_name(current, bracket.rounds)})", style="italic"),
        )
        tree = bracket_tree(
            bracket, results, title="Bracket (last rounds)", live=live_labels, depth=3
        )
        return Group(header, boards, events, this_round, tree)

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
