"""CustomRegOp / DataType / custom_info_register against MindSpore 2.10's results
(tests/fixtures/ops/record_custom_registration.py)."""
import importlib.util
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import ops

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "ops")
_spec = importlib.util.spec_from_file_location("record_custom_registration",
                                               os.path.join(FIXTURES, "record_custom_registration.py"))
RECORDER = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RECORDER)


def _load(name):
    with open(os.path.join(FIXTURES, name)) as handle:
        return json.load(handle)


def test_data_type_table_matches_mindspore():
    table = {name: list(getattr(ops.DataType, name)) for name in dir(ops.DataType) if not name.startswith("_")}
    assert table == _load("custom_datatype_mindspore.json")


def test_reg_op_info_matches_mindspore():
    assert json.loads(json.dumps(RECORDER.chains(ops))) == _load("custom_reg_op_mindspore.json")


def test_custom_info_register_with_pyfunc_custom():
    info = ops.CustomRegOp("square").input(0, "x").output(0, "y").dtype_format(
        ops.DataType.F32_Default, ops.DataType.F32_Default).target("CPU").get_op_info()

    @ops.custom_info_register(info)
    def square(x):
        return x * x

    assert square.reg_info == (info,)
    custom = ops.Custom(square, out_shape=lambda s: s, out_dtype=lambda t: t, reg_info=square.reg_info)
    np.testing.assert_array_equal(custom(ms.Tensor([2.0, 3.0])).asnumpy(), [4.0, 9.0])


def test_errors():
    with pytest.raises(TypeError, match="must be int"):
        ops.CustomRegOp().input("0", "x")
    with pytest.raises(ValueError, match="size of 'args'"):
        ops.CustomRegOp().dtype_format("float32")
