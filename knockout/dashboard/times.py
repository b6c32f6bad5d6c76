"""How every view writes a length of time: with units, the same way everywhere.

``duration`` is the one convention: hours and minutes from an hour on, minutes and seconds below
(``1 h 05 min``, ``37 h 39 min``, ``4 min 05 s``, ``45 s``), or to the minute where seconds would
only be noise (``19 h 25 min``, ``4 min``). Simulated time in an event counts from its start with
play running on, so hours are not folded into days. Clock settings keep the arbiters' notation
``base+increment`` with its units said once (``60+10`` is 60 minutes and 10 seconds a move).
"""

from __future__ import annotations

import math

__all__ = ["duration", "minutes"]


def duration(seconds: float, *, to_the_second: bool = False) -> str:
    """``seconds`` with units.

    To the minute: ``4 min``, ``1 h 05 min``, ``37 h 39 min``. With ``to_the_second``, below an
    hour: ``45 s``, ``4 min 05 s``, ``59 min 59 s`` (an hour or more stays to the minute). A
    time not known (NaN) is ``-``.

    >>> duration(19 * 3600 + 25 * 60), duration(4 * 60), duration(37.65 * 3600)
    ('19 h 25 min', '4 min', '37 h 39 min')
    >>> duration(245, to_the_second=True), duration(45, to_the_second=True)
    ('4 min 05 s', '45 s')
    >>> duration(3 * 3600 + 62, to_the_second=True), duration(float("nan"))
    ('3 h 01 min', '-')
    """
    if math.isnan(seconds):
        return "-"
    s = max(0, round(seconds))
    if to_the_second and s < 3600:
        m, s = divmod(s, 60)
        return f"{m} min {s:02d} s" if m else f"{s} s"
    total = round(s / 60)
    h, m = divmod(total, 60)
    return f"{h} h {m:02d} min" if h else f"{m} min"


def minutes(value: float) -> str:
    """A clock's base time in minutes as arbiters write it: whole minutes bare, a sealed bid to
    the hundredth (``30``, ``19.89``).

    >>> minutes(30.0), minutes(19.8858), minutes(7.5)
    ('30', '19.89', '7.5')
    """
    return f"{value:.2f}".rstrip("0").rstrip(".")
