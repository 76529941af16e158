"""How each JAX primitive is written as MindSpore 2.10 primitives in a MindIR graph.

One rule per JAX primitive: it receives the builder, the equation's parameters, its input Values
(node name + abstract value) and its output avals, and returns the output Value(s). MindSpore's
calling conventions are followed op by op (``formats.md`` C.4): most ops are PRIMITIVE_FUNCTION
with their parameters as trailing constant inputs; ``Conv2D``, ``MaxPool`` and ``Pad`` keep them as
attributes. Dtypes travel as MindSpore TypeIds.

Example:
    >>> sorted(RULES)[:3]
    ['abs', 'add', 'and']
"""
import math

import numpy as np

from sporax.io.mindir.builder import PRIMITIVE_FUNCTION
from sporax.io.mindir.values import TYPE_ID_BY_NUMPY

_REDUCTION_ADD = 1  # MindSpore's reduction enum: sum 0, mean/add 1, none 2

_FOLD_LIMIT = 1 << 16  # broadcast constants up to this many elements are written as constants


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


class _Aval:
    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)


def constant_of(builder, array):
    value = Value(builder.constant(np.asarray(array)), _Aval(np.shape(array), np.asarray(array).dtype))
    value.array = np.asarray(array)
    return value


def _static(dim):
    return isinstance(dim, (int, np.integer))


def shape_argument(shape, what):
    """A shape for Reshape/BroadcastTo: one dynamic dimension becomes -1."""
    dynamic = [index for index, dim in enumerate(shape) if not _static(dim)]
    if len(dynamic) > 1:
        raise ValueError(f"For 'export' to MINDIR: {what} to shape {tuple(shape)} has several dynamic "
                         "dimensions; MindIR can express one (-1). Export with fewer dynamic dimensions.")
    return tuple(int(dim) if _static(dim) else -1 for dim in shape)


def _type_id(dtype):
    return TYPE_ID_BY_NUMPY[np.dtype(dtype)]


def _op(builder, op_type, inputs, aval, attributes=None):
    names = [value.name if isinstance(value, Value) else value for value in inputs]
    return Value(builder.op(op_type, names, attributes), aval)


def cast(builder, value, dtype):
    if value.dtype == np.dtype(dtype):
        return value
    return _op(builder, "Cast", [value, _type_id(dtype)], _Aval(value.shape, dtype))


def reshape(builder, value, shape):
    if tuple(value.shape) == tuple(shape):
        return value
    return _op(builder, "Reshape", [value, shape_argument(shape, "a reshape")], _Aval(shape, value.dtype))


def transpose(builder, value, permutation):
    permutation = tuple(int(axis) for axis in permutation)
    if permutation == tuple(range(len(permutation))):
        return value
    shape = tuple(value.shape[axis] for axis in permutation)
    return _op(builder, "Transpose", [value, permutation], _Aval(shape, value.dtype))


def squeeze_first(builder, value, index):
    """``value[index]`` along axis 0 (a scan's row)."""
    rank = len(value.shape)
    return _op(builder, "StridedSlice", [value, (index,) + (0,) * (rank - 1), (index + 1,) + (0,) * (rank - 1),
                                         (1,) * rank, 0, (1 << rank) - 2, 0, 0, 1],
               _Aval(value.shape[1:], value.dtype))


def _unary(op_type):
    return lambda builder, params, inputs, avals: _op(builder, op_type, inputs, avals[0])


def _binary(op_type):
    return lambda builder, params, inputs, avals: _op(builder, op_type, inputs, avals[0])


def _identity(builder, params, inputs, avals):
    return list(inputs)


def _convert(builder, params, inputs, avals):
    return cast(builder, inputs[0], params["new_dtype"])


def _reshape(builder, params, inputs, avals):
    return reshape(builder, inputs[0], avals[0].shape)


def _squeeze(builder, params, inputs, avals):
    return _op(builder, "Squeeze", [inputs[0], tuple(int(axis) for axis in params["dimensions"])], avals[0])


def _transpose(builder, params, inputs, avals):
    return transpose(builder, inputs[0], params["permutation"])


def _broadcast_in_dim(builder, params, inputs, avals):
    (value,), shape = inputs, tuple(avals[0].shape)
    if getattr(value, "array", None) is not None and all(_static(dim) for dim in shape) \
            and math.prod(shape) <= _FOLD_LIMIT:
        expanded = np.expand_dims(value.array, [axis for axis in range(len(shape))
                                                if axis not in params["broadcast_dimensions"]])
        return constant_of(builder, np.broadcast_to(expanded, shape).copy())
    middle = [1] * len(shape)
    for source, target in enumerate(params["broadcast_dimensions"]):
        middle[target] = value.shape[source]
    value = reshape(builder, value, tuple(middle))
    if tuple(middle) == shape:
        return value
    target = tuple(-1 if not _static(dim) else dim for dim in shape)
    return _op(builder, "BroadcastTo", [value, target], avals[0])


def _concatenate(builder, params, inputs, avals):
    joined = builder.make_tuple([value.name for value in inputs])
    return _op(builder, "Concat", [joined, int(params["dimension"])], avals[0])


def _strided_slice(builder, value, begin, end, strides, aval, end_mask=0):
    return _op(builder, "StridedSlice", [value, tuple(begin), tuple(end), tuple(strides), 0, end_mask, 0, 0, 0], aval)


def _slice_bounds(value, starts, limits):
    end, mask = [], 0
    for axis, (start, limit) in enumerate(zip(starts, limits)):
        if not _static(limit) or not _static(start):
            if not _static(start) or limit is not value.shape[axis] and limit != value.shape[axis]:
                raise ValueError("For 'export' to MINDIR: a slice with a dynamic bound other than a whole "
                                 "dynamic dimension cannot be written.")
            mask |= 1 << axis
            end.append(0)
        else:
            end.append(int(limit))
    return end, mask


def _slice(builder, params, inputs, avals):
    value = inputs[0]
    strides = params["strides"] or (1,) * len(value.shape)
    end, mask = _slice_bounds(value, params["start_indices"], params["limit_indices"])
    return _strided_slice(builder, value, [int(start) for start in params["start_indices"]], end, strides,
                          avals[0], mask)


def _split(builder, params, inputs, avals):
    value, axis, outputs, start = inputs[0], int(params["axis"]), [], 0
    for size, aval in zip(params["sizes"], avals):
        starts = [0] * len(value.shape)
        limits = list(value.shape)
        starts[axis], limits[axis] = start, start + int(size)
        end, mask = _slice_bounds(value, starts, limits)
        outputs.append(_strided_slice(builder, value, starts, end, (1,) * len(value.shape), aval, mask))
        start += int(size)
    return outputs


def _stack(builder, params, inputs, avals):
    axis = int(params["axis"])
    rows = [builder.op("ExpandDims", [value.name, axis]) for value in inputs]
    if len(rows) == 1:
        return Value(rows[0], avals[0])
    return _op(builder, "Concat", [builder.make_tuple(rows), axis], avals[0])


def _reduce(op_type, extra=()):
    def rule(builder, params, inputs, avals):
        axes = tuple(int(axis) for axis in params["axes"])
        return _op(builder, op_type, [inputs[0], axes, False, *extra], avals[0])
    return rule


def _argument_extremum(op_type):
    def rule(builder, params, inputs, avals):
        (axis,) = params["axes"]
        return _op(builder, op_type, [inputs[0], int(axis), _type_id(params["index_dtype"])], avals[0])
    return rule


def _cumulative(builder, params, inputs, avals):
    return _op(builder, "CumSum", [inputs[0], int(params["axis"]), False, bool(params["reverse"])], avals[0])


def _select_n(builder, params, inputs, avals):
    predicate, *cases = inputs
    if len(cases) != 2:
        raise ValueError(f"For 'export' to MINDIR: a {len(cases)}-way select is not supported.")
    predicate = cast(builder, predicate, np.bool_)
    return _op(builder, "Select", [predicate, cases[1], cases[0]], avals[0])


def _clamp(builder, params, inputs, avals):
    low, value, high = inputs
    upper = _op(builder, "Minimum", [value, high], avals[0])
    return _op(builder, "Maximum", [upper, low], avals[0])


def _integer_pow(builder, params, inputs, avals):
    exponent = int(params["y"])
    if exponent == 2:
        return _op(builder, "Square", inputs, avals[0])
    return _op(builder, "Pow", [inputs[0], constant_of(builder, np.asarray(exponent, inputs[0].dtype))], avals[0])


def _exp2(builder, params, inputs, avals):
    return _op(builder, "Pow", [constant_of(builder, np.asarray(2, inputs[0].dtype)), inputs[0]], avals[0])


def _round(builder, params, inputs, avals):
    return _op(builder, "Round", [inputs[0], 0], avals[0])


def _logical(logical, bitwise):
    def rule(builder, params, inputs, avals):
        if inputs[0].dtype != np.bool_:
            raise ValueError(f"For 'export' to MINDIR: bitwise {bitwise} on integers is not supported.")
        return _op(builder, logical, inputs, avals[0])
    return rule


def _iota(builder, params, inputs, avals):
    shape = tuple(avals[0].shape)
    if not all(_static(dim) for dim in shape):
        raise ValueError("For 'export' to MINDIR: an iota (arange) of dynamic length cannot be written.")
    dimension = int(params["dimension"])
    ramp = np.arange(shape[dimension], dtype=avals[0].dtype).reshape(
        [-1 if axis == dimension else 1 for axis in range(len(shape))])
    return constant_of(builder, np.broadcast_to(ramp, shape).copy())


def _pad(builder, params, inputs, avals):
    value, fill = inputs
    config = params["padding_config"]
    if any(interior for _, _, interior in config):
        raise ValueError("For 'export' to MINDIR: interior (dilating) padding is not supported.")
    grow = tuple((max(int(low), 0), max(int(high), 0)) for low, high, _ in config)
    grown_shape = tuple(dim + low + high if _static(dim) else dim for dim, (low, high) in zip(value.shape, grow))
    grown = _Aval(grown_shape, value.dtype)
    padded = _op(builder, "Pad", [value], grown, {"paddings": grow})
    fill_value = getattr(fill, "array", None)
    if fill_value is None or float(fill_value) != 0:
        # Pad writes zeros: put the fill value where the mask of the padding is
        ones = _op(builder, "OnesLike", [value], value.aval)
        mask = cast(builder, _op(builder, "Pad", [ones], grown, {"paddings": grow}), np.bool_)
        zeros = _op(builder, "Mul", [padded, constant_of(builder, np.asarray(0, value.dtype))], grown)
        filler = _op(builder, "Add", [zeros, fill], grown)
        padded = _op(builder, "Select", [mask, padded, filler], grown)
    if any(low < 0 or high < 0 for low, high, _ in config):
        starts = [max(-int(low), 0) for low, _, _ in config]
        limits = [dim - max(-int(high), 0) for dim, (_, high, _) in zip(grown_shape, config)]
        end, mask = _slice_bounds(Value(padded.name, grown), starts, limits)
        padded = _strided_slice(builder, padded, starts, end, (1,) * len(grown_shape), avals[0], mask)
    return padded


def _dot_general(builder, params, inputs, avals):
    (left_contract, right_contract), (left_batch, right_batch) = params["dimension_numbers"]
    left, right = inputs
    out = avals[0]
    left_free = [axis for axis in range(len(left.shape)) if axis not in left_contract and axis not in left_batch]
    right_free = [axis for axis in range(len(right.shape)) if axis not in right_contract and axis not in right_batch]
    result_dtype = left.dtype
    if not left_batch and len(left.shape) == 2 and len(right.shape) == 2 and len(left_contract) == 1:
        result = _op(builder, "MatMul", [left, right, left_contract[0] == 0, right_contract[0] == 1],
                     _Aval(out.shape, result_dtype))
        return cast(builder, result, out.dtype)

    def size(value, axes):
        dims = [value.shape[axis] for axis in axes]
        return math.prod(dims) if all(_static(dim) for dim in dims) else -1

    batch = [left.shape[axis] for axis in left_batch]
    a = transpose(builder, left, list(left_batch) + left_free + list(left_contract))
    b = transpose(builder, right, list(right_batch) + list(right_contract) + right_free)
    a_shape = tuple(batch) + (size(left, left_free), size(left, left_contract))
    b_shape = tuple(batch) + (size(right, right_contract), size(right, right_free))
    a = reshape(builder, a, a_shape)
    b = reshape(builder, b, b_shape)
    product_shape = tuple(batch) + (a_shape[-2], b_shape[-1])
    op_type = "BatchMatMul" if batch else "MatMul"
    result = _op(builder, op_type, [a, b, False, False], _Aval(product_shape, result_dtype))
    result = reshape(builder, result, tuple(out.shape)) if product_shape != tuple(out.shape) else result
    return cast(builder, result, out.dtype)


def _conv(builder, params, inputs, avals):
    x, weight = inputs
    numbers = params["dimension_numbers"]
    spatial = len(x.shape) - 2
    if tuple(numbers.lhs_spec) != tuple(range(spatial + 2)) or tuple(numbers.rhs_spec) != tuple(range(spatial + 2)) \
            or tuple(numbers.out_spec) != tuple(range(spatial + 2)):
        raise ValueError("For 'export' to MINDIR: only NCHW convolutions with OIHW weights can be written.")
    if any(dilation != 1 for dilation in params["lhs_dilation"]) or params["batch_group_count"] != 1 \
            or spatial not in (1, 2):
        raise ValueError("For 'export' to MINDIR: transposed, batch-grouped or 3-D convolutions cannot be written.")
    strides, padding, dilation = list(params["window_strides"]), list(params["padding"]), list(params["rhs_dilation"])
    out = avals[0]
    if spatial == 1:  # as MindSpore's Conv1d: a Conv2D over a height of 1
        x = reshape(builder, x, x.shape[:2] + (1,) + x.shape[2:])
        weight = reshape(builder, weight, weight.shape[:2] + (1,) + weight.shape[2:])
        strides, padding, dilation = [1] + strides, [(0, 0)] + padding, [1] + dilation
    (top, bottom), (left, right) = padding
    pads = (int(top), int(bottom), int(left), int(right))
    groups = int(params["feature_group_count"])
    attributes = {"kernel_size": tuple(int(dim) for dim in weight.shape[2:]), "mode": 1,
                  "out_channel": int(weight.shape[0]), "pad": pads, "pad_mode": "pad", "format": "NCHW",
                  "pad_list": pads, "groups": groups, "group": groups,
                  "stride": (1, 1) + tuple(int(s) for s in strides),
                  "dilation": (1, 1) + tuple(int(d) for d in dilation),
                  "input_names": ["x", "w"], "output_names": ["output"]}
    shape2d = out.shape[:2] + (1,) + out.shape[2:] if spatial == 1 else out.shape
    result = _op(builder, "Conv2D", [x, weight], _Aval(shape2d, out.dtype), attributes)
    return reshape(builder, result, out.shape)


def _window(params, rank):
    dims, strides, padding = params["window_dimensions"], params["window_strides"], params["padding"]
    if len(dims) != rank or any(dim != 1 for dim in dims[:-2]) or any(s != 1 for s in strides[:-2]):
        raise ValueError("For 'export' to MINDIR: only pooling over the last two dimensions can be written.")
    if any(d != 1 for d in params.get("base_dilation", (1,)) or ()) or \
            any(d != 1 for d in params.get("window_dilation", (1,)) or ()):
        raise ValueError("For 'export' to MINDIR: dilated pooling cannot be written.")
    return tuple(int(d) for d in dims[-2:]), tuple(int(s) for s in strides[-2:]), padding


def _pooled_input(builder, value, padding, fill, rank):
    if all(low == 0 and high == 0 for low, high in padding):
        return value
    config = [(int(low), int(high), 0) for low, high in padding]
    aval = _Aval(tuple(dim + low + high if _static(dim) else dim for dim, (low, high, _) in zip(value.shape, config)),
                 value.dtype)
    return _pad(builder, {"padding_config": config}, [value, constant_of(builder, np.asarray(fill, value.dtype))],
                [aval])


def _as_4d(builder, value):
    return reshape(builder, value, (1,) * (4 - len(value.shape)) + value.shape) if len(value.shape) < 4 else value


def _max_pool(builder, params, inputs, avals):
    value = inputs[0]
    kernel, strides, padding = _window(params, len(value.shape))
    value = _as_4d(builder, _pooled_input(builder, value, padding, -np.inf, len(value.shape)))
    attributes = {"pad_mode": "VALID", "kernel_size": (1, 1) + kernel, "strides": (1, 1) + strides,
                  "format": "NCHW", "input_names": ["x"], "output_names": ["output"]}
    pooled = _op(builder, "MaxPool", [value], _Aval(_as_4d_shape(avals[0].shape), value.dtype), attributes)
    return reshape(builder, pooled, avals[0].shape)


def _as_4d_shape(shape):
    return (1,) * (4 - len(shape)) + tuple(shape)


def _sum_pool(builder, params, inputs, avals):
    value = inputs[0]
    kernel, strides, padding = _window(params, len(value.shape))
    value = _as_4d(builder, _pooled_input(builder, value, padding, 0, len(value.shape)))
    pooled = _op(builder, "AvgPool", [value, kernel, strides, 2, 0], _Aval(_as_4d_shape(avals[0].shape), value.dtype))
    summed = _op(builder, "Mul", [pooled, constant_of(builder, np.asarray(kernel[0] * kernel[1], value.dtype))],
                 pooled.aval)
    return reshape(builder, summed, avals[0].shape)


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
    """``take_along_axis`` (batched over every other axis) is MindSpore's GatherD."""
    operand, indices = inputs
    axis = _along_axis(params["dimension_numbers"], len(operand.shape), "offset_dims", "collapsed_slice_dims",
                       "start_index_map", "start_indices_batching_dims")
    if axis is None or any(size != 1 for size in params["slice_sizes"]) \
            or tuple(indices.shape[:-1]) != tuple(avals[0].shape):
        return None
    return _op(builder, "GatherD", [operand, axis, reshape(builder, indices, indices.shape[:-1])], avals[0])


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


def _gather(builder, params, inputs, avals):
    elements = _gather_elements(builder, params, inputs, avals)
    if elements is not None:
        return elements
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
    return _op(builder, "Gather", [operand, flat_indices, axis, 0], avals[0])


def _dynamic_slice(builder, params, inputs, avals):
    operand, *starts = inputs
    known = [getattr(start, "array", None) for start in starts]
    if any(start is None for start in known):
        raise ValueError("For 'export' to MINDIR: slicing at a position computed by the network "
                         "(dynamic_slice) cannot be written.")
    begin = [int(np.clip(int(start), 0, dim - size)) for start, dim, size in
             zip(known, operand.shape, params["slice_sizes"])]
    end = [start + int(size) for start, size in zip(begin, params["slice_sizes"])]
    return _strided_slice(builder, operand, begin, end, (1,) * len(begin), avals[0])


def _tile(builder, params, inputs, avals):
    return _op(builder, "Tile", [inputs[0], tuple(int(count) for count in params["reps"])], avals[0])


def _rev(builder, params, inputs, avals):
    return _op(builder, "ReverseV2", [inputs[0], tuple(int(axis) for axis in params["dimensions"])], avals[0])


RULES = {
    "add": _binary("Add"), "add_any": _binary("Add"), "sub": _binary("Sub"), "mul": _binary("Mul"), "div": _binary("Div"),
    "max": _binary("Maximum"), "min": _binary("Minimum"), "pow": _binary("Pow"), "atan2": _binary("Atan2"),
    "rem": _binary("Mod"), "nextafter": None,
    "lt": _binary("Less"), "gt": _binary("Greater"), "le": _binary("LessEqual"), "ge": _binary("GreaterEqual"),
    "eq": _binary("Equal"), "ne": _binary("NotEqual"),
    "and": _logical("LogicalAnd", "and"), "or": _logical("LogicalOr", "or"), "not": _logical("LogicalNot", "not"),
    "neg": _unary("Neg"), "exp": _unary("Exp"), "log": _unary("Log"), "tanh": _unary("Tanh"),
    "logistic": _unary("Sigmoid"), "sqrt": _unary("Sqrt"), "rsqrt": _unary("Rsqrt"), "abs": _unary("Abs"),
    "sign": _unary("Sign"), "floor": _unary("Floor"), "ceil": _unary("Ceil"), "erf": _unary("Erf"),
    "erf_inv": _unary("Erfinv"), "log1p": _unary("Log1p"), "expm1": _unary("Expm1"), "sin": _unary("Sin"),
    "cos": _unary("Cos"), "tan": _unary("Tan"), "erfc": _unary("Erfc"), "asin": _unary("Asin"),
    "acos": _unary("ACos"), "atan": _unary("Atan"), "sinh": _unary("Sinh"), "cosh": _unary("Cosh"),
    "asinh": _unary("Asinh"), "acosh": _unary("Acosh"), "atanh": _unary("Atanh"), "lgamma": _unary("Lgamma"),
    "digamma": _unary("Digamma"), "is_finite": _unary("IsFinite"), "square": _unary("Square"),
    "integer_pow": _integer_pow, "exp2": _exp2, "round": _round,
    "convert_element_type": _convert, "reshape": _reshape, "squeeze": _squeeze, "transpose": _transpose,
    "broadcast_in_dim": _broadcast_in_dim, "concatenate": _concatenate, "slice": _slice, "split": _split,
    "stack": _stack, "rev": _rev, "tile": _tile, "iota": _iota, "pad": _pad, "select_n": _select_n, "clamp": _clamp,
    "reduce_sum": _reduce("ReduceSum", (False,)), "reduce_max": _reduce("ReduceMax"),
    "reduce_min": _reduce("ReduceMin"), "reduce_prod": _reduce("ReduceProd"),
    "reduce_and": _reduce("ReduceAll"), "reduce_or": _reduce("ReduceAny"),
    "argmax": _argument_extremum("Argmax"), "argmin": _argument_extremum("Argmin"), "cumsum": _cumulative,
    "dot_general": _dot_general, "conv_general_dilated": _conv, "reduce_window_max": _max_pool,
    "reduce_window_sum": _sum_pool, "gather": _gather, "scatter-add": _scatter_add, "dynamic_slice": _dynamic_slice,
    "stop_gradient": _identity, "copy": _identity, "copy_p": _identity, "optimization_barrier": _identity,
    "reduce_precision": _identity,
}
RULES = {name: rule for name, rule in RULES.items() if rule is not None}
