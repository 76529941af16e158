"""nn.AdaFactor: three steps on a matrix and a vector against MindSpore 2.10 (its CPU kernel), recorded
in tests/fixtures/nn/adafactor_mindspore.json by the same script run on the oracle."""
import json
import os

import numpy as np
import pytest

from sporax import Parameter, Tensor, nn

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "nn", "adafactor_mindspore.json")
SETTINGS = {
    "default": {},
    "manual": {"learning_rate": 0.1, "relative_step": False, "scale_parameter": False},
    "nofirst_wd": {"beta1": 0.0, "weight_decay": 0.1},
    "warmup": {"warmup_init": True, "clip_threshold": 0.5},
}


def _run(**settings):
    rng = np.random.RandomState(0)
    weight = Parameter(Tensor(rng.randn(3, 4).astype(np.float32)), name="w")
    bias = Parameter(Tensor(rng.randn(4).astype(np.float32)), name="b")
    optimizer = nn.AdaFactor([weight, bias], **settings)
    for _ in range(3):
        optimizer((Tensor(rng.randn(3, 4).astype(np.float32)), Tensor(rng.randn(4).astype(np.float32))))
    return weight.asnumpy(), bias.asnumpy(), optimizer


@pytest.mark.parametrize("case", sorted(SETTINGS))
def test_three_steps_match_mindspore(case):
    with open(FIXTURE) as handle:
        expected = json.load(handle)[case]
    weight, bias, optimizer = _run(**SETTINGS[case])
    np.testing.assert_allclose(weight, expected[0], atol=2e-6)
    np.testing.assert_allclose(bias, expected[1], atol=2e-6)
    assert float(optimizer.step.asnumpy()[0]) == 3.0
    # The factored state of the matrix: row means (3,) and column means (4,).
    assert optimizer.exp_avg_sq_row[0].shape == (3,) and optimizer.exp_avg_sq_col[0].shape == (4,)


def test_argument_errors():
    weight = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")
    with pytest.raises(ValueError, match="relative_step"):
        nn.AdaFactor([weight], learning_rate=0.1)
    with pytest.raises(ValueError, match="learning_rate must be given"):
        nn.AdaFactor([weight], relative_step=False)
    with pytest.raises(ValueError, match="warmup_init"):
        nn.AdaFactor([weight], learning_rate=0.1, relative_step=False, warmup_init=True)
    with pytest.raises(ValueError, match="eps"):
        nn.AdaFactor([weight], eps=(1e-30,))
