"""Backward-kernel Primitives of ``ops.operations._grad_ops`` against values recorded from MindSpore 2.10.

The fixture (tests/fixtures/grad_kernels/record.py) calls each kernel on fixed inputs; sporax must
give the same outputs, in PyNative and inside a compiled Cell.
"""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.ops.operations import grad_ops as G

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "grad_kernels", "mindspore.json")
RECORDS = json.load(open(FIXTURE))


def decode(value):
    if value is None or isinstance(value, int):
        return value
    if isinstance(value, list):
        return tuple(value)
    return Tensor(np.array(value["values"], value.get("dtype", "float32")).reshape(value["shape"]))


@pytest.mark.parametrize("record", RECORDS, ids=[f"{r['name']}-{i}" for i, r in enumerate(RECORDS)])
def test_grad_kernel_matches_mindspore(record):
    kernel = getattr(G, record["name"])(**record["kwargs"])
    outputs = kernel(*[decode(value) for value in record["inputs"]])
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    assert len(outputs) == len(record["outputs"])
    for got, want in zip(outputs, record["outputs"]):
        expected = np.array(want["values"], np.float32).reshape(want["shape"])
        np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-4, atol=1e-5, equal_nan=True)


def test_grad_kernels_run_inside_graph_mode_cell():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.relu_grad = G.ReluGrad()
            self.pool_grad = G.MaxPoolGrad(kernel_size=2, strides=2)

        def construct(self, dy, x, pooled_dy):
            return self.relu_grad(dy, x), self.pool_grad(x, x, pooled_dy)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        x = np.array([[[[1.0, -2.0], [3.0, 0.5]]]], np.float32)
        relu, pool = Net()(Tensor(np.ones_like(x)), Tensor(x), Tensor(np.full((1, 1, 1, 1), 2.0, np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(relu.asnumpy(), (x > 0).astype(np.float32))
    np.testing.assert_array_equal(pool.asnumpy(), np.array([[[[0, 0], [2, 0]]]], np.float32))


def test_grad_kernel_shape_mismatch_names_the_inputs():
    with pytest.raises(ValueError, match="For 'ReluGrad', 'y_backprop' and 'x' must have the same shape"):
        G.ReluGrad()(Tensor(np.ones((2,), np.float32)), Tensor(np.ones((3,), np.float32)))


def test_strided_slice_grad_keeps_bool_values():
    dy = Tensor(np.array([False, True, False]))
    out = G.StridedSliceGrad()(dy, (3, 2, 3), (1, 0, 0), (2, 1, 3), (1, 1, 1))
    expected = np.zeros((3, 2, 3), bool)
    expected[1, 0, 1] = True
    assert out.asnumpy().dtype == np.bool_
    np.testing.assert_array_equal(out.asnumpy(), expected)


# MindSpore 2.10 on complex64: x = [-0.5, 0.2, 0.5] * (1 + 0.5j), dy = [1, 0.5, -1] * (1 + 0.3j); the
# kernels divide by the conjugate derivative.
_COMPLEX_RECORDED = {
    "AtanGrad": [0.7554376721382141 + 0.41167110204696655j, 0.4790588319301605 + 0.16423530876636505j,
                 -0.7554376721382141 - 0.41167110204696655j],
    "AsinGrad": [1.12091863155365 + 0.1604861319065094j, 0.5104866623878479 + 0.1417485475540161j,
                 -1.12091863155365 - 0.1604861319065094j],
    "ACosGrad": [-1.12091863155365 - 0.1604861319065094j, -0.5104866623878479 - 0.1417485475540161j,
                 1.12091863155365 + 0.1604861319065094j],
}


@pytest.mark.parametrize("name", sorted(_COMPLEX_RECORDED))
def test_inverse_trig_grad_kernels_conjugate_complex_derivative(name):
    x = np.array([-0.5, 0.2, 0.5]).astype(np.complex64)
    x = x + 0.5j * x
    dy = np.array([1, 0.5, -1]).astype(np.complex64)
    dy = dy + 0.3j * dy
    out = getattr(G, name)()(Tensor(x), Tensor(dy))
    np.testing.assert_allclose(out.asnumpy(), np.array(_COMPLEX_RECORDED[name], np.complex64), rtol=1e-5)


def test_concat_offset_rows_match_mindspore():
    # recorded from MindSpore 2.10: one Int64 row per input, the running size on the axis
    zeros = [Tensor(np.zeros(shape, np.float32)) for shape in ((1, 2), (3, 2), (2, 2))]
    out = G.ConcatOffset(3, 0)(tuple(zeros))
    assert out.dtype == ms.int64
    assert out.asnumpy().tolist() == [[0, 0], [1, 0], [4, 0]]
    pair = (Tensor(np.zeros((2, 3), np.float32)), Tensor(np.zeros((2, 4), np.float32)))
    assert G.ConcatOffset(2, -1)(pair).asnumpy().tolist() == [[0, 0], [0, 3]]
