"""Mul and Div with a 0-d Tensor operand keep the dtype of the other operand, as MindSpore 2.10 does.

Recorded on MindSpore 2.10 (CPU, PyNative; GRAPH via ``ms.jit`` alike but for ``ops.div``'s rounding modes, which
promote there): when one operand is a 0-d Tensor and the other is not, and both are of one kind (Bool, integer,
floating), every face of Mul and Div (``*``, ``/``, ``*=``, ``/=``, ``ops.mul``, ``ops.div`` in each rounding mode,
``ops.Mul``, ``ops.Div``, ``mint.mul``, ``mint.div``, ``Tensor.mul``/``div``/``true_divide``) gives the other
operand's dtype: ``float16 (2,) * float32 0-d`` is Float16, so a ``to_float(float16)`` layer's output times a Float32
scale stays Float16. Add, Sub, RealDiv, FloorDiv and Maximum promote as usual, as do a change of kind and two
operands both 0-d or both not. The product and quotient are still taken in the common dtype, rounded once to the
result's.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, mint, nn, ops


def _imul(a, b):
    a *= b
    return a


def _idiv(a, b):
    a /= b
    return a


FACES = {
    "*": lambda a, b: a * b, "/": lambda a, b: a / b, "*=": _imul, "/=": _idiv,
    "ops.mul": ops.mul, "ops.div": ops.div,
    "ops.div floor": lambda a, b: ops.div(a, b, rounding_mode="floor"),
    "ops.div trunc": lambda a, b: ops.div(a, b, rounding_mode="trunc"),
    "ops.Mul": lambda a, b: ops.Mul()(a, b), "ops.Div": lambda a, b: ops.Div()(a, b),
    "mint.mul": mint.mul, "mint.div": mint.div,
    "Tensor.mul": lambda a, b: a.mul(b), "Tensor.div": lambda a, b: a.div(b),
    "Tensor.true_divide": lambda a, b: a.true_divide(b),
    "+": lambda a, b: a + b, "ops.sub": ops.sub, "ops.RealDiv": lambda a, b: ops.RealDiv()(a, b),
    "ops.floor_divide": ops.floor_divide, "ops.maximum": ops.maximum,
}

# (left dtype, right dtype, which operand is 0-d): the columns of RECORDED
PAIRS = [("float16", "float32", "right"), ("float64", "float16", "left"), ("int32", "int64", "right"),
         ("uint8", "int64", "right"), ("int64", "int8", "left"), ("float32", "float64", "right"),
         ("bool", "bool", "right"), ("int32", "float64", "right"), ("bool", "int32", "right"),
         ("float16", "int64", "left"), ("float16", "float32", "both"), ("int32", "int64", "neither")]

_MUL = ["Float16", "Float16", "Int32", "UInt8", "Int8", "Float32", "Bool", "Float64", "Int32", "Float16", "Float32",
        "Int64"]
_DIV = ["Float16", "Float16", "Float32", "Float32", "Float32", "Float32", "Float32", "Float64", "Float32", "Float16",
        "Float32", "Float32"]
_PROMOTED = ["Float32", "Float64", "Int64", "Int64", "Int64", "Float64", "Bool", "Float64", "Int32", "Float16",
             "Float32", "Int64"]
# the result dtype (or error type) of each face for each of PAIRS, recorded on MindSpore 2.10
RECORDED = {
    "*": _MUL, "*=": _MUL, "ops.mul": _MUL, "ops.Mul": _MUL, "mint.mul": _MUL, "Tensor.mul": _MUL,
    "ops.div floor": _MUL, "ops.div trunc": _MUL,
    "/": _DIV, "/=": _DIV, "ops.div": _DIV, "ops.Div": _DIV, "mint.div": _DIV, "Tensor.div": _DIV,
    "Tensor.true_divide": _DIV,
    "+": _PROMOTED, "ops.floor_divide": _PROMOTED, "ops.maximum": _PROMOTED,
    "ops.sub": _PROMOTED[:6] + ["TypeError"] + _PROMOTED[7:],
    "ops.RealDiv": _PROMOTED[:6] + ["TypeError"] + _PROMOTED[7:],
}


def _operands(left, right, zero_d):
    def tensor(dtype, values, scalar):
        dtype = ms.bool_ if dtype == "bool" else getattr(ms, dtype)
        return Tensor(values[0] if scalar else values, dtype=dtype)

    return (tensor(left, [3, 5], zero_d in ("left", "both")),
            tensor(right, [2, 4], zero_d in ("right", "both")))


@pytest.mark.parametrize("face", list(RECORDED))
def test_result_dtypes_recorded_on_mindspore(face):
    got = []
    for left, right, zero_d in PAIRS:
        try:
            got.append(str(FACES[face](*_operands(left, right, zero_d)).dtype))
        except TypeError:
            got.append("TypeError")
    assert got == RECORDED[face], [f"{pair}: {g} (MindSpore {r})" for pair, g, r in zip(PAIRS, got, RECORDED[face])
                                   if g != r]


@pytest.mark.parametrize("face", ["*", "/", "mint.mul"])
def test_compiled_faces_keep_the_dtype(face):
    compiled = ms.jit(FACES[face])
    for (left, right, zero_d), expected in zip(PAIRS, RECORDED[face]):
        assert str(compiled(*_operands(left, right, zero_d)).dtype) == expected, (left, right, zero_d)


# Values recorded on MindSpore 2.10: taken in the common dtype, then rounded once to the operand's
# (float16(3.3008 * 2.2) = 7.2617, where float16 arithmetic would give 7.2578).
_HALF = np.array([3.3, 5.7], np.float16)
VALUES = [
    ("*", Tensor(_HALF), Tensor(2.2, ms.float32), ms.float16, [7.26171875, 12.5390625]),
    ("*", Tensor(2.2, ms.float32), Tensor(_HALF), ms.float16, [7.26171875, 12.5390625]),
    ("/", Tensor(_HALF), Tensor(2.2, ms.float32), ms.float16, [1.5, 2.58984375]),
    ("/", Tensor(_HALF), Tensor(2.2, ms.float64), ms.float16, [1.5, 2.58984375]),
    ("*", Tensor(np.array([3.3, 1.0], np.float16)), Tensor(1e-8, ms.float32), ms.float16, [5.960464477539063e-08, 0]),
    ("ops.div trunc", Tensor([100, -100], ms.int8), Tensor(300, ms.int64), ms.int8, [0, 0]),
    ("ops.div trunc", Tensor([7, -7], ms.int32), Tensor(2**32 + 3, ms.int64), ms.int32, [0, 0]),
    ("*", Tensor([3, 1], ms.uint8), Tensor(-1, ms.int64), ms.uint8, [253, 255]),
    ("ops.Div", Tensor(_HALF), Tensor(np.array([2.2, 2.2], np.float16)), ms.float16, [1.5009765625, 2.591796875]),
]


@pytest.mark.parametrize("face,a,b,dtype,expected", VALUES)
def test_values_are_rounded_once_to_the_result_dtype(face, a, b, dtype, expected):
    result = FACES[face](a, b)
    assert result.dtype == dtype
    np.testing.assert_array_equal(result.asnumpy().astype(np.float64), expected)


def test_a_float16_layer_times_a_float32_scale_stays_float16():
    class Scaled(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 2)
            self.scale = Parameter(Tensor(2.0, ms.float32), name="scale")

        def construct(self, x):
            return self.dense(x) * self.scale

    net = Scaled().to_float(ms.float16)
    assert net(Tensor(np.ones((1, 3), np.float32))).dtype == ms.float16


def test_gradients_keep_each_operand_dtype():
    """MindSpore 2.10: d(sum(x * y))/dx of a float16 (2,) x and a float32 0-d y is Float16 (y rounded to it),
    d/dy is Float32; likewise for the quotient."""
    x, y = Tensor(_HALF), Tensor(2.2, ms.float32)
    gx, gy = ms.grad(lambda a, b: (a * b).sum(), grad_position=(0, 1))(x, y)
    assert (gx.dtype, gy.dtype) == (ms.float16, ms.float32)
    np.testing.assert_array_equal(gx.asnumpy(), np.float16([2.19921875, 2.19921875]))
    np.testing.assert_allclose(gy.asnumpy(), 9.0)
    gx, gy = ms.grad(lambda a, b: (a / b).sum(), grad_position=(0, 1))(x, y)
    assert (gx.dtype, gy.dtype) == (ms.float16, ms.float32)
    np.testing.assert_array_equal(gx.asnumpy(), np.float16([0.45458984375, 0.45458984375]))
    np.testing.assert_allclose(gy.asnumpy(), -1.8583984375, rtol=1e-3)  # -9 / 2.2**2
