"""``ListDiff`` (``ops.operations.array_ops``): the elements of one 1-D tensor missing from another.

The output length depends on the values, so the op computes on the host; inside a compiled function it
signals the documented eager fallback (``sporax.state.fallback``), as ``unique`` does.
"""
from sporax.core import dtype as mstype
from sporax.core import validator
from sporax.ops.functional.indexing import list_diff
from sporax.ops.primitive import Primitive, prim_attr_register


class ListDiff(Primitive):
    """The values of ``x`` that are not in ``y`` (in ``x``'s order, repeats kept) and their positions.

    Args:
        out_idx (mindspore.dtype): Int32 or Int64 positions. Default: Int32.

    Inputs:
        - **x** (Tensor) - 1-D values to keep. **y** (Tensor) - 1-D values to remove, same dtype.

    Outputs:
        ``(out, idx)``: 1-D Tensors with ``out == x[idx]``.

    Example:
        >>> from sporax import Tensor
        >>> from sporax.ops.operations.set_ops import ListDiff
        >>> ListDiff()(Tensor([1, 2, 3, 4]), Tensor([2, 4]))[0]
        Tensor(shape=[2], dtype=Int64, value= [1, 3])
    """

    @prim_attr_register
    def __init__(self, out_idx=mstype.int32):
        self.out_idx = validator.check_type_name("out_idx", out_idx, (mstype.int32, mstype.int64), "ListDiff")

    def __call__(self, x, y):
        return list_diff(x, y, mstype.to_numpy_dtype(self.out_idx).name)
