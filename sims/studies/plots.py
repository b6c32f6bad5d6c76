"""PNG plots of the studies (matplotlib, loaded only when a plot is drawn)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["heat_map", "line_plot", "pyplot"]


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only Agg backend."""
    import matplotlib  # noqa: PLC0415  (heavy: loaded only to plot)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    return plt


def line_plot(
    path: Path,
    x: Sequence[float],
    lines: dict[str, Sequence[float]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    errors: dict[str, Sequence[float]] | None = None,
    mark: float | None = None,
) -> Path:
    """One line per entry of ``lines`` against ``x`` (error bars of ±2 ``errors``); ``mark``
    draws a vertical line at the scenario's own value."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.8))
    for name, ys in lines.items():
        err = None if errors is None else [2 * e for e in errors.get(name, [0.0] * len(ys))]
        ax.errorbar(x, ys, yerr=err, marker="o", markersize=3, capsize=2, label=name)
    if mark is not None:
        ax.axvline(mark, color="grey", linestyle=":", linewidth=1, label="the scenario's value")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def heat_map(
    path: Path,
    x: Sequence[float],
    y: Sequence[float],
    z: Sequence[Sequence[float]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    colorbar: str,
    mark: tuple[float, float] | None = None,
    centre: float | None = None,
) -> Path:
    """``z[i][j]`` at (``x[j]``, ``y[i]``), with the scenario's own point marked; ``centre``
    makes a diverging colour scale around that value."""
    import numpy as np  # noqa: PLC0415

    plt = pyplot()
    values = np.asarray(z, dtype=float)
    fig, ax = plt.subplots(figsize=(7.5, 5.5))
    kwargs: dict[str, Any] = {"shading": "nearest", "cmap": "viridis"}
    if centre is not None:
        span = float(np.nanmax(np.abs(values - centre))) or 1.0
        kwargs |= {"cmap": "RdBu_r", "vmin": centre - span, "vmax": centre + span}
    mesh = ax.pcolormesh(np.asarray(x), np.asarray(y), values, **kwargs)
    fig.colorbar(mesh, ax=ax, label=colorbar)
    if len(x) > 2 and len(y) > 2:
        contours = ax.contour(np.asarray(x), np.asarray(y), values, colors="white", linewidths=0.6)
        ax.clabel(contours, fontsize=7, fmt="%.3g")
    if mark is not None:
        ax.plot(*mark, marker="*", markersize=14, color="red", markeredgecolor="black",
                linestyle="none", label="the scenario's values")  # fmt: skip
        ax.legend(fontsize=8, loc="upper right")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
