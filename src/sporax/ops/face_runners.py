"""How an op-table entry's kernel is compiled and called, per dtype rule: the runners behind its faces.

``runner(entry)`` gives ``run(*values)``, the op on its arguments in signature order (Tensors in, Tensors
out): one compiled dispatch per eager call, settings as static arguments. Two-operand, promoted,
single-input (the eager hot path) and general entries each have their runner; ``random_runner`` draws a
key per call, ``face_adapters.storing`` writes the result into a Parameter through the state layer, and
``lowered_runner`` picks a backend form (oneDNN, NHWC) per call.

Example:
    >>> from sporax import Tensor
    >>> from sporax.ops.op_table import TABLE
    >>> from sporax.ops.face_runners import runner
    >>> runner(TABLE["exp"])(Tensor([0.0])).asnumpy().tolist()
    [1.0]
"""
import dataclasses
import functools
import inspect

import jax
import numpy as np
from jax.core import Tracer

from sporax.core.tensor import Tensor
from sporax.ops import sparse_operands
from sporax.ops._dispatch import array_of, binary_call, promoted_arrays, wrap
from sporax.ops.face_adapters import constant_settings, one_or_many, updating
from sporax.ops.face_inputs import READERS, scalar_or, sequence_reader, setting_value
from sporax.ops.lowering import channels_last
from sporax.ops.lowering.switch import fast_lowering, plain_lowering
from sporax.ops.op_table import BINARY, BINARY_TO_FLOAT, PROMOTED, PROMOTED_TO_FLOAT, SCALAR, TO_FLOAT
from sporax.ops.random_seeds import check_seed
from sporax.state import views
from sporax.state.fallback import drop_jax_note


# What a kernel's jnp/lax calls raise for inputs the op cannot take (a complex dtype, a 0-d input to an
# op along an axis, an empty reduction without identity): re-raised naming the op.
# RuntimeError: MindSpore's own runtime checks (AvgPool's "H_out/W_out must be positive") and XLA's, passed on as
# they are; every error leaves its compiled kernel without JAX's traceback note.
_KERNEL_ERRORS = (TypeError, ValueError, IndexError, RuntimeError)


_JAX_ERRORS = (jax.errors.JAXTypeError, jax.errors.JAXIndexError, jax.errors.ConcretizationTypeError)


def named_error(op_name, error):
    """``error`` as the same type, its message prefixed with the op when it does not name it already, and without
    the note JAX's jit adds to an error raised in a kernel ("For simplicity, JAX has removed its internal frames"):
    MindSpore raises it with no note."""
    drop_jax_note(error)
    if isinstance(error, RuntimeError):
        return error
    message = str(error)
    # sporax's own errors already say which op; JAX's tracer errors must keep their type (GRAPH mode's
    # eager fallback recognises them).
    # MindSpore's own spellings name the op too: "For primitive[BiasAdd], ...", "For Dense, ..."
    if message.startswith("For ") or f"'{op_name}'" in message or isinstance(error, _JAX_ERRORS):
        return error
    # operands that do not broadcast: MindSpore's shape inference raises ValueError (JAX's jnp raises TypeError)
    kind = ValueError if isinstance(error, TypeError) and "incompatible shapes for broadcasting" in message else \
        type(error)
    return kind(f"For '{op_name}', the input is not supported: {message}")


_SPARSE_ARRAYS = sparse_operands.SPARSE_ARRAYS


def _wrap_result(result):
    if isinstance(result, tuple):
        return tuple(_wrap_one(item) for item in result)
    if isinstance(result, _SPARSE_ARRAYS):  # a kernel's COOArrays/CSRArrays: the COOTensor/CSRTensor
        return result.tensor()
    return wrap(result)


def _wrap_one(result):
    if isinstance(result, tuple):  # a several-output result beside an ``updates`` entry's new values
        return _wrap_result(result)
    return result.tensor() if isinstance(result, _SPARSE_ARRAYS) else wrap(result)


def _channels_last_operands(values, positions):
    """The NHWC arrays every Tensor operand carries (one shape and dtype), or None."""
    arrays = []
    for position in positions:
        nhwc = channels_last.nhwc_of(values[position])
        if nhwc is None or (arrays and (nhwc.shape != arrays[0].shape or nhwc.dtype != arrays[0].dtype)):
            return None
        arrays.append(nhwc)
    return arrays


def _operand(value):
    """The array of a Tensor operand as an entry's ``value_check`` gets it (before any promotion); other values as
    they are (a Python number)."""
    return value._value if isinstance(value, Tensor) else value


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
    position_wise, value_check, follows = entry.position_wise, entry.value_check, entry.zero_dim_follows

    if setting_names:
        kernels = {}

        def run_with_settings(input, other, *values):
            settings = tuple(setting_value(op_name, name, value) for name, value in zip(setting_names, values))
            bound = kernels.get(settings)
            if bound is None:
                named = dict(zip(setting_names, settings))
                bound = kernels[settings] = (
                    jax.jit(functools.partial(entry.kernel, **named), inline=True),
                    floating and (entry.float_result is None or entry.float_result(**named)))
            if value_check is not None:
                value_check(_operand(input), _operand(other), **dict(zip(setting_names, settings)))
            return binary_call(op_name, bound[0], input, other, bound[1], follows)

        return run_with_settings

    def run(input, other):
        if position_wise and type(input) is Tensor and type(other) is Tensor:
            # A residual add of a traced CNN stays NHWC (the CPU channels-last lowering).
            both = _channels_last_operands((input, other), (0, 1))
            if both is not None:
                return channels_last.wrap(kernel(*both))
        if value_check is not None:
            value_check(_operand(input), _operand(other))
        return binary_call(op_name, kernel, input, other, floating, follows)

    return run


def _to_float_kernel(kernel):
    """``kernel`` with Bool/Int inputs cast to Float32 inside the compiled program (the ``TO_FLOAT``
    rule): one dispatch per call, where an eager cast before it would be a second one."""

    @functools.wraps(kernel)
    def cast_then_run(*arrays, **settings):
        return kernel(*[array.astype(np.float32) if array.dtype.kind in "biu" else array
                        for array in arrays], **settings)

    return cast_then_run


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
    read = array_of if entry.dtypes == TO_FLOAT else READERS[entry.dtypes]

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
        chosen = {setting: setting_value(op_name, setting, choice) for (setting, _), choice in zip(settings, values)}
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
    inside one compiled kernel (settings are static, as elsewhere). Inputs with a rule of their own
    (``input_dtypes``: ``where``'s condition) are read by that rule and not promoted."""
    names = list(entry.signature.parameters)
    rules = entry.input_dtypes or {}
    inputs = [(position, name) for position, name in enumerate(names) if name in entry.inputs and name not in rules]
    own = [(position, name) for position, name in enumerate(names) if name in rules]
    params = [(position, name) for position, name in enumerate(names) if name not in entry.inputs]
    input_names, own_names = [name for _, name in inputs], [name for _, name in own]
    op_name, floating = entry.name, entry.dtypes == PROMOTED_TO_FLOAT

    def cast_then_run(*operands, dtype, settings):
        arrays = dict(zip(own_names, operands[:len(own)]))
        operands = [None if operand is None else jax.lax.convert_element_type(operand, dtype)
                    for operand in operands[len(own):]]
        return entry.kernel(**arrays, **dict(zip(input_names, operands)), **dict(zip(setting_names, settings)))

    setting_names = [name for _, name in params]
    # One compiled kernel per (dtype, settings), called positionally: a static keyword per call costs
    # more than the lookup (measured: clamp of 4x4 9.4 us -> 6.9 us).
    kernels = {}

    def run(*values):
        operands, dtype = promoted_arrays(op_name, input_names, [values[position] for position, _ in inputs])
        if floating and dtype.kind in "biu":
            dtype = np.dtype(np.float32)  # Int/Bool operands of a true division or interpolation: Float32
        key = (dtype, tuple(setting_value(op_name, name, values[position]) for position, name in params))
        kernel = kernels.get(key)
        if kernel is None:
            kernel = kernels[key] = jax.jit(functools.partial(cast_then_run, dtype=key[0], settings=key[1]),
                                            inline=entry.inline)
        if entry.value_check is not None:  # on the operands as given, before their promotion
            entry.value_check(*[_operand(values[position]) for position, _ in inputs],
                              **dict(zip(setting_names, key[1])))
        if own:
            operands = [READERS[rules[name]](op_name, name, values[position]) for position, name in own] + operands
        try:
            return _wrap_result(kernel(*operands))
        except _KERNEL_ERRORS as error:
            raise named_error(op_name, error) from None

    return run


def _python_runner(entry):
    """``run(*values)`` of a ``SCALAR`` entry: the kernel on the Python values as they are (nothing to read, wrap
    or compile). The functional face passes a ``*args`` parameter on as one tuple: it is spread again here."""
    parameters = list(entry.signature.parameters.values())
    if all(parameter.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
           for parameter in parameters):
        return entry.kernel
    kernel = entry.kernel

    def run(*values):
        positional, named = [], {}
        for parameter, value in zip(parameters, values):
            if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
                positional.extend(value)
            elif parameter.kind is inspect.Parameter.KEYWORD_ONLY:
                named[parameter.name] = value
            else:
                positional.append(value)
        return kernel(*positional, **named)

    return run


def _eager_result(result):
    """An eager kernel's result: arrays as Tensors (a tuple of arrays as a tuple of Tensors), Python values
    (a shape, a count, a dtype) as they are."""
    if isinstance(result, (jax.Array, np.ndarray)):
        return wrap(result)
    if isinstance(result, tuple) and result and all(isinstance(item, (jax.Array, np.ndarray)) for item in result):
        return tuple(wrap(item) for item in result)
    if isinstance(result, _SPARSE_ARRAYS):  # a COOArrays/CSRArrays: its sparse tensor
        return result.tensor()
    return result


def _eager_runner(entry):
    """``run(*values)`` of an ``eager`` entry: its arguments read as the general runner reads them, the kernel
    called as it is (not compiled per call: its settings vary from call to call, or it reads values)."""
    names = list(entry.signature.parameters)
    rules = entry.input_dtypes or {}
    read = READERS[entry.dtypes]
    if entry.sequences:
        read = sequence_reader(read, entry.sequences)
    readers = {name: READERS[rules[name]] if name in rules and not callable(rules[name])
               else rules.get(name, read) for name in entry.inputs}
    readers.update({name: scalar_or(readers[name]) for name in entry.scalars})
    for name in entry.inputs:
        if rules.get(name) in sparse_operands.SPARSE_RULES:  # a sparse tensor, its values read by the entry's rule
            readers[name] = sequence_reader(sparse_operands.sparse_reader(rules[name], READERS[entry.dtypes]),
                                            entry.sequences)
    optional = {name for name in entry.inputs if entry.signature.parameters[name].default is None}
    op_name, kernel, value_check = entry.name, entry.kernel, entry.value_check

    def run(*values):
        named = {}
        for name, value in zip(names, values):
            if name in readers:
                named[name] = None if value is None and name in optional else readers[name](op_name, name, value)
            else:
                named[name] = setting_value(op_name, name, value)
        if value_check is not None:
            value_check(*[named[name] for name in entry.inputs],
                        **{name: named[name] for name in names if name not in readers})
        try:
            return _eager_result(kernel(**named))
        except _KERNEL_ERRORS as error:
            raise named_error(op_name, error) from None

    return run


def runner(entry):
    """``run(*values)``: the op on its arguments in signature order (Tensors in, Tensors out)."""
    if entry.dtypes == SCALAR:
        return _python_runner(entry)
    if entry.constant_settings:
        return constant_settings(entry, runner(dataclasses.replace(entry, constant_settings=())))
    if entry.view:  # the results share the first input's storage (PyNative view ops)
        return views.sharing_storage(runner(dataclasses.replace(entry, view=False)))
    if entry.eager:
        return _eager_runner(entry)
    if entry.dtypes in (BINARY, BINARY_TO_FLOAT):
        return _binary_runner(entry)
    if entry.dtypes in (PROMOTED, PROMOTED_TO_FLOAT):
        return _promoted_runner(entry)
    if entry.one_or_many is not None:  # one Tensor goes through as a one-tuple, and comes back alone
        return one_or_many(entry, runner(dataclasses.replace(entry, one_or_many=None)))
    if entry.updates:  # the kernel's new values of its ``updates`` inputs are stored, its result returned
        return updating(entry, runner(dataclasses.replace(entry, updates=())))
    first = next(iter(entry.signature.parameters.values()))
    if (entry.inputs == (first.name,) and first.default is inspect.Parameter.empty and not entry.sequences
            and entry.value_check is None and not entry.input_dtypes and not entry.scalars):
        return _unary_runner(entry)
    names = list(entry.signature.parameters)
    inputs = [(position, name) for position, name in enumerate(names) if name in entry.inputs]
    params = [(position, name) for position, name in enumerate(names) if name not in entry.inputs]
    read = READERS[entry.dtypes]
    op_name = entry.name
    input_names = [name for _, name in inputs]
    value_check = entry.value_check

    def by_name(*arrays, **settings):
        return entry.kernel(**dict(zip(input_names, arrays)), **settings)

    # Inputs after a setting (``amax(input, axis, *, where)``) reach the kernel by name; the
    # compiled kernel still takes every array positionally (jit's fastest call).
    leading = [position for position, _ in inputs] == list(range(len(inputs))) and all(
        entry.signature.parameters[name].kind is not inspect.Parameter.KEYWORD_ONLY for name in input_names)
    kernel = jax.jit(entry.kernel if leading else by_name, static_argnames=[name for _, name in params],
                     inline=entry.inline)
    position_wise = entry.position_wise
    input_positions = [position for position, _ in inputs]
    # A Tensor input defaulting to None (``where=None``) may be left out: the kernel gets None.
    optional = {name for name in entry.inputs if entry.signature.parameters[name].default is None}
    optional.update(entry.nullable)
    if entry.sequences:
        read = sequence_reader(read, entry.sequences)
    # per-input rules (``input_dtypes``): integer indices or class targets, a Bool mask, beside a float input;
    # ``scalars`` may also be Python numbers
    rules = entry.input_dtypes or {}
    # a rule may also be a reader of its own (``ctc_loss``'s lengths: Int Tensors or tuples of ints)
    readers = {name: (rules[name] if callable(rules[name]) else READERS[rules[name]]) if name in rules else read
               for name in entry.inputs}
    readers.update({name: scalar_or(readers[name]) for name in entry.scalars})
    for name in entry.inputs:
        if rules.get(name) in sparse_operands.SPARSE_RULES:  # a sparse tensor, its values read by the entry's rule
            readers[name] = sequence_reader(sparse_operands.sparse_reader(rules[name], READERS[entry.dtypes]),
                                            entry.sequences)

    def run(*values):
        arrays = [None if values[position] is None and name in optional
                  else readers[name](op_name, name, values[position])
                  for position, name in inputs]
        settings = {}
        for position, name in params:
            settings[name] = setting_value(op_name, name, values[position])
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


def lowered_runner(entry, fast_run):
    """``run(*values)`` of an entry with backend forms (``lowering="conv"``): the fast form where
    ``fast_lowering`` allows it now, else XLA's plain form. Each form has its own compiled kernel (a jit
    keeps the form it was traced with), so ``plain_lowering()`` after a fast call still gets the plain one."""
    kernel = entry.kernel

    @functools.wraps(kernel)
    def plain_kernel(*arrays, **settings):
        with plain_lowering():
            return kernel(*arrays, **settings)

    plain_run, family = runner(dataclasses.replace(entry, kernel=plain_kernel)), entry.lowering

    def run(*values):
        return (fast_run if fast_lowering(family) else plain_run)(*values)

    return run


def random_runner(entry):
    """``run(*values)`` of a random entry (arguments in signature order, ``*size`` as one tuple): the key is
    drawn by ``entry.random`` from the ``seed`` argument, as the random ops draw it, and passed to the kernel;
    ``run.with_key(key, *values)`` runs it with a given key.

    A Tensor where the op takes one (``normal``'s ``mean``) reaches the kernel as its array; a Python number
    there, and every other argument (shapes, dtypes, seeds), as a static setting. The kernel runs as it is,
    not compiled on its own: eager draws keep the values of its separate jnp calls (one compiled kernel
    would fuse ``sample * stddev + mean`` into other roundings), and a traced one emits the same program."""
    op_name, draw_key, read = entry.name, entry.random, READERS[entry.dtypes]
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
            if name in entry.inputs and (isinstance(value, (Tensor, jax.Array, np.ndarray)) or not isinstance(
                    value, (bool, int, float, tuple, list, type(None)))):
                # a Tensor input as its array; anything but a number or a sequence is refused by the reader,
                # naming the op (``rand_like('abc')``)
                named[name] = read(op_name, name, value)
            elif name == variadic:
                named[name] = tuple(setting_value(op_name, name, item) for item in value)
            else:
                named[name] = setting_value(op_name, name, value)
        positional = [named.pop(name) for name in leading]
        if variadic:
            positional = positional[:-1] + list(positional[-1])
        try:
            return _wrap_result(entry.kernel(*positional, key=key, **named))
        except _KERNEL_ERRORS as error:
            raise named_error(op_name, error) from None

    draws = entry.draws

    def run(*values):
        seed = None if seed_position is None else values[seed_position]
        check_seed(op_name, seed)
        if draws is not None and not draws(*values):
            return with_key(None, *values)
        return with_key(draw_key(seed), *values)

    run.with_key = with_key
    return run
