"""The SimPy event engine: a whole knockout event played on a limited number of boards.

Every round's matches start together; each game holds one board (a SimPy ``PriorityResource``)
while it is played, and a playoff game gets the next free board before any match's first game,
so playoffs follow their match the same day. A round starts ``round_gap_minutes`` after the
previous one has finished; consecutive games of a match are ``gap_minutes`` apart. Byes advance
without a match; a withdrawn player loses by walkover; games already played (``[[played]]``) are
replayed into the records and their matches continue from there.

The result records when each round ends and the event's total duration (simulated seconds from
the start), so organisers can plan sessions; many seeds give the duration's distribution.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Sequence
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from knockout.engine.match import LiveGame, LogEvent, MatchEngine, Observer
from knockout.engine.records import EventRecord, MatchRecord, RoundRecord
from knockout.rules.book.bracket import Bracket, round_name
from knockout.rules.chain.progress import THIRD_PLACE, EventState
from knockout.rules.model.uncertainty import draw_strengths
from knockout.rules.scenario.aggregate import Scenario

__all__ = [
    "EndTimes",
    "EventRecord",
    "EventRun",
    "RoundRecord",
    "ScheduleSummary",
    "event_process",
    "play_event",
    "schedule_summary",
]

if TYPE_CHECKING:
    import simpy


def _simpy() -> Any:
    """SimPy, imported when the engine first runs: the organiser's short commands rank events
    with the engine's records and never start it."""
    import simpy  # noqa: PLC0415 (start-up: simpy, loaded when the engine plays)

    return simpy


def event_process(
    env: simpy.Environment, engine: MatchEngine, scenario: Scenario, state: EventState
) -> Generator[simpy.Event, Any, EventRecord]:
    """SimPy process: play the whole event; returns its record."""
    bracket = state.bracket
    gap = scenario.schedule.round_gap_minutes * 60.0
    alive: list[str | None] = list(bracket.lines)
    rounds: list[RoundRecord] = []
    third: MatchRecord | None = None
    for k in range(1, bracket.rounds + 1):
        if k > 1 and gap > 0:
            yield env.timeout(gap)
        start = float(env.now)
        name = round_name(k, bracket.rounds)
        engine.emit("round_start", f"{name.capitalize()} begins", ("", ""))
        slots: list[MatchRecord | simpy.Process] = []
        next_alive: list[str | simpy.Process | MatchRecord | None] = []
        for m in range(len(alive) // 2):
            up, down = alive[2 * m], alive[2 * m + 1]
            if up is None or down is None:
                next_alive.append(down if up is None else up)
                continue
            slot = _start_match(env, engine, scenario, state, (k, m), up, down)
            slots.append(slot)
            next_alive.append(slot)
        third_slot: MatchRecord | simpy.Process | None = None
        if k == bracket.rounds and bracket.third_place and rounds:
            losers = [mr.loser for mr in rounds[-1].matches]
            if len(losers) == 2:
                key = (k, THIRD_PLACE)
                third_slot = _start_match(env, engine, scenario, state, key, *losers)
        processes = [x for x in [*slots, third_slot] if isinstance(x, _simpy().Process)]
        if processes:
            yield _simpy().AllOf(env, processes)
        records = [_record(x) for x in slots]
        alive = [x if x is None or isinstance(x, str) else _record(x).winner for x in next_alive]
        if third_slot is not None:
            third = _record(third_slot)
        rounds.append(RoundRecord(k, name, start, float(env.now), tuple(records)))
        engine.emit("round_end", f"{name.capitalize()} ends", ("", ""))
    return EventRecord(bracket, tuple(rounds), third, float(env.now))


def _start_match(
    env: simpy.Environment,
    engine: MatchEngine,
    scenario: Scenario,
    state: EventState,
    key: tuple[int, int],
    up: str,
    down: str,
) -> MatchRecord | simpy.Process:
    """A walkover record, or the SimPy process playing the match (from its games so far)."""
    progress = state.progress.get(key)
    played = () if progress is None else progress.games
    winner = state.walkover(key, up, down)
    if winner is not None:
        return engine.walkover((up, down), winner, played)
    players = {p.name: p for p in scenario.players}
    position = None if progress is None else progress.replayed
    return env.process(engine.match(players[up], players[down], played, position))


def _record(slot: MatchRecord | simpy.Process) -> MatchRecord:
    record = slot if isinstance(slot, MatchRecord) else slot.value
    assert isinstance(record, MatchRecord)
    return record


class EventRun:
    """An event being played in simulated time: advance it, read where it stands.

    The engine owns the SimPy environment; viewers (the live dashboard) only read the run's
    state between steps: :attr:`now`, :attr:`live` games, :attr:`finished` matches and the
    :attr:`log`.

    Args:
        scenario: A bracket scenario.
        seed: Seed of the run's only random generator.
        observer: Called with every log event as it happens.
        move_by_move: Games advance move by move (a live view reads their clocks); False for
            a run played to the end unwatched (:attr:`MatchEngine.move_by_move`).
    """

    def __init__(
        self,
        scenario: Scenario,
        *,
        seed: int,
        observer: Observer | None = None,
        move_by_move: bool = True,
    ):
        self.scenario = scenario
        self.seed = seed
        self.state = scenario.event_state()
        self.env = _simpy().Environment()
        rng = np.random.default_rng(seed)
        # True strengths are drawn once for the event (rating_sd); the draw and the ranking
        # keep the published ratings.
        playing = replace(scenario, players=draw_strengths(scenario.players, rng))
        self.engine = MatchEngine.for_scenario(
            self.env, scenario, rng, observer=observer, boards=True, move_by_move=move_by_move
        )
        self._process = self.env.process(event_process(self.env, self.engine, playing, self.state))

    @property
    def bracket(self) -> Bracket:
        """The draw."""
        return self.state.bracket

    @property
    def now(self) -> float:
        """Simulated seconds since the start."""
        return float(self.env.now)

    @property
    def done(self) -> bool:
        """Whether the event is over."""
        return not self._process.is_alive

    @property
    def live(self) -> dict[tuple[str, str], LiveGame]:
        """Games on the boards, by the pair of names (updated move by move)."""
        return self.engine.live

    @property
    def finished(self) -> list[MatchRecord]:
        """Matches finished so far, in order."""
        return self.engine.finished

    @property
    def log(self) -> list[LogEvent]:
        """Every event so far, in order."""
        return self.engine.log

    def advance(self, seconds: float) -> None:
        """Play on for ``seconds`` of simulated time (or to the end), through quiet spells too."""
        if not self.done:
            self.env.run(until=self.env.now + seconds)

    def run(self) -> EventRecord:
        """Play to the end; returns the record."""
        self.env.run()
        return self.record

    @property
    def record(self) -> EventRecord:
        """The finished event's record.

        Raises:
            RuntimeError: If the event is not over.
        """
        if not self.done:
            raise RuntimeError("the event is still running")
        record = self._process.value
        assert isinstance(record, EventRecord)
        return record


def play_event(
    scenario: Scenario,
    *,
    seed: int,
    observer: Observer | None = None,
) -> tuple[EventRecord, list[LogEvent]]:
    """Play the scenario's whole event in a fresh environment; returns its record and its log.
    Nobody watches its clocks, so each game is one wait (the same records as move by move)."""
    run = EventRun(scenario, seed=seed, observer=observer, move_by_move=False)
    return run.run(), run.log


@dataclass(frozen=True)
class EndTimes:
    """When one round (or the whole event) ended, over many played events (simulated seconds).

    Quantiles are inclusive (numpy's linear interpolation between order statistics), so they
    always lie between the smallest and the largest time.
    """

    mean: float
    sd: float
    stderr: float
    p05: float
    median: float
    p95: float
    min: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> EndTimes:
        """Summary statistics of ``values`` (at least one)."""
        x = np.asarray(values, dtype=np.float64)
        sd = float(x.std(ddof=1)) if x.size > 1 else 0.0
        p05, median, p95 = (float(q) for q in np.quantile(x, [0.05, 0.5, 0.95]))
        return cls(
            mean=float(x.mean()),
            sd=sd,
            stderr=sd / math.sqrt(x.size),
            p05=p05,
            median=median,
            p95=p95,
            min=float(x.min()),
            max=float(x.max()),
        )

    def to_json(self) -> dict[str, float]:
        """Every figure, rounded to 0.1 s."""
        return {k: round(v, 1) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class ScheduleSummary:
    """How long an event takes: end times of each round and of the event, over ``runs`` plays.

    Attributes:
        runs: Events played (seeds ``seed``, ``seed + 1``, ...).
        seed: The first seed.
        ends: By round name, then ``event``: the end-time statistics.
    """

    runs: int
    seed: int
    ends: dict[str, EndTimes]

    def to_json(self) -> dict[str, Any]:
        """``{"runs", "ends": {round: {mean, sd, stderr, p05, median, p95, min, max}}}``."""
        return {"runs": self.runs, "ends": {k: e.to_json() for k, e in self.ends.items()}}


def schedule_summary(
    scenario: Scenario,
    runs: int,
    seed: int,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> ScheduleSummary:
    """Play the event ``runs`` times (seeds ``seed``, ``seed + 1``, ...) and summarise when
    each round and the event end; ``progress`` is called with (events played, runs)."""
    ends: list[list[float]] = []
    names: list[str] = []
    for i in range(runs):
        record, _ = play_event(scenario, seed=seed + i)
        ends.append([r.end for r in record.rounds] + [record.duration])
        names = [r.name for r in record.rounds] + ["event"]
        if progress is not None:
            progress(i + 1, runs)
    columns = list(zip(*ends, strict=True))
    return ScheduleSummary(
        runs, seed, {n: EndTimes.of(col) for n, col in zip(names, columns, strict=True)}
    )
