"""RandomChoiceWithMask against MindSpore 2.10's CPU streams (tests/fixtures/msops/record_random_choice_with_mask.py):
seeds in either slot, a negative seed2, repeated calls continuing the stream, padding, a compiled Cell, and
MindSpore's INT_MAX output-size error."""
import json
import os

import numpy as np
import pytest

import sporax
from sporax import Tensor, nn, ops

DATA = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "msops",
                                   "random_choice_with_mask.json")))
INPUTS = {name: np.array(flags, bool) for name, flags in DATA["inputs"].items()}


@pytest.mark.parametrize("case", DATA["cases"],
                         ids=lambda c: f"{c['input']}-{c['count']}-{c['seed']}-{c['seed2']}")
def test_streams_match_mindspore(case):
    prim = ops.RandomChoiceWithMask(count=case["count"], seed=case["seed"], seed2=case["seed2"])
    for expect in case["calls"]:
        index, mask = prim(Tensor(INPUTS[case["input"]]))
        np.testing.assert_array_equal(index.asnumpy(), expect["index"])
        np.testing.assert_array_equal(mask.asnumpy(), expect["mask"])


class _Net(nn.Cell):
    def __init__(self, case):
        super().__init__()
        self.op = ops.RandomChoiceWithMask(count=case["count"], seed=case["seed"], seed2=case["seed2"])

    def construct(self, x):
        return self.op(x)


def test_graph_mode_cell_advances_the_stream():
    case = DATA["cases"][0]
    sporax.set_context(mode=sporax.GRAPH_MODE)
    try:
        net = _Net(case)
        outputs = [net(Tensor(INPUTS[case["input"]]))[0].asnumpy() for _ in range(3)]
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
    np.testing.assert_array_equal(outputs, [call["index"] for call in case["calls"]])


def test_output_past_int_max_raises_runtime_error():
    with pytest.raises(RuntimeError, match="INT_MAX"):
        ops.RandomChoiceWithMask(count=2051328285, seed=0, seed2=-1024)(Tensor(np.ones((2, 2, 2), bool)))
