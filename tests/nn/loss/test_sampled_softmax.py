"""nn.SampledSoftmaxLoss against MindSpore 2.10 (fixed sampled_values) and its uniform sampler path."""
import numpy as np
import pytest

from sporax import Tensor, nn


def _inputs():
    rng = np.random.RandomState(0)
    weights = Tensor(rng.randn(7, 3).astype(np.float32))
    biases = Tensor(rng.randn(7).astype(np.float32))
    logits = Tensor(rng.randn(3, 3).astype(np.float32))
    return weights, biases, logits


SAMPLED = np.array([0, 1, 5], np.int32)
SAMPLED_EXPECTED = np.array([0.1, 0.2, 0.3], np.float32)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_two_true_labels_match_mindspore(reduction):
    weights, biases, logits = _inputs()
    sampled = (Tensor(SAMPLED), Tensor(np.array([[0.3, 0.2], [0.1, 0.4], [0.25, 0.5]], np.float32)),
               Tensor(SAMPLED_EXPECTED))
    loss = nn.SampledSoftmaxLoss(3, 7, num_true=2, sampled_values=sampled, reduction=reduction)
    out = loss(weights, biases, Tensor(np.array([[2, 3], [4, 6], [1, 0]], np.int32)), logits)
    # MindSpore 2.10 returns the per-example loss for every reduction.
    np.testing.assert_allclose(out.asnumpy(), [5.3390512, 3.31054, 2.6577106], rtol=1e-5)


def test_one_true_label_int64_matches_mindspore_and_numpy():
    weights, biases, logits = _inputs()
    true_expected = np.array([[0.3], [0.1], [0.25]], np.float32)
    sampled = (Tensor(SAMPLED), Tensor(true_expected), Tensor(SAMPLED_EXPECTED))
    labels = np.array([[2], [4], [1]], np.int64)
    out = nn.SampledSoftmaxLoss(3, 7, sampled_values=sampled)(weights, biases, Tensor(labels), logits)
    np.testing.assert_allclose(out.asnumpy(), [6.9470935, 3.6143074, 3.2217607], rtol=1e-5)
    w, b, x = weights.asnumpy(), biases.asnumpy(), logits.asnumpy()
    true_logit = np.sum(x * w[labels[:, 0]], 1) + b[labels[:, 0]] - np.log(true_expected[:, 0])
    sampled_logit = x @ w[SAMPLED].T + b[SAMPLED] - np.log(SAMPLED_EXPECTED)
    all_logits = np.concatenate([true_logit[:, None], sampled_logit], 1)
    reference = np.log(np.exp(all_logits).sum(1)) - true_logit
    np.testing.assert_allclose(out.asnumpy(), reference, rtol=1e-5)


def test_uniform_sampler_path_and_argument_errors():
    weights, biases, logits = _inputs()
    out = nn.SampledSoftmaxLoss(4, 7, seed=1)(weights, biases, Tensor(np.array([[2], [4], [1]], np.int32)), logits)
    assert out.shape == (3,) and np.all(np.isfinite(out.asnumpy())) and np.all(out.asnumpy() > 0)
    with pytest.raises(ValueError, match="num_sampled"):
        nn.SampledSoftmaxLoss(8, 7)
    with pytest.raises(ValueError, match="length of 'sampled_values'"):
        nn.SampledSoftmaxLoss(3, 7, sampled_values=(1, 2))
    with pytest.raises(TypeError, match="labels"):
        nn.SampledSoftmaxLoss(3, 7)(weights, biases, Tensor(np.array([[2.0]], np.float32)), logits)
