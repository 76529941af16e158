"""``ConcatOffsetV1``: where each input starts along the concatenation axis (shape arithmetic).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.concat_offset_ops import ConcatOffsetV1
    >>> shapes = (Tensor(np.array([1, 2, 3], np.int32)), Tensor(np.array([1, 5, 3], np.int32)))
    >>> [offset.asnumpy().tolist() for offset in ConcatOffsetV1()(Tensor(1), shapes)]
    [[0, 0, 0], [0, 2, 0]]
"""
from sporax.core import dtype as mstype
from sporax.ops import functional
from sporax.ops._dispatch import array_of
from sporax.ops.primitive import Primitive, prim_attr_register


class ConcatOffsetV1(Primitive):
    """Offsets of each input in a concatenation along ``axis``, from the inputs' shapes.

    Inputs:
        - **axis** (Tensor) - a 0-d Int32 Tensor, the concatenation axis (negative counts from the end).
        - **x** (tuple[Tensor]) - the 1-d Int32 shapes of the concatenated inputs, all of one rank.

    Outputs:
        Tuple of 1-d Int32 Tensors, one per input: zeros except the running sum of the earlier
        inputs' sizes on ``axis``. Computed with array ops, so it also compiles with traced shapes.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["axis", "x"], ["y"])

    def __call__(self, axis, x):
        if not isinstance(x, (tuple, list)) or not x:
            raise TypeError(f"For 'ConcatOffsetV1', 'x' must be a non-empty tuple of Tensors, but got {x!r}.")
        shapes = [array_of("ConcatOffsetV1", "x", shape) for shape in x]
        if any(shape.ndim != 1 or shape.shape != shapes[0].shape for shape in shapes):
            raise ValueError("For 'ConcatOffsetV1', every element of 'x' must be a 1-d Tensor of the same length, "
                             f"but got shapes {[tuple(shape.shape) for shape in shapes]}.")
        rank = shapes[0].shape[0]
        array_of("ConcatOffsetV1", "axis", axis)
        stacked = functional.stack(x).astype(mstype.int32)
        dim = axis.astype(mstype.int32).reshape(()) % rank
        on_axis = (functional.arange(rank, dtype=mstype.int32) == dim).astype(mstype.int32)
        sizes = (stacked * on_axis).sum(axis=1)
        offsets = ((functional.cumsum(sizes, 0) - sizes).reshape((-1, 1)) * on_axis).astype(mstype.int32)
        return tuple(offsets[index] for index in range(len(shapes)))
