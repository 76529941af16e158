"""GeSwitch/Merge (a value routed through one branch and joined) and DtypeToEnum (MindSpore's TypeId numbers)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops


def _t(values, dtype=np.float32):
    return Tensor(np.asarray(values, dtype))


def test_geswitch_and_merge_route_a_value_through_one_branch():
    x = _t([1.0, 2.0])
    false_branch, true_branch = ops.GeSwitch()(x, Tensor(True))
    assert false_branch is None and true_branch is x
    output, index = ops.Merge()((false_branch, true_branch * 2))
    np.testing.assert_array_equal(output.asnumpy(), [2.0, 4.0])
    assert int(index) == 1
    assert ops.geswitch(x, Tensor(False))[1] is None
    with pytest.raises(ValueError, match="exactly one input"):
        ops.merge((x, x))


def test_dtype_to_enum_gives_mindspores_type_ids():
    # values recorded from MindSpore 2.10's ops.DtypeToEnum
    expected = {ms.bool_: 30, ms.int8: 32, ms.int32: 34, ms.int64: 35, ms.uint8: 37, ms.float16: 42,
                ms.float32: 43, ms.float64: 44, ms.bfloat16: 45, ms.complex64: 51, ms.string: 12, ms.list_: 13,
                ms.float8_e4m3fn: 46, ms.float8_e5m2: 47, ms.hifloat8: 48}
    convert = ops.DtypeToEnum()
    assert {dtype: convert("Cast", "dtype", dtype) for dtype in expected} == expected
    with pytest.raises(TypeError, match="'Cast'.*'dtype'"):
        convert("Cast", "dtype", "float32")


def test_pyexecute_keeps_mindspores_attributes_and_refuses_a_call_outside_a_graph():
    # MindSpore 2.10 (CPU, PyNative): attrs {'side_effect_io': True, 'primitive_target': 'CPU'}; a call raises
    # RuntimeError 'Invalid primitive:PyExecute'. The functional module serves the same objects as ops.
    primitive = ops.PyExecute()
    assert primitive.attrs == {"side_effect_io": True, "primitive_target": "CPU"}
    with pytest.raises(RuntimeError, match="Invalid primitive:PyExecute"):
        primitive("x + y", ("x", "y"), (1, 2))
    from sporax.ops import functional

    assert functional.DtypeToEnum is ops.DtypeToEnum and functional.UniqueConsecutive is ops.UniqueConsecutive
