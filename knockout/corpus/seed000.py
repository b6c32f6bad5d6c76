"""Seed 000's four events set beside what the corpus holds of them, and the corpus's bias by folder.

Seed 000 tabulates the men's games of four national individual events of 2009-2010
(:data:`SEED_EVENTS`, the counts as the seed prints them). A corpus game belongs to one of them when
its year is the event's and its event text, read in simplified characters with spaces removed,
contains one of the event's aliases and none of its exclusions (:data:`SEED_EVENTS`: the corpus
writes 全國象棋個人賽, 全國智力運動會 for 全国智运会, and files women's, team and rapid games under
the same names). Only master games with a result, and not marked rapid or blitz, count.

Agreement is tested two ways. If the corpus's games of an event are a selection from the
seed's (no more than it counts), the exact test is the multivariate hypergeometric one: drawing
that many games at random from the seed's red wins, draws and black wins, how likely is a split at
most as probable as the corpus's (the p-value sums those splits' probabilities). Pearson's
chi-square of the corpus's counts against the seed's shares is given beside it (2 degrees of
freedom; unreliable when an expected count is below 5, which is said). An event the corpus holds
fewer than :data:`FEW` games of is reported as too few to test.

Selection bias: a published collection keeps the games someone chose to keep. The shares of Red
wins, draws and Black wins among the master games filed in each folder (by player, by tournament,
by opening, and each sub-folder) show how far each filing leans (:func:`by_folder`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from knockout.corpus.names import simplified
from knockout.corpus.summary import Share
from knockout.corpus.table import GameRow

__all__ = [
    "FEW",
    "SEED_EVENTS",
    "EventComparison",
    "SeedEvent",
    "by_folder",
    "compare_seed000",
    "hypergeometric_p",
]

#: Fewer corpus games than this and an event is reported without a test.
FEW = 10


@dataclass(frozen=True)
class SeedEvent:
    """One of seed 000's events: its counts and how the corpus writes it.

    Attributes:
        year: The year.
        name: The seed's name of the event.
        red, draw, black: The seed's counts (red wins, draws, black wins).
        aliases: Texts (simplified) of which the corpus's event text must contain one.
        exclude: Texts whose presence rules a game out (women's, team, youth games).
    """

    year: int
    name: str
    red: int
    draw: int
    black: int
    aliases: tuple[str, ...]
    exclude: tuple[str, ...] = ("女子", "团体", "少年", "青年")

    @property
    def games(self) -> int:
        """The seed's number of games."""
        return self.red + self.draw + self.black

    def matches(self, row: GameRow) -> bool:
        """Whether ``row`` is a game of this event (see the module's note)."""
        if row.year != self.year or row.time_class in ("rapid", "blitz"):
            return False
        text = "".join(simplified(row.event).split())
        return any(a in text for a in self.aliases) and not any(x in text for x in self.exclude)


_NATIONAL_INDIVIDUAL = ("全国象棋个人赛", "全国象棋个人锦标赛", "全国个人赛")

#: Seed 000's events (its table 象棋对局胜率统计表) and the corpus's names for them.
SEED_EVENTS = (
    SeedEvent(2009, "全国个人赛", 156, 218, 126, _NATIONAL_INDIVIDUAL),
    SeedEvent(2009, "全国智运会", 62, 78, 31, ("全国智力运动会", "全国智运会", "智力运动会")),
    SeedEvent(2010, "全国个人赛", 141, 206, 92, _NATIONAL_INDIVIDUAL),
    SeedEvent(
        2010,
        "杨官璘杯专业组",
        32,
        55,
        21,
        ("杨官璘杯",),
        exclude=("女子", "团体", "少年", "青年", "业余"),
    ),
)


def hypergeometric_p(population: Sequence[int], sample: Sequence[int]) -> float:
    """The exact p-value of ``sample`` as a random draw without replacement from
    ``population`` (counts per category): the total probability of the splits no more likely
    than the one observed.

    >>> round(hypergeometric_p([5, 5], [5, 0]), 6)  # five of ten, all from one half
    0.007937
    """
    from scipy.stats import multivariate_hypergeom  # noqa: PLC0415 (scipy loads in 0.3 s)

    total = sum(sample)
    observed = multivariate_hypergeom.pmf(list(sample), list(population), total)
    p = 0.0
    for split in _splits(total, list(population)):
        prob = multivariate_hypergeom.pmf(split, list(population), total)
        if prob <= observed * (1 + 1e-9):
            p += prob
    return float(min(1.0, p))


def _splits(total: int, limits: list[int]) -> Iterable[list[int]]:
    """Every way of writing ``total`` as counts no larger than ``limits``."""
    if len(limits) == 1:
        if total <= limits[0]:
            yield [total]
        return
    for first in range(min(total, limits[0]) + 1):
        for rest in _splits(total - first, limits[1:]):
            yield [first, *rest]


def _chi_square(expected_shares: Sequence[float], observed: Sequence[int]) -> tuple[float, float]:
    from scipy.stats import chi2  # noqa: PLC0415 (scipy loads in 0.3 s)

    total = sum(observed)
    stat = sum(
        (o - total * s) ** 2 / (total * s) for o, s in zip(observed, expected_shares, strict=True)
    )
    return stat, float(chi2.sf(stat, len(observed) - 1))


@dataclass(frozen=True)
class EventComparison:
    """One seed event beside the corpus's games of it."""

    event: SeedEvent
    corpus: tuple[int, int, int]
    events_matched: tuple[str, ...]

    @property
    def games(self) -> int:
        """The corpus's games of the event (with a result)."""
        return sum(self.corpus)

    def tests(self) -> dict[str, Any]:
        """The agreement tests (None where too few games or the test does not apply)."""
        seed = (self.event.red, self.event.draw, self.event.black)
        out: dict[str, Any] = {"hypergeometric_p": None, "chi_square": None, "chi_square_p": None}
        if self.games < FEW:
            out["note"] = f"too few games to test (fewer than {FEW})"
            return out
        shares = [c / self.event.games for c in seed]
        stat, p = _chi_square(shares, self.corpus)
        out["chi_square"], out["chi_square_p"] = stat, p
        if min(self.games * s for s in shares) < 5:
            out["note"] = "an expected count is below 5: the chi-square p-value is rough"
        if all(c <= s for c, s in zip(self.corpus, seed, strict=True)):
            out["hypergeometric_p"] = hypergeometric_p(seed, self.corpus)
        else:
            out["note"] = (
                "the corpus holds more games of a result than the seed counts: not a selection "
                "from the seed's games"
            )
        return out

    def to_json(self) -> dict[str, Any]:
        """The seed's and the corpus's counts and shares, and the tests."""
        seed = (self.event.red, self.event.draw, self.event.black)

        def counts(c: Sequence[int]) -> dict[str, Any]:
            n = sum(c)
            return {
                "games": n,
                "red": c[0],
                "draw": c[1],
                "black": c[2],
                "red_share": c[0] / n if n else None,
                "draw_share": c[1] / n if n else None,
                "black_share": c[2] / n if n else None,
            }

        return {
            "year": self.event.year,
            "event": self.event.name,
            "aliases": list(self.event.aliases),
            "exclude": list(self.event.exclude),
            "corpus_events": list(self.events_matched),
            "seed": counts(seed),
            "corpus": counts(self.corpus),
            **self.tests(),
        }


def compare_seed000(rows: Iterable[GameRow]) -> list[EventComparison]:
    """Each of seed 000's events beside the corpus's master games of it."""
    master = [r for r in rows if r.kind == "master" and r.result != "*"]
    out = []
    for event in SEED_EVENTS:
        counts = [0, 0, 0]
        names: set[str] = set()
        for row in master:
            if event.matches(row):
                counts[("1-0", "1/2-1/2", "0-1").index(row.result)] += 1
                names.add(row.event.split(maxsplit=1)[0] if row.event.strip() else "")
        out.append(EventComparison(event, (counts[0], counts[1], counts[2]), tuple(sorted(names))))
    return out


def _folder(source: str, depth: int) -> str | None:
    """The filing folder of a master game's source path (``以棋手分類`` at depth 1, ``以棋手分類/
    呂欽`` at depth 2), or None outside the master games."""
    parts = source.split("/")
    for i, part in enumerate(parts):
        if part in ("大師對局", "大师对局") and len(parts) > i + depth + 1:
            return "/".join(parts[i + 1 : i + 1 + depth])
    return None


def by_folder(rows: Iterable[GameRow], depth: int = 1) -> list[Share]:
    """The results of the master games filed in each folder (a game filed in several counts in
    each), then of all master games (key ``all``); folders by number of games."""
    tallies: dict[str, list[int]] = {}
    for row in rows:
        if row.kind != "master" or row.result == "*":
            continue
        index = ("1-0", "1/2-1/2", "0-1").index(row.result)
        folders = {f for s in row.sources if (f := _folder(s, depth)) is not None}
        for folder in (*sorted(folders), "all"):
            tallies.setdefault(folder, [0, 0, 0])[index] += 1
    order = sorted(tallies, key=lambda k: (k == "all", -sum(tallies[k]), k))
    return [Share(k, sum(tallies[k]), *tallies[k]) for k in order]


def binomial_z(a: Share, b: Share, which: str = "draw") -> float | None:
    """The z statistic of the difference of two groups' shares (``red``, ``draw`` or
    ``black``), with the pooled standard error; None without games."""
    count_a = {"red": a.red_wins, "draw": a.draws, "black": a.black_wins}[which]
    count_b = {"red": b.red_wins, "draw": b.draws, "black": b.black_wins}[which]
    if not a.games or not b.games:
        return None
    pooled = (count_a + count_b) / (a.games + b.games)
    se = math.sqrt(pooled * (1 - pooled) * (1 / a.games + 1 / b.games))
    return (count_a / a.games - count_b / b.games) / se if se else None
