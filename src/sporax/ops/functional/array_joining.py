"""Joining and splitting tensors: concat (cat), stack, hstack, vstack, unstack, unbind, split, chunk,
tensor_split, hsplit and vsplit.

Like the layout ops of ``sporax.ops.functional.array``, each is an ``inline`` op-table entry of static
Python axes and sizes: a compiled step holds the plain ``jnp`` concatenate or slices. Tensors of mixed
dtypes join in their common MindSpore dtype.

Example:
    >>> from sporax import ops, Tensor
    >>> ops.concat((Tensor([1, 2]), Tensor([3])))
    Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, describe, promote_types
from sporax.ops.functional._args import axis_index, const_vector, static_int
from sporax.ops.op_table import ANY, Sample, op, spelling
from sporax.ops.samples import sequences, shaped
from sporax.ops.samples import values as samples_values


# --- NumPy references (the op test table's oracle) --------------------------------------------
def _numpy_split(input, sizes, axis):
    return np.split(input, np.cumsum(sizes)[:-1], axis)


def _numpy_sizes(length, step):
    return [step] * (length // step) + ([length % step] if length % step else [])


def _numpy_split_by(input, split_size_or_sections, axis=0):
    sizes = (split_size_or_sections if isinstance(split_size_or_sections, (tuple, list))
             else _numpy_sizes(input.shape[axis], split_size_or_sections))
    return _numpy_split(input, sizes, axis)


def _numpy_chunk(input, chunks, axis=0):
    return _numpy_split(input, _numpy_sizes(input.shape[axis], max(-(-input.shape[axis] // chunks), 1)), axis)


def _numpy_concat(tensors, axis=0):
    return np.concatenate(tensors, axis)


# --- joining and splitting --------------------------------------------------------------------
def _arrays(op_name, arg_name, tensors):
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a non-empty tuple or list of "
                        f"Tensors, but got {describe(tensors)}.")
    arrays = [array_of(op_name, f"{arg_name}[{i}]", t) for i, t in enumerate(tensors)]
    return _promoted(arrays)


def _promoted(arrays):
    """``arrays`` in their common MindSpore dtype (Float32 beside Int32 gives Float32)."""
    target = arrays[0].dtype
    for array in arrays[1:]:
        if array.dtype != target:
            target = promote_types(target, array.dtype)
    return [a if a.dtype == target else a.astype(target) for a in arrays]


@op(mint=(spelling("cat", "tensors, dim=0", axis="dim"), spelling("concat", "tensors, dim=0", axis="dim")),
    inputs="tensors", sequences="tensors", dtypes=ANY, primitive="Concat", primitive_attrs=("axis",), aliases=("cat",),
    inline=True, grad_check=False,
    samples=sequences((((2, 3), (1, 3)), {}), (((2, 3), (2, 1), (2, 2)), {"axis": -1}), (((4,),), {})),
    reference=_numpy_concat)
def concat(tensors, axis=0):
    """Join ``tensors`` along an existing ``axis``."""
    arrays = _promoted(tensors)
    ndim = arrays[0].ndim
    axis = axis_index("concat", "axis", axis, ndim)
    for i, array in enumerate(arrays):
        if array.ndim != ndim or array.shape[:axis] + array.shape[axis + 1:] != \
                arrays[0].shape[:axis] + arrays[0].shape[axis + 1:]:
            first = (f"For primitive[Concat], element rank must be same(shapes are "
                     f"{const_vector(const_vector(item.shape) for item in arrays)})!\n" if array.ndim != ndim else "")
            raise ValueError(f"{first}For 'concat', tensors[{i}] has shape {array.shape} but tensors[0] "
                             f"has {arrays[0].shape}: all dimensions except axis {axis} must match.")
    return jnp.concatenate(arrays, axis)


cat = concat


@op(mint=spelling("stack", "tensors, dim=0", axis="dim"),
    inputs="tensors", sequences="tensors", dtypes=ANY, primitive="Stack", primitive_attrs=("axis",),
    inline=True, grad_check=False,
    samples=sequences((((2, 3), (2, 3)), {}), (((2, 3), (2, 3), (2, 3)), {"axis": -1}), (((), ()), {})),
    reference=lambda tensors, axis=0: np.stack(tensors, axis))
def stack(tensors, axis=0):
    """Join ``tensors`` of one shape along a new ``axis``."""
    arrays = _promoted(tensors)
    for i, array in enumerate(arrays):
        if array.shape != arrays[0].shape:
            raise ValueError(f"For Stack element {i} shapein input can not pack with first element\n"  # MindSpore 2.10
                             f"For 'stack', tensors[{i}] has shape {array.shape} but tensors[0] has "
                             f"{arrays[0].shape}: all shapes must be equal.")
    return jnp.stack(arrays, axis_index("stack", "axis", axis, arrays[0].ndim + 1))


@op(inputs="tensors", sequences="tensors", dtypes=ANY, mint="hstack", inline=True, grad_check=False,
    samples=sequences((((2, 3), (2, 1)), {}), (((3,), (2,)), {})), reference=lambda tensors: np.hstack(tensors))
def hstack(tensors):
    """Join ``tensors`` horizontally (along axis 1, or 0 for 1-d tensors)."""
    return jnp.hstack(_promoted(tensors))


@op(inputs="inputs", sequences="inputs", dtypes=ANY, inline=True, grad_check=False,
    samples=sequences((((3,), (3,)), {}), (((2, 3), (1, 3)), {})), reference=lambda inputs: np.vstack(inputs))
def vstack(inputs):
    """Join ``inputs`` vertically (along axis 0, 1-d tensors become rows)."""
    return jnp.vstack(_promoted(inputs))


def _unstacked(op_name, array, axis):
    axis = axis_index(op_name, "axis", axis, array.ndim)
    if not array.shape[axis]:
        return ()  # an axis of length 0 gives no tensors (MindSpore 2.10)
    return tuple(jnp.squeeze(part, axis) for part in jnp.split(array, array.shape[axis], axis))


@op(view=True, inputs="input_x", dtypes=ANY, inline=True, grad_check=False,
    samples=shaped(((3, 4), {}), ((2, 3, 2), {"axis": -1})),
    reference=lambda input_x, axis=0: tuple(np.moveaxis(input_x, axis, 0)))
def unstack(input_x, axis=0):
    """Split ``input_x`` along ``axis`` into a tuple of tensors with that axis removed."""
    return _unstacked("unstack", input_x, axis)


@op(view=True, dtypes=ANY, method="unbind", mint="unbind", inline=True, grad_check=False,
    samples=shaped(((2, 3, 4), {"dim": 1})), reference=lambda input, dim=0: tuple(np.moveaxis(input, dim, 0)))
def unbind(input, dim=0):
    """Split ``input`` along ``dim`` into a tuple of tensors with that axis removed."""
    return _unstacked("unbind", input, dim)


def _split_at(array, sizes, axis):
    points = np.cumsum(sizes)[:-1].tolist()
    return tuple(jnp.split(array, points, axis))


@op(view=True, mint=spelling("split", "tensor, split_size_or_sections, dim=0", axis="dim"),
    inputs="tensor", dtypes=ANY, inline=True, grad_check=False, constant_settings=("split_size_or_sections",),
    samples=shaped(((5, 2), {"split_size_or_sections": 2}), ((3, 4), {"split_size_or_sections": (1, 3), "axis": 1})),
    reference=_numpy_split_by)
def split(tensor, split_size_or_sections, axis=0):
    """Split ``tensor`` into chunks of one size (an int) or of the sizes listed."""
    axis = axis_index("split", "axis", axis, tensor.ndim)
    length = tensor.shape[axis]
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
    return _split_at(tensor, sizes, axis)


@op(view=True, mint=spelling("chunk", "input, chunks, dim=0", axis="dim"), dtypes=ANY, inline=True,
    grad_check=False, constant_settings=("chunks", "axis"),
    samples=shaped(((7, 2), {"chunks": 3}), ((2, 4), {"chunks": 2, "axis": 1})), reference=_numpy_chunk)
def chunk(input, chunks, axis=0):
    """Split ``input`` into at most ``chunks`` pieces of size ``ceil(length / chunks)``."""
    chunks = static_int("chunk", "chunks", chunks)
    if chunks <= 0:
        raise ValueError(f"For 'chunk', 'chunks' must be more than zero, but got {chunks}.")
    axis = axis_index("chunk", "axis", axis, input.ndim)
    length = input.shape[axis]
    step = max(-(-length // chunks), 1)
    sizes = [step] * (length // step) + ([length % step] if length % step else [])
    return _split_at(input, sizes, axis)


def _tensor_split(op_name, array, indices_or_sections, axis):
    axis = axis_index(op_name, "axis", axis, array.ndim)
    if isinstance(indices_or_sections, (tuple, list)):
        points = [static_int(op_name, "indices_or_sections", i) for i in indices_or_sections]
        # Python slice bounds between consecutive points, as NumPy's array_split: an index past the
        # end (or before the previous one) gives an empty piece rather than an error.
        bounds = [0, *points, None]
        pieces = []
        for start, stop in zip(bounds[:-1], bounds[1:]):
            start, stop, _ = slice(start, stop).indices(array.shape[axis])
            pieces.append(jax.lax.slice_in_dim(array, start, max(start, stop), axis=axis))
        return tuple(pieces)
    sections = static_int(op_name, "indices_or_sections", indices_or_sections)
    if sections <= 0:
        raise ValueError(f"For '{op_name}', 'indices_or_sections' must be more than zero.")
    if array.shape[axis] == 0:  # MindSpore 2.10 gives an empty axis back whole: one piece, whatever the count
        return (array,)
    return tuple(jnp.array_split(array, sections, axis))


@op(dtypes=ANY, method="tensor_split", inline=True, grad_check=False,
    samples=shaped(((7,), {"indices_or_sections": 3}), ((3, 4), {"indices_or_sections": (1, 3), "axis": 1})),
    reference=lambda input, indices_or_sections, axis=0: np.array_split(input, indices_or_sections, axis))
def tensor_split(input, indices_or_sections, axis=0):
    """Split ``input`` into ``n`` near-equal parts (an int) or at the listed indices."""
    return _tensor_split("tensor_split", input, indices_or_sections, axis)


@op(dtypes=ANY, method="hsplit", inline=True, grad_check=False,
    samples=shaped(((3, 4), {"indices_or_sections": 2}), ((5,), {"indices_or_sections": (1, 3)})),
    reference=lambda input, indices_or_sections: np.array_split(input, indices_or_sections, 1 if input.ndim > 1 else 0))
def hsplit(input, indices_or_sections):
    """Split ``input`` along axis 1 (axis 0 for 1-d tensors)."""
    return _tensor_split("hsplit", input, indices_or_sections, 1 if input.ndim > 1 else 0)


@op(dtypes=ANY, method="vsplit", inline=True, grad_check=False,
    samples=shaped(((2, 3, 4), {"indices_or_sections": (1,)}), ((4, 2), {"indices_or_sections": 2})),
    reference=lambda input, indices_or_sections: np.array_split(input, indices_or_sections, 0))
def vsplit(input, indices_or_sections):
    """Split ``input`` along axis 0."""
    return _tensor_split("vsplit", input, indices_or_sections, 0)


__all__ = ["concat", "cat", "stack", "hstack", "vstack", "unstack", "unbind", "split", "chunk", "tensor_split",
           "hsplit", "vsplit"]


def _stitch_samples(dtype):
    data = lambda shape, seed: samples_values(shape, dtype, seed=seed)  # noqa: E731
    return [Sample(((np.array([0, 2], np.int32), np.array([1], np.int32)), (data((2,), 0), data((1,), 1)))),
            # a repeated index takes the later value; rows may be vectors, and an index may be missing (zeros)
            Sample(((np.array([[4, 0]], np.int32), np.array([0, 2], np.int32)), (data((1, 2, 3), 2), data((2, 3), 3))))]


def _stitch_reference(indices, data):
    rows = {}
    for index, values in zip(indices, data):
        index = np.asarray(index)
        values = np.asarray(values).reshape((index.size,) + np.asarray(values).shape[index.ndim:])
        for place, row in zip(index.ravel().tolist(), values):
            rows[place] = row
    inner = next(iter(rows.values())).shape
    merged = np.zeros((max(rows) + 1,) + inner, np.asarray(data[0]).dtype)
    for place, row in rows.items():
        merged[place] = row
    return merged


@op(inputs=("indices", "data"), sequences=("indices", "data"), dtypes=ANY, primitive="DynamicStitch", eager=True,
    grad_check=False, samples=_stitch_samples, reference=_stitch_reference)
def dynamic_stitch(indices, data):
    """``DynamicStitch``: ``merged[indices[m][i]] = data[m][i]`` in one Tensor of ``max(indices) + 1`` rows (a
    repeated index keeps the later value, a missing one zeros). Eager: the row count is read from the values."""
    if len(indices) != len(data) or not indices:
        raise ValueError(f"For 'DynamicStitch', 'indices' and 'data' must be non-empty and of one length, but got "
                         f"{len(indices)} and {len(data)}.")
    places, rows = [], []
    for m, (index, values) in enumerate(zip(indices, data)):
        if index.dtype != jnp.int32:
            raise TypeError(f"For 'DynamicStitch', 'indices[{m}]' must be an Int32 Tensor, but got {describe(index)}.")
        if values.shape[:index.ndim] != index.shape:
            raise ValueError(f"For 'DynamicStitch', the shape of 'data[{m}]' must start with that of 'indices[{m}]' "
                             f"{tuple(index.shape)}, but got {tuple(values.shape)}.")
        places.append(np.asarray(index).ravel())
        rows.append(values.reshape((index.size,) + values.shape[index.ndim:]))
    places = np.concatenate(places)
    rows = jnp.concatenate(_promoted(rows))
    last = len(places) - 1 - np.unique(places[::-1], return_index=True)[1]  # the later of repeated indices
    merged = jnp.zeros((int(places.max()) + 1 if places.size else 0,) + rows.shape[1:], rows.dtype)
    return merged.at[places[last]].set(rows[last])
