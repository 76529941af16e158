"""``UniqueWithPad`` and ``SparseSegmentMean`` Primitives (MindSpore's array_ops / math_ops kernels).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.unique_segment_ops import UniqueWithPad
    >>> y, idx = UniqueWithPad()(Tensor(np.array([3, 1, 3, 2], np.int32)), 0)
    >>> y.asnumpy().tolist(), idx.asnumpy().tolist()
    ([3, 1, 2, 0], [0, 1, 0, 2])
"""
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.ops.functional.array_embedding import sparse_segment_mean


class UniqueWithPad(Primitive):
    """The distinct values of a 1-d ``x`` in order of first appearance, padded with ``pad_num`` to its length.

    Inputs:
        - **x** (Tensor) - 1-d int32, int64 or float Tensor.
        - **pad_num** (Union[int, float, Tensor]) - the fill for the unused tail.

    Outputs:
        - **y** (Tensor) - the distinct values, then ``pad_num``; the shape and dtype of ``x``.
        - **idx** (Tensor) - for each element of ``x``, its position in ``y``; the dtype of ``x``
          for integer input, Int32 for float input.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "pad_num"], ["y", "idx"])

    def __call__(self, x, pad_num):
        array = array_of("UniqueWithPad", "x", x)
        if array.ndim != 1:
            raise ValueError(f"For 'UniqueWithPad', 'x' must be 1-d, but got shape {tuple(array.shape)}.")
        size = array.shape[0]
        # first occurrence of each value, found with comparisons (static shapes: it also compiles and vmaps)
        equal = array[:, None] == array[None, :]
        first = jnp.argmax(equal, axis=1)                       # earliest index holding the same value
        is_first = first == jnp.arange(size)
        slot = jnp.cumsum(is_first) - 1                         # rank among the first occurrences
        index_dtype = array.dtype if array.dtype.kind in "iu" else jnp.int32
        idx = slot[first].astype(index_dtype)
        pad = jnp.asarray(array_of("UniqueWithPad", "pad_num", pad_num) if hasattr(pad_num, "asnumpy") else pad_num)
        y = jnp.full((size,), pad, array.dtype).at[jnp.where(is_first, slot, size)].set(array, mode="drop")
        return wrap(y), wrap(idx)


class SparseSegmentMean(Primitive):
    """Per segment, the mean of the rows ``x[indices[i]]`` whose sorted ``segment_ids[i]`` names it.

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
        # the output length is the last segment id + 1: a value, so it is read on the host (under
        # GRAPH mode a traced id makes the caller run eagerly, as for other data-dependent shapes)
        ids = np.asarray(array_of("SparseSegmentMean", "segment_ids", segment_ids))
        return sparse_segment_mean(x, indices, wrap(jnp.asarray(ids)))
