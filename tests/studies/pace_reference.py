"""The pace game written straight from the model's text, for the tests: no project code.

A match of the seed's shape: a slow block (``slow_games`` games, colours by lot then swapped),
a rapid block of one game (colours by lot) when ``rapid`` is set, then the sudden death with
the seed's bidding menu under rational play (甲 announces the colour that is best for it once
乙 replies with what is best for 乙), a draw counting for Black. The game that decides 甲 is
the last game before the sudden death (the rapid game, or the slow game without one); in it
each player X aims at pace p_X: X's strength shifts by ``epd * log2(min(p_X, m_X) / m_X)``, and
X is 甲 when X uses less time, time used ``Normal(p_X T, sd_X T)`` on equal clocks ``T``.

Everything broadcasts over numpy arrays of paces, so brute-force grids are cheap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

RED_WINS, DRAWS, BLACK_WINS = 391, 557, 270
RED_ADVANTAGE = 400 * math.log10(RED_WINS / BLACK_WINS)
NU_CLASSICAL = DRAWS / math.sqrt(RED_WINS * BLACK_WINS)


def davidson(d: np.ndarray, nu: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P(Red wins), P(draw), P(Black wins) for strength difference ``d`` (Red minus Black)."""
    g = np.power(10.0, np.asarray(d, dtype=float) / 400)
    z = g + 1 + nu * np.sqrt(g)
    return g / z, nu * np.sqrt(g) / z, 1 / z


@dataclass(frozen=True)
class Match:
    """Two players, A and B; ``epd``/``nu`` for the classical and the rapid game."""

    rating_a: float
    rating_b: float
    mean_a: float
    mean_b: float
    sd_a: float = 0.10
    sd_b: float = 0.10
    epd_classical: float = 120.0
    epd_rapid: float = 120.0
    nu_classical: float = NU_CLASSICAL
    nu_rapid: float = 1.0
    slow_games: int = 2
    rapid: bool = True

    def game(self, d: np.ndarray, rapid: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return davidson(d + RED_ADVANTAGE, self.nu_rapid if rapid else self.nu_classical)

    def chooser_value(self, x: float) -> float:
        """P(甲 advances | sudden death) when 甲's rating minus 乙's is ``x`` (rational)."""

        def branch(chooser_red: bool, red_min: float, black_min: float) -> float:
            t_red, t_black = red_min + 10, black_min + 10  # 60 moves x 10 s
            d = (x if chooser_red else -x) + self.epd_rapid * math.log2(t_red / t_black)
            red, draw, black = (float(v) for v in self.game(np.array(d), rapid=True))
            return red if chooser_red else black + draw

        red_accept, red_object = branch(True, 30, 10), branch(False, 10, 30)
        black_accept, black_object = branch(False, 30, 10), branch(True, 35, 5)
        return max(min(red_accept, red_object), min(black_accept, black_object))

    def chooser_advances(self, pace_a: float, pace_b: float) -> float:
        """P(甲 advances | sudden death) at the paces (the deciding game's result does not
        change who is 甲 or what being 甲 is worth, only whether the sudden death comes)."""
        gap = self.rating_a - self.rating_b
        q = float(ndtr((pace_b - pace_a) / math.hypot(self.sd_a, self.sd_b)))
        return q * self.chooser_value(gap) + (1 - q) * self.chooser_value(-gap)

    def win(self, pace_a: np.ndarray, pace_b: np.ndarray) -> np.ndarray:
        """P(A advances) at the pace pairs."""
        pa, pb = np.broadcast_arrays(np.asarray(pace_a, float), np.asarray(pace_b, float))
        gap = self.rating_a - self.rating_b
        v_a, v_b = self.chooser_value(gap), self.chooser_value(-gap)
        p_a_chooser = ndtr((pb - pa) / math.hypot(self.sd_a, self.sd_b))
        at_sudden_death = p_a_chooser * v_a + (1 - p_a_chooser) * (1 - v_b)
        epd = self.epd_rapid if self.rapid else self.epd_classical
        shift = epd * (
            np.log2(np.minimum(pa, self.mean_a) / self.mean_a)
            - np.log2(np.minimum(pb, self.mean_b) / self.mean_b)
        )
        deciding = np.zeros_like(pa)
        for a_red in (True, False):
            d = gap + shift if a_red else -(gap + shift)
            red, draw, black = self.game(d, rapid=self.rapid)
            a_wins = red if a_red else black
            deciding += 0.5 * (a_wins + draw * at_sudden_death)
        if not self.rapid:
            return deciding if self.slow_games == 1 else _unsupported()
        a_ahead, level = self._slow()
        return a_ahead + level * deciding

    def _slow(self) -> tuple[float, float]:
        """P(A ahead after the slow block), P(level)."""
        if self.slow_games != 2:
            _unsupported()
        total_a, total_level = 0.0, 0.0
        for a_red_first in (True, False):
            scores = {0: 1.0}
            for game in range(2):
                a_red = a_red_first == (game == 0)
                d = self.rating_a - self.rating_b if a_red else self.rating_b - self.rating_a
                red, draw, black = (float(v) for v in self.game(np.array(d), rapid=False))
                a_wins, b_wins = (red, black) if a_red else (black, red)
                nxt: dict[int, float] = {}
                for s, p in scores.items():
                    for ds, q in ((1, a_wins), (0, draw), (-1, b_wins)):
                        nxt[s + ds] = nxt.get(s + ds, 0.0) + p * q
                scores = nxt
            total_a += 0.5 * sum(p for s, p in scores.items() if s > 0)
            total_level += 0.5 * scores.get(0, 0.0)
        return total_a, total_level


def _unsupported() -> np.ndarray:
    raise NotImplementedError("the reference knows the seed's two shapes only")
