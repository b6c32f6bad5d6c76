"""Benchmark (prints figures, asserts nothing): ``knockout design`` on a space of more than
10,000 formats, one process, a match objective; beside it the same formats one by one through
``knockout compare``'s solver (timed on a sample, scaled), in the same run.

Run: ``.venv/bin/python benchmarks/bench_design.py``
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from knockout.studies.compare import compare_formats
from knockout.studies.design import design_job, load_design, run_design

ROOT = Path(__file__).resolve().parents[1]
SPACE = f"""
scenario = "{(ROOT / "scenarios" / "final-2600-vs-2550.toml").as_posix()}"
[space]
slow_games = [1, 2, 3, 4]
slow_clock = ["60+10", "90+30", "45+15"]
rapid_games = [0, 1, 2, 3, 4]
rapid_clock = ["15+10", "10+10", "25+10"]
rapid_colours = ["lot", "alternate"]
super_rapid_games = [0, 1, 2]
super_rapid_clock = ["5+3", "3+2"]
super_rapid_repeat = [false, true, 4]
decider = [
    "xq-bidding",
    {{ preset = "official-1", chooser = ["lot", "higher-ranked", "last-black", "first-black"] }},
    "armageddon-lot", "armageddon-bid", "red-handicap", "blitz-pairs",
]
[objective]
stronger_advances = {{ gap = 100 }}
[constraints]
expected_minutes = [240, 360]
decider_edge = 0.01
"""
SAMPLE = 200


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.toml"
        path.write_text(SPACE, encoding="utf-8")
        start = time.perf_counter()
        design = load_design(path)
        enumerate_s = time.perf_counter() - start
        start = time.perf_counter()
        job = design_job(design)
        result = run_design(design, job=job, workers=1)
        evaluate_s = time.perf_counter() - start
        formats = [(str(i), c.format) for i, c in enumerate(design.candidates[:SAMPLE])]
        start = time.perf_counter()
        compare_formats(design.scenario, formats, gaps=(100.0,), base=2625.0)
        one_by_one = (time.perf_counter() - start) / SAMPLE
    n = result.evaluated
    print(f"space: {design.combinations:,} combinations, {n:,} distinct playable formats")
    print(f"enumerating and checking them: {enumerate_s:.2f} s")
    print(
        f"evaluating them (stage walks, composition, ranking), one process: {evaluate_s:.2f} s "
        f"({n / evaluate_s:,.0f} formats/s; {len(job.keys)} distinct stages walked)"
    )
    all_s = one_by_one * n
    print(
        f"one by one through compare's solver: {1000 * one_by_one:.1f} ms a format "
        f"(timed on {SAMPLE}), so {all_s:.0f} s for all: x{all_s / evaluate_s:.0f}"
    )
    print(f"machine load (1-minute average): {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
