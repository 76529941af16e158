"""Primitive classes (math, linear algebra, order statistics, array, pooling) against values recorded from
MindSpore 2.10 (tests/fixtures/oracle_primitives)."""
import json
import os

import numpy as np
import pytest

from sporax import Parameter, Tensor, ops

FIXTURE = os.path.join(os.path.dirname(__file__), os.pardir, "fixtures", "oracle_primitives", "oracle_primitives.json")
with open(FIXTURE) as handle:
    CASES = json.load(handle)["cases"]


def build(spec, index):
    if isinstance(spec, list) and len(spec) == 3 and spec[0] == "param":
        return Parameter(Tensor(np.array(spec[1], spec[2])), name=f"p{index}")
    if isinstance(spec, list) and len(spec) == 2 and isinstance(spec[1], str):
        return Tensor(np.array(spec[0], spec[1]))
    return tuple(spec) if isinstance(spec, list) else spec


def plain(value):
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    return value.asnumpy().tolist()


@pytest.mark.parametrize("case", CASES, ids=[f"{c['op']}-{i}" for i, c in enumerate(CASES)])
def test_matches_mindspore(case):
    args = [build(spec, i) for i, spec in enumerate(case["inputs"])]
    output = getattr(ops, case["op"])(**case["init"])(*args)
    if case.get("kept"):
        output = output[:case["kept"]]
    result, expected = plain(output), case["output"]
    if isinstance(expected, list) and expected and isinstance(output, tuple):
        for got, want in zip(result, expected):
            np.testing.assert_allclose(np.asarray(got, float), np.asarray(want, float), rtol=2e-5, atol=2e-5)
    else:
        assert np.shape(result) == np.shape(expected)
        np.testing.assert_allclose(np.asarray(result, float), np.asarray(expected, float), rtol=2e-5, atol=2e-5)
    params = [plain(a) for a in args if isinstance(a, Parameter)]
    for got, want in zip(params, case["params"]):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("dtype", ["int16", "int64", "uint8"])
def test_selu_refuses_integers_without_a_kernel(dtype):
    # MindSpore 2.10: "For primitive[SeLU], the input argument[input_x] must be a type of {Tensor[Float16],
    # Tensor[Float32], Tensor[Float64], Tensor[Int32], Tensor[Int8]}"
    with pytest.raises(TypeError, match="selu.*Int8 or Int32"):
        ops.SeLU()(Tensor(np.array([3, 1], dtype)))
