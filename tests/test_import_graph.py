"""No import closes a cycle: the modules of knockout and sims form a graph without circles.

Every import counts, at module level, inside a function or under ``TYPE_CHECKING``: an import
moved into a function hides a circle from Python but not from a reader, and a circle is a room
not yet named (STYLE.md). An import kept inside a function for start-up says so on its line
(``# noqa: PLC0415 (start-up: ...)``); it must still point down the graph.
"""

from __future__ import annotations

import re
from pathlib import Path

import grimp


def _cycle(edges: dict[str, set[str]]) -> list[str]:
    """One circle of the graph (empty: none), found by removing modules that import nothing
    left until none can be removed, then walking from a module that remains."""
    left = {m: set(targets) & edges.keys() for m, targets in edges.items()}
    leaves = [m for m, targets in left.items() if not targets]
    importers: dict[str, set[str]] = {m: set() for m in left}
    for m, targets in left.items():
        for t in targets:
            importers[t].add(m)
    while leaves:
        leaf = leaves.pop()
        for m in importers[leaf]:
            left[m].discard(leaf)
            if not left[m]:
                leaves.append(m)
        del left[leaf]
    if not left:
        return []
    path: list[str] = []
    at = min(left)
    while at not in path:
        path.append(at)
        at = min(t for t in left[at] if t in left)
    return [*path[path.index(at) :], at]


def test_the_module_graph_has_no_cycle() -> None:
    graph = grimp.build_graph("knockout", "sims", cache_dir=None)
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    cycle = _cycle(edges)
    assert not cycle, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_a_circle_and_only_one() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    # a module that only imports into a circle is not part of it
    assert _cycle({"x": {"y"}, "y": {"z"}, "z": {"y"}}) == ["y", "z", "y"]


def test_an_import_inside_a_function_says_why_on_its_line() -> None:
    """``# noqa: PLC0415`` (an import inside a function) is followed by its reason in
    parentheses, e.g. ``(start-up: scipy, for the equilibria)``."""
    root = Path(__file__).resolve().parent.parent
    silent = [
        f"{path.relative_to(root)}:{n}"
        for folder in ("knockout", "sims")
        for path in sorted((root / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "noqa: PLC0415" in line and not re.search(r"noqa: PLC0415[^\n]*\(", line)
    ]
    assert not silent, "imports inside functions without a reason: " + ", ".join(silent)
