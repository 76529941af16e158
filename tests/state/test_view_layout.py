"""Strides, storage offset and contiguity of PyNative views (sporax.state.views.layout).

Expected values recorded on MindSpore 2.10 (CPU, PyNative) with base ``x = arange(24).reshape(2, 3, 4)``:
``(y.is_contiguous(), y.stride(), y.storage_offset(), y.shape)`` for each view ``y``.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)

RECORDED = {
    "transpose": (lambda x: ops.transpose(x, (1, 0, 2)), False, [4, 12, 1], 0, (3, 2, 4)),
    "permute": (lambda x: x.permute(2, 0, 1), False, [1, 12, 4], 0, (4, 2, 3)),
    "T": (lambda x: x.T, False, [1, 4, 12], 0, (4, 3, 2)),
    "swapaxes": (lambda x: x.swapaxes(0, 1), False, [4, 12, 1], 0, (3, 2, 4)),
    "mT": (lambda x: x.mT, False, [12, 1, 4], 0, (2, 4, 3)),
    "t": (lambda x: x[0].t(), False, [1, 4], 0, (4, 3)),
    "row 0": (lambda x: x[0], True, [4, 1], 0, (3, 4)),
    "row 1": (lambda x: x[1], True, [4, 1], 12, (3, 4)),
    "column": (lambda x: x[:, 1], False, [12, 1], 4, (2, 4)),
    "step": (lambda x: x[:, :, ::2], False, [12, 4, 2], 0, (2, 3, 2)),
    "narrow": (lambda x: x.narrow(2, 1, 2), False, [12, 4, 1], 1, (2, 3, 2)),
    "reshape": (lambda x: x.reshape(6, 4), True, [4, 1], 0, (6, 4)),
    "expand_dims": (lambda x: x.expand_dims(0), True, [24, 12, 4, 1], 0, (1, 2, 3, 4)),
    "unsqueeze": (lambda x: x.unsqueeze(1), True, [12, 12, 4, 1], 0, (2, 1, 3, 4)),
    "broadcast_to": (lambda x: x[0:1].broadcast_to((3, 3, 4)), False, [0, 4, 1], 0, (3, 3, 4)),
    "diagonal": (lambda x: x[0].diagonal(), False, [5], 0, (3,)),
    "chunk": (lambda x: x.chunk(2, 2)[0], False, [12, 4, 1], 0, (2, 3, 2)),
    "unbind": (lambda x: x.unbind(1)[0], False, [12, 1], 0, (2, 4)),
    "movedim": (lambda x: x.movedim(0, 2), False, [4, 1, 12], 0, (3, 4, 2)),
    "T.T": (lambda x: x.T.T, True, [12, 4, 1], 0, (2, 3, 4)),
    "T.contiguous()": (lambda x: x.T.contiguous(), True, [6, 2, 1], 0, (4, 3, 2)),
    "T + 1": (lambda x: x.T + 1, True, [6, 2, 1], 0, (4, 3, 2)),
    "T.reshape": (lambda x: x.T.reshape(4, 6), True, [6, 1], 0, (4, 6)),  # MindSpore copies here
}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_view_layout(name):
    make, contiguous, strides, offset, shape = RECORDED[name]
    view = make(Tensor(X))
    assert view.shape == shape
    assert view.is_contiguous() is contiguous
    assert view.stride() == strides
    assert view.storage_offset() == offset


def test_contiguous_copies_a_strided_view_only():
    x = Tensor(X)
    transposed = x.T
    copy = transposed.contiguous()
    assert copy is not transposed and copy.is_contiguous() and not transposed.is_contiguous()
    np.testing.assert_array_equal(copy.asnumpy(), X.T)
    flat = x.reshape(6, 4)
    assert flat.contiguous() is flat


class IsContiguous(nn.Cell):
    def construct(self, x):
        return x.is_contiguous()


def test_graph_mode_sees_contiguous_inputs():
    # MindSpore 2.10: a transposed view passed to a GRAPH_MODE Cell answers True there, False in PyNative
    transposed = ops.transpose(Tensor(X), (1, 0, 2))
    assert IsContiguous()(transposed) is False
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert IsContiguous()(transposed)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
