"""Seeded random Primitives own a stream (MindSpore's kernels): a new instance with the same seeds repeats it,
each call advances it, and Multinomial mapped with vmap over rows draws what the batched call draws."""
import numpy as np
import pytest

import sporax
from sporax import Tensor, nn, ops


def test_seeded_instances_repeat_and_calls_advance():
    first, second = ops.StandardNormal(seed=5, seed2=6), ops.StandardNormal(seed=5, seed2=6)
    a1, a2 = first((4,)).asnumpy(), first((4,)).asnumpy()
    np.testing.assert_array_equal(second((4,)).asnumpy(), a1)
    assert not np.array_equal(a1, a2)
    assert not np.array_equal(ops.StandardNormal(seed=5, seed2=7)((4,)).asnumpy(), a1)


class _Batched(nn.Cell):
    def __init__(self):
        super().__init__()
        self.multinomial = ops.Multinomial(seed=5, seed2=6)

    def construct(self, prob, num_sample):
        return self.multinomial(prob, num_sample)


@pytest.mark.parametrize("mode", [sporax.PYNATIVE_MODE, sporax.GRAPH_MODE])
def test_multinomial_vmap_matches_the_batched_call(mode):
    prob = Tensor(np.array([[0.5, 0.5], [0.1, 0.9], [0.7, 0.3], [0.5, 0.5]], np.float32))
    sporax.set_context(mode=mode)
    try:
        batched = _Batched()(prob, 6).asnumpy()
        mapped = ops.vmap(lambda p, n: ops.Multinomial(seed=5, seed2=6)(p, n), in_axes=(0, None))(prob, 6).asnumpy()
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
    np.testing.assert_array_equal(mapped, batched)
    assert batched.shape == (4, 6) and batched.dtype == np.int32


def test_multinomial_rows_are_independent_draws_with_the_right_frequencies():
    probs = np.array([[0.2, 0.8], [0.2, 0.8], [0.6, 0.4]], np.float32)
    draws = ops.Multinomial(seed=3)(Tensor(probs), 20000).asnumpy()
    assert not np.array_equal(draws[0], draws[1])
    np.testing.assert_allclose((draws == 1).mean(axis=1), probs[:, 1], atol=0.02)
