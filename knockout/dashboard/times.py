"""How every view writes a length of time: with units, the same way everywhere.

``duration`` (:func:`knockout.io.text.duration`, where the core's messages find it too) is the
one convention: hours and minutes from an hour on, minutes and seconds below
(``1 h 05 min``, ``37 h 39 min``, ``4 min 05 s``, ``45 s``), or to the minute where seconds would
only be noise (``19 h 25 min``, ``4 min``). Simulated time in an event counts from its start with
play running on, so hours are not folded into days. Clock settings keep the arbiters' notation
``base+increment`` with its units said once (``60+10`` is 60 minutes and 10 seconds a move).
"""

from __future__ import annotations

from knockout.io.text import duration

__all__ = ["duration", "minutes"]


def minutes(value: float) -> str:
    """A clock's base time in minutes as arbiters write it: whole minutes bare, a sealed bid to
    the hundredth (``30``, ``19.89``).

    >>> minutes(30.0), minutes(19.8858), minutes(7.5)
    ('30', '19.89', '7.5')
    """
    return f"{value:.2f}".rstrip("0").rstrip(".")
