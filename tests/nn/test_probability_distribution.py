"""nn.probability.distribution.Bernoulli: closed forms against values recorded from MindSpore 2.10 (CPU)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.nn.probability import distribution


def test_bernoulli_closed_forms_match_mindspore():
    b = distribution.Bernoulli(None, 10, ms.int32, "Bernoulli")
    assert b.probs is None
    np.testing.assert_allclose(b.cross_entropy("Bernoulli", Tensor(0.9), Tensor(0.2)).asnumpy(), 1.8631401, rtol=1e-6)
    np.testing.assert_allclose(b.kl_loss("Bernoulli", Tensor(0.9), Tensor(0.2)).asnumpy(), 1.3627377, rtol=1e-6)
    b2 = distribution.Bernoulli(0.3, dtype=ms.int32)
    np.testing.assert_allclose(b2.probs.asnumpy(), 0.3)
    np.testing.assert_allclose(b2.cross_entropy("Bernoulli", Tensor(0.9)).asnumpy(), 1.6434176, rtol=1e-6)
    np.testing.assert_allclose(b2.kl_loss("Bernoulli", Tensor(0.9)).asnumpy(), 1.0325532, rtol=1e-6)
    np.testing.assert_allclose(b2.entropy().asnumpy(), 0.61086434, rtol=1e-6)
    assert b2.kl_loss("Bernoulli", Tensor([0.9, 0.5])).dtype == ms.float32


def test_bernoulli_errors_name_the_problem():
    b = distribution.Bernoulli(None)
    with pytest.raises(ValueError, match="Bernoulli.*got Normal"):
        b.kl_loss("Normal", Tensor(0.9), Tensor(0.2))
    with pytest.raises(TypeError, match="can not be None"):
        b.cross_entropy("Bernoulli", Tensor(0.9))
    with pytest.raises(NotImplementedError, match="Exponential"):
        distribution.Exponential  # noqa: B018 - only Bernoulli and Normal exist


class _CrossEntropy(nn.Cell):
    def __init__(self):
        super().__init__()
        self.b = distribution.Bernoulli(None, 10, ms.int32, "Bernoulli")

    def construct(self, probs1_b, probs1=None):
        if probs1 is None:
            return self.b.cross_entropy("Bernoulli", probs1_b), self.b.probs
        return self.b.cross_entropy("Bernoulli", probs1_b, probs1), self.b.kl_loss("Bernoulli", probs1_b, probs1)


def test_bernoulli_inside_a_graph_mode_cell_equals_pynative():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        graph = _CrossEntropy()(Tensor(0.9), Tensor(0.2))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose([graph[0].asnumpy(), graph[1].asnumpy()], [1.8631401, 1.3627377], rtol=1e-6)
