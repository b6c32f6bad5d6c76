"""How big a ``knockout design`` run will be, known before any of its work is done.

A space of half a million formats once took a minute and a half and wrote 575 MB after saying
"about 0 min": its estimate timed only the evaluation, after a minute spent enumerating the
formats, and never counted the output. Here the whole run is sized first:

* the combinations are counted from the space's lists (a product, no enumeration), and a space
  whose combinations times models pass the cap is refused at once;
* a space of more than :data:`PILOT_ABOVE` combinations x models runs a pilot: its first
  :data:`PILOT_COMBINATIONS` combinations are enumerated, evaluated under every model, scored and
  rendered as the run renders its files (not written), each step timed; the costs per
  combination and per format, and the bytes of output per format, are scaled to the whole space
  (the formats expected: the combinations times the pilot's share of distinct playable ones);
* a run estimated above :data:`~knockout.studies.estimate.LONG_RUN_SECONDS` of one process, or
  above :data:`MAX_OUTPUT_BYTES` of output, needs ``--yes``.

The pilot's own stage walks are a one-off cost counted per format, so the estimate errs long.
"""

from __future__ import annotations

import csv
import io
import json
import time
from dataclasses import dataclass
from pathlib import Path

from knockout.studies.design import (
    Space,
    _candidates,
    design_job,
    load_space,
    pilot_walks,
    run_design,
)
from knockout.studies.design_report import design_files
from knockout.studies.estimate import LONG_RUN_SECONDS

__all__ = [
    "MAX_OUTPUT_BYTES",
    "PILOT_ABOVE",
    "PILOT_COMBINATIONS",
    "DesignSize",
    "needs_yes",
    "size_design",
    "size_space",
]

#: A space of at most this many combinations x models is not timed (its run takes seconds).
PILOT_ABOVE = 20_000
#: Combinations the pilot enumerates, evaluates and renders.
PILOT_COMBINATIONS = 1_000
#: Output above this many bytes needs --yes (100 MB: the bundled design writes 2 MB).
MAX_OUTPUT_BYTES = 100_000_000


@dataclass(frozen=True)
class DesignSize:
    """A design run's size, before it starts.

    Attributes:
        source: The design file.
        combinations: Combinations of the space's values.
        formats: The formats expected among them (the pilot's share of distinct playable
            ones; the combinations without a pilot).
        models: Models each format is evaluated under.
        seconds: The whole run on one process, estimated (None: not timed, a small space).
        output_bytes: The files' size, estimated (None: not timed).
        pilot: Combinations the pilot timed (0: none).
        pilot_formats: Formats among them.
        pilot_seconds: How long the pilot took.
    """

    source: str
    combinations: int
    formats: int
    models: int
    seconds: float | None = None
    output_bytes: int | None = None
    pilot: int = 0
    pilot_formats: int = 0
    pilot_seconds: float = 0.0


def needs_yes(size: DesignSize) -> bool:
    """Whether the run is above the documented limits (:data:`LONG_RUN_SECONDS`,
    :data:`MAX_OUTPUT_BYTES`) and so runs only with ``--yes``."""
    long = size.seconds is not None and size.seconds > LONG_RUN_SECONDS
    big = size.output_bytes is not None and size.output_bytes > MAX_OUTPUT_BYTES
    return long or big


def size_design(path: str | Path, *, encoding: str | None = None) -> DesignSize:
    """:func:`size_space` of a design file.

    Raises:
        InputError: A bad design file, or one whose combinations pass the cap.
    """
    return size_space(load_space(path, encoding=encoding))


def size_space(
    space: Space, *, pilot: int = PILOT_COMBINATIONS, above: int | None = None
) -> DesignSize:
    """The run's size (module docstring): counted, and timed on a pilot of its first
    ``pilot`` combinations when the space has more than ``above`` (default
    :data:`PILOT_ABOVE`) combinations x models.

    Raises:
        InputError: Combinations x models above the cap.
    """
    space.check_size()
    combinations = space.combinations
    models = len(space.models)
    if combinations * models <= (PILOT_ABOVE if above is None else above):
        return DesignSize(space.source, combinations, combinations, models)
    start = time.perf_counter()
    candidates, examined, refused, dimensions = _candidates(
        space.slots, space.deciders, limit=pilot
    )
    enumerating = time.perf_counter() - start
    share = len(candidates) / max(examined, 1)
    formats = max(1, round(combinations * share)) if candidates else 0
    if not candidates:  # nothing playable in the first combinations: count the walk only
        seconds = enumerating / max(examined, 1) * combinations
        return DesignSize(
            space.source, combinations, formats, models, seconds, 0, examined, 0, enumerating
        )
    design = space.design(candidates, examined, refused, dimensions)
    job = design_job(design)
    begun = time.perf_counter()
    walks = pilot_walks(job)
    walked = time.perf_counter()
    result = run_design(design, job=job, require_best=False)
    files = design_files(result, reference=False)
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(files.rows)
    # the run writes one line of JSON above READABLE_FORMATS formats: measure it so
    document = json.dumps(files.document, ensure_ascii=False, indent=None, default=str)
    per_format = (time.perf_counter() - walked) / len(candidates)
    per_bytes = (len(text.getvalue().encode()) + len(document.encode())) / len(candidates)
    # the stage walks are per distinct stage, not per format: scaled by the stages the whole
    # space can hold (each slot's options and the deciders, at most)
    stages = sum(len(v) for v in space.slots.values()) + len(space.deciders)
    seconds = (
        enumerating / examined * combinations
        + per_format * formats
        + (walked - begun) * max(1.0, stages / max(walks, 1))
    )
    return DesignSize(
        source=space.source,
        combinations=combinations,
        formats=formats,
        models=models,
        seconds=seconds,
        output_bytes=round(per_bytes * formats),
        pilot=examined,
        pilot_formats=len(candidates),
        pilot_seconds=time.perf_counter() - start,
    )
