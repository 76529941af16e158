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


class MeanOverAxis(nn.Cell):
    def __init__(self):
        super().__init__()
        self.reduce_mean = ops.ReduceMean(keep_dims=False)

    def construct(self, x, axis):
        return self.reduce_mean(x, axis) * 2


def test_an_integer_input_read_as_an_axis_keeps_its_value_and_gets_a_zero_gradient():
    """MindSpore 2.10, both modes: GradOperation(get_all=True) of mean(x, axis) * 2 with axis a Tensor [1] on a
    (2, 3) x gives 2/3 everywhere for x and [0] (int32) for axis."""
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    axis = Tensor(np.array([1], np.int32))
    previous = ms.get_context("mode")
    try:
        for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
            ms.set_context(mode=mode)
            grad_x, grad_axis = GradOperation(get_all=True)(MeanOverAxis())(x, axis)
            np.testing.assert_allclose(grad_x.asnumpy(), np.full((2, 3), 2 / 3, np.float32), rtol=1e-6)
            assert grad_axis.asnumpy().tolist() == [0] and grad_axis.asnumpy().dtype == np.int32
    finally:
        ms.set_context(mode=previous)


class IndexAddIntoParameter(nn.Cell):
    def __init__(self, x, dtype):
        super().__init__()
        self.x = ms.Parameter(Tensor(x.astype(dtype)), name="x")
        self.index_add = ops.IndexAdd(1)

    def construct(self, index, y):
        return self.index_add(self.x, index, y)


def test_integer_parameter_gets_its_gradient_beside_integer_inputs():
    # MindSpore 2.10 differentiates integer Parameters too: IndexAdd's gradient is the sensitivity for x
    # and its gathered columns for y, in the Parameter's and the input's integer dtype.
    for dtype in (np.int32, np.uint8):
        for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
            ms.set_context(mode=mode)
            net = IndexAddIntoParameter(np.arange(15).reshape(5, 3), dtype)
            dout = (np.arange(15).reshape(5, 3) + 63).astype(dtype)
            index = np.array([1], np.int32)
            grad = GradOperation(get_all=True, get_by_list=True, sens_param=True)(net, ms.ParameterTuple([net.x]))
            (index_grad, y_grad), (x_grad,) = grad(Tensor(index), Tensor(np.arange(5).reshape(5, 1).astype(dtype)),
                                                   Tensor(dout))
            np.testing.assert_array_equal(x_grad.asnumpy(), dout)
            np.testing.assert_array_equal(y_grad.asnumpy(), dout[:, index])
            np.testing.assert_array_equal(index_grad.asnumpy(), np.zeros(1, np.int32))
            assert x_grad.asnumpy().dtype == y_grad.asnumpy().dtype == dtype
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_float_parameter_gradient_is_unchanged_beside_an_integer_input():
    class Scale(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")

        def construct(self, x):
            return (self.w * x).sum()

    net = Scale()
    (x_grad,), (w_grad,) = GradOperation(get_all=True, get_by_list=True)(net, ms.ParameterTuple([net.w]))(
        Tensor(np.array([4, 5], np.int32)))
    np.testing.assert_array_equal(w_grad.asnumpy(), [4.0, 5.0])
    np.testing.assert_array_equal(x_grad.asnumpy(), [2, 3])


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


class _SparseToDense(nn.Cell):
    def __init__(self):
        super().__init__()
        self.to_dense = ops.SparseToDense()

    def construct(self, indices, values, shape):
        return self.to_dense(indices, values, shape)


def test_bool_input_gets_its_gradient_as_bool():
    """MindSpore 2.10, both modes: GradOperation(get_all=True, sens_param=True) of SparseToDense with Bool values
    [True, True] at [[0, 1], [1, 2]] into (3, 3), sensitivity arange(9) as Bool, gives the values [True, True]
    (Bool) and the indices [[0, 0], [0, 0]] (Int32)."""
    indices = Tensor(np.array([[0, 1], [1, 2]], np.int32))
    values = Tensor(np.array([True, True]))
    sens = Tensor(np.arange(9).reshape(3, 3).astype(np.bool_))
    previous = ms.get_context("mode")
    try:
        for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
            ms.set_context(mode=mode)
            grads = GradOperation(get_all=True, sens_param=True)(_SparseToDense())(indices, values, (3, 3), sens)
            assert grads[1].dtype == ms.bool_ and grads[1].asnumpy().tolist() == [True, True]
            assert grads[0].dtype == ms.int32 and not grads[0].asnumpy().any()
    finally:
        ms.set_context(mode=previous)
