"""The backtest's report: the scores of the model and the baselines, their paired differences,
the reliability of the model's forecasts, per time class; and its files (``forecasts.csv``,
``scores.json``, ``summary.md``).

Every sentence of the summary is computed from the numbers beside it. A difference between two
forecasters is called a difference only when it lies more than :data:`SETTLED_Z` standard errors
from zero; otherwise the summary says the games cannot settle it. The model's calibration is
judged by the expected calibration error of P(Red win) against :data:`ECE_LINE`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from knockout.backtest.matches import MatchScores, find_matches, score_matches
from knockout.backtest.scores import (
    OUTCOMES,
    Reliability,
    Score,
    Scores,
    differences,
    reliability,
    scores,
)
from knockout.backtest.walk import Forecasts
from knockout.rules.model.strength import TimeClass
from knockout.strengths.calibrate import class_of
from knockout.strengths.table import GameRow

__all__ = [
    "ECE_LINE",
    "FORECAST_COLUMNS",
    "SETTLED_Z",
    "BacktestReport",
    "GroupScores",
    "backtest_report",
    "forecasts_csv",
    "matches_csv",
    "summary_markdown",
]

#: ``forecasts.csv``'s columns.
FORECAST_COLUMNS = (
    "id", "date", "red", "black", "time_class", "p_red", "p_draw", "p_black", "result",
)  # fmt: skip
#: A paired difference is settled when it is this many standard errors from zero (two-sided 95 %).
SETTLED_Z = 1.96
#: The expected calibration error of P(Red win) the model should stay below.
ECE_LINE = 0.03
_SCORE_NAMES = {"log_loss": "log loss", "brier": "Brier score", "rps": "ranked probability score"}


@dataclass(frozen=True)
class GroupScores:
    """The scores of one set of games.

    Attributes:
        n: Games.
        model: The model's scores.
        baselines: Each baseline's scores.
        differences: Per baseline, per score: model minus baseline, paired.
    """

    n: int
    model: Scores
    baselines: dict[str, Scores]
    differences: dict[str, dict[str, Score]]

    def to_json(self) -> dict[str, Any]:
        """``{"n", "model", "baselines", "differences"}``."""
        return {
            "n": self.n,
            "model": self.model.to_json(),
            "baselines": {k: v.to_json() for k, v in self.baselines.items()},
            "differences": {
                k: {name: s.to_json() for name, s in v.items()} for k, v in self.differences.items()
            },
        }


def _group(f: Forecasts, mask: npt.NDArray[np.bool_]) -> GroupScores:
    outcome = f.outcome[mask]
    model = f.model[mask]
    return GroupScores(
        int(mask.sum()),
        scores(model, outcome),
        {k: scores(v[mask], outcome) for k, v in f.baselines.items()},
        {k: differences(model, v[mask], outcome) for k, v in f.baselines.items()},
    )


@dataclass(frozen=True)
class BacktestReport:
    """What ``knockout backtest`` reports.

    Attributes:
        forecasts: The forecasts.
        overall: Scores over every game forecast.
        by_class: Scores per time class (classes with games).
        reliability: The model's reliability diagram per outcome (Red win, draw, Black win).
        matches: The knockout matches' forecasts and scores.
        by_experience: The model's draws against the players' experience
            (:data:`EXPERIENCE_BANDS`): ``(band, games, mean forecast P(draw), observed draw
            share, its standard error)``.
    """

    forecasts: Forecasts
    overall: GroupScores
    by_class: dict[str, GroupScores]
    reliability: tuple[Reliability, ...]
    matches: MatchScores
    by_experience: tuple[tuple[str, int, float, float, float], ...]

    @property
    def last_year(self) -> int:
        """The last year forecast."""
        return self.forecasts.years[-1].year

    def to_json(self, version: str) -> dict[str, Any]:
        """``scores.json``: ``{"version", "n", "model": {"log_loss", "log_loss_se", "brier",
        "brier_se", "rps", "rps_se", "ece"}, "baselines": {NAME: the same keys}}``, then the
        paired differences, the per-class scores, the reliability bins and how the forecasts
        were made."""
        f = self.forecasts
        return {
            "version": version,
            "n": self.overall.n,
            "model": self.overall.model.to_json(),
            "baselines": {k: v.to_json() for k, v in self.overall.baselines.items()},
            "differences": self.overall.to_json()["differences"],
            "by_time_class": {k: v.to_json() for k, v in self.by_class.items()},
            "reliability": [r.to_json() for r in self.reliability],
            "matches": self.matches.to_json(),
            "draws_by_experience": [
                {"earlier_games": band, "n": n, "forecast": p, "observed": o, "observed_se": se}
                for band, n, p, o, se in self.by_experience
            ],
            "source": f.source,
            "from": f.start,
            "to": self.last_year,
            "by": f.by,
            "strengths": {"drift": f.hyper.drift, "spread": f.hyper.spread},
            "refits": [
                {
                    "year": y.year,
                    "games": y.games,
                    "red_advantage": y.red_advantage,
                    "draw_nu": y.draw_nu,
                }
                for y in f.years
            ],
            "left_out": f.left_out,
        }


def backtest_report(f: Forecasts, table_games: Sequence[GameRow]) -> BacktestReport:
    """Score the forecasts ``f``, and the knockout matches among ``table_games`` (the whole
    table: tie-break games decide who went through)."""
    every = np.ones(len(f.games), dtype=bool)
    classes = np.array([_class_name(g.time_class) for g in f.games])
    by_class = {
        tc.value: _group(f, classes == tc.value) for tc in TimeClass if (classes == tc.value).any()
    }
    return BacktestReport(
        f,
        _group(f, every),
        by_class,
        tuple(reliability(f.model, f.outcome, k) for k in range(3)),
        _score_matches(f, table_games),
        _by_experience(f),
    )


#: Bands of a game's experience: the fewer of its two players' games in earlier years.
EXPERIENCE_BANDS = ((0, 20), (20, 100), (100, None))


def _by_experience(f: Forecasts) -> tuple[tuple[str, int, float, float, float], ...]:
    out = []
    drawn = (f.outcome == 1).astype(np.float64)
    for lo, hi in EXPERIENCE_BANDS:
        mine = (f.experience >= lo) & (f.experience < (hi if hi is not None else np.inf))
        n = int(mine.sum())
        if n == 0:
            continue
        o = float(drawn[mine].mean())
        out.append(
            (
                f"{lo}-{hi - 1}" if hi is not None else f"{lo}+",
                n,
                float(f.model[mine, 1].mean()),
                o,
                float(np.sqrt(o * (1 - o) / n)),
            )
        )
    return tuple(out)


def _score_matches(f: Forecasts, games: Sequence[GameRow]) -> MatchScores:
    found, left = find_matches(games, f.start)
    return score_matches(found, f.match_models, f.elo_models, left)


def _class_name(tc: Any) -> str:
    model_class = class_of(tc)
    return "" if model_class is None else model_class.value


def forecasts_csv(f: Forecasts) -> str:
    """``forecasts.csv``: one row a game, ``id, date, red, black, time_class, p_red, p_draw,
    p_black, result`` (the result ``1-0``, ``1/2-1/2`` or ``0-1``; probabilities as Python
    writes floats, to round-trip)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FORECAST_COLUMNS)
    for g, p in zip(f.games, f.model, strict=True):
        writer.writerow(
            [g.id, g.date, g.red, g.black, g.time_class.value, repr(float(p[0])),
             repr(float(p[1])), repr(float(p[2])), g.result.value]
        )  # fmt: skip
    return out.getvalue()


#: ``matches.csv``'s columns.
MATCH_COLUMNS = ("year", "event", "player_a", "player_b", "games", "through", "p_a", "p_a_elo")


def matches_csv(m: MatchScores) -> str:
    """``matches.csv``: one row a match, P(the first player goes through) by the model and the
    Elo baseline, and who did."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(MATCH_COLUMNS)
    for match, p, q in zip(m.matches, m.model, m.baselines["elo"], strict=True):
        writer.writerow(
            [match.year, match.event, *match.players, len(match.games),
             match.players[match.winner], repr(float(p)), repr(float(q))]
        )  # fmt: skip
    return out.getvalue()


def _verdict(name: str, d: Score) -> str:
    """One sentence on a paired difference (model minus a baseline; lower scores are better)."""
    z = d.mean / d.stderr if d.stderr > 0 else (0.0 if d.mean == 0 else np.sign(d.mean) * np.inf)
    if z < -SETTLED_Z:
        return f"the model's is lower: it forecasts better than {name} by this score"
    if z > SETTLED_Z:
        return f"the model's is higher: {name} forecasts better by this score"
    return (
        f"the difference is within {SETTLED_Z} standard errors of zero, so these games cannot "
        f"settle whether the model or {name} forecasts better"
    )


def _table(group: GroupScores) -> list[str]:
    lines = [
        "| forecaster | log loss | Brier score | RPS | ECE of P(Red win) |",
        "|---|---|---|---|---|",
    ]
    rows = [("model", group.model), *group.baselines.items()]
    for name, s in rows:
        lines.append(
            f"| {name} | {s.log_loss.mean:.4f} ± {s.log_loss.stderr:.4f} | "
            f"{s.brier.mean:.4f} ± {s.brier.stderr:.4f} | {s.rps.mean:.4f} ± {s.rps.stderr:.4f} "
            f"| {s.ece:.4f} |"
        )
    lines += ["", "| model minus | log loss | Brier score | RPS |", "|---|---|---|---|"]
    for name, d in group.differences.items():
        lines.append(
            f"| {name} | {d['log_loss'].mean:+.4f} ± {d['log_loss'].stderr:.4f} | "
            f"{d['brier'].mean:+.4f} ± {d['brier'].stderr:.4f} | "
            f"{d['rps'].mean:+.4f} ± {d['rps'].stderr:.4f} |"
        )
    return lines


def summary_markdown(report: BacktestReport, command: str) -> str:
    """``summary.md``: the tables and the sentences, each computed from the numbers beside it."""
    f = report.forecasts
    o = report.overall
    lines = [
        "# Backtest: the model's forecasts against what happened",
        "",
        f"Written by `{command}`. Games: {f.source}; every game from {f.start} to "
        f"{report.last_year} forecast from the games of earlier years only "
        f"({len(f.years)} refits, one a year; strengths' drift {f.hyper.drift:.1f} Elo a year "
        f"and newcomers' spread {f.hyper.spread:.0f} Elo, fitted to the games before {f.start}).",
        "",
        f"## All {o.n:,} games",
        "",
        "Scores are means over the games with their standard errors (± one); lower is better. "
        "Differences are paired, game by game.",
        "",
        *_table(o),
        "",
    ]
    for name, d in o.differences.items():
        for key, label in _SCORE_NAMES.items():
            s = d[key]
            lines.append(
                f"- {label}, model minus {name}: {s.mean:+.4f} ± {s.stderr:.4f}: "
                f"{_verdict(name, s)}."
            )
    ece = o.model.ece
    side = "below" if ece < ECE_LINE else "not below"
    lines += [
        "",
        f"The expected calibration error of the model's P(Red win) (10 equal-width bins) is "
        f"{ece:.4f}, {side} the {ECE_LINE} line.",
        "",
        "## Reliability",
        "",
        "| outcome | bin | games | mean forecast | observed share | 95 % interval |",
        "|---|---|---|---|---|---|",
    ]
    for r in report.reliability:
        for b in range(r.lower.shape[0]):
            if r.count[b] == 0:
                continue
            lines.append(
                f"| {r.outcome} | {r.lower[b]:.1f}-{r.lower[b] + 0.1:.1f} | {int(r.count[b]):,} "
                f"| {r.forecast[b]:.3f} | {r.observed[b]:.3f} | {r.low[b]:.3f}-{r.high[b]:.3f} |"
            )
    lines += ["", f"Plots: {', '.join(f'reliability-{k}.png' for k in OUTCOMES)}.", ""]
    lines += _experience_lines(report)
    if len(report.by_class) > 1 or f.by is not None:
        lines += ["## By time class", ""]
        for name, group in report.by_class.items():
            lines += [f"### {name} ({group.n:,} games)", "", *_table(group), ""]
    lines += _match_lines(report.matches)
    left = ", ".join(f"{n:,} {why}" for why, n in f.left_out.items())
    if left:
        lines += [f"Left out of every forecast: {left}.", ""]
    return "\n".join(lines)


def _match_lines(m: MatchScores) -> list[str]:
    """The matches' section of the summary."""
    if not m.matches:
        return ["## Matches", "", "The table holds no knockout match from the first year on.", ""]
    data = m.to_json()
    model = data["model"]
    assert isinstance(model, dict)
    lines = [
        "## Matches",
        "",
        f"{data['n']} knockout matches (a pairing's games in one event with a tie-break, "
        "rapid or blitz game or a knockout word in the event text), each forecast by the exact "
        "solver from the fit of earlier years and scored against who went through (more "
        "points over the pairing's games):",
        "",
        "| forecaster | log loss | Brier score |",
        "|---|---|---|",
        f"| model | {model['log_loss']:.4f} ± {model['log_loss_se']:.4f} | "
        f"{model['brier']:.4f} ± {model['brier_se']:.4f} |",
    ]
    baselines = data["baselines"]
    assert isinstance(baselines, dict)
    for name, s in baselines.items():
        lines.append(
            f"| {name} | {s['log_loss']:.4f} ± {s['log_loss_se']:.4f} | "
            f"{s['brier']:.4f} ± {s['brier_se']:.4f} |"
        )
    lines.append("")
    won = np.array([x.winner == 0 for x in m.matches], dtype=np.float64)
    chance = np.where(won == 1.0, m.model, 1.0 - m.model)
    for name, q in m.baselines.items():
        qc = np.where(won == 1.0, q, 1.0 - q)
        d = Score.of(np.log(qc) - np.log(chance))
        lines.append(
            f"- log loss, model minus {name}: {d.mean:+.4f} ± {d.stderr:.4f}: {_verdict(name, d)}."
        )
    left = ", ".join(f"{n} {why}" for why, n in m.left_out.items())
    if left:
        lines.append(f"- Pairings left out: {left}.")
    return [*lines, ""]


def _experience_lines(report: BacktestReport) -> list[str]:
    """Draws forecast and seen, by the players' experience: where one draw parameter misses."""
    lines = [
        "## Draws by the players' experience",
        "",
        "A game's experience is the fewer of its two players' games in earlier years of the "
        "table (famous players fill a collection, so it also stands for their level).",
        "",
        "| earlier games | games | mean forecast P(draw) | observed draw share | "
        "observed minus forecast |",
        "|---|---|---|---|---|",
    ]
    for band, n, p, o, se in report.by_experience:
        z = (o - p) / se if se > 0 else 0.0
        verdict = (
            "more draws than forecast" if z > SETTLED_Z
            else "fewer draws than forecast" if z < -SETTLED_Z
            else "within 1.96 standard errors"
        )  # fmt: skip
        lines.append(
            f"| {band} | {n:,} | {p:.3f} | {o:.3f} ± {se:.3f} | {o - p:+.3f} ({verdict}) |"
        )
    return [*lines, ""]
