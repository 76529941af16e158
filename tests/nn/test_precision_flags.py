"""``add_flags(fp16=True)`` is the flag ``to_float`` sets, and casts the Cell's float inputs as
``to_float`` does (the zoo's GCN: ``add_flags_recursive(fp16=True)``). Dtypes recorded from MindSpore 2.10."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn

X = Tensor(np.ones((1, 3), np.float32))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_fp16_flag_casts_inputs(mode):
    ms.set_context(mode=mode)
    try:
        dense = nn.Dense(3, 2)
        dense.add_flags_recursive(fp16=True)
        assert dense(X).dtype == ms.float16  # MindSpore 2.10: Float16 in both modes
        assert dense.weight.dtype == ms.float32
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_flag_false_keeps_the_cast_and_another_flag_replaces_it():
    dense = nn.Dense(3, 2)
    dense.add_flags_recursive(fp16=True)
    dense.add_flags_recursive(fp16=False)
    assert dense(X).dtype == ms.float16  # MindSpore 2.10: still Float16
    dense.add_flags(fp32=True)
    assert dense(X).dtype == ms.float32


def test_to_float_sets_the_same_flags():
    dense = nn.Dense(3, 2).to_float(ms.float16)
    assert dense.get_flags() == {"fp16": True, "fp32": False, "bf16": False}


def test_softmax_cross_entropy_primitive_checks_like_mindspore():
    ce = ms.ops.SoftmaxCrossEntropyWithLogits()
    with pytest.raises(ValueError, match="dimension of logits must be equal to 2, but got 1"):
        ce(Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32)))
    with pytest.raises(ValueError, match="consistent with 'logits' shape"):
        ce(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 4), np.float32)))
    with pytest.raises(TypeError, match="input type must be same"):
        ce(Tensor(np.ones((2, 3), np.float16)), Tensor(np.ones((2, 3), np.float32)))
    loss, backprop = ce(Tensor(np.zeros((2, 3), np.float32)), Tensor(np.eye(3, dtype=np.float32)[:2]))
    np.testing.assert_allclose(loss.asnumpy(), [np.log(3.0)] * 2, rtol=1e-6)
