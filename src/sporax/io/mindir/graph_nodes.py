"""Writing one node of a MindIR graph: the ``Value`` a node gives (its name and JAX abstract value), constants,
and the nodes the rules share (Cast, Reshape, Transpose, StridedSlice, Pad), as MindSpore 2.10 writes them.

Example:
    >>> import numpy as np
    >>> Aval((2, 3), np.float32).shape
    (2, 3)
"""
import numpy as np

from sporax.io.mindir.values import TYPE_ID_BY_NUMPY


class Value:
    """A graph value: the name nodes read, and its JAX abstract value (shape, dtype)."""

    def __init__(self, name, aval):
        self.name, self.aval = name, aval

    @property
    def shape(self):
        return tuple(self.aval.shape)

    @property
    def dtype(self):
        return np.dtype(self.aval.dtype)


class Aval:
    """A shape and dtype (what JAX's abstract values give the rules)."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)


def constant_of(builder, array):
    value = Value(builder.constant(np.asarray(array)), Aval(np.shape(array), np.asarray(array).dtype))
    value.array = np.asarray(array)
    return value


def is_static(dim):
    """Whether a dimension is known (an int, not a symbolic one)."""
    return isinstance(dim, (int, np.integer))


def shape_argument(shape, what):
    """A shape for Reshape/BroadcastTo: one dynamic dimension becomes -1."""
    dynamic = [index for index, dim in enumerate(shape) if not is_static(dim)]
    if len(dynamic) > 1:
        raise ValueError(f"For 'export' to MINDIR: {what} to shape {tuple(shape)} has several dynamic "
                         "dimensions; MindIR can express one (-1). Export with fewer dynamic dimensions.")
    return tuple(int(dim) if is_static(dim) else -1 for dim in shape)


def type_id(dtype):
    return TYPE_ID_BY_NUMPY[np.dtype(dtype)]


def node(builder, op_type, inputs, aval, attributes=None):
    """A node ``op_type`` of ``inputs`` (Values or constants), giving a Value of ``aval``."""
    names = [value.name if isinstance(value, Value) else value for value in inputs]
    return Value(builder.op(op_type, names, attributes), aval)


def cast(builder, value, dtype):
    if value.dtype == np.dtype(dtype):
        return value
    return node(builder, "Cast", [value, type_id(dtype)], Aval(value.shape, dtype))


def _dimension(builder, value, dim):
    """A node giving the dynamic dimension ``dim`` at run time (Shape, TupleGetItem, as MindSpore writes
    ``x.shape[0]``), or None: from an input of the graph with that dimension (``GraphBuilder.add_input`` records
    them), else from ``value``'s own shape. MindSpore 2.10's loader folds the Shape of an inner node to -1s."""
    axes = [axis for axis, own in enumerate(value.shape) if not is_static(own) and str(own) == str(dim)]
    source = builder.dimensions.get(str(dim)) or ((value.name, axes[0]) if axes else None)
    if source is None:
        return None
    return builder.get_item(builder.op("Shape", [source[0]]), source[1])


def _runtime_shape(builder, value, shape):
    """A Reshape target with several dynamic dimensions (a batch and a sequence length): each read at run time
    where the graph has it, one other may be -1."""
    dims, unknown = [], []
    for dim in shape:
        read = None if is_static(dim) else _dimension(builder, value, dim)
        if read is None:
            unknown += [] if is_static(dim) else [dim]
            read = builder.constant(int(dim) if is_static(dim) else -1)
        dims.append(read)
    if len(unknown) > 1:
        shape_argument(shape, "a reshape")  # raises: MindIR's -1 stands for one dimension
    return builder.make_tuple(dims)


def reshape(builder, value, shape):
    if tuple(value.shape) == tuple(shape):
        return value
    if sum(not is_static(dim) for dim in shape) > 1:
        return node(builder, "Reshape", [value, _runtime_shape(builder, value, shape)], Aval(shape, value.dtype))
    return node(builder, "Reshape", [value, shape_argument(shape, "a reshape")], Aval(shape, value.dtype))


def transpose(builder, value, permutation):
    permutation = tuple(int(axis) for axis in permutation)
    if permutation == tuple(range(len(permutation))):
        return value
    shape = tuple(value.shape[axis] for axis in permutation)
    return node(builder, "Transpose", [value, permutation], Aval(shape, value.dtype))


def squeeze_first(builder, value, index):
    """``value[index]`` along axis 0 (a scan's row)."""
    rank = len(value.shape)
    return node(builder, "StridedSlice", [value, (index,) + (0,) * (rank - 1), (index + 1,) + (0,) * (rank - 1),
                                         (1,) * rank, 0, (1 << rank) - 2, 0, 0, 1],
               Aval(value.shape[1:], value.dtype))


def strided_slice(builder, value, begin, end, strides, aval, end_mask=0):
    return node(builder, "StridedSlice", [value, tuple(begin), tuple(end), tuple(strides), 0, end_mask, 0, 0, 0], aval)


def slice_bounds(value, starts, limits):
    end, mask = [], 0
    for axis, (start, limit) in enumerate(zip(starts, limits)):
        if not is_static(limit) or not is_static(start):
            if not is_static(start) or limit is not value.shape[axis] and limit != value.shape[axis]:
                raise ValueError("For 'export' to MINDIR: a slice with a dynamic bound other than a whole "
                                 "dynamic dimension cannot be written.")
            mask |= 1 << axis
            end.append(0)
        else:
            end.append(int(limit))
    return end, mask


def _dilate(builder, value, config):
    """``value`` with ``interior`` zeros between neighbours along each axis (JAX's interior padding, as in
    the gradient of a strided convolution or pooling). MindSpore's Pad has no interior form: per axis, a new
    axis of one after it is padded to ``1 + interior``, merged into the axis, and the trailing zeros cut."""
    for axis, (_, _, interior) in enumerate(config):
        interior = int(interior)
        shape = tuple(value.shape)
        if not interior or shape[axis] == 0:
            continue
        if not all(is_static(dim) for dim in shape):
            raise ValueError("For 'export' to MINDIR: interior (dilating) padding needs a static shape.")
        size = int(shape[axis])
        expanded = reshape(builder, value, shape[:axis + 1] + (1,) + shape[axis + 1:])
        paddings = tuple((0, interior) if index == axis + 1 else (0, 0) for index in range(len(shape) + 1))
        spread = node(builder, "Pad", [expanded], Aval(shape[:axis + 1] + (1 + interior,) + shape[axis + 1:],
                                                        value.dtype), {"paddings": paddings})
        merged = reshape(builder, spread, shape[:axis] + (size * (1 + interior),) + shape[axis + 1:])
        final = shape[:axis] + (size + (size - 1) * interior,) + shape[axis + 1:]
        value = strided_slice(builder, merged, (0,) * len(shape), final, (1,) * len(shape),
                              Aval(final, value.dtype))
    return value


def pad(builder, value, fill, config, aval):
    """``value`` padded by ``config`` (JAX's ``(low, high, interior)`` per axis, negative ones cropping) with the
    Value ``fill``, giving ``aval``: MindSpore's Pad writes zeros, so another fill is selected in by a mask."""
    original = value
    value = _dilate(builder, value, config)
    grow = tuple((max(int(low), 0), max(int(high), 0)) for low, high, _ in config)
    grown_shape = tuple(dim + low + high if is_static(dim) else dim for dim, (low, high) in zip(value.shape, grow))
    grown = Aval(grown_shape, value.dtype)
    padded = node(builder, "Pad", [value], grown, {"paddings": grow})
    fill_value = getattr(fill, "array", None)
    if fill_value is None or float(fill_value) != 0:
        # Pad writes zeros: put the fill value where the mask of the padding is
        ones = _dilate(builder, node(builder, "OnesLike", [original], original.aval), config)
        mask = cast(builder, node(builder, "Pad", [ones], grown, {"paddings": grow}), np.bool_)
        zeros = node(builder, "Mul", [padded, constant_of(builder, np.asarray(0, value.dtype))], grown)
        filler = node(builder, "Add", [zeros, fill], grown)
        padded = node(builder, "Select", [mask, padded, filler], grown)
    if any(low < 0 or high < 0 for low, high, _ in config):
        starts = [max(-int(low), 0) for low, _, _ in config]
        limits = [dim - max(-int(high), 0) for dim, (_, high, _) in zip(grown_shape, config)]
        end, mask = slice_bounds(Value(padded.name, grown), starts, limits)
        padded = strided_slice(builder, padded, starts, end, (1,) * len(grown_shape), aval, mask)
    return padded
