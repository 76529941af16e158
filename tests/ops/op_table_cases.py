"""Shared cases and checks of the op test table (``sporax.ops.op_table``), run by its test files.

The files, split so that a file's compiled kernels are reused by the checks after it in the same worker:

- ``test_op_table.py``: float32 values against the NumPy reference and every face agreeing (PyNative,
  compiled, Cells), the table's own bookkeeping;
- ``test_op_table_half_precision.py``: the same values and PyNative faces in float16 (bfloat16: slow set);
- ``test_op_table_gradients_and_dtypes.py``: gradients against finite differences, dtype rules, promotion;
- ``test_op_table_random.py``: random ops, face by face under one seed and against their Distribution.

A sample operand may be a Python number (``binary()``'s last sample): it is passed as is, not as a Tensor, so
the Tensor-and-scalar path of every face is checked too. A sparse operand (a ``COOArrays``/``CSRArrays``
record of NumPy components in a sample) is passed as its COOTensor/CSRTensor, and a sparse output compares as
its dense form. An op with several outputs (``max`` gives values and indices) is checked output by output.
"""
import ast
import importlib
import inspect
import itertools

import jax
import ml_dtypes
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor
from sporax.core import dtype as mstype
from sporax.core.sparse import SparseTensorBase
from sporax.mint.spellings import SPELLED
from sporax.ops import op_table
from sporax.ops.sparse_operands import SPARSE_ARRAYS, dense_of, record_of
from sporax.state.fallback import is_untraceable

# Ops of Python values (``scalar_add``, ``tuple_getitem``: the SCALAR rule) have no Tensor faces to compare: their
# values, Primitives and compiled use are checked in tests/ops/test_python_value_ops.py.
ENTRIES = [entry for entry in op_table.entries()
           if entry.samples is not None and entry.random is None and entry.dtypes != op_table.SCALAR]
# Random ops draw from the global random state: checked against their Distribution, and face by face
# under one seed (``test_op_table_random.py``).
RANDOM_ENTRIES = [entry for entry in op_table.entries() if entry.samples is not None and entry.random is not None]
DTYPES = ("float32", "float16", "bfloat16")
TOLERANCE = {"float32": (1e-5, 1e-5), "float16": (2e-3, 2e-3), "bfloat16": (1.6e-2, 1.6e-2),
             "float64": (1e-10, 1e-10)}
MINT_MODULES = ("sporax.mint", "sporax.mint.nn.functional")
CELL_MODULES = {"nn": "sporax.nn", "mint.nn": "sporax.mint.nn"}


def entry_id(entry):
    return entry.name


def numpy_of(value):
    if isinstance(value, SparseTensorBase):  # a COOTensor/CSRTensor output compares as its dense form
        return dense_of(record_of(value))
    return np.asarray(value.asnumpy() if isinstance(value, Tensor) else value)


def outputs_of(value):
    """The outputs of an op as a list (one for a single Tensor)."""
    return list(value) if isinstance(value, tuple) else [value]


def as_float64(array):
    array = np.asarray(array)
    # complex results (Fourier transforms) compare as complex128
    return array.astype(np.complex128) if array.dtype.kind == "c" else np.asarray(array, np.float64)


def tensor_of(array):
    """An operand as the faces take it: an array as a Tensor, a tuple of arrays (``concat``'s input)
    as a tuple of Tensors, a Python number as it is, a ``COOArrays``/``CSRArrays`` as its sparse tensor."""
    if isinstance(array, SPARSE_ARRAYS):
        return array.tensor()
    if isinstance(array, tuple):
        return tuple(item.tensor() if isinstance(item, SPARSE_ARRAYS) else Tensor(item) for item in array)
    return array if isinstance(array, (bool, int, float)) else Tensor(array)


def tensors_of(sample):
    """The sample's operands as the faces take them."""
    return [tensor_of(array) for array in sample.arrays]


def call_op(entry, tensors, kwargs):
    """The functional face on Tensor inputs given in ``entry.inputs`` order (they need not come first
    in the signature: ``SparseTensorDenseMatmul``'s shape sits between its Tensors); a ``*inputs`` input
    (``meshgrid``) takes them all, positionally."""
    first = entry.signature.parameters[entry.inputs[0]] if entry.inputs else None
    if first is not None and first.kind is inspect.Parameter.VAR_POSITIONAL:
        return entry.function(*tensors, **kwargs)
    return entry.function(**dict(zip(entry.inputs, tensors)), **kwargs)


def reference_of(entry, arrays, kwargs, dtype="float32"):
    """The NumPy reference takes the Tensor inputs first, positionally, then the settings (and the sample's
    dtype name for an entry whose answer depends on the dtype alone: ``reference_dtype``)."""
    if entry.reference_dtype:
        return entry.reference(*arrays, **kwargs, dtype=dtype)
    return entry.reference(*arrays, **kwargs)


def float64_of(array):
    """Float inputs in float64 for the reference; integer inputs (indices) and Python numbers as they are."""
    if isinstance(array, (bool, int, float)):
        return array
    if isinstance(array, tuple):
        return tuple(float64_of(item) for item in array)
    if isinstance(array, SPARSE_ARRAYS):  # a sparse operand: its values
        return array.with_values(float64_of(array.values))
    array = np.asarray(array)
    return array if array.dtype.kind in "biu" else as_float64(array)



def assert_close(actual, expected, dtype, what):
    if isinstance(actual, mstype.Type):  # a dtype answer (``ops.dtype``): the NumPy dtype it stands for
        assert np.dtype(mstype.dtype_to_nptype(actual)) == np.dtype(getattr(ml_dtypes, expected, expected)), what
        return
    if isinstance(actual, (tuple, list)):
        assert len(actual) == len(expected), f"{what}: {len(actual)} outputs, the reference {len(expected)}"
        for index, (one, reference) in enumerate(zip(actual, expected)):
            assert_close(one, reference, dtype, f"{what}, output {index}")
        return
    rtol, atol = TOLERANCE[dtype]
    if np.iscomplexobj(expected) or numpy_of(actual).dtype.kind == "c":
        # computed in Float32 at least (the SPECTRAL rule): the reference is not rounded to the input dtype
        np.testing.assert_allclose(as_float64(numpy_of(actual)), as_float64(expected), rtol=rtol, atol=atol,
                                   err_msg=what)
        return
    actual = as_float64(numpy_of(actual).astype(np.float64) if numpy_of(actual).dtype == ml_dtypes.bfloat16
                         else numpy_of(actual))
    # The reference sees the rounded input; its result is rounded to the dtype once more.
    expected = as_float64(np.asarray(expected).astype(np.dtype(getattr(ml_dtypes, dtype, dtype)))
                           .astype(np.float64))
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=what)


def cases(dtypes=DTYPES):
    for entry in ENTRIES:
        for dtype in dtypes:
            if entry.samples(dtype):  # integer-only ops (bitwise) have samples for float32 alone
                # bfloat16 repeats float16's check at another rounding and compiles every op once more
                # (a sixth of the table's time): it runs with the slow set
                marks = [pytest.mark.slow] if dtype == "bfloat16" else []
                yield pytest.param(entry, dtype, id=f"{entry.name}-{dtype}", marks=marks)


def samples_of(entry, dtype):
    """Every sample in float32; the first in the half-precision dtypes. Each (shape, dtype) compiles its own
    kernel, the dominant cost of this table (about 3500 cases): rounding is what the half dtypes add, and one
    sample per dtype shows it, while the settings and shapes are covered in float32."""
    samples = entry.samples(dtype)
    return samples if dtype in ("float32", "float64") else samples[:1]


def check_functional_matches_reference(entry, dtype):
    """The functional op in PyNative matches the entry's NumPy reference (computed in float64) within the dtype's
    tolerance, for each of ``samples_of(entry, dtype)``."""
    for sample in samples_of(entry, dtype):
        expected = reference_of(entry, [float64_of(array) for array in sample.arrays], sample.kwargs, dtype)
        eager = call_op(entry, tensors_of(sample), sample.kwargs)
        assert_close(eager, expected, dtype, f"{entry.name} PyNative, settings {sample.kwargs}")
        if entry.reference_dtype and isinstance(eager, Tensor):  # a constant of the dtype (``eps``): exactly it
            np.testing.assert_array_equal(numpy_of(eager).astype(np.float64), expected, err_msg=entry.name)


def check_faces_agree_in_pynative(entry, dtype):
    """Every face in PyNative gives exactly the functional op's values and dtypes (one kernel: faces cannot
    diverge)."""
    for sample in samples_of(entry, dtype):
        expected = [numpy_of(output) for output in outputs_of(call_op(entry, tensors_of(sample), sample.kwargs))]
        for name, face in faces_of(entry, sample):
            actual = [numpy_of(output) for output in outputs_of(face(*tensors_of(sample)))]
            assert [a.dtype for a in actual] == [e.dtype for e in expected], f"{name} gave other dtypes than the op"
            for one, reference in zip(actual, expected):
                np.testing.assert_array_equal(one, reference, err_msg=f"{name} differs from ops.{entry.name}")


def primitive_call(entry, sample):
    """``Primitive(**attrs)(*call_inputs)`` for the sample (settings that are not attributes are call
    inputs, in signature order), or None when a call input has no value."""
    primitive = getattr(ms.ops, entry.primitive, None) if entry.primitive else None
    if primitive is None:  # no Primitive, or an internal one (Rolling: a user class of its name runs the entry)
        return None
    by_parameter = {parameter: attribute for attribute, parameter, _ in entry.attributes()}
    attrs = {by_parameter[key]: value for key, value in sample.kwargs.items() if key in by_parameter}
    call_names = [name for name in entry.signature.parameters if name not in by_parameter]
    settings = {name: sample.kwargs.get(name, entry.signature.parameters[name].default)
                for name in call_names if name not in entry.inputs}
    if any(value is inspect.Parameter.empty for value in settings.values()):
        return None

    def call(*tensors):
        named = dict(zip(entry.inputs, tensors), **settings)
        values = [named.get(name, entry.signature.parameters[name].default) for name in call_names]
        while values and values[-1] is None and named.get(call_names[len(values) - 1]) is None:
            values.pop()  # trailing optional inputs left out (``where=None``)
        return primitive(**attrs)(*values)

    return call


def faces_of(entry, sample):
    """``(name, callable)`` of every face of ``entry`` that can take ``sample``'s settings."""
    faces = [("functional", lambda *tensors: call_op(entry, tensors, sample.kwargs))]
    primitive = primitive_call(entry, sample)
    if primitive is not None:
        faces.append((f"ops.{entry.primitive}", primitive))
    # Inputs after a setting (``gather_elements(input, dim, index)``) go to the method by name.
    leading = list(entry.signature.parameters)[:len(entry.inputs)] == list(entry.inputs)
    for method in entry.methods:
        faces.append((f"Tensor.{method}",
                      lambda first, *rest, method=method: getattr(first, method)(*rest, **sample.kwargs) if leading
                      else getattr(first, method)(**dict(zip(entry.inputs[1:], rest)), **sample.kwargs)))
    return faces + mint_faces(entry, sample, spelled_call)


def mint_faces(entry, sample, spelled):
    """``(name, callable)`` of ``entry``'s ``mint`` functions and PyTorch spellings that can take ``sample``'s
    settings (``spelled(entry, row, sample)``: a spelling row's call, or None)."""
    faces = []
    for module_name in MINT_MODULES:
        for name in entry.mint:
            function = getattr(importlib.import_module(module_name), name, None)
            if function is not None:
                faces.append((f"{module_name}.{name}", lambda *args, f=function: f(*args, **sample.kwargs)))
    for row in entry.spellings:
        call = spelled(entry, row, sample)
        if call is not None:
            faces.append((f"{row.namespaces[0]}.{row.name} (spelling)", call))
    return faces


def spelled_call(entry, row, sample):
    """The spelling ``row``'s face called with ``sample``'s inputs and settings under the face's own names (each
    entry argument goes to the one face parameter its expression reads), or None when the sample sets a value
    the spelling fixes otherwise (``count_nonzero``'s dtype) or passes no way."""
    function = SPELLED[row.namespaces[0]][row.name]
    own = inspect.signature(function).parameters
    given = dict(row.arguments)

    def read_by(expression):
        names = {node.id for node in ast.walk(ast.parse(expression)) if isinstance(node, ast.Name)}
        return [face_name for face_name in own if face_name in names]

    # The face names the inputs arrive by: a setting's expression may read them too (softmax's implicit dim).
    input_faces = {name if name in read_by(given.get(name, name)) else (read_by(given.get(name, name)) or [None])[0]
                   for name in entry.inputs}
    candidates, positional, checks = {}, [], []
    for name, parameter in entry.signature.parameters.items():
        if name in entry.inputs and entry.inputs.index(name) >= len(sample.arrays) and name not in sample.kwargs:
            continue  # an optional Tensor input the sample leaves out (``searchsorted``'s sorter)
        expression = given.get(name, name if name in own else None)
        value = sample.kwargs.get(name, parameter.default)
        if expression is None:
            if name not in entry.inputs and value is not parameter.default:
                return None
            continue
        read = read_by(expression)
        if not read:  # a value the spelling fixes: comparable only where the sample has that value
            if name in entry.inputs or eval(expression, {"mstype": mstype}) != value:
                return None
            continue
        if name not in entry.inputs and len(read) > 1:  # the setting's own name, else the one that is no input
            read = [name] if name in read else [face_name for face_name in read if face_name not in input_faces]
        elif name in read:  # an input whose expression also reads another (``mint.add``'s other reads input)
            read = [name] + [face_name for face_name in read if face_name != name]
        if len(read) != 1 and name not in entry.inputs:
            return None
        target = read[0]  # an input adapted by a setting (``input.astype(dtype)``): the first name it reads
        if name in entry.inputs and name not in sample.kwargs:
            positional.append((list(own).index(target), target))
        elif value is not inspect.Parameter.empty:  # a setting, or a scalar input the sample gives by name
            candidates.setdefault(target, []).append(value)
            if not set(read_by(expression)) & input_faces:
                checks.append((expression, value))
    indices = [index for index, _ in positional]
    if indices != sorted(indices):
        return None  # inputs that the face takes in another order
    # Inputs after a setting (``pad``'s value, ``binary_cross_entropy_with_logits``'s pos_weight) or keyword-only
    # ones (``mint.addcmul``'s value) go by name.
    leading = next((count for count, (index, face_name) in enumerate(positional)
                    if index != count or own[face_name].kind is inspect.Parameter.KEYWORD_ONLY), len(indices))
    by_name = [face_name for _, face_name in positional[leading:]]
    if any(own[face_name].kind is inspect.Parameter.VAR_POSITIONAL for _, face_name in positional):
        leading, by_name = None, []  # ``meshgrid(*tensors)``: every input in order
    # A setting the face takes as ``*size`` (``mint.empty``): the shape's items, after the leading inputs.
    spread_name = next((face_name for face_name in candidates
                        if own[face_name].kind is inspect.Parameter.VAR_POSITIONAL), None)

    def spread_of(value):
        return tuple(value) if isinstance(value, (tuple, list)) else (value,)

    # One face parameter may carry several settings (conv's ``padding``: the pad mode or the padding): the
    # value for which every such expression gives back the sample's settings.
    defaults = {face_name: p.default for face_name, p in own.items() if p.default is not inspect.Parameter.empty}
    for values in itertools.product(*candidates.values()):
        arguments = dict(zip(candidates, values))
        spread = spread_of(arguments.pop(spread_name)) if spread_name else ()
        face_values = {**defaults, **arguments, **({spread_name: spread} if spread_name else {})}
        if all(np.array_equal(eval(expression, {"mstype": mstype}, face_values), value) for expression, value in checks):
            return lambda *tensors: function(*tensors[:leading], *spread, **dict(zip(by_name, tensors[leading:])),
                                             **arguments)
    return None



def output_dtypes(outputs):
    """The dtype of each output: a Tensor's (or sparse tensor's); a Python value's NumPy dtype (``rank``); a dtype
    answer (``ops.dtype``) as ``(ANSWER, it)``."""
    return [(ANSWER, output) if isinstance(output, mstype.Type)
            else output.dtype if isinstance(output, (Tensor, SparseTensorBase)) else np.asarray(output).dtype
            for output in outputs_of(outputs)]


ANSWER = "a dtype answer"


def dtypes_of(function):
    """``output_dtypes`` of ``function()``'s outputs, found by tracing it (``jax.eval_shape``): the op's kernels are
    traced, not compiled, and a dtype rule needs no values. The compile of each (op, dtype, shape) was most of
    the table's dtype checks' time. An op whose output shape depends on its input values (``masked_select``)
    cannot be traced: it runs eagerly."""
    found = []
    try:
        jax.eval_shape(lambda: found.append(output_dtypes(function())))
    except Exception as error:  # noqa: BLE001 - only a value-dependent op; any other error is re-raised
        if not is_untraceable(error):
            raise
        return output_dtypes(function())
    return found[0]



def random_arguments(sample):
    """A random entry's sample arguments: NumPy arrays as Tensors, shapes and numbers as they are."""
    return [Tensor(array) if isinstance(array, np.ndarray) else array for array in sample.arrays]


def random_faces(entry, sample, compiled):
    """``(name, callable)`` of every face of a random entry, and the functional op compiled when ``compiled``."""
    faces = [("functional", lambda *args: entry.function(*args, **sample.kwargs))]
    if compiled:
        faces.append(("compiled", lambda *args: ms.jit(lambda *tensors: entry.function(*tensors, **sample.kwargs))(*args)))
    for method in entry.methods:
        faces.append((f"Tensor.{method}", lambda first, *rest, method=method: getattr(first, method)(*rest, **sample.kwargs)))
    return faces + mint_faces(entry, sample, random_spelled_call)


def _same_argument(one, other):
    if isinstance(one, Tensor) and isinstance(other, Tensor):
        return one.dtype == other.dtype and np.array_equal(one.asnumpy(), other.asnumpy())
    return one is other


def random_spelled_call(entry, row, sample):
    """A random entry's spelling ``row`` called with ``sample``'s arguments (shapes and numbers lead, as the op
    takes them) under the face's own names, or None when the sample sets what the face cannot pass (a
    ``seed``), or gives two values to one face parameter (``bernoulli``'s ``input`` and ``p``)."""
    function = SPELLED[row.namespaces[0]][row.name]
    own = inspect.signature(function).parameters
    given = dict(row.arguments)
    values = entry.signature.bind_partial(*random_arguments(sample), **sample.kwargs).arguments
    taken = {}  # face parameter: the value it passes on
    for name, parameter in entry.signature.parameters.items():
        expression = given.get(name, name if name in own else None)
        value = values.get(name, parameter.default)
        if expression is None:
            if name in values and value is not parameter.default:
                return None
            continue
        names = {node.id for node in ast.walk(ast.parse(expression)) if isinstance(node, ast.Name)}
        read = [face_name for face_name in own if face_name in names]
        if len(read) != 1 or (read[0] in taken and not _same_argument(taken[read[0]], value)):
            return None
        if value is not inspect.Parameter.empty:
            taken[read[0]] = value
    spread = [value for target, value in taken.items() if own[target].kind is inspect.Parameter.VAR_POSITIONAL]
    keywords = {target: value for target, value in taken.items()
                if own[target].kind is not inspect.Parameter.VAR_POSITIONAL}
    # the arguments are bound above, once: the face ignores the ones the caller repeats
    return lambda *_: function(*(spread[0] if spread else ()), **keywords)


