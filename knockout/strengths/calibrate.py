"""``knockout calibrate GAMES.csv --strengths``: the model's constants from games with names only.

From a games table (:mod:`knockout.strengths.table`) this fits the players' drifting strengths
and Red's advantage and the draw parameter (:mod:`knockout.strengths.fit`), per time class
(``by="time_class"``) or one set for every class (``by=None``), with:

* **Which games.** Master games with both players' names, a result and a year. Engine games
  are another population; a game without a name cannot be given to a player; a result of ``*``
  is unknown; a game without a year cannot be placed on the strengths'
  time line; a ``tiebreak`` game (加賽) has unstated clocks (a rapid, blitz or Armageddon game
  with draw odds, the event text does not say which), so no class's constants can claim it.
  Each is counted by reason and left out.
* **Classes.** ``unknown`` games are fitted as classical: a collection holds slow games unless
  the event marks a faster one. The classical fit without them is shown beside it. A class with
  fewer than :data:`MIN_CLASS_GAMES` games (or without a Red win, a draw and a Black win) gets no
  constants of its own: its games are fitted with the classical constants (the fallback), and
  the class says so with its count.
* **Estimates.** The drift and spread of the strengths maximise the marginal likelihood; the
  constants are then the Laplace approximation's maximum of the marginal likelihood (the
  strengths integrated out; :func:`knockout.strengths.fit.marginal`): the joint maximum a
  posteriori understates ``draw_nu`` when many players have few games. Standard errors are
  the inverse of the constants' curvature with the strengths profiled out (Schur complement);
  optionally checked by a bootstrap over events.
* **Selection bias.** A game filed in several folders of the collection counts once; the fit is
  repeated on the games of each source folder (filed by player, by tournament, by opening),
  with the same drift and spread, to show how much the way games were collected moves the
  constants.
"""

from __future__ import annotations

import csv
import io
import math
import textwrap
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from knockout.arrays import FloatArray
from knockout.calibration import Estimate, toml_lines
from knockout.errors import InputError, Problem
from knockout.io.text import plural
from knockout.rules.model.strength import TimeClass
from knockout.strengths.fit import (
    Hyper,
    StrengthFit,
    StrengthGames,
    fit_map,
    fit_strengths,
    marginal,
)
from knockout.strengths.table import (
    GameRow,
    GameTable,
    Outcome,
    TableClass,
    classical_by_event,
    event_of,
)

__all__ = [
    "MIN_CLASS_GAMES",
    "PLAYER_COLUMNS",
    "REGULAR_GAMES",
    "By",
    "ClassConstants",
    "ConstantsFit",
    "PlayerStrength",
    "Selection",
    "StrengthCalibration",
    "calibrate_strengths",
    "class_of",
    "constant_groups",
    "players_csv",
    "select_games",
    "strength_games",
]

Progress = Callable[[int, int], None]
By = Literal["time_class"] | None

#: A class needs this many games (and a Red win, a draw and a Black win) for constants of its
#: own: below it Red's advantage has a standard error above about 35 Elo and the class is
#: fitted with the classical constants.
MIN_CLASS_GAMES = 100
#: A player with at least this many games is a regular: the strengths' reported scale puts the
#: mean of the regulars' last strengths at 0.
REGULAR_GAMES = 20
#: The pooled group's name (``by=None``).
POOLED = "all"
#: The group of the games below ``min_games`` (their own constants, not reported as a class's).
OTHERS = "others"


def class_of(tc: TableClass) -> TimeClass | None:
    """The model's class of a table class: ``unknown`` is classical; ``tiebreak``: None."""
    if tc is TableClass.TIEBREAK:
        return None
    if tc is TableClass.UNKNOWN:
        return TimeClass.CLASSICAL
    return TimeClass(tc.value)


@dataclass(frozen=True)
class Selection:
    """The games a fit uses and those it leaves out.

    Attributes:
        games: The games used, in table order.
        left_out: Reason to the number of games left out for it.
    """

    games: tuple[GameRow, ...]
    left_out: dict[str, int]


def select_games(table: GameTable) -> Selection:
    """Master games with both names, a result and a year, not tie-breaks (see the module
    docstring)."""
    used: list[GameRow] = []
    left: Counter[str] = Counter()
    for g in table.games:
        if g.kind != "master":
            left["engine games"] += 1
        elif not (g.red and g.black):
            left["no player's name"] += 1
        elif g.result is Outcome.UNKNOWN:
            left["result not known (*)"] += 1
        elif g.year is None:
            left["no year"] += 1
        elif g.time_class is TableClass.TIEBREAK:
            left["tie-break games (clocks not stated)"] += 1
        else:
            used.append(g)
    return Selection(tuple(used), dict(left))


def strength_games(
    games: Sequence[GameRow], groups: Sequence[str], group_of: Callable[[GameRow], str]
) -> StrengthGames:
    """``games`` as the fit's arrays, each in group ``group_of(game)`` (one of ``groups``)."""
    names = sorted({g.red for g in games} | {g.black for g in games})
    index = {name: i for i, name in enumerate(names)}
    at = {name: i for i, name in enumerate(groups)}
    return StrengthGames(
        red=np.array([index[g.red] for g in games], dtype=np.intp),
        black=np.array([index[g.black] for g in games], dtype=np.intp),
        period=np.array([g.year for g in games], dtype=np.intp),
        group=np.array([at[group_of(g)] for g in games], dtype=np.intp),
        result=np.array([g.result.code for g in games], dtype=np.intp),
        weight=np.ones(len(games)),
        players=tuple(names),
        groups=tuple(groups),
    )


def _counted(red: int, draws: int, black: int) -> str:
    """``3 Red wins, 1 draw, 0 Black wins``: the results of some games, in words.

    >>> _counted(1, 1, 2)
    '1 Red win, 1 draw, 2 Black wins'
    """
    return f"{plural(red, 'Red win')}, {plural(draws, 'draw')}, {plural(black, 'Black win')}"


def _results(games: Iterable[GameRow]) -> tuple[int, int, int]:
    counts = Counter(g.result for g in games)
    return counts[Outcome.RED], counts[Outcome.DRAW], counts[Outcome.BLACK]


@dataclass(frozen=True)
class ClassConstants:
    """One time class's constants.

    Attributes:
        time_class: The class.
        games: Games of the class in the fit.
        results: Red wins, draws, Black wins.
        red_advantage: Elo.
        draw_nu: Davidson's draw parameter.
        group: The group of constants the class was fitted in (its own, the classical
            fallback, or the pooled group); None if the fit had no games of the class.
        reason: Why the class has no estimates of its own (too few games), if so.
    """

    time_class: TimeClass
    games: int
    results: tuple[int, int, int]
    red_advantage: Estimate
    draw_nu: Estimate
    group: str | None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"games", "red_advantage": {"estimate", "stderr"}, "draw_nu": {...}}``, with
        ``results``, ``fitted_in`` and ``reason`` where the class has no constants."""
        out: dict[str, Any] = {
            "games": self.games,
            "results": dict(zip(("red", "draw", "black"), self.results, strict=True)),
            "red_advantage": self.red_advantage.to_json(),
            "draw_nu": self.draw_nu.to_json(),
            "fitted_in": self.group,
        }
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class ConstantsFit:
    """One fit's constants per class, and how it was made.

    Attributes:
        label: What games it used (``all games``, a source folder, ``without unknown``).
        games: Games used.
        classes: The three classes, classical, rapid, blitz.
        map_constants: The joint maximum a posteriori's constants (``red_advantage`` per
            group, then ``log draw_nu``), before the marginal-likelihood steps.
        constants: The reported constants in the same order.
        cov: Their covariance (Schur complement).
        groups: The groups of constants.
        fit: The strength fit (at the reported constants); None for too few games.
    """

    label: str
    games: int
    classes: tuple[ClassConstants, ...]
    map_constants: FloatArray
    constants: FloatArray
    cov: FloatArray
    groups: tuple[str, ...]
    fit: StrengthFit | None

    def by_class(self) -> dict[str, ClassConstants]:
        """Class name to its constants."""
        return {c.time_class.value: c for c in self.classes}

    def correlations(self) -> list[tuple[str, str, float]]:
        """The correlation of each pair of estimated constants (``red_advantage`` and ``log
        draw_nu``: the coordinates ``[model.sd]`` draws in), named ``NAME.CLASS`` (the group of
        the games below ``min_games`` left out)."""
        names = self._paths()
        sd = np.sqrt(np.diag(self.cov))
        out = []
        for i, (a, ca) in enumerate(names):
            for j in range(i + 1, len(names)):
                b, cb = names[j]
                if OTHERS in (ca, cb):
                    continue
                out.append((f"{a}.{ca}", f"{b}.{cb}", float(self.cov[i, j] / (sd[i] * sd[j]))))
        return out

    def joint_maximum(self) -> dict[str, dict[str, float]]:
        """The joint maximum a posteriori's constants per class with constants of its own (the
        marginal likelihood's, :attr:`constants`, are reported): how far integrating the
        strengths out moved them."""
        out: dict[str, dict[str, float]] = {}
        g = len(self.groups)
        for c in self.classes:
            if c.group is None or c.reason is not None or c.red_advantage.estimate is None:
                continue
            i = self.groups.index(c.group)
            out[c.time_class.value] = {
                "red_advantage": float(self.map_constants[i]),
                "draw_nu": float(math.exp(self.map_constants[g + i])),
            }
        return out

    def _paths(self) -> list[tuple[str, str]]:
        """``(constant, class)`` of each entry of :attr:`constants`, a pooled group named by
        its first class."""
        classes = {c.group: c.time_class.value for c in reversed(self.classes) if c.group}
        return [("red_advantage", classes.get(g, g)) for g in self.groups] + [
            ("draw_nu", classes.get(g, g)) for g in self.groups
        ]


@dataclass(frozen=True)
class PlayerStrength:
    """A player's strength in the last year they played, on the reported scale.

    Attributes:
        player: The name.
        games: Games in the fit.
        first_year: First year played.
        last_year: Last year played.
        strength: Elo, the mean of the regulars' last strengths at 0.
        stderr: Its standard error.
        peak: The highest yearly strength.
        peak_year: Its year.
    """

    player: str
    games: int
    first_year: int
    last_year: int
    strength: float
    stderr: float
    peak: float
    peak_year: int


@dataclass(frozen=True)
class StrengthCalibration:
    """What ``calibrate --strengths`` reports.

    Attributes:
        source: The games file.
        by: ``"time_class"`` (constants per class) or None (one set for every class).
        main: The fit of every game used.
        without_unknown: The same without the ``unknown`` games (None if there are none or
            ``by`` is None).
        by_source: One fit per source folder (same drift and spread).
        left_out: Games left out by reason.
        hyper: The strengths' drift and spread.
        players: Every player's last strength.
        anchor: The shift applied to the strengths (Elo): the regulars' mean last strength.
        regulars: How many regular players.
        bootstrap: ``{"replicates", "events", "stderr": {PATH: sd}}`` if a bootstrap was asked.
        min_games: The constants' games are between players with at least this many (0: all).
        established: How many players have ``min_games`` (0 without it).
        fitted: Games fitted (strengths), all of them, whatever ``min_games``.
        classical_events: The events named as slow (``--classical-events``), if any.
        marked_classical: Games fitted that those events made ``classical``.
    """

    source: str
    by: By
    main: ConstantsFit
    without_unknown: ConstantsFit | None
    by_source: dict[str, ConstantsFit]
    left_out: dict[str, int]
    hyper: Hyper
    players: tuple[PlayerStrength, ...]
    anchor: float
    regulars: int
    bootstrap: dict[str, Any] | None = field(default=None)
    min_games: int = 0
    established: int = 0
    fitted: int = 0
    classical_events: tuple[str, ...] = ()
    marked_classical: int = 0

    def to_json(self) -> dict[str, Any]:
        """The public contract: ``classical``, ``rapid`` and ``blitz`` always, each ``{"games",
        "red_advantage": {"estimate", "stderr"}, "draw_nu": {"estimate", "stderr"}}``; beside
        them how the fit was made."""
        out: dict[str, Any] = {"source": self.source, "by": self.by}
        classes = self.main.by_class()
        without = self.without_unknown.by_class() if self.without_unknown else None
        for tc in TimeClass:
            entry = classes[tc.value].to_json()
            if tc is TimeClass.CLASSICAL and without is not None:
                entry["without_unknown"] = without[tc.value].to_json()
            out[tc.value] = entry
        out["correlation"] = [list(c) for c in self.main.correlations()]
        out["joint_maximum"] = self.main.joint_maximum()
        out["strengths"] = {
            "period": "year",
            "drift": self.hyper.drift,
            "spread": self.hyper.spread,
            "players": len(self.players),
            "player_years": 0 if self.main.fit is None else self.main.fit.layout.n_pp,
            "regular_games": REGULAR_GAMES,
            "regulars": self.regulars,
            "anchor": "0 is the mean of the regular players' strengths in their last year",
        }
        out["games"] = {
            "fitted": self.fitted,
            "measured": self.main.games,
            "left_out": self.left_out,
        }
        out["min_games"] = {"games": self.min_games, "players": self.established}
        if self.classical_events:
            out["classical_events"] = {
                "events": list(self.classical_events),
                "games": self.marked_classical,
            }
        out["by_source"] = {
            name: {
                "games": fit.games,
                **{tc.value: fit.by_class()[tc.value].to_json() for tc in TimeClass},
            }
            for name, fit in self.by_source.items()
        }
        if self.bootstrap is not None:
            out["bootstrap"] = self.bootstrap
        return out

    def _between(self) -> str:
        """How the constants' games were chosen, for a sentence."""
        if self.min_games <= 0:
            return ""
        return (
            f" (between two of the {self.established:,} players with {self.min_games} games or "
            f"more; all {self.fitted:,} games fitted)"
        )

    def model_toml(self, command: str) -> str:
        """The scenario ``[model]`` and ``[model.sd]`` tables of the fit, ``command`` in the
        header: only the constants estimated. With a bootstrap, each standard error is the
        larger of the curvature's and the bootstrap's (games of one event share what the model
        does not see, so the curvature can be short), and the header says which is which."""
        model: dict[str, dict[str, float]] = {}
        sd: dict[str, dict[str, float]] = {}
        boot = {} if self.bootstrap is None else self.bootstrap["stderr"]
        widened = []
        notes = []
        for c in self.main.classes:
            if c.reason is not None:
                notes += _comment(f"{c.time_class}: {c.reason}")
            if c.reason is not None or c.red_advantage.estimate is None:
                continue
            for name, est in (("red_advantage", c.red_advantage), ("draw_nu", c.draw_nu)):
                assert est.estimate is not None and est.stderr is not None
                model.setdefault(name, {})[c.time_class.value] = est.estimate
                wider = boot.get(f"{name}.{c.time_class.value}", 0.0)
                if wider > est.stderr:
                    widened.append(f"{name}.{c.time_class.value} {est.stderr:.3g} to {wider:.3g}")
                sd.setdefault(name, {})[c.time_class.value] = max(est.stderr, wider)
        written = {(n, tc) for n, table in model.items() for tc in table}
        pairs = _expanded_correlations(self.main, written)
        about = (
            f"Red's advantage and draw_nu fitted to {self.main.games:,} master games of "
            f"{self.source}{self._between()} with players' strengths drifting over the years "
            f"(drift {self.hyper.drift:.1f} Elo a year, newcomers' spread "
            f"{self.hyper.spread:.0f} Elo), by the Laplace-approximate marginal likelihood; "
            "[model.sd] holds their standard errors and correlation the correlations of the "
            "estimates (docs/validation.md). elo_per_doubling is not measured: the games "
            "record no clocks."
        )
        if self.bootstrap is not None:
            about += (
                f" Standard errors: the larger of the curvature's and the spread over "
                f"{self.bootstrap['replicates']} resamples of the {self.bootstrap['events']:,} "
                "events; the bootstrap's for " + (", ".join(widened) if widened else "none") + "."
            )
        lines = [
            *_comment("Written by: " + " ".join(command.splitlines())),
            *_comment(about),
            *notes,
            "[model]",
            *toml_lines(model),
        ]
        if pairs:
            cells = ", ".join(f'["{a}", "{b}", {r!r}]' for a, b, r in pairs)
            lines.append(f"correlation = [{cells}]")
        lines += ["[model.sd]", *toml_lines(sd)]
        return "\n".join(lines) + "\n"


def _comment(text: str, width: int = 98) -> list[str]:
    """``text`` as ``#`` comment lines of at most ``width`` characters (a long word, such as a
    path, on a line of its own)."""
    lines = textwrap.wrap(text, width - 2, break_long_words=False, break_on_hyphens=False)
    return ["# " + line for line in lines]


def _expanded_correlations(
    fit: ConstantsFit, written: set[tuple[str, str]]
) -> list[tuple[str, str, float]]:
    """Correlations between the written constants: a pooled group's constant is one value
    written under each class it serves (correlation 1 between its copies)."""
    index = {}
    for i, (name, _cls) in enumerate(fit._paths()):
        index[(name, fit.groups[i % len(fit.groups)])] = i
    serves = {c.time_class.value: c.group for c in fit.classes if c.group is not None}
    paths = sorted(
        written, key=lambda p: (p[0] != "red_advantage", list(TimeClass).index(TimeClass(p[1])))
    )
    sd = np.sqrt(np.diag(fit.cov))
    out = []
    for i, (a, ca) in enumerate(paths):
        for b, cb in paths[i + 1 :]:
            ia, ib = index[(a, serves[ca])], index[(b, serves[cb])]
            rho = 1.0 if ia == ib else float(fit.cov[ia, ib] / (sd[ia] * sd[ib]))
            out.append((f"{a}.{ca}", f"{b}.{cb}", rho))
    return out


def constant_groups(
    games: Sequence[GameRow], by: By
) -> tuple[list[str], Callable[[GameRow], str], dict[str, str]]:
    """The groups of constants of a fit of ``games``, each game's group, and each too-small
    class's reason: with ``by=None`` one pooled group; with ``by="time_class"`` a group per
    class with :data:`MIN_CLASS_GAMES` games and every result, the others fitted in the
    classical group (or, without enough classical games, the first class that has enough)."""
    if by is None:
        return [POOLED], lambda g: POOLED, {}
    counts: dict[str, list[GameRow]] = {tc.value: [] for tc in TimeClass}
    for g in games:
        tc = class_of(g.time_class)
        assert tc is not None
        counts[tc.value].append(g)
    enough = {
        name: len(rows) >= MIN_CLASS_GAMES and all(_results(rows)) for name, rows in counts.items()
    }
    own = [name for name in counts if enough[name]]
    if not own:
        return [POOLED], lambda g: POOLED, {}
    fallback = TimeClass.CLASSICAL.value if enough[TimeClass.CLASSICAL.value] else own[0]
    reasons = {}
    for name, rows in counts.items():
        if rows and not enough[name]:
            r, d, b = _results(rows)
            reasons[name] = (
                f"{len(rows)} games ({_counted(r, d, b)}): fewer than "
                f"the {MIN_CLASS_GAMES} a class needs, or a result missing, for constants of its "
                f"own; its games are fitted with the {fallback} constants"
            )

    def group_of(g: GameRow) -> str:
        tc = class_of(g.time_class)
        assert tc is not None
        return tc.value if enough[tc.value] else fallback

    return own, group_of, reasons


def _estimates(
    constants: FloatArray, cov: FloatArray, groups: Sequence[str], group: str
) -> tuple[Estimate, Estimate]:
    i = list(groups).index(group)
    g = len(groups)
    a, se_a = float(constants[i]), float(math.sqrt(cov[i, i]))
    nu = math.exp(float(constants[g + i]))
    return Estimate(a, se_a), Estimate(nu, nu * float(math.sqrt(cov[g + i, g + i])))


def _constants_fit(
    label: str,
    games: Sequence[GameRow],
    by: By,
    hyper: Hyper | None,
    tick: Callable[[], None] | None,
    progress: Progress | None = None,
    established: frozenset[str] | None = None,
) -> ConstantsFit:
    """Fit ``games`` (drift and spread by the evidence if ``hyper`` is None). With
    ``established``, the classes' constants come from the games between two of those players;
    the other games inform the strengths with constants of their own (one pooled group)."""
    measured = (
        list(games)
        if established is None
        else [g for g in games if g.red in established and g.black in established]
    )
    groups, class_group, reasons = constant_groups(measured, by)
    if len(measured) < len(games):
        groups = [*groups, OTHERS]

    def group_of(g: GameRow) -> str:
        if established is not None and not (g.red in established and g.black in established):
            return OTHERS
        return class_group(g)

    data = strength_games(games, groups, group_of)
    fit = fit_strengths(data, hyper=hyper, progress=progress)
    if tick is not None:
        tick()
    assert fit.map_constants is not None
    constants = np.r_[fit.red_advantage, fit.log_nu]
    classes = []
    for tc in TimeClass:
        rows = [g for g in measured if class_of(g.time_class) is tc]
        if not rows:
            missing = Estimate(None, None, f"no {tc.value} games")
            classes.append(ClassConstants(tc, 0, (0, 0, 0), missing, missing, None, None))
            continue
        group = group_of(rows[0])
        reason = reasons.get(tc.value)
        if reason is not None:
            missing = Estimate(None, None, reason)
            classes.append(
                ClassConstants(tc, len(rows), _results(rows), missing, missing, group, reason)
            )
            continue
        a, nu = _estimates(constants, fit.constants_cov, groups, group)
        classes.append(ClassConstants(tc, len(rows), _results(rows), a, nu, group))
    return ConstantsFit(
        label,
        len(measured),
        tuple(classes),
        fit.map_constants,
        constants,
        fit.constants_cov,
        tuple(groups),
        fit,
    )


def _players(fit: StrengthFit) -> tuple[tuple[PlayerStrength, ...], float, int]:
    lay = fit.layout
    g = lay.games
    played = np.bincount(g.red, minlength=len(g.players)) + np.bincount(
        g.black, minlength=len(g.players)
    )
    s = fit.strengths
    sd = np.sqrt(fit.pp_var)
    rows = []
    starts = [*list(lay.first), lay.n_pp]
    for k in range(len(lay.first)):
        lo, hi = int(starts[k]), int(starts[k + 1])
        p = int(lay.pp_player[lo])
        peak = lo + int(np.argmax(s[lo:hi]))
        rows.append((p, int(lay.pp_period[lo]), int(lay.pp_period[hi - 1]), hi - 1, peak))
    regular = [s[last] for p, _, _, last, _ in rows if played[p] >= REGULAR_GAMES]
    anchor = float(np.mean(regular)) if regular else 0.0
    out = tuple(
        PlayerStrength(
            g.players[p],
            int(played[p]),
            first,
            last_year,
            float(s[last] - anchor),
            float(sd[last]),
            float(s[peak] - anchor),
            int(lay.pp_period[peak]),
        )
        for p, first, last_year, last, peak in rows
    )
    return tuple(sorted(out, key=lambda r: -r.strength)), anchor, len(regular)


def _bootstrap(
    fit: ConstantsFit,
    games: Sequence[GameRow],
    replicates: int,
    rng: np.random.Generator,
    tick: Callable[[], None] | None,
) -> dict[str, Any]:
    """The spread of the constants over resamples of whole events (:func:`event_of`: a year
    and the event text up to its round or players; where that leaves nothing, the whole
    text), refitted with the same drift and spread."""
    events = [(g.year, event_of(g)[1] or g.event) for g in games]
    ids = {e: i for i, e in enumerate(dict.fromkeys(events))}
    cluster = np.array([ids[e] for e in events])
    base = fit.fit
    assert base is not None
    draws = []
    for _ in range(replicates):
        counts = np.bincount(rng.integers(len(ids), size=len(ids)), minlength=len(ids))
        weight = counts[cluster].astype(np.float64)
        data = base.layout.games.reweighted(weight)
        refit = marginal(fit_map(data, base.hyper, start=base))
        draws.append(np.r_[refit.red_advantage, refit.log_nu])
        if tick is not None:
            tick()
    spread = np.std(np.array(draws), axis=0, ddof=1)
    out: dict[str, float] = {}
    for i, (name, cls) in enumerate(fit._paths()):
        if cls == OTHERS:
            continue
        value = spread[i]
        if name == "draw_nu":
            value *= math.exp(fit.constants[i])  # the sd of nu (delta method), as stderr
        out[f"{name}.{cls}"] = float(value)
    return {"replicates": replicates, "events": len(ids), "stderr": out}


def calibrate_strengths(
    table: GameTable,
    *,
    by: By = "time_class",
    bootstrap: int = 0,
    rng: np.random.Generator | None = None,
    progress: Progress | None = None,
    min_games: int = 0,
    classical_events: Sequence[str] = (),
) -> StrengthCalibration:
    """Fit ``table`` (see the module docstring).

    Args:
        table: The games.
        by: ``"time_class"``: constants per class; None: one set for every class.
        min_games: Measure the constants on the games between two players with at least this
            many games in the fit (the table's established players); every game still informs
            the strengths, the others with constants of their own.
        bootstrap: Resamples of whole events to check the standard errors (0: none).
        rng: The bootstrap's random numbers (needed when ``bootstrap`` > 0).
        progress: Called with (steps done, steps planned).
        classical_events: Events known to be slow: their ``unknown`` games are ``classical``
            (:func:`~knockout.strengths.table.classical_by_event`), so the classical fit
            without the unknown games has games to stand on.

    Raises:
        InputError: If fewer than :data:`MIN_CLASS_GAMES` games are usable, or no class
            has a Red win, a draw and a Black win (with ``min_games``: among the games
            between established players).
    """
    slow_before = {g.id for g in table.games if g.time_class is TableClass.CLASSICAL}
    if classical_events:
        table, _ = classical_by_event(table, classical_events)
    selection = select_games(table)
    games = selection.games
    marked = sum(
        1 for g in games if g.time_class is TableClass.CLASSICAL and g.id not in slow_before
    )
    _check_enough(table, selection)
    established = _established(table, games, min_games)
    folders = sorted({f for g in games for f in g.folders if f})
    unknown = by is not None and any(g.time_class is TableClass.UNKNOWN for g in games)
    per_fit = 1
    planned = 40 + per_fit * (1 + int(unknown) + len(folders)) + bootstrap
    done = [0]

    def tick() -> None:
        done[0] += 1
        if progress is not None:
            progress(min(done[0], planned), planned)

    def hyper_progress(step: int, total: int) -> None:
        done[0] = step
        if progress is not None:
            progress(min(done[0], planned), planned)

    main = _constants_fit("all games", games, by, None, tick, hyper_progress, established)
    done[0] = 40 + per_fit
    assert main.fit is not None
    hyper = main.fit.hyper
    without = None
    if unknown:
        rest = [g for g in games if g.time_class is not TableClass.UNKNOWN]
        without = _without_unknown(rest, by, hyper, tick, established)
    by_source = {}
    for folder in folders:
        mine = [g for g in games if folder in g.folders]
        if len(mine) >= MIN_CLASS_GAMES and all(_results(mine)):
            by_source[folder] = _constants_fit(folder, mine, by, hyper, tick, None, established)
    players, anchor, regulars = _players(main.fit)
    boot = None
    if bootstrap > 0:
        if rng is None:
            raise ValueError("a bootstrap needs an rng")
        boot = _bootstrap(main, games, bootstrap, rng, tick)
    if progress is not None:
        progress(planned, planned)
    return StrengthCalibration(
        table.source,
        by,
        main,
        without,
        by_source,
        selection.left_out,
        hyper,
        players,
        anchor,
        regulars,
        boot,
        min_games,
        0 if established is None else len(established),
        len(games),
        tuple(classical_events),
        marked,
    )


def _check_enough(table: GameTable, selection: Selection) -> None:
    """Refuse a table with too few usable games for any fit."""
    games = selection.games
    r, d, b = _results(games)
    if len(games) < MIN_CLASS_GAMES or not (r and d and b):
        left = ", ".join(f"{n} {why}" for why, n in selection.left_out.items()) or "none"
        raise InputError(
            [
                Problem(
                    table.source,
                    "",
                    f"expected at least {MIN_CLASS_GAMES} master games with a result and a "
                    f"year, with Red wins, draws and Black wins among them, got {len(games)} "
                    f"({_counted(r, d, b)}; left out: {left})",
                )
            ]
        )


def _established(
    table: GameTable, games: Sequence[GameRow], min_games: int
) -> frozenset[str] | None:
    """The players with at least ``min_games`` games (None for 0), refused if fewer than
    :data:`MIN_CLASS_GAMES` games are between two of them."""
    if min_games <= 0:
        return None
    played: Counter[str] = Counter(g.red for g in games)
    played.update(g.black for g in games)
    established = frozenset(p for p, n in played.items() if n >= min_games)
    between = [g for g in games if g.red in established and g.black in established]
    r, d, b = _results(between)
    if len(between) < MIN_CLASS_GAMES or not (r and d and b):
        raise InputError.single(
            table.source,
            "--min-games",
            f"expected at least {MIN_CLASS_GAMES} games between two players with "
            f"{min_games} games or more, with Red wins, draws and Black wins among them, got "
            f"{len(between)} ({_counted(r, d, b)}; {len(established)} "
            "such players)",
        )
    return established


def _without_unknown(
    games: Sequence[GameRow],
    by: By,
    hyper: Hyper,
    tick: Callable[[], None],
    established: frozenset[str] | None,
) -> ConstantsFit:
    """The fit without the ``unknown`` games (every class saying so if too few are left)."""
    measured = (
        list(games)
        if established is None
        else [g for g in games if g.red in established and g.black in established]
    )
    r, d, b = _results(measured)
    if len(measured) < MIN_CLASS_GAMES or not (r and d and b):
        return _empty_fit(measured, by)
    return _constants_fit("without unknown", games, by, hyper, tick, None, established)


def _empty_fit(games: Sequence[GameRow], by: By) -> ConstantsFit:
    """A fit with too few games for any constants: every class says so."""
    classes = []
    for tc in TimeClass:
        rows = [g for g in games if class_of(g.time_class) is tc]
        why = (
            f"{len(rows)} {tc.value} games once the unknown-class games are left out: fewer than "
            f"the {MIN_CLASS_GAMES} a fit needs"
        )
        missing = Estimate(None, None, why)
        classes.append(ClassConstants(tc, len(rows), _results(rows), missing, missing, None, why))
    empty = np.zeros(0)
    return ConstantsFit(
        "without unknown",
        len(games),
        tuple(classes),
        empty,
        empty,
        np.zeros((0, 0)),
        (),
        None,
    )


#: ``--players``' columns.
PLAYER_COLUMNS = (
    "player", "games", "first_year", "last_year", "strength", "stderr", "peak", "peak_year",
)  # fmt: skip


def players_csv(cal: StrengthCalibration) -> str:
    """The players' table: one row a player, strongest last strength first; strengths in Elo
    on the reported scale (the regulars' mean last strength at 0), to a tenth."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PLAYER_COLUMNS)
    for p in cal.players:
        writer.writerow(
            [p.player, p.games, p.first_year, p.last_year, f"{p.strength:.1f}",
             f"{p.stderr:.1f}", f"{p.peak:.1f}", p.peak_year]
        )  # fmt: skip
    return out.getvalue()
