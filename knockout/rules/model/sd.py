"""Uncertain model constants: ``[model.sd]``, ``[model] correlation``, their draws, and the
spread of an answer over them.

A scenario may give a standard deviation for any constant of the model, per time class, in a
``[model.sd]`` table of the shape of ``[model]``, and correlations between constants in
``[model] correlation = [[PATH_A, PATH_B, RHO], ...]`` (PATHs such as ``red_advantage.rapid``).
The constants are then uncertain, with these distributions, the same in every walker:

* ``red_advantage``: ``Normal(value, sd)`` (Elo; any value is a possible first-move advantage);
* ``elo_per_doubling``: ``Normal(value, sd)`` truncated at 0 (the model refuses a negative worth
  of time): the draw is the value of the same probability in the Normal restricted to
  ``[0, inf)``;
* ``draw_nu``: log-normal with median ``value``: ``log nu ~ Normal(log value, sd / value)``, so
  ``sd`` is the standard deviation of ``nu`` to first order, as ``knockout calibrate`` reports it
  (it fits ``log nu``), and no draw is negative. Needs ``value > 0``.

Correlations join the constants by a Gaussian copula: each constant is its own distribution's
quantile of ``Phi(z)`` for a standard Normal ``z``, and the ``z`` are jointly Normal with
correlation ``RHO`` for each pair given (0 for the others). For ``red_advantage`` and
``log draw_nu`` that is their correlation exactly; for ``elo_per_doubling`` it is the correlation
before the cut at 0.

An answer is integrated over the constants by randomised quasi-Monte Carlo (:func:`design`):
``R`` independently scrambled Sobol' sequences (:class:`scipy.stats.qmc.Sobol`, Owen scrambling)
of ``m`` points each, in as many dimensions as there are uncertain constants, turned into
standard Normals by the inverse CDF, correlated (``z = L u`` with ``L L' = C``) and mapped
through the distributions above. Each figure's mean, standard deviation, 2.5 % and 97.5 %
quantiles and P(figure > 0) are taken over all ``R m`` draws (:func:`spread`); the standard
error of each of them is the standard deviation of its ``R`` replicate values over ``sqrt(R)``
(the replicates are independent and identically distributed).

Which constant's uncertainty matters most (:attr:`Spread.decomposition`): the variance of a
figure with one constant known, held at its value, the others drawn as before given it (the
same draws, that constant's ``z`` set to 0 and the others' moved to their distribution given
it, ``z - C[:, i] z_i``). ``1 - Var(with it known) / Var`` is the share of the variance that
knowing it would remove: 0 for a constant the figure does not depend on (exactly, with these
common draws), close to 1 for the one that decides it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from knockout.arrays import FloatArray
from knockout.rules.model.strength import SD_BOUNDS, ModelParams, PerClass, TimeClass

__all__ = [
    "CONSTANTS",
    "DISTRIBUTIONS",
    "DRAWS",
    "METHOD",
    "PATHS",
    "REPLICATES",
    "Design",
    "FigureSpread",
    "ModelSd",
    "Spread",
    "design",
    "figure_summaries",
    "figure_summary",
    "flatten",
    "spread",
    "spread_of_values",
]

#: The model's uncertain-able constants, per time class.
CONSTANTS = ("red_advantage", "draw_nu", "elo_per_doubling")
#: Every constant's path, ``constant.time_class``, in the order outputs list them.
PATHS: tuple[str, ...] = tuple(f"{c}.{tc.value}" for c in CONSTANTS for tc in TimeClass)
#: How each constant is distributed around its value (see the module docstring).
DISTRIBUTIONS = {
    "red_advantage": "normal",
    "draw_nu": "log-normal (median the value, sd of log nu = sd / value)",
    "elo_per_doubling": "normal truncated at 0",
}
#: Draws of the constants for one answer: REPLICATES scrambled Sobol' sets of DRAWS/REPLICATES.
DRAWS = 512
REPLICATES = 8
#: The scrambles are seeded with this (answers are reproducible; a study may choose another).
SEED = 20261201
#: The method named in every output.
METHOD = "sobol-rqmc"

_ZERO = PerClass(0.0, 0.0, 0.0)


def _split(path: str) -> tuple[str, TimeClass]:
    name, tc = path.split(".")
    return name, TimeClass(tc)


@dataclass(frozen=True)
class ModelSd:
    """Standard deviations of the model's constants and their correlations.

    Attributes:
        red_advantage: Per time class (0: known exactly).
        draw_nu: Per time class.
        elo_per_doubling: Per time class.
        correlation: ``(PATH_A, PATH_B, RHO)`` triples.
    """

    red_advantage: PerClass = _ZERO
    draw_nu: PerClass = _ZERO
    elo_per_doubling: PerClass = _ZERO
    correlation: tuple[tuple[str, str, float], ...] = ()

    def sd(self, path: str) -> float:
        """The standard deviation of constant ``path`` (``draw_nu.rapid``)."""
        name, tc = _split(path)
        table: PerClass = getattr(self, name)
        return float(table[tc])

    @property
    def uncertain(self) -> tuple[str, ...]:
        """The constants with a standard deviation above 0, in :data:`PATHS` order."""
        return tuple(p for p in PATHS if self.sd(p) > 0)

    def rho(self, a: str, b: str) -> float:
        """The correlation of constants ``a`` and ``b`` (1 for a constant with itself)."""
        if a == b:
            return 1.0
        for x, y, r in self.correlation:
            if {x, y} == {a, b}:
                return r
        return 0.0

    def matrix(self, paths: Sequence[str]) -> FloatArray:
        """The correlation matrix of ``paths``."""
        return np.array([[self.rho(a, b) for b in paths] for a in paths], dtype=np.float64)

    def to_dict(self) -> dict[str, dict[str, float]]:
        """The ``[model.sd]`` table with every class filled in."""
        return {name: getattr(self, name).to_dict() for name in CONSTANTS}

    def correlation_list(self) -> list[list[Any]]:
        """``[model] correlation`` as the scenario file writes it."""
        return [[a, b, r] for a, b, r in self.correlation]

    def notes(self) -> list[tuple[str, str]]:
        """``(key, message)`` for what is valid but does nothing: a correlation between
        constants one of which has no sd (the correlation has no effect)."""
        out = []
        uncertain = set(self.uncertain)
        for i, (a, b, rho) in enumerate(self.correlation):
            exact = [p for p in (a, b) if p not in uncertain]
            if not exact:
                continue
            if not uncertain:
                why = "[model.sd] gives no constant an sd, so every constant is taken as exact"
            else:
                which = " and ".join(exact)
                why = f"{which} {'has' if len(exact) == 1 else 'have'} no sd in [model.sd]"
            out.append(
                (
                    f"model.correlation[{i}]",
                    f"{a} and {b} correlated {rho:g}, but {why}: the correlation has no effect",
                )
            )
        return out

    def problems(self, center: ModelParams) -> list[tuple[str, str]]:
        """``(key, message)`` for each thing that keeps these from being a distribution around
        ``center``: an sd below 0 or not finite, a log-normal ``draw_nu`` around 0, correlations
        that are not correlations or not consistent."""
        out = [
            (
                f"model.sd.{path}",
                f"expected a number >= 0 and <= {SD_BOUNDS[_split(path)[0]]:g}, got "
                f"{self.sd(path)!r}",
            )
            for path in PATHS
            if not (
                math.isfinite(self.sd(path)) and 0 <= self.sd(path) <= SD_BOUNDS[_split(path)[0]]
            )
        ]
        out += [
            (
                f"model.sd.draw_nu.{tc.value}",
                f"expected 0: draw_nu.{tc.value} is 0 (draws impossible), and a log-normal "
                f"draw_nu needs a value above 0; got {self.draw_nu[tc]:g}",
            )
            for tc in TimeClass
            if self.draw_nu[tc] > 0 and center.draw_nu[tc] == 0
        ]
        _, bad = parse_correlation([list(c) for c in self.correlation])
        out += bad
        mentioned = [p for p in PATHS if any(p in (a, b) for a, b, _ in self.correlation)]
        if mentioned and not bad:
            smallest = float(np.linalg.eigvalsh(self.matrix(mentioned))[0])
            if smallest < -1e-9:
                out.append(
                    (
                        "model.correlation",
                        "expected correlations that some joint distribution has (a positive "
                        f"semi-definite matrix); these give an eigenvalue of {smallest:.3g}",
                    )
                )
        return out

    def distributions(self, center: ModelParams) -> dict[str, dict[str, Any]]:
        """Each uncertain constant: its value, sd and distribution (for outputs)."""
        out = {}
        for path in self.uncertain:
            name, tc = _split(path)
            value = float(getattr(center, name)[tc])
            out[path] = {"value": value, "sd": self.sd(path), "distribution": DISTRIBUTIONS[name]}
        return out


def parse_correlation(raw: Any, key: str = "model.correlation") -> tuple[
    tuple[tuple[str, str, float], ...], list[tuple[str, str]]
]:  # fmt: skip
    """``[model] correlation`` read: the triples and ``(key, message)`` per bad entry."""
    if not isinstance(raw, list):
        return (), [(key, f"expected a list of [PATH_A, PATH_B, RHO], got {raw!r}")]
    out: list[tuple[str, str, float]] = []
    problems: list[tuple[str, str]] = []
    seen: dict[frozenset[str], int] = {}
    for i, entry in enumerate(raw):
        where = f"{key}[{i}]"
        if not (isinstance(entry, list) and len(entry) == 3):
            problems.append(
                (where, f"expected [PATH_A, PATH_B, RHO], e.g. {EXAMPLE}, got {entry!r}")
            )
            continue
        a, b, rho = entry
        bad = [
            (f"{where}[{j}]", f"expected a constant ({', '.join(PATHS)}), got {p!r}")
            for j, p in enumerate((a, b))
            if p not in PATHS
        ]
        number = isinstance(rho, int | float) and not isinstance(rho, bool)
        if not (number and math.isfinite(rho) and -1.0 <= rho <= 1.0):
            bad.append((f"{where}[2]", f"expected a correlation between -1 and 1, got {rho!r}"))
        if not bad and a == b:
            bad.append((where, f"expected two different constants, got {a!r} twice"))
        pair = frozenset((a, b)) if not bad else frozenset()
        if not bad and pair in seen:
            bad.append((where, f"the pair {a}, {b} is given twice (also {key}[{seen[pair]}])"))
        if bad:
            problems += bad
            continue
        seen[pair] = i
        out.append((str(a), str(b), float(rho)))
    return tuple(out), problems


EXAMPLE = '["red_advantage.classical", "draw_nu.classical", 0.12]'


# ---------------------------------------------------------------------------------------------
# Draws


@dataclass(frozen=True)
class Design:
    """Draws of the uncertain constants: ``blocks`` blocks of ``draws`` points (the first the
    draws proper; for a decomposition, one block per constant after it, that constant held at
    its value).

    Attributes:
        paths: The uncertain constants.
        values: Each constant's drawn values, shape ``(blocks * draws,)``.
        draws: Draws per block.
        replicates: Independent scrambles the draws are made of (each ``draws / replicates``).
        blocks: 1, or ``1 + len(paths)`` with a block per constant held.
    """

    paths: tuple[str, ...]
    values: Mapping[str, FloatArray]
    draws: int
    replicates: int
    blocks: int = 1

    @property
    def size(self) -> int:
        """Points in all blocks."""
        return self.draws * self.blocks

    def model(self, center: ModelParams) -> ModelParams:
        """One vectorised model over every point: drawn constants are arrays, the others the
        center's values repeated."""

        def table(name: str) -> PerClass:
            cells: list[Any] = []
            for tc in TimeClass:
                path = f"{name}.{tc.value}"
                base = float(getattr(center, name)[tc])
                cells.append(self.values[path] if path in self.values else np.full(self.size, base))
            return PerClass(*cells)

        return ModelParams(
            table("red_advantage"), table("draw_nu"), table("elo_per_doubling"), center.moves
        )

    def model_at(self, center: ModelParams, i: int) -> ModelParams:
        """The constants of point ``i`` as a plain model."""
        changes: dict[str, dict[str, float]] = {}
        for path, values in self.values.items():
            name, tc = _split(path)
            changes.setdefault(name, {})[tc.value] = float(values[i])
        return center.with_overrides(**changes)  # type: ignore[arg-type]


def _factor(matrix: FloatArray) -> FloatArray:
    """``L`` with ``L L' = matrix`` for a positive semi-definite correlation matrix."""
    w, v = np.linalg.eigh(matrix)
    return np.asarray(v * np.sqrt(np.clip(w, 0.0, None)), dtype=np.float64)


@functools.lru_cache(maxsize=32)
def _normals(d: int, draws: int, replicates: int, seed: int) -> FloatArray:
    """``(draws, d)`` standard Normals from ``replicates`` scrambled Sobol' sets, replicate after
    replicate (the same for every answer with as many uncertain constants; read-only)."""
    from scipy.special import ndtri  # noqa: PLC0415  (loaded only when constants are uncertain)
    from scipy.stats import qmc  # noqa: PLC0415 (start-up: scipy.stats, with uncertain constants only)

    m = draws // replicates
    k = m.bit_length() - 1
    out = []
    for child in np.random.SeedSequence(seed).spawn(replicates):
        u = qmc.Sobol(d, scramble=True, rng=np.random.default_rng(child)).random_base2(k)
        out.append(ndtri(np.clip(u, 1e-15, 1.0 - 1e-15)))
    normals = np.asarray(np.concatenate(out), dtype=np.float64)
    normals.flags.writeable = False
    return normals


def _marginal(name: str, value: float, sd: float, z: FloatArray) -> FloatArray:
    """Constant ``name`` around ``value`` at standard Normal quantiles ``z``."""
    if name == "draw_nu":
        return np.asarray(value * np.exp((sd / value) * z), dtype=np.float64)
    if name == "elo_per_doubling":
        # The Normal restricted to [0, inf), at the same upper-tail probability (stable in both
        # tails): P(X > x | X >= 0) = P(Z > z).
        from scipy.special import ndtr, ndtri  # noqa: PLC0415  (short commands start without)

        tail = ndtr(-z) * ndtr(value / sd)
        return np.asarray(np.maximum(value - sd * ndtri(tail), 0.0), dtype=np.float64)
    return np.asarray(value + sd * z, dtype=np.float64)


def design(
    center: ModelParams,
    sd: ModelSd,
    *,
    draws: int = DRAWS,
    replicates: int = REPLICATES,
    seed: int = SEED,
    hold_each: bool = False,
) -> Design:
    """Draws of ``sd``'s uncertain constants around ``center`` (module docstring).

    ``draws`` must be ``replicates`` times a power of two. With ``hold_each``, one block per
    constant follows the draws: in block ``i`` constant ``i`` is held at its value and the
    others are the same draws moved to their distribution given it.
    """
    paths = sd.uncertain
    d = len(paths)
    if d == 0:
        return Design((), {}, draws, replicates)
    m = draws // replicates
    if m * replicates != draws or m < 1 or m & (m - 1):
        raise ValueError(f"draws must be {replicates} times a power of two, got {draws}")
    corr = sd.matrix(paths)
    factor = _factor(corr)
    z = _normals(d, draws, replicates, seed) @ factor.T
    blocks = [z] + ([z - z[:, [i]] * corr[:, i] for i in range(d)] if hold_each else [])
    latent = np.concatenate(blocks)
    values = {}
    for j, path in enumerate(paths):
        name, tc = _split(path)
        value = float(getattr(center, name)[tc])
        values[path] = _marginal(name, value, sd.sd(path), latent[:, j])
        if hold_each:  # held exactly at its value (a truncated Normal's z = 0 is its median)
            values[path][(j + 1) * draws : (j + 2) * draws] = value
    return Design(paths, values, draws, replicates, len(blocks))


# ---------------------------------------------------------------------------------------------
# The spread of an answer


def flatten(tree: Any, prefix: str = "") -> dict[str, float | None]:
    """Every number of a JSON tree by its dotted path (``win.王天一``, ``reach.A.2``,
    ``rows.xq-bidding.decider_edge``: list entries by their ``name`` or ``format``, else by
    position); nulls are None; text and true/false are left out.

    >>> flatten({"win": {"A": 0.5}, "rows": [{"format": "x", "edge": None}], "k": [1, "a"]})
    {'win.A': 0.5, 'rows.x.edge': None, 'k.0': 1.0}
    """
    out: dict[str, float | None] = {}
    if isinstance(tree, Mapping):
        for k, v in tree.items():
            out |= flatten(v, f"{prefix}{k}.")
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            label = v.get("format", v.get("name")) if isinstance(v, Mapping) else None
            out |= flatten(v, f"{prefix}{label if isinstance(label, str) else i}.")
    elif tree is None:
        out[prefix[:-1]] = None
    elif isinstance(tree, int | float) and not isinstance(tree, bool):
        out[prefix[:-1]] = float(tree)
    return out


@dataclass(frozen=True)
class FigureSpread:
    """A figure over the constants' uncertainty.

    Attributes:
        mean: Its mean.
        sd: Its standard deviation.
        q025: Its 2.5 % quantile.
        q975: Its 97.5 % quantile.
        p_above_zero: P(figure > 0); None for a probability (in [0, 1] by nature).
    """

    mean: float
    sd: float
    q025: float
    q975: float
    p_above_zero: float | None

    def to_json(self) -> dict[str, float | None]:
        """``{"mean", "sd", "q025", "q975", "p_above_zero"}``; a number that is not finite (an
        open end, an undefined mean) is null."""
        return {
            "mean": _number(self.mean),
            "sd": _number(self.sd),
            "q025": _number(self.q025),
            "q975": _number(self.q975),
            "p_above_zero": _number(self.p_above_zero),
        }

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the central 95 % interval."""
        return self.q025 <= value <= self.q975


def _number(v: float | None) -> float | None:
    return v if v is not None and math.isfinite(v) else None


def _stats(y: FloatArray) -> FloatArray:
    """Mean, sd, 2.5 % and 97.5 % quantiles and P(> 0) along the last axis of ``y``."""
    q = np.quantile(y, [0.025, 0.975], axis=-1)
    return np.stack([np.mean(y, axis=-1), np.std(y, axis=-1), q[0], q[1], np.mean(y > 0, axis=-1)])


def _figure(row: FloatArray | Sequence[float], signed: bool) -> FigureSpread:
    mean, sd, q025, q975, above = (float(v) for v in row)
    return FigureSpread(mean, sd, q025, q975, above if signed else None)


@dataclass(frozen=True)
class Spread:
    """Every figure of an answer over the uncertainty of the model's constants.

    Attributes:
        draws: Draws of the constants.
        replicates: Independent scrambles the draws are made of.
        figures: Per figure path: its spread.
        stderr: Per figure path: the standard error of each statistic (over the replicates).
        constants: The uncertain constants: value, sd and distribution.
        correlation: The correlations used.
        undefined: Per figure undefined at some draws (no fair split there, a stage never
            reached): the share of draws where it is; its spread is over the others.
        decomposition: Per decomposed figure, per constant: ``sd_if_known``, the figure's
            standard deviation were that constant known (held at its value), and
            ``variance_cut``, the share of the variance that would remove (module docstring).
        method: The integration method (:data:`METHOD`).
    """

    draws: int
    replicates: int
    figures: dict[str, FigureSpread]
    stderr: dict[str, FigureSpread]
    constants: dict[str, dict[str, Any]]
    correlation: list[list[Any]] = field(default_factory=list)
    undefined: dict[str, float] = field(default_factory=dict)
    decomposition: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    method: str = METHOD

    def get(self, path: str) -> FigureSpread | None:
        """The spread of figure ``path``, if it has one."""
        return self.figures.get(path)

    def main_contributor(self, path: str) -> tuple[str, float] | None:
        """The constant whose knowledge would cut the variance of figure ``path`` most, and
        that share (None without a decomposition or a variance)."""
        cuts = {k: v["variance_cut"] for k, v in self.decomposition.get(path, {}).items()}
        if not cuts:
            return None
        best = max(cuts, key=lambda k: cuts[k])
        return best, cuts[best]

    def prefixed(self, prefix: str) -> Spread:
        """The same figures under ``prefix`` (``exact.`` for simulate's exact companion)."""
        return Spread(
            self.draws,
            self.replicates,
            {prefix + k: v for k, v in self.figures.items()},
            {prefix + k: v for k, v in self.stderr.items()},
            self.constants,
            self.correlation,
            {prefix + k: v for k, v in self.undefined.items()},
            {prefix + k: v for k, v in self.decomposition.items()},
            self.method,
        )

    def restricted(self, keep: Callable[[str], bool]) -> Spread:
        """Only the figures whose paths ``keep`` accepts."""
        return Spread(
            self.draws,
            self.replicates,
            {k: v for k, v in self.figures.items() if keep(k)},
            {k: v for k, v in self.stderr.items() if keep(k)},
            self.constants,
            self.correlation,
            {k: v for k, v in self.undefined.items() if keep(k)},
            {k: v for k, v in self.decomposition.items() if keep(k)},
            self.method,
        )

    def joined(self, other: Spread) -> Spread:
        """The figures of both answers' spreads (over the same constants and draws) as one
        ``model_uncertainty``: ``other``'s figures added to these."""
        return Spread(
            self.draws,
            self.replicates,
            self.figures | other.figures,
            self.stderr | other.stderr,
            self.constants,
            self.correlation,
            self.undefined | other.undefined,
            self.decomposition | other.decomposition,
            self.method,
        )

    def to_json(self) -> dict[str, Any]:
        """``{"draws", "method", "figures", ...}``: the ``model_uncertainty`` key."""
        out: dict[str, Any] = {
            "draws": self.draws,
            "method": self.method,
            "figures": {k: v.to_json() for k, v in self.figures.items()},
            "replicates": self.replicates,
            "stderr": {k: v.to_json() for k, v in self.stderr.items()},
            "constants": self.constants,
            "correlation": self.correlation,
        }
        if self.undefined:
            out["undefined"] = dict(self.undefined)
        if self.decomposition:
            out["decomposition"] = {
                k: {c: dict(v) for c, v in by.items()} for k, by in self.decomposition.items()
            }
        return out


def figure_summaries(
    y: FloatArray, replicates: int, *, signed: bool
) -> list[tuple[FigureSpread, FigureSpread, float] | None]:
    """:func:`figure_summary` of each row of ``y`` (figures or points by draws) at once."""
    out: list[tuple[FigureSpread, FigureSpread, float] | None] = [None] * len(y)
    if not len(y):
        return out
    whole = np.isfinite(y).all(axis=1)
    if whole.any():
        rows = y[whole]
        pooled = _stats(rows).T
        parts = _stats(rows.reshape(len(rows), replicates, -1))
        se = np.std(parts, axis=-1, ddof=1).T / math.sqrt(replicates)
        for k, i in enumerate(np.flatnonzero(whole)):
            out[i] = (_figure(pooled[k], signed), _figure(se[k], signed), 0.0)
    for i in np.flatnonzero(~whole):
        out[i] = figure_summary(y[i], y.shape[1], replicates, signed=signed)
    return out


def figure_summary(
    y: FloatArray, draws: int, replicates: int, *, signed: bool
) -> tuple[FigureSpread, FigureSpread, float] | None:
    """One figure's spread from its values at the ``draws`` draws (replicate after
    replicate): the spread, the standard error of each statistic and the share of draws where
    it is undefined (NaN); None if it is undefined at every draw."""
    base = np.asarray(y[:draws], dtype=np.float64)
    ok = np.asarray(np.isfinite(base), dtype=bool)
    if not ok.any():
        return None
    chunks = [
        _stats(part[good])
        for part, good in zip(np.split(base, replicates), np.split(ok, replicates), strict=True)
        if good.any()
    ]
    if len(chunks) > 1:
        errors = np.std(chunks, axis=0, ddof=1) / math.sqrt(len(chunks))
    else:  # one replicate with values: no spread to judge the error by
        errors = np.full(5, np.nan)
    return (
        _figure(_stats(base[ok]), signed),
        _figure(errors, signed),
        float(1.0 - ok.mean()),
    )


def _held(
    y: FloatArray, des: Design, defined: npt.NDArray[np.bool_]
) -> dict[str, dict[str, float]]:
    """Per constant: the figure's sd with that constant held at its value, and the share of the
    variance that removes (over the draws where both are defined)."""
    n = des.draws
    base, ok0 = y[:n], defined[:n]
    out: dict[str, dict[str, float]] = {}
    for i, path in enumerate(des.paths):
        block = y[(i + 1) * n : (i + 2) * n]
        ok = ok0 & defined[(i + 1) * n : (i + 2) * n]
        var = float(np.var(base[ok])) if ok.any() else 0.0
        if var <= 0.0:
            continue
        held = float(np.var(block[ok]))
        out[path] = {"sd_if_known": math.sqrt(held), "variance_cut": 1.0 - held / var}
    return out


def spread(
    central: Mapping[str, Any],
    docs: Sequence[Mapping[str, Any]],
    des: Design,
    sd: ModelSd,
    center: ModelParams,
    *,
    probability: Callable[[str], bool],
    keep: Callable[[str], bool] = lambda path: True,
    decompose: Sequence[str] = (),
) -> Spread:
    """The spread of every figure of an answer (``central``: its JSON at the central
    constants; ``docs``: its JSON at each point of ``des``, in order).

    Figures are the numbers of ``central`` whose paths ``keep`` accepts; ``probability`` says
    which are probabilities (no P(> 0) for them). ``decompose``: figures that also get
    a decomposition (``des`` needs its blocks with each constant held). A figure undefined (null) at
    some draws is summarised over the others, and the share left out is in ``undefined``.
    """
    paths = [p for p, v in flatten(central).items() if v is not None and keep(p)]
    table = [flatten(doc) for doc in docs]
    values = {
        p: np.array([math.nan if (c := row.get(p)) is None else c for row in table]) for p in paths
    }
    return spread_of_values(
        central, values, des, sd, center, probability=probability, keep=keep, decompose=decompose
    )


def spread_of_values(
    central: Mapping[str, Any],
    values: Mapping[str, FloatArray],
    des: Design,
    sd: ModelSd,
    center: ModelParams,
    *,
    probability: Callable[[str], bool],
    keep: Callable[[str], bool] = lambda path: True,
    decompose: Sequence[str] = (),
) -> Spread:
    """:func:`spread` from each figure's values at the points of ``des`` (by path; NaN where
    undefined; a path missing is undefined everywhere)."""
    paths = [p for p, v in flatten(central).items() if v is not None and keep(p)]
    size = des.size
    y = np.array([values.get(p, np.full(size, np.nan)) for p in paths], dtype=np.float64).reshape(
        len(paths), size
    )
    n, reps = des.draws, des.replicates
    base = y[:, :n]
    defined: npt.NDArray[np.bool_] = np.asarray(np.isfinite(y), dtype=bool)
    whole: npt.NDArray[np.bool_] = np.asarray(defined[:, :n].all(axis=1), dtype=bool)
    figures: dict[str, FigureSpread] = {}
    errors: dict[str, FigureSpread] = {}
    undefined: dict[str, float] = {}
    held: dict[str, dict[str, dict[str, float]]] = {}
    if whole.any():
        rows = base[whole]
        pooled = _stats(rows).T
        parts = _stats(rows.reshape(len(rows), reps, n // reps))  # (5, figures, reps)
        se = np.std(parts, axis=-1, ddof=1).T / math.sqrt(reps) if reps > 1 else pooled * np.nan
        for k, path in enumerate(p for p, w in zip(paths, whole, strict=True) if w):
            signed = not probability(path)
            figures[path] = _figure(pooled[k], signed)
            errors[path] = _figure(se[k], signed)
    for i, path in enumerate(paths):
        ok = np.asarray(defined[i, :n], dtype=bool)
        if whole[i]:
            pass
        elif not ok.any():
            undefined[path] = 1.0
            continue
        else:
            summary = figure_summary(base[i], n, reps, signed=not probability(path))
            assert summary is not None
            figures[path], errors[path], undefined[path] = summary
        if path in decompose and des.blocks > 1:
            held[path] = _held(y[i], des, defined[i])
    ordered = {p: figures[p] for p in paths if p in figures}
    return Spread(
        n,
        reps,
        ordered,
        {p: errors[p] for p in ordered},
        sd.distributions(center),
        sd.correlation_list(),
        undefined,
        held,
    )
