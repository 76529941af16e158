"""Tensor methods over functional ops (``x.addbmm(...)``, ``x.index_put_(...)``,
``x.fill_diagonal_(v)`` ...).

A table like ``tensor_methods``: ``_DIRECT`` rows make a functional op the method (the Tensor is
its first argument, MindSpore's method signature being the function's); the functions below adapt
the rest. In-place (``_``) methods rebind the Tensor's slot through ``sporax.state.assign.write``
(shape and dtype kept) and return the Tensor. ``install()`` runs when ``sporax.ops`` imports this
module.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> values, indices = Tensor(np.array([3.0, 1.0, 2.0], np.float32)).kthvalue(2)
    >>> values.asnumpy().item(), indices.asnumpy().item()
    (2.0, 2)
"""
import numbers
import sys

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import random_state
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.dlpack import from_dlpack
from sporax.state.assign import write
from sporax.core import dtype as mstype


def _ops():
    return sys.modules["sporax.ops"]


def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
    """``self = beta * self + alpha * (mat1 @ mat2)`` in place; returns self."""
    return write(self, _ops().addmm(self, mat1, mat2, beta=beta, alpha=alpha), "Tensor.addmm_")


def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element is close to ``other``'s (``|a - b| <= atol + rtol * |b|``), a Python bool."""
    return bool(jnp.all(_ops().isclose(self, other, rtol, atol, equal_nan)._value))


def _with_value(name, reduce, arg):
    def method(self, axis=0, keep_dims=False):
        """``(values, indices)`` of the extreme along ``axis``."""
        array = array_of(f"Tensor.{name}", "self", self)
        if axis is None:
            # As MindSpore: the extreme of all elements, a scalar pair whatever ``keep_dims`` says.
            array, axis, keep_dims = array.reshape(-1), 0, False
        axis = int(axis) % max(array.ndim, 1)
        values = reduce(array, axis=axis, keepdims=keep_dims)
        indices = arg(array, axis=axis, keepdims=keep_dims)
        return wrap(values), wrap(indices.astype(jnp.int64))
    method.__name__ = name
    return method


def bernoulli(self, *, generator=None):
    """0/1 draws with the probabilities held in this tensor (``ops.bernoulli_ext``)."""
    return _ops().bernoulli_ext(self, generator=generator)


def cauchy(self, median=0.0, sigma=1.0):
    """Fill this tensor in place with samples of the Cauchy distribution; returns self."""
    if sigma <= 0:
        raise ValueError(f"For 'Tensor.cauchy', 'sigma' must be positive, but got {sigma}.")
    sample = jax.random.cauchy(random_state.next_key(), self.shape, jnp.float32) * sigma + median
    return write(self, sample, "Tensor.cauchy")


def choose(self, choices, mode="clip"):
    """``choices[self[i]][i]`` element-wise (NumPy's ``choose``; ``mode`` 'clip', 'wrap' or 'raise')."""
    if mode not in ("clip", "wrap", "raise"):
        raise ValueError(f"For 'Tensor.choose', 'mode' must be 'clip', 'wrap' or 'raise', but got {mode!r}.")
    index = array_of("Tensor.choose", "self", self)
    if index.dtype.kind not in "iu":
        raise TypeError(f"For 'Tensor.choose', the tensor must hold int indices, but got {index.dtype}.")
    arrays = [item._value if isinstance(item, Tensor) else jnp.asarray(item) for item in choices]
    if mode == "raise":
        host = np.asarray(index)
        if host.size and (host.min() < 0 or host.max() >= len(arrays)):
            raise ValueError(f"For 'Tensor.choose', the indices must be in [0, {len(arrays)}), but got "
                             f"values from {host.min()} to {host.max()}.")
        mode = "clip"
    return wrap(jnp.choose(index, arrays, mode=mode))


def fill_diagonal(self, fill_value, wrap=False):
    """A copy with the main diagonal set to ``fill_value`` (``wrap``: restart it in tall matrices)."""
    from sporax.ops.operations.math_counting_ops import fill_diagonal as fill

    return fill("Tensor.fill_diagonal", self, fill_value, wrap)


def fill_diagonal_(self, fill_value, wrap=False):
    """Set the main diagonal to ``fill_value`` in place; returns self."""
    return write(self, fill_diagonal(self, fill_value, wrap), "Tensor.fill_diagonal_")


def index_add(self, indices, y, axis, use_lock=True, check_index_bound=True):
    """Add the slices of ``y`` at ``indices`` along ``axis`` into this tensor (in place, as MindSpore 2.10
    does); returns the result. MindSpore 2.10 also takes the ``(dim, index, source)`` order: a Python int
    first selects it."""
    if isinstance(indices, int) and not isinstance(indices, bool):
        indices, y, axis = y, axis, indices  # (dim, index, source)
    return write(self, _ops().index_add(self, indices, y, axis, use_lock, check_index_bound), "Tensor.index_add")


def index_add_(self, dim, index, source, *, alpha=1):
    """``self[..., index[i], ...] += alpha * source[..., i, ...]`` along ``dim`` in place; returns self."""
    scaled = source if alpha == 1 else _ops().mul(source, alpha)
    return write(self, _ops().index_add(self, index, scaled, dim), "Tensor.index_add_")


def index_copy_(self, dim, index, tensor):
    """Copy the slices of ``tensor`` to positions ``index`` along ``dim`` in place; returns self."""
    array = self._value
    positions = array_of("Tensor.index_copy_", "index", index).reshape(-1)
    values = array_of("Tensor.index_copy_", "tensor", tensor).astype(array.dtype)
    dim = int(dim) % array.ndim
    expected = array.shape[:dim] + (positions.shape[0],) + array.shape[dim + 1:]
    if tuple(values.shape) != expected:
        raise ValueError(f"For 'Tensor.index_copy_', 'tensor' must have shape {expected}, but got "
                         f"{tuple(values.shape)}.")
    return write(self, array.at[(slice(None),) * dim + (positions,)].set(values), "Tensor.index_copy_")


def index_put(self, indices, values, accumulate=False):
    """A copy with ``values`` written (or added, with ``accumulate``) at the tuple of index tensors ``indices``."""
    from sporax.ops.operations.inplace_ops import index_put as put

    return put("Tensor.index_put", self, values, indices, accumulate)


def index_put_(self, indices, values, accumulate=False):
    """``index_put`` in place; returns self."""
    return write(self, index_put(self, indices, values, accumulate), "Tensor.index_put_")


def itemset(self, *args):
    """A copy with one element set: ``itemset(value)`` (one-element tensor), ``itemset(flat_index, value)`` or
    ``itemset((i, j, ...), value)``; the value is cast to the tensor's dtype."""
    array = self._value
    if len(args) == 1:
        if array.size != 1:
            raise ValueError("For 'Tensor.itemset', a single argument needs a one-element tensor, but the tensor "
                             f"has shape {tuple(array.shape)}.")
        return wrap(jnp.full(array.shape, args[0], array.dtype))
    if len(args) != 2:
        raise TypeError(f"Tensor.itemset() takes 1 or 2 arguments, but got {len(args)}.")
    where, value = args
    if isinstance(where, numbers.Integral):
        if not -array.size <= where < array.size:
            raise IndexError(f"For 'Tensor.itemset', index {where} is out of bounds for size {array.size}.")
        return wrap(array.reshape(-1).at[where].set(value).reshape(array.shape))
    return wrap(array.at[tuple(where)].set(value))


def data_ptr(self):
    """The address of the tensor's buffer in host memory (an int)."""
    return self._value.unsafe_buffer_pointer()


def get_bytes(self):
    """The raw bytes of the tensor's values (C order)."""
    return np.ascontiguousarray(self.asnumpy()).tobytes()


def data_sync(self, wait=True):
    """Wait until the tensor's value is computed (JAX dispatches asynchronously); returns None."""
    if wait:
        self._value.block_until_ready()


def convert_bytes_to_tensor(data, shape, dtype):
    """A Tensor of ``shape`` and ``dtype`` read from the raw bytes ``data`` (as ``get_bytes`` writes them)."""
    array = np.frombuffer(data, mstype.to_numpy_dtype(mstype.normalize(dtype)))
    if array.size != int(np.prod(shape)):
        raise ValueError(f"For 'Tensor.convert_bytes_to_tensor', {len(data)} bytes hold {array.size} values, but "
                         f"shape {tuple(shape)} needs {int(np.prod(shape))}.")
    return Tensor(array.reshape(tuple(shape)).copy())


_DIRECT = ("exponential_",
           "inplace_update",
           "bernoulli_", "col2im", "fold")

_ADAPTED = {
    "addmm_": addmm_, "allclose": allclose, "bernoulli": bernoulli, "cauchy": cauchy, "choose": choose,
    "fill_diagonal": fill_diagonal, "fill_diagonal_": fill_diagonal_, "index_add": index_add,
    "index_add_": index_add_, "index_copy_": index_copy_, "index_put": index_put, "index_put_": index_put_,
    "itemset": itemset, "data_ptr": data_ptr, "get_bytes": get_bytes, "data_sync": data_sync,
    "argmax_with_value": _with_value("argmax_with_value", jnp.max, jnp.argmax),
    "argmin_with_value": _with_value("argmin_with_value", jnp.min, jnp.argmin),
    "is_pinned": lambda self: False, "is_shared": lambda self: False,
}


def install():
    """Set the methods on ``Tensor`` (idempotent); ops not provided by ``sporax.ops`` are skipped."""
    ops = _ops()
    for name in _DIRECT:
        function = getattr(ops, name, None)
        if function is not None:
            setattr(Tensor, name, function)
    for name, function in _ADAPTED.items():
        setattr(Tensor, name, function)
    Tensor.from_dlpack = staticmethod(from_dlpack)
    Tensor.convert_bytes_to_tensor = staticmethod(convert_bytes_to_tensor)
    Tensor.is_meta = property(lambda self: False)


install()
