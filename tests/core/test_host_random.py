"""Initializers draw MindSpore's own values (``sporax.core.host_random``): the oracle values are in
tests/fixtures/core/initializer_streams.npz, recorded by record_initializer_streams.py beside it."""
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.core import host_random
from sporax.core.initializer import (HeNormal, HeUniform, Normal, Orthogonal, Sparse, TruncatedNormal, Uniform,
                                     VarianceScaling, XavierNormal, XavierUniform, initializer)

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "core", "initializer_streams.npz")

CASES = [
    ("truncated_normal", TruncatedNormal(0.02), (30, 50)),
    ("truncated_normal_bounds", TruncatedNormal(0.5, 0.1, -0.3, 0.6), (1501,)),
    ("normal", Normal(0.3, 0.2), (1501,)),
    ("uniform", Uniform(0.7), (7, 9)),
    ("xavier_uniform", XavierUniform(), (20, 30)),
    ("xavier_normal", XavierNormal(), (20, 30)),
    ("he_uniform", HeUniform(), (6, 3, 5, 5)),
    ("he_normal", HeNormal(), (6, 3, 5, 5)),
    ("variance_scaling_uniform", VarianceScaling(distribution="uniform"), (8, 9)),
    ("variance_scaling_untruncated", VarianceScaling(distribution="untruncated_normal"), (8, 9)),
    ("orthogonal", Orthogonal(), (4, 6)),
    ("sparse", Sparse(0.3), (5, 4)),
]

# Uniform and Box-Muller draws are bit-exact; the inverse normal CDF (truncated normal) and the QR
# of Orthogonal may differ in the last float32 bit.
ONE_ULP = {"truncated_normal", "truncated_normal_bounds", "orthogonal"}


@pytest.fixture(scope="module")
def oracle():
    return np.load(FIXTURE)


@pytest.fixture(scope="module")
def drawn():
    np.random.seed(2024)
    return {name: initializer(init, shape, ms.float32).asnumpy() for name, init, shape in CASES}


@pytest.mark.parametrize("name", [case[0] for case in CASES])
def test_initializer_values_match_mindspore(oracle, drawn, name):
    expected = oracle[name]
    assert drawn[name].shape == expected.shape and drawn[name].dtype == np.float32
    if name in ONE_ULP:
        np.testing.assert_allclose(drawn[name], expected, rtol=3e-7, atol=1e-7)
    else:
        np.testing.assert_array_equal(drawn[name], expected)


def test_set_seed_gives_mindspores_default_dense_weights_and_training_losses(oracle):
    ms.set_seed(5)
    net = nn.SequentialCell([nn.Dense(6, 5), nn.ReLU(), nn.Dense(5, 3)])
    weights = np.concatenate([p.asnumpy().reshape(-1) for p in net.get_parameters()])
    np.testing.assert_array_equal(weights, oracle["dense_weights"])
    loss_net = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    train = nn.TrainOneStepCell(loss_net, nn.Momentum(net.trainable_params(), 0.1, 0.9))
    data = Tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6))
    label = Tensor(np.array([0, 1, 2, 1], np.int32))
    losses = np.array([train(data, label).asnumpy() for _ in range(8)], np.float32)
    np.testing.assert_allclose(losses, oracle["losses"], rtol=1e-5)


def test_philox_stream_is_counter_based_so_prefixes_agree():
    long = host_random.philox_bits(123456789012345, 1030)
    np.testing.assert_array_equal(host_random.philox_bits(123456789012345, 7), long[:7])
    assert long.dtype == np.uint32 and len(set(long.tolist())) == len(long)


def test_distribution_moments_and_bounds():
    uniform = host_random.uniform(11, (200000,), -0.5, 1.5)
    assert uniform.min() >= -0.5 and uniform.max() < 1.5
    assert abs(uniform.mean() - 0.5) < 5e-3
    normal = host_random.normal(12, (200001,), 1.0, 2.0)
    assert normal.shape == (200001,) and abs(normal.mean() - 1.0) < 0.02 and abs(normal.std() - 2.0) < 0.02
    truncated = host_random.truncated_normal(13, (200000,), -1.0, 1.0, 0.0, 1.0)
    assert truncated.min() >= -1.0 and truncated.max() <= 1.0
    # The std of N(0, 1) truncated to [-1, 1] is 0.5376...
    assert abs(truncated.std() - 0.5376) < 5e-3
    with pytest.raises(ValueError, match="sigma"):
        host_random.truncated_normal(1, (3,), -1.0, 1.0, 0.0, 0.0)


def test_seed_comes_from_numpys_global_stream():
    np.random.seed(9)
    first = initializer(Normal(), (5,), ms.float32).asnumpy()
    np.random.seed(9)
    expected_seed = int(np.random.randint(low=1, high=1 << 63, dtype=np.int64))
    np.random.seed(9)
    assert host_random.initializer_seed() == expected_seed
    np.random.seed(9)
    np.testing.assert_array_equal(initializer(Normal(), (5,), ms.float32).asnumpy(), first)
