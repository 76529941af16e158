"""nn.SoftmaxCrossEntropyWithLogits and its Primitive: dtype rules and float16 rounding, as MindSpore 2.10 CPU."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

LOGITS = np.array([[1.0, 2.0, 3.0], [1.0, 0.0, -1.0]])
LABELS = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_float16_is_computed_in_float32_and_rounded_once(mode):
    # Recorded on MindSpore 2.10 CPU: its kernel rounds the float32 results once.
    ms.set_context(mode=mode)
    try:
        loss, backprop = ops.SoftmaxCrossEntropyWithLogits()(Tensor(LOGITS, ms.float16), Tensor(LABELS, ms.float16))
        assert loss.dtype == ms.float16 and backprop.dtype == ms.float16
        np.testing.assert_array_equal(loss.asnumpy(), np.float16([0.40771484375, 0.40771484375]))
        np.testing.assert_array_equal(backprop.asnumpy(), np.float16(
            [[0.09002685546875, 0.2447509765625, -0.334716796875], [-0.334716796875, 0.2447509765625, 0.09002685546875]]))
        mean = nn.SoftmaxCrossEntropyWithLogits(reduction="mean")(Tensor(LOGITS, ms.float16), Tensor(LABELS, ms.float16))
        assert mean.dtype == ms.float16 and float(mean) == pytest.approx(0.40771484375, abs=0)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("logits_dtype, labels_dtype", [(ms.float16, ms.float32), (ms.float32, ms.float16)])
def test_mixed_dtypes_raise_type_error_in_the_cell_too(logits_dtype, labels_dtype):
    # MindSpore 2.10: the Cell (sparse=False) raises the Primitive's TypeError; it does not cast the labels.
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(reduction="mean")
    with pytest.raises(TypeError, match=r"SoftmaxCrossEntropyWithLogits\], the input type must be same"):
        loss_fn(Tensor(LOGITS, logits_dtype), Tensor(LABELS, labels_dtype))
    sparse = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    value = sparse(Tensor(LOGITS, ms.float32), Tensor(np.array([2, 0], np.int32)))
    assert float(value) == pytest.approx(0.40760595, rel=1e-6)
