"""Random Primitives (distribution checks), real FFTs and STFT against NumPy, sparse and optimizer Primitives."""
import numpy as np
import pytest

import sporax
from sporax import Parameter, Tensor, int32, ops
from sporax.ops import composite

rng = np.random.default_rng(0)
SIGNAL = rng.standard_normal((2, 12)).astype(np.float32)


def t(a, dtype=None):
    return Tensor(np.asarray(a, dtype))


def close(result, expected, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(result.asnumpy() if hasattr(result, "asnumpy") else result, expected, rtol=rtol,
                               atol=atol)


# rfft, rfft2, rfftn, rfftfreq and stft are op-table entries (tests/ops/test_op_table.py)
FFT_CASES = [
    ("STFT", lambda: ops.STFT(4, 2, 4, True, True, True)(t(SIGNAL), t(np.ones(4), np.float32)),
     np.stack([np.fft.rfft(SIGNAL[:, i:i + 4], axis=-1) for i in range(0, 9, 2)], -1) / 2),
]


@pytest.mark.parametrize("name,call,expected", FFT_CASES, ids=[c[0] for c in FFT_CASES])
def test_fourier_transforms(name, call, expected):
    close(call(), expected, rtol=1e-4, atol=1e-4)


def test_random_primitives_follow_their_distributions():
    sporax.set_seed(3)
    shape = t([4000], np.int32)
    gamma = ops.RandomGamma(seed=1)(shape, t([2.0, 5.0], np.float32)).asnumpy()
    assert gamma.shape == (4000, 2) and np.allclose(gamma.mean(0), [2.0, 5.0], rtol=0.08)
    poisson = ops.RandomPoisson(dtype=int32)(shape, t([3.0], np.float32))
    assert poisson.dtype == int32 and abs(poisson.asnumpy().mean() - 3.0) < 0.15
    assert abs(ops.Poisson()((4000,), t([7.0], np.float32)).asnumpy().mean() - 7.0) < 0.3
    assert abs(composite.poisson((4000,), t([2.0], np.float32)).asnumpy().mean() - 2.0) < 0.15
    normal = ops.TruncatedNormal()(shape).asnumpy()
    assert normal.min() >= -2 and normal.max() <= 2 and abs(normal.std() - 0.88) < 0.05
    bounded = ops.ParameterizedTruncatedNormal()(t([2, 2000], np.int32), t([0.0, 10.0], np.float32),
                                                 t([1.0, 2.0], np.float32), t([-0.5, 9.0], np.float32),
                                                 t([1.0, 10.0], np.float32)).asnumpy()
    assert bounded[0].min() >= -0.5 and bounded[0].max() <= 1.0 and bounded[1].min() >= 9.0
    log_normal = ops.LogNormalReverse(0.0, 0.5)(t(np.zeros(4000), np.float32)).asnumpy()
    assert abs(np.log(log_normal).std() - 0.5) < 0.03
    assert sorted(ops.RandomShuffle()(t(np.arange(6))).asnumpy().tolist()) == list(range(6))
    assert sorted(ops.RandpermV2()(5).asnumpy().tolist()) == list(range(5))
    padded = ops.Randperm(max_length=6, pad=-1)(t([4], np.int32)).asnumpy()
    assert sorted(padded[:4].tolist()) == [0, 1, 2, 3] and padded[4:].tolist() == [-1, -1]
    ints = ops.NonDeterministicInts(int32)(t([1000], np.int32)).asnumpy()
    assert ints.dtype == np.int32 and ints.min() < -2**28 and ints.max() > 2**28


def test_samplers():
    rows = t([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]], np.float32)
    draws = ops.multinomial_with_replacement(rows, t(1, np.int64), t(0, np.int64), 50, True).asnumpy()
    assert set(draws[0].tolist()) == {1} and set(draws[1].tolist()) <= {0, 1}
    unique = ops.MultinomialWithReplacement(2)(t([[0.0, 1.0, 1.0]], np.float32), t(1, np.int64),
                                                 t(0, np.int64)).asnumpy()
    assert sorted(unique[0].tolist()) == [1, 2]
    # MindSpore 2.10 takes seed and offset as one-element 1-D Tensors too (its CPU system test passes Tensor([50]))
    one_element = ops.MultinomialWithReplacement(4, True)(rows, t([50], np.int64), t([20], np.int64)).asnumpy()
    assert one_element.shape == (2, 4) and set(one_element[0].tolist()) == {1}
    sampled, true_count, sampled_count = ops.UniformCandidateSampler(1, 3, False, 5)(t([[1], [3]], np.int32))
    close(true_count, np.full((2, 1), 3 / 5))
    close(sampled_count, np.full(3, 3 / 5))
    sampled, true_count, _ = ops.log_uniform_candidate_sampler(t([[0], [4]], np.int64), 1, 4, True, 10)
    values = sampled.asnumpy()
    assert len(set(values.tolist())) == 4 and values.max() < 10
    probability = (np.log([2, 6]) - np.log([1, 5])) / np.log(11)
    assert np.all(true_count.asnumpy()[:, 0] >= probability)  # unique sampling needs at least 4 draws


def _param(values, name):
    return Parameter(t(values, np.float32), name=name)


def test_sparse_apply_rules_against_numpy():
    var, accum, linear = [[1.0, 2.0], [3.0, 4.0]], [[0.1, 0.2], [0.3, 0.4]], [[0.5, 0.5], [0.25, 1.0]]
    grad, rows = t([[0.5, -1.0]], np.float32), t([1], np.int32)
    g, w, a, u = np.array([0.5, -1.0]), np.array(var[1]), np.array(accum[1]), np.array(linear[1])
    outputs = ops.SparseApplyAdadelta(1e-6)(_param(var, "v"), _param(accum, "a"), _param(linear, "u"), 0.1, 0.9,
                                           grad, rows)
    new_a = 0.9 * a + 0.1 * g * g
    step = np.sqrt(u + 1e-6) / np.sqrt(new_a + 1e-6) * g
    close(outputs[0].asnumpy()[1], w - 0.1 * step)
    close(outputs[2].asnumpy()[1], 0.9 * u + 0.1 * step * step)
    outputs = ops.SparseApplyProximalAdagrad()(_param(var, "v"), _param(accum, "a"), 0.1, 0.01, 0.02, grad, rows)
    new_a = a + g * g
    proximal = w - 0.1 * g / np.sqrt(new_a)
    close(outputs[0].asnumpy()[1], np.sign(proximal) / 1.002 * np.maximum(np.abs(proximal) - 0.001, 0))
    outputs = ops.SparseApplyFtrlV2(0.1, 0.01, 0.02, 0.1, -0.5)(_param(var, "v"), _param(accum, "a"),
                                                               _param(linear, "l"), grad, rows)
    new_linear = u + g + 0.2 * w - (np.sqrt(new_a) - np.sqrt(a)) / 0.1 * w
    quadratic = np.sqrt(new_a) / 0.1 + 0.04
    close(outputs[2].asnumpy()[1], new_linear, rtol=1e-4)
    close(outputs[0].asnumpy()[1], (np.sign(new_linear) * 0.01 - new_linear) / quadratic, rtol=1e-4)
    assert outputs[0].asnumpy()[0].tolist() == var[0]  # rows not indexed are untouched
    # MindSpore 2.10 returns new Tensors of the stored values, not the Parameters
    variable = _param(var, "v")
    outputs = ops.SparseApplyAdagradV2(0.1, 1e-6)(variable, _param(accum, "a"), grad, rows)
    assert type(outputs[0]) is Tensor and outputs[0] is not variable
    np.testing.assert_array_equal(outputs[0].asnumpy(), variable.asnumpy())
    with pytest.raises(ValueError, match="SparseApplyAdagrad"):
        ops.SparseApplyAdagrad(lr=0.1)(_param(var, "v"), _param(accum, "a"), t([[1.0]], np.float32), rows)


def test_lars_update_scales_the_gradient():
    w, g = np.array([1.0, 2.0], np.float32), np.array([0.5, -1.0], np.float32)
    result = ops.LARSUpdate()(t(w), t(g), t(np.sum(w * w)), t(np.sum(g * g)), t(0.1, np.float32),
                              t(0.5, np.float32))
    coefficient = 0.001 * np.linalg.norm(w) / (np.linalg.norm(g) + 0.1 * np.linalg.norm(w) + 1e-5)
    close(result, coefficient * (g + 0.1 * w))
    with pytest.raises(NotImplementedError, match="use_clip"):
        ops.LARSUpdate(use_clip=True)


def test_sparse_coordinates_and_filters():
    indices, values = t([[0, 1], [1, 2]]), t([1.0, 2.0], np.float32)
    close(ops.SparseToDense()(indices, values, (2, 3)), [[0, 1, 0], [0, 0, 2]])
    close(ops.SparseTensorDenseAdd()(indices, values, t([2, 3]), t(np.ones((2, 3)), np.float32)),
          [[1, 2, 1], [1, 1, 3]])
    y_indices, y_values, y_shape = ops.SparseSlice()(t([[0, 1], [1, 2], [1, 3]], np.int64), t([1.0, 2.0, 3.0],
                                                                                             np.float32),
                                                     t([2, 4], np.int64), t([1, 2], np.int64), t([1, 2], np.int64))
    assert y_indices.asnumpy().tolist() == [[0, 0], [0, 1]] and y_values.asnumpy().tolist() == [2.0, 3.0]
    assert y_shape.asnumpy().tolist() == [1, 2]  # oracle (MindSpore 2.10 CPU)
    kept, where = ops.SubAndFilter()(t([1, 3, 5, 8, 9, 16], np.int32), t(10, np.int32), t(4, np.int32))
    assert kept.asnumpy().tolist() == [1, 4, 5] and where.asnumpy().tolist() == [2, 3, 4]
    close(ops.SparseGatherV2()(t(np.arange(6.0).reshape(2, 3)), t([1, 0]), 0), [[3, 4, 5], [0, 1, 2]])
    assert ops.UpdateState()(1, t([2.0])) == 1


def test_box_suppression_and_pool_argmax():
    boxes = t([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]], np.float32)
    kept = ops.NonMaxSuppressionV3()(boxes, t([0.9, 0.8, 0.7], np.float32), t(3, np.int32), t(0.5, np.float32),
                                     t(0.0, np.float32))
    assert kept.asnumpy().tolist() == [0, 2]
    image = t(rng.standard_normal((1, 2, 4, 4)), np.float32)
    pooled, argmax = ops.MaxPoolWithArgmaxV2(2, 2)(image)
    planes = image.asnumpy().reshape(1, 2, 16)
    close(pooled, np.take_along_axis(planes, argmax.asnumpy().reshape(1, 2, 4), 2).reshape(1, 2, 2, 2))
    restored = ops.MaxUnpool2D(2)(pooled, argmax).asnumpy()
    assert restored.shape == (1, 2, 4, 4) and np.count_nonzero(restored) == 8
    close(restored.max(axis=(2, 3)), image.asnumpy().max(axis=(2, 3)))
    volume = ops.MaxUnpool3D(2)(t([[[[[5.0]]]]], np.float32), t([[[[[6]]]]], np.int64)).asnumpy()
    assert volume.shape == (1, 1, 2, 2, 2) and volume.reshape(-1).tolist() == [0, 0, 0, 0, 0, 0, 5, 0]
