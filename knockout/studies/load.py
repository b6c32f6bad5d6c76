"""One door for a study file: :func:`load_study` reads which kind of study it describes and
returns it, and every kind runs the same way (``run``), giving the files it wrote, its summary
and what ``--json`` prints.

* a sweep (:mod:`knockout.studies.sweep`): a base scenario, a grid of values and metrics;
* a scoring study (:mod:`knockout.studies.scoring.study`): ``[[events]]`` of Swiss and
  round-robin tournaments under scoring systems;
* a league study (:mod:`knockout.studies.scoring.league_study`): ``[[events]]`` whose format is
  ``league``, seasons of seed 001's team league.

The CLI's ``study`` (and ``scoring-study``) parse their options, make this one call and print.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from knockout.errors import KnockoutError
from knockout.i18n import _, ngettext
from knockout.io.text import duration
from knockout.io.tomlfile import load_toml
from knockout.rules.scenario.aggregate import parse_scenario
from knockout.studies import estimate
from knockout.studies import plots as drawing
from knockout.studies.output import write_study
from knockout.studies.report import plot_text, sweep_files
from knockout.studies.scoring.league_report import (
    league_claims,
    league_summary,
    write_league_outputs,
)
from knockout.studies.scoring.league_study import LeagueStudy as LeagueFile
from knockout.studies.scoring.league_study import (
    is_league_study,
    load_league_study,
    run_league_study,
)
from knockout.studies.scoring.report import claims, summary_markdown, write_outputs
from knockout.studies.scoring.study import Study as ScoringFile
from knockout.studies.scoring.study import load_study as load_scoring_study
from knockout.studies.scoring.study import run_study, study_time_estimate
from knockout.studies.sweep import Sweep, load_sweep, run_sweep
from sims.runner import resolve_workers

__all__ = ["LeagueStudy", "RunOptions", "ScoringStudy", "StudyRun", "SweepStudy", "load_study"]

#: A line for the person running the study (an estimate of its time, a warning).
Say = Callable[[str], None]
#: A study's own progress lines (as each event starts and ends).
Steps = Callable[[str], None]
#: A sweep's progress: grid points done, of the points.
Points = Callable[[int, int], None]
#: Seconds above which a study says how long it will take before it starts.
LONG_RUN_SECONDS = 60.0


@dataclass(frozen=True)
class StudyRun:
    """What a study run leaves: the files it wrote (the summary last among them for a sweep),
    its summary (Markdown), what ``--json`` prints (inside the envelope, with ``seed``), and
    whether it was interrupted (the points finished are kept)."""

    files: tuple[Path, ...]
    summary: str
    body: dict[str, Any]
    seed: int
    interrupted: bool = False


@dataclass(frozen=True)
class RunOptions:
    """How a study runs, whatever its kind (each kind uses those it has).

    Attributes:
        seed: Overrides the study file's seed.
        workers: Most processes (``auto``: every CPU).
        executor: A sweep's: ``local`` or ``dask``.
        simulations: A scoring or league study's: overrides every event's simulations.
        yes: A sweep's: run even a study of more than a million points or ten minutes.
        say: Lines for the person running it (an estimate, a warning).
        steps: A scoring or league study's progress lines.
        points: A sweep's progress (points done, points).
        pilot: The progress of the pilot a run is timed on (a sweep's points, a scoring
            study's event kinds); a sweep keeps the pilot's points.
    """

    seed: int | None = None
    workers: int | Literal["auto"] = 1
    executor: Literal["local", "dask"] = "local"
    simulations: int | None = None
    yes: bool = False
    say: Say | None = None
    steps: Steps | None = None
    points: Points | None = None
    pilot: Points | None = None


@dataclass(frozen=True)
class SweepStudy:
    """A sweep of scenario values over a grid."""

    path: Path
    sweep: Sweep

    @property
    def name(self) -> str:
        """The study's name."""
        return self.sweep.name

    def run(self, out: Path, options: RunOptions = RunOptions()) -> StudyRun:
        """Measure every metric at every grid point and write the files.

        Raises:
            KnockoutError: A run of more than a million points, or estimated above ten minutes,
                without ``yes`` (a scoring study: above ten minutes).
        """
        o, say = options, options.say
        sweep = self.sweep if o.seed is None else replace(self.sweep, seed=o.seed)
        for note in sweep.notes:  # valid, but may surprise: one line each
            if say is not None:
                say(_("note: {note}").format(note=note))
        count = resolve_workers(o.workers, say) if o.workers == "auto" else o.workers
        chunk, est = _check_run_size(sweep, o.yes, o.executor, count, say, o.pilot)
        if est.interrupted and say is not None:
            say(
                _(
                    "interrupted while timing the pilot: {done} of {n:,} points finished; the "
                    "outputs use those"
                ).format(done=len(est.measured), n=sweep.size)
            )
        if o.points is not None and est.measured and not est.interrupted:
            o.points(len(est.measured), sweep.size)  # where the run starts: the pilot's points
        result = run_sweep(
            sweep,
            progress=o.points,
            executor=o.executor,
            workers=count,
            chunk=chunk,
            measured=est.measured,
            interrupted=est.interrupted,
            measured_seconds=est.measured_seconds,
        )
        scenario = parse_scenario(sweep.base, source=sweep.scenario_path).to_dict()
        files = write_study(sweep_files(result, scenario), out)
        plots = [f for f in files if f.suffix == ".png"]
        font_missing = drawing.has_cjk(plot_text(result)) and drawing.cjk_font() is None
        if plots and font_missing and say is not None:
            say(
                _(
                    "warning: no CJK font found: Chinese text in the plots is drawn as boxes (pip "
                    "install noto-cjk-sans-otc, which make installs, or apt-get install "
                    "fonts-noto-cjk)"
                )
            )
        body = {
            "study": str(self.path),
            "files": [str(f) for f in files],
            "points": len(result.points),
            "interrupted": result.interrupted,
        }
        summary = files[-1].read_text(encoding="utf-8")
        return StudyRun(tuple(files), summary, body, sweep.seed, result.interrupted)


def _check_run_size(
    sweep: Sweep,
    yes: bool,
    executor: Literal["local", "dask"],
    workers: int,
    say: Say | None,
    pilot: Points | None = None,
) -> tuple[int, estimate.RunEstimate]:
    """Refuse a run too large to start without ``yes``; say how long a long one will take.
    Returns the chunk of points measured between progress lines, and the estimate (with the
    pilot's points, kept for the run; ``pilot``: the pilot's progress)."""
    est = estimate.estimate_run(sweep, executor=executor, workers=workers, progress=pilot)
    if est.interrupted:
        return 256, est
    size = ngettext("{n:,} grid point", "{n:,} grid points", est.points).format(n=est.points)
    if est.runs is not None:
        size += _(" at {runs:,} runs a point").format(runs=est.runs)
    spread = (
        ""
        if est.slowest is None or est.slowest[0] < 2 * est.slowest[1]
        else _(
            "; a pilot point took {fastest:.1f} to {slowest:.1f} s, so the time depends on "
            "where in the grid"
        ).format(fastest=est.slowest[1], slowest=est.slowest[0])
    )
    how_long = (
        ""
        if est.seconds is None
        else _(", about {duration} ({basis})").format(
            duration=duration(est.seconds), basis=est.basis + spread
        )
    )
    if estimate.needs_yes(est) and not yes:
        smaller = (
            _("or make the grid smaller")
            if est.runs is None
            else _("or make the grid smaller, or the runs fewer")
        )
        raise KnockoutError(
            _(
                "{source}: {size}{how_long}: a study of more than {max_points:,} points or above "
                "{minutes:g} minutes runs only with --yes ({smaller})"
            ).format(
                source=sweep.source,
                size=size,
                how_long=how_long,
                max_points=estimate.MAX_POINTS,
                minutes=estimate.LONG_RUN_SECONDS / 60,
                smaller=smaller,
            )
        )
    if est.seconds is None or est.seconds < LONG_RUN_SECONDS:
        return 256, est
    if say is not None:
        kept = (
            _("; the pilot's {n} points are kept").format(n=len(est.measured))
            if est.measured
            else ""
        )
        say(f"{sweep.name}: {size}{how_long}{kept}.")
    per_point = est.seconds / max(est.points - len(est.measured), 1)
    return max(1, min(256, int(10 / per_point))), est  # a progress line every 10 s or so


@dataclass(frozen=True)
class ScoringStudy:
    """Swiss and round-robin tournaments simulated under scoring systems."""

    path: Path
    study: ScoringFile

    @property
    def name(self) -> str:
        """The study's name."""
        return self.study.name

    def run(self, out: Path, options: RunOptions = RunOptions()) -> StudyRun:
        """Simulate every event under every system, measure everything, write the files."""
        o, say = options, options.say
        study = self.study if o.seed is None else replace(self.study, seed=o.seed)
        count = resolve_workers(o.workers, say)
        nothing = StudyRun((), "", {"study": str(self.path), "files": []}, study.seed, True)
        try:
            seconds = study_time_estimate(study, simulations=o.simulations, progress=o.pilot)
        except KeyboardInterrupt:  # in the pilot: nothing run, nothing written
            if say is not None:
                say(_("interrupted while timing the pilot: nothing was run or written"))
            return nothing
        seconds /= max(1, count)
        how_long = ngettext(
            "about {duration} on {n} process (timed on a short pilot of each event kind)",
            "about {duration} on {n} processes (timed on a short pilot of each event kind)",
            count,
        ).format(duration=duration(seconds), n=count)
        if seconds > estimate.LONG_RUN_SECONDS and not o.yes:
            raise KnockoutError(
                _(
                    "{source}: {how_long}: a scoring study above {minutes:g} minutes runs only "
                    "with --yes (or fewer --simulations)"
                ).format(
                    source=study.source,
                    how_long=how_long,
                    minutes=estimate.LONG_RUN_SECONDS / 60,
                )
            )
        if seconds > LONG_RUN_SECONDS and say is not None:
            say(
                _("{name}: {how_long}; Ctrl-C stops and keeps the events finished").format(
                    name=study.name, how_long=how_long
                )
            )
        result = run_study(study, simulations=o.simulations, progress=o.steps, workers=count)
        if result.interrupted and not result.study.events:
            if say is not None:
                say(_("interrupted before any event finished: nothing written"))
            return nothing
        if result.interrupted and say is not None:
            say(
                _("interrupted: {done} of {planned} events finished; the outputs use those").format(
                    done=len(result.study.events), planned=result.planned
                )
            )
        files = write_outputs(result, out)
        body = {
            "study": str(self.path),
            "files": [str(f) for f in files],
            "claims": [vars(c) for c in claims(result)],
            "interrupted": result.interrupted,
        }
        return StudyRun(
            tuple(files), summary_markdown(result), body, study.seed, result.interrupted
        )


@dataclass(frozen=True)
class LeagueStudy:
    """Seasons of seed 001's team league under its policies."""

    path: Path
    study: LeagueFile = field(repr=False)

    @property
    def name(self) -> str:
        """The study's name."""
        return self.study.name

    def run(self, out: Path, options: RunOptions = RunOptions()) -> StudyRun:
        """Simulate every league under each of its policies and write the files."""
        o = options
        study = self.study if o.seed is None else replace(self.study, seed=o.seed)
        result = run_league_study(study, simulations=o.simulations, progress=o.steps)
        files = write_league_outputs(result, out)
        body = {
            "study": str(self.path),
            "files": [str(f) for f in files],
            "claims": [vars(c) for c in league_claims(result)],
        }
        return StudyRun(tuple(files), league_summary(result), body, study.seed)


def load_study(
    path: str | Path, *, encoding: str | None = None
) -> SweepStudy | ScoringStudy | LeagueStudy:
    """The study the file at ``path`` describes, of the kind it is: ``[[events]]`` make a
    scoring study (a league study when every event's format is ``league``), anything else a
    sweep.

    Raises:
        KnockoutError: The file cannot be read or is not a valid study of its kind (one line
            per problem).
    """
    p = Path(path)
    data = load_toml(p, encoding=encoding)
    if "events" not in data:
        return SweepStudy(p, load_sweep(p, encoding=encoding))
    if is_league_study(data):
        return LeagueStudy(p, load_league_study(p, encoding=encoding))
    return ScoringStudy(p, load_scoring_study(p, encoding=encoding))
