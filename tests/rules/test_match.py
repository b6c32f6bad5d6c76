"""The match chain: how each game is set up (decisions) and where a result leads."""

from __future__ import annotations

from dataclasses import replace

from knockout.game import Colour, Result
from knockout.rules.book.formats import ColourRule, Format, Stage
from knockout.rules.book.presets import FORMATS, get_format
from knockout.rules.chain.match import (
    Finished,
    MatchState,
    advance,
    initial_state,
    match_points,
    next_decision,
)
from knockout.rules.decisions.kinds import Bidding, Choice, Fixed, Lot
from knockout.rules.model.strength import TimeClass

XQ = get_format("xq-bidding")


def test_slow_games_lot_then_swap() -> None:
    assert next_decision(XQ, initial_state()) == Lot()
    after = advance(XQ, initial_state(), 1, Result.RED)
    assert after == MatchState(stage=0, game=1, score=-1, last_red=1)
    assert next_decision(XQ, after) == Fixed(0)


def test_two_slow_games_cannot_end_after_one() -> None:
    s = advance(XQ, initial_state(), 0, Result.RED)
    assert isinstance(s, MatchState) and s.score == 1


def test_level_slow_stage_goes_to_rapid_then_sudden_death() -> None:
    s = advance(XQ, initial_state(), 0, Result.RED)
    assert isinstance(s, MatchState)
    s = advance(XQ, s, 1, Result.RED)  # B wins with Red: 1-1
    assert s == MatchState(stage=1, game=0, score=0, last_red=1)
    assert next_decision(XQ, s) == Lot()
    s = advance(XQ, s, 0, Result.DRAW)
    assert s == MatchState(stage=2, game=0, score=0, last_red=0)
    assert isinstance(next_decision(XQ, s), Bidding)


def test_sudden_death_draw_is_a_match_win_for_black() -> None:
    sd = MatchState(stage=2, last_red=0)
    assert advance(XQ, sd, 0, Result.DRAW) == Finished(winner=1, stage=2)
    assert advance(XQ, sd, 1, Result.DRAW) == Finished(winner=0, stage=2)
    assert match_points(XQ.playable[2], 0, Result.DRAW) == -1
    assert match_points(XQ.playable[0], 0, Result.DRAW) == 0


def test_a_stage_stops_once_decided() -> None:
    four = XQ.with_stage("slow", games=4)
    s: MatchState | Finished = initial_state()
    for red in (0, 1):
        assert isinstance(s, MatchState)
        s = advance(four, s, red, Result.RED if red == 0 else Result.BLACK)  # A wins twice
    assert isinstance(s, MatchState) and s.score == 2
    s = advance(four, s, 0, Result.RED)  # 3-0 with one game left: decided
    assert s == Finished(0, 0)


def test_repeat_stage_starts_a_new_block_when_level() -> None:
    fmt = get_format("blitz-pairs")
    s = MatchState(stage=1, game=1, score=1, last_red=0)
    level = advance(fmt, s, 1, Result.RED)  # B wins the 2nd game of the pair: 1-1
    assert level == MatchState(stage=1, game=0, score=0, last_red=1)
    assert next_decision(fmt, level) == Lot()


def test_alternate_rule_swaps_from_previous_game() -> None:
    fmt = get_format("official-playoff")
    s = MatchState(stage=1, game=0, score=0, last_red=1)
    assert next_decision(fmt, s) == Fixed(0)
    decider = MatchState(stage=3, game=0, score=0, last_red=0)
    assert next_decision(fmt, decider) == Choice("lot")


def test_presets_are_valid_formats() -> None:
    for name, fmt in FORMATS.items():
        assert fmt.problems() == [], name
        assert fmt.preset == name


def test_format_problems_are_reported() -> None:
    bad = Format(
        "custom",
        (
            Stage("slow", 2, TimeClass.CLASSICAL, (60, -1)),
            Stage("sd", 2, TimeClass.BLITZ, colours=ColourRule.LOT),
        ),
    )
    keys = [k for k, _ in bad.problems()]
    assert "slow.minutes" in keys
    assert "sd" in keys  # the last stage cannot always decide
    drawn = replace(XQ.playable[2], draw_winner=None)
    assert ("draw_winner", "a bidding stage needs a draw winner (red or black)") in drawn.problems()


def test_colour_enum_other() -> None:
    assert Colour.RED.other is Colour.BLACK
