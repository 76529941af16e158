"""Tensor.astype and Tensor.to give MindSpore 2.10's recorded ``Cast`` results, in PyNative and compiled.

The method casts run ``ops.cast``'s table entry (its eager kernel compiled once per dtype pair, not the
float-to-integer conversion op by op); the recorded cases (tests/fixtures/dtype_sweep_mindspore.json: -2.8 ->
254 for UInt8, 300.7 -> 44, NaN and out-of-range values -> the integer indefinite's low bits) pin that the
values did not move with the path.
"""
import json
import pathlib

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor

FIXTURE = pathlib.Path(__file__).parents[1] / "fixtures" / "dtype_sweep_mindspore.json"
CASTS = [case for case in json.loads(FIXTURE.read_text()) if case["op"] == "cast"]


def _source(item):
    if item["dtype"] == "bfloat16":
        return Tensor(np.array(item["values"], np.float32), ms.bfloat16)
    with np.errstate(over="ignore"):  # values meant to become Float16 infinities
        return Tensor(np.array(item["values"]).astype(item["dtype"]))


def _method_casts(x, dtype):
    return x.astype(dtype), x.to(dtype), x.astype(str(np.dtype(ms.dtype_to_nptype(dtype))).upper())


@pytest.mark.parametrize("case", CASTS, ids=[f"{c['inputs'][0]['dtype']}-{c['inputs'][1][6:]}" for c in CASTS])
def test_method_cast_equals_mindspore(case):
    source, dtype = _source(case["inputs"][0]), getattr(ms, case["inputs"][1][len("dtype:"):])
    expected = case["expected"]
    eager = _method_casts(source, dtype)
    compiled = ms.jit(lambda x: _method_casts(x, dtype))(source)
    for face, result in zip(("astype", "to", "astype(name)") * 2, eager + tuple(compiled)):
        assert str(result.dtype) == expected["dtype"], face
        array = result.asnumpy()
        np.testing.assert_array_equal(array, np.array(expected["values"], array.dtype), err_msg=face)


def test_same_dtype_cast_is_the_tensor_and_float_cast_has_gradient_one():
    x = Tensor(np.array([1.5, -2.25], np.float32))
    assert x.astype(ms.float32) is x
    gradient = ms.grad(lambda value: (value.astype(ms.float64) * 3.0).sum())(x)
    assert gradient.dtype == ms.float32
    np.testing.assert_array_equal(gradient.asnumpy(), [3.0, 3.0])
