"""Row-update and index-write Primitives: ``InplaceAdd``/``InplaceSub``/``InplaceUpdate`` (new tensors, as in
MindSpore), ``InplaceUpdateV2``, ``InplaceIndexAdd`` (updates a Parameter), ``IndexFill``, ``IndexPut``,
``TensorCopySlices`` (a copy with a slice replaced).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> x = Tensor(np.zeros((2, 2), np.float32))
    >>> ops.InplaceAdd(indices=(1,))(x, Tensor(np.ones((1, 2), np.float32))).asnumpy().tolist()
    [[0.0, 0.0], [1.0, 1.0]]
"""
import numbers

import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional import inplace, scatters
from sporax.ops.primitive import Primitive, prim_attr_register


class _RowUpdate(Primitive):
    """Base of InplaceAdd/InplaceSub/InplaceUpdate: ``indices`` (int or tuple) fixed at construction."""

    _function = None

    @prim_attr_register
    def __init__(self, indices):
        if isinstance(indices, numbers.Integral) and not isinstance(indices, bool):
            indices = (indices,)
        if not isinstance(indices, (tuple, list)) or not all(isinstance(i, numbers.Integral) for i in indices):
            raise TypeError(f"For '{type(self).__name__}', 'indices' must be an int or a tuple of ints, but got "
                            f"{indices!r}.")
        self.indices = tuple(indices)

    def __call__(self, x, v):
        return type(self)._function(x, v, self.indices)


class InplaceAdd(_RowUpdate):
    """``x`` with ``v`` added to the rows ``indices``."""

    _function = staticmethod(inplace.inplace_add)


class InplaceSub(_RowUpdate):
    """``x`` with ``v`` subtracted from the rows ``indices``."""

    _function = staticmethod(inplace.inplace_sub)


class InplaceUpdate(_RowUpdate):
    """``x`` with the rows ``indices`` replaced by ``v``."""

    _function = staticmethod(inplace.inplace_update)


class InplaceUpdateV2(Primitive):
    """``x`` with the rows ``indices`` (an int, tuple or Tensor input) replaced by ``v``."""

    def __call__(self, x, indices, v):
        return inplace.inplace_update(x, v, indices)


class InplaceIndexAdd(Primitive):
    """Add ``updates`` into Parameter ``var`` at ``indices`` along ``axis``; returns ``var``.

    Args:
        axis (int): the axis of ``indices``.
    """

    @prim_attr_register
    def __init__(self, axis):
        if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
            raise TypeError(f"For 'InplaceIndexAdd', 'axis' must be an int, but got {type(axis).__name__}.")
        self.axis = axis

    def __call__(self, var, indices, updates):
        return inplace.inplace_index_add(var, indices, updates, self.axis)


class IndexFill(Primitive):
    """``x`` with the entries at ``index`` along ``dim`` set to ``value``."""

    def __call__(self, x, dim, index, value):
        dim = int(dim.asnumpy().reshape(-1)[0]) if isinstance(dim, Tensor) else dim
        return scatters.index_fill(x, dim, index, value)


class IndexPut(Primitive):
    """``x1`` with ``x2`` written (or, with ``accumulate``, added) at the positions given by the tuple of 1-D
    index tensors ``indices`` (one per leading axis).

    Args:
        accumulate (int): 0 to overwrite, 1 to add. Default: 0.
    """

    @prim_attr_register
    def __init__(self, accumulate=0):
        if accumulate not in (0, 1):
            raise ValueError(f"For 'IndexPut', 'accumulate' must be 0 or 1, but got {accumulate!r}.")
        self.accumulate = accumulate

    def __call__(self, x1, x2, indices):
        return index_put("IndexPut", x1, x2, indices, bool(self.accumulate))


def index_put(op_name, x1, x2, indices, accumulate):
    """``x1`` with ``x2`` put at ``indices`` (a tuple/list of int Tensors); shared with ``Tensor.index_put``."""
    array = array_of(op_name, "x1", x1)
    values = array_of(op_name, "x2", x2).astype(array.dtype)
    if not isinstance(indices, (tuple, list)) or not indices or len(indices) > array.ndim:
        raise ValueError(f"For '{op_name}', 'indices' must be a non-empty tuple of at most {array.ndim} index "
                         f"Tensors, but got {describe(indices)}.")
    index = tuple(array_of(op_name, f"indices[{i}]", item) for i, item in enumerate(indices))
    for i, item in enumerate(index):
        if item.dtype.kind not in "iub":
            raise TypeError(f"For '{op_name}', indices[{i}] must be an int Tensor, but got {item.dtype}.")
    target = array.at[index]
    return wrap(target.add(values) if accumulate else target.set(values))


class TensorCopySlices(Primitive):
    """A copy of ``x`` with the slice ``x[begin:end]`` replaced by ``value`` (MindSpore's private ``_inner_ops``
    Primitive behind slice assignment).

    Inputs:
        - **x** (Tensor) - the target.
        - **value** (Tensor) - as many elements as the slice (read in row-major order), cast to ``x``'s dtype.
        - **begin**, **end** (tuple[int]) - the slice bounds of the leading dimensions (Python slice rules).
        - **strides** (tuple[int]) - all 1 (MindSpore's CPU kernel copies contiguous rows only).

    Outputs:
        Tensor of ``x``'s shape and dtype.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.ops.operations.inplace_ops import TensorCopySlices
        >>> x = Tensor(np.zeros((3, 2), np.int32))
        >>> TensorCopySlices()(x, Tensor(np.ones((1, 2), np.int32)), (1,), (2,), (1,)).asnumpy().tolist()
        [[0, 0], [1, 1], [0, 0]]
    """

    @prim_attr_register
    def __init__(self):
        """No settings: the slice comes with each call."""

    def __call__(self, x, value, begin, end, strides):
        array, update = array_of("TensorCopySlices", "x", x), array_of("TensorCopySlices", "value", value)
        bounds = [tuple(argument) if isinstance(argument, (tuple, list)) else None for argument in (begin, end, strides)]
        if None in bounds or len({len(bound) for bound in bounds}) != 1 or len(bounds[0]) > array.ndim:
            raise ValueError(f"For 'TensorCopySlices', 'begin', 'end' and 'strides' must be tuples of one length, "
                             f"at most the rank {array.ndim} of 'x', but got {begin!r}, {end!r}, {strides!r}.")
        if any(step != 1 for step in bounds[2]):
            raise RuntimeError(f"For 'TensorCopySlices', every element of 'strides' must be 1, but got {strides!r}.")
        where = tuple(slice(start, stop) for start, stop in zip(bounds[0], bounds[1]))
        target_shape = np.empty(array.shape, bool)[where].shape
        if update.size != int(np.prod(target_shape)):
            raise ValueError(f"For 'TensorCopySlices', 'value' must have as many elements as the slice "
                             f"{target_shape} of 'x', but got shape {tuple(update.shape)}.")
        return wrap(array.at[where].set(update.reshape(target_shape).astype(array.dtype)))
