"""NumPy on the left of a Tensor computes in NumPy (MindSpore 2.10: the Tensor converts to an ndarray).

Recorded from MindSpore 2.10: ``np.array([1, 0, 3]) == Tensor([1, 2, 3])`` is the ndarray
``[True, False, True]`` and ``array - tensor`` an ndarray; ``tensor == array`` stays the Python bool
``False``. Inside a trace the ufunc runs in jax.numpy and gives a Tensor (a graph constant).
"""
import numpy as np

import sporax as ms
from sporax import Tensor, nn

LEFT = np.array([1.0, 0.0, 3.0], np.float32)
RIGHT = Tensor(np.array([1.0, 2.0, 3.0], np.float32))


def test_comparison_with_ndarray_on_the_left_is_elementwise_ndarray():
    result = LEFT == RIGHT
    assert isinstance(result, np.ndarray) and result.tolist() == [True, False, True]
    assert (LEFT != RIGHT).tolist() == [False, True, False]
    assert (LEFT < RIGHT).tolist() == [False, True, False]
    assert (np.float32(1.0) == RIGHT).tolist() == [True, False, False]


def test_arithmetic_with_ndarray_on_the_left_gives_ndarray():
    result = LEFT - RIGHT
    assert isinstance(result, np.ndarray) and result.dtype == np.float32
    assert result.tolist() == [0.0, -2.0, 0.0]
    assert (LEFT * RIGHT).tolist() == [1.0, 0.0, 9.0]


def test_tensor_on_the_left_keeps_mindspore_rules():
    assert (RIGHT == LEFT) is False
    assert isinstance(RIGHT + LEFT, Tensor)


def test_ndarray_left_operand_inside_graph_mode_is_a_constant():
    class Net(nn.Cell):
        def construct(self, x):
            return np.array([1.0, 2.0], np.float32) * x

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = Net()(Tensor(np.array([3.0, 4.0], np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert isinstance(out, Tensor) and out.asnumpy().tolist() == [3.0, 8.0]
