"""knockout.rules.model.normal.ndtr: scipy's numbers within a few ulps, without scipy for short
work.

The copy and scipy evaluate the same rational approximations in the same order, but not with the
same ``exp``: numpy's vectorised ``exp`` (which of its paths runs depends on the processor's
instruction set) and the C library's each round to within an ulp, so on the tail
(``|x| >= sqrt(2)``, ``exp(-x^2/2) P / Q``) they can disagree in the last bit. Bit-for-bit equality
held on one machine and failed on the next (0.3-1.2 % of inputs on an AVX-512 Xeon). The bound,
:data:`ULPS`, follows from the one operation that differs:

* the two ``exp`` values are each within 1 ulp of the true one, so at most 2 ulps apart;
* an ulp of ``exp``'s value is up to twice an ulp of the result, relative to each (a mantissa
  near 1 beside one near 2): 4 ulps of the result;
* the product by ``P`` and the quotient by ``Q`` each round once more in each evaluation: 6;
* a compiler may fuse the polynomial's multiply-adds (FMA) in scipy's build and not in numpy's:
  8 leaves room for that.

Observed on this suite's points: at most 4 ulps. 8 ulps is a relative error of 1.8e-15, far below
any probability the project prints or any Monte Carlo standard error, yet a tail coefficient off in
its 12th digit shows up as about 700 ulps (the test below).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from scipy.special import ndtr as scipy_ndtr

from knockout.rules.model import normal

#: How far (in units in the last place) the numpy copy may stand from scipy: the module's docstring.
ULPS = 8


@pytest.mark.parametrize("scale", [0.3, 1.0, 3.0, 10.0, 40.0])
def test_numpy_ndtr_is_scipys_within_a_few_ulps(scale: float) -> None:
    x = np.random.default_rng(int(scale * 10)).normal(0.0, scale, 200_000)
    np.testing.assert_array_max_ulp(normal._ndtr(x), scipy_ndtr(x), maxulp=ULPS)


def test_a_wrong_coefficient_is_far_outside_the_tolerance(monkeypatch: pytest.MonkeyPatch) -> None:
    # the tolerance can fail: the tail's first coefficient off in its 12th digit
    wrong = (normal._P[0], normal._P[1] * (1 + 1e-12), *normal._P[2:])
    monkeypatch.setattr(normal, "_P", wrong)
    x = np.linspace(-7.0, -1.5, 1000)
    with pytest.raises(AssertionError):
        np.testing.assert_array_max_ulp(normal._ndtr(x), scipy_ndtr(x), maxulp=ULPS)


def test_edges_and_branch_ends() -> None:
    r = np.sqrt(2.0)
    x = np.array([0.0, -0.0, np.inf, -np.inf, 1e-300, 38.0, -38.0, -39.0, 8 * r, -8 * r, r, -r])
    x = np.concatenate([x, np.nextafter(x, np.inf), np.nextafter(x, -np.inf), [1.0, -1.0]])
    np.testing.assert_array_max_ulp(normal._ndtr(x), scipy_ndtr(x), maxulp=ULPS)
    assert np.isnan(normal._ndtr(np.array([np.nan]))[0])


def test_shapes_and_scalars_like_scipy() -> None:
    assert normal.ndtr([[0.1, 0.2, 0.3]]).shape == (1, 3)
    np.testing.assert_array_max_ulp(normal.ndtr(0.25), scipy_ndtr(0.25), maxulp=ULPS)
    big = np.linspace(-9, 9, normal.SCIPY_FROM + 1)
    np.testing.assert_array_equal(normal.ndtr(big), scipy_ndtr(big))


@pytest.mark.system
def test_small_work_does_not_import_scipy() -> None:
    code = (
        "import sys\nfrom knockout.rules.model.normal import ndtr\nndtr([0.1, 2.0])\n"
        "print('scipy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
