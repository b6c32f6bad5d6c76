"""The SimPy match engine: plays a match game by game, move by move, in simulated time.

The engine walks the same chain as the exact solver (:mod:`knockout.rules.chain.match`): at each
state it asks :func:`~knockout.rules.chain.match.next_decision` how the next game is set up (a typed
decision of :mod:`knockout.rules.decisions.kinds`: one handler, :meth:`MatchEngine._settle`, draws
and narrates each kind), draws the game's result **from the model**, plays the game out on two
clocks, then asks :func:`~knockout.rules.chain.match.advance` where the result leads. Clocks never
decide results: a player's time used is drawn as ``base * Normal(mean, sd)`` (their ``speed``),
independent of the result, and the number of moves is chosen so that the clocks are consistent with
the result. A loser whose drawn time exceeds what the clock allows is recorded as losing on time
(flag fall); a player who does not lose never flags. The only place the engine can differ from the
exact layer is when a speed distribution puts mass below zero time or above the clock's capacity
(clipped), which the default speeds never do in practice.

Simulated time is in seconds. Everything is deterministic for a given ``rng`` seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, assert_never

import numpy as np

from knockout.engine.records import GameRecord, MatchRecord, decision_fields
from knockout.game import Colour, Reply, Result
from knockout.io.text import plural
from knockout.points import knockout_points
from knockout.rules.book.formats import Format, Stage
from knockout.rules.chain.match import (
    MatchState,
    Position,
    advance,
    next_decision,
)
from knockout.rules.chain.pairing import Pairing
from knockout.rules.chain.replay import PlayedGame, replay
from knockout.rules.decisions.kinds import (
    Bid,
    Bidding,
    Choice,
    CutChoice,
    Decision,
    Fixed,
    Lot,
    OtherDecision,
    SealedBids,
    Side,
    handler_of,
    other,
    p_chooser_from_times,
)
from knockout.rules.decisions.strategies import Strategy
from knockout.rules.model.players import Player
from knockout.rules.model.strength import DEFAULT_MODEL, GameProbabilities, ModelParams
from knockout.rules.model.uncertainty import draw_strengths
from knockout.rules.scenario.aggregate import Scenario

__all__ = [
    "EventKind",
    "GameRecord",
    "LiveGame",
    "LogEvent",
    "MatchEngine",
    "MatchRecord",
    "Observer",
    "play_match",
    "play_scenario_match",
]

if TYPE_CHECKING:
    import simpy


def _simpy() -> Any:
    """SimPy, imported when the engine first runs: the organiser's short commands rank events
    with the engine's records and never start it."""
    import simpy  # noqa: PLC0415 (start-up: simpy, loaded when the engine plays)

    return simpy


EventKind = Literal[
    "match_start",
    "game_start",
    "bid",
    "flag",
    "game_end",
    "match_end",
    "round_start",
    "round_end",
]

#: Moves per side in a game: Normal(mean, sd), at least MIN_MOVES (raised if a clock needs it).
MOVES_MEAN, MOVES_SD, MIN_MOVES = 55.0, 18.0, 12


#: The engine's handler of each added colour rule's decision
#: (:class:`~knockout.rules.decisions.kinds.OtherDecision`): who has Red in the game, drawn with
#: the engine's random numbers (the recorded decision's, if it is recorded).
OtherHandler = Callable[[Pairing, MatchState, OtherDecision, np.random.Generator], Side]
OTHER_DECISIONS: dict[type[OtherDecision], OtherHandler] = {}


@dataclass(frozen=True)
class _Setup:
    """How the engine's next game is set up: who has Red, the base clocks, the outcome
    probabilities, and the decisions that led there (for the record)."""

    red: Side
    clocks: tuple[float, float]
    probs: GameProbabilities
    bid: tuple[Side, Colour, Reply] | None = None
    sealed: dict[str, float] | None = None
    choice: tuple[Side, Colour] | None = None
    cutter: Side | None = None


@dataclass(frozen=True)
class LogEvent:
    """One line of the event log: what happened, when (simulated seconds), in plain words."""

    time: float
    kind: EventKind
    text: str
    players: tuple[str, str]


@dataclass
class LiveGame:
    """A game in progress, updated move by move (read by live dashboards).

    Mutable on purpose: the engine owns it and changes it as the game is played.
    """

    stage: str
    red: str
    black: str
    clock_seconds: list[float]
    moves: int = 0
    to_move: Colour = Colour.RED
    result: Result | None = None


Observer = Callable[[LogEvent], None]


@dataclass
class MatchEngine:
    """Plays matches of one format in a SimPy environment.

    Attributes:
        env: The SimPy environment (shared with a bracket's schedule, if any).
        fmt: Match format.
        model: Model constants.
        strategy: Bidding strategy.
        rng: The only source of randomness.
        observer: Called with every :class:`LogEvent` as it happens.
        gap_seconds: Pause between consecutive games of a match.
        boards: Optional SimPy resource; each game holds one board while it is played, and
            games of later stages (playoffs) get the next free board first.
        log: Every event so far, in order (the engine appends).
        live: Games in progress, by the pair of names (the engine updates).
        finished: Matches finished so far, in order (the engine appends).
        move_by_move: Games advance move by move, so that a live view reads the clocks between
            moves; False: each game is one wait to the instant its last move would end (the
            same sum, so the same records), for runs nobody watches: most of a schedule's
            SimPy events are moves.
    """

    env: simpy.Environment
    fmt: Format
    model: ModelParams
    strategy: Strategy
    rng: np.random.Generator
    observer: Observer | None = None
    gap_seconds: float = 0.0
    boards: simpy.PriorityResource | None = None
    log: list[LogEvent] = field(default_factory=list)
    live: dict[tuple[str, str], LiveGame] = field(default_factory=dict)
    finished: list[MatchRecord] = field(default_factory=list)
    move_by_move: bool = True

    @classmethod
    def for_scenario(
        cls,
        env: simpy.Environment,
        scenario: Scenario,
        rng: np.random.Generator,
        *,
        observer: Observer | None = None,
        boards: bool = False,
        move_by_move: bool = True,
    ) -> MatchEngine:
        """The engine for a scenario's format, model and strategy.

        With ``boards``, games hold one of the ``[schedule]`` boards and consecutive games of a
        match are ``gap_minutes`` apart (an event); without, games follow each other at once.
        """
        return cls(
            env,
            scenario.format,
            scenario.model,
            scenario.strategy,
            rng,
            observer=observer,
            gap_seconds=scenario.schedule.gap_minutes * 60.0 if boards else 0.0,
            boards=_simpy().PriorityResource(env, capacity=scenario.schedule.boards)
            if boards
            else None,
            move_by_move=move_by_move,
        )

    def emit(self, kind: EventKind, text: str, players: tuple[str, str]) -> None:
        """Append an event to the log and tell the observer."""
        self._emit(kind, text, players)

    def _emit(self, kind: EventKind, text: str, players: tuple[str, str]) -> None:
        event = LogEvent(float(self.env.now), kind, text, players)
        self.log.append(event)
        if self.observer is not None:
            self.observer(event)

    def match(
        self,
        a: Player,
        b: Player,
        played: tuple[PlayedGame, ...] = (),
        position: Position | None = None,
    ) -> Generator[simpy.Event, Any, MatchRecord]:
        """SimPy process: play a match between ``a`` and ``b``; returns its record.

        ``played``: games already played (``[[played]]``); the match continues from there
        (``position``: where they leave it, when the scenario has placed them already). A
        sudden-death bid recorded there without its game is the choice of that game: it is
        played on the colours and clocks the bid gives.
        """
        fmt = self.fmt
        pairing = Pairing.of(fmt, a, b, model=self.model, strategy=self.strategy)
        names = (a.name, b.name)
        players = (a, b)
        start = float(self.env.now)
        self._emit("match_start", f"Match {a.name} v {b.name} begins", names)
        games = self._replayed_records(played)
        replayed = replay(fmt, a.name, b.name, played) if position is None else position
        state = replayed.state
        while isinstance(state, MatchState):
            stage = fmt.playable[state.stage]
            decision = next_decision(fmt, state, replayed)
            setup = self._settle(decision, pairing, state, games, names)
            red = setup.red
            result = _draw_result(setup.probs, self.rng)
            if games and self.gap_seconds > 0 and not games[-1].replayed:
                yield self.env.timeout(self.gap_seconds)
            record = yield self.env.process(
                self._game(len(games) + 1, state.stage, stage, players, setup, result)
            )
            games.append(record)
            state = advance(fmt, state, red, result)
        winner = names[state.winner]
        decided_in = fmt.playable[state.stage].name
        self._emit(
            "match_end",
            f"{winner} wins the match ({decided_in}, {plural(len(games), 'game')})",
            names,
        )
        record = MatchRecord(names, winner, decided_in, tuple(games), start, float(self.env.now))
        self.finished.append(record)
        return record

    def walkover(
        self, players: tuple[str, str], winner: str, played: tuple[PlayedGame, ...] = ()
    ) -> MatchRecord:
        """Record a walkover: ``winner`` advances (the other player withdrew), after the games
        already ``played`` (if the withdrawal came in the middle of the match)."""
        loser = players[1] if winner == players[0] else players[0]
        self._emit("match_end", f"{winner} wins by walkover ({loser} withdrew)", players)
        now = float(self.env.now)
        games = tuple(self._replayed_records(played))
        record = MatchRecord(players, winner, "walkover", games, now, now)
        self.finished.append(record)
        return record

    def _replayed_records(self, played: tuple[PlayedGame, ...]) -> list[GameRecord]:
        """The records of the games already played (a bid entry is not a game)."""
        games = [g for g in played if g.result is not None]
        return [
            self._replayed_record(n, self.fmt.stage(g.stage), g)
            for n, g in enumerate(games, start=1)
        ]

    def _replayed_record(self, number: int, stage: Stage, g: PlayedGame) -> GameRecord:
        assert g.result is not None
        red_pts, black_pts = knockout_points(g.result, draw_winner=stage.draw_winner)
        used = g.time_used or {}
        clock = stage.minutes if g.made is None else g.made.clock(stage)
        return GameRecord(
            number=number,
            stage=stage.name,
            red=g.red,
            black=g.black,
            clock=clock,
            increment_seconds=stage.increment_seconds,
            result=g.result,
            time_used={
                g.red: used.get(g.red, float("nan")),
                g.black: used.get(g.black, float("nan")),
            },
            points={g.red: red_pts, g.black: black_pts},
            moves=0,
            flag_fall=None,
            start=float(self.env.now),
            end=float(self.env.now),
            replayed=True,
            **decision_fields(g.made, g.red, g.black),
        )

    def _lot(self, p_first: float) -> Side:
        """Side 0 with probability ``p_first`` (no random number is used when it is certain)."""
        if p_first >= 1.0:
            return 0
        if p_first <= 0.0:
            return 1
        return 0 if self.rng.random() < p_first else 1

    def _settle(
        self,
        decision: Decision,
        pairing: Pairing,
        state: MatchState,
        games: list[GameRecord],
        names: tuple[str, str],
    ) -> _Setup:
        """The next game's colours, clocks and outcome probabilities, by how it is set up: a
        side the rules fix, a lot, the players' decisions (drawn under the strategy, or as
        recorded), each narrated in the log."""
        stage = self.fmt.playable[state.stage]
        match decision:
            case Fixed(red=red):
                return _Setup(red, stage.minutes, pairing.game(state.stage, red))
            case Lot():
                red = self._lot(0.5)
                return _Setup(red, stage.minutes, pairing.game(state.stage, red))
            case Choice():
                return self._choice(decision, pairing, state, names)
            case Bidding():
                chooser = (
                    decision.made.chooser
                    if decision.made is not None
                    else self._chooser(decision, games[-1], names, pairing, state)
                )
                return self._bid(pairing, chooser, names, decision.made)
            case SealedBids():
                sealed, red, clocks = self._sealed_bids(pairing, names, decision)
                probs = pairing.game_with_clocks(state.stage, red, clocks)
                return _Setup(red, clocks, probs, sealed=sealed)
            case CutChoice():
                return self._cut(decision, pairing, state, games, names)
            case OtherDecision():
                draw = handler_of(OTHER_DECISIONS, decision, "SimPy engine")
                red = draw(pairing, state, decision, self.rng)
                recorded = " (recorded)" if decision.made is not None else ""
                self._emit(
                    "bid",
                    f"{decision.kind}: {names[red]} Red {stage.minutes[0]:g} min v "
                    f"{names[other(red)]} Black {stage.minutes[1]:g} min{recorded}",
                    names,
                )
                return _Setup(red, stage.minutes, pairing.game(state.stage, red))
            case _:
                assert_never(decision)

    def _choice(
        self, decision: Choice, pairing: Pairing, state: MatchState, names: tuple[str, str]
    ) -> _Setup:
        """A colour choice: who chooses (the named player, or a lot), the colour taken under
        the strategy (or as recorded), then the game on the stage's clocks."""
        game = pairing.choice_game(state.stage)
        if decision.made is not None:
            chooser, colour = decision.made.chooser, decision.made.colour
        else:
            chooser = self._lot(float(pairing.p_a_chooses_colours(state.stage, decision)[0]))
            x = pairing.choice_advantage(state.stage, chooser)
            takes_red = bool(self.strategy.choice_sample(game, x, self.rng)[0])
            colour = Colour.RED if takes_red else Colour.BLACK
        red: Side = chooser if colour is Colour.RED else other(chooser)
        self._emit(
            "bid",
            f"{names[chooser]} chooses {colour.value.capitalize()}: {names[red]} Red "
            f"{game.clocks[0]:g} min v {names[1 - red]} Black {game.clocks[1]:g} min"
            f"{' (recorded)' if decision.made is not None else ''}",
            names,
        )
        return _Setup(red, game.clocks, pairing.game(state.stage, red), choice=(chooser, colour))

    def _cut(
        self,
        decision: CutChoice,
        pairing: Pairing,
        state: MatchState,
        games: list[GameRecord],
        names: tuple[str, str],
    ) -> _Setup:
        """You cut, I choose: the cutter by the priority rule, the cut and the colour under the
        strategy (or as recorded), then the game on Red's cut against Black's clock."""
        game = pairing.cut_game
        assert game is not None
        if decision.made is not None:
            cutter, cut = decision.made.cutter, decision.made.red_minutes
            colour = decision.made.colour
        else:
            p_a = decision.p_a_cuts
            if p_a is None:
                used = games[-1].time_used
                p_a = p_chooser_from_times(decision.cut, used[names[0]], used[names[1]])
            if p_a is None:
                p_a = float(pairing.p_a_chooses(state)[0])
            cutter = self._lot(p_a)
            cuts, red_taken = self.strategy.cut_sample(
                game, pairing.cut_advantage(cutter), self.rng
            )
            cut = float(np.asarray(cuts).ravel()[0])
            colour = Colour.RED if bool(np.asarray(red_taken).ravel()[0]) else Colour.BLACK
        chooser = other(cutter)
        red: Side = chooser if colour is Colour.RED else cutter
        clocks = (cut, game.black_minutes)
        self._emit(
            "bid",
            f"{names[cutter]} cuts: Red {cut:.2f} min v Black {game.black_minutes:g} min; "
            f"{names[chooser]} chooses {colour.value.capitalize()}"
            f"{' (recorded)' if decision.made is not None else ''}",
            names,
        )
        probs = pairing.game_with_clocks(state.stage, red, clocks)
        return _Setup(red, clocks, probs, choice=(chooser, colour), cutter=cutter)

    def _chooser(
        self,
        decision: Bidding,
        previous: GameRecord,
        names: tuple[str, str],
        pairing: Pairing,
        state: MatchState,
    ) -> Side:
        """甲 by the priority rule from the previous game's times (as replayed, or as just
        played; the model's odds if they are unknown)."""
        p_a = decision.p_a_chooses
        if p_a is None:
            used = previous.time_used
            p_a = p_chooser_from_times(decision.menu, used[names[0]], used[names[1]])
        if p_a is None:  # a game played before the simulation, its times not given
            p_a = float(pairing.p_a_chooses(state)[0])
        return self._lot(p_a)

    def _sealed_bids(
        self, pairing: Pairing, names: tuple[str, str], decision: SealedBids
    ) -> tuple[dict[str, float], Side, tuple[float, float]]:
        """The sealed bids under the strategy (or as recorded), who plays Black (the lower
        bid; equal bids: a lot, or the recorded lot) and the clocks: Black on the lower bid at
        the first price, on the higher at the second."""
        game = pairing.sealed_bid_game
        assert game is not None
        made = decision.made
        if made is not None:
            bid_a, bid_b = made.bids
            black: Side = made.black
        else:
            bid_a, bid_b = (
                float(b[0])
                for b in self.strategy.sealed_bids(game, pairing.sealed_bid_gap(), self.rng)
            )
            black = self._lot(0.5) if bid_a == bid_b else 0 if bid_a < bid_b else 1
        red: Side = 1 if black == 0 else 0
        clocks = (game.red_minutes, float(game.black_clock(bid_a, bid_b)))
        self._emit(
            "bid",
            f"sealed bids: {names[0]} {bid_a:.2f} min, {names[1]} {bid_b:.2f} min"
            f"{' (equal: lot)' if bid_a == bid_b else ''}: {names[black]} Black on "
            f"{clocks[1]:.2f} min v {names[red]} Red on {clocks[0]:g} min"
            f"{' (recorded)' if made is not None else ''}",
            names,
        )
        return {names[0]: bid_a, names[1]: bid_b}, red, clocks

    def _bid(
        self, pairing: Pairing, chooser: Side, names: tuple[str, str], recorded: Bid | None
    ) -> _Setup:
        """The sudden-death choice under the strategy (or the ``recorded`` one) and the game it
        gives: the bid, who has Red, the clocks and the outcome probabilities."""
        game = pairing.bidding_game
        assert game is not None
        if recorded is None:
            sample = self.strategy.sample(game, pairing.advantage(chooser), self.rng)
            announce = Colour.RED if bool(sample.announce_red[0]) else Colour.BLACK
            reply = Reply.OBJECT if bool(sample.objects[0]) else Reply.ACCEPT
        else:
            announce, reply = recorded.announce, recorded.reply
        colour, clocks = game.menu.assignment(announce, reply)
        red: Side = chooser if colour is Colour.RED else (1 if chooser == 0 else 0)
        bidder = names[1 - chooser]
        self._emit(
            "bid",
            f"甲 = {names[chooser]} announces {announce.value}; 乙 = {bidder} {reply.value}s: "
            f"{names[red]} Red {clocks[0]:g} min v {names[1 - red]} Black {clocks[1]:g} min"
            f"{' (recorded)' if recorded is not None else ''}",
            names,
        )
        probs = pairing.bidding_game_probabilities(chooser, colour, clocks)
        return _Setup(red, clocks, probs, bid=(chooser, announce, reply))

    def _game(
        self,
        number: int,
        stage_index: int,
        stage: Stage,
        players: tuple[Player, Player],
        setup: _Setup,
        result: Result,
    ) -> Generator[simpy.Event, Any, GameRecord]:
        red_side, clocks, bid, choice = setup.red, setup.clocks, setup.bid, setup.choice
        red, black = players[red_side], players[1 - red_side]
        names = (players[0].name, players[1].name)
        # Later stages first: a playoff game takes the next free board before a new match.
        request = None if self.boards is None else self.boards.request(priority=-stage_index)
        if request is not None:
            yield request
        start = float(self.env.now)
        plan = _plan_game(
            red,
            black,
            clocks,
            stage.increment_seconds,
            result,
            self.rng,
            model_moves=self.model.moves,
        )
        live = LiveGame(stage.name, red.name, black.name, [clocks[0] * 60, clocks[1] * 60])
        self.live[names] = live
        inc = stage.increment_seconds
        self._emit(
            "game_start",
            f"Game {number} ({stage.name}): {red.name} (Red, {round(clocks[0], 2):g}+{inc:g})"
            f" v {black.name} (Black, {round(clocks[1], 2):g}+{inc:g})",  # a bid: 2 decimals
            names,
        )
        if self.move_by_move:
            for colour, spend in plan.moves:
                yield self.env.timeout(spend)
                i = 0 if colour is Colour.RED else 1
                live.clock_seconds[i] += stage.increment_seconds - spend
                live.moves += colour is Colour.BLACK
                live.to_move = colour.other
        elif plan.moves:  # one wait, to the instant the last move would end
            yield self.env.timeout(_wait_to(self.env.now, plan.moves))
        if plan.flag_fall is not None:
            live.clock_seconds[0 if plan.flag_fall is Colour.RED else 1] = 0.0
        live.result = result
        if plan.flag_fall is not None:
            loser = red if plan.flag_fall is Colour.RED else black
            self._emit("flag", f"{loser.name}'s flag falls: loses on time", names)
        red_pts, black_pts = knockout_points(result, draw_winner=stage.draw_winner)
        record = GameRecord(
            number=number,
            stage=stage.name,
            red=red.name,
            black=black.name,
            clock=clocks,
            increment_seconds=stage.increment_seconds,
            result=result,
            time_used={red.name: float(plan.used[0]), black.name: float(plan.used[1])},
            points={red.name: red_pts, black.name: black_pts},
            moves=plan.red_moves,
            flag_fall=None
            if plan.flag_fall is None
            else (red if plan.flag_fall is Colour.RED else black).name,
            start=start,
            end=float(self.env.now),
            chooser=names[bid[0]]
            if bid is not None
            else None
            if choice is None
            else names[choice[0]],
            announce=None if bid is None else bid[1],
            reply=None if bid is None else bid[2],
            colour=None if choice is None else choice[1],
            bids=setup.sealed,
            cutter=None if setup.cutter is None else names[setup.cutter],
        )
        self._emit("game_end", f"Game {number} ({stage.name}): {_result_text(record)}", names)
        del self.live[names]
        if request is not None and self.boards is not None:
            self.boards.release(request)
        return record


def _result_text(g: GameRecord) -> str:
    if g.result is Result.DRAW:
        return f"draw ({g.red} {g.points[g.red]} - {g.black} {g.points[g.black]} points)"
    winner = g.red if g.result is Result.RED else g.black
    how = " on time" if g.flag_fall else ""
    return f"{winner} wins{how} with {g.result.value.title()}"


def _draw_result(p: GameProbabilities, rng: np.random.Generator) -> Result:
    u = rng.random()
    red, draw = float(np.asarray(p.red).ravel()[0]), float(np.asarray(p.draw).ravel()[0])
    if u < red:
        return Result.RED
    if u < red + draw:
        return Result.DRAW
    return Result.BLACK


@dataclass(frozen=True)
class _GamePlan:
    moves: list[tuple[Colour, float]]
    used: tuple[float, float]
    red_moves: int
    flag_fall: Colour | None


def _plan_game(
    red: Player,
    black: Player,
    clocks: tuple[float, float],
    increment: float,
    result: Result,
    rng: np.random.Generator,
    *,
    model_moves: float,
) -> _GamePlan:
    """Moves and time spent per move, consistent with ``result`` (drawn before the game).

    Each player's time used is their speed (a Normal fraction) times their effective clock
    (``base + moves * increment``, ``moves`` from the model), the same quantity the exact layers
    use for who is 甲; the game is then played move by move on the real clock (base plus an
    increment after each move), with enough moves that a player who does not lose never flags.
    """
    n = max(MIN_MOVES, round(rng.normal(MOVES_MEAN, MOVES_SD)))
    base = (clocks[0] * 60.0, clocks[1] * 60.0)
    effective = (base[0] + model_moves * increment, base[1] + model_moves * increment)
    drawn = (
        max(0.0, rng.normal(red.speed.mean, red.speed.sd)) * effective[0],
        max(0.0, rng.normal(black.speed.mean, black.speed.sd)) * effective[1],
    )
    loser = {Result.RED: Colour.BLACK, Result.BLACK: Colour.RED}.get(result)
    # Red moves first; when Red wins, Red also made the last move.
    black_short = 1 if result is Result.RED else 0
    # A player who does not lose must not flag: give the game enough moves for the increments.
    for i, colour in enumerate((Colour.RED, Colour.BLACK)):
        if colour is not loser and drawn[i] > base[i] and increment > 0:
            need = math.ceil((drawn[i] - base[i]) / increment) + 1
            n = max(n, need + (black_short if colour is Colour.BLACK else 0))
    counts = (n, n - black_short)
    used = list(drawn)
    spends: list[list[float]] = []
    flag_fall: Colour | None = None
    for i, colour in enumerate((Colour.RED, Colour.BLACK)):
        k = counts[i]
        capacity = base[i] + increment * (k - 1)
        if drawn[i] > capacity and colour is not loser:
            used[i] = capacity - 1e-6  # clipped (increment 0): documented divergence
        if used[i] <= base[i]:
            w = rng.dirichlet(np.full(k, 2.0))
            spends.append(list(w * used[i]))
        else:
            spends.append([used[i] / k] * k)
        if colour is loser and drawn[i] > capacity:
            flag_fall = colour
    moves: list[tuple[Colour, float]] = []
    clock = [base[0], base[1]]
    spent = [0.0, 0.0]
    for j in range(counts[0]):
        for i, colour in enumerate((Colour.RED, Colour.BLACK)):
            if j >= counts[i]:
                continue
            s = spends[i][j]
            if colour is flag_fall and s >= clock[i]:
                moves.append((colour, clock[i]))
                spent[i] += clock[i]
                used[i] = spent[i]
                other = 1 - i
                used[other] = spent[other]
                return _GamePlan(moves, (used[0], used[1]), j + 1, colour)
            moves.append((colour, s))
            spent[i] += s
            clock[i] += increment - s
    if flag_fall is not None:
        # Planned spend fitted the clock after all (rounding): no flag, the loser resigns.
        flag_fall = None
    return _GamePlan(moves, (spent[0], spent[1]), counts[0], flag_fall)


def _wait_to(now: float, moves: list[tuple[Colour, float]]) -> float:
    """The delay after which SimPy's clock reads what it would after waiting each move in turn
    (``now + spend``, move after move, each sum rounded as SimPy rounds it)."""
    end = now
    for _, spend in moves:
        end = end + spend
    delay = end - now
    while now + delay < end:
        delay = math.nextafter(delay, math.inf)
    while now + delay > end:
        delay = math.nextafter(delay, -math.inf)
    return delay


def play_match(
    fmt: Format,
    a: Player,
    b: Player,
    *,
    strategy: Strategy,
    model: ModelParams = DEFAULT_MODEL,
    seed: int | None = None,
    rng: np.random.Generator | None = None,
    observer: Observer | None = None,
    played: tuple[PlayedGame, ...] = (),
    position: Position | None = None,
    move_by_move: bool = False,
) -> tuple[MatchRecord, list[LogEvent]]:
    """Play one match in a fresh SimPy environment; returns the record and the event log.
    Nobody reads its clocks between moves, so each game is one wait unless ``move_by_move``
    (the records are the same either way).

    ``played``: games already played; the match continues from where they leave it
    (``position``, when already computed).

    Raises:
        ValueError: Given both ``seed`` and ``rng``.
    """
    if seed is not None and rng is not None:
        raise ValueError("give a seed or an rng, not both")
    env = _simpy().Environment()
    engine = MatchEngine(
        env,
        fmt,
        model,
        strategy,
        rng if rng is not None else np.random.default_rng(seed),
        observer=observer,
        move_by_move=move_by_move,
    )
    process = env.process(engine.match(a, b, played, position))
    env.run()
    record = process.value
    assert isinstance(record, MatchRecord)
    return record, engine.log


def play_scenario_match(
    scenario: Scenario, *, seed: int, observer: Observer | None = None
) -> tuple[MatchRecord, list[LogEvent]]:
    """Play the scenario's two-player match on from its games so far.

    A withdrawn player loses by walkover (:mod:`knockout.rules.book.walkover`, both withdrawn: the
    better seed advances); the record then has no games.
    """
    a, b = scenario.players
    state = scenario.event_state()
    winner = state.walkover((1, 0), a.name, b.name)
    rng = np.random.default_rng(seed)
    if winner is not None:
        engine = MatchEngine.for_scenario(_simpy().Environment(), scenario, rng, observer=observer)
        return engine.walkover((a.name, b.name), winner, scenario.played), engine.log
    true_a, true_b = draw_strengths((a, b), rng)  # one draw per played match (rating_sd)
    return play_match(
        scenario.format,
        true_a,
        true_b,
        strategy=scenario.strategy,
        model=scenario.model,
        rng=rng,
        observer=observer,
        played=scenario.played,
        position=scenario.position,
    )
