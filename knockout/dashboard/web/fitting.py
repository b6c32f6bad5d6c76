"""Names of any length on a fixed place: a bracket box, a result slip. A name is measured in
cells (a Chinese character or other wide one is two, as a terminal counts them), since the
pages cannot ask the browser how wide a text will be drawn."""

from __future__ import annotations

import unicodedata

__all__ = ["SVG_CELL_PX", "fit_svg_name", "name_cells", "name_size"]

#: Width of one cell of the bracket's 13-pixel text (a Latin letter of Noto Sans: about 0.56 em).
SVG_CELL_PX = 7.3
#: The SVG text is squeezed (``textLength``) down to this share of its width, and cut beyond.
MIN_SQUEEZE = 0.7
#: A slip's name is set smaller past these many cells (16 pt fits 24 cells in its half).
LONG_CELLS, LONGEST_CELLS = 24, 40


def name_cells(name: str) -> int:
    """The cells ``name`` takes: two for a wide (East Asian) character, one for the rest."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in name)


def name_size(name: str) -> str:
    """The slip's class for a name's size (a template filter): "" up to :data:`LONG_CELLS`
    cells, then " long", past :data:`LONGEST_CELLS` " longest"."""
    cells = name_cells(name)
    if cells > LONGEST_CELLS:
        return " longest"
    return " long" if cells > LONG_CELLS else ""


def fit_svg_name(name: str, room: float) -> tuple[str, float | None]:
    """The text to draw for ``name`` in ``room`` pixels of the bracket and the ``textLength``
    to squeeze it to (None: it fits as it is). A name up to ``room / MIN_SQUEEZE`` wide is
    squeezed whole; a longer one is cut to that width with "…" (the whole name stays in the
    box's title, shown on hover)."""
    width = name_cells(name) * SVG_CELL_PX
    if width <= room:
        return name, None
    if width * MIN_SQUEEZE <= room:
        return name, room
    budget = room / MIN_SQUEEZE / SVG_CELL_PX - 1  # cells, the ellipsis' one kept aside
    cut, used = "", 0
    for c in name:
        used += name_cells(c)
        if used > budget:
            break
        cut += c
    return cut.rstrip() + "…", room
