"""Figures printed to the precision their standard error allows.

A figure estimated with a standard error is printed down to the decimal place of the error's
first significant digit, no further: 69.74 with an error of 3.3 is "70", 12.75 with 0.38 is
"12.7". A figure without an error (exact, or unknown) keeps the caller's default.

>>> decimals(3.34)
0
>>> decimals(0.379)
1
>>> decimals(0.0028), decimals(0.0028, most=4)
(2, 3)
>>> decimals(None, default=2)
2
>>> fixed(69.737, 3.34), fixed(12.7499, 0.379), fixed(-6.17, 0.24, sign=True)
('70', '12.7', '-6.2')
"""

from __future__ import annotations

import math

__all__ = ["MOST_DECIMALS", "decimals", "fixed"]

#: The most decimals printed, however small the error (0.01 of a minute or a point).
MOST_DECIMALS = 2


def decimals(se: float | None, *, default: int = MOST_DECIMALS, most: int = MOST_DECIMALS) -> int:
    """Decimal places down to the first significant digit of ``se`` (at most ``most``; the
    ``default`` where there is no finite positive error)."""
    if se is None or not math.isfinite(se) or se <= 0:
        return default
    return max(0, min(most, -math.floor(math.log10(se))))


def fixed(
    value: float,
    se: float | None,
    *,
    default: int = MOST_DECIMALS,
    most: int = MOST_DECIMALS,
    sign: bool = False,
) -> str:
    """``value`` to :func:`decimals` of ``se`` (``sign``: always with + or -)."""
    d = decimals(se, default=default, most=most)
    return f"{value:{'+' if sign else ''}.{d}f}"
