"""Each math Primitive class gives what its functional op gives, and keeps MindSpore's attributes."""
import numpy as np
import pytest

from sporax import Tensor, ops
from sporax.core import dtype as mstype

RNG = np.random.default_rng(3)
X = RNG.uniform(0.2, 2.0, (2, 3, 4)).astype(np.float32)
Y = RNG.uniform(0.2, 2.0, (2, 3, 4)).astype(np.float32)
B = X > 1.0
I = RNG.integers(-5, 6, (2, 3, 4)).astype(np.int32)

# The elementwise Primitives (Add, RealDiv, IsNan, Lerp, Addcmul ...) are op-table faces, checked against
# their op by tests/ops/test_op_table.py.


def _tensors(values):
    return [Tensor(v) if isinstance(v, np.ndarray) else v for v in values]


def _same(left, right):
    if isinstance(left, tuple):
        assert isinstance(right, tuple) and len(left) == len(right)
        for a, b in zip(left, right):
            _same(a, b)
        return
    assert left.dtype is right.dtype and left.shape == right.shape
    np.testing.assert_allclose(left.asnumpy().astype(np.float64),
                               right.asnumpy().astype(np.float64), rtol=1e-6, equal_nan=True)


def test_primitive_arity_error_and_scalar_operand():
    with pytest.raises(TypeError, match="Add.*2 input"):
        ops.Add()(Tensor(X))
    _same(ops.Mul()(Tensor(X), 2.0), ops.mul(Tensor(X), 2.0))


def test_real_div_of_integers_truncates_like_mindspore():
    result = ops.RealDiv()(Tensor(np.array([7, -7], np.int32)), Tensor(np.array([2, 2], np.int32)))
    assert result.dtype is mstype.int32
    np.testing.assert_array_equal(result.asnumpy(), [3, -3])
    result = ops.Mod()(Tensor(np.array([7.0, -7.0])), Tensor(np.array([-3.0, 3.0])))
    np.testing.assert_array_equal(result.asnumpy(), [1.0, -1.0])


REDUCE_CLASSES = [
    ("ReduceSum", ops.reduce_sum, np.sum), ("ReduceMean", ops.reduce_mean, np.mean),
    ("ReduceMax", ops.reduce_max, np.max), ("ReduceMin", ops.reduce_min, np.min),
    ("ReduceProd", None, np.prod), ("ReduceAll", None, np.all), ("ReduceAny", None, np.any),
]


@pytest.mark.parametrize("name,function,reference", REDUCE_CLASSES,
                         ids=[row[0] for row in REDUCE_CLASSES])
@pytest.mark.parametrize("keep_dims", [False, True])
@pytest.mark.parametrize("axis", [(), 1, (0, 2), [-1]])
def test_reduce_classes(name, function, reference, keep_dims, axis):
    data = B if name in ("ReduceAll", "ReduceAny") else X
    primitive = getattr(ops, name)(keep_dims)
    assert primitive.attrs["keep_dims"] == keep_dims
    result = primitive(Tensor(data), axis)
    numpy_axis = None if axis == () else tuple(axis) if isinstance(axis, list) else axis
    want = reference(data, axis=numpy_axis, keepdims=keep_dims)
    assert result.dtype is Tensor(data).dtype
    np.testing.assert_allclose(result.asnumpy(), want, rtol=1e-5)
    if function is not None and not keep_dims:
        _same(result, function(Tensor(data), axis))


def test_reduce_sum_skip_mode_and_default_axis():
    np.testing.assert_allclose(ops.ReduceSum(skip_mode=True)(Tensor(X), ()).asnumpy(), X)
    np.testing.assert_allclose(ops.ReduceSum()(Tensor(X)).asnumpy(), X.sum(), rtol=1e-5)
    deviation, mean = ops.ReduceStd(axis=1)(Tensor(X))
    np.testing.assert_allclose(deviation.asnumpy(), X.std(1, ddof=1), rtol=1e-5)
    np.testing.assert_allclose(mean.asnumpy(), X.mean(1), rtol=1e-5)


def test_primitives_over_ops_keep_integer_and_bool_dtypes():
    """ReduceSum/ReduceProd/CumProd keep the input dtype where ops.sum/prod/cumprod widen to Int64
    (values and dtypes checked on MindSpore 2.10)."""
    x = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.int32))
    flags = Tensor(np.array([[True, False], [True, True]]))
    cases = [(ops.ReduceSum(True)(x, 1), mstype.int32, [[6], [15]]),
             (ops.ReduceProd()(x, 1), mstype.int32, [6, 120]),
             (ops.ReduceSum()(flags, 1), mstype.bool_, [True, True]),
             (ops.ReduceProd()(flags, 1), mstype.bool_, [False, True]),
             (ops.CumProd(True, True)(x, 1), mstype.int32, [[6, 3, 1], [30, 6, 1]]),
             (ops.CumSum(True, False)(x, 0), mstype.int32, [[0, 0, 0], [1, 2, 3]]),
             (ops.ReduceMax(True)(x, (0, 1)), mstype.int32, [[6]]),
             (ops.Argmin(0, mstype.int64)(x), mstype.int64, [0, 0, 0])]
    for result, dtype, values in cases:
        assert result.dtype is dtype
        assert result.asnumpy().tolist() == values


def test_arg_classes():
    index = ops.Argmax()(Tensor(X))
    assert index.dtype is mstype.int32
    np.testing.assert_array_equal(index.asnumpy(), X.argmax(-1))
    assert ops.Argmax(axis=0, output_type=mstype.int64)(Tensor(X)).dtype is mstype.int64
    np.testing.assert_array_equal(ops.Argmin(axis=1)(Tensor(X)).asnumpy(), X.argmin(1))
    index, values = ops.ArgMaxWithValue(axis=1, keep_dims=True)(Tensor(X))
    assert index.dtype is mstype.int64
    _same((values, index), ops.max(Tensor(X), 1, True))
    index, values = ops.ArgMinWithValue()(Tensor(X))
    _same((values, index), ops.min(Tensor(X), 0))


def test_products():
    a, b = X[0], Y[0]  # (3, 4)
    _same(ops.MatMul(transpose_b=True)(Tensor(a), Tensor(b)), ops.matmul(Tensor(a), Tensor(b.T)))
    _same(ops.MatMul(transpose_a=True)(Tensor(a), Tensor(b)), ops.matmul(Tensor(a.T), Tensor(b)))
    batched = ops.BatchMatMul(transpose_b=True)(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(batched.asnumpy(), X @ Y.transpose(0, 2, 1), rtol=1e-5)
    assert ops.BatchMatMul().attrs == {"transpose_a": False, "transpose_b": False}
    _same(ops.AddN()((Tensor(X), Tensor(Y))), ops.add(Tensor(X), Tensor(Y)))
    _same(ops.Einsum("ij,kj->ik")((Tensor(a), Tensor(b))), ops.matmul(Tensor(a), Tensor(b.T)))
    _same(ops.SquaredDifference()(Tensor(X), Tensor(Y)),
          ops.square(ops.sub(Tensor(X), Tensor(Y))))


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumulative_classes(exclusive, reverse):
    data = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)

    def reference(values, scan, identity):
        values = values[:, ::-1] if reverse else values
        result = scan(values, 1)
        if exclusive:
            result = np.concatenate([np.full((2, 1), identity, values.dtype), result[:, :-1]], 1)
        return result[:, ::-1] if reverse else result

    np.testing.assert_allclose(ops.CumSum(exclusive, reverse)(Tensor(data), 1).asnumpy(),
                               reference(data, np.cumsum, 0))
    np.testing.assert_allclose(ops.CumProd(exclusive, reverse)(Tensor(data), 1).asnumpy(),
                               reference(data, np.cumprod, 1))


def test_selection_classes():
    _same(ops.TopK()(Tensor(X), 2), ops.topk(Tensor(X), 2))
    assert ops.TopK(sorted=False).attrs["sorted"] is False
    _same(ops.Sort()(Tensor(X)), ops.sort(Tensor(X)))
    _same(ops.Sort(axis=0, descending=True)(Tensor(X)), ops.sort(Tensor(X), 0, True))
    _same(ops.Cummax(axis=1)(Tensor(X)), ops.cummax(Tensor(X), 1))
    _same(ops.Cummin(axis=2)(Tensor(X)), ops.cummin(Tensor(X), 2))
    _same(ops.IsClose(rtol=0.5)(Tensor(X), Tensor(Y)), ops.isclose(Tensor(X), Tensor(Y), 0.5))


def test_primitives_record_attributes_and_shard():
    primitive = ops.ReduceMean(keep_dims=True).shard(((1, 2),))
    assert primitive.attrs["keep_dims"] is True
    assert primitive.attrs["in_strategy"] == ((1, 2),)
    assert ops.ReduceSum(True, True).attrs == {"keep_dims": True, "skip_mode": True}
