"""The shared verdict words and the rule that picks them (knockout/studies/verdicts.py).

The proportion intervals are checked against their definitions by brute force: Clopper-Pearson's
ends are where a binomial tail sum equals alpha/2 (summed term by term with math.comb), Wilson's
are where the score statistic equals z (found by bisection).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from knockout.studies.verdicts import (
    CANNOT_SETTLE,
    DOES_NOT_HOLD,
    HOLDS,
    TOO_FEW,
    VERDICTS,
    Interval,
    Side,
    Threshold,
    clopper_pearson,
    decide,
    wilson,
    z_value,
)


def _tail_at_least(k: int, n: int, p: float) -> float:
    log_comb = [
        math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in range(n + 1)
    ]
    return sum(
        math.exp(log_comb[i] + i * math.log(p) + (n - i) * math.log1p(-p)) for i in range(k, n + 1)
    )


def _bisect(f: Callable[[float], float], low: float, high: float) -> float:
    for _ in range(200):
        mid = (low + high) / 2
        if (f(low) < 0) == (f(mid) < 0):
            low = mid
        else:
            high = mid
    return (low + high) / 2


def test_the_four_words_in_their_order() -> None:
    assert VERDICTS == (
        "holds",
        "does not hold",
        "cannot be settled by these data",
        "too few events",
    )


def test_the_issues_example_straddles_the_ten_percent_line() -> None:
    """9.9 ± 2.1 % of a win against the 10 % line: the data cannot settle it."""
    line = Threshold("SMALL_EDGE", 10.0, "above")
    judged = decide(Interval.from_se(9.9, 2.1), line, digits=1)
    assert judged.verdict == CANNOT_SETTLE
    assert judged.reason == (
        "9.9 [5.8, 14.0] (95 %) straddles the line 10 (SMALL_EDGE): the data cannot settle it"
    )


@pytest.mark.parametrize(
    ("estimate", "se", "side", "expected"),
    [
        (0.30, 0.02, "above", HOLDS),
        (0.02, 0.02, "above", DOES_NOT_HOLD),
        (0.11, 0.02, "above", CANNOT_SETTLE),
        (0.02, 0.02, "below", HOLDS),
        (0.30, 0.02, "below", DOES_NOT_HOLD),
        (0.09, 0.02, "below", CANNOT_SETTLE),
    ],
)
def test_one_sided_lines(estimate: float, se: float, side: Side, expected: str) -> None:
    judged = decide(Interval.from_se(estimate, se), Threshold("LINE", 0.1, side))
    assert judged.verdict == expected


def test_a_band_holds_only_when_the_whole_interval_is_inside() -> None:
    band = Threshold("BALANCED", 0.01, "within")
    assert decide(Interval(0.0, -0.005, 0.005), band).verdict == HOLDS
    assert decide(Interval(0.144, 0.06, 0.23), band).verdict == DOES_NOT_HOLD
    assert decide(Interval(-0.1, -0.2, -0.05), band).verdict == DOES_NOT_HOLD
    assert decide(Interval(0.036, -0.046, 0.118), band).verdict == CANNOT_SETTLE
    assert decide(Interval(0.0, -0.02, 0.02), band).verdict == CANNOT_SETTLE
    lopsided = Threshold("BAND", 0.5, "within", low=0.2)
    assert lopsided.band == (0.2, 0.5)
    assert decide(Interval(0.1, 0.05, 0.15), lopsided).verdict == DOES_NOT_HOLD


def test_an_interval_touching_the_line_cannot_settle_it() -> None:
    line = Threshold("LINE", 1.0, "above")
    assert decide(Interval(1.5, 1.0, 2.0), line).verdict == CANNOT_SETTLE
    assert decide(Interval(0.5, 0.0, 1.0), line).verdict == CANNOT_SETTLE


def test_too_few_events_comes_before_any_interval() -> None:
    line = Threshold("LINE", 0.1, "above")
    judged = decide(Interval(0.5, 0.4, 0.6), line, events=8, min_events=30)
    assert judged.verdict == TOO_FEW
    assert judged.interval is None
    assert judged.reason == "8 events, fewer than the 30 a verdict needs"
    assert decide(Interval(0.5, 0.4, 0.6), line, events=30, min_events=30).verdict == HOLDS


def test_bad_intervals_and_thresholds_are_refused() -> None:
    with pytest.raises(ValueError, match="low <= estimate <= high"):
        Interval(1.0, 2.0, 3.0)
    with pytest.raises(ValueError, match="level"):
        Interval(1.0, 0.0, 2.0, level=1.0)
    with pytest.raises(ValueError, match="standard error"):
        Interval.from_se(1.0, -1.0)
    with pytest.raises(ValueError, match="unknown side"):
        Threshold("X", 1.0, "sideways")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="within"):
        Threshold("X", 1.0, "above", low=0.0)


def test_z_and_scaling() -> None:
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)
    shown = Interval.from_se(0.099, 0.021).scaled(100)
    assert shown.format(1, " %") == "9.9 % [5.8 %, 14.0 %]"


@pytest.mark.parametrize(("k", "n"), [(0, 8), (1, 8), (4, 8), (8, 8), (3, 50), (391, 1218)])
def test_clopper_pearson_ends_are_where_the_binomial_tails_equal_alpha_over_2(
    k: int, n: int
) -> None:
    got = clopper_pearson(k, n)
    if k == 0:
        assert got.low == 0.0
    else:
        # P(X >= k | p = low) = 0.025
        low = _bisect(lambda p: _tail_at_least(k, n, p) - 0.025, 1e-12, k / n)
        assert got.low == pytest.approx(low, abs=1e-9)
    if k == n:
        assert got.high == 1.0
    else:
        # P(X <= k | p = high) = 0.025
        high = _bisect(
            lambda p: 1 - _tail_at_least(k + 1, n, p) - 0.025, max(k / n, 1e-12), 1 - 1e-12
        )
        assert got.high == pytest.approx(high, abs=1e-9)


@pytest.mark.parametrize(("k", "n"), [(0, 8), (1, 8), (4, 8), (8, 8), (3, 50), (391, 1218)])
def test_wilson_ends_are_where_the_score_statistic_equals_z(k: int, n: int) -> None:
    got = wilson(k, n)
    z = z_value(0.95)
    p_hat = k / n

    def score(p: float) -> float:
        return (p_hat - p) ** 2 - z * z * p * (1 - p) / n

    assert got.estimate == p_hat
    for end, lo, hi in ((got.low, 0.0, p_hat), (got.high, p_hat, 1.0)):
        if end in (0.0, 1.0) and end in (lo, hi) and abs(score(end)) < 1e-12:
            continue
        assert score(end) == pytest.approx(0.0, abs=1e-12)
        assert lo <= end <= hi


def test_zero_of_eight_is_never_zero_plus_or_minus_zero() -> None:
    for interval in (wilson(0, 8), clopper_pearson(0, 8)):
        assert interval.estimate == 0.0
        assert interval.high > 0.3
    assert str(wilson(0, 8)) == "0.000 [0.000, 0.324]"
    assert clopper_pearson(0, 8).format() == "0.000 [0.000, 0.369]"


def test_bad_counts_are_refused() -> None:
    for k, n in ((1, 0), (-1, 8), (9, 8)):
        with pytest.raises(ValueError, match="successes"):
            wilson(k, n)
        with pytest.raises(ValueError, match="successes"):
            clopper_pearson(k, n)
