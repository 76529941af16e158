"""Sorting and selection: ``ops.sort``, ``ops.argsort``, ``ops.topk``.

Indices are Int32, as MindSpore returns them. Values are gathered from the input with the
indices, so gradients flow back to the selected elements.

Example:
    >>> from sporax import Tensor, ops
    >>> values, indices = ops.topk(Tensor([1.0, 5.0, 3.0]), 2)
    >>> indices
    Tensor(shape=[2], dtype=Int32, value= [1, 2])
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional.reduce import _single_axis

_INT32 = np.dtype(np.int32)


@functools.partial(jax.jit, static_argnames=("axis", "descending"))
def _sort_kernel(array, axis, descending):
    if array.ndim == 0:
        return array, jnp.zeros((), _INT32)
    indices = jnp.argsort(array, axis=axis, stable=True, descending=descending)
    return jnp.take_along_axis(array, indices, axis), indices.astype(_INT32)


def sort(input_x, axis=-1, descending=False):
    """Return ``(values, indices)``: ``input_x`` sorted along ``axis`` and the Int32 positions."""
    array = array_of("sort", "input_x", input_x)
    values, indices = _sort_kernel(array, _single_axis("sort", axis, array.ndim), bool(descending))
    return wrap(values), wrap(indices)


def argsort(input, axis=-1, descending=False):
    """Return the Int32 positions that sort ``input`` along ``axis``."""
    array = array_of("argsort", "input", input)
    return wrap(_sort_kernel(array, _single_axis("argsort", axis, array.ndim),
                             bool(descending))[1])


def msort(input):
    """Return ``input`` sorted along its first dimension."""
    array = array_of("msort", "input", input)
    return wrap(jnp.sort(array, axis=0))


def _selection_key(array, largest):
    """An array whose top-k gives the wanted elements (negated order for the smallest)."""
    if largest:
        return array
    if array.dtype.kind == "b":
        return ~array
    if array.dtype.kind == "u":
        return jnp.invert(array)  # order-reversing without overflow
    if array.dtype.kind == "i":
        return -1 - array  # order-reversing without overflow at the minimum value
    return -array


def topk(input, k, dim=None, largest=True, sorted=True):
    """Return ``(values, indices)``: the ``k`` largest (or smallest) elements along ``dim``.

    Args:
        input (Tensor): the values.
        k (int): how many to take; at most the size of ``dim``.
        dim (int): the dimension (the last when None).
        largest (bool): take the largest when True, else the smallest.
        sorted (bool): results in order. When False and ``k`` is the whole dimension, the input
            order is kept (MindSpore's CPU kernel); otherwise the results are in order.
    """
    array = array_of("topk", "input", input)
    if hasattr(k, "_value") and not k.shape:
        if isinstance(k._value, jax.core.Tracer):
            raise TypeError("For 'topk', 'k' sets the output shape, so it must be known when the "
                            "op is compiled: pass a Python int, not a Tensor computed inside the "
                            "compiled function.")
        k = int(k._value)  # a 0-d Tensor k, read on the host
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"For 'topk', 'k' must be an int, but got {k!r}.")
    axis = _single_axis("topk", -1 if dim is None else dim, array.ndim)
    size = array.shape[axis] if array.ndim else 1
    if not 0 <= k <= size:
        raise ValueError(f"For 'topk', 'k' must be in [0, {size}] (the size of dimension {axis}), "
                         f"but got {k}.")
    if array.ndim == 0:
        return wrap(array), wrap(jnp.zeros((), _INT32))
    if not sorted and k == size:
        positions = jax.lax.broadcasted_iota(_INT32, array.shape, axis)
        return wrap(array), wrap(positions)
    values, indices = _topk_kernel(array, int(k), axis, bool(largest))
    return wrap(values), wrap(indices)


@functools.partial(jax.jit, static_argnames=("k", "axis", "largest"))
def _topk_kernel(array, k, axis, largest):
    moved = jnp.moveaxis(array, axis, -1)
    key = _selection_key(moved, largest)
    if key.dtype.kind == "b":
        key = key.astype(_INT32)
    _, indices = jax.lax.top_k(key, k)
    values = jnp.take_along_axis(moved, indices, -1)
    return jnp.moveaxis(values, -1, axis), jnp.moveaxis(indices, -1, axis).astype(_INT32)


def median(input, axis=-1, keepdims=False):
    """Return ``(values, indices)``: the lower median along ``axis`` and its Int64 position."""
    array = array_of("median", "input", input)
    values, indices = _median_kernel(array, _single_axis("median", axis, array.ndim),
                                     bool(keepdims))
    return wrap(values), wrap(indices)


@functools.partial(jax.jit, static_argnames=("axis", "keepdims"))
def _median_kernel(array, axis, keepdims):
    if array.ndim == 0:
        return array, jnp.zeros((), np.int64)
    order = jnp.argsort(array, axis=axis, stable=True)
    middle = jax.lax.slice_in_dim(order, (array.shape[axis] - 1) // 2,
                                  (array.shape[axis] - 1) // 2 + 1, axis=axis)
    values = jnp.take_along_axis(array, middle, axis)
    if not keepdims:
        values, middle = jnp.squeeze(values, axis), jnp.squeeze(middle, axis)
    return values, middle.astype(np.int64)
