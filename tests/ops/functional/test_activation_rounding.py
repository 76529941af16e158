"""HSwish / HSigmoid are bit-equal to MindSpore 2.10's CPU kernels (values recorded on MindSpore 2.10)."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import ops

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "ops", "hard_activations_mindspore.json")
RECORDED = json.load(open(FIXTURE))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", ["HSwish", "HSigmoid"])
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_hard_activations_match_mindspore_bit_for_bit(name, dtype, mode):
    x = np.array(RECORDED[dtype]["x"], dtype=dtype)
    primitive = getattr(ops, name)()
    run = primitive if mode == ms.PYNATIVE_MODE else ms.jit(lambda value: primitive(value))
    out = run(ms.Tensor(x)).asnumpy()
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(out, np.array(RECORDED[dtype][name], dtype=dtype))


def test_hswish_gradient_is_piecewise():
    x = np.array([-4.0, -1.0, 0.5, 4.0], np.float32)
    grad = ms.grad(lambda value: ops.HSwish()(value).sum())(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad, [0.0, 1.0 / 6.0, 4.0 / 6.0, 1.0], rtol=1e-6)
