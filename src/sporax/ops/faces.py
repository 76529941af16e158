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
import dataclasses
import functools
import inspect
import numbers

import jax
import jax.numpy as jnp
import numpy as np
from jax.core import Tracer

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import (array_of, binary_call, describe, float_array_of, numeric_array_of,
                                  promoted_arrays, wrap)
from sporax.ops.lowering import channels_last
from sporax.ops.op_table import (ANY, BINARY, BINARY_TO_FLOAT, CREATION, FLOAT, NUMBER, PROMOTED,
                                 PROMOTED_TO_FLOAT, TO_FLOAT)
from sporax.ops.op_table import INDEX, INEXACT, MASK, SPECTRAL
from sporax.ops.lowering.switch import fast_lowering, plain_lowering
from sporax.ops.primitive import Primitive
from sporax.state.assign import write
from sporax.state.fallback import UntraceableError


def float_input(op_name, arg_name, value):
    """The array of a Tensor argument that must have a float dtype."""
    array = array_of(op_name, arg_name, value)
    if array.dtype.kind != "f" and array.dtype.name != "bfloat16":
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a floating-point Tensor (Float16, "
                        f"Float32, Float64 or BFloat16), but got {describe(value)}; cast it first, e.g. "
                        "ops.cast(x, mindspore.float32).")
    return array


_READERS = {FLOAT: float_input, NUMBER: numeric_array_of, ANY: array_of, TO_FLOAT: float_array_of}
_READERS[CREATION] = array_of  # a creation op has no Tensor input to read


def inexact_input(op_name, arg_name, value):
    """The array of a Tensor argument that must be float or complex (the ``INEXACT`` rule)."""
    array = array_of(op_name, arg_name, value)
    if array.dtype.kind not in "fcV":
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a float or complex Tensor, but got "
                        f"{describe(value)}; cast it first, e.g. ops.cast(x, mindspore.float32).")
    return array


_READERS[INEXACT] = inexact_input


def index_input(op_name, arg_name, value):
    """The array of an integer index argument: an Int Tensor, or Python ints and lists of ints (Int64)."""
    if isinstance(value, (list, tuple, numbers.Integral)) and not isinstance(value, bool):
        return jnp.asarray(value, np.int64)
    array = array_of(op_name, arg_name, value)
    if array.dtype.kind not in "iu":
        raise TypeError(f"For '{op_name}', '{arg_name}' must be an integer Tensor (Int32 or Int64), "
                        f"but got {describe(value)}; cast it first, e.g. x.astype(mindspore.int32).")
    return array


def mask_input(op_name, arg_name, value):
    """The array of a Bool mask argument."""
    array = array_of(op_name, arg_name, value)
    if array.dtype != np.bool_:
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a Bool Tensor, but got {describe(value)}; "
                        "make one with a comparison, e.g. x > 0.")
    return array


_READERS[INDEX] = index_input
_READERS[MASK] = mask_input


def _scalar_or(read):
    """A reader that passes Python numbers through (jit takes them as weakly typed 0-d arrays)."""
    def read_scalar_or_tensor(op_name, arg_name, value):
        if type(value) in (bool, int, float):
            return value
        return read(op_name, arg_name, value)
    return read_scalar_or_tensor


def spectral_input(op_name, arg_name, value):
    """The array of a Fourier transform's input (the ``SPECTRAL`` rule): a number Tensor, computed in Float32
    unless it is Float32, Float64 or complex."""
    array = numeric_array_of(op_name, arg_name, value)
    if array.dtype.kind in "iu" or array.dtype.kind in "fV" and array.dtype.itemsize < 4:
        return array.astype(np.float32)
    return array


_READERS[SPECTRAL] = spectral_input


def static_value(op_name, name, value):
    """A hyper-parameter as a hashable Python value: a concrete 0-d Tensor is read once, a 1-d one
    (``Tensor([0, 2])`` as an axis) and lists become tuples (they are keys of the compiled kernel's
    cache). A Tensor computed inside a compiled function cannot be a setting: the function runs
    eagerly instead (``UntraceableError``), where its value is known."""
    if isinstance(value, Tensor):
        array = value._value
        if isinstance(array, jax.core.Tracer):
            raise UntraceableError(f"For '{op_name}', '{name}' must be known when the op is compiled, but got a "
                                   "Tensor computed inside the compiled function; pass a Python value.")
        if array.ndim > 1:
            raise TypeError(f"For '{op_name}', '{name}' must be a Python number, string, bool or tuple (a "
                            f"compile-time setting), but got {describe(value)}.")
        return tuple(np.asarray(array).tolist()) if array.ndim else np.asarray(array).item()
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


_PLAIN_SETTINGS = frozenset((int, float, bool, str, type(None)))


# What a kernel's jnp/lax calls raise for inputs the op cannot take (a complex dtype, a 0-d input to an
# op along an axis, an empty reduction without identity): re-raised naming the op.
_KERNEL_ERRORS = (TypeError, ValueError, IndexError)
_JAX_ERRORS = (jax.errors.JAXTypeError, jax.errors.JAXIndexError, jax.errors.ConcretizationTypeError)


def named_error(op_name, error):
    """``error`` as the same type, its message prefixed with the op when it does not name it already."""
    message = str(error)
    # sporax's own errors already say which op; JAX's tracer errors must keep their type (GRAPH mode's
    # eager fallback recognises them).
    if message.startswith("For '") or f"'{op_name}'" in message or isinstance(error, _JAX_ERRORS):
        return error
    return type(error)(f"For '{op_name}', the input is not supported: {message}")


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
            settings = tuple(_setting(op_name, name, value) for name, value in zip(setting_names, values))
            bound = kernels.get(settings)
            if bound is None:
                named = dict(zip(setting_names, settings))
                bound = kernels[settings] = (
                    jax.jit(functools.partial(entry.kernel, **named), inline=True),
                    floating and (entry.float_result is None or entry.float_result(**named)))
            return binary_call(op_name, bound[0], input, other, bound[1])

        return run_with_settings

    def run(input, other):
        if position_wise and type(input) is Tensor and type(other) is Tensor:
            # A residual add of a traced CNN stays NHWC (the CPU channels-last lowering).
            both = _channels_last_operands((input, other), (0, 1))
            if both is not None:
                return channels_last.wrap(kernel(*both))
        return binary_call(op_name, kernel, input, other, floating)

    return run


def _to_float_kernel(kernel):
    """``kernel`` with Bool/Int inputs cast to Float32 inside the compiled program (the ``TO_FLOAT``
    rule): one dispatch per call, where an eager cast before it would be a second one."""

    @functools.wraps(kernel)
    def cast_then_run(*arrays, **settings):
        return kernel(*[array.astype(np.float32) if array.dtype.kind in "biu" else array
                        for array in arrays], **settings)

    return cast_then_run


def _setting(op_name, name, value):
    """Hyper-parameter ``name`` as a static argument of the compiled kernel (hashable), or a TypeError."""
    if type(value) in _PLAIN_SETTINGS:  # plain Python values need no conversion or check
        return value
    value = static_value(op_name, name, value)
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"For '{op_name}', '{name}' must be a Python number, string, bool or tuple "
                        f"(a compile-time setting), but got {describe(value)}.") from None
    return value


def _unary_runner(entry):
    """``run(input, *settings)`` of an entry whose one Tensor argument comes first (``exp``,
    ``round(input, *, decimals)``): the eager hot path, so it does only what such an op needs.

    When every setting has a default, ``run.at_defaults(input)`` is the op with the settings left
    at their defaults, compiled with them: the functional face calls it when they are.
    """
    (name,) = entry.inputs
    op_name, position_wise = entry.name, entry.position_wise
    settings = [(setting, parameter.default) for setting, parameter in entry.signature.parameters.items()
                if setting != name]
    kernel = _to_float_kernel(entry.kernel) if entry.dtypes == TO_FLOAT else entry.kernel
    read = array_of if entry.dtypes == TO_FLOAT else _READERS[entry.dtypes]

    def alone(compiled):
        """``run(input)`` of a kernel whose settings are fixed."""

        def run(value):
            array = read(op_name, name, value)
            # The CPU channels-last lowering: an NHWC array stays NHWC through a position-wise op.
            # Only a traced Tensor carries one, so an eager call skips the (slower) slot lookup.
            if position_wise and isinstance(array, Tracer):
                nhwc = channels_last.nhwc_of(value)
                if nhwc is not None:
                    return channels_last.wrap(compiled(nhwc))
            try:
                result = compiled(array)
            except _KERNEL_ERRORS as error:
                raise named_error(op_name, error) from None
            return wrap(result) if type(result) is not tuple else _wrap_result(result)

        return run

    if not settings:
        return alone(jax.jit(kernel, inline=entry.inline))
    compiled = jax.jit(kernel, static_argnames=[setting for setting, _ in settings], inline=entry.inline)

    def run(value, *values):
        array = read(op_name, name, value)
        chosen = {setting: _setting(op_name, setting, choice) for (setting, _), choice in zip(settings, values)}
        if position_wise and isinstance(array, Tracer):
            nhwc = channels_last.nhwc_of(value)
            if nhwc is not None:
                return channels_last.wrap(compiled(nhwc, **chosen))
        try:
            return _wrap_result(compiled(array, **chosen))
        except _KERNEL_ERRORS as error:
            raise named_error(op_name, error) from None

    if all(default is not inspect.Parameter.empty for _, default in settings):
        run.at_defaults = alone(jax.jit(functools.partial(kernel, **dict(settings)), inline=entry.inline))
    return run


def _promoted_runner(entry):
    """``run(*values)`` of a ``PROMOTED`` entry: its Tensor-or-number inputs cast to their common dtype
    inside one compiled kernel (settings are static, as elsewhere)."""
    names = list(entry.signature.parameters)
    inputs = [(position, name) for position, name in enumerate(names) if name in entry.inputs]
    params = [(position, name) for position, name in enumerate(names) if name not in entry.inputs]
    input_names = [name for _, name in inputs]
    op_name, floating = entry.name, entry.dtypes == PROMOTED_TO_FLOAT

    def cast_then_run(*operands, dtype, settings):
        operands = [None if operand is None else jax.lax.convert_element_type(operand, dtype)
                    for operand in operands]
        return entry.kernel(**dict(zip(input_names, operands)), **dict(zip(setting_names, settings)))

    setting_names = [name for _, name in params]
    # One compiled kernel per (dtype, settings), called positionally: a static keyword per call costs
    # more than the lookup (measured: clamp of 4x4 9.4 us -> 6.9 us).
    kernels = {}

    def run(*values):
        operands, dtype = promoted_arrays(op_name, input_names, [values[position] for position, _ in inputs])
        if floating and dtype.kind in "biu":
            dtype = np.dtype(np.float32)  # Int/Bool operands of a true division or interpolation: Float32
        key = (dtype, tuple(_setting(op_name, name, values[position]) for position, name in params))
        kernel = kernels.get(key)
        if kernel is None:
            kernel = kernels[key] = jax.jit(functools.partial(cast_then_run, dtype=key[0], settings=key[1]))
        try:
            return _wrap_result(kernel(*operands))
        except _KERNEL_ERRORS as error:
            raise named_error(op_name, error) from None

    return run


def _runner(entry):
    """``run(*values)``: the op on its arguments in signature order (Tensors in, Tensors out)."""
    if entry.dtypes in (BINARY, BINARY_TO_FLOAT):
        return _binary_runner(entry)
    if entry.dtypes in (PROMOTED, PROMOTED_TO_FLOAT):
        return _promoted_runner(entry)
    first = next(iter(entry.signature.parameters.values()))
    if (entry.inputs == (first.name,) and first.default is inspect.Parameter.empty and not entry.sequences
            and entry.value_check is None and not entry.input_dtypes and not entry.scalars):
        return _unary_runner(entry)
    names = list(entry.signature.parameters)
    inputs = [(position, name) for position, name in enumerate(names) if name in entry.inputs]
    params = [(position, name) for position, name in enumerate(names) if name not in entry.inputs]
    read = _READERS[entry.dtypes]
    op_name = entry.name
    input_names = [name for _, name in inputs]
    value_check = entry.value_check

    def by_name(*arrays, **settings):
        return entry.kernel(**dict(zip(input_names, arrays)), **settings)

    # Inputs after a setting (``amax(input, axis, *, where)``) reach the kernel by name; the
    # compiled kernel still takes every array positionally (jit's fastest call).
    leading = [position for position, _ in inputs] == list(range(len(inputs)))
    kernel = jax.jit(entry.kernel if leading else by_name, static_argnames=[name for _, name in params],
                     inline=entry.inline)
    position_wise = entry.position_wise
    input_positions = [position for position, _ in inputs]
    # A Tensor input defaulting to None (``where=None``) may be left out: the kernel gets None.
    optional = {name for name in entry.inputs if entry.signature.parameters[name].default is None}
    if entry.sequences:
        read = _sequence_reader(read, entry.sequences)
    # per-input rules (``input_dtypes``): integer indices or class targets, a Bool mask, beside a float input;
    # ``scalars`` may also be Python numbers
    rules = entry.input_dtypes or {}
    readers = {name: _READERS[rules[name]] if name in rules else read for name in entry.inputs}
    readers.update({name: _scalar_or(readers[name]) for name in entry.scalars})

    def run(*values):
        arrays = [None if values[position] is None and name in optional
                  else readers[name](op_name, name, values[position])
                  for position, name in inputs]
        settings = {}
        for position, name in params:
            settings[name] = _setting(op_name, name, values[position])
        if value_check is not None:
            value_check(*arrays, **settings)
        if position_wise and arrays and isinstance(arrays[0], Tracer):
            # The CPU channels-last lowering: NHWC arrays stay NHWC through a position-wise op (only
            # traced Tensors carry them; all operands must, so the first one decides).
            nhwc = _channels_last_operands(values, input_positions)
            if nhwc is not None:
                return channels_last.wrap(kernel(*nhwc, **settings))
        try:
            return _wrap_result(kernel(*arrays, **settings))
        except _KERNEL_ERRORS as error:
            raise named_error(op_name, error) from None

    return run


def _sequence_reader(read, sequences):
    """``read`` for an entry with Tensor-list inputs: each of ``sequences`` becomes a tuple of arrays."""

    def read_input(op_name, name, value):
        if name not in sequences:
            return read(op_name, name, value)
        if not isinstance(value, (tuple, list)) or not value:
            raise TypeError(f"For '{op_name}', '{name}' must be a non-empty tuple or list of Tensors, "
                            f"but got {describe(value)}.")
        return tuple(read(op_name, f"{name}[{index}]", item) for index, item in enumerate(value))

    return read_input


def _parameter_source(signature, defaults):
    """The text of a parameter list that refers to each default through ``defaults``."""
    pieces, previous = [], None
    for parameter in signature.parameters.values():
        kind = parameter.kind
        if kind is inspect.Parameter.VAR_KEYWORD:
            raise ValueError(f"op table: **kwargs are not table signatures ({signature})")
        if previous is inspect.Parameter.POSITIONAL_ONLY and kind is not previous:
            pieces.append("/")
        if kind is inspect.Parameter.KEYWORD_ONLY and previous not in (kind, inspect.Parameter.VAR_POSITIONAL):
            pieces.append("*")
        # ``rand(*size)``: the body passes ``size`` on as one tuple (only random entries take it)
        text = ("*" if kind is inspect.Parameter.VAR_POSITIONAL else "") + parameter.name
        if parameter.default is not inspect.Parameter.empty:
            defaults[f"_default_{parameter.name}"] = parameter.default
            text += f"=_default_{parameter.name}"
        pieces.append(text)
        previous = kind
    if previous is inspect.Parameter.POSITIONAL_ONLY:
        pieces.append("/")
    return ", ".join(pieces)


def make_function(name, signature, body_call, namespace, doc, module, defaults_call=None):
    """``def name(<signature>): return body_call(<arguments>)``; with ``defaults_call``, a call
    whose settings are all their defaults (by identity: one test each) is ``defaults_call(input)``."""
    parameters = _parameter_source(signature, namespace)
    arguments = ", ".join(signature.parameters)
    source = f"def {name}({parameters}):\n"
    if defaults_call is not None:
        first, *settings = signature.parameters
        untouched = " and ".join(f"{setting} is _default_{setting}" for setting in settings)
        source += f"    if {untouched}:\n        return {defaults_call}({first})\n"
    source += f"    return {body_call}({arguments})\n"
    exec(compile(source, f"<op table: {module}.{name}>", "exec"), namespace)
    function = namespace[name]
    function.__doc__ = doc
    function.__module__ = module
    return function


def renamed(name, target, parameters, doc, module):
    """``def name(*parameters): return target(*parameters)``: a MindSpore name of its own (``ops.floordiv``,
    ``ops.tensor_add``) for an op sporax has under another name, with MindSpore's parameter names."""
    signature = inspect.Signature([inspect.Parameter(parameter, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                   for parameter in parameters])
    return make_function(name, signature, "_target", {"_target": target}, doc, module)


def _lowered_runner(entry, fast_run):
    """``run(*values)`` of an entry with backend forms (``lowering="conv"``): the fast form where
    ``fast_lowering`` allows it now, else XLA's plain form. Each form has its own compiled kernel (a jit
    keeps the form it was traced with), so ``plain_lowering()`` after a fast call still gets the plain one."""
    kernel = entry.kernel

    @functools.wraps(kernel)
    def plain_kernel(*arrays, **settings):
        with plain_lowering():
            return kernel(*arrays, **settings)

    plain_run, family = _runner(dataclasses.replace(entry, kernel=plain_kernel)), entry.lowering

    def run(*values):
        return (fast_run if fast_lowering(family) else plain_run)(*values)

    return run


def _storing(entry, run):
    """``run`` that stores its result into the input ``entry.writes`` (in place) and returns that input."""
    name, op_name = entry.writes, entry.name
    position = list(entry.signature.parameters).index(name)

    def run_and_store(*values):
        if not isinstance(values[position], Tensor):
            raise TypeError(f"For '{op_name}', '{name}' must be a Parameter (it is updated in place), but got "
                            f"{describe(values[position])}.")
        return write(values[position], run(*values), op_name)

    return run_and_store


def _random_runner(entry):
    """``run(*values)`` of a random entry (arguments in signature order, ``*size`` as one tuple): the key is
    drawn by ``entry.random`` from the ``seed`` argument, as the random ops draw it, and passed to the kernel;
    ``run.with_key(key, *values)`` runs it with a given key.

    A Tensor where the op takes one (``normal``'s ``mean``) reaches the kernel as its array; a Python number
    there, and every other argument (shapes, dtypes, seeds), as a static setting. The kernel runs as it is,
    not compiled on its own: eager draws keep the values of its separate jnp calls (one compiled kernel
    would fuse ``sample * stddev + mean`` into other roundings), and a traced one emits the same program.
    """
    op_name, draw_key, read = entry.name, entry.random, _READERS[entry.dtypes]
    parameters = list(entry.signature.parameters.values())
    names = [parameter.name for parameter in parameters]
    variadic = next((parameter.name for parameter in parameters
                     if parameter.kind is inspect.Parameter.VAR_POSITIONAL), None)
    # Arguments up to ``*size`` go to the kernel positionally, the others by name.
    leading = names[:names.index(variadic) + 1] if variadic else []
    seed_position = names.index("seed") if "seed" in names else None

    def with_key(key, *values):
        named = {}
        for name, value in zip(names, values):
            if name in entry.inputs and isinstance(value, (Tensor, jax.Array, np.ndarray)):
                named[name] = read(op_name, name, value)
            elif name == variadic:
                named[name] = tuple(_setting(op_name, name, item) for item in value)
            else:
                named[name] = _setting(op_name, name, value)
        positional = [named.pop(name) for name in leading]
        if variadic:
            positional = positional[:-1] + list(positional[-1])
        try:
            return _wrap_result(entry.kernel(*positional, key=key, **named))
        except _KERNEL_ERRORS as error:
            raise named_error(op_name, error) from None

    def run(*values):
        return with_key(draw_key(None if seed_position is None else values[seed_position]), *values)

    run.with_key = with_key
    return run


def functional(entry):
    """The functional face of ``entry``: ``ops.NAME(*tensors, **settings)``."""
    if entry.random is not None:
        run = _random_runner(entry)
        function = make_function(entry.name, entry.signature, "_run", {"_run": run}, entry.kernel.__doc__,
                                 entry.module)
        function.with_key = run.with_key
        return function
    run = _runner(entry) if entry.writes is None else _storing(entry, _runner(entry))
    at_defaults = getattr(run, "at_defaults", None)
    if entry.lowering:
        run, at_defaults = _lowered_runner(entry, run), None
    return make_function(entry.name, entry.signature, "_run", {"_run": run, "_run_at_defaults": at_defaults},
                          entry.kernel.__doc__, entry.module, at_defaults and "_run_at_defaults")


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
        self.init_prim_io_names(entry.inputs, ["output"])

    def init_without_attributes(self):
        Primitive.__init__(self, name)
        self.init_prim_io_names(entry.inputs, ["output"])

    init_without_attributes.__qualname__ = f"{name}.__init__"  # errors read ``Exp.__init__() takes ...``

    init_signature = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(attribute, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default)
           for attribute, _, default in attributes])
    # ``ops.Exp()`` is often built inside ``construct``, on every call: no wrapper to go through.
    init = (make_function("__init__", init_signature, "_setup", {"_setup": setup}, None, module) if pairs
            else init_without_attributes)
    required = len([p for p in call_names
                    if entry.signature.parameters[p].default is inspect.Parameter.empty])
    # Call inputs the op takes by keyword only (``Round()(x, decimals)``: ``ops.round(x, *, decimals)``).
    positional = len([p for p in call_names
                      if entry.signature.parameters[p].kind is not inspect.Parameter.KEYWORD_ONLY])

    def __call__(self, *args):
        if not required <= len(args) <= len(call_names):
            count = len(call_names) if required == len(call_names) else f"{required} to {len(call_names)}"
            raise TypeError(f"{name}() takes {count} input(s) ({', '.join(call_names)}), but got {len(args)}.")
        settings = {parameter: getattr(self, attribute) for attribute, parameter in pairs}
        settings.update(zip(call_names[positional:], args[positional:]))
        return function(*args[:positional], **settings)

    def call_inputs(self, *args):
        """``Exp()(x)``: the op's own call, when the Primitive has no attributes (the eager hot path)."""
        if len(args) == len(call_names):
            return function(*args)
        return __call__(self, *args)  # fewer inputs: their defaults, or the error naming them

    summary = (entry.kernel.__doc__ or name).strip().splitlines()[0]
    inputs = "\n".join(f"        - **{item}** (Tensor)." for item in call_names)
    attrs_doc = "".join(f"        {attribute} (default {default!r}).\n" for attribute, _, default in attributes)
    doc = (f"{summary}\n\n    Same as ``ops.{entry.name}``.\n\n"
           + (f"    Args:\n{attrs_doc}\n" if attributes else "")
           + f"    Inputs:\n{inputs}\n\n    Outputs:\n        Tensor.\n")
    plain = not pairs and positional == len(call_names)
    return type(name, (Primitive,), {"__init__": init, "__call__": call_inputs if plain else __call__,
                                     "__doc__": doc, "__module__": module})


def primitive_classes(entries, module):
    """``{Primitive name: class}`` for the entries that name one."""
    return {entry.primitive: primitive_class(entry, module) for entry in entries if entry.primitive}


def install_tensor_methods(entries):
    """Bind each entry's functional face as its Tensor method(s) (``x.mish()`` is ``ops.mish(x)``;
    ``x.acos()`` and ``x.arccos()`` are ``ops.acos(x)``)."""
    for entry in entries:
        for method in entry.methods:
            setattr(Tensor, method, entry.function)
