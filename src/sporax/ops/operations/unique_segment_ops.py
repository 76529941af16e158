"""``UniqueWithPad`` and ``SparseSegmentMean`` Primitives (MindSpore's array_ops / math_ops kernels).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.unique_segment_ops import UniqueWithPad
    >>> y, idx = UniqueWithPad()(Tensor(np.array([3, 1, 3, 2], np.int32)), 0)
    >>> y.asnumpy().tolist(), idx.asnumpy().tolist()
    ([3, 1, 2, 0], [0, 1, 0, 2])
"""
from sporax.ops.faces import primitive_class
from sporax.ops.functional.array_embedding import sparse_segment_mean  # noqa: F401 - declares its entry
from sporax.ops.functional.padded_unique import unique_with_pad  # noqa: F401 - declares its entry
from sporax.ops.op_table import TABLE

# Generated from their op-table entries (``sporax.ops.functional.padded_unique``, ``array_embedding``).
UniqueWithPad = primitive_class(TABLE["unique_with_pad"], __name__)
SparseSegmentMean = primitive_class(TABLE["sparse_segment_mean"], __name__)
