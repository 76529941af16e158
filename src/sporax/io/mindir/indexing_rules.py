"""The MindIR rules of JAX's indexing ops: gathers along one axis (``Gather``; ``take_along_axis`` as ``GatherD``),
the scatter-add of their gradients (``TensorScatterElements``) and slices at constant positions (``dynamic_slice``,
and the gather JAX writes for ``x[:, 0]`` on a dynamic-batch input: ``StridedSlice``).

Example:
    >>> sorted(INDEXING_RULES)
    ['dynamic_slice', 'gather', 'scatter-add']
"""
import numpy as np

from sporax.io.mindir.builder import PRIMITIVE_FUNCTION
from sporax.io.mindir.graph_nodes import Aval, Value, is_static, node, reshape, slice_bounds, strided_slice

_REDUCTION_ADD = 1  # MindSpore's reduction enum: sum 0, mean/add 1, none 2


def _along_axis(numbers, rank, window_name, inserted_name, to_operand_name, batching_name):
    """The axis of a ``take_along_axis``-shaped gather/scatter (one index per element), else None."""
    inserted = tuple(getattr(numbers, inserted_name))
    batching = tuple(getattr(numbers, "operand_batching_dims", ()))
    if getattr(numbers, window_name) or len(inserted) != 1 or inserted != tuple(getattr(numbers, to_operand_name)):
        return None
    others = tuple(dim for dim in range(rank) if dim != inserted[0])
    if batching != others or tuple(getattr(numbers, batching_name)) != others:
        return None
    return inserted[0]


def _gather_elements(builder, params, inputs, avals):
    """``take_along_axis`` (batched over the other axes, or whole along some of them: an index of size 1 there,
    as an LSTM's reversal of each sequence by its length) is MindSpore's GatherD of the index broadcast."""
    operand, indices = inputs
    numbers, sizes, rank = params["dimension_numbers"], params["slice_sizes"], len(operand.shape)
    collapsed, batching = tuple(numbers.collapsed_slice_dims), tuple(getattr(numbers, "operand_batching_dims", ()))
    if len(collapsed) != 1 or collapsed != tuple(numbers.start_index_map) or indices.shape[-1:] != (1,) \
            or len(avals[0].shape) != rank:
        return None
    axis = collapsed[0]
    whole = tuple(dim for dim in range(rank) if dim != axis and dim not in batching)
    positions = [dim for dim in range(rank) if dim not in whole]  # the output axes of the index's batch axes
    if tuple(numbers.offset_dims) != whole or len(positions) != len(indices.shape) - 1 \
            or any(sizes[dim] is not operand.shape[dim] and sizes[dim] != operand.shape[dim] for dim in whole) \
            or any(sizes[dim] != 1 for dim in positions) \
            or any(positions[index_axis] != dim
                   for index_axis, dim in zip(numbers.start_indices_batching_dims, batching)):
        return None
    shape = tuple(1 if dim in whole else indices.shape[positions.index(dim)] for dim in range(rank))
    index = reshape(builder, indices, shape)
    if whole:
        target = tuple(dim if is_static(dim) else -1 for dim in avals[0].shape)
        index = node(builder, "BroadcastTo", [index, target], Aval(avals[0].shape, index.dtype))
    return node(builder, "GatherD", [operand, axis, index], avals[0])


def _scatter_add(builder, params, inputs, avals):
    """The gradient of ``take_along_axis``: MindSpore's TensorScatterElements(reduction='add')."""
    operand, indices, updates = inputs
    axis = _along_axis(params["dimension_numbers"], len(operand.shape), "update_window_dims",
                       "inserted_window_dims", "scatter_dims_to_operand_dims", "scatter_indices_batching_dims")
    if axis is None or tuple(indices.shape[:-1]) != tuple(updates.shape):
        raise ValueError("For 'export' to MINDIR: only the scatter-add of a gather along one axis (the gradient "
                         "of Tensor.gather_elements / take_along_axis) can be written.")
    inputs = [operand.name, reshape(builder, indices, updates.shape).name, updates.name, axis, _REDUCTION_ADD]
    # MindSpore writes this op PRIMITIVE_FUNCTION and keeps its attributes too
    return Value(builder.op("TensorScatterElements", inputs, {"axis": axis, "reduction": "add"},
                            prim_type=PRIMITIVE_FUNCTION), avals[0])


def _constant_window(builder, params, inputs, avals):
    """A gather of one window at constant starts (JAX indexes ``x[:, 0]`` or ``x[..., :1]`` so when a dimension is
    symbolic): a StridedSlice, then the collapsed axes dropped; None for any other gather."""
    operand, indices = inputs
    numbers, sizes = params["dimension_numbers"], tuple(params["slice_sizes"])
    starts = getattr(indices, "array", None)
    rank = len(operand.shape)
    if starts is None or starts.size != len(numbers.start_index_map) \
            or tuple(getattr(numbers, "operand_batching_dims", ())) \
            or tuple(numbers.offset_dims) != tuple(range(rank - len(numbers.collapsed_slice_dims))):
        return None
    begin = [0] * rank
    for axis, start in zip(numbers.start_index_map, starts.reshape(-1)):
        if not is_static(operand.shape[axis]):  # a whole dynamic dimension starts at 0 (JAX clamps the start)
            continue
        last = int(operand.shape[axis]) - int(sizes[axis])
        if "FILL" in str(params.get("mode")) and not 0 <= int(start) <= last:
            return None  # out of bounds: filled, not clamped
        begin[axis] = int(np.clip(int(start), 0, last))
    limits = [start + size if is_static(size) else size for start, size in zip(begin, sizes)]
    end, mask = slice_bounds(operand, begin, limits)
    window = strided_slice(builder, operand, begin, end, (1,) * rank, Aval(tuple(sizes), operand.dtype), mask)
    collapsed = tuple(int(axis) for axis in numbers.collapsed_slice_dims)
    if not collapsed:
        return reshape(builder, window, avals[0].shape)
    return node(builder, "Squeeze", [window, collapsed], avals[0])


def _gather(builder, params, inputs, avals):
    for special in (_gather_elements, _constant_window):
        written = special(builder, params, inputs, avals)
        if written is not None:
            return written
    operand, indices = inputs
    numbers = params["dimension_numbers"]
    collapsed, starts = tuple(numbers.collapsed_slice_dims), tuple(numbers.start_index_map)
    if len(collapsed) != 1 or collapsed != starts or indices.shape[-1:] != (1,) \
            or tuple(getattr(numbers, "operand_batching_dims", ())):
        raise ValueError("For 'export' to MINDIR: only gathers along one axis (Tensor indexing with an "
                         "index Tensor, embeddings) can be written.")
    axis = collapsed[0]
    sizes = list(params["slice_sizes"])
    if any(sizes[d] != operand.shape[d] for d in range(len(sizes)) if d != axis):
        raise ValueError("For 'export' to MINDIR: a gather of partial slices cannot be written.")
    flat_indices = reshape(builder, indices, indices.shape[:-1])
    expected = operand.shape[:axis] + flat_indices.shape + operand.shape[axis + 1:]
    if tuple(expected) != tuple(avals[0].shape):
        raise ValueError("For 'export' to MINDIR: this gather's output layout cannot be written as Gather.")
    return node(builder, "Gather", [operand, flat_indices, axis, 0], avals[0])


def _dynamic_slice(builder, params, inputs, avals):
    operand, *starts = inputs
    known = [getattr(start, "array", None) for start in starts]
    if any(start is None for start in known):
        raise ValueError("For 'export' to MINDIR: slicing at a position computed by the network "
                         "(dynamic_slice) cannot be written.")
    begin = [int(np.clip(int(start), 0, dim - size)) for start, dim, size in
             zip(known, operand.shape, params["slice_sizes"])]
    end = [start + int(size) for start, size in zip(begin, params["slice_sizes"])]
    return strided_slice(builder, operand, begin, end, (1,) * len(begin), avals[0])


INDEXING_RULES = {"gather": _gather, "scatter-add": _scatter_add, "dynamic_slice": _dynamic_slice}
