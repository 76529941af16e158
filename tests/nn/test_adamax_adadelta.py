"""nn.AdaMax and nn.Adadelta trajectories against MindSpore 2.10 (tests/fixtures/api/optimizers.npz)."""
import os
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures", "api"))
from record_optimizers import CONFIGS, trajectory  # noqa: E402  (imports mindspore only when run as a script)

ORACLE = np.load(os.path.join(HERE, "..", "fixtures", "api", "optimizers.npz"))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("key", sorted(CONFIGS))
def test_trajectory_matches_oracle(key, mode):
    ms.set_context(mode=mode)
    try:
        name, kwargs = CONFIGS[key]
        np.testing.assert_allclose(trajectory(ms, nn, name, kwargs), ORACLE[key], rtol=1e-5, atol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("make", [
    lambda p: nn.AdaMax(p, beta1=1.0), lambda p: nn.AdaMax(p, eps=0.0), lambda p: nn.Adadelta(p, rho=1.5),
    lambda p: nn.Adadelta(p, epsilon=-1.0),
])
def test_bad_hyperparameters(make):
    with pytest.raises(ValueError):
        make(nn.Dense(2, 2).trainable_params())
