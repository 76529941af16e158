"""vmap, jvp, vjp, jacfwd, jacrev: outputs recorded from MindSpore 2.10."""
import numpy as np
import pytest

import sporax.autodiff as ad
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from tests.state.helpers import add, as_numpy, mul, tensor, total, wrap

x = tensor([1.0, 2.0])
y = tensor([3.0, 4.0])


def _check(actual, expected):
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected), (actual, expected)
        for item, want in zip(actual, expected):
            _check(item, want)
    else:
        np.testing.assert_allclose(as_numpy(actual), np.asarray(expected, np.float32))


def square(a):
    return mul(a, a)


def test_vmap_in_axes_and_out_axes():
    batch = tensor(np.ones((3, 2)))
    _check(ad.vmap(mul, (0, None))(batch, y), [[3.0, 4.0]] * 3)
    _check(ad.vmap(mul, (0, None), 1)(batch, y), [[3.0, 3.0, 3.0], [4.0, 4.0, 4.0]])


def test_jvp():
    _check(ad.jvp(mul, (x, y), (tensor([1.0, 1.0]), tensor([0.0, 0.0]))), ([3.0, 8.0], [3.0, 4.0]))
    _check(ad.jvp(square, x, tensor([1.0, 1.0])), ([1.0, 4.0], [2.0, 4.0]))
    _check(ad.jvp(lambda a: (mul(a, a), a), x, tensor([1.0, 1.0]), has_aux=True),
           ([1.0, 4.0], [2.0, 4.0], [1.0, 2.0]))


def test_vjp():
    output, vjp_fn = ad.vjp(mul, x, y)
    _check(output, [3.0, 8.0])
    _check(vjp_fn(tensor([1.0, 1.0])), ([3.0, 4.0], [1.0, 2.0]))
    output, vjp_fn = ad.vjp(square, x)
    _check(vjp_fn(tensor([1.0, 1.0])), ([2.0, 4.0],))
    output, vjp_fn, aux = ad.vjp(lambda a: (mul(a, a), add(a, tensor(1.0))), x, has_aux=True)
    _check((output, aux), ([1.0, 4.0], [2.0, 3.0]))
    _check(vjp_fn(tensor([1.0, 1.0])), ([2.0, 4.0],))


# What MindSpore 2.10 (PyNative) raises for a cotangent that does not match the output, recorded with
# `out, fn = ms.vjp(lambda x: x * 2, ms.Tensor(np.arange(4, dtype=np.float32)))`: the per-row Jacobian loop of
# the Jacobians/Hessians tutorial hands vjp_fn one scalar (RuntimeError); other shapes ValueError; a dtype TypeError.
@pytest.mark.parametrize("cotangent, error, first_line", [
    (np.ones((), np.float32), RuntimeError, "For grad interface or custom function, grad tensor should be broadcast "
                                            "to expected shape, but got [const vector]{} vs [const vector]{4}"),
    (np.ones((1, 4), np.float32), ValueError, "The shape should be [const vector]{4}, but got [const vector]{1, 4}"),
    (np.ones((3,), np.float32), ValueError, "The shape should be [const vector]{4}, but got [const vector]{3}"),
    (np.ones((4,), np.float64), TypeError, "The dtype should be Float32, but got Float64"),
])
def test_vjp_cotangent_of_another_shape_or_dtype_raises_as_mindspore(cotangent, error, first_line):
    output, vjp_fn = ad.vjp(lambda a: add(a, a), tensor(np.arange(4)))
    with pytest.raises(error) as info:
        vjp_fn(Tensor(cotangent))
    assert str(info.value).startswith(first_line)
    _check(vjp_fn(tensor(np.ones(4))), ([2.0, 2.0, 2.0, 2.0],))


def test_vjp_with_weights():
    class Net(Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(tensor([0.5, 2.0]), name="w")
            self.b = Parameter(tensor([1.0]), name="b")

        def construct(self, x, y):
            return add(total(mul(x, y, self.w)), total(self.b))

    net = Net()
    output, vjp_fn = ad.vjp(net, x, y, weights=net.trainable_params())
    _check(output, 18.5)
    _check(vjp_fn(tensor(1.0)), (([1.5, 8.0], [0.5, 4.0]), ([3.0, 8.0], [1.0])))
    np.testing.assert_allclose(net.w.asnumpy(), [0.5, 2.0])


def test_jacobians():
    _check(ad.jacfwd(square)(x), [[2.0, 0.0], [0.0, 4.0]])
    expected = ([[3.0, 0.0], [0.0, 4.0]], [[1.0, 0.0], [0.0, 2.0]])
    _check(ad.jacfwd(mul, (0, 1))(x, y), expected)
    _check(ad.jacrev(mul, (0, 1))(x, y), expected)
    _check(ad.jacrev(lambda a: (mul(a, a), a), has_aux=True)(x), ([[2.0, 0.0], [0.0, 4.0]], [1.0, 2.0]))
    _check(ad.jacfwd(lambda a: (mul(a, a), a), has_aux=True)(x), ([[2.0, 0.0], [0.0, 4.0]], [1.0, 2.0]))


def test_hessian_by_nesting():
    hessian = ad.jacfwd(ad.jacrev(lambda a: total(mul(a, a, a))))(x)
    _check(hessian, [[6.0, 0.0], [0.0, 12.0]])
    assert wrap is not None


def test_difference_state_written_inside_a_transform_is_discarded():
    """sporax restores Parameters a function writes inside vmap/jvp/vjp/jacfwd/jacrev (grad and
    value_and_grad do keep such updates); the transform never leaves a tracer behind."""
    from tests.state.helpers import MovingMean

    cell = MovingMean(2).set_train()
    batch = tensor(np.ones((3, 4, 2)))
    out = ad.vmap(cell)(batch)
    assert out.shape == (3, 4, 2)
    np.testing.assert_allclose(cell.moving_mean.asnumpy(), [0.0, 0.0])
    _check(ad.jacrev(lambda x: total(cell(x)))(tensor(np.ones((1, 2)))), [[1.0, 1.0]])


def test_vmap_of_a_cell_list_ensembles_its_models():
    # mindspore.vmap's documented model ensembling: cell i runs on slice i of the mapped inputs (MindSpore 2.10:
    # two (3 -> 2) Linear cells of ones on ones((2, 4, 3)) give shape (2, 4, 2))
    import sporax as ms
    from sporax import nn as ms_nn, ops as ms_ops

    class Scaled(ms_nn.Cell):
        def __init__(self, scale):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.full((3, 2), scale, np.float32)), name="w")

        def construct(self, v, bias):
            return ms_ops.matmul(v, self.w) + bias

    inputs = np.arange(24, dtype=np.float32).reshape(2, 4, 3)
    bias = np.array([1.0, -1.0], np.float32)
    out = ms.vmap(ms_nn.CellList([Scaled(1.0), Scaled(2.0)]), in_axes=(0, None), out_axes=1)(
        ms.Tensor(inputs), ms.Tensor(bias))
    expected = np.stack([inputs[0] @ np.full((3, 2), 1.0) + bias, inputs[1] @ np.full((3, 2), 2.0) + bias], 1)
    np.testing.assert_allclose(out.asnumpy(), expected)
    with pytest.raises(ValueError, match="CellList"):
        ms.vmap(ms_nn.CellList([Scaled(1.0)] * 3))(ms.Tensor(inputs), ms.Tensor(np.ones((2, 2), np.float32)))
    # in_axes=None (the vmap docs page's ensemble inference): every cell takes the inputs whole; MindSpore 2.10
    # gives a (2, 4, 2) Float32 Tensor with these values (the outputs were Tensors wrapping Tensors: dtype raised)
    whole = ms.vmap(ms_nn.CellList([Scaled(1.0), Scaled(2.0)]), in_axes=None)(ms.Tensor(inputs[0]), ms.Tensor(bias))
    assert whole.dtype == ms.float32 and whole.shape == (2, 4, 2)
    np.testing.assert_array_equal(whole.asnumpy(), [[[4, 2], [13, 11], [22, 20], [31, 29]],
                                                     [[7, 5], [25, 23], [43, 41], [61, 59]]])
