"""JAX primitives as ONNX nodes: the table behind ``export(file_format="ONNX")``."""
import numpy as np
from jax.extend.core import Literal
from onnx import helper, numpy_helper

_ELEMENTWISE = {
    "add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "max": "Max", "min": "Min",
    "pow": "Pow", "neg": "Neg", "exp": "Exp", "log": "Log", "tanh": "Tanh", "logistic": "Sigmoid",
    "sqrt": "Sqrt", "abs": "Abs", "sign": "Sign", "floor": "Floor", "ceil": "Ceil", "erf": "Erf",
    "sin": "Sin", "cos": "Cos", "gt": "Greater", "lt": "Less", "ge": "GreaterOrEqual",
    "le": "LessOrEqual", "eq": "Equal", "and": "And", "or": "Or", "not": "Not", "xor": "Xor",
    "stop_gradient": "Identity", "copy": "Identity", "copy_p": "Identity",
    "optimization_barrier": "Identity", "reduce_precision": "Identity",
}
_REDUCE_ATTRIBUTE = {"reduce_max": "ReduceMax", "reduce_min": "ReduceMin", "reduce_prod": "ReduceProd"}
_SUBGRAPH_PARAMS = ("jaxpr", "call_jaxpr", "fun_jaxpr")


def _onnx_type(dtype):
    return helper.np_dtype_to_tensor_dtype(np.dtype(dtype))


class OnnxGraph:
    """Collects ONNX nodes, inputs, outputs and initializers while a jaxpr is walked."""

    def __init__(self):
        self.nodes, self.inputs, self.outputs, self.initializers = [], [], [], []
        self._count = 0

    def fresh(self, hint="v"):
        self._count += 1
        return f"{hint}_{self._count}"

    def const(self, value, dtype=None, hint="const"):
        array = np.asarray(value, dtype=dtype)
        name = self.fresh(hint)
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def ints(self, values):
        return self.const(np.asarray(list(values), np.int64), hint="shape")

    def node(self, op_type, inputs, outputs=None, **attributes):
        outputs = outputs or [self.fresh(op_type.lower())]
        self.nodes.append(helper.make_node(op_type, list(inputs), list(outputs), **attributes))
        return outputs[0]

    def add_input(self, name, shape, dtype):
        self.inputs.append(helper.make_tensor_value_info(name, _onnx_type(dtype), list(shape)))

    def add_output(self, name, shape, dtype):
        self.outputs.append(helper.make_tensor_value_info(name, _onnx_type(dtype), list(shape)))

    def model(self, name, opset):
        graph = helper.make_graph(self.nodes, name, self.inputs, self.outputs, self.initializers)
        # IR version 8 is what opset 17 needs; newer onnx packages default higher than most
        # onnxruntime releases read.
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                                 producer_name="sporax", ir_version=8)

    def emit_jaxpr(self, jaxpr, consts, input_names):
        """Emit ``jaxpr``'s equations; returns the ONNX names of its outputs."""
        names = {}
        for variable, value in zip(jaxpr.constvars, consts):
            names[variable] = self.const(np.asarray(value), hint="weight")
        for variable, name in zip(jaxpr.invars, input_names):
            names[variable] = name

        def read(atom):
            if isinstance(atom, Literal):
                return self.const(np.asarray(atom.val, atom.aval.dtype))
            return names[atom]

        for equation in jaxpr.eqns:
            inputs = [read(atom) for atom in equation.invars]
            outputs = self._emit(equation, inputs)
            for variable, name in zip(equation.outvars, outputs):
                names[variable] = name
        return [read(atom) for atom in jaxpr.outvars]

    def _emit(self, equation, inputs):
        primitive = equation.primitive.name
        params = equation.params
        for key in _SUBGRAPH_PARAMS:
            if key in params:
                inner = params[key]
                if hasattr(inner, "jaxpr"):
                    return self.emit_jaxpr(inner.jaxpr, inner.consts, inputs)
                return self.emit_jaxpr(inner, [], inputs)
        if primitive in _ELEMENTWISE:
            return [self.node(_ELEMENTWISE[primitive], inputs)]
        handler = getattr(self, "_" + primitive, None)
        if handler is None:
            raise NotImplementedError(
                f"export(file_format='ONNX'): the operation '{primitive}' has no ONNX mapping in sporax "
                "yet; export with file_format='MINDIR' instead.")
        result = handler(equation, inputs, params)
        return result if isinstance(result, list) else [result]

    # --- elementwise helpers ----------------------------------------------------------------
    def _ne(self, eq, inputs, params):
        return self.node("Not", [self.node("Equal", inputs)])

    def _rsqrt(self, eq, inputs, params):
        return self.node("Reciprocal", [self.node("Sqrt", inputs)])

    def _square(self, eq, inputs, params):
        return self.node("Mul", [inputs[0], inputs[0]])

    def _integer_pow(self, eq, inputs, params):
        dtype = eq.invars[0].aval.dtype
        return self.node("Pow", [inputs[0], self.const(np.asarray(params["y"], dtype))])

    def _log1p(self, eq, inputs, params):
        one = self.const(np.asarray(1, eq.invars[0].aval.dtype))
        return self.node("Log", [self.node("Add", [inputs[0], one])])

    def _expm1(self, eq, inputs, params):
        one = self.const(np.asarray(1, eq.invars[0].aval.dtype))
        return self.node("Sub", [self.node("Exp", inputs), one])

    def _rem(self, eq, inputs, params):
        return self.node("Mod", inputs, fmod=1)

    def _round(self, eq, inputs, params):
        return self.node("Round", inputs)

    def _clamp(self, eq, inputs, params):
        low, value, high = inputs
        return self.node("Max", [self.node("Min", [value, high]), low])

    def _convert_element_type(self, eq, inputs, params):
        return self.node("Cast", inputs, to=_onnx_type(params["new_dtype"]))

    def _select_n(self, eq, inputs, params):
        predicate, *cases = inputs
        if len(cases) != 2:
            raise NotImplementedError("export(file_format='ONNX'): select with more than two cases.")
        if eq.invars[0].aval.dtype != np.bool_:
            predicate = self.node("Cast", [predicate], to=_onnx_type(np.bool_))
        return self.node("Where", [predicate, cases[1], cases[0]])

    def _cond(self, eq, inputs, params):
        # Both branches are pure (a cond with effects never reaches export), so computing both and selecting by
        # the index gives the cond's values without ONNX If subgraphs (e.g. the max pools' NaN-rule branch).
        index, *operands = inputs
        branches = params["branches"]
        if len(branches) != 2:
            raise NotImplementedError(
                f"export(file_format='ONNX'): a cond with {len(branches)} branches (a switch over more than two "
                "functions) has no ONNX mapping in sporax yet; export with file_format='MINDIR' instead.")
        false_outputs, true_outputs = (self.emit_jaxpr(branch.jaxpr, branch.consts, operands) for branch in branches)
        predicate = self.node("Cast", [index], to=_onnx_type(np.bool_))
        return [self.node("Where", [predicate, true_value, false_value])
                for false_value, true_value in zip(false_outputs, true_outputs)]

    # --- shapes -------------------------------------------------------------------------------
    def _reshape(self, eq, inputs, params):
        return self.node("Reshape", [inputs[0], self.ints(params["new_sizes"])])

    def _broadcast_in_dim(self, eq, inputs, params):
        shape, kept = params["shape"], params["broadcast_dimensions"]
        source_shape = eq.invars[0].aval.shape
        expanded = [1] * len(shape)
        for source_axis, target_axis in enumerate(kept):
            expanded[target_axis] = source_shape[source_axis]
        reshaped = self.node("Reshape", [inputs[0], self.ints(expanded)])
        return self.node("Expand", [reshaped, self.ints(shape)])

    def _transpose(self, eq, inputs, params):
        return self.node("Transpose", inputs, perm=list(params["permutation"]))

    def _squeeze(self, eq, inputs, params):
        return self.node("Squeeze", [inputs[0], self.ints(params["dimensions"])])

    def _expand_dims(self, eq, inputs, params):
        return self.node("Unsqueeze", [inputs[0], self.ints(params["dimensions"])])

    def _concatenate(self, eq, inputs, params):
        return self.node("Concat", inputs, axis=int(params["dimension"]))

    def _slice(self, eq, inputs, params):
        starts, limits = params["start_indices"], params["limit_indices"]
        steps = params["strides"] or [1] * len(starts)
        axes = list(range(len(starts)))
        return self.node("Slice", [inputs[0], self.ints(starts), self.ints(limits), self.ints(axes),
                                   self.ints(steps)])

    def _pad(self, eq, inputs, params):
        config = params["padding_config"]
        if any(interior for _, _, interior in config) or any(lo < 0 or hi < 0 for lo, hi, _ in config):
            raise NotImplementedError("export(file_format='ONNX'): interior or negative padding.")
        pads = [lo for lo, _, _ in config] + [hi for _, hi, _ in config]
        return self.node("Pad", [inputs[0], self.ints(pads), inputs[1]])

    def _iota(self, eq, inputs, params):
        shape, dimension = params["shape"], params["dimension"]
        values = np.arange(shape[dimension], dtype=params["dtype"])
        values = values.reshape([-1 if axis == dimension else 1 for axis in range(len(shape))])
        return self.const(np.broadcast_to(values, shape).copy())

    def _split(self, eq, inputs, params):
        outputs = [self.fresh("split") for _ in params["sizes"]]
        self.node("Split", [inputs[0], self.ints(params["sizes"])], outputs, axis=int(params["axis"]))
        return outputs

    # --- reductions ---------------------------------------------------------------------------
    def _reduce_sum(self, eq, inputs, params):
        return self.node("ReduceSum", [inputs[0], self.ints(params["axes"])], keepdims=0)

    def _reduce(self, op_type, inputs, params):
        return self.node(op_type, inputs, axes=list(params["axes"]), keepdims=0)

    def _reduce_max(self, eq, inputs, params):
        return self._reduce("ReduceMax", inputs, params)

    def _reduce_min(self, eq, inputs, params):
        return self._reduce("ReduceMin", inputs, params)

    def _reduce_prod(self, eq, inputs, params):
        return self._reduce("ReduceProd", inputs, params)

    def _argmax(self, eq, inputs, params):
        (axis,) = params["axes"]
        index = self.node("ArgMax", inputs, axis=int(axis), keepdims=0)
        return self.node("Cast", [index], to=_onnx_type(params["index_dtype"]))

    def _argmin(self, eq, inputs, params):
        (axis,) = params["axes"]
        index = self.node("ArgMin", inputs, axis=int(axis), keepdims=0)
        return self.node("Cast", [index], to=_onnx_type(params["index_dtype"]))

    def _cumsum(self, eq, inputs, params):
        return self.node("CumSum", [inputs[0], self.const(np.asarray(params["axis"], np.int64))],
                         reverse=int(params["reverse"]))

    # --- linear algebra, convolution, pooling -------------------------------------------------
    def _dot_general(self, eq, inputs, params):
        (left_contract, right_contract), (left_batch, right_batch) = params["dimension_numbers"]
        left_rank, right_rank = len(eq.invars[0].aval.shape), len(eq.invars[1].aval.shape)
        letters = iter("abcdefghijklmnopqrstuvwxyz")
        left = [next(letters) for _ in range(left_rank)]
        right = [None] * right_rank
        for l_axis, r_axis in zip(left_batch, right_batch):
            right[r_axis] = left[l_axis]
        for l_axis, r_axis in zip(left_contract, right_contract):
            right[r_axis] = left[l_axis]
        right = [letter or next(letters) for letter in right]
        batch = [left[axis] for axis in left_batch]
        free_left = [left[a] for a in range(left_rank) if a not in left_contract and a not in left_batch]
        free_right = [right[a] for a in range(right_rank) if a not in right_contract and a not in right_batch]
        equation = f"{''.join(left)},{''.join(right)}->{''.join(batch + free_left + free_right)}"
        result = self.node("Einsum", inputs, equation=equation)
        wanted = eq.outvars[0].aval.dtype
        if wanted != eq.invars[0].aval.dtype:
            result = self.node("Cast", [result], to=_onnx_type(wanted))
        return result

    def _conv_general_dilated(self, eq, inputs, params):
        numbers = params["dimension_numbers"]
        if any(d != 1 for d in params["lhs_dilation"]) or params["batch_group_count"] != 1:
            raise NotImplementedError("export(file_format='ONNX'): transposed convolution.")
        lhs_spec, rhs_spec, out_spec = numbers.lhs_spec, numbers.rhs_spec, numbers.out_spec
        rank = len(lhs_spec)
        canonical = tuple(range(rank))
        value, kernel = inputs
        if tuple(lhs_spec) != canonical:
            value = self.node("Transpose", [value], perm=list(lhs_spec))
        if tuple(rhs_spec) != canonical:
            kernel = self.node("Transpose", [kernel], perm=list(rhs_spec))
        padding = params["padding"]
        if any(lo < 0 or hi < 0 for lo, hi in padding):
            raise NotImplementedError("export(file_format='ONNX'): negative convolution padding.")
        result = self.node("Conv", [value, kernel], strides=list(params["window_strides"]),
                           dilations=list(params["rhs_dilation"]),
                           pads=[lo for lo, _ in padding] + [hi for _, hi in padding],
                           group=int(params["feature_group_count"]))
        if tuple(out_spec) != canonical:
            inverse = [0] * rank
            for position, axis in enumerate(out_spec):
                inverse[axis] = position
            result = self.node("Transpose", [result], perm=inverse)
        return result

    def _pool_attributes(self, params, name):
        window, strides = params["window_dimensions"], params["window_strides"]
        padding = params["padding"]
        dilated = any(d != 1 for d in params["base_dilation"]) or any(d != 1 for d in params["window_dilation"])
        if window[:2] != (1, 1) or strides[:2] != (1, 1) or dilated or any(padding[a] != (0, 0) for a in (0, 1)):
            raise NotImplementedError(f"export(file_format='ONNX'): {name} over batch or channel "
                                      "dimensions, or dilated, is not an ONNX pool.")
        pads = [lo for lo, _ in padding[2:]] + [hi for _, hi in padding[2:]]
        return dict(kernel_shape=list(window[2:]), strides=list(strides[2:]), pads=pads)

    def _reduce_window_max(self, eq, inputs, params):
        return self.node("MaxPool", inputs, **self._pool_attributes(params, "max pooling"))

    def _reduce_window_sum(self, eq, inputs, params):
        attributes = self._pool_attributes(params, "sum pooling")
        average = self.node("AveragePool", inputs, count_include_pad=1, **attributes)
        count = self.const(np.asarray(np.prod(attributes["kernel_shape"]), eq.invars[0].aval.dtype))
        return self.node("Mul", [average, count])

    def _top_k(self, eq, inputs, params):
        values, indices = self.fresh("topk"), self.fresh("topk_index")
        self.node("TopK", [inputs[0], self.ints([params["k"]])], [values, indices], axis=-1, largest=1)
        return [values, self.node("Cast", [indices], to=_onnx_type(eq.outvars[1].aval.dtype))]
