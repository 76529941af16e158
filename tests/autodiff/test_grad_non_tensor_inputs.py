"""Gradients at positions holding a non-Tensor input (int, float, tuple, list), as MindSpore 2.10.

MindSpore differentiates only Tensor inputs: the others are left out of the result. Recorded with
the oracle (PYNATIVE and GRAPH agree): ``grad(f, 1)(x, 3, 2.0)`` -> ``()``; ``grad(f, (0, 2))`` ->
a single Tensor; ``GradOperation(get_all=True)`` -> a tuple of the Tensor inputs' gradients.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops


class Triple(nn.Cell):
    def construct(self, x, count, scale):
        return x * 3


class Reshape(nn.Cell):
    def construct(self, x, shape):
        return ops.reshape(x, shape) * 2


x = Tensor(np.ones((2, 3), np.float32))

CASES = [
    ("int position alone", lambda: ms.grad(Triple(), grad_position=1)(x, 3, 2.0), ()),
    ("non-Tensor positions only", lambda: ms.grad(Triple(), grad_position=(1, 2))(x, 3, 2.0), ()),
    ("one Tensor left is a single Tensor", lambda: ms.grad(Triple(), grad_position=(0, 2))(x, 3, 2.0),
     np.full((2, 3), 3.0)),
    ("list input left out", lambda: ms.grad(Triple(), grad_position=(0, 1, 2))(x, [1, 2], 2.0),
     np.full((2, 3), 3.0)),
    ("get_all with an int", lambda: ops.GradOperation(get_all=True)(Triple())(x, 1, 2),
     (np.full((2, 3), 3.0),)),
    ("get_all with a shape tuple", lambda: ops.GradOperation(get_all=True)(Reshape())(x, (3, 2)),
     (np.full((2, 3), 2.0),)),
]


def _check(result, expected):
    if isinstance(expected, tuple):
        assert isinstance(result, tuple) and len(result) == len(expected)
        for item, want in zip(result, expected):
            _check(item, want)
    else:
        assert isinstance(result, Tensor)
        np.testing.assert_allclose(result.asnumpy(), expected)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("name,run,expected", CASES, ids=[case[0] for case in CASES])
def test_non_tensor_positions(mode, name, run, expected):
    ms.set_context(mode=mode)
    try:
        _check(run(), expected)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
