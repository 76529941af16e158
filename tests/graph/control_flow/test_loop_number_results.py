"""A number a loop over a Tensor's rows carries: MindSpore 2.10's graph unrolls the loop, so ``s = s + row.sum()``
makes ``s`` a Tensor, while ``i += 1`` and ``s += row[0]`` keep a Python number (graph.control_flow.loops,
state.arguments.MutableScalar). Every value was printed by MindSpore 2.10 (CPU, ``ms.jit``)."""
import numpy as np

import sporax as ms
from sporax import Tensor


def _rows():
    return Tensor(np.arange(6).reshape(3, 2).astype(np.float32))


def test_a_number_plus_a_tensor_in_the_body_is_a_tensor_after_the_loop():
    @ms.jit
    def total(x):
        s = 0
        i = 0
        f = 0.5
        for row in x:
            s = s + row.sum()
            i += 1
            f = f * 2
        return s, i, f

    s, i, f = total(_rows())
    # MindSpore 2.10: (Tensor(shape=[], dtype=Float32, value= 15), 3, 4.0)
    assert isinstance(s, Tensor) and s.shape == () and s.asnumpy().item() == 15.0
    assert (i, f) == (3, 4.0) and type(i) is int and type(f) is float


def test_an_augmented_number_stays_a_number():
    @ms.jit
    def first_column(x):
        s = 0
        for row in x:
            s += row[0]
        return s

    result = first_column(_rows())
    # MindSpore 2.10: 6.0
    assert type(result) is float and result == 6.0
