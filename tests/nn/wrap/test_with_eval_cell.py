"""nn.WithEvalCell: (loss, outputs, label), with add_cast_fp32 casting as MindSpore 2.10 does."""
import numpy as np
import pytest

import sporax
from sporax import Tensor, nn

# MindSpore 2.10 (CPU, both modes) on this network and data: loss 0.89557993 for class indices and for
# the equivalent one-hot float16 probabilities; class-index labels come back Int32, float labels Float32.
RECORDED_LOSS = 0.89557993


def _eval_cell():
    net = nn.Dense(3, 3)
    net.weight.set_data(Tensor(np.arange(9).reshape(3, 3).astype(np.float32) / 10))
    net.bias.set_data(Tensor(np.zeros(3, np.float32)))
    return nn.WithEvalCell(net, nn.CrossEntropyLoss(), add_cast_fp32=True)


@pytest.mark.parametrize("mode", [sporax.PYNATIVE_MODE, sporax.GRAPH_MODE])
def test_add_cast_fp32_keeps_class_index_labels_integer(mode):
    # mindcv's validation under amp O2 feeds int32 class indices through this cast; a float label would
    # make cross_entropy read them as probabilities.
    sporax.set_context(mode=mode)
    try:
        cell = _eval_cell()
        x = Tensor(np.array([[1, 2, 3], [0.5, -1, 2]], np.float32))
        loss, outputs, label = cell(x, Tensor(np.array([2, 0], np.int32)))
        assert float(loss) == pytest.approx(RECORDED_LOSS, rel=1e-6)
        assert label.dtype == sporax.int32 and outputs.dtype == sporax.float32
        loss, _, label = cell(x, Tensor(np.array([[0, 0, 1], [1, 0, 0]], np.float16)))
        assert float(loss) == pytest.approx(RECORDED_LOSS, rel=1e-6)
        assert label.dtype == sporax.float32
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
