"""Binary ops whose MindSpore 2.10 Primitive checks the operands' common dtype: Fmax/Fmin take Float16/32/64,
Int32, Int64; TruncateMod Float16/32/64, Int8, Int32, UInt8; Hypot and Zeta
Float32/64, Xdivy float and complex (Hypot, Xdivy on every face: ops, Primitive, method). Other common dtypes (Bool, Int8/16, UInt8, BFloat16,
complex; Int64 and Int16 for TruncateMod) raise its TypeError, whose first line was recorded on MindSpore 2.10 CPU.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops

FMAX = "{Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int32], Tensor[Int64]}"
HYPOT = "{Tensor[Float32], Tensor[Float64]}"
XDIVY = "{Tensor[Complex128], Tensor[Complex64], Tensor[Float16], Tensor[Float32], Tensor[Float64]}"
TRUNCATE_MOD = "{Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int32], Tensor[Int8], Tensor[UInt8]}"


def _tensor(dtype, values=(5, -3, 2)):
    if dtype == "bfloat16":
        return Tensor(np.array(values, np.float32), ms.bfloat16)
    return Tensor(np.array(values).astype(dtype))


REFUSED = [
    # (op, x, y, the first line of MindSpore 2.10's TypeError)
    ("fmax", _tensor("bool"), _tensor("bool"), f"For primitive[Fmax], the input argument[x1] must be a type of {FMAX}, "
                                                "but got Tensor[Bool]."),
    ("fmax", _tensor("bool"), True, f"For primitive[Fmax], the input argument[x1] must be a type of {FMAX}, "
                                    "but got Tensor[Bool]."),
    ("fmax", _tensor("int8"), 2, f"For primitive[Fmax], the input argument[x1] must be a type of {FMAX}, "
                                 "but got Tensor[Int8]."),
    ("fmax", _tensor("bfloat16"), _tensor("bfloat16"), f"For primitive[Fmax], the input argument[x1] must be a type "
                                                        f"of {FMAX}, but got Tensor[BFloat16]."),
    ("fmin", _tensor("bool"), _tensor("bool"), f"For primitive[Fmin], the input argument[x1] must be a type of {FMAX}, "
                                                "but got Tensor[Bool]."),
    ("fmin", _tensor("int16"), _tensor("int16"), f"For primitive[Fmin], the input argument[x1] must be a type of "
                                                  f"{FMAX}, but got Tensor[Int16]."),
    ("truncate_mod", _tensor("int64"), _tensor("int64"), "For primitive[TruncateMod], the input argument[x] must be a "
                                                          f"type of {TRUNCATE_MOD}, but got Tensor[Int64]."),
    ("truncate_mod", _tensor("int64"), _tensor("int32"), "For primitive[TruncateMod], the input argument[x] must be a "
                                                          f"type of {TRUNCATE_MOD}, but got Tensor[Int64]."),
    ("truncate_mod", _tensor("int64"), 2, "For primitive[TruncateMod], the input argument[x] must be a "
                                          f"type of {TRUNCATE_MOD}, but got Tensor[Int64]."),
    ("truncate_mod", _tensor("int16"), _tensor("int16"), "For primitive[TruncateMod], the input argument[x] must be a "
                                                          f"type of {TRUNCATE_MOD}, but got Tensor[Int16]."),
    ("truncate_mod", _tensor("bool"), _tensor("bool"), "For primitive[TruncateMod], the input argument[x] must be a "
                                                        f"type of {TRUNCATE_MOD}, but got Tensor[Bool]."),
    ("truncate_mod", _tensor("bfloat16"), _tensor("bfloat16"), "For primitive[TruncateMod], the input argument[x] "
                                                                f"must be a type of {TRUNCATE_MOD}, but got "
                                                                "Tensor[BFloat16]."),
    ("hypot", _tensor("int32"), _tensor("int32"), f"For primitive[Hypot], the input argument[x1] must be a type of "
                                                  f"{HYPOT}, but got Tensor[Int32]."),
    ("hypot", _tensor("int32"), _tensor("int64"), f"For primitive[Hypot], the input argument[x1] must be a type of "
                                                  f"{HYPOT}, but got Tensor[Int64]."),
    ("hypot", _tensor("float16"), 2.0, f"For primitive[Hypot], the input argument[x1] must be a type of {HYPOT}, "
                                       "but got Tensor[Float16]."),
    ("hypot", _tensor("bfloat16"), _tensor("bfloat16"), f"For primitive[Hypot], the input argument[x1] must be a "
                                                        f"type of {HYPOT}, but got Tensor[BFloat16]."),
    ("hypot", _tensor("bool"), _tensor("bool"), f"For primitive[Hypot], the input argument[x1] must be a type of "
                                                f"{HYPOT}, but got Tensor[Bool]."),
    ("hypot", Tensor(3), Tensor(4), f"For primitive[Hypot], the input argument[x1] must be a type of {HYPOT}, "
                                    "but got Tensor[Int64]."),  # 0-d
    ("zeta", _tensor("float16"), _tensor("float16"), f"For primitive[Zeta], the input argument[q] must be a type of "
                                                      f"{HYPOT}, but got Tensor[Float16]."),
    ("zeta", _tensor("bool"), _tensor("bool"), f"For primitive[Zeta], the input argument[q] must be a type of "
                                                f"{HYPOT}, but got Tensor[Bool]."),
    ("xdivy", _tensor("int32"), _tensor("int32"), f"For primitive[Xdivy], the input argument[x] must be a type of "
                                                  f"{XDIVY}, but got Tensor[Int32]."),
    ("xdivy", _tensor("bool"), _tensor("bool"), f"For primitive[Xdivy], the input argument[x] must be a type of "
                                                f"{XDIVY}, but got Tensor[Bool]."),
]


@pytest.mark.parametrize("name, x, y, first_line", REFUSED,
                         ids=[f"{name}-{getattr(x, 'dtype', x)}-{getattr(y, 'dtype', y)}" for name, x, y, _ in REFUSED])
def test_refused_like_mindspore(name, x, y, first_line):
    primitive = {"fmax": ops.Fmax, "fmin": ops.Fmin, "truncate_mod": ops.TruncateMod, "hypot": ops.Hypot,
                 "zeta": ops.Zeta, "xdivy": ops.Xdivy}[name]
    faces = (getattr(ops, name), primitive(), ms.jit(getattr(ops, name)))
    if name in ("hypot", "xdivy"):  # their Tensor methods run the Primitive too
        faces += (lambda x, y: getattr(x, name)(y),)
    for call in faces:
        with pytest.raises(TypeError) as caught:
            call(x, y)
        assert str(caught.value).split("\n")[0] == first_line


def test_accepted_common_dtypes_as_mindspore():
    # recorded on MindSpore 2.10 CPU: a Bool or Int8 operand beside an accepted dtype promotes to it
    result = ops.fmax(_tensor("int8", (1, -2, 3)), _tensor("int32", (3, -3, 2)))
    assert str(result.dtype) == "Int32" and result.asnumpy().tolist() == [3, -2, 3]
    result = ops.fmax(_tensor("bool", (True, False, True)), _tensor("float32", (1.5, -2.0, 3.0)))
    assert str(result.dtype) == "Float32" and result.asnumpy().tolist() == [1.5, 0.0, 3.0]
    for dtype in ("int8", "int32", "uint8", "float16"):
        result = ops.truncate_mod(_tensor(dtype, (-7, 7, 3, 5)), _tensor(dtype, (3, 3, 2, 2)))
        assert str(result.dtype) == str(_tensor(dtype).dtype)
        assert result.asnumpy().tolist() == ([-1, 1, 1, 1] if dtype != "uint8" else [0, 1, 1, 1])


def test_hypot_common_float_dtypes_as_mindspore():
    # recorded on MindSpore 2.10 CPU: an Int32 Tensor beside a float, or Float16 beside Float32, is Float32
    result = ops.hypot(_tensor("int32", (3, 1, 2)), 2.5)
    assert str(result.dtype) == "Float32"
    np.testing.assert_allclose(result.asnumpy(), [3.9051249, 2.6925824, 3.2015622], rtol=1e-6)
    result = ops.hypot(_tensor("float32", (3, 1, 2)), _tensor("float16", (4, 2, 1)))
    assert str(result.dtype) == "Float32"
    np.testing.assert_allclose(result.asnumpy(), [5.0, 2.236068, 2.236068], rtol=1e-6)
    result = ops.hypot(_tensor("float32", (3, 1, 2)), _tensor("float64", (4, 2, 1)))
    assert str(result.dtype) == "Float64"

    # recorded on MindSpore 2.10 CPU: Xdivy of Int32 beside a float is Float32
    result = ops.xdivy(_tensor("int32", (3, 1, 2)), 2.0)
    assert str(result.dtype) == "Float32" and result.asnumpy().tolist() == [1.5, 0.5, 1.0]
