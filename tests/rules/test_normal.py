"""knockout.rules.model.normal.ndtr: scipy's numbers to the last bit, without scipy for short
work."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from scipy.special import ndtr as scipy_ndtr

from knockout.rules.model import normal


@pytest.mark.parametrize("scale", [0.3, 1.0, 3.0, 10.0, 40.0])
def test_numpy_ndtr_is_scipys_bit_for_bit(scale: float) -> None:
    x = np.random.default_rng(int(scale * 10)).normal(0.0, scale, 200_000)
    np.testing.assert_array_equal(normal._ndtr(x), scipy_ndtr(x))


def test_edges_and_branch_ends() -> None:
    r = np.sqrt(2.0)
    x = np.array([0.0, -0.0, np.inf, -np.inf, 1e-300, 38.0, -38.0, -39.0, 8 * r, -8 * r, r, -r])
    x = np.concatenate([x, np.nextafter(x, np.inf), np.nextafter(x, -np.inf), [1.0, -1.0]])
    np.testing.assert_array_equal(normal._ndtr(x), scipy_ndtr(x))
    assert np.isnan(normal._ndtr(np.array([np.nan]))[0])


def test_shapes_and_scalars_like_scipy() -> None:
    assert normal.ndtr([[0.1, 0.2, 0.3]]).shape == (1, 3)
    assert float(normal.ndtr(0.25)) == float(scipy_ndtr(0.25))
    big = np.linspace(-9, 9, normal.SCIPY_FROM + 1)
    np.testing.assert_array_equal(normal.ndtr(big), scipy_ndtr(big))


def test_small_work_does_not_import_scipy() -> None:
    code = (
        "import sys\nfrom knockout.rules.model.normal import ndtr\nndtr([0.1, 2.0])\n"
        "print('scipy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
