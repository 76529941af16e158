"""Reduction, scan and sorting Primitive classes (``ops.ReduceSum(keep_dims)``, ``ops.Argmax()``, ``ops.TopK()`` ...).

The Primitives that only set an op's parameters are generated from the op table; the others are
thin adapters onto ``sporax.ops.functional.reduce``, ``scans`` and ``sorting``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.ReduceMean(keep_dims=True)(Tensor(np.ones((2, 3), np.float32)), 1).shape
    (2, 1)
"""
from sporax.core import dtype as mstype
from sporax.ops import functional
from sporax.ops.faces import primitive_class
from sporax.ops.functional import (  # noqa: F401 (order_statistics: TopK's entry)
    order_statistics, reduce, scans, sorting, spread)
from sporax.ops.op_table import TABLE
from sporax.ops.primitive import Primitive, prim_attr_register

# Generated from the op table (sporax.ops.op_table): each calls its functional op's kernel.
ReduceMean = primitive_class(TABLE["mean"], __name__)
ReduceMax = primitive_class(TABLE["amax"], __name__)
ReduceMin = primitive_class(TABLE["amin"], __name__)
ReduceAll = primitive_class(TABLE["all"], __name__)
ReduceAny = primitive_class(TABLE["any"], __name__)
Cummax = primitive_class(TABLE["cummax"], __name__)
Cummin = primitive_class(TABLE["cummin"], __name__)


# Written here because MindSpore's Primitive does more than set the op's parameters: each
# calls the functional op.
class ReduceSum(Primitive):
    """Sum over ``axis``, keeping the input dtype.

    Args:
        keep_dims (bool): keep reduced dimensions with size 1. Default: False.
        skip_mode (bool): when True and ``axis`` is empty, return the input unchanged.

    Inputs:
        - **x** (Tensor) - the input.
        - **axis** (Union[int, tuple(int), list(int)]) - dimensions to reduce; all when empty.

    Outputs:
        Tensor.
    """

    @prim_attr_register
    def __init__(self, keep_dims=False, skip_mode=False):
        self.keep_dims, self.skip_mode = keep_dims, skip_mode

    def __call__(self, x, axis=()):
        if self.skip_mode and (axis == () or axis == []):
            return functional.identity(x)
        if getattr(x, "dtype", None) == mstype.bool_:
            return reduce.any(x, axis, self.keep_dims)  # a Bool sum stays Bool: any
        return reduce.sum(x, axis, self.keep_dims, dtype=getattr(x, "dtype", None))


class ReduceProd(Primitive):
    """Product over ``axis``, keeping the input dtype (a Bool product is a logical AND).

    Args:
        keep_dims (bool): keep the multiplied dimensions with size 1. Default: False.

    Inputs:
        - **x** (Tensor) - a Bool or number tensor.
        - **axis** (Union[int, tuple(int), list(int)]) - the dimensions to multiply; every one when
          empty. Default: ().

    Outputs:
        Tensor of the input's dtype.
    """

    @prim_attr_register
    def __init__(self, keep_dims=False):
        self.keep_dims = keep_dims

    def __call__(self, x, axis=()):
        if getattr(x, "dtype", None) == mstype.bool_:
            return reduce.all(x, axis, self.keep_dims)  # a Bool product stays Bool: all
        return reduce.prod(x, axis, self.keep_dims, getattr(x, "dtype", None))


class ReduceStd(Primitive):
    """Standard deviation and mean over ``axis``.

    Args:
        axis (Union[int, tuple(int), list(int)]): dimensions to reduce; all when empty.
        unbiased (bool): divide by N - 1 instead of N. Default: True.
        keep_dims (bool): keep reduced dimensions with size 1. Default: False.

    Inputs:
        - **input_x** (Tensor) - a float tensor.

    Outputs:
        Tuple of Tensors ``(std, mean)``.
    """

    @prim_attr_register
    def __init__(self, axis=(), unbiased=True, keep_dims=False):
        # MindSpore 2.10 stores the axis as a tuple: ReduceStd(1).axis == (1,), () for all dimensions
        self.add_prim_attr("axis", (axis,) if isinstance(axis, int) else tuple(axis))
        self.unbiased, self.keep_dims = unbiased, keep_dims

    def __call__(self, input_x):
        return spread.std_mean(input_x, self.axis or None, int(self.unbiased), self.keep_dims)


_ARG_DOC = """Index of the {extreme} along ``axis``.

    Args:
        axis (int): the dimension. Default: -1.
        output_type (mindspore.dtype): Int32 or Int64. Default: Int32.

    Inputs:
        - **input_x** (Tensor) - the input.

    Outputs:
        Tensor of ``output_type``.
    """


class Argmax(Primitive):
    __doc__ = _ARG_DOC.format(extreme="maximum")

    _function = staticmethod(reduce.argmax)

    @prim_attr_register
    def __init__(self, axis=-1, output_type=mstype.int32):
        self.axis, self.output_type = axis, output_type

    def __call__(self, input_x):
        if isinstance(self.axis, (tuple, list)):
            raise TypeError(f"For '{self.name}', the axis must be a single int, but got {self.axis!r}.")
        return functional.cast(self._function(input_x, self.axis), self.output_type)


class Argmin(Argmax):
    __doc__ = _ARG_DOC.format(extreme="minimum")

    _function = staticmethod(reduce.argmin)


_WITH_VALUE_DOC = """Index (Int64) and value of the {extreme} along ``axis``.

    Args:
        axis (int): the dimension. Default: 0.
        keep_dims (bool): keep the reduced dimension with size 1. Default: False.

    Inputs:
        - **input** (Tensor) - the input.

    Outputs:
        Tuple ``(index, values)``.
    """


class ArgMaxWithValue(Primitive):
    __doc__ = _WITH_VALUE_DOC.format(extreme="maximum")

    _function = staticmethod(reduce.max)

    @prim_attr_register
    def __init__(self, axis=0, keep_dims=False):
        self.axis, self.keep_dims = axis, keep_dims

    def __call__(self, input):
        values, index = self._function(input, self.axis, self.keep_dims)
        return index, values


class ArgMinWithValue(ArgMaxWithValue):
    __doc__ = _WITH_VALUE_DOC.format(extreme="minimum")

    _function = staticmethod(reduce.min)


# MindSpore's ops.function.array_func keeps ready-made instances (axis 0, keep_dims False) under these names.
arg_max_with_value_ = ArgMaxWithValue()
arg_min_with_value_ = ArgMinWithValue()


# --- scans, sorting ---
_SCAN_DOC = """Cumulative {what} along ``axis``.

    Args:
        exclusive (bool): each output excludes its own element. Default: False.
        reverse (bool): accumulate from the end. Default: False.

    Inputs:
        - **{input}** (Tensor) - the input.
        - **axis** (int) - the dimension.

    Outputs:
        Tensor of the input's shape and dtype.
    """


class CumSum(Primitive):
    __doc__ = _SCAN_DOC.format(what="sum", input="input")

    _identity = 0

    @prim_attr_register
    def __init__(self, exclusive=False, reverse=False):
        self.exclusive, self.reverse = bool(exclusive), bool(reverse)

    def _scan(self, input, axis):
        return scans.cumsum(input, axis)

    def __call__(self, input, axis):
        if isinstance(axis, (tuple, list)):
            raise TypeError(f"For '{self.name}', the axis must be a single int, but got {axis!r}.")
        if getattr(input, "dtype", None) == mstype.bool_:
            raise TypeError(f"For '{self.name}', the argument 'input' must be a number Tensor, but got a Bool "
                            "tensor; cast it first, e.g. x.astype(mindspore.int32).")
        if self.reverse:
            input = functional.flip(input, (axis,))
        result = self._scan(input, axis)
        if self.exclusive and result.ndim:
            # Shift by one along the axis; the first element is the scan's identity.
            length = result.shape[axis]
            first = functional.full_like(functional.narrow(result, axis, 0, 1), self._identity)
            result = functional.concat((first, functional.narrow(result, axis, 0, length - 1)), axis)
        return functional.flip(result, (axis,)) if self.reverse else result


class CumProd(CumSum):
    __doc__ = _SCAN_DOC.format(what="product", input="x")

    _identity = 1

    def _scan(self, input, axis):
        return scans.cumprod(input, axis, input.dtype)


TopK = primitive_class(TABLE["top_k"], __name__)
Sort = primitive_class(TABLE["sort"], __name__)
