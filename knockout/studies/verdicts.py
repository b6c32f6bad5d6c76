"""The words a study's verdict may use, and the one rule that picks them.

Every study judges a claim the same way: an estimate with its interval, a named line (a
threshold) the claim is about, and the number of events the estimate rests on. Four words, the
same in every study:

- ``holds``: the whole interval is on the claim's side of its line;
- ``does not hold``: the whole interval is on the other side;
- ``cannot be settled by these data``: the interval straddles the line (the estimate alone may
  be on either side: the data cannot tell);
- ``too few events``: fewer events than the study's minimum, so no verdict is drawn at all.

>>> line = Threshold("SMALL_EDGE", 0.10, "above")
>>> decide(Interval.from_se(0.099, 0.021), line).verdict
'cannot be settled by these data'
>>> decide(Interval.from_se(0.30, 0.02), line).verdict
'holds'
>>> decide(Interval.from_se(0.30, 0.02), line, events=8, min_events=30).verdict
'too few events'
>>> band = Threshold("BALANCED", 0.01, "within")
>>> decide(Interval.from_se(0.144, 0.030), band).verdict
'does not hold'

Proportions get exact intervals (:func:`wilson`, :func:`clopper_pearson`), never "0.000 ±
0.000" for 0 of 8:

>>> print(wilson(0, 8))
0.000 [0.000, 0.324]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from scipy.stats import beta, norm

__all__ = [
    "CANNOT_SETTLE",
    "DOES_NOT_HOLD",
    "HOLDS",
    "LEVEL",
    "MIN_EVENTS",
    "TOO_FEW",
    "VERDICTS",
    "Interval",
    "Judgement",
    "Side",
    "Threshold",
    "Verdict",
    "clopper_pearson",
    "decide",
    "every",
    "wilson",
    "z_value",
]

Verdict = Literal["holds", "does not hold", "cannot be settled by these data", "too few events"]
HOLDS: Final = "holds"
DOES_NOT_HOLD: Final = "does not hold"
CANNOT_SETTLE: Final = "cannot be settled by these data"
TOO_FEW: Final = "too few events"
#: The four words, in this order wherever they are listed.
VERDICTS: tuple[Verdict, ...] = (HOLDS, DOES_NOT_HOLD, CANNOT_SETTLE, TOO_FEW)

#: The confidence of an interval a verdict rests on unless a study names another.
LEVEL = 0.95
#: Fewer events than this and a study draws no verdict ("too few events"): below about 30 a
#: mean's standard error is itself too uncertain to place an interval by (the usual rule of
#: thumb for the normal approximation), and a proportion seen 0 times in 8 says little.
MIN_EVENTS = 30

#: Which side of a threshold's line the claim says the quantity is on: ``above`` (greater than
#: the line), ``below`` (less than it), ``within`` (between ``-value`` and ``value``, or between
#: ``low`` and ``value`` when a threshold names its own ``low``).
Side = Literal["above", "below", "within"]


@dataclass(frozen=True)
class Interval:
    """An estimate and its interval, at ``level`` confidence.

    Attributes:
        estimate: The point estimate.
        low: The interval's lower end.
        high: Its upper end.
        level: Its confidence (0.95: a 95 % interval).
    """

    estimate: float
    low: float
    high: float
    level: float = LEVEL

    def __post_init__(self) -> None:
        if not self.low <= self.estimate <= self.high:
            raise ValueError(
                f"an interval needs low <= estimate <= high, got "
                f"{self.low!r} <= {self.estimate!r} <= {self.high!r}"
            )
        if not 0 < self.level < 1:
            raise ValueError(f"an interval's level must be in (0, 1), got {self.level!r}")

    @classmethod
    def from_se(cls, estimate: float, se: float, level: float = LEVEL) -> Interval:
        """The normal interval ``estimate ± z se`` (z = 1.96 at 95 %)."""
        if not se >= 0:
            raise ValueError(f"a standard error must be at least 0, got {se!r}")
        half = z_value(level) * se
        return cls(estimate, estimate - half, estimate + half, level)

    def scaled(self, factor: float) -> Interval:
        """The same interval in another unit (``factor`` > 0), e.g. as a percentage."""
        if not factor > 0:
            raise ValueError(f"a scale factor must be above 0, got {factor!r}")
        return Interval(self.estimate * factor, self.low * factor, self.high * factor, self.level)

    def format(self, digits: int = 3, unit: str = "") -> str:
        """``0.036 [-0.046, 0.118]``, with ``unit`` after each figure (e.g. ``" %"``)."""
        return (
            f"{self.estimate:.{digits}f}{unit} [{self.low:.{digits}f}{unit}, "
            f"{self.high:.{digits}f}{unit}]"
        )

    def __str__(self) -> str:
        return self.format()


@dataclass(frozen=True)
class Threshold:
    """The named line a claim is judged against.

    Attributes:
        name: Its name where it is defined (``SMALL_EDGE``), so a reader can find it.
        value: The line (the upper end of the band for ``within``).
        side: Which side of the line the claim puts the quantity on.
        low: For ``within`` only, the band's lower end; ``None``: ``-value``.
    """

    name: str
    value: float
    side: Side
    low: float | None = None

    def __post_init__(self) -> None:
        if self.side not in ("above", "below", "within"):
            raise ValueError(f"unknown side: {self.side!r}")
        if self.low is not None and (self.side != "within" or self.low > self.value):
            raise ValueError(
                f"a threshold's low is for a 'within' band with low <= value, got "
                f"{self.low!r} for {self.side!r} {self.value!r}"
            )

    @property
    def band(self) -> tuple[float, float]:
        """The band ``(low, high)`` of a ``within`` claim."""
        return (-self.value if self.low is None else self.low, self.value)

    def describe(self) -> str:
        """The claim's side of the line in words: ``above 0.1 (SMALL_EDGE)``."""
        if self.side == "within":
            low, high = self.band
            return f"within {low:g} to {high:g} ({self.name})"
        return f"{self.side} {self.value:g} ({self.name})"


@dataclass(frozen=True)
class Judgement:
    """A verdict with the figures that decided it.

    Attributes:
        verdict: One of :data:`VERDICTS`.
        interval: The estimate's interval (None when there were too few events to make one).
        threshold: The line it was judged against.
        reason: One sentence computed from the figures: where the interval lies against the
            line, or how many events there were against the minimum.
    """

    verdict: Verdict
    interval: Interval | None
    threshold: Threshold
    reason: str


def z_value(level: float) -> float:
    """The two-sided normal quantile for ``level`` (1.96 at 0.95)."""
    if not 0 < level < 1:
        raise ValueError(f"a confidence level must be in (0, 1), got {level!r}")
    return float(norm.ppf(0.5 + level / 2))


def decide(
    interval: Interval,
    threshold: Threshold,
    *,
    events: int | None = None,
    min_events: int = MIN_EVENTS,
    digits: int = 3,
) -> Judgement:
    """The verdict on a claim that the quantity ``interval`` estimates lies on ``threshold``'s
    side of its line.

    Args:
        interval: The estimate and its interval.
        threshold: The claim's line and side.
        events: How many events the estimate rests on (None: not counted, e.g. an exact value
            whose interval comes from fitted constants).
        min_events: Fewer events than this give ``too few events``.
        digits: Decimals of the figures in the reason.

    An interval that touches the line counts as straddling it: the data cannot settle a claim
    whose interval reaches its line.
    """
    if events is not None and events < min_events:
        return Judgement(
            TOO_FEW,
            None,
            threshold,
            f"{events} events, fewer than the {min_events} a verdict needs",
        )
    low, high = interval.low, interval.high
    if threshold.side == "above":
        holds, fails = low > threshold.value, high < threshold.value
    elif threshold.side == "below":
        holds, fails = high < threshold.value, low > threshold.value
    else:
        band_low, band_high = threshold.band
        holds = band_low < low and high < band_high
        fails = high < band_low or low > band_high
    verdict: Verdict = HOLDS if holds else DOES_NOT_HOLD if fails else CANNOT_SETTLE
    shown = f"{interval.format(digits)} ({100 * interval.level:g} %)"
    return Judgement(verdict, interval, threshold, f"{shown} {_where(verdict, threshold)}")


def _where(verdict: Verdict, threshold: Threshold) -> str:
    """Where an interval lies against the line, in words, for the verdict it gave."""
    name = threshold.name
    if threshold.side == "within":
        low, high = threshold.band
        band = f"the band {low:g} to {high:g} ({name})"
        if verdict == HOLDS:
            return f"lies wholly within {band}"
        if verdict == DOES_NOT_HOLD:
            return f"lies wholly outside {band}"
        return f"reaches across an edge of {band}: the data cannot settle it"
    other = "below" if threshold.side == "above" else "above"
    line = f"{threshold.value:g} ({name})"
    if verdict == HOLDS:
        return f"lies wholly {threshold.side} {line}"
    if verdict == DOES_NOT_HOLD:
        return f"lies wholly {other} {line}"
    return f"straddles the line {line}: the data cannot settle it"


def wilson(successes: int, trials: int, level: float = LEVEL) -> Interval:
    """Wilson's score interval for a proportion ``successes / trials``.

    Unlike ``p ± z sqrt(p (1 - p) / n)`` it is never of zero width: 0 of 8 gives
    [0, 0.324] at 95 %, not "0 ± 0".
    """
    _check_counts(successes, trials)
    z = z_value(level)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return Interval(p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)), level)


def clopper_pearson(successes: int, trials: int, level: float = LEVEL) -> Interval:
    """The Clopper-Pearson ("exact") interval for a proportion, from the beta distribution:
    it covers the true proportion at least ``level`` of the time (0 of 8: [0, 0.369] at 95 %)."""
    _check_counts(successes, trials)
    alpha = 1 - level
    low = 0.0 if successes == 0 else float(beta.ppf(alpha / 2, successes, trials - successes + 1))
    high = (
        1.0
        if successes == trials
        else float(beta.ppf(1 - alpha / 2, successes + 1, trials - successes))
    )
    return Interval(successes / trials, low, high, level)


def _check_counts(successes: int, trials: int) -> None:
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(
            f"a proportion needs 0 <= successes <= trials and trials >= 1, got "
            f"{successes!r} of {trials!r}"
        )


def every(verdicts: Sequence[Verdict]) -> Verdict:
    """One verdict on a claim made of several (a claim about every event, say): ``too few
    events`` if any part has too few, else ``holds`` if every part holds, ``does not hold`` if
    any part does not, else ``cannot be settled by these data``.

    >>> every(["holds", "cannot be settled by these data"])
    'cannot be settled by these data'
    >>> every(["holds", "does not hold", "cannot be settled by these data"])
    'does not hold'
    """
    if not verdicts:
        raise ValueError("no verdicts to combine")
    if TOO_FEW in verdicts:
        return TOO_FEW
    if all(v == HOLDS for v in verdicts):
        return HOLDS
    return DOES_NOT_HOLD if DOES_NOT_HOLD in verdicts else CANNOT_SETTLE
