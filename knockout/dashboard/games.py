"""Rich views of the games commands: the import report, the summary, the comparisons."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from knockout.corpus.draws import DrawScoring, RoundRobin
from knockout.corpus.importer import PIECE_NAMES, ImportReport
from knockout.corpus.seed000 import EventComparison
from knockout.corpus.summary import Share
from knockout.corpus.timeclass import TIME_CLASSES
from knockout.i18n import N_, _, pgettext

__all__ = [
    "COMPLETE_LINE",
    "SIGNIFICANCE",
    "draws_view",
    "import_progress",
    "import_view",
    "seed000_view",
    "summary_view",
]

#: The p-value below which a comparison says the corpus and the seed disagree.
SIGNIFICANCE = 0.05

#: The share of master records that should replay to their end (issue 38's line).
COMPLETE_LINE = 0.90


#: Refused lines printed before the rest is left to --json.
_SHOWN = 20


def import_progress(
    console: Console,
) -> tuple[AbstractContextManager[Any], Callable[[str, int, int], None]]:
    """A bar per stage on a terminal (reading the sources in MB, replaying in games); a line
    every 30 seconds elsewhere."""
    if not console.is_terminal:
        last = [time.monotonic()]

        def line(stage: str, done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] >= 30 and total:
                last[0] = now
                unit = "MB" if stage == "reading" else "games"
                scale = 1e6 if stage == "reading" else 1
                console.print(
                    f"{stage}: {done / scale:,.0f} of {total / scale:,.0f} {unit}",
                    markup=False,
                    highlight=False,
                )

        return nullcontext(), line
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    tasks: dict[str, Any] = {}

    def update(stage: str, done: int, total: int) -> None:
        scale = 1024 if stage == "reading" else 1
        label = "reading (KiB)" if stage == "reading" else "replaying (games)"
        if stage not in tasks:
            tasks[stage] = bar.add_task(label, total=max(total // scale, 1))
        bar.update(tasks[stage], completed=done // scale, total=max(total // scale, 1))

    return bar, update


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def _counts(title: str, items: Sequence[tuple[str, int]], whole: int | None = None) -> Table:
    table = Table(
        title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, min_width=44
    )
    table.add_column("", no_wrap=True)
    table.add_column("count", justify="right")
    if whole is not None:
        table.add_column("share", justify="right")
    for name, count in items:
        cells = [name, f"{count:,}"]
        if whole is not None:
            cells.append(_percent(count, whole))
        table.add_row(*cells)
    return table


def import_view(report: ImportReport, out: str) -> RenderableType:
    """The import report: files, games kept and refused, the replay, the names."""
    r = report
    parts: list[RenderableType] = []
    encodings = ", ".join(f"{n:,} {e}" for e, n in sorted(r.encodings.items()))
    parts.append(
        Text(
            f"Read {r.files:,} files ({encodings or 'none readable'}); {r.records:,} records; "
            f"{r.redecoded_fields:,} tag values read in another encoding than their file's. "
            f"Kept {r.kept:,} games in {out}: {r.copies_removed:,} copies removed, "
            f"{len(r.refused):,} refused."
        )
    )
    parts.append(
        _counts(
            "games by time class",
            [(c, r.by_time_class[c]) for c in TIME_CLASSES]
            + [("engine games", r.by_kind["engine"])],
            r.kept,
        )
    )
    states = [(s, n) for s, n in sorted(r.records_by_state.items()) if s != "broken"]
    broken = [(f"broken: {reason}", n) for reason, n in sorted(r.broken_by_reason.items())]
    parts.append(_counts("records replayed by the rules", states + broken, r.kept))
    master = sum(r.master.values())
    complete = r.master["complete"]
    if master:
        share = complete / master
        verdict = "meets" if share >= COMPLETE_LINE else "falls short of"
        parts.append(
            Text(
                f"{complete:,} of {master:,} master records ({share:.1%}) replay to their end, "
                f"which {verdict} the {COMPLETE_LINE:.0%} line. {r.repaired_moves:,} moves in "
                f"{r.repaired_games:,} games fitted several moves and the rules left one ("
                + ", ".join(f"{n:,} {PIECE_NAMES[k]}" for k, n in r.repaired_by_piece.most_common())
                + ")."
            )
        )
    if r.refused:
        parts.append(_counts("refused, by reason", sorted(r.refused_by_reason.items())))
        shown = [str(p) for p in r.refused[:_SHOWN]]
        more = len(r.refused) - len(shown)
        if more:
            shown.append(f"... and {more:,} more (--json lists every one)")
        parts.append(Text("\n".join(shown)))
    if r.results_disagree:
        parts.append(
            Text(
                f"{len(r.results_disagree):,} games whose copies give different results are "
                "stored with result * (--json lists their ids)."
            )
        )
    parts.append(
        Text(
            f"Names: {r.names_from_event:,} records took their players from the event text; "
            f"{r.team_splits:,} written names had a team split off; {len(r.merges):,} players "
            "are written in more than one form (--json lists every merge)."
        )
    )
    return Group(*parts)


def _share(part: float | None, se: float | None) -> str:
    if part is None or se is None:
        return "-"
    return f"{100 * part:.1f} ± {100 * se:.1f}"


def summary_view(shares: Sequence[Share], by: str, source: str) -> RenderableType:
    """One row a group: games, and the Red-win, draw and Black-win shares with standard errors."""
    table = Table(
        title=_("{source}: results by {by} (per cent ± standard error)").format(
            source=source, by=_(by)
        ),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column(_(by))
    table.add_column(pgettext("column", "games"), justify="right")
    for name in (N_("red win"), N_("draw"), N_("black win")):
        table.add_column(_(name), justify="right", no_wrap=True)
    for s in shares:
        j = s.to_json()
        table.add_row(
            s.key,
            f"{s.games:,}",
            _share(j["red"], j["red_se"]),
            _share(j["draw"], j["draw_se"]),
            _share(j["black"], j["black_se"]),
        )
    return table


def _p(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value >= 0.001 else "< 0.001"


def _verdict(test: dict[str, Any], games: int) -> str:
    p = test["hypergeometric_p"] if test["hypergeometric_p"] is not None else test["chi_square_p"]
    if p is None:
        return str(test.get("note", _("no test")))
    if p < SIGNIFICANCE:
        return _("the shares differ (p {p}, below {line})").format(p=_p(p), line=SIGNIFICANCE)
    return _("no evidence the shares differ (p {p}, not below {line})").format(
        p=_p(p), line=SIGNIFICANCE
    )


def seed000_view(
    events: Sequence[EventComparison],
    folders: Sequence[Share],
    subfolders: Sequence[Share],
    source: str,
) -> RenderableType:
    """Seed 000's events beside the corpus's, then the results by source folder."""
    table = Table(
        title=_("seed 000's events beside {source} (red win / draw / black win)").format(
            source=source
        ),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column(pgettext("column", "event"), justify="left", no_wrap=True)
    for name in (N_("seed"), N_("corpus"), N_("exact p"), N_("chi² p")):
        table.add_column(_(name), justify="right", no_wrap=True)
    lines = []
    for e in events:
        j = e.to_json()
        seed, corpus = j["seed"], j["corpus"]
        table.add_row(
            f"{e.event.year} {e.event.name}",
            f"{seed['games']}: {seed['red']}/{seed['draw']}/{seed['black']}",
            f"{corpus['games']}: {corpus['red']}/{corpus['draw']}/{corpus['black']}",
            _p(j["hypergeometric_p"]),
            _p(j["chi_square_p"]),
        )
        lines.append(f"{e.event.year} {e.event.name}: {_verdict(j, e.games)}.")
        lines.append(_("  corpus events: ") + ("" if j["corpus_events"] else _("none")))
        lines.extend(f"    {name}" for name in j["corpus_events"])
    parts: list[RenderableType] = [table, Text("\n".join(lines))]
    parts.append(summary_view(folders, N_("source folder"), source))
    parts.append(summary_view(subfolders[:30], N_("source sub-folder"), source))
    return Group(*parts)


def draws_view(scoring: DrawScoring, events: Sequence[RoundRobin], source: str) -> RenderableType:
    """The draw rule's bands, then each complete round robin before and after."""
    j = scoring.to_json()
    table = Table(
        title=f"seed 001's draw rule on {source}: {j['draws_scored']:,} drawn master games "
        f"scored ({j['draws_unscored']:,} more have no final position: no moves or a broken "
        "record)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for name in ("band", "draws", "share", "red points", "black points"):
        table.add_column(name, justify="left" if name == "band" else "right", no_wrap=True)
    labels = {
        "1-30": "up to 30 moves",
        "31-60": "31-60 moves",
        "A": "over 60, A: neither has material",
        "B": "over 60, B: one side has",
        "C": "over 60, C: both, unequal",
        "D": "over 60, D: both, equal",
    }
    for row in j["bands"]:
        table.add_row(
            labels[row["band"]],
            f"{row['draws']:,}",
            "-" if row["share"] is None else f"{100 * row['share']:.1f} %",
            "-" if row["red_points"] is None else f"{row['red_points']:.2f}",
            "-" if row["black_points"] is None else f"{row['black_points']:.2f}",
        )
    parts: list[RenderableType] = [table]
    if j["mean_red_points"] is not None:
        parts.append(
            Text(
                f"Mean points for a draw: Red {j['mean_red_points']:.3f}, Black "
                f"{j['mean_black_points']:.3f}."
            )
        )
    reordered = sum(e.reordered for e in events)
    complete = sum(e.complete for e in events)
    parts.append(
        Text(
            f"{len(events)} round robins with every pairing present ({complete} complete); seed "
            f"001's rule changes the order of {reordered}."
        )
    )
    for e in events:
        held = ", ".join(
            f"{n} pair{'s' if n > 1 else ''} {k} time{'s' if k > 1 else ''}"
            for k, n in sorted(e.meetings.items())
        )
        board = Table(
            title=f"{e.year} {e.event}: {e.players} players, {e.games} games ({held})",
            min_width=62,
            title_justify="left",
            box=box.SIMPLE_HEAD,
            pad_edge=False,
        )
        for name in ("player", "2-1-0", "rank", "seed 001", "rank "):
            board.add_column(name, justify="left" if name == "player" else "right")
        for s in e.standings:
            board.add_row(
                s.player,
                f"{s.points_before:g}",
                str(s.rank_before),
                f"{s.points_after:g}",
                str(s.rank_after),
            )
        parts.append(board)
    return Group(*parts)
