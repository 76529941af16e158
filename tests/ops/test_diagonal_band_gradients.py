"""MatrixDiagPartV3 under GradOperation with ``padding_value`` (and ``k``) as the network's Tensor inputs.

Recorded on MindSpore 2.10 CPU in both modes: x (2, 3, 4) as below, k = Tensor([-1, 1]) (Int32), padding_value
= Tensor(7.0), align 'RIGHT_LEFT', sens = arange(18).reshape(2, 3, 3). MindSpore's gradient gives padding_value
0.0 (sporax's derivative would give 25.0, the sens of the padded slots) and k zeros. Before, sporax refused a
traced padding_value ("must be known when the op is compiled"), so MindSpore's dynamic-shape gradient test of
this op failed."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax import dtype as mstype

X = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 8, 7, 6]], [[5, 4, 3, 2], [1, 2, 3, 4], [5, 6, 7, 8]]]
FORWARD = [[[2.0, 7.0, 6.0], [1.0, 6.0, 7.0], [5.0, 8.0, 7.0]], [[4.0, 3.0, 8.0], [5.0, 2.0, 7.0], [1.0, 6.0, 7.0]]]
GRAD_X = [[[3.0, 0.0, 0.0, 0.0], [6.0, 4.0, 1.0, 0.0], [0.0, 7.0, 5.0, 2.0]],
          [[12.0, 9.0, 0.0, 0.0], [15.0, 13.0, 10.0, 0.0], [0.0, 16.0, 14.0, 11.0]]]


class Band(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = ops.MatrixDiagPartV3(align="RIGHT_LEFT")

    def construct(self, x, k, padding_value):
        return self.op(x, k, padding_value)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_padding_value_input_gets_mindspores_zero_gradient(mode):
    x = Tensor(np.array(X), mstype.float32)
    k, padding = Tensor(np.array([-1, 1]), mstype.int32), Tensor(7, mstype.float32)
    sens = Tensor(np.arange(18).reshape(2, 3, 3).astype(np.float32))
    ms.set_context(mode=mode)
    try:
        out = Band()(x, k, padding)
        grad_x, grad_k, grad_padding = ops.GradOperation(get_all=True, sens_param=True)(Band())(x, k, padding, sens)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(out.asnumpy(), FORWARD)
    np.testing.assert_array_equal(grad_x.asnumpy(), GRAD_X)
    np.testing.assert_array_equal(grad_k.asnumpy(), [0, 0])
    assert float(grad_padding.asnumpy()) == 0.0


class Diagonal(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = ops.MatrixDiagV3(align="LEFT_RIGHT")

    def construct(self, x, k, num_rows, num_cols, padding_value):
        return self.op(x, k, num_rows, num_cols, padding_value)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_matrix_diag_padding_value_input_gets_mindspores_zero_gradient(mode):
    """MindSpore 2.10 CPU, both modes (tests/st's dynamic-shape gradient test of MatrixDiagV3): x [[8, 9, 0], [1, 2,
    3], [0, 4, 5]], k Tensor([-1, 1]), num_rows = num_cols = Tensor(3), padding_value Tensor(11.0), align
    'LEFT_RIGHT' give [[1, 8, 11], [4, 2, 9], [11, 5, 3]]; GradOperation(get_all=True) gives x [[1, 1, 0], [1, 1, 1],
    [0, 1, 1]], k [0, 0], num_rows 0, num_cols 0 and padding_value 0.0 (the derivative would be 2.0)."""
    x = Tensor(np.array([[8, 9, 0], [1, 2, 3], [0, 4, 5]]), mstype.float32)
    args = (x, Tensor(np.array([-1, 1]), mstype.int32), Tensor(3, mstype.int32), Tensor(3, mstype.int32),
            Tensor(11, mstype.float32))
    ms.set_context(mode=mode)
    try:
        out = Diagonal()(*args)
        grads = ops.GradOperation(get_all=True)(Diagonal())(*args)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(out.asnumpy(), [[1, 8, 11], [4, 2, 9], [11, 5, 3]])
    np.testing.assert_array_equal(grads[0].asnumpy(), [[1, 1, 0], [1, 1, 1], [0, 1, 1]])
    np.testing.assert_array_equal(grads[1].asnumpy(), [0, 0])
    assert [int(grads[2].asnumpy()), int(grads[3].asnumpy()), float(grads[4].asnumpy())] == [0, 0, 0.0]
