"""Ops on dtypes beyond Float32 against MindSpore 2.10: result dtype, shape and values.

Each case of tests/fixtures/dtype_sweep_mindspore.json (recorded by tests/fixtures/record_dtype_sweep.py) is one
that a sweep of the op table (its ``ops``, ``mint`` and Tensor method faces) over Float16, Float64, BFloat16, integer, Bool and Complex64 inputs found sporax
refusing or answering differently while MindSpore succeeds.
"""
import json
import pathlib

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops

FIXTURE = pathlib.Path(__file__).parents[1] / "fixtures" / "dtype_sweep_mindspore.json"
CASES = json.loads(FIXTURE.read_text())
# MindSpore's half-precision kernels round differently from XLA's: one or two units in the last place
TOLERANCE = {"Float16": 4e-3, "BFloat16": 2e-2, "Float32": 1e-5, "Float64": 1e-10, "Complex64": 1e-5,
             "Complex128": 1e-10}


def _build(item):
    if isinstance(item, str) and item.startswith("dtype:"):
        return getattr(ms, item[len("dtype:"):])
    if not isinstance(item, dict):
        return item
    if item["dtype"] == "bfloat16":
        return Tensor(np.array(item["values"], np.float32), ms.bfloat16)
    values = np.array(item["values"])
    if "imag" in item:
        values = values + 1j * np.array(item["imag"])
    with np.errstate(over="ignore"):  # large values meant to become Float16 infinities
        return Tensor(values.astype(item["dtype"]))


def _check(result, expected, where):
    if isinstance(expected, list):
        assert isinstance(result, (tuple, list)) and len(result) == len(expected), where
        for index, (item, want) in enumerate(zip(result, expected)):
            _check(item, want, f"{where}[{index}]")
        return
    assert str(result.dtype) == expected["dtype"], where
    assert list(result.shape) == expected["shape"], where
    array = (result.astype(ms.float32) if expected["dtype"] == "BFloat16" else result).asnumpy()
    if "real" in expected:
        want = np.array(expected["real"]) + 1j * np.array(expected["imag"])
    else:
        want = np.array(expected["values"])
    if array.dtype.kind in "fc":
        tolerance = TOLERANCE[expected["dtype"]]
        np.testing.assert_allclose(array, want, rtol=tolerance, atol=tolerance, err_msg=where)
    else:
        # the exact integers (UInt64 values past Int64 would go through Float64 in np.array)
        np.testing.assert_array_equal(array, np.array(expected["values"], array.dtype), err_msg=where)


def _case_id(case):
    face = "Tensor." if case.get("face") == "method" else ""
    return "-".join([face + case["op"]] + [item["dtype"] if isinstance(item, dict) else
                                           item if isinstance(item, str) else type(item).__name__
                                    for item in case["inputs"]])


@pytest.mark.parametrize("case", CASES, ids=[_case_id(case) for case in CASES])
def test_op_on_dtype_as_mindspore(case):
    inputs = [_build(item) for item in case["inputs"]]
    if case.get("face") == "method":
        result = getattr(inputs[0], case["op"])(*inputs[1:], **case["settings"])
    else:
        result = getattr(ops, case["op"])(*inputs, **case["settings"])
    _check(result, case["expected"], case["op"])
