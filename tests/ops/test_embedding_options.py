"""ops.embedding's padding_idx, max_norm and scale_grad_by_freq (MindSpore 2.10 documents them; its CPU build has
no Embedding kernel, so values are checked against NumPy written from the documented rule)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, ops

IDS = np.array([[1, 2, 1], [4, 0, 1]], np.int32)
WEIGHT = (np.random.RandomState(0).randn(5, 3) * 2).astype(np.float32)
UPSTREAM = np.arange(18, dtype=np.float32).reshape(2, 3, 3)


def _grad(**options):
    weight = Parameter(Tensor(WEIGHT.copy()), name="weight")
    loss = lambda w: (ops.embedding(Tensor(IDS), w, **options) * Tensor(UPSTREAM)).sum()
    return ms.grad(loss)(weight).asnumpy(), weight


def _plain_gradient():
    expected = np.zeros_like(WEIGHT)
    np.add.at(expected, IDS.ravel(), UPSTREAM.reshape(-1, 3))
    return expected


def test_max_norm_renormalises_referenced_rows_in_place():
    weight = Parameter(Tensor(WEIGHT.copy()), name="weight")
    out = ops.embedding(Tensor(IDS), weight, max_norm=1.0)
    norms = np.linalg.norm(WEIGHT, axis=1)
    scale = np.where((norms > 1.0) & np.isin(np.arange(5), IDS), 1.0 / (norms + 1e-7), 1.0)
    renormalised = WEIGHT * scale[:, None]
    np.testing.assert_allclose(weight.asnumpy(), renormalised, rtol=1e-5)
    np.testing.assert_allclose(out.asnumpy(), renormalised[IDS], rtol=1e-5)
    assert np.allclose(weight.asnumpy()[3], WEIGHT[3])  # row 3 is not referenced: unchanged
    grad, _ = _grad(max_norm=1.0)
    np.testing.assert_allclose(grad, _plain_gradient())  # the gradient is not scaled


def test_scale_grad_by_freq_divides_by_index_counts():
    grad, _ = _grad(scale_grad_by_freq=True)
    counts = np.bincount(IDS.ravel(), minlength=5).astype(np.float32)
    np.testing.assert_allclose(grad, _plain_gradient() / np.maximum(counts, 1)[:, None], rtol=1e-6)


def test_padding_idx_row_gets_no_gradient():
    grad, _ = _grad(padding_idx=1)
    expected = _plain_gradient()
    expected[1] = 0
    np.testing.assert_allclose(grad, expected)
    with pytest.raises(ValueError, match="padding_idx"):
        ops.embedding(Tensor(IDS), Tensor(WEIGHT), padding_idx=9)
