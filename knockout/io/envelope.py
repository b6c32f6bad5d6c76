"""The JSON envelope every command's ``--json`` output shares.

``{"version": ..., "seed": ... (when the command used one), <the answer's keys>, "scenario": ...
(the fully resolved scenario, when there is one)}``. Built in one place so that no command can
forget the seed or the version.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from knockout.version import __version__

__all__ = ["envelope"]


def envelope(
    body: Mapping[str, Any],
    *,
    seed: int | None = None,
    scenario: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``body`` wrapped with ``version``, ``seed`` (if given) and ``scenario`` (if given).

    >>> envelope({"win": 0.5}, seed=3)["seed"]
    3
    """
    out: dict[str, Any] = {"version": __version__}
    if seed is not None:
        out["seed"] = seed
    out.update({k: v for k, v in body.items() if k not in ("version", "seed", "scenario")})
    if scenario is not None:
        out["scenario"] = dict(scenario)
    return out
