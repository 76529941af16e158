"""Label and index dtypes that MindSpore 2.10 (CPU) accepts or refuses in cross entropy, NLL and OneHot.

Accepted/refused dtypes and the loss values were recorded from MindSpore 2.10.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

LOGITS = np.array([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]], np.float32)
PROBABILITIES = np.array([[0.0, 1.0, 0.0], [0.2, 0.0, 0.8]])
INDEX_LOSS = 0.28698  # MindSpore 2.10: 0.286980003118515
PROBABILITY_LOSS = 0.576985  # MindSpore 2.10: 0.5769848227500916


@pytest.mark.parametrize("dtype", [ms.int32, ms.int64])
def test_ops_cross_entropy_takes_int32_and_int64_indices(dtype):
    loss = ops.cross_entropy(Tensor(LOGITS), Tensor(np.array([1, 2]), dtype))
    np.testing.assert_allclose(loss.asnumpy(), INDEX_LOSS, rtol=1e-4)


@pytest.mark.parametrize("dtype", [ms.float16, ms.float32])
def test_ops_cross_entropy_takes_half_and_single_probabilities(dtype):
    loss = ops.cross_entropy(Tensor(LOGITS), Tensor(PROBABILITIES, dtype))
    np.testing.assert_allclose(loss.asnumpy(), PROBABILITY_LOSS, rtol=1e-3)


@pytest.mark.parametrize("dtype", [ms.int16, ms.int8, ms.uint8, ms.float64, ms.bool_])
def test_ops_cross_entropy_refuses_other_target_dtypes(dtype):
    with pytest.raises(TypeError, match="cross_entropy"):
        ops.cross_entropy(Tensor(LOGITS), Tensor(np.array([1, 0]), dtype))
    with pytest.raises(TypeError, match="cross_entropy"):
        ops.cross_entropy(Tensor(LOGITS), Tensor(PROBABILITIES, dtype))


@pytest.mark.parametrize("dtype", [ms.int16, ms.float32])
def test_nll_loss_takes_int32_or_int64_targets_only(dtype):
    with pytest.raises(TypeError, match="nll_loss"):
        ops.nll_loss(Tensor(LOGITS), Tensor(np.array([1, 2]), dtype))
    with pytest.raises(TypeError, match="nll_loss"):
        nn.NLLLoss()(Tensor(LOGITS), Tensor(np.array([1, 2]), dtype))
    assert ops.nll_loss(Tensor(LOGITS), Tensor(np.array([1, 2]), ms.int64)).shape == ()


def test_cross_entropy_loss_cell_takes_int32_indices_only():
    loss = nn.CrossEntropyLoss()(Tensor(LOGITS), Tensor(np.array([1, 2]), ms.int32))
    np.testing.assert_allclose(loss.asnumpy(), INDEX_LOSS, rtol=1e-4)
    for dtype in (ms.int64, ms.int16, ms.float32, ms.float64, ms.bool_):
        with pytest.raises(TypeError, match="'labels' should be Int32"):
            nn.CrossEntropyLoss()(Tensor(LOGITS), Tensor(np.array([1, 0]), dtype))


def test_cross_entropy_loss_cell_probabilities_and_logits_dtypes():
    for dtype in (ms.float16, ms.float32):
        loss = nn.CrossEntropyLoss()(Tensor(LOGITS), Tensor(PROBABILITIES, dtype))
        np.testing.assert_allclose(loss.asnumpy(), PROBABILITY_LOSS, rtol=1e-3)
    for dtype in (ms.float64, ms.int32, ms.int64, ms.bfloat16):
        with pytest.raises(TypeError, match=r"'labels' should be one of \[mindspore.float16, mindspore.float32\]"):
            nn.CrossEntropyLoss()(Tensor(LOGITS), Tensor(PROBABILITIES, dtype))
    for dtype in (np.float64, np.int32):
        with pytest.raises(TypeError, match="'logits' should be one of"):
            nn.CrossEntropyLoss()(Tensor(LOGITS.astype(dtype)), Tensor(np.array([1, 2]), ms.int32))
    half = nn.CrossEntropyLoss()(Tensor(LOGITS.astype(np.float16)), Tensor(np.array([1, 2]), ms.int32))
    np.testing.assert_allclose(half.asnumpy(), 0.287109375, rtol=1e-3)


def _hot(indices, on, off, **settings):
    return ops.OneHot(**settings)(indices, 3, on, off)


@pytest.mark.parametrize("dtype", [ms.int16, ms.int8, ms.uint8, ms.float32, ms.bool_])
def test_one_hot_indices_must_be_int32_or_int64(dtype):
    on, off = Tensor(1.0, ms.float32), Tensor(0.0, ms.float32)
    with pytest.raises(TypeError, match="indices"):
        _hot(Tensor(np.array([0, 2]), dtype), on, off)
    with pytest.raises(TypeError, match="indices"):
        ops.one_hot(Tensor(np.array([0, 2]), dtype), 3, on, off)


@pytest.mark.parametrize("dtype", [ms.float64, ms.int8, ms.uint8, ms.bool_, ms.complex64])
def test_one_hot_values_must_be_half_single_int32_or_int64(dtype):
    with pytest.raises(TypeError, match="on_value"):
        _hot(Tensor(np.array([0, 2]), ms.int32), Tensor(1, dtype), Tensor(0, dtype))


def test_one_hot_accepted_dtypes_and_axis_range():
    for dtype in (ms.float16, ms.float32, ms.int32, ms.int64):
        result = _hot(Tensor(np.array([0, 2]), ms.int64), Tensor(1, dtype), Tensor(0, dtype))
        assert result.dtype == dtype
        np.testing.assert_array_equal(result.asnumpy(), [[1, 0, 0], [0, 0, 1]])
    on, off = Tensor(1.0, ms.float32), Tensor(0.0, ms.float32)
    np.testing.assert_array_equal(_hot(Tensor(np.array([0, 2]), ms.int32), on, off, axis=0).asnumpy(),
                                  [[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="axis"):
        _hot(Tensor(np.array([0, 2]), ms.int32), on, off, axis=-2)
    with pytest.raises(TypeError):
        _hot(Tensor(np.array([0, 2]), ms.int32), on, Tensor(0.0, ms.float16))
