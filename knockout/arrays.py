"""The numpy array types every module writes its signatures with, defined once."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["BoolArray", "FloatArray", "Int64Array", "IntArray"]

#: Real numbers (probabilities, ratings, minutes).
FloatArray = npt.NDArray[np.float64]
#: Truth values (a decision, membership).
BoolArray = npt.NDArray[np.bool_]
#: Indices and positions (numpy's ``intp``).
IntArray = npt.NDArray[np.intp]
#: Counts and sums of counts (64-bit whatever the platform).
Int64Array = npt.NDArray[np.int64]
