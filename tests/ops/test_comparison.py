"""Comparison, logical, bitwise, value-test and clamp ops against NumPy, with MindSpore dtypes."""
import jax
import numpy as np
import pytest

from sporax import Tensor, ops
from sporax.core import dtype as mstype

RNG = np.random.default_rng(1)


def sample(dtype, shape=(2, 3)):
    if dtype == "bool":
        return RNG.integers(0, 2, shape).astype(bool)
    return RNG.integers(-2, 3, shape).astype(dtype)  # small integers so equalities happen


COMPARISONS = [
    ("eq", np.equal), ("equal", np.equal), ("ne", np.not_equal), ("not_equal", np.not_equal),
    ("gt", np.greater), ("greater", np.greater), ("ge", np.greater_equal),
    ("greater_equal", np.greater_equal), ("lt", np.less), ("less", np.less),
    ("le", np.less_equal), ("less_equal", np.less_equal),
]
LOGICAL = [("logical_and", np.logical_and), ("logical_or", np.logical_or),
           ("logical_xor", np.logical_xor)]


# Float operands (and faces, broadcasting, Python numbers) are checked by tests/ops/test_op_table.py.
@pytest.mark.parametrize("name,reference", COMPARISONS + LOGICAL,
                         ids=[row[0] for row in COMPARISONS + LOGICAL])
@pytest.mark.parametrize("dtype", ["bool", "int32", "int64"])
def test_binary_predicates(name, reference, dtype):
    left, right = sample(dtype), sample(dtype)
    result = getattr(ops, name)(Tensor(left), Tensor(right))
    assert result.dtype is mstype.bool_
    np.testing.assert_array_equal(result.asnumpy(), reference(left, right))


@pytest.mark.parametrize("name,reference", COMPARISONS, ids=[row[0] for row in COMPARISONS])
def test_comparison_with_scalars_and_mixed_dtypes(name, reference):
    ints, floats = sample("int32"), sample("float32") + 0.5
    function = getattr(ops, name)
    np.testing.assert_array_equal(function(Tensor(ints), 1).asnumpy(), reference(ints, 1))
    np.testing.assert_array_equal(function(Tensor(ints), 0.5).asnumpy(), reference(ints, 0.5))
    np.testing.assert_array_equal(function(2, Tensor(ints)).asnumpy(), reference(2, ints))
    np.testing.assert_array_equal(function(Tensor(ints), Tensor(floats)).asnumpy(),
                                  reference(ints, floats))


@pytest.mark.parametrize("dtype", ["bool", "int32", "int64"])  # floats: the op test table
def test_logical_not(dtype):
    data = sample(dtype)
    result = ops.logical_not(Tensor(data))
    assert result.dtype is mstype.bool_
    np.testing.assert_array_equal(result.asnumpy(), np.logical_not(data))


BITWISE = [("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
           ("bitwise_xor", np.bitwise_xor)]


@pytest.mark.parametrize("name,reference", BITWISE, ids=[row[0] for row in BITWISE])
@pytest.mark.parametrize("dtype", ["bool", "int64"])  # Int32: tests/ops/test_op_table.py
def test_bitwise(name, reference, dtype):
    left, right = sample(dtype), sample(dtype)
    result = getattr(ops, name)(Tensor(left), Tensor(right))
    assert result.asnumpy().dtype == np.dtype(dtype)
    np.testing.assert_array_equal(result.asnumpy(), reference(left, right))


def test_bitwise_refuses_floats_and_shifts_work():
    with pytest.raises(TypeError, match="bitwise_and"):
        ops.bitwise_and(Tensor([1.0]), Tensor([2.0]))
    data = np.array([1, 2, 8], np.int32)
    np.testing.assert_array_equal(ops.bitwise_left_shift(Tensor(data), 2).asnumpy(), data << 2)
    np.testing.assert_array_equal(ops.bitwise_right_shift(Tensor(data), 1).asnumpy(), data >> 1)
    with pytest.raises(TypeError, match="invert"):
        ops.invert(Tensor([1.0]))


def test_value_tests_of_integers():
    # Float inputs (NaN, +-inf, -0.0 among them) are op-table samples (tests/ops/test_op_table.py).
    data = np.array([1, -2, 0], np.int32)
    for name, reference in [("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite),
                            ("isposinf", np.isposinf), ("isneginf", np.isneginf),
                            ("signbit", np.signbit)]:
        result = getattr(ops, name)(Tensor(data))
        assert result.dtype is mstype.bool_, name
        np.testing.assert_array_equal(result.asnumpy(), reference(data), err_msg=name)


def test_isclose():
    left = np.array([1.0, 2.0, np.nan, 1e-9], np.float32)
    right = np.array([1.0 + 1e-6, 2.1, np.nan, 0.0], np.float32)
    np.testing.assert_array_equal(ops.isclose(Tensor(left), Tensor(right)).asnumpy(),
                                  np.isclose(left, right))
    np.testing.assert_array_equal(
        ops.isclose(Tensor(left), Tensor(right), rtol=0.1, equal_nan=True).asnumpy(),
        np.isclose(left, right, rtol=0.1, equal_nan=True))
    assert ops.isclose(Tensor([1, 2]), Tensor([1.0, 2.1])).dtype is mstype.bool_


# input dtype, bounds, result dtype (MindSpore 2.10: clamp promotes, clip_by_value keeps)
CLAMPS = [
    ("clamp", "int32", (0, 1), "Int32"), ("clamp", "int32", (0.5, 1.5), "Float32"),
    ("clamp", "float16", (0.5, 1.5), "Float16"), ("clamp", "float32", (None, 1), "Float32"),
    ("clamp", "int64", (1, None), "Int64"), ("clip", "float32", (-1.0, 1.0), "Float32"),
    ("clip_by_value", "int32", (0.5, 1.5), "Int32"), ("clip_by_value", "float32", (0, 1),
                                                      "Float32"),
]


@pytest.mark.parametrize("name,dtype,bounds,expected", CLAMPS)
def test_clamp_family(name, dtype, bounds, expected):
    data = RNG.uniform(-3, 3, (2, 3)).astype(dtype)
    result = getattr(ops, name)(Tensor(data), *bounds)
    assert str(result.dtype) == expected
    low, high = bounds
    cast = np.dtype(dtype) if name == "clip_by_value" else np.float64
    want = data.astype(np.float64)
    if low is not None:
        want = np.maximum(want, np.asarray(low).astype(cast))
    if high is not None:
        want = np.minimum(want, np.asarray(high).astype(cast))
    np.testing.assert_allclose(result.asnumpy().astype(np.float64), want, rtol=1e-3)


def test_clamp_with_tensor_bounds_and_gradient():
    data = np.array([-2.0, 0.5, 3.0], np.float64)
    low, high = Tensor(np.array([-1.0, 1.0, 0.0])), Tensor(np.array([1.0, 2.0, 2.0]))
    np.testing.assert_allclose(ops.clamp(Tensor(data), low, high).asnumpy(), [-1.0, 1.0, 2.0])
    grad = jax.grad(lambda a: ops.sum(ops.clamp(Tensor._wrap(a), -1.0, 1.0))._value)(data)
    np.testing.assert_allclose(np.asarray(grad), [0.0, 1.0, 0.0])
    # On a bound the whole gradient reaches the input (MindSpore 2.10 gives [1, 1, 0]).
    grad = jax.grad(lambda a: ops.sum(ops.clamp(Tensor._wrap(a), 0.0, 1.0))._value)(
        np.array([0.0, 1.0, 2.0]))
    np.testing.assert_allclose(np.asarray(grad), [1.0, 1.0, 0.0])


def test_clip_by_value_on_a_list():
    items = [Tensor(np.array([-2.0, 2.0], np.float32)), Tensor(np.array([0.5], np.float32))]
    clipped = ops.clip_by_value(items, -1.0, 1.0)
    assert isinstance(clipped, tuple)  # MindSpore 2.10 returns a tuple for a list as for a tuple
    np.testing.assert_allclose(clipped[0].asnumpy(), [-1.0, 1.0])
    np.testing.assert_allclose(clipped[1].asnumpy(), [0.5])


def test_clamp_needs_a_bound():
    with pytest.raises(ValueError, match="clamp"):
        ops.clamp(Tensor([1.0]))


def test_comparisons_under_jit():
    @jax.jit
    def step(a):
        x = Tensor._wrap(a)
        return ops.logical_and(ops.gt(x, 0), ops.le(x, 2.5))._value

    data = np.array([-1.0, 1.0, 3.0], np.float32)
    np.testing.assert_array_equal(np.asarray(step(data)), [False, True, False])


def test_shape_mismatch_is_value_error():
    with pytest.raises(ValueError, match="'eq'"):
        ops.eq(Tensor(np.ones((2, 3))), Tensor(np.ones((2,))))
