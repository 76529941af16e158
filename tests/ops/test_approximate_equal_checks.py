"""ApproximateEqual's argument checks, with MindSpore 2.10's error types and messages (recorded)."""
import numpy as np
import pytest

from sporax import Tensor, ops


def test_shapes_must_match_exactly():
    with pytest.raises(RuntimeError, match=r"'x1' must have the same shape as 'x2'. But got 'x1' shape: \(2, 3\)"):
        ops.approximate_equal(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((1, 3), np.float32)))


def test_rank_must_be_below_eight():
    ones = Tensor(np.ones((2,) * 8, np.float32))
    with pytest.raises(RuntimeError, match="the x's rank should be less than 8, but got: 8"):
        ops.ApproximateEqual(0.5)(ones, ones)


@pytest.mark.parametrize("tolerance", ["str", 1])
def test_tolerance_must_be_a_float(tolerance):
    with pytest.raises(TypeError, match="the type of 'tolerance' should be 'float'"):
        ops.ApproximateEqual(tolerance)
    with pytest.raises(TypeError, match="the type of 'tolerance' should be 'float'"):
        ops.approximate_equal(Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32)), tolerance)


def test_mixed_float_precisions_compare():
    left = np.array([1.0, 2.0, 3.0], np.float16)
    right = np.array([1.2, 2.5, 3.0], np.float32)
    assert ops.approximate_equal(Tensor(left), Tensor(right), 0.3).asnumpy().tolist() == [True, False, True]


@pytest.mark.parametrize("left, right", [("int32", "float32"), ("bool", "float32"), ("float32", "int64"),
                                         ("int32", "float16")])
def test_operands_are_promoted_before_the_float_check(left, right):
    # MindSpore 2.10 (recorded): Int32 with Float32 compares in Float32, on the function and the Primitive
    x, y = Tensor(np.array([1, 2, 3], left)), Tensor(np.array([2, 4, 6], right))
    assert ops.approximate_equal(x, y, 1.5).asnumpy().tolist() == [True, False, False]
    assert ops.ApproximateEqual(1.5)(x, y).asnumpy().tolist() == [True, False, False]


def test_promoted_integer_operands_are_refused_as_their_common_dtype():
    x, y = Tensor(np.array([1, 2], np.int8)), Tensor(np.array([1, 2], np.uint8))
    with pytest.raises(TypeError, match=r"argument\[x1\] must be a type of .*but got Tensor\[Int16\]"):
        ops.ApproximateEqual(1.5)(x, y)
    assert x.approximate_equal(y, 1.5).asnumpy().tolist() == [True, True]


def test_python_number_operands_are_zero_dimensional():
    # MindSpore 2.10 (recorded): a Python number is a 0-d operand, compared against a 0-d Tensor and refused by the
    # shape check against any other
    assert bool(ops.approximate_equal(Tensor(1.0), 2.0, 1.5)) is True
    assert bool(ops.ApproximateEqual(1.5)(Tensor(1.0), 2.0)) is True
    assert bool(ops.approximate_equal(2.0, Tensor(1.0), 1.5)) is True
    with pytest.raises(RuntimeError, match=r"'x1' shape: \(2,\), 'x2' shape: \(\)"):
        ops.approximate_equal(Tensor(np.array([1.0, 2.0], np.float32)), 2.0)
