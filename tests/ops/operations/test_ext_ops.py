"""MindSpore 2.x's Ext Primitives that mindformers imports from ``ops.auto_generate`` compute their ops.

MindSpore 2.10 registers these kernels on Ascend only (on CPU: "The kernel StackExt unregistered"),
so values are checked against NumPy; signatures are MindSpore 2.10's (recorded with inspect).
"""
import inspect

import numpy as np
import pytest

from sporax import Tensor
from sporax.core import dtype as ms_dtype
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


def test_dropout_ext_output_and_packed_mask():
    # Signature and mask shape/dtype recorded from MindSpore 2.10 (graph-mode shape inference:
    # UInt8, 16 bytes per 128 elements: (3, 4) -> 16, (2, 100) -> 32, (300,) -> 48, (2, 3, 129) -> 112).
    assert str(inspect.signature(P.DropoutExt.__call__)) == "(self, input, p, seed, offset)"
    for shape, mask_bytes in (((3, 4), 16), ((2, 100), 32), ((300,), 48), ((2, 3, 129), 112)):
        x = np.random.RandomState(0).uniform(1, 2, shape).astype(np.float32)
        out, mask = P.DropoutExt()(Tensor(x), 0.25, Tensor(5), Tensor(1))
        out, mask = out.asnumpy(), mask.asnumpy()
        assert mask.shape == (mask_bytes,) and mask.dtype == np.uint8
        keep = np.unpackbits(mask, bitorder="little")[:x.size].reshape(shape).astype(bool)
        np.testing.assert_allclose(out, np.where(keep, x / 0.75, 0), rtol=1e-6)
        assert 0 < keep.mean() < 1
        assert not np.unpackbits(mask, bitorder="little")[x.size:].any()  # padding bits stay 0
    x = Tensor(np.ones((2, 100), np.float32))
    first = P.DropoutExt()(x, 0.5, Tensor(7), Tensor(3))[1].asnumpy()
    np.testing.assert_array_equal(P.DropoutExt()(x, 0.5, Tensor(7), Tensor(3))[1].asnumpy(), first)
    assert not np.array_equal(P.DropoutExt()(x, 0.5, Tensor(7), Tensor(4))[1].asnumpy(), first)
    out, mask = P.DropoutExt()(x, 0.0, Tensor(7), Tensor(3))
    np.testing.assert_array_equal(out.asnumpy(), 1)
    assert np.unpackbits(mask.asnumpy(), bitorder="little")[:200].all()
    with pytest.raises(ValueError, match="DropoutExt.*'p'.*\\[0, 1\\]"):
        P.DropoutExt()(x, 1.5, Tensor(7), Tensor(3))


def test_inplace_copy_broadcasts_casts_and_writes_in_both_modes():
    # MindSpore 2.10 on CPU: a (3,) Int32 src fills a (2, 3) Float32 tensor row by row; a Parameter
    # written in construct reads back [[1, 2], [3, 4]] in PyNative and GRAPH; (4,) into (2, 3) fails.
    import sporax as ms
    from sporax import Parameter, nn

    x = Tensor(np.zeros((2, 3), np.float32))
    result = P.InplaceCopy()(x, Tensor(np.array([1, 2, 3], np.int32)))
    np.testing.assert_array_equal(x.asnumpy(), [[1, 2, 3], [1, 2, 3]])
    assert x.dtype == ms.float32 and result.asnumpy().tolist() == x.asnumpy().tolist()

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="p")
            self.copy = P.InplaceCopy()

        def construct(self, src):
            self.copy(self.p, src)
            return self.p * 2

    src = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            net = Net()
            np.testing.assert_array_equal(net(src).asnumpy(), [[2, 4], [6, 8]])
            np.testing.assert_array_equal(net.p.asnumpy(), [[1, 2], [3, 4]])
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(ValueError, match="InplaceCopy.*shape"):
        P.InplaceCopy()(Tensor(np.zeros((2, 3), np.float32)), Tensor(np.zeros(4, np.float32)))


def test_dim_new_and_slice_primitives_as_mindspore_2_10_prints():
    # Recorded from MindSpore 2.10's ops.auto_generate docstring examples on CPU.
    x = Tensor(np.array([0.0, 0.4, 0.6, 0.7, 0.1], np.float32))
    values, index = P.MaxDim()(x, 0, False)
    assert values.asnumpy().tolist() == pytest.approx(0.7) and index.asnumpy().tolist() == 3
    assert P.MaxDim()(x, 0, True)[0].asnumpy().tolist() == pytest.approx([0.7])
    values, index = P.MinDim()(x, 0, False)
    assert values.asnumpy().tolist() == 0.0 and index.asnumpy().tolist() == 0
    matrix = Tensor(np.arange(1, 10, dtype=np.int32).reshape(3, 3))
    assert P.SliceExtView()(matrix, 0, 0, 2, 1).asnumpy().tolist() == [[1, 2, 3], [4, 5, 6]]
    assert P.SliceExt()(matrix, 1, 1, 3, 1).asnumpy().tolist() == [[2, 3], [5, 6], [8, 9]]
    ones = P.NewOnes()(Tensor(np.int32(0)), (2, 3))
    assert ones.asnumpy().tolist() == [[1, 1, 1]] * 2 and str(ones.dtype) == "Int32"
    assert P.NewZeros()(Tensor(np.int32(0)), (2, 3)).asnumpy().tolist() == [[0, 0, 0]] * 2


def test_remainder_primitives_of_mindir_files():
    # recorded on MindSpore 2.10 CPU in GRAPH mode (``Tensor.__mod__`` exports as RemainderTensorScalar)
    a = Tensor(np.array([-7, 5, -3], np.int32))
    b = Tensor(np.array([-7.5, 5.25, -3.0], np.float32))
    np.testing.assert_array_equal(P.RemainderTensorScalar()(a, 3).asnumpy(), np.array([2, 2, 0], np.int32))
    np.testing.assert_array_equal(P.RemainderTensorScalar()(b, -2.5).asnumpy(), np.array([0, -2.25, -0.5], np.float32))
    out = P.RemainderTensorScalar()(a, -2.5)
    assert out.dtype == ms_dtype.float32
    np.testing.assert_array_equal(out.asnumpy(), np.array([-2, 0, -0.5], np.float32))
    np.testing.assert_array_equal(P.RemainderTensorTensor()(a, Tensor(np.array([2, -3, 2], np.int32))).asnumpy(),
                                  np.array([1, -1, 1], np.int32))
