"""Tables that fit the terminal: numbers are never cut, names wrap, decorations go first.

Every table view follows the same pattern, so an 80-column terminal (also the width of piped
output) never shows ``100.…``:

* number and code columns are ``no_wrap``; :func:`fitted` then fixes each one at the width of its
  widest cell (or of the longest word of its header, which wraps at spaces), so rich never narrows
  one below its numbers;
* name and text columns use ``overflow="fold"``: they take what is left, wrapping at spaces first;
* :class:`Fit` picks, at render time, the first of several layouts whose columns fit the width it
  is given: with a decorative bar column, then without it, then with fewer columns (a note says
  which are left out).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import partial
from typing import Any, TypeVar

from rich.box import SIMPLE_HEAD, Box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

__all__ = ["Fit", "fit_headers", "fit_height", "fitted", "needed_width", "table"]

#: Wide enough that nothing is measured against the console's width.
_UNBOUNDED = 10_000


def table(title: str | None = None, *, box: Box | None = SIMPLE_HEAD, **kwargs: object) -> Table:
    """A table in the views' compact style: no padding at the edges, single gaps between
    columns, the title on the left."""
    settings: dict[str, object] = {
        "title": title,
        "title_justify": "left",
        "box": box,
        "pad_edge": False,
        "collapse_padding": True,
        "caption_justify": "left",
    }
    settings.update(kwargs)
    return Table(**settings)  # type: ignore[arg-type]


_L = TypeVar("_L")
#: One section of a frame at one size (a number of rows, or shown or not).
Section = tuple[str, int | bool]


def fit_height(
    console: Console,
    options: ConsoleOptions,
    barest: _L,
    upgrades: Iterable[Section],
    shown: Callable[[_L], Iterable[Section]],
    section: Callable[[str, int | bool], RenderableType | None],
) -> _L:
    """The fullest layout whose frame is no taller than the console: from ``barest`` (a frozen
    dataclass of section sizes), each upgrade ``(field, size)`` in turn is kept if the frame
    still fits. ``shown(layout)`` lists the sections a layout draws, ``section(key, size)``
    draws one (None: nothing); each section's height is measured once."""
    height = options.height or options.max_height
    unbounded = options.reset_height()
    heights: dict[Section, int] = {}

    def lines(key: str, value: int | bool) -> int:
        if (key, value) not in heights:
            drawn = section(key, value)
            heights[key, value] = (
                0 if drawn is None else len(console.render_lines(drawn, unbounded, pad=False))
            )
        return heights[key, value]

    layout = barest
    for key, value in upgrades:
        changes: dict[str, Any] = {key: value}
        trial = replace(layout, **changes)  # type: ignore[type-var]
        if sum(lines(k, v) for k, v in shown(trial)) <= height:
            layout = trial
    return layout


def _width(cell: RenderableType) -> int:
    if isinstance(cell, Text):
        return max((cell_len(line) for line in cell.plain.splitlines()), default=0)
    if isinstance(cell, str):
        return max((cell_len(line) for line in cell.splitlines()), default=0)
    return 0


def _longest_word(header: RenderableType) -> int:
    text = header.plain if isinstance(header, Text) else str(header)
    return max((cell_len(word) for word in text.split()), default=0)


def fitted(t: Table, *, whole_headers: bool = False) -> Table:
    """``t`` with every ``no_wrap`` column fixed at its widest cell (at least the longest word of
    its header; a longer header wraps at spaces), so narrowing the table never cuts a number.
    With ``whole_headers``, wide enough for the whole header too. Call it after the rows are
    added (again with the other ``whole_headers`` to change its mind)."""
    for column in t.columns:
        if not column.no_wrap:
            continue
        cells: Iterable[RenderableType] = column.cells
        widest = max((_width(c) for c in cells), default=0)
        header = column.header
        words = _width(header) if whole_headers else _longest_word(header)
        column.width = max(widest, words, column.min_width or 0)
        if isinstance(header, Text) or _width(header) > column.width:
            text = header.copy() if isinstance(header, Text) else Text(str(header))
            text.no_wrap = False
            text.overflow = "fold"
            column.header = text
    return t


def fit_headers(t: Table) -> Fit:
    """``t`` :func:`fitted` with whole headers where they fit, else with wrapped headers."""
    return Fit(partial(fitted, t, whole_headers=True), partial(fitted, t))


def needed_width(console: Console, options: ConsoleOptions, renderable: RenderableType) -> int:
    """The fewest cells ``renderable`` needs without cutting a word (names may wrap)."""
    return Measurement.get(console, options.update_width(_UNBOUNDED), renderable).minimum


class Fit:
    """The first of several layouts that fits the width it is rendered at; the last one is used
    when none does (make it the narrowest). Layouts are built lazily, at render time.

    Args:
        layouts: Functions building each layout, richest first.
    """

    def __init__(self, *layouts: Callable[[], RenderableType]) -> None:
        if not layouts:
            raise ValueError("Fit needs at least one layout")
        self.layouts = layouts

    def choose(self, console: Console, options: ConsoleOptions) -> RenderableType:
        """The layout used at ``options.max_width``."""
        for build in self.layouts[:-1]:
            renderable = build()
            if needed_width(console, options, renderable) <= options.max_width:
                return renderable
        return self.layouts[-1]()

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.choose(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.choose(console, options))
