"""What every study writes, in one place: ``results.csv`` (tidy), ``results.json``, PNG plots and
``summary.md``, into one folder. The sweep studies and the scoring-reform study both report
through :func:`write_study`."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["StudyFiles", "write_study"]


@dataclass(frozen=True)
class StudyFiles:
    """A study's outputs, ready to write.

    Attributes:
        header: The tidy CSV's columns.
        rows: Its rows (cells in column order; floats are written to 6 significant digits).
        document: The JSON document.
        plots: Functions that each draw PNGs into the folder and return their paths.
        summary: The Markdown summary.
        indent: The JSON's indent (None: one line, for a document too big to read by eye,
            written many times faster).
    """

    header: Sequence[str]
    rows: Sequence[Sequence[Any]]
    document: dict[str, Any]
    plots: Sequence[Callable[[Path], Sequence[Path]]]
    summary: str
    indent: int | None = 2


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.6g}"
    return "" if value is None else str(value)


def _json_safe(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return value


def write_study(files: StudyFiles, out: Path) -> list[Path]:
    """Write ``results.csv``, ``results.json``, the plots and ``summary.md`` into ``out``
    (created); returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    csv_path = out / "results.csv"
    with csv_path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(files.header)
        writer.writerows([_cell(c) for c in row] for row in files.rows)
    json_path = out / "results.json"
    json_path.write_text(
        json.dumps(
            _json_safe(files.document), ensure_ascii=False, indent=files.indent, allow_nan=False
        )
        + "\n",
        encoding="utf-8",
    )
    plots = [path for draw in files.plots for path in draw(out)]
    summary = out / "summary.md"
    summary.write_text(files.summary, encoding="utf-8")
    return [csv_path, json_path, *plots, summary]
