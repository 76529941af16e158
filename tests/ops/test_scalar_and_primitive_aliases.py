"""Scalar/sequence helpers' errors and the primitive-instance aliases (``scalar_add``, ``tuple_setitem``, ``tensor_div``...)."""
import operator

import numpy as np
import pytest

from sporax import Tensor, float16, float32, ops

# The scalar/sequence ops are op-table entries (tests/ops/test_python_value_ops.py runs their samples through every
# face); ``tail`` and ``zip_operation`` are not functional names of MindSpore's: checked here.
SCALAR_CASES = [("tail", ((1, 2, 3),), (2, 3)), ("zip_operation", ((1, 2), (3, 4)), ((1, 3), (2, 4)))]


@pytest.mark.parametrize("name,args,expected", SCALAR_CASES, ids=[c[0] for c in SCALAR_CASES])
def test_scalar_and_sequence_helpers(name, args, expected):
    assert getattr(ops, name)(*args) == expected


def test_helper_errors_and_typeof():
    with pytest.raises(ValueError, match="scalar_div"):
        ops.scalar_div(1, 0)
    with pytest.raises(TypeError, match="scalar_add"):
        ops.scalar_add("a", 1)
    with pytest.raises(IndexError, match="tuple_getitem"):
        ops.tuple_getitem((1,), 3)
    assert repr(ops.typeof(Tensor(np.ones(2, np.float32)))) == "mindspore.tensor[float32]"
    assert repr(ops.typeof(1)) == "mindspore.int64"
    assert ops.shape_(Tensor(np.ones((2, 3)))) == (2, 3)
    assert ops.scalar_to_array(2.5).asnumpy() == np.float32(2.5)


x = np.array([5.0, -5.0, 2.5], np.float32)
y = np.array([3.0, 2.0, 0.5], np.float32)
BINARY = [("tensor_add", operator.add), ("tensor_sub", operator.sub), ("tensor_mul", operator.mul),
          ("tensor_muls", operator.mul), ("tensor_div", operator.truediv), ("tensor_floordiv", np.floor_divide),
          ("tensor_mod", np.mod), ("tensor_pow", np.power), ("tensor_gt", operator.gt), ("tensor_ge", operator.ge),
          ("tensor_lt", operator.lt), ("tensor_le", operator.le), ("pows", np.power)]


@pytest.mark.parametrize("name,reference", BINARY, ids=[b[0] for b in BINARY])
def test_tensor_aliases_binary(name, reference):
    result = getattr(ops, name)(Tensor(x), Tensor(y)).asnumpy()
    np.testing.assert_allclose(result, reference(x, y), rtol=1e-6)


def test_tensor_aliases_other():
    np.testing.assert_array_equal(ops.tensor_div(Tensor(np.array([-5, 7])), Tensor(np.array([2, 2]))).asnumpy(),
                                  [-2, 3])  # RealDiv on integers truncates (MindSpore 2.10)
    np.testing.assert_allclose(ops.tensor_exp(Tensor(y)).asnumpy(), np.exp(y), rtol=1e-6)
    np.testing.assert_allclose(ops.tensor_expm1(Tensor(y)).asnumpy(), np.expm1(y), rtol=1e-6)
    np.testing.assert_array_equal(ops.tensor_range(Tensor(0), Tensor(5), Tensor(2)).asnumpy(), [0, 2, 4])
    block = ops.tensor_slice(Tensor(np.arange(6).reshape(2, 3)), (0, 1), (2, 2)).asnumpy()
    np.testing.assert_array_equal(block, [[1, 2], [4, 5]])
    cast = ops.mixed_precision_cast(float16, (Tensor(y), 3))
    assert cast[0].dtype == float16 and cast[1] == 3
    assert ops.type_as(Tensor(y), Tensor(np.array([1], np.int32))).asnumpy().dtype == np.int32
    assert ops.real(Tensor(np.array([1 + 2j], np.complex64))).asnumpy().tolist() == [1.0]
    np.testing.assert_array_equal(ops.move_to(Tensor(y), "CPU").asnumpy(), y)


def test_in_place_functions():
    t = Tensor(np.array([1.0, -2.0], np.float32))
    assert ops.tanh_(t) is t
    np.testing.assert_allclose(t.asnumpy(), np.tanh([1.0, -2.0]), rtol=1e-6)
    assert ops.zero_(t) is t and t.asnumpy().tolist() == [0.0, 0.0]
    r = Tensor(np.zeros(1000, np.float32))
    ops.uniform_(r, 2.0, 3.0)
    assert 2.0 <= r.asnumpy().min() and r.asnumpy().max() < 3.0
    ops.normal_(r, 5.0, 0.1)
    assert abs(r.asnumpy().mean() - 5.0) < 0.05
    ops.random_(r, 0, 4)
    assert set(np.unique(r.asnumpy()).tolist()) <= {0.0, 1.0, 2.0, 3.0}
    s = Tensor(np.arange(6.0, dtype=np.float32))
    assert ops.reshape_(s, (2, 3)).shape == (2, 3)
    assert ops.stop_gradient_(s) is s
    assert s.dtype == float32
