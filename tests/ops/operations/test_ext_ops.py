"""MindSpore 2.x's Ext Primitives that mindformers imports from ``ops.auto_generate`` compute their ops.

MindSpore 2.10 registers these kernels on Ascend only (on CPU: "The kernel StackExt unregistered"),
so values are checked against NumPy; signatures are MindSpore 2.10's (recorded with inspect).
"""
import inspect

import numpy as np
import pytest

from sporax import Tensor
import sporax.ops.operations as P

X = np.array([[1.5, -2.0, 3.0, 0.5], [4.0, -1.0, 2.5, -3.5]], np.float32)


def test_signatures_are_mindspore_2_10s():
    assert str(inspect.signature(P.StackExt.__init__)) == "(self, dim=0)"
    assert str(inspect.signature(P.OneHotExt.__init__)) == "(self, axis=-1)"
    assert str(inspect.signature(P.Scatter.__call__)) == "(self, input, dim, index, src, reduce='none')"
    assert str(inspect.signature(P.GroupedMatmul.__init__)) == (
        "(self, split_item=0, group_type=-1, transpose_a=False, transpose_b=False)")
    assert P.StackExt(dim=1).dim == 1 and P.StackExt().name == "StackExt"


def test_values_against_numpy():
    x = Tensor(X)
    np.testing.assert_array_equal(P.StackExt(1)((x, x)).asnumpy(), np.stack((X, X), 1))
    np.testing.assert_array_equal(P.OneHotExt()(Tensor(np.array([0, 2, 1])), 3, Tensor(1), Tensor(0)).asnumpy(),
                                  np.eye(3, dtype=np.int64)[[0, 2, 1]])
    index = np.array([[1, 0], [3, 2]])
    expected = X.copy()
    np.put_along_axis(expected, index, 1.0, 1)
    np.testing.assert_array_equal(P.Scatter()(x, 1, Tensor(index), Tensor(np.ones((2, 2), np.float32))).asnumpy(),
                                  expected)
    values, indices = P.TopkExt()(x, 2)
    np.testing.assert_array_equal(values.asnumpy(), -np.sort(-X, 1)[:, :2])
    np.testing.assert_array_equal(indices.asnumpy(), np.argsort(-X, 1)[:, :2])
    np.testing.assert_allclose(P.CumsumExt()(x, 1).asnumpy(), np.cumsum(X, 1))
    values, indices = P.SortExt()(x, 1, True)
    np.testing.assert_array_equal(values.asnumpy(), -np.sort(-X, 1))
    np.testing.assert_allclose(P.FmodScalar()(x, 1.5).asnumpy(), np.fmod(X, 1.5))
    first, second = np.split(X, 2, -1)
    np.testing.assert_allclose(P.Swiglu()(x).asnumpy(), first / (1 + np.exp(-first)) * second, rtol=1e-6)
    np.testing.assert_array_equal(P.Outer()(Tensor([1.0, 2.0]), Tensor([3.0, 4.0, 5.0])).asnumpy(),
                                  np.outer([1, 2], [3, 4, 5]))


def test_scatter_reduce_must_be_a_string_as_in_mindspore():
    with pytest.raises(TypeError, match="'reduce' should be a str"):
        P.Scatter()(Tensor(X), 1, Tensor(np.array([[1], [0]])), Tensor(np.ones((2, 1), np.float32)), 0)


def test_grouped_matmul_groups_rows_by_their_end_rows():
    rng = np.random.RandomState(0)
    x, w = rng.randn(5, 3).astype(np.float32), rng.randn(2, 3, 4).astype(np.float32)
    out = P.GroupedMatmul(split_item=3, group_type=0)([Tensor(x)], [Tensor(w)], None, None, None, None, None,
                                                      Tensor(np.array([2, 4])))
    # rows 0-1 use expert 0, rows 2-3 expert 1, row 4 lies past the last group: zeros
    expected = np.concatenate([x[:2] @ w[0], x[2:4] @ w[1], np.zeros((1, 4), np.float32)])
    np.testing.assert_allclose(out[0].asnumpy(), expected, rtol=1e-5, atol=1e-6)
    pairs = P.GroupedMatmul()([Tensor(x), Tensor(x[:2])], [Tensor(w[0]), Tensor(w[1])])
    np.testing.assert_allclose(pairs[1].asnumpy(), x[:2] @ w[1], rtol=1e-5, atol=1e-6)
    with pytest.raises(NotImplementedError, match="GroupedMatmul.*Ascend"):
        P.GroupedMatmul()([Tensor(x)], [Tensor(w[0])], None, Tensor(np.ones(4, np.float32)))
