"""Run a MindIR ModelProto with sporax's Primitives (``formats.md`` C.4).

Each node ``REF::<primitive>`` runs sporax's Primitive of that name (``op_table.primitive_named``), in either
calling convention: PRIMITIVE keeps op parameters as attributes of the primitive, PRIMITIVE_FUNCTION
passes them as trailing constant inputs (enums as ints). The graph plumbing is interpreted here:
``Load`` reads a weight, ``UpdateState``/``Depend`` only order side effects (a pure program needs no
ordering), ``MakeTuple``/``TupleGetItem`` build and index tuples, ``Partial`` binds a graph to
captured values and ``Switch`` chooses one. A ``REF::<graph>`` or ``REF::<node>`` node calls a
graph or a function value.

Control flow runs as Python while values are concrete (PyNative). Under tracing (GRAPH mode, grad)
a ``Switch`` on a traced condition becomes ``lax.cond``, and a loop — a graph whose Switch branch
calls the graph again, as MindSpore compiles ``while`` — becomes ``lax.while_loop`` over the
graph's inputs.
"""
import functools
import inspect

import jax
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.graph.control_flow.constant import known_value
from sporax.io.mindir.values import MONAD, NUMPY_BY_TYPE_ID, attribute_value
from sporax.ops.op_table import primitive_named

PRIMITIVE, PRIMITIVE_FUNCTION = 1, 2
# Enum arguments of PRIMITIVE_FUNCTION ops, by the sporax parameter name they bind to.
_ENUMS = {
    "pad_mode": {0: "pad", 1: "same", 2: "valid"},
    "data_format": {0: "NCHW", 1: "NHWC", 2: "NCDHW"},
    "format": {0: "NCHW", 1: "NHWC", 2: "NCDHW"},
    "reduction": {0: "sum", 1: "mean", 2: "none"},
}
# ... where one op reads an enum value otherwise (MindSpore's enum gives "add" and "mean" the same 1)
_OP_ENUMS = {("TensorScatterElements", "reduction"): {1: "add", 2: "none"}}
_DTYPE_ARGUMENTS = ("dtype", "type", "dst_type", "output_type", "out_type")
# MindSpore attribute names whose sporax __init__ parameter is named differently
_ATTRIBUTE_ALIASES = {"format": "data_format"}
_SKIPPED_ATTRIBUTES = {"input_names", "output_names", "side_effect_propagate"}


class MindIRError(RuntimeError):
    """A MindIR graph sporax cannot run, or that fails on its inputs; the message names the file, the node
    and the op. A RuntimeError, as MindSpore 2.10's GraphCell raises for any failing node."""


class _GraphRef:
    def __init__(self, name):
        self.name = name


class _Closure:
    """``Partial(graph, captures...)``: a graph with its first inputs bound."""

    def __init__(self, function, captures):
        self.function, self.captures = function, tuple(captures)


class _Switch:
    """``Switch(cond, true, false)`` on a traced condition: chosen when called."""

    def __init__(self, condition, on_true, on_false):
        self.condition, self.on_true, self.on_false = condition, on_true, on_false


class _Continue:
    """A loop body's call of its loop header: the next iteration's inputs."""

    def __init__(self, arguments):
        self.arguments = tuple(arguments)


def _is_traced(value):
    array = value._value if isinstance(value, Tensor) else value
    return isinstance(array, jax.core.Tracer)


def _known(flag):
    """``flag`` itself, or its value when the tracer depends on constants only (a fixed trip count)."""
    if isinstance(flag, jax.core.Tracer):
        value = known_value(flag)
        return flag if value is None else bool(value)
    return flag


def _dtype_value(value):
    if isinstance(value, (int, np.integer)) and int(value) in NUMPY_BY_TYPE_ID:
        return mstype.from_numpy_dtype(np.dtype(NUMPY_BY_TYPE_ID[int(value)]))
    return value


def _to_tensor(value):
    if isinstance(value, np.ndarray):
        return Tensor(value)
    return value


def _flatten(value):
    """Arrays of a (nested tuple of) Tensor value, for lax control flow."""
    if isinstance(value, Tensor):
        return [value._value], "T"
    if isinstance(value, (tuple, list)):
        arrays, parts = [], []
        for item in value:
            item_arrays, part = _flatten(item)
            arrays += item_arrays
            parts.append(part)
        return arrays, parts
    if value is MONAD or value is None:
        return [], value
    return [jax.numpy.asarray(value)], "T"


def _unflatten(structure, arrays):
    if structure == "T":
        return Tensor._wrap(next(arrays))
    if isinstance(structure, list):
        return tuple(_unflatten(part, arrays) for part in structure)
    return structure


class _Graph:
    def __init__(self, proto):
        self.proto = proto
        self.name = proto.name
        self.inputs = [value.name for value in proto.input]
        self.nodes = [node for node in proto.node if node.op_type != "Constant"]
        self.output = proto.output[0].name if proto.output else self.nodes[-1].name
        self.references = {node.op_type[5:] for node in self.nodes if node.op_type.startswith("REF::")}
        self.references |= {name for node in self.nodes for name in node.input}


class Interpreter:
    """Evaluates a ModelProto's main graph on parameter and input arrays."""

    def __init__(self, model, file_name):
        self.file_name = file_name
        self.primitives = {primitive.name: primitive for primitive in model.primitives}
        self.graphs = {graph.name: _Graph(graph) for graph in [model.graph, *model.functions]}
        self.main = self.graphs[model.graph.name]
        self.parameter_names = [tensor.name for tensor in model.graph.parameter]
        self.constants = {}
        for graph in [model.graph, *model.functions]:
            for node in graph.node:
                if node.op_type == "Constant":
                    value = attribute_value(node.attribute[0], f"{file_name}: constant {node.name}")
                    self.constants[node.name] = _to_tensor(value)
        self._instances, self._loop_cache = {}, {}
        self._check_references()

    def _check_references(self):
        """Every node input and called op names something the file defines: a damaged file fails at
        ``load`` with its name, not later inside a primitive."""
        known = set(self.constants) | set(self.parameter_names) | set(self.graphs)
        for graph in self.graphs.values():
            defined = known | set(graph.inputs)
            for node in graph.nodes:
                target = node.op_type[5:] if node.op_type.startswith("REF::") else None
                missing = [name for name in node.input if name not in defined]
                if target is None or (target not in self.primitives and target not in defined):
                    missing.append(node.op_type)
                if missing:
                    raise MindIRError(f"MindIR file {self.file_name}: node {node.name!r} of graph "
                                      f"{graph.name!r} refers to {missing}, which the file does not define. "
                                      "The file is damaged or truncated.")
                defined.add(node.name)
            if graph.output not in defined:
                raise MindIRError(f"MindIR file {self.file_name}: graph {graph.name!r} returns "
                                  f"{graph.output!r}, which it does not define. The file is damaged.")

    # --- errors -------------------------------------------------------------------------------
    def _error(self, node, message, error_type=MindIRError):
        scope = f", scope {node.domain}" if node.domain else ""
        return error_type(f"MindIR file {self.file_name}: node {node.name!r} ({node.op_type}{scope}): "
                          f"{message}")

    # --- running ------------------------------------------------------------------------------
    def run(self, parameters, inputs):
        """The main graph's output for Tensors ``parameters`` (file order) and ``inputs``."""
        if len(inputs) != len(self.main.inputs):
            raise MindIRError(f"For 'GraphCell' of {self.file_name}: the graph takes {len(self.main.inputs)} "
                            f"inputs ({', '.join(name.split(':')[-1] for name in self.main.inputs)}), "
                            f"got {len(inputs)}.")
        scope = dict(self.constants)
        scope.update(zip(self.parameter_names, parameters))
        self.globals = scope
        return self.call_graph(self.main, list(inputs), loop_header=None)

    def call_graph(self, graph, arguments, loop_header, forced=None, stop_before=None):
        """Evaluate ``graph``; ``stop_before`` a node name: return the values computed before it."""
        if loop_header is not None and graph is loop_header:
            return _Continue(arguments)
        if len(arguments) != len(graph.inputs):
            raise MindIRError(f"MindIR file {self.file_name}: graph {graph.name!r} takes "
                              f"{len(graph.inputs)} inputs, called with {len(arguments)}.")
        if forced is None and stop_before is None and self._loop_switch(graph) is not None:
            return self._loop(graph, list(arguments))
        values = dict(zip(graph.inputs, arguments))
        for node in graph.nodes:
            if node.name == stop_before:
                return values
            values[node.name] = self._node(graph, node, values, loop_header, forced or {})
        return self._value(values, graph.output, graph.nodes[-1] if graph.nodes else None)

    def _value(self, values, name, node):
        if name in values:
            return values[name]
        if name in self.globals:
            return self.globals[name]
        if name in self.graphs:
            return _GraphRef(name)
        raise MindIRError(f"MindIR file {self.file_name}: node {node.name if node else '?'!r} reads "
                          f"{name!r}, which no input, parameter, constant, node or graph defines.")

    def _node(self, graph, node, values, loop_header, forced):
        target = node.op_type[5:] if node.op_type.startswith("REF::") else node.op_type
        arguments = [self._value(values, name, node) for name in node.input]
        if target in self.primitives:
            primitive = self.primitives[target]
            if node.name in forced:  # a loop header re-run after its loop: take the exit branch
                return arguments[1] if forced[node.name] else arguments[2]
            structural = _STRUCTURAL.get(primitive.op_type)
            if structural is not None:
                return structural(self, node, arguments)
            return self._primitive(node, primitive, arguments)
        if target in self.graphs:
            return self.call_graph(self.graphs[target], arguments, loop_header)
        if target in values:
            return self._call_value(graph, node, values[target], arguments, values, loop_header, forced)
        raise self._error(node, f"the op {target!r} is neither a primitive of the file, a graph nor a "
                                "node: the file is damaged or from an unsupported MindSpore version.")

    def _call_value(self, graph, node, function, arguments, values, loop_header, forced):
        if isinstance(function, _Switch):
            return self._traced_switch(graph, node, function, arguments, values, loop_header)
        if isinstance(function, _Closure):
            return self._call_value(graph, node, function.function, list(function.captures) + arguments,
                                    values, loop_header, forced)
        if isinstance(function, _GraphRef):
            return self.call_graph(self.graphs[function.name], arguments, loop_header)
        raise self._error(node, f"calls a value of type {type(function).__name__}, not a function.")

    # --- primitives ---------------------------------------------------------------------------
    def _primitive(self, node, primitive, arguments):
        # view ops take the side-effect state as a last input: it orders, it carries no data
        arguments = [argument for argument in arguments if argument is not MONAD]
        cls = primitive_named(primitive.op_type)
        if cls is None:
            raise self._error(node, f"sporax has no Primitive named {primitive.op_type!r} "
                                    "(sporax.ops.operations lists those it has).", NotImplementedError)
        init_parameters, call_names, variadic = _signature(cls)
        try:
            if primitive.prim_type == PRIMITIVE_FUNCTION:
                call_count = _call_arity(call_names, variadic, len(arguments), len(init_parameters))
                operands, extra = arguments[:call_count], arguments[call_count:]
                if len(extra) > len(init_parameters):
                    raise self._error(node, f"{len(arguments)} inputs, but sporax's {cls.__name__} takes "
                                            f"{call_count} inputs and {len(init_parameters)} attributes.")
                init = {parameter.name: _convert(parameter.name, value.asnumpy().item()
                                                 if isinstance(value, Tensor) else value, primitive.op_type)
                        for parameter, value in zip(init_parameters, extra)}
                key = (primitive.name, repr(sorted(init.items())))
            else:
                operands, key = arguments, (primitive.name,)
                init = None
            instance = self._instances.get(key)
            if instance is None:
                if init is None:
                    init = self._attributes(node, primitive, cls, init_parameters)
                instance = self._instances[key] = cls(**init)
            operands = _convert_operands(call_names, operands)
            return instance(*operands)
        except (MindIRError, jax.errors.JAXTypeError):
            # a traced value read in Python passes through unchanged: the compile falls back to eager on it
            raise
        except (TypeError, ValueError, NotImplementedError) as error:
            raise self._error(node, f"sporax's {cls.__name__} failed: {error}",
                              NotImplementedError if isinstance(error, NotImplementedError) else MindIRError) from error

    def _attributes(self, node, primitive, cls, init_parameters):
        attributes = {}
        for attribute in primitive.attribute:
            if attribute.name in _SKIPPED_ATTRIBUTES:
                continue
            value = attribute_value(attribute, f"{self.file_name}: attribute {attribute.name}")
            attributes[attribute.name] = value
            if attribute.name in _ATTRIBUTE_ALIASES:
                attributes.setdefault(_ATTRIBUTE_ALIASES[attribute.name], value)
        init, missing = {}, []
        for parameter in init_parameters:
            if parameter.name in attributes:
                init[parameter.name] = _convert(parameter.name, attributes[parameter.name])
            elif parameter.default is parameter.empty:
                missing.append(parameter.name)
        if missing:
            raise self._error(node, f"the primitive {primitive.name!r} lacks the attributes {missing} that "
                                    f"sporax's {cls.__name__} needs.")
        return init

    # --- control flow -------------------------------------------------------------------------
    def _reaches(self, graph_name, target, seen=None):
        """Whether graph ``graph_name`` calls (or binds in a Partial) graph ``target``, transitively."""
        seen = set() if seen is None else seen
        if graph_name in seen:
            return False
        seen.add(graph_name)
        references = self.graphs[graph_name].references
        return target in references or any(self._reaches(name, target, seen) for name in references
                                           if name in self.graphs)

    def _loop_switch(self, graph):
        """``(switch node, body is the true branch)`` when ``graph`` is a loop header, else None.

        MindSpore compiles ``while`` into a header graph that ends by calling
        ``Switch(cond, Partial(body, ...), Partial(after, ...))`` where the body calls the header again.
        """
        if graph.name not in self._loop_cache:
            found = None
            nodes = {node.name: node for node in graph.nodes}
            for node in graph.nodes:
                primitive = self.primitives.get(node.op_type[5:])
                if primitive is None or primitive.op_type != "Switch" or len(node.input) != 3:
                    continue
                branches = [_branch_graph(nodes.get(name), name, self) for name in node.input[1:]]
                recursive = [branch is not None and self._reaches(branch, graph.name) for branch in branches]
                if any(recursive):
                    found = (node, recursive[0])
                    break
            self._loop_cache[graph.name] = found
        return self._loop_cache[graph.name]

    def _loop(self, header, state):
        switch, body_is_true = self._loop_switch(header)
        condition_name, body_name = switch.input[0], switch.input[1 if body_is_true else 2]

        def head(current):
            values = self.call_graph(header, list(current), None, stop_before=switch.name)
            condition = self._value(values, condition_name, switch)
            flag = condition._value if isinstance(condition, Tensor) else jax.numpy.asarray(condition)
            flag = jax.numpy.reshape(flag, ()).astype(bool)
            return (flag if body_is_true else ~flag), self._value(values, body_name, switch)

        def step(current):
            _, body = head(current)
            result = self._call_value(header, switch, body, [], {}, header, {})
            if not isinstance(result, _Continue):
                raise self._error(switch, "a loop body that leaves the loop other than through its "
                                          "header (break/return inside while) is not supported.")
            return list(result.arguments)

        flag = _known(head(state)[0])
        # a condition known in Python (PyNative, or gradients of weights with a constant trip count)
        # iterates in Python, so reverse-mode differentiation works; a traced one is a while_loop
        while not _is_traced(flag) and bool(flag):
            state = step(state)
            flag = _known(head(state)[0])
        if _is_traced(flag):
            arrays, structure = _flatten(tuple(state))

            def carried(arrays_now):
                return list(_unflatten(structure, iter(arrays_now)))

            def keep_going(arrays_now):
                return head(carried(arrays_now))[0]

            def iterate(arrays_now):
                new_arrays, _ = _flatten(tuple(step(carried(arrays_now))))
                return [new.astype(old.dtype) for new, old in zip(new_arrays, arrays_now)]

            state = carried(jax.lax.while_loop(keep_going, iterate, [jax.numpy.asarray(a) for a in arrays]))
        return self.call_graph(header, state, None, forced={switch.name: not body_is_true})

    def _traced_switch(self, graph, node, switch, arguments, values, loop_header):
        branches = [switch.on_true, switch.on_false]
        structures = {}

        def branch(index):
            def run(*_):
                result = self._call_value(graph, node, branches[index], list(arguments), values, loop_header, {})
                if isinstance(result, _Continue):
                    raise self._error(node, "a loop whose body continues inside a data-dependent branch "
                                            "is not supported.")
                arrays, structures[index] = _flatten(result)
                return arrays
            return run

        condition = switch.condition
        predicate = condition._value if isinstance(condition, Tensor) else condition
        arrays = jax.lax.cond(jax.numpy.reshape(predicate, ()).astype(bool), branch(0), branch(1))
        return _unflatten(structures[0], iter(arrays))


def _branch_graph(node, name, interpreter):
    """The graph a Switch branch runs: ``Partial(graph, ...)`` or the graph itself."""
    if name in interpreter.graphs:
        return name
    if node is not None and node.input and node.input[0] in interpreter.graphs:
        primitive = interpreter.primitives.get(node.op_type[5:])
        if primitive is not None and primitive.op_type == "Partial":
            return node.input[0]
    return None


@functools.lru_cache(maxsize=None)
def _signature(cls):
    """``(init parameters, call parameter names, call takes *args)`` of a Primitive class."""
    init = [parameter for name, parameter in inspect.signature(cls.__init__).parameters.items()
            if name != "self" and parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)]
    call = [parameter for name, parameter in inspect.signature(cls.__call__).parameters.items() if name != "self"]
    variadic = any(parameter.kind == parameter.VAR_POSITIONAL for parameter in call)
    return init, tuple(parameter.name for parameter in call if parameter.kind != parameter.VAR_POSITIONAL), variadic


def _call_arity(call_names, variadic, argument_count, init_count):
    """How many of a PRIMITIVE_FUNCTION node's inputs are the call's; the rest are __init__'s."""
    if variadic:
        return argument_count if init_count == 0 else max(argument_count - init_count, 1)
    return min(len(call_names), argument_count)


def _convert(name, value, op_type=None):
    if name in _ENUMS and isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return _OP_ENUMS.get((op_type, name), _ENUMS[name]).get(int(value), value)
    if name in _DTYPE_ARGUMENTS:
        return _dtype_value(value)
    if isinstance(value, list):
        return tuple(value)
    return value


def _convert_operands(call_names, operands):
    """Dtype operands arrive as MindSpore TypeIds (``Cast(x, 43)``): make them sporax dtypes."""
    return [_dtype_value(value) if index < len(call_names) and call_names[index] in _DTYPE_ARGUMENTS else value
            for index, value in enumerate(operands)]


def _load(interpreter, node, arguments):
    return arguments[0]


def _update_state(interpreter, node, arguments):
    return MONAD


def _make_tuple(interpreter, node, arguments):
    return tuple(arguments)


def _tuple_get_item(interpreter, node, arguments):
    sequence, index = arguments
    if isinstance(index, Tensor):
        index = int(index.asnumpy())
    return sequence[index]


def _partial(interpreter, node, arguments):
    function, *captures = arguments
    return _Closure(function, captures)


def _switch(interpreter, node, arguments):
    condition, on_true, on_false = arguments
    if _is_traced(condition):
        return _Switch(condition, on_true, on_false)
    flag = condition.asnumpy() if isinstance(condition, Tensor) else condition
    return on_true if bool(np.asarray(flag).reshape(())) else on_false


def _joined_string(interpreter, node, arguments):
    return "".join(str(argument) for argument in arguments)


def _raise(interpreter, node, arguments):
    # MindSpore keeps the network's own checks (``raise ValueError(...)``) in the graph
    message = " ".join(str(argument) for argument in arguments[1:] if isinstance(argument, str)) or str(arguments)
    raise interpreter._error(node, f"the network raised {arguments[0] if arguments else 'an error'}: {message}")


_STRUCTURAL = {
    "Load": _load, "UpdateState": _update_state, "Depend": _load, "MakeTuple": _make_tuple,
    "MakeList": _make_tuple, "TupleGetItem": _tuple_get_item, "ListGetItem": _tuple_get_item,
    "Partial": _partial, "Switch": _switch, "make_tuple": _make_tuple, "make_list": _make_tuple,
    "tuple_getitem": _tuple_get_item, "list_getitem": _tuple_get_item, "RealTupleGetItem": _tuple_get_item,
    "RealMakeTuple": _make_tuple, "JoinedStr": _joined_string, "raise": _raise,
}
