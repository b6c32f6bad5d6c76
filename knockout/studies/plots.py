"""PNG plots of the studies (matplotlib, loaded only when a plot is drawn)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["heat_map", "line_plot", "pyplot"]


#: Fonts tried in order, so Chinese names render where a CJK font is installed.
FONTS = ["DejaVu Sans", "Noto Sans CJK SC", "WenQuanYi Zen Hei", "SimHei", "Microsoft YaHei"]


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only Agg backend, with CJK fonts as fallbacks."""
    import warnings  # noqa: PLC0415

    import matplotlib  # noqa: PLC0415  (heavy: loaded only to plot)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    plt.rcParams["font.family"] = FONTS
    # Without a CJK font a Chinese name is drawn as boxes; the plot is still written.
    warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font")
    warnings.filterwarnings("ignore", message=r"findfont: Font family .* not found")
    return plt


def _wrap(title: str, width: int = 70) -> str:
    """A long title over several lines (its own line breaks kept)."""
    import textwrap  # noqa: PLC0415

    return "\n".join(textwrap.fill(part, width) for part in title.split("\n"))


def line_plot(
    path: Path,
    x: Sequence[float],
    lines: Mapping[str, Sequence[float]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    errors: Mapping[str, Sequence[float]] | None = None,
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
    ax.set_title(_wrap(title), fontsize=10)
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
    finite = values[np.isfinite(values)]
    # a map of a few levels only (a choice: natural play or the full clock) needs no contours
    levels = len(np.unique(np.round(finite, 9)))
    if len(x) > 2 and len(y) > 2 and finite.size > 3 and levels > 3:
        contours = ax.contour(
            np.asarray(x), np.asarray(y), values, colors="black", linewidths=0.5, alpha=0.6
        )
        ax.clabel(contours, fontsize=7, fmt="%.3g")
        if centre is not None:  # the line where the value changes sign
            ax.contour(np.asarray(x), np.asarray(y), values, levels=[centre], colors="black",
                       linewidths=1.6)  # fmt: skip
    if mark is not None:
        ax.plot(*mark, marker="*", markersize=14, color="red", markeredgecolor="black",
                linestyle="none", label="the scenario's values")  # fmt: skip
        ax.legend(fontsize=8, loc="upper right")
    if not np.isfinite(values).all():
        ax.text(0.01, 0.01, "blank: undefined", transform=ax.transAxes, fontsize=8,
                color="grey")  # fmt: skip
    ax.set_title(_wrap(title), fontsize=10)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
