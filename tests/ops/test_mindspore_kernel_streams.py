"""Seeded random kernels whose streams outlive a launch without a seed pair (Bernoulli, Dropout2D/3D) print
MindSpore 2.10's numbers (CPU): values recorded from MindSpore 2.10 (``sporax.core.seeded_streams``, ``sporax.core.philox_samplers``)."""
import numpy as np
import pytest

import sporax
from sporax import Tensor, nn, ops
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


# Dropout2D's first 32 flags of a fresh kernel at keep_prob 0.5, its next 32, and the first 32 at keep_prob 0.7
CHANNELS_HALF = [1, 1, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 0, 1, 0, 1]
CHANNELS_HALF_NEXT = [1, 1, 1, 1, 0, 1, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 1]
CHANNELS_SEVEN_TENTHS = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1]


def _kept(output):
    """1 per kept channel (axis 0 and 1 flattened) of a dropout of ones."""
    values = output.asnumpy()
    return (values.reshape(values.shape[0] * values.shape[1], -1)[:, 0] != 0).astype(int).tolist()


def test_channel_dropouts_run_on_per_kernel_unseeded():
    ones = Tensor(np.ones((2, 16, 1, 1), np.float32))
    sporax.set_seed(3)  # unused by the kernels
    assert _kept(ops.dropout2d(ones, 0.5)) == CHANNELS_HALF
    assert _kept(ops.dropout2d(ones, 0.3)) == CHANNELS_SEVEN_TENTHS  # another keep_prob: another kernel
    assert _kept(ops.dropout2d(Tensor(np.ones((1, 8, 2, 2), np.float32)), 0.5)) == CHANNELS_HALF[:8]  # another shape
    sporax.set_seed(3)
    assert _kept(ops.dropout2d(ones, 0.5)) == CHANNELS_HALF_NEXT  # the (2, 16, 1, 1) kernel runs on
    assert _kept(ops.dropout3d(Tensor(np.ones((2, 16, 1, 1, 1), np.float32)), 0.5)) == CHANNELS_HALF
    # dropout1d launches Dropout2D on (1, C, L, 1) for a (C, L) input: the kernel of a (1, C, L) one
    assert _kept(ops.dropout1d(Tensor(np.ones((1, 16, 3), np.float32)), 0.5)) == CHANNELS_HALF[:16]
    assert _kept(ops.dropout1d(Tensor(np.ones((16, 3), np.float32)), 0.5)[None]) == CHANNELS_HALF[16:]
    # kept channels scale in float32; integers truncate; p = 1 drops all, drawing nothing
    threes = np.full((1, 4, 1, 1), 3)
    np.testing.assert_array_equal(ops.dropout2d(Tensor(threes.astype(np.float16)), 0.3).asnumpy().ravel(),
                                  np.full(4, 4.285, np.float16))
    np.testing.assert_array_equal(ops.dropout2d(Tensor(threes.astype(np.int32)), 0.3).asnumpy().ravel(), [4] * 4)
    np.testing.assert_array_equal(ops.dropout2d(Tensor(threes.astype(np.float32)), 1.0).asnumpy().ravel(), [0] * 4)
    # p = 0 launches the kernel too (all kept); the Dropout2D Primitive shares the functional op's kernel
    threes = Tensor(threes.astype(np.float32))
    np.testing.assert_array_equal(ops.dropout2d(threes, 0.0).asnumpy().ravel(), [3] * 4)
    np.testing.assert_array_equal(ops.dropout2d(threes, 0.5).asnumpy().ravel(), [6, 6, 6, 0])
    output, mask = ops.Dropout2D(0.5)(threes)
    np.testing.assert_array_equal(output.asnumpy().ravel(), [0, 0, 6, 0])
    assert mask.dtype == sporax.bool_ and mask.asnumpy().ravel().tolist() == [False, False, True, False]


def test_channel_dropout_cells_and_compiled_ops_keep_kernels():
    ones = Tensor(np.ones((2, 16, 1, 1), np.float32))
    first, second = nn.Dropout2d(0.5), nn.Dropout2d(0.5)
    first.set_train()
    second.set_train()
    # two Cells and the functional op launch one kernel
    assert _kept(first(ones)) == CHANNELS_HALF
    assert _kept(second(ones)) == CHANNELS_HALF_NEXT
    ones_1d, ones_3d = Tensor(np.ones((2, 16, 3), np.float32)), Tensor(np.ones((2, 16, 1, 1, 1), np.float32))
    for cell, ones_nd in ((nn.Dropout1d(0.5), ones_1d), (nn.Dropout3d(0.5), ones_3d)):
        cell.set_train()
        assert _kept(cell(ones_nd)) == CHANNELS_HALF
    compiled = sporax.jit(lambda x: ops.dropout2d(x, 0.5))  # its own kernel, running on
    assert _kept(compiled(ones)) == CHANNELS_HALF
    assert _kept(compiled(ones)) == CHANNELS_HALF_NEXT


def test_channel_dropout_of_many_channels_matches_the_engine():
    # (4, 50000, 1, 1) at p 0.5: MindSpore's 200000 flags are bernoulli_distribution draws of minstd seeded 1,
    # recorded: 100068 kept, the last 16 as here
    kept = np.array(_kept(ops.dropout2d(Tensor(np.ones((4, 50000, 1, 1), np.float32)), 0.5)))
    assert kept.sum() == 100068
    np.testing.assert_array_equal(kept[-16:], [1, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1])


@pytest.mark.parametrize("call, shape, text", [
    (lambda x: nn.Dropout2d(p=0.5).set_train()(x), (2, 3, 4), "rank of input must be equal to 4, but got 3"),
    (lambda x: nn.Dropout3d(p=0.5).set_train()(x), (2, 3, 4, 5), "rank of input must be equal to 5, but got 4"),
    (lambda x: nn.Dropout1d(p=0.5).set_train()(x), (2, 3, 4, 5), "should be 2D or 3D, but got 4"),
    (lambda x: ops.dropout2d(x, 0.5), (2, 3, 4), "rank of input must be equal to 4, but got 3"),
    (lambda x: ops.dropout3d(x, 0.5), (2, 3, 4, 5), "rank of input must be equal to 5, but got 4")])
def test_channel_dropouts_check_the_rank_as_mindspore(call, shape, text):
    # MindSpore 2.10: ValueError from the Dropout2D/Dropout3D Primitives' rank checks (no (C, H, W) form)
    with pytest.raises(ValueError, match=text):
        call(Tensor(np.ones(shape, np.float32)))


# MindSpore 2.10 (CPU), the channels kept by Dropout2D(0.5) on ones((2, 6, 2, 2)) (axes 0 and 1), call after call
# of its PyNative kernel: a PyNative gradient's forward is one of those calls
DROPOUT2D_SIX_CALLS = [[[1, 1, 1, 0, 0, 0], [1, 0, 1, 1, 0, 0]], [[0, 0, 0, 0, 1, 1], [0, 1, 0, 0, 1, 0]],
                [[1, 1, 1, 1, 0, 1], [0, 1, 1, 1, 1, 1]], [[0, 1, 1, 0, 1, 0], [0, 0, 0, 1, 0, 0]],
                [[0, 1, 1, 1, 0, 1], [1, 0, 0, 0, 1, 1]], [[1, 1, 0, 1, 1, 0], [0, 1, 1, 0, 0, 1]]]


def test_channel_dropout_in_a_pynative_gradient_draws_from_the_pynative_kernel():
    ones = Tensor(np.ones((2, 6, 2, 2), np.float32))
    primitive = ops.Dropout2D(0.5)
    cell = nn.Dropout2d(0.5)
    cell.set_train()

    def kept(mask):
        return (mask.asnumpy()[:, :, 0, 0] != 0).astype(int).tolist()

    def primitive_loss(x):
        return primitive(x)[0].sum()

    def cell_loss(x):
        return cell(x).sum()

    seen = [kept(primitive(ones)[1])]
    # each call of one value_and_grad draws anew (its program runs at once, not held back with its draw)
    value_and_grad = sporax.value_and_grad(cell_loss)
    for _ in range(3):
        value, gradient = value_and_grad(ones)
        assert float(value.asnumpy()) == 8 * np.sum(kept(gradient))  # kept channels: 4 elements of 2 each
        seen.append(kept(gradient))
    seen.append(kept(sporax.grad(primitive_loss)(ones)))
    seen.append(kept(primitive(ones)[1]))
    assert seen == DROPOUT2D_SIX_CALLS
