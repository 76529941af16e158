"""Seeded random kernels whose streams outlive a launch without a seed pair (Bernoulli, Dropout2D/3D) print
MindSpore 2.10's numbers (CPU): values recorded from MindSpore 2.10 (``sporax.core.seeded_streams``)."""
import numpy as np
import pytest

import sporax
from sporax import Tensor, ops
from sporax.core import seeded_streams

# ops.bernoulli(zeros(40), 0.5, seed=5): PhiloxRandom(5)'s first 40 floats at most 0.5
BERNOULLI_5 = [1, 0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0]
# six draws read words 0-5; the next launch reads the two words left of block 1, then block 0 again
BERNOULLI_5_SIX = [[1, 0, 0, 1, 0, 0], [1, 1, 1, 0, 0, 1], [1, 0, 0, 1, 0, 0]]


@pytest.fixture(autouse=True)
def fresh_kernels(monkeypatch):
    """A process of its own as far as PyNative kernels go: no kernel launched before the test."""
    monkeypatch.setattr(seeded_streams, "_eager_kernels", {})


def test_bernoulli_seed_draws_philox_floats():
    zeros = Tensor(np.zeros(40, np.float32))
    np.testing.assert_array_equal(ops.bernoulli(zeros, 0.5, seed=5).asnumpy(), BERNOULLI_5)
    np.testing.assert_array_equal(ops.bernoulli(zeros, 0.5, seed=5).asnumpy(), BERNOULLI_5)  # whole blocks: again
    np.testing.assert_array_equal(ops.bernoulli(Tensor(np.zeros(6, np.int32)), 0.5, seed=5).asnumpy(), BERNOULLI_5[:6])
    flags = ops.bernoulli(Tensor(np.zeros(6, np.bool_)), 0.5, seed=5)
    assert flags.dtype == sporax.bool_ and flags.asnumpy().tolist() == [True, False, False, True, False, False]
    # (300, 1000) with p 0.3 and with a p per element: the count of ones and the last 24 draws
    big = Tensor(np.zeros((300, 1000), np.float32))
    drawn = ops.bernoulli(big, 0.3, seed=7).asnumpy()
    assert drawn.sum() == 89820
    np.testing.assert_array_equal(drawn.ravel()[-24:], [0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1])
    p = Tensor(np.random.RandomState(0).rand(300, 1000).astype(np.float32))
    drawn = ops.bernoulli(big, p, seed=7).asnumpy()
    assert drawn.sum() == 150085
    np.testing.assert_array_equal(drawn.ravel()[-24:], [0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 1])


def test_bernoulli_kernels_keep_their_last_blocks_words():
    six = Tensor(np.zeros(6, np.float32))
    for expected in BERNOULLI_5_SIX:
        np.testing.assert_array_equal(ops.bernoulli(six, 0.5, seed=5).asnumpy(), expected)
    # a Bernoulli(5) Primitive with a (1,) p launches the same kernel (its words left over); offset is unused
    primitive = ops.Bernoulli(seed=5, offset=3)
    for expected in BERNOULLI_5_SIX[1:] + BERNOULLI_5_SIX[1:2]:
        np.testing.assert_array_equal(primitive(six, Tensor([0.5])).asnumpy(), expected)
    # a number p is a () Tensor there: another kernel, from its start
    for expected in BERNOULLI_5_SIX[:2]:
        np.testing.assert_array_equal(ops.Bernoulli(seed=5)(six, 0.5).asnumpy(), expected)
    # a compiled op is a kernel of its own
    compiled = sporax.jit(lambda x: ops.bernoulli(x, 0.5, seed=5))
    for expected in BERNOULLI_5_SIX[:2]:
        np.testing.assert_array_equal(compiled(six).asnumpy(), expected)
