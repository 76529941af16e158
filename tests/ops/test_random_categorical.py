"""RandomCategorical against MindSpore 2.10's CPU streams (tests/fixtures/msops/record_random_categorical.py):
seeds, logits dtypes, a Primitive's repeated calls (each call signature continues its own stream), the
functional form (a fresh stream per call), and a compiled Cell advancing the stream."""
import json
import os

import numpy as np
import pytest

import sporax
from sporax import Tensor, nn, ops
from sporax.core import dtype as mstype

DATA = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "msops", "random_categorical.json")))
LOGITS = np.array(DATA["logits"], np.float32)


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: f"{c['dtype']}-{c['seed']}")
def test_primitive_streams_match_mindspore(case):
    prim = ops.RandomCategorical(mstype.int32)
    for (num_sample, seed), expect in zip(case["calls"], case["outputs"]):
        out = prim(Tensor(LOGITS.astype(case["dtype"])), num_sample, seed)
        assert out.dtype == mstype.int32
        np.testing.assert_array_equal(out.asnumpy(), expect)


def test_uniform_logits_expose_the_engine_draws():
    for seed, expect in zip((1, 2, 3), DATA["uniform"]):
        out = ops.RandomCategorical(mstype.int64)(Tensor(np.zeros((2, 100000), np.float32)), 6, seed)
        np.testing.assert_array_equal(out.asnumpy(), expect)


def test_functional_starts_a_fresh_stream_each_call():
    for expect in DATA["functional"]:
        np.testing.assert_array_equal(ops.random_categorical(Tensor(LOGITS), 8, 5).asnumpy(), expect)


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.rc = ops.RandomCategorical(mstype.int32)

    def construct(self, logits):
        return self.rc(logits, 8, 5)


@pytest.mark.parametrize("mode", [sporax.PYNATIVE_MODE, sporax.GRAPH_MODE])
def test_cell_continues_the_stream_in_both_modes(mode):
    sporax.set_context(mode=mode)
    try:
        net = _Net()
        outputs = [net(Tensor(LOGITS.astype(np.float16))).asnumpy() for _ in range(2)]
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
    case = next(c for c in DATA["cases"] if c["dtype"] == "float16" and c["seed"] == 5)
    np.testing.assert_array_equal(outputs, case["outputs"][:2])


def test_bad_arguments_raise():
    with pytest.raises(TypeError, match="dtype"):
        ops.RandomCategorical(mstype.float32)
    with pytest.raises(ValueError, match="2-D"):
        ops.RandomCategorical()(Tensor(np.zeros(3, np.float32)), 2, 1)

