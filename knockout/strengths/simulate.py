"""Games simulated from known strengths and constants, written as a games table (issue 38's
columns): the data the strength fit and the backtest are checked on.

A field of players, each active over a span of years; every year holds events (round robins of
a few active players, double so each meets each with both colours); each game's result is drawn
from the model (:func:`knockout.rules.model.strength.davidson`) with the players' strengths of
that year, which drift as the fit assumes (first year Normal(0, ``spread``), then a Gaussian
random walk of ``drift`` Elo a year). Some events are rapid (``rapid_share``), the rest are
written with class ``unknown``, as the corpus writes unmarked slow games.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

import numpy as np

from knockout.rules.model.strength import davidson

__all__ = ["SimulatedField", "simulate_field"]

_RESULTS = ("1-0", "1/2-1/2", "0-1")
_HEADER = (
    "id,event,round,date,year,red,black,red_team,black_team,result,time_class,moves,"
    "final_fen,record,kind,sources"
)


@dataclass(frozen=True)
class SimulatedField:
    """A simulated table and the truth behind it.

    Attributes:
        csv: The table (issue 38's columns).
        strengths: ``{(player, year): strength}`` (Elo, the generating truth).
        red_advantage: ``{"classical": ..., "rapid": ...}`` used.
        draw_nu: The same for ``draw_nu``.
        drift: The random walk's sd a year.
        spread: The first year's sd.
        games: The number of games.
    """

    csv: str
    strengths: dict[tuple[str, int], float]
    red_advantage: dict[str, float]
    draw_nu: dict[str, float]
    drift: float
    spread: float
    games: int
    events: list[str] = field(default_factory=list)


def simulate_field(
    rng: np.random.Generator,
    *,
    players: int = 60,
    years: tuple[int, int] = (2000, 2009),
    events_per_year: int = 6,
    event_size: int = 6,
    red_advantage: dict[str, float] | None = None,
    draw_nu: dict[str, float] | None = None,
    drift: float = 40.0,
    spread: float = 200.0,
    rapid_share: float = 0.2,
    folders: tuple[str, ...] = ("以賽事分類",),
    double: bool = True,
) -> SimulatedField:
    """Simulate a field (see the module docstring); ``players`` active from a random first
    year for a random span (at least four years where ``years`` allows). Each event is a double
    round robin of ``event_size`` active players (``event_size * (event_size - 1)`` games), or
    with ``double=False`` a single one with colours by lot."""
    adv = red_advantage or {"classical": 60.0, "rapid": 40.0}
    nus = draw_nu or {"classical": 1.7, "rapid": 1.0}
    y0, y1 = years
    names = [f"P{i:03d}" for i in range(players)]
    span = y1 - y0 + 1
    first = rng.integers(y0, max(y0, y1 - 3) + 1, size=players)
    last = np.minimum(y1, first + rng.integers(min(3, span - 1), span, size=players))
    truth: dict[tuple[str, int], float] = {}
    for i, name in enumerate(names):
        s = rng.normal(0.0, spread)
        for y in range(int(first[i]), int(last[i]) + 1):
            if y > first[i]:
                s += rng.normal(0.0, drift)
            truth[(name, y)] = float(s)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    out.write(_HEADER + "\n")
    count = 0
    event_names: list[str] = []
    for y in range(y0, y1 + 1):
        active = [i for i in range(players) if first[i] <= y <= last[i]]
        for e in range(events_per_year):
            if len(active) < 2:
                break
            field_ = rng.choice(active, size=min(event_size, len(active)), replace=False)
            tc = "rapid" if rng.random() < rapid_share else "unknown"
            cls = "rapid" if tc == "rapid" else "classical"
            event = f"{y} Cup {e + 1}" + (" 快棋" if tc == "rapid" else "")
            event_names.append(event)
            folder = folders[int(rng.integers(len(folders)))]
            pairs = [(a, b) for a in field_ for b in field_ if a != b]
            if not double:  # each pair once, colours by lot
                pairs = [(a, b) if rng.random() < 0.5 else (b, a) for a, b in pairs if a < b]
            for a, b in pairs:
                if True:
                    red, black = names[int(a)], names[int(b)]
                    d = truth[(red, y)] - truth[(black, y)] + adv[cls]
                    p = davidson(d, nus[cls])
                    k = int(rng.choice(3, p=[float(p.red), float(p.draw), float(p.black)]))
                    count += 1
                    writer.writerow(
                        [f"s{count:06d}", event, "", f"{y}.{1 + e % 12}.1", y, red, black, "",
                         "", _RESULTS[k], tc, "", "", "", "master",
                         f"大師對局/{folder}/{event}/{count}.pgn"]
                    )  # fmt: skip
    return SimulatedField(out.getvalue(), truth, adv, nus, drift, spread, count, event_names)
