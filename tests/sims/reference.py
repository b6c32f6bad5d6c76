"""A slow, obvious, scalar reference simulator written from RULES.md and MODEL.md directly.

It shares no code with the chain, the solver, the engine or the kernel (only the Format data it
reads and the strategies' own decisions for ``believed`` beliefs), so agreement in distribution
is evidence that the fast layers implement the rules.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from knockout.rules.book.formats import ColourRule, Format, Stage
from knockout.rules.model.players import Player
from knockout.rules.model.strength import ModelParams


def davidson(d: float, nu: float) -> tuple[float, float, float]:
    g = 10 ** (d / 400)
    z = g + 1 + nu * math.sqrt(g)
    return g / z, nu * math.sqrt(g) / z, 1 / z


def effective(base: float, increment: float, moves: float) -> float:
    """MODEL.md: a side's effective clock counts the increment over ``moves`` moves."""
    return base + moves * increment / 60


def time_class(stage: Stage, moves: float) -> str:
    """MODEL.md: classical from a mean effective clock of 60 minutes, blitz up to 10."""
    if stage.time_class is not None:
        return stage.time_class.value
    if stage.is_bidding:
        assert stage.bidding is not None
        red, black = stage.bidding.accept
    elif stage.is_sealed_bid:
        assert stage.sealed_bid is not None
        red = black = stage.sealed_bid.red_minutes
    else:
        red, black = stage.minutes
    mean = (
        effective(red, stage.increment_seconds, moves)
        + effective(black, stage.increment_seconds, moves)
    ) / 2
    return "classical" if mean >= 60 else "blitz" if mean <= 10 else "rapid"


def _choose(
    stage: Stage,
    players: tuple[Player, Player],
    tc: str,
    adv: float,
    nu: float,
    time_odds: float,
    strategy: str,
    belief_sd: float,
    rng: np.random.Generator,
) -> int:
    """Who is Red after a colour choice: the chooser (by lot or by name) takes the colour with
    the higher expected score at their belief of the rating gap (the naive chooser: Red)."""
    names = [p.name for p in players]
    chooser = names.index(stage.chooser) if stage.chooser in names else int(rng.random() < 0.5)
    gap = rating(players[chooser], tc) - rating(players[1 - chooser], tc)
    if strategy == "believed":
        gap += rng.normal(0, belief_sd)
    r, dr, _ = davidson(gap + adv + time_odds, nu)
    _, dr_b, b = davidson(-gap + adv + time_odds, nu)
    draw = stage.draw_winner
    as_red = r + (
        dr if draw is not None and draw.value == "red" else 0.5 * dr if draw is None else 0
    )
    as_black = b + (
        dr_b if draw is not None and draw.value == "black" else 0.5 * dr_b if draw is None else 0
    )
    takes_red = strategy == "naive" or as_red >= as_black
    return chooser if takes_red else 1 - chooser


def rating(p: Player, tc: str) -> float:
    if tc == "classical":
        return p.rating
    if tc == "rapid":
        return p.rating if p.rating_rapid is None else p.rating_rapid
    if p.rating_blitz is not None:
        return p.rating_blitz
    return rating(p, "rapid")


@dataclass
class Outcome:
    winner: int
    stage: str
    games: int
    chooser: int | None = None
    announce_red: bool | None = None
    objects: bool | None = None


def play(
    fmt: Format,
    players: tuple[Player, Player],
    model: ModelParams,
    strategy: str,
    rng: np.random.Generator,
    belief_sd: float = 0.0,
) -> Outcome:
    games = 0
    last_red: int | None = None
    last_used = (0.0, 0.0)
    for stage in fmt.playable:
        tc = time_class(stage, model.moves)
        adv, nu, epd = model.red_advantage[tc], model.draw_nu[tc], model.elo_per_doubling[tc]

        def odds(t_red: float, t_black: float, stage: Stage = stage, epd: float = epd) -> float:
            inc = stage.increment_seconds
            return epd * math.log2(
                effective(t_red, inc, model.moves) / effective(t_black, inc, model.moves)
            )

        if stage.is_bidding:
            assert stage.bidding is not None and stage.draw_winner is not None
            menu = stage.bidding
            if menu.priority == "lot" or last_used[0] == last_used[1]:
                chooser = int(rng.random() < 0.5)
            else:
                chooser = 0 if last_used[0] < last_used[1] else 1
            bidder = 1 - chooser
            x = rating(players[chooser], tc) - rating(players[bidder], tc)

            def value(ann_red: bool, obj: bool, y: float) -> float:
                # (chooser is Red?, red minutes, black minutes)
                table = {
                    (True, False): (True, menu.accept),
                    (True, True): (False, menu.object_red),
                    (False, False): (False, menu.accept),
                    (False, True): (True, menu.object_black),
                }
                chooser_red, (tr, tb) = table[(ann_red, obj)]
                d = (y if chooser_red else -y) + adv + odds(tr, tb)
                r, dr, b = davidson(d, nu)
                draw_black = stage.draw_winner.value == "black"
                if chooser_red:
                    return r + (0 if draw_black else dr)
                return b + (dr if draw_black else 0)

            def objects_at(ann_red: bool, y: float) -> bool:
                return value(ann_red, True, y) < value(ann_red, False, y)

            def announce_at(y: float) -> bool:
                v_red = value(True, objects_at(True, y), y)
                v_black = value(False, objects_at(False, y), y)
                return v_red >= v_black

            if strategy == "naive":
                ann_red, obj = True, False
            else:
                sd = belief_sd if strategy == "believed" else 0.0
                y_chooser = x + (rng.normal(0, sd) if sd else 0.0)
                y_bidder = x + (rng.normal(0, sd) if sd else 0.0)
                ann_red = announce_at(y_chooser)
                obj = objects_at(ann_red, y_bidder)
            chooser_red = {
                (True, False): True,
                (True, True): False,
                (False, False): False,
                (False, True): True,
            }[(ann_red, obj)]
            tr, tb = {
                (True, False): menu.accept,
                (True, True): menu.object_red,
                (False, False): menu.accept,
                (False, True): menu.object_black,
            }[(ann_red, obj)]
            red = chooser if chooser_red else bidder
            d = rating(players[red], tc) - rating(players[1 - red], tc) + adv + odds(tr, tb)
            r, dr, _ = davidson(d, nu)
            u = rng.random()
            games += 1
            if u < r:
                winner = red
            elif u < r + dr:
                winner = 1 - red if stage.draw_winner.value == "black" else red
            else:
                winner = 1 - red
            return Outcome(winner, stage.name, games, chooser, ann_red, obj)
        while True:  # blocks (once unless the stage repeats)
            score = 0.0
            for g in range(stage.games):
                if g > 0:
                    red = 1 - last_red  # type: ignore[operator]
                elif stage.colours is ColourRule.ALTERNATE and last_red is not None:
                    red = 1 - last_red
                elif stage.colours is ColourRule.CHOICE:
                    red = _choose(stage, players, tc, adv, nu, odds(*stage.minutes), strategy,
                                  belief_sd, rng)  # fmt: skip
                else:
                    red = int(rng.random() < 0.5)
                d = rating(players[red], tc) - rating(players[1 - red], tc) + adv
                d += odds(*stage.minutes)
                r, dr, _ = davidson(d, nu)
                u = rng.random()
                result = "red" if u < r else "draw" if u < r + dr else "black"
                games += 1
                last_red = red
                clock = [effective(m, stage.increment_seconds, model.moves) for m in stage.minutes]
                used = [
                    rng.normal(players[i].speed.mean, players[i].speed.sd)
                    * (clock[0] if i == red else clock[1])
                    for i in (0, 1)
                ]
                last_used = (used[0], used[1])
                if result == "draw" and stage.draw_winner is not None:
                    result = stage.draw_winner.value
                a_red = red == 0
                if result == "red":
                    score += 1 if a_red else -1
                elif result == "black":
                    score += -1 if a_red else 1
                left = stage.games - g - 1
                if abs(score) > left:
                    return Outcome(0 if score > 0 else 1, stage.name, games)
            if not stage.repeat:
                break
    raise AssertionError("format did not decide the match")
