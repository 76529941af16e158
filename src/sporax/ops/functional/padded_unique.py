"""``ops.unique_with_pad``: the distinct values of a 1-D tensor, padded back to its length (the ``UniqueWithPad``
Primitive's functional form; MindSpore 2.10 deprecates it for ``ops.unique`` with ``ops.pad``).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> y, idx = ops.unique_with_pad(Tensor(np.array([3, 1, 3, 2], np.int32)), 0)
    >>> y.asnumpy().tolist(), idx.asnumpy().tolist()
    ([3, 1, 2, 0], [0, 1, 0, 2])
"""
from sporax.ops.operations.unique_segment_ops import UniqueWithPad

_UNIQUE_WITH_PAD = UniqueWithPad()


def unique_with_pad(x, pad_num):
    """The distinct values of 1-D ``x`` in order of first appearance, then ``pad_num`` up to ``x``'s length, and for
    each element of ``x`` its position among them.

    Args:
        x (Tensor): 1-D int32, int64 or float tensor.
        pad_num (Union[int, float, Tensor]): the fill of the unused tail.

    Returns:
        ``(y, idx)``: ``y`` of ``x``'s shape and dtype; ``idx`` of ``x``'s shape.
    """
    return _UNIQUE_WITH_PAD(x, pad_num)
