"""Rich views of Monte Carlo results: estimates with standard errors beside the exact values."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

from rich.console import Console, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from knockout.answers import BracketOdds, MatchOdds, Simulated
from knockout.dashboard.bracket import simulated_reach_view
from knockout.dashboard.fit import fit_headers, table
from knockout.dashboard.match import pct
from knockout.dashboard.spread import interval_caption, percent_interval
from knockout.dashboard.times import duration
from knockout.i18n import N_, _, ngettext
from knockout.i18n.terms import stage_label
from knockout.rules.model.sd import Spread
from knockout.rules.scenario.aggregate import Scenario
from sims.run import SimulationRun

__all__ = [
    "estimate_line",
    "progress_bar",
    "progress_lines",
    "simulated_view",
    "simulation_view",
]


def _z(value: float, stderr: float, exact: float | None) -> Text:
    if exact is None:
        return Text("")
    if stderr == 0:
        ok = abs(value - exact) < 1e-12
        return Text(_("exact") if ok else _("differs"), style="green" if ok else "red")
    z = (value - exact) / stderr
    return Text(f"{z:+.1f}", style="green" if abs(z) < 3 else "red")


def simulation_view(est: Simulated[MatchOdds], exact: MatchOdds | None) -> RenderableType:
    """Estimates, standard errors and (where available) exact values with the z-score."""
    t = table(
        ngettext(
            "Monte Carlo: {n:,} match (seed {seed})",
            "Monte Carlo: {n:,} matches (seed {seed})",
            est.runs,
        ).format(n=est.runs, seed=est.seed),
        caption=_("z = (estimate - exact) / standard error"),
    )
    t.add_column(_("Quantity"), overflow="fold")
    t.add_column(_("Estimate"), justify="right", no_wrap=True)
    t.add_column(_("Std. error"), justify="right", no_wrap=True)
    t.add_column(_("Exact"), justify="right", no_wrap=True)
    spread = None if exact is None else exact.model_uncertainty
    if spread is not None:
        t.add_column(_("exact 95 %"), justify="right", no_wrap=True)
    t.add_column("z", justify="right", no_wrap=True)

    def row(label: str, pick: Callable[[MatchOdds], float | None], path: str) -> None:
        value, stderr = pick(est.value), pick(est.stderr)
        if value is None or stderr is None:
            return
        exact_value = None if exact is None else pick(exact)
        band = [] if spread is None else [percent_interval(spread, path, 2)]
        t.add_row(
            label,
            pct(value, 3),
            pct(stderr, 3),
            pct(exact_value, 3),
            *band,
            _z(value, stderr, exact_value),
        )

    def win(name: str) -> Callable[[MatchOdds], float | None]:
        return lambda o: o.win[name]

    def decided(stage: str) -> Callable[[MatchOdds], float | None]:
        return lambda o: o.decided[stage]

    def games(k: int) -> Callable[[MatchOdds], float | None]:
        return lambda o: o.games.get(k, 0.0)

    for name in est.value.win:
        row(_("{name} advances").format(name=name), win(name), f"win.{name}")
    for stage in est.value.decided:
        row(
            _("decided in {stage}").format(stage=stage_label(stage)),
            decided(stage),
            f"match.decided.{stage}",
        )
    if est.value.sudden_death_reached > 0 or (exact is not None and exact.sudden_death_reached > 0):
        row(
            _("sudden death reached"),
            lambda o: o.sudden_death_reached,
            "match.sudden_death_reached",
        )
    row(_("甲 advances | reached"), lambda o: o.chooser_advances, "match.chooser_advances")
    row(_("甲 announces Red | reached"), lambda o: o.announce_red, "match.bidding.announce_red")
    row(_("乙 objects | reached"), lambda o: o.objects, "match.bidding.object")
    for k in list(est.value.games)[:12]:
        row(ngettext("{n:,} game", "{n:,} games", k).format(n=k), games(k), f"match.games.{k}")
    t.caption = _caption(str(t.caption), exact, spread)
    return fit_headers(t)


def _caption(caption: str, exact: MatchOdds | None, spread: Spread | None) -> str:
    """The caption, with the exact chances were every rating exact, and the intervals."""
    if exact is not None and exact.win_if_ratings_exact is not None:
        caption = _(
            "{caption}. Uncertain ratings (rating_sd) are drawn once per match; were every "
            "rating exact, the exact chances would be {chances}."
        ).format(
            caption=caption,
            chances=_(", ").join(f"{n} {pct(p, 3)}" for n, p in exact.win_if_ratings_exact.items()),
        )
    if spread is not None:
        caption = f"{caption}. " + interval_caption(spread, N_("exact 95 %"), N_("the exact value"))
    return caption


def simulated_view(sim: SimulationRun, scenario: Scenario) -> RenderableType:
    """The view of a simulation: a match's estimates, or a bracket's chances per round."""
    est, exact = sim.estimates, sim.exact
    assert est is not None
    if isinstance(est.value, BracketOdds):
        assert isinstance(exact, BracketOdds)
        return simulated_reach_view(est, scenario, exact)
    assert isinstance(exact, MatchOdds)
    return simulation_view(est, exact)


def progress_bar(
    console: Console, total: int, *, label: str = N_("simulating")
) -> tuple[AbstractContextManager[Progress], Callable[[int, int], None]]:
    """A rich progress bar and the callback that advances it (runs done, runs requested);
    ``label`` a catalogue message."""
    bar = Progress(
        TextColumn(_(label)),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    task = bar.add_task("runs", total=total)

    def update(done: int, requested: int) -> None:
        bar.update(task, completed=done, total=requested)

    return bar, update


def progress_lines(
    console: Console,
    every: float = 30.0,
    clock: Callable[[], float] = time.monotonic,
    *,
    done_word: str = N_("simulated"),
    unit: str = N_("runs"),
) -> tuple[AbstractContextManager[None], Callable[[int, int], None]]:
    """Progress as plain lines, for a console that is not a terminal (a log file, a pipe): at
    most one line every ``every`` seconds, with the share done and the time left at the rate so
    far. Same shape as :func:`progress_bar`."""
    start = clock()
    last = start

    def update(done: int, requested: int) -> None:
        nonlocal last
        now = clock()
        if now - last < every or done >= requested or done <= 0:
            return
        last = now
        left = (now - start) * (requested - done) / done
        console.print(
            _(
                "{done_word} {done:,} of {requested:,} {unit} ({share:.1f}%), about {left} left"
            ).format(
                done_word=_(done_word),
                done=done,
                requested=requested,
                unit=_(unit),
                share=100 * done / requested,
                left=duration(left),
            ),
            markup=False,
            highlight=False,
            soft_wrap=True,
        )

    return nullcontext(), update


def estimate_line(seconds: float, runs: int, workers: int) -> str:
    """What the user is starting: ``runs`` will take about ``seconds`` (from a timed pilot)."""
    message = (
        ngettext(
            "{n:,} run on one process will take about {duration} (timed on a short pilot); "
            "Ctrl-C stops and keeps the blocks done",
            "{n:,} runs on one process will take about {duration} (timed on a short pilot); "
            "Ctrl-C stops and keeps the blocks done",
            runs,
        )
        if workers <= 1
        else ngettext(
            "{n:,} run on {workers} processes will take about {duration} (timed on a short "
            "pilot); Ctrl-C stops and keeps the blocks done",
            "{n:,} runs on {workers} processes will take about {duration} (timed on a short "
            "pilot); Ctrl-C stops and keeps the blocks done",
            runs,
        )
    )
    return message.format(n=runs, workers=workers, duration=duration(seconds))
