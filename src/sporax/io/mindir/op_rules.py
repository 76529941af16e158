"""How each JAX primitive is written as MindSpore 2.10 primitives in a MindIR graph.

One rule per JAX primitive: it receives the builder, the equation's parameters, its input Values
(node name + abstract value) and its output avals, and returns the output Value(s). MindSpore's
calling conventions are followed op by op (``formats.md`` C.4): most ops are PRIMITIVE_FUNCTION
with their parameters as trailing constant inputs; ``Conv2D``, ``MaxPool`` and ``Pad`` keep them as
attributes. Dtypes travel as MindSpore TypeIds. The element-wise, shape, reduction and matrix-product rules are
here; convolutions and pooling in ``window_rules``, gathers and scatters in ``indexing_rules``, the nodes they share
in ``graph_nodes``; ``RULES`` holds them all.

Example:
    >>> RULES["add"] is not None, "conv_general_dilated" in RULES, "gather" in RULES
    (True, True, True)
"""
import math

import numpy as np

from sporax.io.mindir.graph_nodes import (Aval, Value, cast, constant_of, is_static, node, pad, reshape, slice_bounds,
                                          strided_slice, transpose, type_id)
from sporax.io.mindir.indexing_rules import INDEXING_RULES
from sporax.io.mindir.window_rules import WINDOW_RULES

_FOLD_LIMIT = 1 << 16  # broadcast constants up to this many elements are written as constants


def _unary(op_type):
    return lambda builder, params, inputs, avals: node(builder, op_type, inputs, avals[0])


def _binary(op_type):
    return lambda builder, params, inputs, avals: node(builder, op_type, inputs, avals[0])


def _divide(builder, params, inputs, avals):
    # JAX's div truncates integers; MindSpore's Div gives Float32 for them, its TruncateDiv keeps the dtype
    integer = np.issubdtype(np.dtype(avals[0].dtype), np.integer)
    return node(builder, "TruncateDiv" if integer else "Div", inputs, avals[0])


def _pow(builder, params, inputs, avals):
    # JAX's pow takes an integer exponent for a float base (``x ** 2`` on a Tensor); MindSpore CPU's Pow has no
    # (Float32, Int64) kernel. The exponent in the base's dtype: std::pow of an integral float is the same power.
    base, exponent = inputs
    return node(builder, "Pow", [base, cast(builder, exponent, base.dtype)], avals[0])


def _identity(builder, params, inputs, avals):
    return list(inputs)


def _convert(builder, params, inputs, avals):
    return cast(builder, inputs[0], params["new_dtype"])


def _reshape(builder, params, inputs, avals):
    return reshape(builder, inputs[0], avals[0].shape)


def _squeeze(builder, params, inputs, avals):
    return node(builder, "Squeeze", [inputs[0], tuple(int(axis) for axis in params["dimensions"])], avals[0])


def _transpose(builder, params, inputs, avals):
    return transpose(builder, inputs[0], params["permutation"])


def _broadcast_in_dim(builder, params, inputs, avals):
    (value,), shape = inputs, tuple(avals[0].shape)
    if getattr(value, "array", None) is not None and all(is_static(dim) for dim in shape) \
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
    target = tuple(-1 if not is_static(dim) else dim for dim in shape)
    return node(builder, "BroadcastTo", [value, target], avals[0])


def _concatenate(builder, params, inputs, avals):
    joined = builder.make_tuple([value.name for value in inputs])
    return node(builder, "Concat", [joined, int(params["dimension"])], avals[0])


def _slice(builder, params, inputs, avals):
    value = inputs[0]
    strides = params["strides"] or (1,) * len(value.shape)
    end, mask = slice_bounds(value, params["start_indices"], params["limit_indices"])
    return strided_slice(builder, value, [int(start) for start in params["start_indices"]], end, strides,
                          avals[0], mask)


def _split(builder, params, inputs, avals):
    value, axis, outputs, start = inputs[0], int(params["axis"]), [], 0
    for size, aval in zip(params["sizes"], avals):
        starts = [0] * len(value.shape)
        limits = list(value.shape)
        starts[axis], limits[axis] = start, start + int(size)
        end, mask = slice_bounds(value, starts, limits)
        outputs.append(strided_slice(builder, value, starts, end, (1,) * len(value.shape), aval, mask))
        start += int(size)
    return outputs


def _stack(builder, params, inputs, avals):
    axis = int(params["axis"])
    rows = [builder.op("ExpandDims", [value.name, axis]) for value in inputs]
    if len(rows) == 1:
        return Value(rows[0], avals[0])
    return node(builder, "Concat", [builder.make_tuple(rows), axis], avals[0])


def _reduce(op_type, extra=()):
    def rule(builder, params, inputs, avals):
        axes = tuple(int(axis) for axis in params["axes"])
        return node(builder, op_type, [inputs[0], axes, False, *extra], avals[0])
    return rule


def _argument_extremum(op_type):
    def rule(builder, params, inputs, avals):
        (axis,) = params["axes"]
        return node(builder, op_type, [inputs[0], int(axis), type_id(params["index_dtype"])], avals[0])
    return rule


def _cumulative(builder, params, inputs, avals):
    return node(builder, "CumSum", [inputs[0], int(params["axis"]), False, bool(params["reverse"])], avals[0])


def _select_n(builder, params, inputs, avals):
    predicate, *cases = inputs
    if len(cases) != 2:
        raise ValueError(f"For 'export' to MINDIR: a {len(cases)}-way select is not supported.")
    predicate = cast(builder, predicate, np.bool_)
    return node(builder, "Select", [predicate, cases[1], cases[0]], avals[0])


def _clamp(builder, params, inputs, avals):
    low, value, high = inputs
    upper = node(builder, "Minimum", [value, high], avals[0])
    return node(builder, "Maximum", [upper, low], avals[0])


def _integer_pow(builder, params, inputs, avals):
    exponent = int(params["y"])
    if exponent == 2:
        return node(builder, "Square", inputs, avals[0])
    return node(builder, "Pow", [inputs[0], constant_of(builder, np.asarray(exponent, inputs[0].dtype))], avals[0])


def _exp2(builder, params, inputs, avals):
    return node(builder, "Pow", [constant_of(builder, np.asarray(2, inputs[0].dtype)), inputs[0]], avals[0])


def _round(builder, params, inputs, avals):
    return node(builder, "Round", [inputs[0], 0], avals[0])


def _logical(logical, bitwise):
    def rule(builder, params, inputs, avals):
        if inputs[0].dtype != np.bool_:
            raise ValueError(f"For 'export' to MINDIR: bitwise {bitwise} on integers is not supported.")
        return node(builder, logical, inputs, avals[0])
    return rule


def _iota(builder, params, inputs, avals):
    shape = tuple(avals[0].shape)
    if not all(is_static(dim) for dim in shape):
        raise ValueError("For 'export' to MINDIR: an iota (arange) of dynamic length cannot be written.")
    dimension = int(params["dimension"])
    ramp = np.arange(shape[dimension], dtype=avals[0].dtype).reshape(
        [-1 if axis == dimension else 1 for axis in range(len(shape))])
    return constant_of(builder, np.broadcast_to(ramp, shape).copy())


def _pad(builder, params, inputs, avals):
    return pad(builder, inputs[0], inputs[1], params["padding_config"], avals[0])


def _dot_general(builder, params, inputs, avals):
    (left_contract, right_contract), (left_batch, right_batch) = params["dimension_numbers"]
    left, right = inputs
    out = avals[0]
    left_free = [axis for axis in range(len(left.shape)) if axis not in left_contract and axis not in left_batch]
    right_free = [axis for axis in range(len(right.shape)) if axis not in right_contract and axis not in right_batch]
    result_dtype = left.dtype
    if not left_batch and len(left.shape) == 2 and len(right.shape) == 2 and len(left_contract) == 1:
        result = node(builder, "MatMul", [left, right, left_contract[0] == 0, right_contract[0] == 1],
                     Aval(out.shape, result_dtype))
        return cast(builder, result, out.dtype)

    def size(value, axes):  # symbolic when a dimension is: reshape reads it at run time (-1 was taken as static)
        return math.prod(value.shape[axis] for axis in axes)

    batch = [left.shape[axis] for axis in left_batch]
    a = transpose(builder, left, list(left_batch) + left_free + list(left_contract))
    b = transpose(builder, right, list(right_batch) + list(right_contract) + right_free)
    a_shape = tuple(batch) + (size(left, left_free), size(left, left_contract))
    b_shape = tuple(batch) + (size(right, right_contract), size(right, right_free))
    a = reshape(builder, a, a_shape)
    b = reshape(builder, b, b_shape)
    product_shape = tuple(batch) + (a_shape[-2], b_shape[-1])
    op_type = "BatchMatMul" if batch else "MatMul"
    result = node(builder, op_type, [a, b, False, False], Aval(product_shape, result_dtype))
    result = reshape(builder, result, tuple(out.shape)) if product_shape != tuple(out.shape) else result
    return cast(builder, result, out.dtype)


def _tile(builder, params, inputs, avals):
    return node(builder, "Tile", [inputs[0], tuple(int(count) for count in params["reps"])], avals[0])


def _rev(builder, params, inputs, avals):
    return node(builder, "ReverseV2", [inputs[0], tuple(int(axis) for axis in params["dimensions"])], avals[0])


RULES = {
    "add": _binary("Add"), "add_any": _binary("Add"), "sub": _binary("Sub"), "mul": _binary("Mul"), "div": _divide,
    "max": _binary("Maximum"), "min": _binary("Minimum"), "pow": _pow, "atan2": _binary("Atan2"),
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
    "dot_general": _dot_general, **WINDOW_RULES, **INDEXING_RULES,
    "stop_gradient": _identity, "copy": _identity, "copy_p": _identity, "optimization_barrier": _identity,
    "reduce_precision": _identity,
}
RULES = {name: rule for name, rule in RULES.items() if rule is not None}
