"""MindSpore dtypes: printing, NumPy conversions and promotion, against values recorded from MindSpore 2.10."""
import json
from pathlib import Path

import jax
import numpy as np
import pytest

import sporax.ops  # noqa: F401  (installs Tensor operators)
from sporax.core import Tensor, dtype as mstype

ORACLE = json.loads((Path(__file__).parent.parent / "fixtures" / "dtype_mindspore.json").read_text())
NAMES = sorted(ORACLE["str"])


@pytest.mark.parametrize("name", NAMES)
def test_str_and_repr(name):
    dtype = getattr(mstype, name)
    assert str(dtype) == ORACLE["str"][name]
    assert repr(dtype) == ORACLE["repr"][name]
    assert f"{dtype}" == ORACLE["str"][name]


@pytest.mark.parametrize("name", NAMES)
def test_numpy_conversions_round_trip(name):
    dtype = getattr(mstype, name)
    assert np.dtype(mstype.dtype_to_nptype(dtype)).name == ORACLE["nptype"][name]
    assert mstype.from_numpy_dtype(mstype.to_numpy_dtype(dtype)) is dtype
    assert mstype.normalize(np.dtype(mstype.dtype_to_nptype(dtype))) is dtype


def test_identity_and_hash():
    assert mstype.float32 == mstype.float32 and mstype.float32 != mstype.int32
    assert hash(mstype.float32) == hash(mstype.float32)
    assert mstype.float32 != np.float32
    assert repr((mstype.float32, mstype.int64)) == "(mindspore.float32, mindspore.int64)"
    assert mstype.pytype_to_dtype(int) is mstype.int64 and mstype.pytype_to_dtype(bool) is mstype.bool_


def _result_dtype(function, *dtypes):
    """The dtype of ``function`` on Tensors of ``dtypes``, traced abstractly (nothing compiles or runs)."""
    specs = [jax.ShapeDtypeStruct((2,), mstype.to_numpy_dtype(dtype)) for dtype in dtypes]
    result = jax.eval_shape(lambda *arrays: function(*(Tensor._wrap(a) for a in arrays))._value, *specs)
    return mstype.from_numpy_dtype(result.dtype)


TENSOR_PAIRS = sorted(k for k, v in ORACLE["promote"].items() if not v.startswith("ERR"))


@pytest.mark.parametrize("pair", TENSOR_PAIRS)
def test_tensor_tensor_promotion(pair):
    left, right = (getattr(mstype, name) for name in pair.split(","))
    expected = ORACLE["promote"][pair]
    assert str(mstype.promote(left, right)) == expected
    assert str(_result_dtype(lambda a, b: a + b, left, right)) == expected


SCALAR_PAIRS = sorted(k for k, v in ORACLE["scalar"].items() if not v.startswith("ERR"))


@pytest.mark.parametrize("pair", SCALAR_PAIRS)
def test_tensor_scalar_promotion(pair):
    name, kind = pair.split(",")
    scalar = {"bool": True, "int": 2, "float": 2.5}[kind]
    dtype = getattr(mstype, name)
    expected = ORACLE["scalar"][pair]
    assert str(mstype.promote_with_scalar(dtype, scalar)) == expected
    assert str(_result_dtype(lambda a: a + scalar, dtype)) == expected


def test_unsigned_and_bfloat16_have_their_own_type_classes_as_mindspore():
    # MindSpore 2.10: type(uint8).__name__ == 'UInt', type(bfloat16).__name__ == 'BFloat'; neither is an
    # Int/Float instance, and dtype_to_pytype still gives int/float.
    from sporax.core import dtype as mstype
    assert type(mstype.uint8).__name__ == "UInt" and type(mstype.bfloat16).__name__ == "BFloat"
    assert all(type(t) is type(mstype.uint8) for t in (mstype.uint16, mstype.uint32, mstype.uint64))
    assert not isinstance(mstype.uint8, mstype.Int) and not isinstance(mstype.bfloat16, mstype.Float)
    assert isinstance(mstype.uint8, mstype.Type) and isinstance(mstype.bfloat16, mstype.Type)
    assert mstype.dtype_to_pytype(mstype.uint8) is int and mstype.dtype_to_pytype(mstype.bfloat16) is float


def test_quant_dtype_is_mindspores_enum():
    # Recorded from MindSpore 2.10: INT1..INT16 are 0..15, UINT1..UINT16 100..115; str is the name, value() a method.
    QuantDtype = mstype.QuantDtype
    assert QuantDtype.INT8.value() == 7 and QuantDtype.UINT16.value() == 115
    assert str(QuantDtype.UINT4) == "UINT4" and repr(QuantDtype.INT8) == "<QuantDtype.INT8: 7>"
    assert [q.name for q in QuantDtype][:2] == ["INT1", "INT2"] and len(QuantDtype) == 32
