"""``float``/``int`` of a one-element NumPy array inside compiled code give the number, as MindSpore
2.10's static graph does (its builtin tutorial: ``float(x.asnumpy())`` on a shape-(1,) Tensor gives
-1.0); NumPy 2 itself refuses arrays of rank > 0 there. The host read makes ms.jit run the function
eagerly, and the eager run keeps the graph semantics (it runs the converted function)."""
import warnings

import numpy as np
import pytest

import sporax as ms


def test_float_and_int_of_a_one_element_array():
    @ms.jit
    def func(x):
        return float(x.asnumpy()), int(x.asnumpy() * 2)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the EagerFallbackWarning for asnumpy()
        assert func(ms.tensor([-1], ms.int32)) == (-1.0, -2)  # MindSpore 2.10: -1.0


def test_larger_arrays_still_refused():
    @ms.jit
    def func(x):
        return float(x.asnumpy())

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TypeError):
            func(ms.tensor(np.ones(2, np.float32)))
