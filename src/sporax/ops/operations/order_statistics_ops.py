"""Order-statistic and search Primitives: ``Median``, ``Quantile``, ``NthElement``, ``SearchSorted``,
``LowerBound``/``UpperBound``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> sorted_x = Tensor(np.array([[1, 3, 5]], np.int32))
    >>> ops.LowerBound()(sorted_x, Tensor(np.array([[3, 6]], np.int32))).asnumpy().tolist()
    [[1, 3]]
"""
from sporax.core import dtype as mstype
from sporax.ops.functional import order_statistics
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.ops.functional.array import reshape
from sporax.ops.functional.creation import zeros_like
from sporax.ops.functional.sorting import median


class Median(Primitive):
    """The median (lower of the two middles) along ``axis`` or of all elements, and its index.

    Args:
        global_median (bool): the median of all elements. axis (int): the axis otherwise.
        keep_dims (bool): keep the reduced axis. ignore_nan (bool): skip NaN values.

    Inputs:
        - **x** (Tensor).

    Outputs:
        ``(y, indices)`` (Int64 indices; for ``global_median`` 0, as MindSpore 2.10's CPU kernel gives).
    """

    @prim_attr_register
    def __init__(self, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
        self.global_median, self.axis, self.keep_dims = global_median, axis, keep_dims
        self.ignore_nan = ignore_nan

    def __call__(self, x):

        axis, keep = self.axis, self.keep_dims
        if self.global_median:
            x, axis, keep = reshape(x, (-1,)), 0, False
        values, indices = (order_statistics.nanmedian if self.ignore_nan else median)(x, axis, keep)
        if self.global_median:
            # MindSpore 2.10's CPU kernel leaves a global median's index at 0 (recorded: the median 5 of
            # [9, 1, 5, 7, 3] has index 0 there, as have those of its docstring examples)
            indices = zeros_like(indices)
        return values, indices


class Quantile(Primitive):
    """The ``q``-th quantiles of ``input`` along ``dim`` (all elements when None), linearly interpolated.

    Args:
        dim (int). keep_dims (bool). ignore_nan (bool): skip NaN values (else a slice with NaN gives NaN).

    Inputs:
        - **input** (Tensor) - float. **q** (Tensor) - 0-D or 1-D, in [0, 1].
    """

    @prim_attr_register
    def __init__(self, dim=None, keep_dims=False, ignore_nan=False):
        self.dim, self.keep_dims, self.ignore_nan = dim, keep_dims, ignore_nan

    def __call__(self, input, q):
        function = order_statistics.nanquantile if self.ignore_nan else order_statistics.quantile
        return function(input, q, self.dim, self.keep_dims)


class NthElement(Primitive):
    """The ``n``-th smallest (``reverse``: largest) value along the last axis.

    Inputs:
        - **input** (Tensor). **n** (Union[int, Tensor]).
    """

    @prim_attr_register
    def __init__(self, reverse=False):
        self.reverse = bool(reverse)

    def __call__(self, input, n):
        return order_statistics.nth_element(input, n, self.reverse)


class SearchSorted(Primitive):
    """Insertion indices of ``values`` into the sorted last axis of ``sorted_sequence``.

    Inputs:
        - **sorted_sequence** (Tensor). **values** (Tensor).
    """

    @prim_attr_register
    def __init__(self, dtype=mstype.int64, right=False):
        self.dtype, self.right = mstype.normalize(dtype), bool(right)

    def __call__(self, sorted_sequence, values):
        return order_statistics.searchsorted(sorted_sequence, values, out_int32=self.dtype == mstype.int32,
                                             right=self.right)


class LowerBound(Primitive):
    """Per row of the 2-D ``sorted_x``, the first index whose value is not below each of ``values``.

    Inputs:
        - **sorted_x** (Tensor) - (B, N). **values** (Tensor) - (B, K).
    """

    @prim_attr_register
    def __init__(self, out_type=mstype.int32):
        self.out_type = mstype.to_numpy_dtype(mstype.normalize(out_type))

    def __call__(self, sorted_x, values):
        return order_statistics.bound("LowerBound", sorted_x, values, "left", self.out_type)


class UpperBound(LowerBound):
    """Per row of the 2-D ``sorted_x``, the first index whose value is above each of ``values``.

    Inputs:
        - **sorted_x** (Tensor) - (B, N). **values** (Tensor) - (B, K).
    """

    def __call__(self, sorted_x, values):
        return order_statistics.bound("UpperBound", sorted_x, values, "right", self.out_type)
