"""Tensor methods that change shapes or layouts, with MindSpore's signatures
(``x.reshape(2, 3)`` and ``x.reshape((2, 3))``, ``x.transpose(0, 1)``, ``x.view(mindspore.int32)``, ...).
"""
import math
import numbers

import jax
import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.ops.tensor_support import functional, _no_more, _pick, _shape_args, wrap


def reshape(self, *shape, **kwargs):
    """Give the tensor a new shape: ``x.reshape(2, 3)`` or ``x.reshape((2, 3))``."""
    return functional.reshape(self, _shape_args(shape, kwargs))


def view(self, *shape):
    """``x.view(2, 3)`` reshapes; ``x.view(mindspore.int32)`` reinterprets the bits."""
    if len(shape) == 1 and isinstance(shape[0], mstype.Type):
        return _bitcast(self, shape[0])
    shape = _shape_args(shape, {})
    _check_view_shape(shape, math.prod(self.shape))
    return functional.reshape(self, shape)


def _check_view_shape(shape, size):
    """MindSpore 2.10's view errors (its reshape words them otherwise), e.g. for 6 elements:
    ``proposed_shape '[const vector]{2, 4}' is invalid for input of size 6``."""
    dims = [int(d) for d in shape]
    if dims.count(-1) > 1:
        raise ValueError("only one dimension can be inferred")
    known = math.prod(d for d in dims if d != -1)
    fits = size % known == 0 if -1 in dims and known else known == size
    if not fits:
        raise ValueError(f"proposed_shape '[const vector]{{{', '.join(map(str, dims))}}}' is invalid for "
                         f"input of size {size}")


def _bitcast(tensor, dtype):
    target = mstype.to_numpy_dtype(dtype)
    array = tensor._value
    old, new = array.dtype.itemsize, target.itemsize
    if old == new:
        return wrap(jax.lax.bitcast_convert_type(array, target))
    if old > new:  # each element becomes old/new elements along a new last axis, then merged
        result = jax.lax.bitcast_convert_type(array, target)
        return wrap(result.reshape(array.shape[:-1] + (array.shape[-1] * (old // new),)))
    ratio = new // old
    if not array.shape or array.shape[-1] % ratio:
        raise ValueError(f"Tensor.view: the last dimension ({array.shape[-1:]}) must be divisible by "
                         f"{ratio} to view {tensor.dtype} as {dtype}.")
    grouped = array.reshape(array.shape[:-1] + (array.shape[-1] // ratio, ratio))
    return wrap(jax.lax.bitcast_convert_type(grouped, target))


def resize(self, *new_shape):
    """A tensor of ``new_shape`` holding the values in order, cut or padded with zeros (as MindSpore's, and
    ``numpy.ndarray.resize``; not ``numpy.resize``, which repeats them)."""
    shape = _shape_args(new_shape, {})
    flat = self._value.reshape(-1)
    size = math.prod(shape)
    if size > flat.size:
        flat = jnp.concatenate([flat, jnp.zeros((size - flat.size,), flat.dtype)])
    return wrap(flat[:size].reshape(shape))


def broadcast_to(self, *shape):
    return functional.broadcast_to(self, _shape_args(shape, {}))


def expand_as(self, other=None, *, x=None):
    """This Tensor broadcast to ``other``'s shape (MindSpore 2.10 also takes it by its older name, ``x=``)."""
    if (other is None) == (x is None):
        raise TypeError("Tensor.expand_as() takes the Tensor whose shape to take, as 'other' (or its older name "
                        f"'x'), once; got other={other!r}, x={x!r}.")
    return functional.broadcast_to(self, tuple((x if other is None else other).shape))


def permute(self, *dims, **kwargs):
    dims = _pick(kwargs, ("dims", "axis"), dims)
    return functional.permute(self, _shape_args(dims if isinstance(dims, tuple) else (dims,), {}))


def transpose(self, *axes, **kwargs):
    """``x.transpose(d0, d1)`` swaps two dims; ``x.transpose()`` or a full permutation permutes."""
    if "dim0" in kwargs or "dim1" in kwargs:
        axes = (kwargs.pop("dim0"), kwargs.pop("dim1"))
    _no_more("transpose", kwargs)
    axes = _shape_args(axes, {})
    ndim = self.ndim
    if not axes:
        axes = tuple(range(ndim))[::-1]
    elif len(axes) == 2 and ndim != 2 or axes == (0, 1) and ndim == 2:
        return functional.swapaxes(self, axes[0], axes[1])  # MindSpore: two dims are swapped (x.transpose(0, 1) is x.T)
    return functional.transpose(self, axes)


def _transposed(self):
    return functional.transpose(self, tuple(range(self.ndim))[::-1])  # a view of self, as MindSpore's ``x.T``


def _matrix_transposed(self):
    return functional.swapaxes(self, -1, -2)  # a view of self, as MindSpore's ``x.mT``


def _conjugate_transposed(self):
    return wrap(jnp.conj(jnp.transpose(self._value)))


def _matrix_conjugate_transposed(self):
    return wrap(jnp.conj(jnp.swapaxes(self._value, -1, -2)))


def t(self):
    """Transpose a tensor of at most two dimensions."""
    if self.ndim > 2:
        raise ValueError(f"Tensor.t: the tensor must have at most 2 dimensions, but it has shape {self.shape}.")
    return _transposed(self)


def squeeze(self, *axis, **kwargs):
    axis = _pick(kwargs, ("axis", "dim"), axis)
    if isinstance(axis, tuple) and len(axis) == 1:
        axis = axis[0]
    return functional.squeeze(self, None if axis == () else axis)


def unsqueeze(self, dim):
    return functional.unsqueeze(self, dim)


def flatten(self, *args, **kwargs):
    """``x.flatten(start_dim=0, end_dim=-1)`` (or ``x.flatten(order='C')``)."""
    order = kwargs.pop("order", "C")
    if args and isinstance(args[0], str):
        order, args = args[0], args[1:]
    start_dim = kwargs.pop("start_dim", args[0] if args else 0)
    end_dim = kwargs.pop("end_dim", args[1] if len(args) > 1 else -1)
    _no_more("flatten", kwargs)
    return functional.flatten(self, order, start_dim=start_dim, end_dim=end_dim)



def split(self, split_size_or_sections, *args, **kwargs):
    axis = _pick(kwargs, ("axis", "dim"), args[0] if args else 0)
    return functional.split(self, split_size_or_sections, axis)


def chunk(self, chunks, *args, **kwargs):
    axis = _pick(kwargs, ("axis", "dim"), args[0] if args else 0)
    return functional.chunk(self, chunks, axis)


def tile(self, *reps, **kwargs):
    reps = _pick(kwargs, ("dims", "reps", "multiples"), reps)
    return functional.tile(self, _shape_args(reps if isinstance(reps, tuple) else (reps,), {}))


def repeat(self, *repeats):
    """Repeat the whole tensor along each dimension (``x.repeat(2, 1)``, as ``torch.Tensor.repeat``).

    Unlike ``tile``, fewer repeats than dimensions is an error (NumPy-style ``x.repeat(n, axis)`` code hits it)."""
    repeats = _shape_args(repeats, {})
    if len(repeats) < self.ndim:
        raise ValueError(f"For repeat, number of items of repeats can not be smaller than the number of dimensions "
                         f"of self tensor, but got repeats with {len(repeats)} items and rank of self Tensor is "
                         f"{self.ndim}.")
    return functional.tile(self, repeats)


def repeat_interleave(self, repeats, dim=None, *, output_size=None):
    """``x.repeat_interleave(repeats, dim=None, *, output_size=None)``: MindSpore 2.10's method spells the axis
    ``dim`` (``axis=`` is refused there); ``output_size`` (the total length, a hint for Ascend) is not needed."""
    return functional.repeat_interleave(self, repeats, dim)


def _new(fill):
    def method(self, size, *more, dtype=None):
        """A new tensor of ``size`` filled with ``fill`` (this tensor's dtype unless ``dtype``).

        MindSpore's signature is ``(size, dtype=None)``: a second positional argument that is not an int is the
        dtype (``x.new_ones((2, 3), ms.float32)``); ints after ``size`` extend it, as torch's form does."""
        if more and not isinstance(more[0], numbers.Integral):
            if len(more) > 1 or dtype is not None:
                raise TypeError(f"new_{'ones' if fill else 'zeros'}() takes 'size' and 'dtype', but got "
                                f"{len(more) + 1} positional arguments{' and dtype' if dtype is not None else ''}.")
            dtype, more = more[0], ()
        shape = tuple(size) if isinstance(size, (tuple, list)) else (size,) + tuple(more)
        target = self._value.dtype if dtype is None else mstype.to_numpy_dtype(mstype.normalize(dtype))
        return wrap(jnp.full(shape, fill, target))
    return method


# Also MindSpore's functions ``ops.function.array_func.new_ones(input, size, *, dtype=None)`` / ``new_zeros``.
new_zeros, new_ones = _new(0), _new(1)


def new_full(self, size, fill_value, *, dtype=None):
    """A new tensor of ``size`` filled with ``fill_value`` (this tensor's dtype unless ``dtype``)."""
    target = self._value.dtype if dtype is None else mstype.to_numpy_dtype(mstype.normalize(dtype))
    return wrap(jnp.full(tuple(size) if isinstance(size, (tuple, list)) else (size,), fill_value, target))
