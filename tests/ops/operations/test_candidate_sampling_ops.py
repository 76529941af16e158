"""Candidate samplers compile: under GRAPH mode, jit and vmap they draw on the device with fixed output sizes
(MindSpore 2.10 runs UniformCandidateSampler under vmap in GRAPH mode)."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops, Tensor
from sporax.ops import vmap


class Sampler(nn.Cell):
    def __init__(self, num_true, num_sampled, unique, range_max):
        super().__init__()
        self.sampler = ops.UniformCandidateSampler(num_true, num_sampled, unique, range_max)

    def construct(self, true_classes):
        return self.sampler(true_classes)


def test_vmapped_unique_sampler_in_graph_mode_gives_distinct_candidates():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        classes = np.array([[[1], [3], [4], [6], [3]]] * 2, np.int32)
        sampled, true_expected, sampled_expected = vmap(Sampler(1, 3, True, 4), in_axes=0, out_axes=0)(
            Tensor(classes))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert (sampled.shape, true_expected.shape, sampled_expected.shape) == ((2, 3), (2, 5, 1), (2, 3))
    for row in sampled.asnumpy():
        assert len(set(row.tolist())) == 3 and row.min() >= 0 and row.max() < 4
    # without replacement the expected count is 1 - (1 - 1/4)^tries for the tries the draw took (>= 3)
    tries = np.log1p(-sampled_expected.asnumpy()) / np.log1p(-0.25)
    np.testing.assert_allclose(tries, np.round(tries), atol=1e-4)
    assert tries.min() >= 3 - 1e-4
    np.testing.assert_allclose(true_expected.asnumpy()[..., 0], sampled_expected.asnumpy()[:, :1].repeat(5, 1))


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_jitted_sampler_with_replacement_expects_num_sampled_over_range(dtype):
    sample = ms.jit(lambda classes: ops.uniform_candidate_sampler(classes, 2, 5, False, 10))
    sampled, true_expected, sampled_expected = sample(Tensor(np.array([[1, 2], [3, 9]], dtype)))
    assert sampled.asnumpy().dtype == dtype and sampled.shape == (5,)
    assert ((sampled.asnumpy() >= 0) & (sampled.asnumpy() < 10)).all()
    np.testing.assert_allclose(true_expected.asnumpy(), np.full((2, 2), 0.5), rtol=1e-6)
    np.testing.assert_allclose(sampled_expected.asnumpy(), np.full(5, 0.5), rtol=1e-6)


def test_traced_sampler_checks_the_classes_shape():
    sample = ms.jit(lambda classes: ops.uniform_candidate_sampler(classes, 2, 3, True, 4))
    with pytest.raises(ValueError, match="true_classes"):
        sample(Tensor(np.array([[1], [2]], np.int32)))


@pytest.mark.parametrize("sampler", [ops.UniformCandidateSampler, ops.LogUniformCandidateSampler])
def test_seeded_sampler_instances_repeat_their_draws(sampler):
    """MindSpore 2.10: two instances built with the same non-zero seed draw the same candidates (each call of
    one instance advances its stream); an instance without a seed draws from the global state."""
    classes = Tensor(np.array([[1]], np.int32))
    first, second = sampler(1, 3, True, 8, seed=1), sampler(1, 3, True, 8, seed=1)
    draws = [first(classes)[0].asnumpy() for _ in range(4)]
    np.testing.assert_array_equal(draws[0], second(classes)[0].asnumpy())
    assert any((draw != draws[0]).any() for draw in draws[1:])  # the stream advances
    for draw in draws:
        assert len(set(draw.tolist())) == 3 and draw.min() >= 0 and draw.max() < 8


def test_seeded_sampler_repeats_in_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        cell = Sampler(1, 3, True, 6)
        cell.sampler = ops.UniformCandidateSampler(1, 3, True, 6, seed=5)
        other = Sampler(1, 3, True, 6)
        other.sampler = ops.UniformCandidateSampler(1, 3, True, 6, seed=5)
        classes = Tensor(np.array([[2]], np.int32))
        np.testing.assert_array_equal(cell(classes)[0].asnumpy(), other(classes)[0].asnumpy())
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_unique_sampler_removes_accidental_hits_when_enough_classes_remain():
    # MindSpore 2.10 (recorded over seeds 1..29): UniformCandidateSampler(1, 4, True, 7, seed, True) never samples
    # a true class of [[0], [1], [2]] (its expected counts count the rejected draws: 0.915111 at seed 1, 16 tries);
    # with 5 to sample from the 4 other classes it keeps them ([0 4 5 1 6] at seed 1); non-unique never rejects
    labels = Tensor(np.array([[0], [1], [2]], np.int32))
    for seed in range(1, 11):
        sampled = ops.UniformCandidateSampler(1, 4, True, 7, seed, True)(labels)[0]
        assert not set(sampled.asnumpy().tolist()) & {0, 1, 2}
    kept = [ops.UniformCandidateSampler(1, 5, True, 7, seed, True)(labels)[0].asnumpy() for seed in range(1, 4)]
    assert all(set(sample.tolist()) & {0, 1, 2} for sample in kept)
