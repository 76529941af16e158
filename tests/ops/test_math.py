"""Element-wise math ops against NumPy: values, MindSpore result dtypes, gradients, errors.

The unary math ops (``exp`` ... ``mvlgamma``) are op-table entries: their values per dtype, faces,
gradients and dtype rules are checked by ``tests/ops/test_op_table.py``; here are the behaviours
the table does not state (MindSpore's gradient of ``abs`` at 0, ``nan_to_num``'s default limits,
integer ``inv``, ``round``'s ties and decimals) and the binary ops. Expected dtypes were read from
MindSpore 2.10 (CPU).
"""
import math as pymath

import jax
import numpy as np
import pytest
import scipy.special as special

import sporax as ms
from sporax import Tensor, mint, nn, ops
from sporax import numpy as mnp
from sporax.core import dtype as mstype

RNG = np.random.default_rng(0)
MS_NAME = {"bool": "Bool", "int32": "Int32", "int64": "Int64", "float16": "Float16",
           "float32": "Float32", "float64": "Float64"}


def sample(dtype, domain="any", shape=(2, 3)):
    """Random values of ``dtype`` inside the op's domain."""
    if dtype == "bool":
        if domain in ("positive", "above1"):
            return np.ones(shape, bool)
        if domain == "unit":
            return np.zeros(shape, bool)
        return RNG.integers(0, 2, shape).astype(bool)
    low, high = {"any": (-3, 3), "positive": (0.2, 3), "unit": (-0.9, 0.9),
                 "above1": (1.1, 3)}[domain]
    if dtype.startswith("int"):
        values = RNG.integers(int(np.ceil(low)), int(np.floor(high)) + 1, shape)
        if domain in ("positive", "above1"):
            values = np.maximum(values, 2)
        if domain == "unit":
            values = np.zeros(shape)
        return values.astype(dtype)
    return RNG.uniform(low, high, shape).astype(dtype)


def tolerance(dtype):
    return dict(rtol=2e-2, atol=2e-2) if dtype == "float16" else dict(rtol=1e-5, atol=1e-5)


def test_abs_gradient_is_zero_at_zero_as_mindspore():
    grad = jax.grad(lambda a: ops.sum(ops.abs(Tensor._wrap(a)))._value)(np.array([0.0, 1.0, -2.0]))
    np.testing.assert_array_equal(np.asarray(grad), [0.0, 1.0, -1.0])


def test_nan_to_num_and_logit():
    data = np.array([np.nan, np.inf, -np.inf, 1.0], np.float32)
    np.testing.assert_array_equal(ops.nan_to_num(Tensor(data)).asnumpy(), np.nan_to_num(data))
    np.testing.assert_array_equal(ops.nan_to_num(Tensor(data), 5.0, 1.0, -1.0).asnumpy(),
                                  [5.0, 1.0, -1.0, 1.0])
    half = ops.nan_to_num(Tensor(data.astype(np.float16)))
    assert half.dtype is mstype.float16 and half.asnumpy()[1] == np.finfo(np.float16).max
    probabilities = np.array([0.2, 0.9], np.float32)
    np.testing.assert_allclose(ops.logit(Tensor(probabilities)).asnumpy(),
                               np.log(probabilities / (1 - probabilities)), rtol=1e-6)
    np.testing.assert_allclose(ops.logit(Tensor(np.array([0.0, 0.9], np.float32)), eps=0.1)
                               .asnumpy(), [np.log(0.1 / 0.9), np.log(0.9 / 0.1)], rtol=1e-5)


def test_inv_keeps_integer_dtypes():
    result = ops.inv(Tensor(np.array([1, 2, -1, -3], np.int32)))
    assert result.dtype is mstype.int32
    np.testing.assert_array_equal(result.asnumpy(), [1, 0, -1, 0])  # as MindSpore
    result = ops.inv(Tensor(np.array([0.5, 2.0], np.float16)))
    assert result.dtype is mstype.float16
    np.testing.assert_allclose(result.asnumpy(), [2.0, 0.5])


def test_round_decimals_and_half_to_even():
    result = ops.round(Tensor(np.array([0.5, 1.5, 2.5, -0.5, 1.26], np.float32)))
    np.testing.assert_array_equal(result.asnumpy(), [0, 2, 2, -0, 1])
    result = ops.round(Tensor(np.array([1.26, -2.345], np.float32)), decimals=1)
    np.testing.assert_allclose(result.asnumpy(), [1.3, -2.3], rtol=1e-6)
    # MindSpore's Round Primitive takes decimals as its second input (its CPU kernel only 0).
    np.testing.assert_array_equal(ops.Round()(Tensor(np.array([1.26, -2.345], np.float32)), 1).asnumpy(),
                                  result.asnumpy())


# name, numpy reference
BINARY = [
    ("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("maximum", np.maximum),
    ("minimum", np.minimum), ("pow", np.power), ("floor_divide", np.floor_divide),
    ("remainder", np.remainder), ("floor_mod", np.remainder), ("fmod", np.fmod),
]

# The result of Tensor(a) op Tensor(b), read from MindSpore 2.10's ops.add.
PROMOTION = {
    ("bool", "int32"): "int32", ("bool", "float16"): "float16", ("int32", "int64"): "int64",
    ("int32", "float16"): "float16", ("int64", "float16"): "float16",
    ("int64", "float32"): "float32", ("float16", "float32"): "float32",
    ("int8", "uint8"): "int16", ("uint8", "int16"): "int16", ("int32", "float64"): "float64",
    ("float16", "float64"): "float64", ("float16", "bfloat16"): "float32",
}


def _ms_dtype(name):
    return getattr(mstype, "bool_" if name == "bool" else name)


def _np_dtype(name):
    return mstype.to_numpy_dtype(_ms_dtype(name))


@pytest.mark.parametrize("pair,expected", PROMOTION.items(), ids=[f"{a}-{b}" for a, b in PROMOTION])
def test_tensor_tensor_promotion(pair, expected):
    left = Tensor(np.ones((2,), _np_dtype(pair[0])))
    right = Tensor(np.ones((2,), _np_dtype(pair[1])))
    assert ops.add(left, right).dtype is _ms_dtype(expected)
    assert ops.mul(right, left).dtype is _ms_dtype(expected)


# tensor dtype, Python scalar, result dtype (MindSpore 2.10 ops.add)
SCALAR_PROMOTION = [
    ("bool", 2, "int64"), ("bool", 2.5, "float32"), ("int32", 2, "int32"),
    ("int32", 2.5, "float32"), ("int64", 2.5, "float32"), ("float16", 2, "float16"),
    ("float16", 2.5, "float16"), ("float32", True, "float32"), ("int32", True, "int32"),
    ("float64", 2.5, "float64"),
]


@pytest.mark.parametrize("dtype,scalar,expected", SCALAR_PROMOTION)
def test_tensor_scalar_promotion(dtype, scalar, expected):
    data = sample(dtype if dtype != "float64" else "float32").astype(dtype)
    forward = ops.add(Tensor(data), scalar)
    backward = ops.sub(scalar, Tensor(data))
    assert forward.dtype is _ms_dtype(expected)
    assert backward.dtype is _ms_dtype(expected)
    np.testing.assert_allclose(forward.asnumpy(), data.astype(np.float64) + scalar, rtol=1e-3)
    np.testing.assert_allclose(backward.asnumpy(), scalar - data.astype(np.float64), rtol=1e-3)


def test_two_python_numbers_make_a_tensor():
    assert ops.add(2, 3).dtype is mstype.int64
    assert ops.mul(2, 1.5).dtype is mstype.float32
    assert float(ops.mul(2, 1.5).asnumpy()) == 3.0


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_python_float_beside_a_float64_tensor_is_rounded_to_float32_first(mode):
    # MindSpore 2.10 (CPU, PyNative and GRAPH alike) holds a float operand as a float32 scalar: on Float64 [1.0, 2.0]
    # ``x + 0.1`` gives [1.1000000014901161, 2.100000001490116]; NumPy floats and complex Tensors alike.
    class Net(nn.Cell):
        def construct(self, x):
            return x + 0.1, 0.1 - x, x / 3.3, ops.mul(x, np.float64(1.1)), ops.pow(x, 0.3), ops.clamp(x, 1.1, 1.7)

    x = Tensor(np.array([1.0, 2.0], np.float64))
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    try:
        outputs = [output.asnumpy().tolist() for output in Net()(x)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert outputs == [[1.1000000014901161, 2.100000001490116], [-0.8999999985098839, -1.8999999985098839],
                       [0.3030303074089731, 0.6060606148179462], [1.100000023841858, 2.200000047683716],
                       [1.0, 1.2311444235178113], [1.100000023841858, 1.7000000476837158]]
    assert (Tensor(np.array([1.0], np.complex128)) + 0.1).asnumpy().tolist() == [(1.1000000014901161 + 0j)]
    # fill values are not operands: they stay exact
    assert ops.full_like(x, 0.1).asnumpy().tolist() == [0.1, 0.1]


# Float dtypes, broadcasting, Python-number operands and gradients of these ops are checked by the
# op test table (tests/ops/test_op_table.py); integers here.
@pytest.mark.parametrize("name,reference", BINARY, ids=[row[0] for row in BINARY])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_binary_values_and_dtype(name, reference, dtype):
    left = sample(dtype, "positive" if name == "pow" else "any")
    right = sample(dtype, "positive" if name in ("pow", "floor_divide", "remainder", "floor_mod",
                                                 "fmod") else "any")
    if name == "pow" and dtype.startswith("int"):
        left, right = np.abs(left), np.abs(right) % 3
    result = getattr(ops, name)(Tensor(left), Tensor(right))
    assert str(result.dtype) == MS_NAME[dtype]
    want = reference(left.astype(np.float64), right.astype(np.float64))
    np.testing.assert_allclose(result.asnumpy().astype(np.float64), want, **tolerance(dtype))


def test_broadcasting():
    left, right = sample("float32", shape=(2, 1, 3)), sample("float32", shape=(4, 1))
    np.testing.assert_allclose(ops.mul(Tensor(left), Tensor(right)).asnumpy(), left * right,
                               rtol=1e-6)


@pytest.mark.parametrize("mode,left,right,want,dtype", [
    (None, [-7, 7], [2, 2], [-3.5, 3.5], "Float32"),
    ("floor", [-7, 7], [2, 2], [-4, 3], "Int64"),
    ("trunc", [-7, 7], [2, 2], [-3, 3], "Int64"),
])  # float operands in every rounding mode: the op test table
def test_div_rounding_modes(mode, left, right, want, dtype):
    result = ops.div(Tensor(left), Tensor(right), rounding_mode=mode)
    assert str(result.dtype) == dtype
    np.testing.assert_allclose(result.asnumpy(), want)


def test_div_of_integers_by_scalar_is_float32():
    result = ops.div(Tensor(np.array([1, 2], np.int32)), 2)
    assert result.dtype is mstype.float32
    np.testing.assert_allclose(result.asnumpy(), [0.5, 1.0])


def test_div_bad_rounding_mode():
    with pytest.raises(ValueError, match="rounding_mode"):
        ops.div(Tensor([1.0]), Tensor([2.0]), rounding_mode="up")


def test_float_power_needs_one_tensor():
    # lerp, addcmul, addcdiv, subtract(alpha=), float_power's values and Float64: the op test table
    assert ops.float_power(2, Tensor(np.array([1, 3], np.int32))).asnumpy().tolist() == [2.0, 8.0]
    with pytest.raises(TypeError, match="'float_power'.*must be a Tensor"):
        ops.float_power(2, 3)


def test_ops_work_under_jit():
    @jax.jit
    def step(a, b):
        x, y = Tensor._wrap(a), Tensor._wrap(b)
        return ops.add(ops.mul(ops.exp(x), 2.0), ops.div(y, 3))._value

    a, b = sample("float32"), sample("int32")
    result = step(a, b)
    assert result.dtype == np.float32
    np.testing.assert_allclose(result, np.exp(a) * 2 + b / 3, rtol=1e-5)


@pytest.mark.parametrize("call,error,match", [
    (lambda: ops.add(Tensor(np.ones((2, 3))), Tensor(np.ones(4))), ValueError, "broadcast"),
    # operands of several-operand ops that do not broadcast: ValueError, as MindSpore 2.10 (Lerp, Addcmul, Clamp,
    # Cross recorded on its CPU)
    (lambda: ops.lerp(Tensor(np.ones(2, np.float32)), Tensor(np.ones(3, np.float32)), 0.5), ValueError,
     "'lerp'.*broadcast"),
    (lambda: ops.addcmul(Tensor(np.ones((3, 4))), Tensor(np.ones((0, 4))), Tensor(np.ones((3, 4))), 1.0),
     ValueError, "'addcmul'.*broadcast"),
    (lambda: ops.clamp(Tensor(np.ones((0, 4))), Tensor(np.ones((3, 4))), Tensor(np.ones((3, 4)))), ValueError,
     "'clamp'.*broadcast"),
    (lambda: ops.cross(Tensor(np.ones((0, 3))), Tensor(np.ones((4, 3)))), ValueError, "'cross'.*broadcast"),
    (lambda: ops.exp("text"), TypeError, "'exp'.*'input'"),
    (lambda: ops.add(Tensor([1.0]), "text"), TypeError, "'add'.*'other'"),
    (lambda: ops.sqrt([1.0, 2.0]), TypeError, "'sqrt'.*'x'"),
    (lambda: ops.neg(Tensor([True])), TypeError, "Bool"),
    (lambda: ops.floor(Tensor([1, 2])), TypeError, "float"),
])
def test_errors_teach(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_scalar_results_are_tensors():
    result = ops.exp(Tensor(1.0))
    assert result.shape == ()
    assert pymath.isclose(float(result.asnumpy()), pymath.e, rel_tol=1e-6)


def test_exp2_of_float16_is_rounded_once_as_mindspore():
    # MindSpore 2.10 computes Float16 exp2 in Float32 (its docstring example prints 8. for 2 ** 3; XLA's own
    # Float16 exp2 gave 8.01, and 7.477 for 2 ** 2.9004 where the rounded answer is 7.465)
    x = np.array([0, 1, 3, 4, 2.900390625, -1.5], np.float16)
    expected = np.exp2(x.astype(np.float32)).astype(np.float16)
    for face in (ops.exp2, mint.exp2, mnp.exp2, lambda t: t.exp2()):
        got = face(Tensor(x))
        assert got.dtype == ms.float16
        np.testing.assert_array_equal(got.asnumpy(), expected)
    np.testing.assert_array_equal(ms.jit(ops.exp2)(Tensor(x)).asnumpy(), expected)


@pytest.mark.parametrize("face", ["mint.add", "mint.sub", "Tensor.add", "Tensor.sub"])
def test_alpha_keeps_the_operands_common_dtype(face):
    # MindSpore 2.10 (recorded): Float16 (3,) with an Int32 0-d Tensor and alpha=0.5 stays Float16; Int32 with
    # Int32 and alpha=2.5 becomes Float32; Float16 with an Int64 (3,) Tensor and alpha=2 stays Float16
    function = {"mint.add": mint.add, "mint.sub": mint.sub, "Tensor.add": Tensor.add, "Tensor.sub": Tensor.sub}[face]
    sign = 1 if face.endswith("add") else -1
    x16 = Tensor(np.array([4, 5, 6], np.float16))
    got = function(x16, Tensor(1, ms.int32), alpha=0.5)
    assert got.dtype == ms.float16
    np.testing.assert_array_equal(got.asnumpy(), np.array([4, 5, 6]) + sign * 0.5)
    got = function(x16, Tensor([1, 2, 3], ms.int64), alpha=2)
    assert got.dtype == ms.float16
    np.testing.assert_array_equal(got.asnumpy(), np.array([4, 5, 6]) + sign * np.array([2, 4, 6]))
    got = function(Tensor([4, 5, 6], ms.int32), Tensor([1, 1, 1], ms.int32), alpha=2.5)
    assert got.dtype == ms.float32
    np.testing.assert_array_equal(got.asnumpy(), np.array([4, 5, 6]) + sign * 2.5)
