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
    import logging  # noqa: PLC0415
    import warnings  # noqa: PLC0415

    import matplotlib  # noqa: PLC0415  (heavy: loaded only to plot)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    plt.rcParams["font.family"] = FONTS
    # Each fallback font not installed is logged for every text drawn; the first one found is
    # used, so the messages say nothing a user can act on.
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
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
    bands: Mapping[str, tuple[Sequence[float], Sequence[float]]] | None = None,
) -> Path:
    """One line per entry of ``lines`` against ``x`` (error bars of ±2 ``errors``); ``mark``
    draws a vertical line at the scenario's own value; ``bands``: per line, the lower and upper
    ends of its central 95 % over uncertain constants, drawn as a shaded band."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.8))
    for name, ys in lines.items():
        err = None if errors is None else [2 * e for e in errors.get(name, [0.0] * len(ys))]
        drawn = ax.errorbar(x, ys, yerr=err, marker="o", markersize=3, capsize=2, label=name)
        if bands is not None and name in bands:
            lo, hi = bands[name]
            ax.fill_between(x, lo, hi, color=drawn.lines[0].get_color(), alpha=0.2, linewidth=0,
                            label=f"{name}: 95 % over the constants")  # fmt: skip
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
    bounds: tuple[Sequence[Sequence[float]], Sequence[Sequence[float]]] | None = None,
) -> Path:
    """``z[i][j]`` at (``x[j]``, ``y[i]``), with the scenario's own point marked; ``centre``
    makes a diverging colour scale around that value. ``bounds``: the 2.5 % and 97.5 % ends of
    each cell's spread over uncertain constants, drawn as two more panels on the same colour
    scale (and, with a ``centre``, the cells whose interval contains it hatched)."""
    import numpy as np  # noqa: PLC0415

    plt = pyplot()
    values = np.asarray(z, dtype=float)
    if bounds is not None:
        return _heat_with_bounds(path, x, y, values, bounds, title=title, xlabel=xlabel,
                                 ylabel=ylabel, colorbar=colorbar, mark=mark,
                                 centre=centre)  # fmt: skip
    fig, ax = plt.subplots(figsize=(7.5, 5.5))
    kwargs: dict[str, Any] = {"shading": "nearest", "cmap": "viridis"}
    if centre is not None:
        span = float(np.nanmax(np.abs(values - centre))) or 1.0
        kwargs |= {"cmap": "RdBu_r", "vmin": centre - span, "vmax": centre + span}
    mesh = ax.pcolormesh(np.asarray(x), np.asarray(y), values, **kwargs)
    fig.colorbar(mesh, ax=ax, label=colorbar)
    if len(x) > 2 and len(y) > 2 and np.isfinite(values).sum() > 3:
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


def _heat_with_bounds(
    path: Path,
    x: Sequence[float],
    y: Sequence[float],
    values: Any,
    bounds: tuple[Sequence[Sequence[float]], Sequence[Sequence[float]]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    colorbar: str,
    mark: tuple[float, float] | None,
    centre: float | None,
) -> Path:
    """The heat map between its 2.5 % and 97.5 % ends over uncertain constants: three panels
    on one colour scale; cells whose interval contains ``centre`` hatched on the middle one."""
    import numpy as np  # noqa: PLC0415

    plt = pyplot()
    lo, hi = np.asarray(bounds[0], dtype=float), np.asarray(bounds[1], dtype=float)
    stack = np.concatenate([values.ravel(), lo.ravel(), hi.ravel()])
    kwargs: dict[str, Any] = {"shading": "nearest", "cmap": "viridis"}
    if centre is not None:
        span = float(np.nanmax(np.abs(stack - centre))) or 1.0
        kwargs |= {"cmap": "RdBu_r", "vmin": centre - span, "vmax": centre + span}
    else:
        kwargs |= {"vmin": float(np.nanmin(stack)), "vmax": float(np.nanmax(stack))}
    fig, axes = plt.subplots(1, 3, figsize=(15, 5.4), sharey=True, layout="constrained")
    panels = (
        (lo, "2.5 % over the constants"),
        (values, "at the central constants"),
        (hi, "97.5 % over the constants"),
    )
    xs, ys = np.asarray(x), np.asarray(y)
    mesh = None
    for ax, (grid, name) in zip(axes, panels, strict=True):
        mesh = ax.pcolormesh(xs, ys, grid, **kwargs)
        ax.set_title(name, fontsize=9)
        ax.set_xlabel(xlabel)
        if centre is not None and np.isfinite(grid).sum() > 3 and len(x) > 2 and len(y) > 2:
            ax.contour(xs, ys, grid, levels=[centre], colors="black", linewidths=1.4)
    axes[0].set_ylabel(ylabel)
    middle = axes[1]
    if centre is not None:
        unsettled = ((lo < centre) & (hi > centre)).astype(float)
        if unsettled.any() and len(x) > 1 and len(y) > 1:
            middle.contourf(xs, ys, unsettled, levels=[0.5, 1.5], colors="none",
                            hatches=["///"])  # fmt: skip
        middle.text(0.01, 0.01, f"hatched: the 95 % interval contains {centre:g}",
                    transform=middle.transAxes, fontsize=8, color="black",
                    bbox={"facecolor": "white", "alpha": 0.7, "linewidth": 0})  # fmt: skip
    if mark is not None:
        middle.plot(*mark, marker="*", markersize=14, color="red", markeredgecolor="black",
                    linestyle="none", label="the scenario's values")  # fmt: skip
        middle.legend(fontsize=8, loc="upper right")
    fig.suptitle(_wrap(title, 110), fontsize=10)
    fig.colorbar(mesh, ax=list(axes), label=colorbar, shrink=0.9, pad=0.01)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
