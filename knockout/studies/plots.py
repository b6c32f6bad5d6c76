"""PNG plots of the studies (matplotlib, loaded only when a plot is drawn).

Chinese text (players' names, 甲 and 乙) needs a CJK font, which a fresh machine does not have:
the project depends on ``noto-cjk-sans-otc``, the Noto Sans CJK collection (SIL Open Font
License) as a pip package, so that ``make`` brings it without root; Debian's ``fonts-noto-cjk``
(the same file) and other system CJK fonts are used where that package is missing. The font is
registered with matplotlib by path (matplotlib's font cache does not see a font installed after
it was built). Without any, :func:`cjk_font` is None and the caller warns: Chinese is then drawn
as boxes.
"""

from __future__ import annotations

import functools
import itertools
import math
import textwrap
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from knockout.i18n import _

__all__ = [
    "CJK_FONT_FILES",
    "cjk_font",
    "has_cjk",
    "heat_figure",
    "heat_map",
    "line_figure",
    "line_plot",
    "pyplot",
    "save",
]

#: The Latin font, then the CJK one found.
LATIN_FONT = "DejaVu Sans"
#: System CJK fonts, tried in order where the pip font is missing (Debian: fonts-noto-cjk,
#: fonts-wqy-zenhei, fonts-wqy-microhei).
CJK_FONT_FILES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
)
#: CJK font families matplotlib may already know (its cache), tried last.
CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans CJK JP", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei")
#: Values within this of each other draw the same line.
SAME_LINE = 1e-12


def _font_files() -> list[Path]:
    files = []
    try:
        import noto_cjk_sans_otc  # noqa: PLC0415  (a font file, loaded only to plot)

        files.append(Path(str(noto_cjk_sans_otc.FONT_PATH)))
    except ImportError:
        pass
    return [*files, *(Path(p) for p in CJK_FONT_FILES)]


@functools.cache
def _cjk_family() -> tuple[str, str] | None:
    """(family, file) of the CJK font registered with matplotlib, or None."""
    from matplotlib import font_manager  # noqa: PLC0415 (start-up: matplotlib, loaded to plot)

    manager = font_manager.fontManager
    for path in _font_files():
        if not path.is_file():
            continue
        manager.addfont(str(path))
        names = [f.name for f in manager.ttflist if Path(str(f.fname)) == path]
        preferred = [n for n in names if n.endswith(" SC")] or names
        if preferred:
            return preferred[0], str(path)
    for f in manager.ttflist:
        if f.name in CJK_FAMILIES:
            return f.name, str(f.fname)
    return None


def cjk_font() -> str | None:
    """The file of the CJK font the plots use, or None (Chinese is drawn as boxes)."""
    found = _cjk_family()
    return None if found is None else found[1]


def has_cjk(text: str) -> bool:
    """Whether ``text`` has a CJK character (one a Latin font cannot draw).

    >>> has_cjk("P(甲 advances)"), has_cjk("P(Red advances)")
    (True, False)
    """
    return any(
        "\u2e80" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" or c >= "\U00020000" for c in text
    )


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only Agg backend, with the CJK font as the fallback."""

    import matplotlib  # noqa: PLC0415  (heavy: loaded only to plot)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 (start-up: matplotlib, loaded to plot)

    found = _cjk_family()
    plt.rcParams["font.family"] = [LATIN_FONT] + ([] if found is None else [found[0]])
    if found is None:  # Chinese is drawn as boxes; the caller says so once, not per glyph
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font")
    return plt


def _wrap(title: str, width: int = 70) -> str:
    """A long title over several lines (its own line breaks kept)."""

    return "\n".join(textwrap.fill(part, width) for part in title.split("\n"))


def save(fig: Any, path: Path) -> Path:
    """Write ``fig`` as a PNG and close it."""
    plt = pyplot()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _integer(values: Sequence[float]) -> bool:
    return all(float(v).is_integer() for v in values)


def _descending(values: Sequence[float]) -> bool:
    return len(values) > 1 and all(a > b for a, b in itertools.pairwise(values))


def _style_axis(axis: Any, values: Sequence[float]) -> None:
    """Whole-number ticks on a grid of whole numbers."""
    from matplotlib.ticker import MaxNLocator  # noqa: PLC0415 (start-up: matplotlib, loaded to plot)

    if values and _integer(values):
        axis.set_major_locator(MaxNLocator(integer=True))


def _same(a: Sequence[float], b: Sequence[float]) -> bool:
    return len(a) == len(b) and all(
        (math.isnan(x) and math.isnan(y)) or abs(x - y) <= SAME_LINE
        for x, y in zip(a, b, strict=True)
    )


def _merged(lines: Mapping[str, Sequence[float]]) -> list[tuple[list[str], Sequence[float]]]:
    """Lines grouped by their values: identical lines become one, with every name."""
    groups: list[tuple[list[str], Sequence[float]]] = []
    for name, ys in lines.items():
        for names, values in groups:
            if _same(values, ys):
                names.append(name)
                break
        else:
            groups.append(([name], ys))
    return groups


#: Each line's marker and dash pattern, in turn: lines that nearly coincide stay visible (a
#: dashed line over a solid one, hollow markers over filled ones).
_STYLES = (("o", "-"), ("s", "--"), ("^", "-."), ("D", ":"), ("v", "-"), ("P", "--"),
           ("X", "-."), ("*", ":"))  # fmt: skip
#: The dash patterns of reference lines (a tolerance, a verdict's line), in turn.
_REFERENCE_DASHES = ((0, (6, 3)), (0, (2, 2)))
#: Lines closer than this share of the plot's height everywhere would hide one another.
CLOSE_LINES = 0.01


def _close_lines(
    merged: Sequence[tuple[list[str], Sequence[float]]],
) -> dict[int, tuple[str, float]]:
    """For each line drawn over an earlier one it nearly hides (every point within
    :data:`CLOSE_LINES` of the values' range): that line's name and the largest gap."""
    values = [v for _, ys in merged for v in ys if not math.isnan(v)]
    height = (max(values) - min(values)) if values else 0.0
    out: dict[int, tuple[str, float]] = {}
    for k, (_names, ys) in enumerate(merged):
        for names, earlier in merged[:k]:
            gaps = [abs(a - b) for a, b in zip(ys, earlier, strict=True)
                    if not (math.isnan(a) or math.isnan(b))]  # fmt: skip
            if gaps and height > 0 and max(gaps) <= CLOSE_LINES * height:
                out[k] = (names[0], max(gaps))
                break
    return out


def _footnote(fig: Any, note: str | None) -> None:
    if note:
        fig.text(0.005, 0.005, note, fontsize=6.5, color="grey", ha="left", va="bottom")


def line_figure(
    x: Sequence[float],
    lines: Mapping[str, Sequence[float]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    errors: Mapping[str, Sequence[float]] | None = None,
    mark: float | None = None,
    note: str | None = None,
    bands: Mapping[str, tuple[Sequence[float], Sequence[float]]] | None = None,
    references: Sequence[tuple[float, str]] = (),
) -> Any:
    """One line per entry of ``lines`` against ``x``, as a matplotlib figure; ``bands``: per
    line, the lower and upper ends of its central 95 % over uncertain constants, shaded;
    ``references``: ``(value, label)`` of each line a verdict is drawn at (a verification
    tolerance), drawn across the plot and named in the legend.

    Error bars of ±2 ``errors`` where there are any (none on exact figures); identical lines are
    drawn once and named together in the legend; ``mark`` draws a vertical line at the
    scenario's own value; ``note`` is small print at the foot (the keys). An ``x`` listed in
    descending order runs that way, left to right; whole-number ``x`` get whole-number ticks.
    """
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.8))
    merged = _merged(lines)
    close = _close_lines(merged)
    for k, (names, ys) in enumerate(merged):
        name = (
            names[0]
            if len(names) == 1
            else _("{names} (identical)").format(names=_(", ").join(names))
        )
        if k in close:
            other, gap = close[k]
            name += " " + _("(within {gap:.2g} of {other}, drawn over it)").format(
                gap=gap, other=other
            )
        marker, dashes = _STYLES[k % len(_STYLES)]
        style = {"marker": marker, "markersize": 4, "linestyle": dashes,
                 "markerfacecolor": "none" if k % 2 else None, "zorder": 2 + k}  # fmt: skip
        err = None if errors is None else errors.get(names[0])
        if err is not None and any(e > 0 for e in err):
            drawn = ax.errorbar(x, ys, yerr=[2 * e for e in err], capsize=2, label=name,
                                **style).lines[0]  # fmt: skip
        else:
            (drawn,) = ax.plot(x, ys, label=name, **style)
        band = None if bands is None else bands.get(names[0])
        if band is not None:
            spread = _("{name}: 95 % over the constants").format(name=names[0])
            ax.fill_between(x, band[0], band[1], color=drawn.get_color(), alpha=0.2,
                            linewidth=0, label=spread)  # fmt: skip
    if mark is not None:
        ax.axvline(mark, color="grey", linestyle=":", linewidth=1, label=_("the scenario's value"))
    for k, (value, words) in enumerate(references):
        ax.axhline(value, color="black", linewidth=1, linestyle=_REFERENCE_DASHES[k % 2],
                   label=words)  # fmt: skip
    if _descending(x):
        ax.invert_xaxis()
    _style_axis(ax.xaxis, x)
    ax.ticklabel_format(axis="y", useOffset=False, style="plain")
    ax.set_title(_wrap(title), fontsize=10)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout(rect=(0, 0.03 if note else 0, 1, 1))
    _footnote(fig, note)
    return fig


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
    note: str | None = None,
    bands: Mapping[str, tuple[Sequence[float], Sequence[float]]] | None = None,
    references: Sequence[tuple[float, str]] = (),
) -> Path:
    """:func:`line_figure`, written to ``path``."""
    return save(
        line_figure(
            x, lines, title=title, xlabel=xlabel, ylabel=ylabel, errors=errors, mark=mark,
            note=note, bands=bands, references=references,
        ),
        path,
    )  # fmt: skip


def _ascending(values: Sequence[float], z: Any, axis: int) -> tuple[Any, Any, bool]:
    """Values and ``z`` put in ascending order along ``axis`` (and whether they were
    descending)."""

    if _descending(values):
        return np.asarray(values[::-1], dtype=float), np.flip(z, axis=axis), True
    return np.asarray(values, dtype=float), z, False


def heat_figure(
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
    note: str | None = None,
    bounds: tuple[Sequence[Sequence[float]], Sequence[Sequence[float]]] | None = None,
    references: Sequence[tuple[float, str]] = (),
) -> Any:
    """``z[i][j]`` at (``x[j]``, ``y[i]``) as a matplotlib figure, with the scenario's own point
    marked; ``centre`` makes a diverging colour scale around that value (a NaN cell is blank:
    the title says why). ``bounds``: the 2.5 % and 97.5 % ends of each cell's spread over
    uncertain constants, drawn as two more panels on the same colour scale
    (:func:`_heat_with_bounds`). ``references``: ``(value, label)`` of each line a verdict is
    drawn at, a thick dashed contour named in the legend (where the map reaches it)."""

    if bounds is not None:
        return _heat_with_bounds(x, y, z, bounds, title=title, xlabel=xlabel, ylabel=ylabel,
                                 colorbar=colorbar, mark=mark, centre=centre,
                                 note=note)  # fmt: skip
    plt = pyplot()
    values = np.asarray(z, dtype=float)
    xs, values, flip_x = _ascending(x, values, 1)
    ys, values, flip_y = _ascending(y, values, 0)
    fig, ax = plt.subplots(figsize=(7.5, 5.5))
    kwargs: dict[str, Any] = {"shading": "nearest", "cmap": "viridis"}
    if centre is not None:
        span = float(np.nanmax(np.abs(values - centre))) or 1.0
        kwargs |= {"cmap": "RdBu_r", "vmin": centre - span, "vmax": centre + span}
    mesh = ax.pcolormesh(xs, ys, values, **kwargs)
    bar = fig.colorbar(mesh, ax=ax, label=colorbar)
    bar.formatter.set_useOffset(False)
    finite = values[np.isfinite(values)]
    # a map of a few levels only (a choice: natural play or the full clock) needs no contours
    levels = len(np.unique(np.round(finite, 9)))
    if len(x) > 2 and len(y) > 2 and finite.size > 3 and levels > 3:
        contours = ax.contour(xs, ys, values, colors="black", linewidths=0.5, alpha=0.6)
        ax.clabel(contours, fontsize=7, fmt="%.3g")
        if centre is not None and np.nanmin(values) < centre < np.nanmax(values):
            ax.contour(xs, ys, values, levels=[centre], colors="black", linewidths=1.6)
    for k, (value, words) in enumerate(references):
        if finite.size and float(finite.min()) < value < float(finite.max()):
            ax.contour(xs, ys, values, levels=[value], colors="white", linewidths=2.2,
                       linestyles=[_REFERENCE_DASHES[k % 2]])  # fmt: skip
            ax.plot([], [], color="black", linewidth=2.2, linestyle=_REFERENCE_DASHES[k % 2],
                    label=words)  # fmt: skip
    if mark is not None:
        ax.plot(*mark, marker="*", markersize=14, color="red", markeredgecolor="black",
                linestyle="none", label=_("the scenario's values"))  # fmt: skip
    if mark is not None or references:
        ax.legend(fontsize=8, loc="upper right")
    if flip_x:
        ax.invert_xaxis()
    if flip_y:
        ax.invert_yaxis()
    _style_axis(ax.xaxis, x)
    _style_axis(ax.yaxis, y)
    ax.set_title(_wrap(title), fontsize=10)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout(rect=(0, 0.03 if note else 0, 1, 1))
    _footnote(fig, note)
    return fig


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
    note: str | None = None,
    bounds: tuple[Sequence[Sequence[float]], Sequence[Sequence[float]]] | None = None,
) -> Path:
    """:func:`heat_figure`, written to ``path``."""
    return save(
        heat_figure(
            x, y, z, title=title, xlabel=xlabel, ylabel=ylabel, colorbar=colorbar, mark=mark,
            centre=centre, note=note, bounds=bounds,
        ),
        path,
    )  # fmt: skip


def _heat_with_bounds(
    x: Sequence[float],
    y: Sequence[float],
    z: Sequence[Sequence[float]],
    bounds: tuple[Sequence[Sequence[float]], Sequence[Sequence[float]]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    colorbar: str,
    mark: tuple[float, float] | None,
    centre: float | None,
    note: str | None,
) -> Any:
    """The heat map between its 2.5 % and 97.5 % ends over uncertain constants: three panels
    on one colour scale, the line where each crosses ``centre``, and on the middle one the
    cells whose interval contains ``centre`` hatched."""

    plt = pyplot()
    grids = [np.asarray(g, dtype=float) for g in (bounds[0], z, bounds[1])]
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    flips = []
    for axis, along in ((1, x), (0, y)):
        ordered = [_ascending(along, g, axis) for g in grids]
        grids = [o[1] for o in ordered]
        flips.append(ordered[0][2])
        if axis == 1:
            xs = ordered[0][0]
        else:
            ys = ordered[0][0]
    lo, hi = grids[0], grids[2]
    stack = np.concatenate([g.ravel() for g in grids])
    kwargs: dict[str, Any] = {"shading": "nearest", "cmap": "viridis"}
    if centre is not None:
        span = float(np.nanmax(np.abs(stack - centre))) or 1.0
        kwargs |= {"cmap": "RdBu_r", "vmin": centre - span, "vmax": centre + span}
    else:
        kwargs |= {"vmin": float(np.nanmin(stack)), "vmax": float(np.nanmax(stack))}
    fig, axes = plt.subplots(1, 3, figsize=(15, 5.4), sharey=True, layout="constrained")
    names = (
        _("2.5 % over the constants"),
        _("at the central constants"),
        _("97.5 % over the constants"),
    )
    mesh = None
    for ax, grid, name in zip(axes, grids, names, strict=True):
        mesh = ax.pcolormesh(xs, ys, grid, **kwargs)
        ax.set_title(name, fontsize=9)
        ax.set_xlabel(xlabel)
        _style_axis(ax.xaxis, x)
        enough = np.isfinite(grid).sum() > 3 and len(x) > 2 and len(y) > 2
        if centre is not None and enough and np.nanmin(grid) < centre < np.nanmax(grid):
            ax.contour(xs, ys, grid, levels=[centre], colors="black", linewidths=1.4)
    axes[0].set_ylabel(ylabel)
    _style_axis(axes[0].yaxis, y)
    _decorate_middle(axes[1], xs, ys, lo, hi, centre, mark)
    for ax in axes:
        if flips[0]:
            ax.invert_xaxis()
    if flips[1]:
        axes[0].invert_yaxis()
    fig.suptitle(_wrap(title, 110), fontsize=10)
    if note:  # room at the foot for the keys
        fig.get_layout_engine().set(rect=(0, 0.04, 1, 0.96))
    bar = fig.colorbar(mesh, ax=list(axes), label=colorbar, shrink=0.9, pad=0.01)
    bar.formatter.set_useOffset(False)
    _footnote(fig, note)
    return fig


def _decorate_middle(
    middle: Any,
    xs: Any,
    ys: Any,
    lo: Any,
    hi: Any,
    centre: float | None,
    mark: tuple[float, float] | None,
) -> None:
    """The middle panel's hatching (where the interval contains ``centre``) and the mark."""
    if centre is not None:
        unsettled = ((lo < centre) & (hi > centre)).astype(float)
        if unsettled.any() and len(xs) > 1 and len(ys) > 1:
            middle.contourf(xs, ys, unsettled, levels=[0.5, 1.5], colors="none",
                            hatches=["///"])  # fmt: skip
        hatched = _("hatched: the 95 % interval contains {centre:g}").format(centre=centre)
        middle.text(0.01, 0.01, hatched,
                    transform=middle.transAxes, fontsize=8, color="black",
                    bbox={"facecolor": "white", "alpha": 0.7, "linewidth": 0})  # fmt: skip
    if mark is not None:
        middle.plot(*mark, marker="*", markersize=14, color="red", markeredgecolor="black",
                    linestyle="none", label=_("the scenario's values"))  # fmt: skip
        middle.legend(fontsize=8, loc="upper right")
