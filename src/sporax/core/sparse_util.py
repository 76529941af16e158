"""Shared checks and helpers of the sparse tensor classes (``COOTensor``, ``CSRTensor``, ``RowTensor``).

Checks read only shapes and dtypes (static under ``jit``), so constructing a sparse tensor in
traced code costs nothing at run time. Operations whose *result structure* depends on index
values (``coalesce``, sparse + sparse, ``dense_to_sparse_*``) compute that structure on the host
from concrete indices, as MindSpore's dynamic-shape kernels do, and combine the values with JAX
ops so that gradients still flow to them.
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor

INDEX_TYPES = (mstype.int16, mstype.int32, mstype.int64)


def is_traced(array):
    return isinstance(array, jax.core.Tracer)


def check_tensor(owner, name, value):
    """``value`` must be a Tensor (MindSpore takes no lists or NumPy arrays for sparse components)."""
    if not isinstance(value, Tensor):
        raise TypeError(f"For {owner}, '{name}' must be a Tensor, but got {type(value).__name__}. "
                        f"Wrap it: {name}=Tensor(...).")
    return value


def check_index_dtype(owner, name, tensor):
    if tensor.dtype not in INDEX_TYPES:
        raise TypeError(f"For {owner}, the type of '{name}' must be one of [int16, int32, int64], but got "
                        f"{tensor.dtype}. Cast it: {name}.astype(mindspore.int32).")


def check_shape(owner, shape, rank=None):
    """A sparse tensor's dense shape: a tuple of positive ints (of length ``rank`` when given)."""
    if not isinstance(shape, tuple):
        raise TypeError(f"For {owner}, 'shape' must be a tuple of positive ints, but got "
                        f"{type(shape).__name__}{'' if shape is None else ' ' + repr(shape)}.")
    for dim in shape:
        if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
            raise TypeError(f"For {owner}, every element of 'shape' must be an int, but got {dim!r} in {shape}.")
        if dim <= 0:
            raise ValueError(f"For {owner}, every element of 'shape' must be positive, but got {dim} in {shape}.")
    if rank is not None and len(shape) != rank:
        raise ValueError(f"For {owner}, the length of 'shape' must be {rank}, but got {shape}.")
    return tuple(int(dim) for dim in shape)


def require_concrete(owner, what, *arrays):
    """Raise a clear error when a structure-changing op meets traced (abstract) index values."""
    if any(is_traced(array) for array in arrays):
        raise RuntimeError(
            f"{owner}: {what} depends on the index values, so its number of entries is only known when "
            "the indices are concrete; it cannot run inside ms.jit / GRAPH_MODE (or on traced indices). "
            "Compute it outside the compiled function, or keep the sparsity pattern fixed and change values.")


def host(array):
    """A concrete array as NumPy (only for the structure of the data-dependent ops above)."""
    return np.asarray(array)


def result_dtype(values_dtype, other):
    """The MindSpore dtype of ``values (op) other``; ``other`` a Tensor or a Python number."""
    if isinstance(other, Tensor):
        return mstype.promote(values_dtype, other.dtype)
    return mstype.promote_with_scalar(values_dtype, other)


def as_jax(value, dtype):
    """``value`` (Tensor or Python number) as a jax array of the MindSpore ``dtype``."""
    array = value._value if isinstance(value, Tensor) else value
    return jnp.asarray(array, mstype.to_numpy_dtype(dtype))


def divide_dtype(dtype):
    """True division of integers gives Float32, as MindSpore's ``div``."""
    return mstype.float32 if dtype.kind in ("int", "uint", "bool") else dtype


def wider_index_dtype(left, right):
    return np.promote_types(left, right)


def merge_keys(keys):
    """Sorted unique linear keys and, for each input key, the position of its unique key."""
    unique, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    return unique, inverse.reshape(-1), counts


def segment_sum(values, segment_ids, num_segments):
    return jax.ops.segment_sum(values, jnp.asarray(segment_ids), num_segments=num_segments,
                               indices_are_sorted=False)


def check_dense_operand(owner, op, other, shape):
    """A dense operand of a sparse op: a Tensor broadcastable to the sparse tensor's ``shape``."""
    try:
        np.broadcast_shapes(tuple(other.shape), shape)
    except ValueError:
        raise ValueError(f"For {owner} {op}, the dense Tensor's shape {tuple(other.shape)} must equal (or "
                         f"broadcast to) the sparse tensor's shape {shape}.") from None
    if np.broadcast_shapes(tuple(other.shape), shape) != shape:
        raise ValueError(f"For {owner} {op}, the dense Tensor's shape {tuple(other.shape)} must equal (or "
                         f"broadcast to) the sparse tensor's shape {shape}.")
