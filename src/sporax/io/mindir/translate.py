"""Translate a traced sporax program (a jaxpr) into MindIR nodes of MindSpore 2.10's primitives.

The network is traced as GRAPH mode compiles it (tensor ``if``/``while`` already converted to
``cond``/``while``), then each JAX primitive is written as the MindSpore primitive(s) computing the
same values (``op_rules``). Nested programs (``jit``, custom derivatives) are inlined; ``scan`` (RNN
layers) is unrolled, as MindSpore unrolls loops of known trip count; ``cond`` becomes
``Switch(cond, Partial(branch...))`` and ``while`` a header graph whose body graph calls it again,
the forms MindSpore's own exporter writes.
"""
import jax
import numpy as np
from jax.extend import core as jax_core

from sporax.io.mindir.graph_nodes import Value, cast, constant_of, squeeze_first
from sporax.io.mindir.op_rules import RULES

_INLINED = {"jit": "jaxpr", "pjit": "jaxpr", "closed_call": "call_jaxpr", "core_call": "call_jaxpr",
            "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr",
            "custom_vjp_call_jaxpr": "fun_jaxpr", "remat": "jaxpr", "checkpoint": "jaxpr"}


class ExportError(ValueError):
    """The traced network uses something MindIR export cannot write; names the JAX primitive."""


def _open(closed):
    """``(jaxpr, consts)`` of a ClosedJaxpr or a Jaxpr."""
    if hasattr(closed, "consts"):
        return closed.jaxpr, closed.consts
    return closed, []


def emit(builder, closed, arguments):
    """Write ``closed``'s equations into ``builder``; ``arguments`` are Values; returns output Values."""
    jaxpr, consts = _open(closed)
    env = {}

    def read(variable):
        if isinstance(variable, jax_core.Literal):
            if variable.aval.dtype == jax.dtypes.float0:
                # the tangent of an integer input carries no data: MindSpore has no such dtype
                return constant_of(builder, np.zeros(variable.aval.shape, np.bool_))
            return constant_of(builder, np.asarray(variable.val, dtype=variable.aval.dtype))
        return env[variable]

    for variable, value in zip(jaxpr.constvars, consts):
        env[variable] = constant_of(builder, np.asarray(value))
    for variable, value in zip(jaxpr.invars, arguments):
        env[variable] = value
    for equation in jaxpr.eqns:
        inputs = [read(variable) for variable in equation.invars]
        outputs = _equation(builder, equation, inputs)
        for variable, value in zip(equation.outvars, outputs):
            if not isinstance(variable, jax_core.DropVar):
                env[variable] = value
    return [read(variable) for variable in jaxpr.outvars]


def _equation(builder, equation, inputs):
    name = equation.primitive.name
    avals = [variable.aval for variable in equation.outvars]
    if name in _INLINED:
        return emit(builder, equation.params[_INLINED[name]], inputs)
    if name == "scan":
        return _scan(builder, equation, inputs)
    if name == "while":
        return _while(builder, equation, inputs)
    if name == "cond":
        return _cond(builder, equation, inputs)
    rule = RULES.get(name)
    if rule is None:
        source = str(equation.source_info.traceback).strip().splitlines() if equation.source_info.traceback else []
        where = f" (traced at {source[-1].strip()})" if source else ""
        raise ExportError(f"For 'export' to MINDIR: the network uses the JAX operation '{name}'{where}, "
                          "which sporax cannot write as MindSpore primitives. Export to ONNX, or "
                          "replace that operation in the network.")
    outputs = rule(builder, equation.params, inputs, avals)
    return outputs if isinstance(outputs, (list, tuple)) else [outputs]


def _scan(builder, equation, inputs):
    """Unroll: MindSpore compiles loops of a known trip count as straight-line code too."""
    params = equation.params
    consts_count, carry_count, length = params["num_consts"], params["num_carry"], params["length"]
    consts, carry = inputs[:consts_count], list(inputs[consts_count:consts_count + carry_count])
    sequences = inputs[consts_count + carry_count:]
    steps = range(length - 1, -1, -1) if params["reverse"] else range(length)
    stacked = None
    for step in steps:
        rows = [squeeze_first(builder, sequence, step) for sequence in sequences]
        outputs = emit(builder, params["jaxpr"], list(consts) + carry + rows)
        carry, ys = list(outputs[:carry_count]), outputs[carry_count:]
        if stacked is None:
            stacked = [[] for _ in ys]
        for collected, y in zip(stacked, ys):
            collected.append(y)
    results = list(carry)
    for collected, variable in zip(stacked or [], equation.outvars[carry_count:]):
        if params["reverse"]:
            collected = collected[::-1]
        rows = [builder.op("ExpandDims", [item.name, 0]) for item in collected]
        joined = rows[0] if len(rows) == 1 else builder.op("Concat", [builder.make_tuple(rows), 0])
        results.append(Value(joined, variable.aval))
    return results


def _function(builder, stem, input_avals):
    """A function graph with inputs of ``input_avals``; returns (GraphBuilder, input Values)."""
    function = builder.model.function(stem)
    values = [Value(function.add_input(f"in{index}", aval.shape, aval.dtype), aval)
              for index, aval in enumerate(input_avals)]
    return function, values


def _finish(function, values):
    return function.set_outputs([value.name for value in values],
                                [(value.aval.shape, value.aval.dtype) for value in values])


def _unpack(builder, result, avals):
    if len(avals) == 1:
        return [Value(result, avals[0])]
    return [Value(builder.get_item(result, index), aval) for index, aval in enumerate(avals)]


def _cond(builder, equation, inputs):
    branches = equation.params["branches"]
    if len(branches) != 2:
        raise ExportError(f"For 'export' to MINDIR: a {len(branches)}-way lax.switch is not supported; "
                          "use if/else on a boolean.")
    index, operands = inputs[0], inputs[1:]
    condition = cast(builder, index, np.bool_)
    partials = []
    for closed in (branches[1], branches[0]):  # Switch(cond, true, false); branches are (false, true)
        function, values = _function(builder, "branch", [value.aval for value in operands])
        _finish(function, emit(function, closed, values))
        partials.append(builder.partial(function.name, [value.name for value in operands]))
    chosen = builder.switch(condition.name, *partials)
    return _unpack(builder, builder.call(chosen, []), [variable.aval for variable in equation.outvars])


def _while(builder, equation, inputs):
    """``header(consts, carry)``: Switch(cond, Partial(body, ...), Partial(after, carry)); the body
    calls the header with the next carry, ``after`` returns the carry."""
    params = equation.params
    cond_count, body_count = params["cond_nconsts"], params["body_nconsts"]
    avals = [value.aval for value in inputs]
    carry_avals = avals[cond_count + body_count:]
    header, header_in = _function(builder, "while_header", avals)
    body, body_in = _function(builder, "while_body", avals)
    after, after_in = _function(builder, "while_after", carry_avals)
    # body: next carry, then the header again
    cond_consts, body_consts = body_in[:cond_count], body_in[cond_count:cond_count + body_count]
    carried = emit(body, params["body_jaxpr"], list(body_consts) + list(body_in[cond_count + body_count:]))
    next_carry = [cast(body, value, aval.dtype) for value, aval in zip(carried, carry_avals)]
    again = body.call(header.name, [value.name for value in list(cond_consts) + list(body_consts) + next_carry])
    carry_types = [(aval.shape, aval.dtype) for aval in carry_avals]
    body.describe_output(again, carry_types)
    _finish(after, after_in)
    # header
    carry_in = header_in[cond_count + body_count:]
    (condition,) = emit(header, params["cond_jaxpr"], list(header_in[:cond_count]) + list(carry_in))
    go = header.partial(body.name, [value.name for value in header_in])
    stop = header.partial(after.name, [value.name for value in carry_in])
    result = header.call(header.switch(cast(header, condition, np.bool_).name, go, stop), [])
    header.describe_output(result, carry_types)
    return _unpack(builder, builder.call(header.name, [value.name for value in inputs]), carry_avals)
