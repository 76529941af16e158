"""LazyAdam, AdamOffload, ProximalAdagrad, Rprop and ASGD: three steps against MindSpore 2.10
(tests/fixtures/nn/record_optimizer_steps.py)."""
import importlib.util
import json
import os

import numpy as np
import pytest

import sporax as ms

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "nn")
_spec = importlib.util.spec_from_file_location("record_optimizer_steps",
                                               os.path.join(FIXTURES, "record_optimizer_steps.py"))
RECORDER = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RECORDER)
with open(os.path.join(FIXTURES, "optimizer_steps_mindspore.json")) as handle:
    EXPECTED = json.load(handle)


@pytest.mark.parametrize("index", range(len(RECORDER.CASES)), ids=lambda i: RECORDER.CASES[i][0] + str(i))
def test_three_steps_match_mindspore(index):
    got = RECORDER.run(ms, RECORDER.CASES[index])
    for array, want in zip(got, EXPECTED[index]):
        np.testing.assert_allclose(array, want, rtol=1e-5, atol=1e-6)


def test_argument_errors():
    params = [ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="p")]
    with pytest.raises(ValueError, match="etas"):
        ms.nn.Rprop(params, etas=(1.5, 1.2))
    with pytest.raises(ValueError, match="l1"):
        ms.nn.ProximalAdagrad(params, l1=-1.0)
    with pytest.raises(TypeError, match="lambd"):
        ms.nn.ASGD(params, lambd="0.1")
