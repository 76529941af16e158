"""nn.WithGradCell against gradients recorded from MindSpore 2.10 (tests/fixtures/msst2/record_with_grad_cell.py):
with a loss function (sens of ones) and with an explicit sens and no loss."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, nn

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "msst2", "with_grad_cell.json")
DATA = json.load(open(FIXTURE))


def _dense():
    return nn.Dense(3, 2, weight_init=Tensor(np.array(DATA["weight"], np.float32)),
                    bias_init=Tensor(np.array(DATA["bias"], np.float32)))


def _arr(name):
    return Tensor(np.array(DATA[name], np.float32))


@pytest.mark.parametrize("kind", ["loss", "sens_only"])
def test_with_grad_cell_matches_mindspore(kind):
    if kind == "loss":
        grads = nn.WithGradCell(_dense(), nn.MSELoss())(_arr("data"), _arr("label"))
    else:
        grads = nn.WithGradCell(_dense(), None, _arr("sens"))(_arr("data"))
    assert len(grads) == len(DATA[kind]) == 2
    for got, expect in zip(grads, DATA[kind]):
        np.testing.assert_allclose(got.asnumpy(), np.array(expect, np.float32), rtol=1e-5, atol=1e-6)
