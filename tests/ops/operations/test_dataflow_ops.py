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
                ms.float32: 43, ms.float64: 44, ms.bfloat16: 45, ms.complex64: 51, ms.string: 12, ms.list_: 13}
    convert = ops.DtypeToEnum()
    assert {dtype: convert("Cast", "dtype", dtype) for dtype in expected} == expected
    with pytest.raises(TypeError, match="'Cast'.*'dtype'"):
        convert("Cast", "dtype", "float32")
