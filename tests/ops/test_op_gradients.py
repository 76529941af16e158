"""Gradients of functional ops at ties and edges equal MindSpore 2.10's bprops (recorded by
``tests/fixtures/op_gradients/record.py``): where MindSpore's gradient is a convention (how a tie splits, the
value at a kink or at 0, inputs it does not differentiate), finite differences cannot decide it."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, ops

FIXTURES = os.path.join(os.path.dirname(__file__), os.pardir, "fixtures", "op_gradients")
with open(os.path.join(FIXTURES, "mindspore.json")) as file:
    CASES = json.load(file)["cases"]


def _arguments(name, tensors, kwargs):
    if name == "one_hot":
        return [tensors[0], kwargs["depth"], *tensors[1:]], {}
    return list(tensors), {key: tuple(value) if isinstance(value, list) else value for key, value in kwargs.items()}


@pytest.mark.parametrize("case", CASES, ids=[case["op"] for case in CASES])
def test_gradient_matches_mindspore(case):
    function = getattr(ops, case["op"])

    def call(*tensors):
        positional, keywords = _arguments(case["op"], tensors, case["kwargs"])
        return function(*positional, **keywords)

    tensors = [Tensor(np.array(item["value"], item["dtype"])) for item in case["inputs"]]
    sens = tuple(Tensor(np.array(item, np.float32)) for item in case["sens"])
    sens = sens if case["several_outputs"] else sens[0]
    gradients = ops.GradOperation(get_all=True, sens_param=True)(call)(*tensors, sens)
    assert len(gradients) == len(case["gradients"]), case["op"]
    for position, (gradient, expected) in enumerate(zip(gradients, case["gradients"])):
        actual = gradient.asnumpy()
        expected_array = np.array(expected["value"], expected["dtype"])
        message = f"d {case['op']} / input {position}"
        assert actual.dtype == expected_array.dtype, message
        np.testing.assert_allclose(actual, expected_array, rtol=1e-5, atol=1e-6, err_msg=message)
