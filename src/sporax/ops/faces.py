"""The faces of an op-table entry: the functional op, the Primitive class, the Tensor method.

Each face is generated from the entry (``sporax.ops.op_table``), so it has the signature the
entry's kernel declares and calls that kernel: one compiled dispatch per eager call.

The functional face is made by ``exec`` of a one-line ``def`` with the kernel's own parameter
list (as ``dataclasses`` and ``collections.namedtuple`` make their methods): Python binds the
arguments, reports a wrong call in its own words, and ``inspect.signature`` shows MindSpore's.

Example:
    >>> from sporax import Tensor, ops
    >>> ops.Mish()(Tensor([0.0])).asnumpy().tolist() == ops.mish(Tensor([0.0])).asnumpy().tolist()
    True
"""
import functools
import inspect

import jax
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, binary_call, describe, float_array_of, numeric_array_of, wrap
from sporax.ops.lowering import channels_last
from sporax.ops.op_table import ANY, BINARY, BINARY_TO_FLOAT, FLOAT, NUMBER, TO_FLOAT
from sporax.ops.primitive import Primitive


def float_input(op_name, arg_name, value):
    """The array of a Tensor argument that must have a float dtype."""
    array = array_of(op_name, arg_name, value)
    if array.dtype.kind != "f" and array.dtype.name != "bfloat16":
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a floating-point Tensor (Float16, "
                        f"Float32, Float64 or BFloat16), but got {describe(value)}; cast it first, e.g. "
                        "ops.cast(x, mindspore.float32).")
    return array


_READERS = {FLOAT: float_input, NUMBER: numeric_array_of, ANY: array_of, TO_FLOAT: float_array_of}


def static_value(value):
    """A hyper-parameter as a hashable Python value: a concrete 0-d Tensor is read once, lists
    become tuples (they are keys of the compiled kernel's cache)."""
    if isinstance(value, Tensor):
        array = value._value
        if isinstance(array, jax.core.Tracer) or array.ndim:
            return value  # not a scalar setting: let the kernel's own check name it
        return np.asarray(array).item()
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def _wrap_result(result):
    if isinstance(result, tuple):
        return tuple(wrap(item) for item in result)
    return wrap(result)


def _channels_last_operands(values, positions):
    """The NHWC arrays every Tensor operand carries (one shape and dtype), or None."""
    arrays = []
    for position in positions:
        nhwc = channels_last.nhwc_of(values[position])
        if nhwc is None or (arrays and (nhwc.shape != arrays[0].shape or nhwc.dtype != arrays[0].dtype)):
            return None
        arrays.append(nhwc)
    return arrays


def _static_setting(op_name, name, value):
    """Hyper-parameter ``name`` of a binary op as a hashable value (it keys a compiled kernel)."""
    value = static_value(value)
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"For '{op_name}', '{name}' must be a Python number, string or bool (a compile-time "
                        f"setting), but got {describe(value)}.") from None
    return value


def _binary_runner(entry):
    """``run(input, other, *settings)`` of a BINARY entry: operands promoted inside one compiled kernel.

    Hyper-parameters after the two operands (``isclose``'s ``rtol``) are static: each setting gets
    its own compiled kernel, made once.
    """
    names = list(entry.signature.parameters)
    if len(entry.inputs) != 2 or names[:2] != list(entry.inputs):
        raise ValueError(f"op table: binary op {entry.name} must take two Tensor-or-number inputs first")
    op_name, floating, setting_names = entry.name, entry.dtypes == BINARY_TO_FLOAT, names[2:]
    # Compiled even when no cast is needed: one jitted call beats eager jnp (measured: 8.7 us vs
    # 10.7 us for an add of 4x4, 11 us vs 52 us for a logical_and that casts to Bool first).
    # inline=True: a traced step keeps the plain primitive (its jaxpr does not change).
    kernel = jax.jit(entry.kernel, inline=True)
    position_wise = entry.position_wise

    if setting_names:
        kernels = {}

        def run_with_settings(input, other, *values):
            settings = tuple(_static_setting(op_name, name, value) for name, value in zip(setting_names, values))
            bound = kernels.get(settings)
            if bound is None:
                bound = kernels[settings] = jax.jit(
                    functools.partial(entry.kernel, **dict(zip(setting_names, settings))), inline=True)
            return binary_call(op_name, bound, input, other, floating)

        return run_with_settings

    def run(input, other):
        if position_wise and type(input) is Tensor and type(other) is Tensor:
            # A residual add of a traced CNN stays NHWC (the CPU channels-last lowering).
            both = _channels_last_operands((input, other), (0, 1))
            if both is not None:
                return channels_last.wrap(kernel(*both))
        return binary_call(op_name, kernel, input, other, floating)

    return run


def _runner(entry):
    """``run(*values)``: the op on its arguments in signature order (Tensors in, Tensors out)."""
    if entry.dtypes in (BINARY, BINARY_TO_FLOAT):
        return _binary_runner(entry)
    names = list(entry.signature.parameters)
    inputs = [(position, name) for position, name in enumerate(names) if name in entry.inputs]
    params = [(position, name) for position, name in enumerate(names) if name not in entry.inputs]
    read = _READERS[entry.dtypes]
    op_name = entry.name
    kernel = jax.jit(entry.kernel, static_argnames=[name for _, name in params])
    position_wise = entry.position_wise
    input_positions = [position for position, _ in inputs]

    def run(*values):
        arrays = [read(op_name, name, values[position]) for position, name in inputs]
        settings = {}
        for position, name in params:
            value = static_value(values[position])
            try:
                hash(value)
            except TypeError:
                raise TypeError(f"For '{op_name}', '{name}' must be a Python number, string, bool or tuple "
                                f"(a compile-time setting), but got {describe(value)}.") from None
            settings[name] = value
        if position_wise:
            # The CPU channels-last lowering: NHWC arrays stay NHWC through a position-wise op.
            nhwc = _channels_last_operands(values, input_positions)
            if nhwc is not None:
                return channels_last.wrap(kernel(*nhwc, **settings))
        return _wrap_result(kernel(*arrays, **settings))

    return run


def _parameter_source(signature, defaults):
    """The text of a parameter list that refers to each default through ``defaults``."""
    pieces, previous = [], None
    for parameter in signature.parameters.values():
        kind = parameter.kind
        if kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            raise ValueError(f"op table: *args/**kwargs are not table signatures ({signature})")
        if previous is inspect.Parameter.POSITIONAL_ONLY and kind is not previous:
            pieces.append("/")
        if kind is inspect.Parameter.KEYWORD_ONLY and previous is not kind:
            pieces.append("*")
        text = parameter.name
        if parameter.default is not inspect.Parameter.empty:
            defaults[f"_default_{parameter.name}"] = parameter.default
            text += f"=_default_{parameter.name}"
        pieces.append(text)
        previous = kind
    if previous is inspect.Parameter.POSITIONAL_ONLY:
        pieces.append("/")
    return ", ".join(pieces)


def _make_function(name, signature, body_call, namespace, doc, module):
    parameters = _parameter_source(signature, namespace)
    arguments = ", ".join(signature.parameters)
    source = f"def {name}({parameters}):\n    return {body_call}({arguments})\n"
    exec(compile(source, f"<op table: {module}.{name}>", "exec"), namespace)
    function = namespace[name]
    function.__doc__ = doc
    function.__module__ = module
    return function


def functional(entry):
    """The functional face of ``entry``: ``ops.NAME(*tensors, **settings)``."""
    return _make_function(entry.name, entry.signature, "_run", {"_run": _runner(entry)},
                          entry.kernel.__doc__, entry.module)


def primitive_class(entry, module):
    """MindSpore's Primitive class of ``entry``: ``__init__`` takes the attributes named by
    ``entry.primitive_attrs``, ``__call__`` takes the op's other arguments in order."""
    name, function = entry.primitive, entry.function
    attributes = entry.attributes()
    set_by_init = {parameter for _, parameter, _ in attributes}
    call_names = [p for p in entry.signature.parameters if p not in set_by_init]
    pairs = [(attribute, parameter) for attribute, parameter, _ in attributes]

    def setup(self, *values):
        Primitive.__init__(self, name)
        for (attribute, _), value in zip(pairs, values):
            setattr(self, attribute, value)
            self.add_prim_attr(attribute, value)
        self.init_prim_io_names(list(entry.inputs), ["output"])

    init_signature = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(attribute, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default)
           for attribute, _, default in attributes])
    init = _make_function("__init__", init_signature, "_setup", {"_setup": setup}, None, module)
    required = len([p for p in call_names
                    if entry.signature.parameters[p].default is inspect.Parameter.empty])

    def __call__(self, *args):
        if not required <= len(args) <= len(call_names):
            count = len(call_names) if required == len(call_names) else f"{required} to {len(call_names)}"
            raise TypeError(f"{name}() takes {count} input(s) ({', '.join(call_names)}), but got {len(args)}.")
        return function(*args, **{parameter: getattr(self, attribute) for attribute, parameter in pairs})

    summary = (entry.kernel.__doc__ or name).strip().splitlines()[0]
    inputs = "\n".join(f"        - **{item}** (Tensor)." for item in call_names)
    attrs_doc = "".join(f"        {attribute} (default {default!r}).\n" for attribute, _, default in attributes)
    doc = (f"{summary}\n\n    Same as ``ops.{entry.name}``.\n\n"
           + (f"    Args:\n{attrs_doc}\n" if attributes else "")
           + f"    Inputs:\n{inputs}\n\n    Outputs:\n        Tensor.\n")
    return type(name, (Primitive,), {"__init__": init, "__call__": __call__, "__doc__": doc,
                                     "__module__": module})


def primitive_classes(entries, module):
    """``{Primitive name: class}`` for the entries that name one."""
    return {entry.primitive: primitive_class(entry, module) for entry in entries if entry.primitive}


def install_tensor_methods(entries):
    """Bind each entry's functional face as its Tensor method (``x.mish()`` is ``ops.mish(x)``)."""
    for entry in entries:
        if entry.method:
            setattr(Tensor, entry.method, entry.function)
