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
from sporax.ops.functional.array_embedding import sparse_segment_mean
from sporax.ops.functional.padded_unique import unique_with_pad  # noqa: F401 - declares its entry
from sporax.ops.op_table import TABLE
from sporax.ops.primitive import Primitive, prim_attr_register

# Generated from its op-table entry (``sporax.ops.functional.padded_unique``).
UniqueWithPad = primitive_class(TABLE["unique_with_pad"], __name__)


class SparseSegmentMean(Primitive):
    """Per segment, the mean of the rows ``x[indices[i]]`` whose sorted ``segment_ids[i]`` names it.

    Written here, calling ``sparse_segment_mean`` (an op-table entry): MindSpore keeps this Primitive out of
    ``ops``, while a generated one must be exported there.

    Inputs:
        - **x** (Tensor) - float, rank >= 1.
        - **indices** (Tensor) - 1-d int rows of ``x``.
        - **segment_ids** (Tensor) - 1-d sorted int segment of each index.

    Outputs:
        Tensor of shape (segment_ids[-1] + 1,) + x.shape[1:]; empty segments are 0.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "indices", "segment_ids"], ["y"])

    def __call__(self, x, indices, segment_ids):
        return sparse_segment_mean(x, indices, segment_ids)
