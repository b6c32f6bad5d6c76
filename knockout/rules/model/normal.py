"""The standard Normal CDF in numpy alone (scipy's ``ndtr``, without importing scipy).

``scipy.special`` costs a short command more than half of its start-up (it pulls in
``numpy.testing``, ``unittest``, ``pydoc`` and more), and the match chain needs only the Normal
CDF: who is 甲 (time used) and the private-belief decisions. :func:`ndtr` evaluates the same
rational approximations as scipy's (Cephes, by S. L. Moshier: ``erf`` on ``|x| < 1``, ``erfc``
from ``exp(-x^2) P(x) / Q(x)`` beyond), in the same order of operations. It agrees with
``scipy.special.ndtr`` within 8 ulps (a relative 1.8e-15), not to the last bit: numpy's
vectorised ``exp`` and the C library's may round differently in the last place, and which path
numpy takes depends on the processor (the bound and its reasons: ``tests/rules/test_normal.py``).
"""

from __future__ import annotations

import functools
import sys

import numpy as np
import numpy.typing as npt

from knockout.arrays import FloatArray

__all__ = ["SCIPY_FROM", "gauss_hermite", "ndtr"]

#: Arrays of this many elements or more are computed by scipy's compiled ndtr.
SCIPY_FROM = 4096

_SQRT1_2 = 0.7071067811865476  # 1 / sqrt(2), the closest double
_MAXLOG = 7.09782712893383996843e2  # log of the largest double

# erfc(x) = exp(-x^2) P(x) / Q(x) for 1 <= x < 8 (Q monic, its leading 1 left out) ...
_P = (
    2.46196981473530512524e-10,
    5.64189564831068821977e-1,
    7.46321056442269912687e0,
    4.86371970985681366614e1,
    1.96520832956077098242e2,
    5.26445194995477358631e2,
    9.34528527171957607540e2,
    1.02755188689515710272e3,
    5.57535335369399327526e2,
)
_Q = (
    1.32281951154744992508e1,
    8.67072140885989742329e1,
    3.54937778887819891062e2,
    9.75708501743205489753e2,
    1.82390916687909736289e3,
    2.24633760818710981792e3,
    1.65666309194161350182e3,
    5.57535340817727675546e2,
)
# ... exp(-x^2) R(x) / S(x) from 8 on ...
_R = (
    5.64189583547755073984e-1,
    1.27536670759978104416e0,
    5.01905042251180477414e0,
    6.16021097993053585195e0,
    7.40974269950448939160e0,
    2.97886665372100240670e0,
)
_S = (
    2.26052863220117276590e0,
    9.39603524938001434673e0,
    1.20489539808096656605e1,
    1.70814450747565897222e1,
    9.60896809063285878198e0,
    3.36907645100081516050e0,
)
# ... and erf(x) = x T(x^2) / U(x^2) below 1.
_T = (
    9.60497373987051638749e0,
    9.00260197203842689217e1,
    2.23200534594684319226e3,
    7.00332514112805075473e3,
    5.55923013010394962768e4,
)
_U = (
    3.35617141647503099647e1,
    5.21357949780152679795e2,
    4.59432382970980127987e3,
    2.26290000613890934246e4,
    4.92673942608635921086e4,
)


def _horner(x: FloatArray, coefficients: tuple[float, ...], *, monic: bool = False) -> FloatArray:
    """The polynomial with these coefficients (highest power first) at ``x``; ``monic``: a
    leading coefficient 1 precedes them."""
    if monic:
        out = x + coefficients[0]
        rest = coefficients[1:]
    else:
        out = np.full_like(x, coefficients[0])
        rest = coefficients[1:]
    for c in rest:
        out = out * x + c
    return out


def _erf_small(x: FloatArray) -> FloatArray:
    """erf(x) for |x| <= 1."""
    z = x * x
    return x * _horner(z, _T) / _horner(z, _U, monic=True)


def _erfc_tail(x: FloatArray) -> FloatArray:
    """erfc(x) for x >= 1 (0 where it underflows)."""
    out = np.zeros_like(x)
    with np.errstate(over="ignore"):
        keep = -x * x >= -_MAXLOG
    near = keep & (x < 8.0)
    far = keep & ~near
    for where, p, q in ((near, _P, _Q), (far, _R, _S)):
        if where.any():
            v = x[where]
            with np.errstate(under="ignore"):
                out[where] = (np.exp(-v * v) * _horner(v, p)) / _horner(v, q, monic=True)
    return out


def _ndtr(a: FloatArray) -> FloatArray:
    x = a * _SQRT1_2
    z = np.abs(x)
    out = np.empty_like(x)
    centre = z < _SQRT1_2
    if centre.any():
        out[centre] = 0.5 + 0.5 * _erf_small(x[centre])
    middle = ~centre & (z < 1.0)  # erfc(z) = 1 - erf(z)
    if middle.any():
        out[middle] = 0.5 * (1.0 - _erf_small(z[middle]))
    tail = z >= 1.0
    if tail.any():
        out[tail] = 0.5 * _erfc_tail(z[tail])
    upper = ~centre & (x > 0)
    out[upper] = 1.0 - out[upper]
    out[np.isnan(a)] = np.nan
    return out


def ndtr(a: npt.ArrayLike) -> FloatArray:
    """P(Z <= a) for a standard Normal ``Z``, elementwise (``scipy.special.ndtr``).

    Large arrays (:data:`SCIPY_FROM` elements or more), or any once scipy is loaded anyway, go
    to scipy's compiled ``ndtr`` (the same numbers within 8 ulps, faster; its import is then a
    small share).

    >>> float(ndtr(0.0)), round(float(ndtr(1.959963984540054)), 12)
    (0.5, 0.975)
    """
    a_arr = np.asarray(a, dtype=np.float64)
    if a_arr.size >= SCIPY_FROM or "scipy.special" in sys.modules:
        from scipy.special import ndtr as compiled  # noqa: PLC0415  (heavy: only for big work)

        result: FloatArray = compiled(a_arr)
        return result
    out = _ndtr(np.atleast_1d(a_arr))
    return out.reshape(a_arr.shape) if a_arr.ndim else out[0]


@functools.cache
def gauss_hermite(n: int = 48) -> tuple[FloatArray, FloatArray]:
    """Nodes ``z`` and weights ``w`` (summing to 1) with ``E f(Z) = sum(w * f(z))`` for
    ``Z ~ Normal(0, 1)`` (probabilists' Gauss-Hermite; 48 nodes integrate polynomials of
    degree 95 exactly). Computed on first use: ``numpy.polynomial`` is slow to import, and a
    short command that decides nothing on private beliefs never needs it."""
    from numpy.polynomial.hermite_e import hermegauss  # noqa: PLC0415 (start-up: numpy.polynomial, once per process)

    z, w = hermegauss(n)
    z.setflags(write=False)
    w = w / w.sum()
    w.setflags(write=False)
    return z, w
