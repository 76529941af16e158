"""Reduction, scan and sorting Primitive classes (``ops.ReduceSum(keep_dims)``, ``ops.Argmax()``, ``ops.TopK()`` ...).

Thin adapters onto ``sporax.ops.functional.reduce`` and ``sorting``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.ReduceMean(keep_dims=True)(Tensor(np.ones((2, 3), np.float32)), 1).shape
    (2, 1)
"""
import functools

import jax
import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.ops._dispatch import array_of, numeric_array_of, wrap
from sporax.ops.functional import reduce, sorting
from sporax.ops.primitive import Primitive, prim_attr_register


# --- reductions ---
def _reduce_class(name, kind, summary):
    doc = (f"{summary}\n\n    Args:\n        keep_dims (bool): keep reduced dimensions with size 1. "
           "Default: False.\n\n    Inputs:\n        - **x** (Tensor) - the input.\n"
           "        - **axis** (Union[int, tuple(int), list(int)]) - the dimensions to reduce; "
           "all when empty. Default: ().\n\n    Outputs:\n        Tensor.\n")

    @prim_attr_register
    def __init__(self, keep_dims=False):
        self.keep_dims = keep_dims

    def __call__(self, x, axis=()):
        return reduce.reduce_along(name, kind, x, axis, self.keep_dims)

    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__,
                                     "__doc__": doc, "__module__": __name__})


ReduceMean = _reduce_class("ReduceMean", "mean", "Mean over ``axis``, keeping the input dtype.")
ReduceMax = _reduce_class("ReduceMax", "max", "Maximum over ``axis``.")
ReduceMin = _reduce_class("ReduceMin", "min", "Minimum over ``axis``.")
ReduceProd = _reduce_class("ReduceProd", "prod", "Product over ``axis``, keeping the input dtype.")
ReduceAll = _reduce_class("ReduceAll", "all", "Logical AND over ``axis``.")
ReduceAny = _reduce_class("ReduceAny", "any", "Logical OR over ``axis``.")


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
            return wrap(array_of(self.name, "x", x))
        return reduce.reduce_along("ReduceSum", "sum", x, axis, self.keep_dims)


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
        self.axis = None if axis in ((), []) else axis
        self.unbiased, self.keep_dims = unbiased, keep_dims

    def __call__(self, input_x):
        return reduce.std_mean(input_x, self.axis, int(self.unbiased), self.keep_dims)


class Argmax(Primitive):
    """Index of the maximum along ``axis``.

    Args:
        axis (int): the dimension. Default: -1.
        output_type (mindspore.dtype): Int32 or Int64. Default: Int32.

    Inputs:
        - **input_x** (Tensor) - the input.

    Outputs:
        Tensor of ``output_type``.
    """

    _pick = staticmethod(jnp.argmax)

    @prim_attr_register
    def __init__(self, axis=-1, output_type=mstype.int32):
        self.axis, self.output_type = axis, output_type
        self._numpy_type = mstype.to_numpy_dtype(mstype.normalize(output_type))

    def __call__(self, input_x):
        array = array_of(self.name, "input_x", input_x)
        axis = reduce._single_axis(self.name, self.axis, array.ndim)
        return wrap(self._pick(array, axis).astype(self._numpy_type))


class Argmin(Argmax):
    """Index of the minimum along ``axis``.

    Args:
        axis (int): the dimension. Default: -1.
        output_type (mindspore.dtype): Int32 or Int64. Default: Int32.

    Inputs:
        - **input_x** (Tensor) - the input.

    Outputs:
        Tensor of ``output_type``.
    """

    _pick = staticmethod(jnp.argmin)


class ArgMaxWithValue(Primitive):
    """Index (Int64) and value of the maximum along ``axis``.

    Args:
        axis (int): the dimension. Default: 0.
        keep_dims (bool): keep the reduced dimension with size 1. Default: False.

    Inputs:
        - **input** (Tensor) - the input.

    Outputs:
        Tuple ``(index, values)``.
    """

    _function = staticmethod(reduce.max)

    @prim_attr_register
    def __init__(self, axis=0, keep_dims=False):
        self.axis, self.keep_dims = axis, keep_dims

    def __call__(self, input):
        values, index = self._function(input, self.axis, self.keep_dims)
        return index, values


class ArgMinWithValue(ArgMaxWithValue):
    """Index (Int64) and value of the minimum along ``axis``.

    Args:
        axis (int): the dimension. Default: 0.
        keep_dims (bool): keep the reduced dimension with size 1. Default: False.

    Inputs:
        - **input** (Tensor) - the input.

    Outputs:
        Tuple ``(index, values)``.
    """

    _function = staticmethod(reduce.min)


# --- scans, sorting ---
class CumSum(Primitive):
    """Cumulative sum along ``axis``.

    Args:
        exclusive (bool): each output excludes its own element. Default: False.
        reverse (bool): accumulate from the end. Default: False.

    Inputs:
        - **input** (Tensor) - the input.
        - **axis** (int) - the dimension.

    Outputs:
        Tensor of the input's shape and dtype.
    """

    _product = False

    @prim_attr_register
    def __init__(self, exclusive=False, reverse=False):
        self.exclusive, self.reverse = bool(exclusive), bool(reverse)

    def __call__(self, input, axis):
        array = numeric_array_of(self.name, "input", input)
        axis = reduce._single_axis(self.name, axis, array.ndim)
        return wrap(_scan_kernel(array, self._product, axis, self.exclusive, self.reverse))


@functools.partial(jax.jit, static_argnames=("product", "axis", "exclusive", "reverse"))
def _scan_kernel(array, product, axis, exclusive, reverse):
    if reverse:
        array = jnp.flip(array, axis)
    result = (jnp.cumprod if product else jnp.cumsum)(array, axis, dtype=array.dtype)
    if exclusive:
        # Shift by one along the axis; the first element is the scan's identity.
        first = jnp.full_like(jax.lax.slice_in_dim(result, 0, 1, axis=axis), 1 if product else 0)
        kept = jax.lax.slice_in_dim(result, 0, result.shape[axis] - 1, axis=axis)
        result = jnp.concatenate([first, kept], axis)
    return jnp.flip(result, axis) if reverse else result


class CumProd(CumSum):
    """Cumulative product along ``axis``.

    Args:
        exclusive (bool): each output excludes its own element. Default: False.
        reverse (bool): accumulate from the end. Default: False.

    Inputs:
        - **x** (Tensor) - the input.
        - **axis** (int) - the dimension.

    Outputs:
        Tensor of the input's shape and dtype.
    """

    _product = True


class Cummax(Primitive):
    """Running maximum along ``axis`` and its indices.

    Args:
        axis (int): the dimension.

    Inputs:
        - **input** (Tensor) - the input.

    Outputs:
        Tuple ``(values, indices)``.
    """

    @prim_attr_register
    def __init__(self, axis):
        self.axis = axis

    def __call__(self, input):
        return reduce.cummax(input, self.axis)


class Cummin(Primitive):
    """Running minimum along ``axis`` and its indices.

    Args:
        axis (int): the dimension.

    Inputs:
        - **input** (Tensor) - the input.

    Outputs:
        Tuple ``(values, indices)``.
    """

    @prim_attr_register
    def __init__(self, axis):
        self.axis = axis

    def __call__(self, input):
        return reduce.cummin(input, self.axis)


class TopK(Primitive):
    """The ``k`` largest elements along the last dimension and their Int32 indices.

    Args:
        sorted (bool): return them in descending order (False keeps the input order when k is the
            whole dimension, as MindSpore's CPU kernel does). Default: True.

    Inputs:
        - **input_x** (Tensor) - the input.
        - **k** (int) - how many.

    Outputs:
        Tuple ``(values, indices)``.
    """

    @prim_attr_register
    def __init__(self, sorted=True):
        self.sorted = sorted

    def __call__(self, input_x, k):
        return sorting.topk(input_x, k, -1, True, self.sorted)


class Sort(Primitive):
    """Sort along ``axis``; returns the values and their Int32 indices.

    Args:
        axis (int): the dimension. Default: -1.
        descending (bool): largest first. Default: False.

    Inputs:
        - **x** (Tensor) - the input.

    Outputs:
        Tuple ``(values, indices)``.
    """

    @prim_attr_register
    def __init__(self, axis=-1, descending=False):
        self.axis, self.descending = axis, descending

    def __call__(self, x):
        return sorting.sort(x, self.axis, self.descending)
