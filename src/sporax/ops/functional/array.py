"""Array ops that read or change a tensor's shape and layout: reshape, transpose, join, split.

Shapes and axes are static Python ints (as in MindSpore's graph mode), so every op here lowers
to one ``jnp``/``lax`` call with no host synchronisation, and works on tracers.

Example:
    >>> from sporax import ops, Tensor
    >>> ops.shape(ops.reshape(Tensor([1, 2, 3, 4]), (2, -1)))
    (2, 2)
"""
import numbers

import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, promote_types, wrap
from sporax.ops.functional._args import (
    axes_tuple, axis_index, check_output_size, numpy_dtype, static_int, static_shape,
)


# --- attributes -------------------------------------------------------------------------------
def shape(input_x):
    """Return the shape of a Tensor as a tuple of ints."""
    return tuple(array_of("shape", "input_x", input_x).shape)


def rank(input_x):
    """Return the number of dimensions of a Tensor (an int)."""
    return array_of("rank", "input_x", input_x).ndim


def size(input_x):
    """Return the number of elements of a Tensor (an int)."""
    return int(np.prod(array_of("size", "input_x", input_x).shape, dtype=np.int64))


def dtype(x):
    """Return the MindSpore dtype of a Tensor (``mindspore.float32`` ...)."""
    return mstype.from_numpy_dtype(array_of("dtype", "x", x).dtype)


def cast(input, dtype):
    """Convert ``input`` (a Tensor or a Python number) to MindSpore type ``dtype``."""
    target = numpy_dtype("cast", "dtype", dtype)
    if isinstance(input, numbers.Number):
        return wrap(jnp.asarray(input, target))
    array = array_of("cast", "input", input)
    return wrap(array if array.dtype == target else array.astype(target))


def identity(x):
    """Return ``x`` unchanged: a Tensor as a new Tensor around the same array; any other value (a tuple
    of gradients, a number) itself, as MindSpore's ``F.identity`` passes anything through."""
    if isinstance(x, Tensor):
        return wrap(x._value)
    return x


# --- shape changes ----------------------------------------------------------------------------
def _resolve_shape(op_name, old_shape, new_shape):
    """Fill a single -1 in ``new_shape`` and check the element count matches."""
    total = int(np.prod(old_shape, dtype=np.int64))
    unknown = [i for i, dim in enumerate(new_shape) if dim == -1]
    if len(unknown) > 1 or any(dim < -1 for dim in new_shape):
        raise ValueError(f"For '{op_name}', the shape {new_shape} may hold at most one -1 and no "
                         "other negative size.")
    known = int(np.prod([dim for dim in new_shape if dim != -1], dtype=np.int64))
    if unknown:
        if known == 0 or total % known:
            raise ValueError(f"For '{op_name}', cannot reshape a tensor of shape {tuple(old_shape)} "
                             f"({total} elements) into {new_shape}.")
        new_shape = tuple(total // known if dim == -1 else dim for dim in new_shape)
    elif known != total:
        raise ValueError(f"For '{op_name}', cannot reshape a tensor of shape {tuple(old_shape)} "
                         f"({total} elements) into {new_shape} ({known} elements).")
    return new_shape


def reshape(input, shape):
    """Give ``input`` a new ``shape`` (a tuple of ints, one of them may be -1)."""
    array = array_of("reshape", "input", input)
    new_shape = _resolve_shape("reshape", array.shape, static_shape("reshape", "shape", shape))
    return wrap(array.reshape(new_shape))


def _permutation(op_name, arg_name, dims, ndim):
    axes = axes_tuple(op_name, arg_name, tuple(dims) if isinstance(dims, (tuple, list)) else dims, ndim)
    if sorted(axes) != list(range(ndim)):
        raise ValueError(f"For '{op_name}', '{arg_name}' must be a permutation of the {ndim} axes, "
                         f"but got {dims!r}.")
    return axes


def transpose(input, dims):
    """Permute the axes of ``input`` by ``dims``."""
    array = array_of("transpose", "input", input)
    return wrap(jnp.transpose(array, _permutation("transpose", "dims", dims, array.ndim)))


def permute(input, axis):
    """Permute the axes of ``input`` by ``axis``."""
    array = array_of("permute", "input", input)
    return wrap(jnp.transpose(array, _permutation("permute", "axis", axis, array.ndim)))


def swapaxes(input, axis0, axis1):
    """Swap two axes of ``input``."""
    array = array_of("swapaxes", "input", input)
    return wrap(jnp.swapaxes(array, axis_index("swapaxes", "axis0", axis0, array.ndim),
                             axis_index("swapaxes", "axis1", axis1, array.ndim)))


def swapdims(input, dim0, dim1):
    """Swap two axes of ``input`` (alias of ``swapaxes``)."""
    return swapaxes(input, dim0, dim1)


def moveaxis(x, source, destination):
    """Move axes ``source`` of ``x`` to positions ``destination``."""
    array = array_of("moveaxis", "x", x)
    return wrap(jnp.moveaxis(array, axes_tuple("moveaxis", "source", source, array.ndim),
                             axes_tuple("moveaxis", "destination", destination, array.ndim)))


movedim = moveaxis


def expand_dims(input_x, axis):
    """Insert a dimension of size 1 at ``axis``."""
    array = array_of("expand_dims", "input_x", input_x)
    return wrap(jnp.expand_dims(array, axis_index("expand_dims", "axis", axis, array.ndim + 1)))


def unsqueeze(input, dim):
    """Insert a dimension of size 1 at ``dim``."""
    array = array_of("unsqueeze", "input", input)
    return wrap(jnp.expand_dims(array, axis_index("unsqueeze", "dim", dim, array.ndim + 1)))


def squeeze(input, axis=None):
    """Remove dimensions of size 1 (all of them, or those in ``axis``; others are kept)."""
    array = array_of("squeeze", "input", input)
    if axis is None:
        axes = tuple(i for i, dim in enumerate(array.shape) if dim == 1)
    else:
        axes = tuple(i for i in axes_tuple("squeeze", "axis", axis, array.ndim)
                     if array.ndim and array.shape[i] == 1)
    return wrap(jnp.squeeze(array, axes) if axes else array)


def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """Merge dimensions ``start_dim`` .. ``end_dim`` into one (a 0-d tensor becomes shape (1,))."""
    array = array_of("flatten", "input", input)
    if order not in ("C", "F"):
        raise ValueError(f"For 'flatten', 'order' must be 'C' or 'F', but got {order!r}.")
    if array.ndim == 0:
        return wrap(array.reshape(1))
    if order == "F":
        array = jnp.transpose(array)
    if array.ndim == 1:
        return wrap(array)
    start = axis_index("flatten", "start_dim", start_dim, array.ndim)
    end = axis_index("flatten", "end_dim", end_dim, array.ndim)
    if start > end:
        raise ValueError(f"For 'flatten', 'start_dim' ({start_dim}) must not come after 'end_dim' "
                         f"({end_dim}).")
    dims = array.shape
    merged = int(np.prod(dims[start:end + 1], dtype=np.int64))
    return wrap(array.reshape(dims[:start] + (merged,) + dims[end + 1:]))


def broadcast_to(input, shape):
    """Broadcast ``input`` to ``shape``; a -1 in ``shape`` keeps that dimension of ``input``."""
    array = array_of("broadcast_to", "input", input)
    target = static_shape("broadcast_to", "shape", shape)
    offset = len(target) - array.ndim
    if offset < 0:
        raise ValueError(f"For 'broadcast_to', cannot broadcast {describe(input)} to the shorter "
                         f"shape {target}.")
    resolved = []
    for i, dim in enumerate(target):
        source = array.shape[i - offset] if i >= offset else None
        if dim == -1:
            if source is None:
                raise ValueError(f"For 'broadcast_to', -1 at position {i} of {target} has no "
                                 "matching input dimension.")
            dim = source
        if source not in (None, 1, dim):
            raise ValueError(f"For 'broadcast_to', cannot broadcast {describe(input)} to {target}: "
                             f"dimension {source} does not match {dim}.")
        resolved.append(dim)
    check_output_size("broadcast_to", "shape", resolved, array.dtype)
    return wrap(jnp.broadcast_to(array, tuple(resolved)))


def expand(input_x, size):
    """Broadcast ``input_x`` to ``size`` (a tuple or a 1-d Tensor; -1 keeps a dimension)."""
    return broadcast_to(input_x, size)


def tile(input, dims):
    """Repeat ``input`` ``dims[i]`` times along each axis (``dims`` may be longer than the rank)."""
    array = array_of("tile", "input", input)
    multiples = static_shape("tile", "dims", dims)
    if any(m < 0 for m in multiples):
        raise ValueError(f"For 'tile', 'dims' must be non-negative, but got {multiples}.")
    padded = (1,) * (len(multiples) - array.ndim) + array.shape
    multiples_padded = (1,) * (array.ndim - len(multiples)) + multiples
    check_output_size("tile", "dims", [a * m for a, m in zip(padded, multiples_padded)], array.dtype)
    return wrap(jnp.tile(array, multiples))


# --- joining and splitting --------------------------------------------------------------------
def _arrays(op_name, arg_name, tensors):
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a non-empty tuple or list of "
                        f"Tensors, but got {describe(tensors)}.")
    arrays = [array_of(op_name, f"{arg_name}[{i}]", t) for i, t in enumerate(tensors)]
    target = arrays[0].dtype
    for array in arrays[1:]:
        if array.dtype != target:
            target = promote_types(target, array.dtype)
    return [a if a.dtype == target else a.astype(target) for a in arrays]


def concat(tensors, axis=0):
    """Join ``tensors`` along an existing ``axis``."""
    arrays = _arrays("concat", "tensors", tensors)
    ndim = arrays[0].ndim
    axis = axis_index("concat", "axis", axis, ndim)
    for i, array in enumerate(arrays):
        if array.ndim != ndim or array.shape[:axis] + array.shape[axis + 1:] != \
                arrays[0].shape[:axis] + arrays[0].shape[axis + 1:]:
            raise ValueError(f"For 'concat', tensors[{i}] has shape {array.shape} but tensors[0] "
                             f"has {arrays[0].shape}: all dimensions except axis {axis} must match.")
    return wrap(jnp.concatenate(arrays, axis))


def cat(tensors, axis=0):
    """Join ``tensors`` along an existing ``axis`` (alias of ``concat``)."""
    return concat(tensors, axis)


def stack(tensors, axis=0):
    """Join ``tensors`` of one shape along a new ``axis``."""
    arrays = _arrays("stack", "tensors", tensors)
    for i, array in enumerate(arrays):
        if array.shape != arrays[0].shape:
            raise ValueError(f"For 'stack', tensors[{i}] has shape {array.shape} but tensors[0] has "
                             f"{arrays[0].shape}: all shapes must be equal.")
    return wrap(jnp.stack(arrays, axis_index("stack", "axis", axis, arrays[0].ndim + 1)))


def hstack(tensors):
    """Join ``tensors`` horizontally (along axis 1, or 0 for 1-d tensors)."""
    return wrap(jnp.hstack(_arrays("hstack", "tensors", tensors)))


def vstack(inputs):
    """Join ``inputs`` vertically (along axis 0, 1-d tensors become rows)."""
    return wrap(jnp.vstack(_arrays("vstack", "inputs", inputs)))


def unstack(input_x, axis=0):
    """Split ``input_x`` along ``axis`` into a tuple of tensors with that axis removed."""
    array = array_of("unstack", "input_x", input_x)
    axis = axis_index("unstack", "axis", axis, array.ndim)
    return tuple(wrap(jnp.squeeze(part, axis)) for part in jnp.split(array, array.shape[axis], axis))


def unbind(input, dim=0):
    """Split ``input`` along ``dim`` into a tuple of tensors with that axis removed."""
    return unstack(input, dim)


def _split_at(array, sizes, axis):
    points = np.cumsum(sizes)[:-1].tolist()
    return tuple(wrap(part) for part in jnp.split(array, points, axis))


def split(tensor, split_size_or_sections, axis=0):
    """Split ``tensor`` into chunks of one size (an int) or of the sizes listed."""
    array = array_of("split", "tensor", tensor)
    axis = axis_index("split", "axis", axis, array.ndim)
    length = array.shape[axis]
    if isinstance(split_size_or_sections, (tuple, list)):
        sizes = [static_int("split", "split_size_or_sections", s) for s in split_size_or_sections]
        if sum(sizes) != length or any(s < 0 for s in sizes):
            raise ValueError(f"For 'split', the sections {list(sizes)} must be non-negative and sum to "
                             f"the length {length} of axis {axis}.")
    else:
        step = static_int("split", "split_size_or_sections", split_size_or_sections)
        if step <= 0:
            raise ValueError("For 'split', 'split_size_or_sections' must be more than zero, but got "
                             f"{step}.")
        sizes = [step] * (length // step) + ([length % step] if length % step else [])
    return _split_at(array, sizes, axis)


def chunk(input, chunks, axis=0):
    """Split ``input`` into at most ``chunks`` pieces of size ``ceil(length / chunks)``."""
    array = array_of("chunk", "input", input)
    chunks = static_int("chunk", "chunks", chunks)
    if chunks <= 0:
        raise ValueError(f"For 'chunk', 'chunks' must be more than zero, but got {chunks}.")
    axis = axis_index("chunk", "axis", axis, array.ndim)
    length = array.shape[axis]
    step = max(-(-length // chunks), 1)
    sizes = [step] * (length // step) + ([length % step] if length % step else [])
    return _split_at(array, sizes, axis)


def tensor_split(input, indices_or_sections, axis=0):
    """Split ``input`` into ``n`` near-equal parts (an int) or at the listed indices."""
    array = array_of("tensor_split", "input", input)
    axis = axis_index("tensor_split", "axis", axis, array.ndim)
    if isinstance(indices_or_sections, (tuple, list)):
        points = [static_int("tensor_split", "indices_or_sections", i) for i in indices_or_sections]
    else:
        sections = static_int("tensor_split", "indices_or_sections", indices_or_sections)
        if sections <= 0:
            raise ValueError("For 'tensor_split', 'indices_or_sections' must be more than zero.")
        return tuple(wrap(part) for part in jnp.array_split(array, sections, axis))
    return tuple(wrap(part) for part in jnp.split(array, points, axis))


def hsplit(input, indices_or_sections):
    """Split ``input`` along axis 1 (axis 0 for 1-d tensors)."""
    return tensor_split(input, indices_or_sections, 1 if rank(input) > 1 else 0)


def vsplit(input, indices_or_sections):
    """Split ``input`` along axis 0."""
    return tensor_split(input, indices_or_sections, 0)


__all__ = ["shape", "rank", "size", "dtype", "cast", "reshape", "transpose", "permute", "swapaxes",
           "swapdims", "moveaxis", "movedim", "expand_dims", "unsqueeze", "squeeze", "flatten",
           "broadcast_to", "expand", "tile", "concat", "cat", "stack", "hstack", "vstack", "unstack",
           "unbind", "split", "chunk", "tensor_split", "hsplit", "vsplit"]
