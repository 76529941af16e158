"""mint.nn's CrossEntropyLoss and NLLLoss Cells against MindSpore 2.10's values.

The expected numbers were recorded from MindSpore 2.10's ``ops.cross_entropy`` / ``ops.nll_loss`` (its
``mint.nn`` Cells call the same computation, but its CPU build has no LogSoftmaxExt kernel).
"""
import numpy as np
import pytest

import sporax as ms
from sporax import mint

LOGITS = np.array([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]], np.float32)
TARGET = np.array([1, 2], np.int32)


def test_cross_entropy_loss_matches_mindspore():
    x, t = ms.Tensor(LOGITS), ms.Tensor(TARGET)
    np.testing.assert_allclose(mint.nn.CrossEntropyLoss()(x, t).asnumpy(), 0.2675712, rtol=1e-5)
    smoothed = mint.nn.CrossEntropyLoss(reduction="none", label_smoothing=0.1)(x, t).asnumpy()
    np.testing.assert_allclose(smoothed, [0.54770166, 0.3007741], rtol=1e-5)
    weighted = mint.nn.CrossEntropyLoss(weight=ms.Tensor(np.array([0.2, 1.0, 3.0], np.float32)))(x, t)
    np.testing.assert_allclose(weighted.asnumpy(), 0.16917264, rtol=1e-5)


def test_nll_loss_matches_mindspore():
    x, t = ms.Tensor(LOGITS), ms.Tensor(TARGET)
    np.testing.assert_allclose(mint.nn.NLLLoss(reduction="sum")(x, t).asnumpy(), -5.0)
    np.testing.assert_allclose(mint.nn.NLLLoss(ignore_index=2)(x, t).asnumpy(), -2.0)


def test_cross_entropy_loss_trains_a_float16_linear_layer():
    # The Orange Pi quick-start page trains float16 mint.nn.Linear layers with this loss.
    net = mint.nn.Linear(3, 3, dtype=ms.float16)
    loss_fn = mint.nn.CrossEntropyLoss()
    grad_fn = ms.value_and_grad(lambda x, t: loss_fn(net(x), t), None, net.trainable_params())
    loss, grads = grad_fn(ms.Tensor(LOGITS).astype(ms.float16), ms.Tensor(TARGET))
    assert loss.dtype == ms.float16 and all(g.dtype == ms.float16 for g in grads)
    assert np.isfinite(loss.asnumpy())


def test_bad_reduction_names_the_cell():
    with pytest.raises(ValueError, match="CrossEntropyLoss.*reduction"):
        mint.nn.CrossEntropyLoss(reduction="avg")
