"""knockout: Xiangqi knockout matches with time-bidding sudden death.

The front door (:mod:`knockout.api`): ``knockout.load(path)`` gives a scenario;
``knockout.answers``, ``knockout.simulate`` and ``knockout.play`` answer it exactly, by Monte Carlo
and through the SimPy engine. They are loaded on first use, so ``import knockout`` is light.
The rules live in ``knockout.rules``, the walkers in ``knockout.exact``, ``knockout.engine`` and
the sibling package ``sims``; the command line is ``knockout.cli``.
"""

from __future__ import annotations

from knockout.version import __version__

__all__ = ["__version__", "load", "odds", "play", "simulate"]

#: ``typing.TYPE_CHECKING`` without importing typing (a third of a bare ``knockout --version``).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from knockout.api import load, odds, play, simulate


def __getattr__(name: str) -> Any:
    if name in ("load", "odds", "play", "simulate"):
        from knockout import api

        return getattr(api, name)
    raise AttributeError(f"module 'knockout' has no attribute {name!r}")
