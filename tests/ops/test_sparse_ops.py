"""Sparse ops (``ops.dense_to_sparse_*``, ``ops.csr_*``, ``ops.coo_*``): values vs NumPy dense references,
MindSpore 2.10's recorded outputs (tests/fixtures/sparse_mindspore.json), gradients vs finite differences."""
import json
import os

import jax
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops
from sporax.core import COOTensor, CSRTensor, RowTensor
from sporax.ops.functional.sparse import (row_tensor_get_dense_shape, row_tensor_get_indices, row_tensor_get_values,
                                         sparse_tensor_dense_matmul, sparse_to_dense)

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "sparse_mindspore.json")
with open(FIXTURE) as _handle:
    ORACLE = json.load(_handle)["ops"]

CSR_DENSE = np.array([[1, 0, 0, 2], [0, 3, 0, 0], [0, 0, 0, 0]], np.float32)


def csr_example():
    return CSRTensor(Tensor([0, 2, 3, 3], ms.int32), Tensor([0, 3, 1], ms.int32), Tensor([1.0, 2.0, 3.0]), (3, 4))


def coo_example():
    return COOTensor(Tensor([[0, 1], [1, 2]], ms.int32), Tensor([-1.0, 0.5]), (3, 4))


def random_csr(seed, shape, density=0.4):
    rng = np.random.default_rng(seed)
    dense = rng.normal(size=shape).astype(np.float32) * (rng.random(shape) < density)
    return ops.dense_to_sparse_csr(Tensor(dense)), dense


# --- recorded MindSpore outputs ---------------------------------------------------------------
@pytest.mark.parametrize("name, compute", [
    ("dense_to_sparse_coo", lambda: ops.dense_to_sparse_coo(Tensor([[0, 1.5], [2, 0]], ms.float32))),
    ("dense_to_sparse_csr", lambda: ops.dense_to_sparse_csr(Tensor([[0, 1.5], [2, 0]], ms.float32))),
    ("csr_mv", lambda: ops.csr_mv(csr_example(), Tensor(np.arange(4).reshape(4, 1).astype(np.float32)))),
    ("csr_mm_dense", lambda: csr_example().mm(Tensor(np.arange(8).reshape(4, 2).astype(np.float32)))),
    ("csr_sum", lambda: ops.csr_reduce_sum(csr_example(), 1)),
    ("csr_to_coo", lambda: ops.csr_to_coo(csr_example())),
    ("csr_to_dense", lambda: ops.csr_to_dense(csr_example())),
    ("coo2csr", lambda: ops.coo2csr(Tensor([0, 1, 1], ms.int32), 3)),
    ("csr2coo", lambda: ops.csr2coo(Tensor([0, 1, 3], ms.int32), 3)),
    ("csr_softmax", lambda: ops.csr_softmax(csr_example(), ms.float32)),
    ("csr_div_dense", lambda: ops.csr_div(csr_example(), Tensor(np.arange(12).reshape(3, 4).astype(np.float32) + 1))),
])
def test_matches_mindspore(name, compute):
    assert repr(compute()) == ORACLE[name]


def test_tensor_style_conversions_of_a_dense_matrix():
    dense = np.arange(12).reshape(3, 4).astype(np.float32)
    coo = ops.dense_to_sparse_coo(Tensor(dense))
    assert coo.indices.dtype == ms.int32 and coo.size == 11
    np.testing.assert_array_equal(coo.to_dense().asnumpy(), dense)
    csr = ops.dense_to_sparse_csr(Tensor(dense))
    np.testing.assert_array_equal(csr.indptr.asnumpy(), [0, 3, 7, 11])
    np.testing.assert_array_equal(csr.to_dense().asnumpy(), dense)


# --- getters and constructors -----------------------------------------------------------------
def test_getters_and_make_functions():
    coo, csr = coo_example(), csr_example()
    assert ops.coo_tensor_get_values(coo) is coo.values
    assert ops.coo_tensor_get_indices(coo) is coo.indices
    assert ops.coo_tensor_get_dense_shape(coo) == (3, 4)
    assert ops.csr_tensor_get_indptr(csr) is csr.indptr
    assert ops.csr_tensor_get_indices(csr) is csr.indices
    assert ops.csr_tensor_get_values(csr) is csr.values
    assert ops.csr_tensor_get_dense_shape(csr) == (3, 4)
    assert repr(ops.make_coo_tensor(coo.indices, coo.values, (3, 4))) == repr(coo)
    assert repr(ops.make_csr_tensor(csr.indptr, csr.indices, csr.values, (3, 4))) == repr(csr)
    row = ops.make_row_tensor(Tensor([1], ms.int32), Tensor([[1.0, 2.0]]), (3, 2))
    assert isinstance(row, RowTensor) and row.dense_shape == (3, 2)
    assert row_tensor_get_indices(row) is row.indices and row_tensor_get_values(row) is row.values
    assert row_tensor_get_dense_shape(row) == (3, 2)


# --- products ---------------------------------------------------------------------------------
@pytest.mark.parametrize("trans_a, trans_b, adjoint_a, adjoint_b", [
    (False, False, False, False), (True, False, False, False), (False, True, False, False),
    (False, False, True, True),
])
def test_csr_mm_against_dense_product(trans_a, trans_b, adjoint_a, adjoint_b):
    # square operands: every variant reuses the same compiled kernels
    a, dense_a = random_csr(0, (4, 4))
    b, dense_b = random_csr(1, (4, 4))
    result = ops.csr_mm(a, b, trans_a=trans_a, trans_b=trans_b, adjoint_a=adjoint_a, adjoint_b=adjoint_b)
    assert isinstance(result, CSRTensor)
    left = dense_a.T if (trans_a or adjoint_a) else dense_a
    right = dense_b.T if (trans_b or adjoint_b) else dense_b
    np.testing.assert_allclose(result.to_dense().asnumpy(), left @ right, rtol=1e-5, atol=1e-6)


def test_csr_mm_of_a_dense_matrix_against_dense():
    csr, dense = random_csr(2, (4, 4))
    x = np.random.default_rng(3).normal(size=(4, 2)).astype(np.float32)
    np.testing.assert_allclose(csr.mm(Tensor(x)).asnumpy(), dense @ x, rtol=1e-5, atol=1e-6)


def test_sparse_to_dense_and_sparse_tensor_dense_matmul():
    indices = Tensor([[0, 1], [2, 3], [0, 1]], ms.int64)
    values = Tensor([1.0, 2.0, 4.0])
    # MindSpore 2.10: SparseToDense keeps the last value of the repeated index [0, 1] ([[0, 4, 0, 0], [0, 0, 0, 0],
    # [0, 0, 0, 2]]); SparseTensorDenseMatmul adds them up ([[10, 15], [0, 0], [12, 14]] for x = arange(8) (4, 2))
    written_last = np.zeros((3, 4), np.float32)
    written_last[0, 1], written_last[2, 3] = 4, 2
    np.testing.assert_array_equal(sparse_to_dense(indices, values, (3, 4)).asnumpy(), written_last)
    expected = np.zeros((3, 4), np.float32)
    expected[0, 1], expected[2, 3] = 5, 2
    x = np.arange(8).reshape(4, 2).astype(np.float32)
    np.testing.assert_allclose(sparse_tensor_dense_matmul(indices, values, (3, 4), Tensor(x)).asnumpy(), expected @ x)
    y = np.arange(6).reshape(3, 2).astype(np.float32)
    np.testing.assert_allclose(
        sparse_tensor_dense_matmul(indices, values, (3, 4), Tensor(y.T), adjoint_st=True, adjoint_dt=True).asnumpy(),
        expected.T @ y)


# --- gradients --------------------------------------------------------------------------------
def _numeric_grad(function, array, eps=1e-3):
    grad = np.zeros_like(array, np.float64)
    for index in np.ndindex(array.shape):
        plus, minus = array.copy(), array.copy()
        plus[index] += eps
        minus[index] -= eps
        grad[index] = (function(plus) - function(minus)) / (2 * eps)
    return grad


def test_csr_softmax_gradient_matches_finite_differences():
    csr = csr_example()
    weights = np.array([0.5, -1.0, 2.0], np.float32)

    def loss(values):
        logits = CSRTensor(csr.indptr, csr.indices, values, (3, 4))
        return (ops.csr_softmax(logits, ms.float32).values * Tensor(weights)).sum()

    start = np.array([0.3, -0.2, 1.0], np.float32)
    analytic = ms.grad(loss)(Tensor(start)).asnumpy()
    numeric = _numeric_grad(lambda v: float(loss(Tensor(v)).asnumpy()), start)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-2, atol=1e-3)


def test_sparse_dense_matmul_gradients():
    indices = Tensor([[0, 1], [2, 3], [1, 0]], ms.int64)
    x = np.arange(8).reshape(4, 2).astype(np.float32) / 8
    start = np.array([1.0, -2.0, 0.5], np.float32)

    def loss(values, dense):
        return (sparse_tensor_dense_matmul(indices, values, (3, 4), dense) ** 2).sum()

    grad_values, grad_x = ms.grad(loss, grad_position=(0, 1))(Tensor(start), Tensor(x))
    numeric_values = _numeric_grad(lambda v: float(loss(Tensor(v), Tensor(x)).asnumpy()), start)
    numeric_x = _numeric_grad(lambda v: float(loss(Tensor(start), Tensor(v)).asnumpy()), x)
    np.testing.assert_allclose(grad_values.asnumpy(), numeric_values, rtol=1e-2, atol=1e-3)
    np.testing.assert_allclose(grad_x.asnumpy(), numeric_x, rtol=1e-2, atol=1e-3)


# --- errors -----------------------------------------------------------------------------------
def test_errors_name_the_op_and_argument():
    with pytest.raises(TypeError, match="For 'csr_mm', 'b' must be a CSRTensor"):
        ops.csr_mm(csr_example(), Tensor(np.ones((4, 2), np.float32)))
    with pytest.raises(TypeError, match="For 'csr_mv', 'csr_tensor' must be a CSRTensor"):
        ops.csr_mv(coo_example(), Tensor(np.ones((4, 1), np.float32)))
    with pytest.raises(ValueError, match="For 'dense_to_sparse_coo', 'tensor' must be 2-D"):
        ops.dense_to_sparse_coo(Tensor([0.0, 1.0]))
    with pytest.raises(TypeError, match="For 'coo_exp', 'x' must be a COOTensor"):
        ops.coo_exp(csr_example())

    @jax.jit
    def densify(x):
        return ops.dense_to_sparse_csr(x).values

    with pytest.raises(RuntimeError, match="'dense_to_sparse_csr' gives an output whose shape depends on the values"):
        densify(Tensor(np.eye(2, dtype=np.float32)))


def test_errors_of_the_table_entries_name_the_op():
    csr = csr_example()
    with pytest.raises(ValueError, match=r"For 'csr_mv', 'dense' must have shape \(4, 1\)"):
        ops.csr_mv(csr, Tensor(np.ones((4,), np.float32)))
    with pytest.raises(ValueError, match="For 'csr_mul', the shape of 'y'"):
        ops.csr_mul(csr, Tensor(np.ones((2, 4), np.float32)))
    with pytest.raises(ValueError, match="For 'csr_reduce_sum', 'axis' must be 1 or -1"):
        ops.csr_reduce_sum(csr, 0)
    # as MindSpore 2.10: coo_sigmoid refuses Int values where sigmoid refuses an Int Tensor
    with pytest.raises(TypeError, match=r"For 'coo_sigmoid', 'x.values' must be a float or complex Tensor"):
        ops.coo_sigmoid(COOTensor(Tensor([[0, 1]], ms.int32), Tensor([1], ms.int32), (2, 2)))
    assert ops.csr_inv(CSRTensor(Tensor([0, 1], ms.int32), Tensor([0], ms.int32), Tensor([2], ms.int32), (1, 2))
                       ).dtype == ms.int32  # MindSpore 2.10 keeps Int32 (sporax gave Float32 before)


# MindSpore 2.10's SparseSparseMinimum / SparseSparseMaximum (CPU), recorded: indices, values
_PAIR = ((np.array([[1, 0], [0, 1]], np.int64), [-1.0, -2.0]), (np.array([[0, 0], [1, 0]], np.int64), [-3.0, 4.0]))
_RECORDED_PAIRS = {
    "SparseSparseMinimum": ([[0, 0], [1, 0], [0, 1]], [-3.0, -1.0, -2.0]),
    "SparseSparseMaximum": ([[0, 0], [1, 0], [0, 1]], [0.0, 4.0, 0.0]),
}


@pytest.mark.parametrize("name", sorted(_RECORDED_PAIRS))
def test_sparse_sparse_min_max_merge_the_index_lists_in_their_order(name):
    from sporax.ops.operations import sparse_component_ops
    (first, first_values), (second, second_values) = _PAIR
    shape = Tensor(np.array([2, 2], np.int64))
    indices, values = getattr(sparse_component_ops, name)()(
        Tensor(first), Tensor(first_values), shape, Tensor(second), Tensor(second_values), shape)
    assert (indices.asnumpy().tolist(), values.asnumpy().tolist()) == _RECORDED_PAIRS[name]
    assert values.dtype == ms.float32
    with pytest.raises(ValueError, match=f"{name}.*x2_indices.shape\\[1\\] and x2_shape.shape\\[0\\]"):
        getattr(sparse_component_ops, name)()(Tensor(first), Tensor(first_values), shape,
                                              Tensor(np.array([[0, 1, 0]], np.int64)), Tensor([7.0]), shape)


def _sparse_add(a_indices, a_values, b_indices, b_values, thresh, dtype=ms.float32, thresh_dtype=None):
    from sporax.ops.operations.sparse_component_ops import SparseAdd
    shape = Tensor(np.array([3, 4], np.int64))
    out = SparseAdd()(Tensor(np.array(a_indices, np.int64)), Tensor(a_values, dtype), shape,
                      Tensor(np.array(b_indices, np.int64)), Tensor(b_values, dtype), shape,
                      Tensor(thresh, thresh_dtype or dtype))
    return [part.asnumpy().tolist() for part in out]


def test_sparse_add_drops_small_sums_and_keeps_single_entries():
    # MindSpore 2.10 (CPU), recorded: a sum below thresh in magnitude takes no entry; a value stored once stays
    assert _sparse_add([[0, 1], [1, 2]], [1, -2], [[0, 1], [1, 2]], [-1, 2.5], 0) == [[[0, 1], [1, 2]], [0.0, 0.5],
                                                                                       [3, 4]]
    assert _sparse_add([[0, 1], [1, 2]], [1, -2], [[0, 1], [1, 2]], [-1, 2.5], 0.6) == [[], [], [3, 4]]
    assert _sparse_add([[0, 1], [1, 2]], [1, -2], [[0, 1], [1, 2]], [-1, 2.5], 0.5) == [[[1, 2]], [0.5], [3, 4]]
    assert _sparse_add([[0, 1], [1, 3]], [0.5, 2], [[1, 2], [2, 2]], [0.25, 2], 1) == [
        [[0, 1], [1, 2], [1, 3], [2, 2]], [0.5, 0.25, 2.0, 2.0], [3, 4]]
    # an unsorted list is walked in its own order
    assert _sparse_add([[1, 3], [0, 1]], [5, 6], [[0, 1], [1, 2]], [7, 8], 0) == [
        [[0, 1], [1, 2], [1, 3], [0, 1]], [7.0, 8.0, 5.0, 6.0], [3, 4]]
    assert _sparse_add([[0, 1]], [5], [[0, 1]], [7], -1, dtype=ms.int32) == [[[0, 1]], [12], [3, 4]]
    with pytest.raises(TypeError, match="SparseAdd.*thresh"):
        _sparse_add([[0, 1]], [5], [[0, 1]], [7], 0, thresh_dtype=ms.float64)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_sparse_add_gradient_reaches_the_values_of_the_rows_kept(mode):
    # MindSpore 2.10 (CPU), recorded with GradOperation(get_all=True, sens_param=True) in both modes: each output
    # row sends its sensitivity to the values it summed, a dropped sum sends none; indices, shapes and thresh get
    # zeros (Int64 for the indices and shapes).
    from sporax.ops.operations.sparse_component_ops import SparseAdd
    ms.set_context(mode=mode)
    try:
        shape = Tensor(np.array([3, 4], np.int64))
        first, second = Tensor(np.array([[0, 1], [1, 2]], np.int64)), Tensor(np.array([[0, 1], [2, 0]], np.int64))
        grad = ops.GradOperation(get_all=True, sens_param=True)(lambda *args: SparseAdd()(*args))

        def sens(values):
            return (Tensor(np.zeros((len(values), 2), np.int64)), Tensor(np.array(values, np.float32)),
                    Tensor(np.zeros(2, np.int64)))

        out = grad(first, Tensor([1.0, 2.0]), shape, second, Tensor([5.0, 7.0]), shape, Tensor(0.0),
                   sens([10.0, 20.0, 30.0]))
        assert [part.asnumpy().tolist() for part in out] == [[[0, 0], [0, 0]], [10.0, 20.0], [0, 0],
                                                              [[0, 0], [0, 0]], [10.0, 30.0], [0, 0], 0.0]
        assert out[0].dtype == ms.int64 and out[2].dtype == ms.int64
        out = grad(first, Tensor([1.0, -2.0]), shape, first, Tensor([-1.0, 2.5]), shape, Tensor(0.5), sens([10.0]))
        assert [part.asnumpy().tolist() for part in out] == [[[0, 0], [0, 0]], [0.0, 10.0], [0, 0],
                                                              [[0, 0], [0, 0]], [0.0, 10.0], [0, 0], 0.0]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def _sparse_reshape(indices, shape, new_shape):
    from sporax.ops.operations.sparse_component_ops import SparseReshape
    out = SparseReshape()(Tensor(np.array(indices, np.int64)), Tensor(np.array(shape, np.int64)),
                          Tensor(np.array(new_shape, np.int64)))
    return [part.asnumpy().tolist() for part in out]


def test_sparse_reshape_rereads_the_indices_row_major():
    # MindSpore 2.10 (CPU), recorded (a new shape of the same rank is left out: MindSpore 2.10's kernel returns
    # zero indices there, sporax the re-read ones)
    points = [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 2, 3]]
    assert _sparse_reshape(points, [2, 3, 6], [9, -1]) == [[[0, 0], [0, 1], [1, 2], [4, 2], [8, 1]], [9, 4]]
    assert _sparse_reshape([[0, 0, 0], [1, 2, 3]], [2, 3, 6], [-1]) == [[[0], [33]], [36]]
    assert _sparse_reshape([[0, 1, 0], [1, 0, 1], [1, 2, 0], [2, 3, 1]], [3, 4, 2], [2, 12]) == [
        [[0, 2], [0, 9], [1, 0], [1, 11]], [2, 12]]
    with pytest.raises(RuntimeError, match="multiple of 5"):
        _sparse_reshape(points, [2, 3, 6], [5, -1])
    with pytest.raises(RuntimeError, match="at most one '-1'"):
        _sparse_reshape(points, [2, 3, 6], [-1, -1])
    with pytest.raises(RuntimeError, match="dense shape of 40"):
        _sparse_reshape(points, [2, 3, 6], [4, 10])
    with pytest.raises(ValueError, match="rank of input tensor must match"):
        _sparse_reshape([[0, 0], [1, 2]], [2, 3, 6], [4, 9])


def _count(indices, values, shape, weights, weights_dtype=ms.int64, values_dtype=ms.int64, **attrs):
    from sporax.ops.operations.sparse_component_ops import SparseCountSparseOutput
    out = SparseCountSparseOutput(**attrs)(Tensor(np.array(indices, np.int64).reshape(len(indices), -1)),
                                           Tensor(values, values_dtype), Tensor(np.array(shape, np.int64)),
                                           Tensor(weights, weights_dtype))
    return [(part.asnumpy().tolist(), str(part.dtype)) for part in out]


_COUNT_INDICES = [[1, 2], [3, 4], [2, 1], [2, 2], [1, 0], [3, 3], [2, 0], [2, 2]]
_COUNT_VALUES = [0, 2, 8, 8, 1, 2, 3, 7]
_COUNT_POINTS = [[1, 0], [1, 1], [2, 3], [2, 7], [2, 8], [3, 2]]


def test_sparse_count_sparse_output_counts_each_rows_values():
    # MindSpore 2.10 (CPU), recorded: rows are the first index, sorted by (row, value); a zero weight still makes
    # an entry; the counts take the weights' dtype (even when weights is empty)
    assert _count([[0, 0], [1, 0]], [3, 4], [2, 5], [0, 2]) == [
        ([[0, 3], [1, 4]], "Int64"), ([0, 2], "Int64"), ([2, 5], "Int64")]
    assert _count(_COUNT_INDICES, _COUNT_VALUES, [5, 5], [], ms.float32, binary_output=True) == [
        (_COUNT_POINTS, "Int64"), ([1.0] * 6, "Float32"), ([5, 9], "Int64")]
    assert _count(_COUNT_INDICES, _COUNT_VALUES, [5, 5], [2, 5, 1, 0, 4, 2, 2, 2], binary_output=True)[1] == (
        [1] * 6, "Int64")
    assert _count(_COUNT_INDICES, _COUNT_VALUES, [5, 5], [], minlength=12) == [
        (_COUNT_POINTS, "Int64"), ([1, 1, 1, 1, 2, 2], "Int64"), ([5, 12], "Int64")]
    assert _count(_COUNT_INDICES, _COUNT_VALUES, [5, 5], [], minlength=12, maxlength=5) == [
        ([[1, 0], [1, 1], [2, 3], [3, 2]], "Int64"), ([1, 1, 1, 2], "Int64"), ([5, 5], "Int64")]
    assert _count(_COUNT_INDICES, _COUNT_VALUES, [5, 5], [], maxlength=0) == [
        ([], "Int64"), ([], "Int64"), ([5, 0], "Int64")]
    # rank 1: one row; rank 3: the first index is the row
    assert _count([[3], [0], [2]], [5, 1, 5], [4], [], ms.int32, ms.int32) == [
        ([[1], [5]], "Int64"), ([1, 2], "Int32"), ([6], "Int64")]
    assert _count([[0, 1, 2], [1, 0, 0]], [1, 2], [2, 2, 3], []) == [
        ([[0, 1], [1, 2]], "Int64"), ([1, 1], "Int64"), ([2, 3], "Int64")]


def test_sparse_count_sparse_output_refusals_are_mindspores():
    # MindSpore 2.10 (CPU), recorded error types and words
    with pytest.raises(RuntimeError, match="values must be non-negative"):
        _count([[0, 0], [1, 0]], [-1, 2], [2, 5], [])
    with pytest.raises(TypeError, match=r"argument\[weights\].*Tensor\[Float16\]"):
        _count(_COUNT_INDICES, _COUNT_VALUES, [5, 5], [2, 5, 1, 0, 4, 2, 2, 2], ms.float16)
    with pytest.raises(TypeError, match="values"):
        _count([[0], [1]], [1, 1], [2], [], values_dtype=ms.float32)
    with pytest.raises(TypeError, match="'binary_output' should be 'bool'"):
        _count([[0], [1]], [1, 1], [2], [], binary_output=2)
    with pytest.raises(ValueError, match="number of values must be same as dim0 of indices"):
        _count([[0], [1]], [1], [2], [])
    with pytest.raises(ValueError, match="dense_shape dimensions must be equal to second dimension of indices"):
        _count([[0, 1], [1, 1]], [1, 1], [2], [])
    with pytest.raises(RuntimeError, match="weights and values must have the same shape"):
        _count([[0], [1]], [1, 1], [2], [1, 2, 3])
    with pytest.raises(RuntimeError, match=r"index value 8 must be in \[0, 4\)"):
        _count([[1, 2], [8, 6]], [1, 1], [4, 3], [1, 2])


def _matrix_softmax(shape, batch_pointers, row_pointers, columns, values, values_dtype=ms.float32,
                    index_dtype=ms.int32):
    from sporax.ops.operations.sparse_component_ops import SparseMatrixSoftmax
    out = SparseMatrixSoftmax(ms.float32)(Tensor(shape, index_dtype), Tensor(batch_pointers, index_dtype),
                                          Tensor(row_pointers, index_dtype), Tensor(columns, index_dtype),
                                          Tensor(values, values_dtype))
    return [(np.round(part.asnumpy().astype(np.float64), 6).tolist(), str(part.dtype)) for part in out]


def test_sparse_matrix_softmax_normalises_each_row():
    # MindSpore 2.10 (CPU), recorded: the components pass through; an empty row is skipped; a 0-d batch
    # pointer (the entry count) is taken; the values keep their dtype whatever the dtype setting
    assert _matrix_softmax([2, 6], [0, 6], [0, 4, 6], [0, 2, 3, 4, 3, 4], [1, 2, 3, 4, 1, 2]) == [
        ([2, 6], "Int32"), ([0, 6], "Int32"), ([0, 4, 6], "Int32"), ([0, 2, 3, 4, 3, 4], "Int32"),
        ([0.032059, 0.087144, 0.236883, 0.643914, 0.268941, 0.731059], "Float32")]
    assert _matrix_softmax([3, 3], [0, 3], [0, 2, 2, 3], [0, 2, 1], [1, 2, 3])[4] == (
        [0.268941, 0.731059, 1.0], "Float32")
    assert _matrix_softmax([2, 6], 6, [0, 4, 6], [0, 2, 3, 4, 3, 4], [1, 2, 3, 4, 1, 2])[1:] == [
        (6, "Int32"), ([0, 4, 6], "Int32"), ([0, 2, 3, 4, 3, 4], "Int32"),
        ([0.032059, 0.087144, 0.236883, 0.643914, 0.268941, 0.731059], "Float32")]
    assert _matrix_softmax([2, 3], [0, 3], [0, 2, 3], [0, 2, 1], [1, 2, 3], ms.float64)[4] == (
        [0.268941, 0.731059, 1.0], "Float64")
    with pytest.raises(TypeError, match="sparse_matrix_softmax"):
        _matrix_softmax([2, 3], [0, 3], [0, 2, 3], [0, 2, 1], [1, 2, 3], ms.int32)
