"""Gradients with respect to integer inputs, as MindSpore gives them (the real derivative, as an int)."""
import numpy as np

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.autodiff import GradOperation


class Product(nn.Cell):
    def construct(self, x, y):
        out = x * 0
        for _ in range(3):
            out = x * y + out
        return out


class Overflowing(nn.Cell):
    def construct(self, x):
        for _ in range(40):
            x = x * 2  # wraps around in int32
        return ops.relu(x)


class Indexing(nn.Cell):
    def construct(self, x, labels):
        return ops.gather(x, labels, 0).sum()


def test_integer_input_gradient_is_the_derivative_as_an_int():
    x, y = Tensor(np.array(1, np.int32)), Tensor(np.array(3, np.int32))
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        grads = GradOperation(get_all=True)(Product())(x, y)
        assert [int(g.asnumpy()) for g in grads] == [9, 3]
        assert all(g.dtype == ms.int32 for g in grads)
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_integer_gradient_is_zero_where_float_arithmetic_differs():
    grad = GradOperation()(Overflowing())(Tensor(np.array([3], np.int32)))
    np.testing.assert_array_equal(grad.asnumpy(), [0])


def test_integer_labels_used_as_indices_get_zero_gradient():
    x = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    grads = GradOperation(get_all=True)(Indexing())(x, Tensor(np.array([0, 2], np.int32)))
    np.testing.assert_allclose(grads[0].asnumpy(), [[1, 1], [0, 0], [1, 1]])
    np.testing.assert_array_equal(grads[1].asnumpy(), [0, 0])


class CountedLoop(nn.Cell):
    def __init__(self):
        super().__init__()
        self.start = Tensor(np.array(0, np.int32))  # lifted: the loop condition is traced

    def construct(self, x, y):
        i, out = self.start, x * 0
        while i < 3:
            out = x * y + out
            i = i + 1
        return out


def test_integer_gradient_through_a_while_on_a_traced_condition():
    import warnings

    ms.set_context(mode=ms.GRAPH_MODE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the reverse-mode while runs eagerly (warned)
        grad = GradOperation()(CountedLoop())(Tensor(np.array(1, np.int32)), Tensor(np.array(3, np.int32)))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert int(grad.asnumpy()) == 9


class _SparseProduct(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = nn.SparseTensorDenseMatmul(adjoint_st=True, adjoint_dt=True)

    def construct(self, indices, values, shape, dense):
        return self.matmul(indices, values, shape, dense)


def test_integer_operands_beside_index_inputs_get_their_derivative():
    # the indices cannot run as floats: the integer values and dense operands still get their gradients
    indices = np.array([[0, 0], [1, 1], [2, 2], [2, 3]], np.int64)
    values = np.array([2, 3, 4, 5], np.int64)
    dense = np.arange(12, dtype=np.int64).reshape(4, 3)
    grads = GradOperation(get_all=True)(_SparseProduct())(Tensor(indices), Tensor(values), (3, 4), Tensor(dense))
    sparse = np.zeros((3, 4), np.int64)
    sparse[tuple(indices.T)] = values
    # out = S^T D^T: d/dS[i, k] = sum_j D[j, i]; d/dD[j, i] = sum_k S[i, k]
    np.testing.assert_array_equal(grads[1].asnumpy(), dense.sum(axis=0)[indices[:, 0]])
    np.testing.assert_array_equal(grads[2].asnumpy(), np.broadcast_to(sparse.sum(axis=1), (4, 3)))
    assert grads[1].asnumpy().dtype == np.int64 and not grads[0].asnumpy().any()


class ScaledByParameter(nn.Cell):
    def __init__(self, weight):
        super().__init__()
        self.a = Tensor(np.array([[1, 2], [3, 4]]))
        self.weight = weight

    def construct(self, x):
        return self.a * self.weight * x


def test_integer_parameter_gradient_is_the_derivative_as_an_int():
    # MindSpore 2.10 (both modes): d(a*w*x)/dw = a*x, as Int64, not zeros
    previous = ms.get_context("mode")
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        weight = ms.Parameter(Tensor(np.array([[1, 2], [3, 4]])), name="w")
        x = Tensor(np.array([[7, 8], [9, 0]]))
        inputs, weight_grad = GradOperation(get_all=True, get_by_list=True)(ScaledByParameter(weight), weight)(x)
        assert weight_grad.dtype == ms.int64
        np.testing.assert_array_equal(weight_grad.asnumpy(), [[7, 16], [27, 0]])
        np.testing.assert_array_equal(inputs[0].asnumpy(), [[1, 4], [9, 16]])
    ms.set_context(mode=previous)
