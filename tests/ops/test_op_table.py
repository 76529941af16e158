"""The op test table: every op-table entry's samples through every face it has.

For each entry (``sporax.ops.op_table``) and each sample of each dtype it takes:

- the functional op, in PyNative and compiled (``ms.jit``), matches the entry's NumPy reference
  (computed in float64) within the dtype's tolerance;
- the Primitive, the Tensor method, the ``mint`` functions (the op's own face, and its PyTorch spellings with
  the sample's settings under their names) and every Cell give exactly the functional op's values (one
  kernel: faces cannot diverge), in PyNative and GRAPH mode;
- the gradient matches central finite differences of the reference (float64, random directions);
- the dtype rule holds: integer inputs are refused by float-only ops, naming the op, or computed
  in Float32 by ``TO_FLOAT``/``PROMOTED_TO_FLOAT`` ops; Bool inputs are refused by number ops; other ops compute
  integers as integers (an integer or Bool result: ``sum`` widens to Int64, ``all`` gives Bool);
  two-operand (``BINARY``) ops promote Tensors and Python numbers as MindSpore does.

An op with several outputs (``max`` gives values and indices) is checked output by output. A sample
operand may be a Python number (``binary()``'s last sample): it is passed as is, not as a Tensor, so
the Tensor-and-scalar path of every face is checked too. A sparse operand (a ``COOArrays``/``CSRArrays``
record of NumPy components in a sample) is passed as its COOTensor/CSRTensor, and a sparse output compares as
its dense form.
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
from sporax import Tensor, context
from sporax.core import dtype as mstype
from sporax.core.sparse import SparseTensorBase
from sporax.mint.spellings import SPELLED
from sporax.ops import op_table
from sporax.ops import operations
from sporax.ops.operations import grad_ops
from sporax.ops.sparse_operands import SPARSE_ARRAYS, dense_of, record_of
from sporax.state.fallback import is_untraceable

# Ops of Python values (``scalar_add``, ``tuple_getitem``: the SCALAR rule) have no Tensor faces to compare: their
# values, Primitives and compiled use are checked in tests/ops/test_python_value_ops.py.
ENTRIES = [entry for entry in op_table.entries()
           if entry.samples is not None and entry.random is None and entry.dtypes != op_table.SCALAR]
# Random ops draw from the global random state: checked against their Distribution, and face by face
# under one seed (``test_random_*`` below).
RANDOM_ENTRIES = [entry for entry in op_table.entries() if entry.samples is not None and entry.random is not None]
DTYPES = ("float32", "float16", "bfloat16")
TOLERANCE = {"float32": (1e-5, 1e-5), "float16": (2e-3, 2e-3), "bfloat16": (1.6e-2, 1.6e-2),
             "float64": (1e-10, 1e-10)}
MINT_MODULES = ("sporax.mint", "sporax.mint.nn.functional")
CELL_MODULES = {"nn": "sporax.nn", "mint.nn": "sporax.mint.nn"}


def _ids(entry):
    return entry.name


def _numpy(value):
    if isinstance(value, SparseTensorBase):  # a COOTensor/CSRTensor output compares as its dense form
        return dense_of(record_of(value))
    return np.asarray(value.asnumpy() if isinstance(value, Tensor) else value)


def _outputs(value):
    """The outputs of an op as a list (one for a single Tensor)."""
    return list(value) if isinstance(value, tuple) else [value]


def _as_float64(array):
    array = np.asarray(array)
    # complex results (Fourier transforms) compare as complex128
    return array.astype(np.complex128) if array.dtype.kind == "c" else np.asarray(array, np.float64)


def _tensor(array):
    """An operand as the faces take it: an array as a Tensor, a tuple of arrays (``concat``'s input)
    as a tuple of Tensors, a Python number as it is, a ``COOArrays``/``CSRArrays`` as its sparse tensor."""
    if isinstance(array, SPARSE_ARRAYS):
        return array.tensor()
    if isinstance(array, tuple):
        return tuple(item.tensor() if isinstance(item, SPARSE_ARRAYS) else Tensor(item) for item in array)
    return array if isinstance(array, (bool, int, float)) else Tensor(array)


def _tensors(sample):
    """The sample's operands as the faces take them."""
    return [_tensor(array) for array in sample.arrays]


def _call(entry, tensors, kwargs):
    """The functional face on Tensor inputs given in ``entry.inputs`` order (they need not come first
    in the signature: ``SparseTensorDenseMatmul``'s shape sits between its Tensors); a ``*inputs`` input
    (``meshgrid``) takes them all, positionally."""
    first = entry.signature.parameters[entry.inputs[0]] if entry.inputs else None
    if first is not None and first.kind is inspect.Parameter.VAR_POSITIONAL:
        return entry.function(*tensors, **kwargs)
    return entry.function(**dict(zip(entry.inputs, tensors)), **kwargs)


def _reference(entry, arrays, kwargs, dtype="float32"):
    """The NumPy reference takes the Tensor inputs first, positionally, then the settings (and the sample's
    dtype name for an entry whose answer depends on the dtype alone: ``reference_dtype``)."""
    if entry.reference_dtype:
        return entry.reference(*arrays, **kwargs, dtype=dtype)
    return entry.reference(*arrays, **kwargs)


def _float64(array):
    """Float inputs in float64 for the reference; integer inputs (indices) and Python numbers as they are."""
    if isinstance(array, (bool, int, float)):
        return array
    if isinstance(array, tuple):
        return tuple(_float64(item) for item in array)
    if isinstance(array, SPARSE_ARRAYS):  # a sparse operand: its values
        return array.with_values(_float64(array.values))
    array = np.asarray(array)
    return array if array.dtype.kind in "biu" else _as_float64(array)


@pytest.fixture
def graph_mode():
    context.set_context(mode=context.GRAPH_MODE)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)


def _assert_close(actual, expected, dtype, what):
    if isinstance(actual, mstype.Type):  # a dtype answer (``ops.dtype``): the NumPy dtype it stands for
        assert np.dtype(mstype.dtype_to_nptype(actual)) == np.dtype(getattr(ml_dtypes, expected, expected)), what
        return
    if isinstance(actual, (tuple, list)):
        assert len(actual) == len(expected), f"{what}: {len(actual)} outputs, the reference {len(expected)}"
        for index, (one, reference) in enumerate(zip(actual, expected)):
            _assert_close(one, reference, dtype, f"{what}, output {index}")
        return
    rtol, atol = TOLERANCE[dtype]
    if np.iscomplexobj(expected) or _numpy(actual).dtype.kind == "c":
        # computed in Float32 at least (the SPECTRAL rule): the reference is not rounded to the input dtype
        np.testing.assert_allclose(_as_float64(_numpy(actual)), _as_float64(expected), rtol=rtol, atol=atol,
                                   err_msg=what)
        return
    actual = _as_float64(_numpy(actual).astype(np.float64) if _numpy(actual).dtype == ml_dtypes.bfloat16
                         else _numpy(actual))
    # The reference sees the rounded input; its result is rounded to the dtype once more.
    expected = _as_float64(np.asarray(expected).astype(np.dtype(getattr(ml_dtypes, dtype, dtype)))
                           .astype(np.float64))
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=what)


def _cases(dtypes=DTYPES):
    for entry in ENTRIES:
        for dtype in dtypes:
            if entry.samples(dtype):  # integer-only ops (bitwise) have samples for float32 alone
                # bfloat16 repeats float16's check at another rounding and compiles every op once more
                # (a sixth of this file's time): it runs with the slow set
                marks = [pytest.mark.slow] if dtype == "bfloat16" else []
                yield pytest.param(entry, dtype, id=f"{entry.name}-{dtype}", marks=marks)


def _samples_of(entry, dtype):
    """Every sample in float32; the first in the half-precision dtypes. Each (shape, dtype) compiles its own
    kernel, the dominant cost of this table (about 3500 cases): rounding is what the half dtypes add, and one
    sample per dtype shows it, while the settings and shapes are covered in float32."""
    samples = entry.samples(dtype)
    return samples if dtype in ("float32", "float64") else samples[:1]


@pytest.mark.parametrize("entry, dtype", list(_cases()))
def test_functional_matches_reference(entry, dtype):
    for sample in _samples_of(entry, dtype):
        expected = _reference(entry, [_float64(array) for array in sample.arrays], sample.kwargs, dtype)
        eager = _call(entry, _tensors(sample), sample.kwargs)
        _assert_close(eager, expected, dtype, f"{entry.name} PyNative, settings {sample.kwargs}")
        if entry.reference_dtype and isinstance(eager, Tensor):  # a constant of the dtype (``eps``): exactly it
            np.testing.assert_array_equal(_numpy(eager).astype(np.float64), expected, err_msg=entry.name)


def _primitive_call(entry, sample):
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


def _faces(entry, sample):
    """``(name, callable)`` of every face of ``entry`` that can take ``sample``'s settings."""
    faces = [("functional", lambda *tensors: _call(entry, tensors, sample.kwargs))]
    primitive = _primitive_call(entry, sample)
    if primitive is not None:
        faces.append((f"ops.{entry.primitive}", primitive))
    # Inputs after a setting (``gather_elements(input, dim, index)``) go to the method by name.
    leading = list(entry.signature.parameters)[:len(entry.inputs)] == list(entry.inputs)
    for method in entry.methods:
        faces.append((f"Tensor.{method}",
                      lambda first, *rest, method=method: getattr(first, method)(*rest, **sample.kwargs) if leading
                      else getattr(first, method)(**dict(zip(entry.inputs[1:], rest)), **sample.kwargs)))
    for module_name in MINT_MODULES:
        for name in entry.mint:
            function = getattr(importlib.import_module(module_name), name, None)
            if function is not None:
                faces.append((f"{module_name}.{name}", lambda *tensors, f=function: f(*tensors, **sample.kwargs)))
    for row in entry.spellings:
        call = _spelled_call(entry, row, sample)
        if call is not None:
            faces.append((f"{row.namespaces[0]}.{row.name} (spelling)", call))
    return faces


def _spelled_call(entry, row, sample):
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
    input_faces = {(read_by(given.get(name, name)) or [None])[0] for name in entry.inputs}
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


@pytest.mark.parametrize("entry, dtype", list(_cases(("float32", "float16"))))
def test_faces_agree_in_pynative(entry, dtype):
    for sample in _samples_of(entry, dtype):
        expected = [_numpy(output) for output in _outputs(_call(entry, _tensors(sample), sample.kwargs))]
        for name, face in _faces(entry, sample):
            actual = [_numpy(output) for output in _outputs(face(*_tensors(sample)))]
            assert [a.dtype for a in actual] == [e.dtype for e in expected], f"{name} gave other dtypes than the op"
            for one, reference in zip(actual, expected):
                np.testing.assert_array_equal(one, reference, err_msg=f"{name} differs from ops.{entry.name}")


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids)
def test_faces_agree_compiled(entry):
    """Every face of the first samples, all in one compiled program (one compile per entry: the compile, not
    the run, is what this table spends its time on)."""
    samples = entry.samples("float32")
    samples = samples[:1] + [sample for sample in samples[1:] if sample.kwargs][:1]
    faces = [_faces(entry, sample) for sample in samples]
    if entry.writes is None:
        operands = [_tensors(sample) for sample in samples]

        def every_face(*tensors):
            outputs, start = [], 0
            for sample_faces, sample_operands in zip(faces, operands):
                chunk = tensors[start:start + len(sample_operands)]
                start += len(sample_operands)
                outputs.append(tuple(face(*chunk) for _, face in sample_faces))
            return tuple(outputs)

        every_output = ms.jit(every_face)(*[tensor for sample_operands in operands for tensor in sample_operands])
    else:  # each face overwrites its input: one program per face, each on fresh inputs
        every_output = [tuple(ms.jit(lambda *tensors, face=face: face(*tensors))(*_tensors(sample))
                              for _, face in sample_faces) for sample, sample_faces in zip(samples, faces)]
    for sample, sample_faces, outputs in zip(samples, faces, every_output):
        eager = [_numpy(output).dtype for output in _outputs(_call(entry, _tensors(sample), sample.kwargs))]
        reference = _reference(entry, [_float64(array) for array in sample.arrays], sample.kwargs)
        for (name, _), output in zip(sample_faces, outputs):
            assert [_numpy(one).dtype for one in _outputs(output)] == eager, name
            _assert_close(output, reference, "float32", f"{name} compiled, settings {sample.kwargs}")
        compiled = [[_numpy(one) for one in _outputs(output)] for output in outputs]
        for (name, _), output in zip(sample_faces[1:], compiled[1:]):
            for one, first in zip(output, compiled[0]):
                np.testing.assert_array_equal(one, first, err_msg=f"{name} compiled differs from the op")


def _cell_cases():
    for entry in ENTRIES:
        for spec in entry.cells:
            yield pytest.param(entry, spec, id=f"{spec.namespace}.{spec.name}")


@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("entry, spec", list(_cell_cases()))
def test_cells_agree_with_their_op(entry, spec, mode, request):
    if mode == "graph":
        request.getfixturevalue("graph_mode")
    cell_class = getattr(importlib.import_module(CELL_MODULES[spec.namespace]), spec.name)
    defaults = dict(spec.params)
    settings = (spec.to_op(**defaults) if spec.to_op else defaults)
    for dtype in ("float32",) if mode == "graph" else ("float32", "float16"):
        sample = entry.samples(dtype)[0]
        cell = cell_class()
        actual = _numpy(cell(*_tensors(sample)))
        expected = _numpy(_call(entry, _tensors(sample), settings))
        np.testing.assert_array_equal(actual, expected, err_msg=f"{spec.namespace}.{spec.name} ({mode}, {dtype})")
        reference = _reference(entry, [_float64(array) for array in sample.arrays], settings, dtype)
        _assert_close(actual, reference, dtype, f"{spec.namespace}.{spec.name} vs NumPy")


def _directional_difference(function, arrays, directions, step=1e-6):
    plus = function(*[array + step * direction for array, direction in zip(arrays, directions)])
    minus = function(*[array - step * direction for array, direction in zip(arrays, directions)])
    return (plus - minus) / (2 * step)


@pytest.mark.parametrize("entry", [entry for entry in ENTRIES if entry.grad_check], ids=_ids)
def test_gradient_matches_finite_differences(entry):
    """Gradients w.r.t. every float input (integer inputs, such as indices, are held fixed), of both samples
    in one compiled, differentiated program (one compile per entry)."""
    generator = np.random.default_rng(0)
    checks = []  # per sample: its float64 arrays, the float inputs' positions, the output weights, the directions
    for sample in entry.samples("float64")[:2]:
        arrays = [_float64(array) for array in sample.arrays]
        wrt = [index for index, array in enumerate(arrays) if array.dtype.kind == "f"]
        weights = generator.standard_normal(np.shape(_reference(entry, arrays, sample.kwargs)))
        directions = [[generator.standard_normal(arrays[index].shape) for index in wrt] for _ in range(2)]
        checks.append((sample, arrays, wrt, weights, directions))

    def loss(*tensors):
        total, start = 0, 0
        for sample, arrays, _, weights, _ in checks:
            total = total + (_call(entry, tensors[start:start + len(arrays)], sample.kwargs) * Tensor(weights)).sum()
            start += len(arrays)
        return total

    positions, start = [], 0
    for _, arrays, wrt, _, _ in checks:
        positions += [start + index for index in wrt]
        start += len(arrays)
    # Compiled: the PyNative backward pass dispatches (and compiles) each of its operations on its own, which was
    # a third of this file's time; the kernel's gradient is the same JAX derivative either way.
    gradients = ms.jit(ms.grad(loss, grad_position=tuple(positions)))(
        *[Tensor(array) for _, arrays, _, _, _ in checks for array in arrays])
    gradients = list(gradients) if isinstance(gradients, tuple) else [gradients]
    for sample, arrays, wrt, weights, directions in checks:
        sample_gradients, gradients = gradients[:len(wrt)], gradients[len(wrt):]

        def reference_loss(*floats):
            values = list(arrays)
            for index, value in zip(wrt, floats):
                values[index] = value
            return float(np.sum(_reference(entry, values, sample.kwargs) * weights))

        for direction in directions:
            numeric = _directional_difference(reference_loss, [arrays[index] for index in wrt], direction)
            analytic = sum(float(np.sum(_numpy(gradient) * one))
                           for gradient, one in zip(sample_gradients, direction))
            assert analytic == pytest.approx(numeric, rel=1e-5, abs=1e-6), (
                f"d {entry.name}: autodiff {analytic} vs finite differences {numeric}, settings {sample.kwargs}")


def _dtypes(outputs):
    """The dtype of each output: a Tensor's (or sparse tensor's); a Python value's NumPy dtype (``rank``); a dtype
    answer (``ops.dtype``) as ``(ANSWER, it)``."""
    return [(ANSWER, output) if isinstance(output, mstype.Type)
            else output.dtype if isinstance(output, (Tensor, SparseTensorBase)) else np.asarray(output).dtype
            for output in _outputs(outputs)]


ANSWER = "a dtype answer"


def _dtypes_of(function):
    """``_dtypes`` of ``function()``'s outputs, found by tracing it (``jax.eval_shape``): the op's kernels are
    traced, not compiled, and a dtype rule needs no values. The compile of each (op, dtype, shape) was most of
    this file's dtype checks' time. An op whose output shape depends on its input values (``masked_select``)
    cannot be traced: it runs eagerly."""
    found = []
    try:
        jax.eval_shape(lambda: found.append(_dtypes(function())))
    except Exception as error:  # noqa: BLE001 - only a value-dependent op; any other error is re-raised
        if not is_untraceable(error):
            raise
        return _dtypes(function())
    return found[0]


@pytest.mark.parametrize("entry", [entry for entry in ENTRIES if entry.inputs], ids=_ids)  # windows take none
def test_dtype_rule(entry):
    sample = entry.samples("float32")[0]
    # Index and mask inputs keep their dtype (an index or a mask of another dtype is refused).
    kept = [(entry.input_dtypes or {}).get(name) in (op_table.INDEX, op_table.MASK) for name in entry.inputs]
    integers = [_tensor(array) if keep else _tensor(_each(array, lambda item: np.round(item * 3).astype(np.int32)))
                for keep, array in zip(kept, sample.arrays)]
    booleans = [_tensor(array) if keep else _tensor(_each(array, lambda item: item > 0))
                for keep, array in zip(kept, sample.arrays)]
    if entry.dtypes in (op_table.FLOAT, op_table.INEXACT, op_table.COMPLEX):
        with pytest.raises(TypeError, match=entry.name):
            _call(entry, integers, sample.kwargs)
    elif entry.dtypes in (op_table.TO_FLOAT, op_table.PROMOTED_TO_FLOAT):
        assert all(dtype == ms.float32 for dtype in _dtypes_of(lambda: _call(entry, integers, sample.kwargs)))
        assert all(dtype == ms.float32 for dtype in _dtypes_of(lambda: _call(entry, booleans, sample.kwargs)))
    elif entry.dtypes == op_table.CREATION:  # no Tensor input: the dtype asked for, Float32 by default
        for sample in entry.samples("float32"):
            expected = sample.kwargs.get("dtype") or ms.float32
            assert all(dtype == expected for dtype in _dtypes_of(lambda: _call(entry, [], sample.kwargs)))
    elif entry.dtypes == op_table.TO_FLOAT64:  # double precision whatever the input
        assert all(dtype == ms.float64 for dtype in _dtypes_of(lambda: _call(entry, integers, sample.kwargs)))
        assert all(dtype == ms.float64 for dtype in _dtypes_of(lambda: _call(entry, booleans, sample.kwargs)))
    elif entry.dtypes == op_table.SPECTRAL:
        with pytest.raises(TypeError, match=entry.name):
            _call(entry, booleans, sample.kwargs)
        for dtype in _dtypes_of(lambda: _call(entry, integers, sample.kwargs)):
            assert dtype in (ms.float32, ms.complex64), f"{entry.name} made {dtype} of Int32"
    elif entry.dtypes in (op_table.BINARY, op_table.BINARY_TO_FLOAT):
        expected = _binary_result(entry, sample, ms.float32 if entry.dtypes == op_table.BINARY_TO_FLOAT else ms.int32)
        assert _dtypes_of(lambda: _call(entry, integers, sample.kwargs)) == [expected]
    else:
        if entry.dtypes == op_table.NUMBER:
            with pytest.raises(TypeError, match=entry.name):
                _call(entry, booleans, sample.kwargs)
        for dtype in _dtypes_of(lambda: _call(entry, integers, sample.kwargs)):
            if isinstance(dtype, tuple):  # a dtype answer (``ops.dtype``): the integers' own
                assert dtype == (ANSWER, ms.int32), f"{entry.name} answered {dtype[1]} for Int32"
                continue
            numpy_dtype = dtype if isinstance(dtype, np.dtype) else np.dtype(mstype.dtype_to_nptype(dtype))
            assert numpy_dtype.kind in "biu", f"{entry.name} made integers {dtype}"


def _each(array, change):
    """``change`` of an array, or of each array of a tuple of them, or of a sparse operand's values."""
    if isinstance(array, SPARSE_ARRAYS):
        return array.with_values(change(array.values))
    return tuple(_each(item, change) for item in array) if isinstance(array, tuple) else change(array)


def _binary_result(entry, sample, dtype):
    """``dtype``, or Bool for a predicate (comparisons, logical ops: the NumPy reference gives bool)."""
    predicate = np.asarray(entry.reference(*[_float64(array) for array in sample.arrays])).dtype == np.bool_
    return ms.bool_ if predicate else dtype


BINARY_ENTRIES = [entry for entry in ENTRIES if entry.dtypes in (op_table.BINARY, op_table.BINARY_TO_FLOAT)]


@pytest.mark.parametrize("entry", BINARY_ENTRIES, ids=_ids)
def test_binary_promotion(entry):
    """A Python number lifts only the kind, a Tensor the width (checked on MindSpore 2.10 with add, mul,
    maximum, remainder, pow, equal; integer true division gives Float32)."""
    sample = entry.samples("float32")[0]
    first, second = sample.arrays
    if first.dtype.kind in "iu":  # an integer-only op: a Python float would be refused
        assert _dtypes_of(lambda: entry.function(Tensor(first.astype(np.int8)), Tensor(second))) == [ms.int32]
        assert _dtypes_of(lambda: entry.function(Tensor(first.astype(np.int8)), 2)) == [ms.int8]
        return
    whole = np.round(first * 3).astype(np.int32)
    floating = entry.dtypes == op_table.BINARY_TO_FLOAT
    cases = [((Tensor(whole), 2.5), ms.float32),
             ((Tensor(first.astype(np.float16)), 2.0), ms.float16),
             ((Tensor(first.astype(np.float16)), Tensor(second)), ms.float32),
             ((Tensor(whole), Tensor(whole.astype(np.int64))), ms.float32 if floating else ms.int64)]
    for operands, expected in cases:
        result = _dtypes_of(lambda: entry.function(*operands))
        assert result == [_binary_result(entry, sample, expected)], (entry.name, operands, result)


def test_every_primitive_name_resolves_to_its_entry():
    for entry in op_table.entries():
        if entry.primitive and entry.dtypes != op_table.SCALAR:  # not exported by ``mindspore.ops`` (ScalarAdd)
            primitive = op_table.primitive_named(entry.primitive)
            if primitive is None:  # an internal Primitive (Rolling): user classes of its name run the entry
                assert not hasattr(ms.ops, entry.primitive) and op_table.PRIMITIVES[entry.primitive] is entry
                continue
            # backward kernels (``LogitGrad``) are MindSpore's ``ops.operations._grad_ops``, not ``ops``; generated
            # classes MindSpore keeps in ``ops.auto_generate`` only (``Outer``) are ``ops.operations`` here
            exported = getattr(ms.ops, entry.primitive, None)
            if exported is None:
                exported = getattr(operations, entry.primitive, None)
            assert primitive is (exported if exported is not None else getattr(grad_ops, entry.primitive))
            sample = entry.samples("float32")[0] if entry.samples else None
            if sample is not None and not sample.kwargs and entry.random is None:
                instance = primitive()
                assert instance.name == entry.primitive and repr(instance).startswith(f"Prim[{entry.primitive}]")
                for output, expected in zip(_outputs(instance(*_tensors(sample))),
                                            _outputs(_call(entry, _tensors(sample), {}))):
                    np.testing.assert_array_equal(_numpy(output), _numpy(expected))


def test_a_name_is_declared_once():
    def twice(x):
        return x

    op_table.op(inputs="x")(twice)
    try:
        with pytest.raises(ValueError, match="'twice' is declared twice"):
            op_table.op(inputs="x")(twice)
    finally:
        del op_table.TABLE["twice"]


def _random_arguments(sample):
    """A random entry's sample arguments: NumPy arrays as Tensors, shapes and numbers as they are."""
    return [Tensor(array) if isinstance(array, np.ndarray) else array for array in sample.arrays]


def _random_faces(entry, sample, compiled):
    """``(name, callable)`` of every face of a random entry, and the functional op compiled when ``compiled``."""
    faces = [("functional", lambda *args: entry.function(*args, **sample.kwargs))]
    if compiled:
        faces.append(("compiled", lambda *args: ms.jit(lambda *tensors: entry.function(*tensors, **sample.kwargs))(*args)))
    for method in entry.methods:
        faces.append((f"Tensor.{method}", lambda first, *rest, method=method: getattr(first, method)(*rest, **sample.kwargs)))
    for module_name in MINT_MODULES:
        for name in entry.mint:
            function = getattr(importlib.import_module(module_name), name, None)
            if function is not None:
                faces.append((f"{module_name}.{name}", lambda *args, f=function: f(*args, **sample.kwargs)))
    for row in entry.spellings:
        call = _random_spelled_call(entry, row, sample)
        if call is not None:
            faces.append((f"{row.namespaces[0]}.{row.name} (spelling)", call))
    return faces


def _same_argument(one, other):
    if isinstance(one, Tensor) and isinstance(other, Tensor):
        return one.dtype == other.dtype and np.array_equal(one.asnumpy(), other.asnumpy())
    return one is other


def _random_spelled_call(entry, row, sample):
    """A random entry's spelling ``row`` called with ``sample``'s arguments (shapes and numbers lead, as the op
    takes them) under the face's own names, or None when the sample sets what the face cannot pass (a
    ``seed``), or gives two values to one face parameter (``bernoulli``'s ``input`` and ``p``)."""
    function = SPELLED[row.namespaces[0]][row.name]
    own = inspect.signature(function).parameters
    given = dict(row.arguments)
    values = entry.signature.bind_partial(*_random_arguments(sample), **sample.kwargs).arguments
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


# MindSpore 2.10's randperm draws from std::mt19937(seed), the global seed unused: a fixed seed (0 by default)
# repeats its permutation call after call (recorded: randperm(8) twice under set_seed(11) gives [0 2 1 5 3 6 4 7]).
FIXED_BY_THEIR_SEED = {"randperm"}
# MindSpore 2.10's Bernoulli kernel restarts PhiloxRandom(seed) at every launch for a seed > 0: a draw of whole
# 4-word blocks repeats call after call (recorded: ops.bernoulli(zeros(40), 0.5, seed=5) twice, the same 40).
FIXED_BY_AN_OP_SEED = {"bernoulli"}
# Their compiled faces take 10-20 s each to compile (rejection-sampling and glimpse loops): slow set.
SLOW_TO_COMPILE = {"uniform_candidate_sampler", "log_uniform_candidate_sampler", "extract_glimpse"}


def _start_kernels_afresh():
    """Forget the PyNative kernels whose streams set_seed leaves be (Dropout2D/3D, Bernoulli): each face's
    first draw is then a new process's."""
    from sporax.core import seeded_streams

    seeded_streams._eager_kernels.clear()


@pytest.mark.parametrize("entry", [pytest.param(entry, marks=pytest.mark.slow) if entry.name in SLOW_TO_COMPILE
                                   else entry for entry in RANDOM_ENTRIES], ids=_ids)
def test_random_faces_repeat_under_one_seed(entry):
    """Each face, after ``set_seed``, draws exactly the functional op's values (PyNative and compiled); a
    second draw differs; ``entry.sample`` with one key repeats."""
    import jax

    for index, sample in enumerate(entry.samples("float32")):
        ms.set_seed(11)
        _start_kernels_afresh()
        expected = [_numpy(output) for output in _outputs(entry.function(*_random_arguments(sample), **sample.kwargs))]
        again = [_numpy(output) for output in _outputs(entry.function(*_random_arguments(sample), **sample.kwargs))]
        fixed = entry.name in FIXED_BY_THEIR_SEED or (entry.name in FIXED_BY_AN_OP_SEED and sample.kwargs.get("seed"))
        if not fixed:
            assert any(not np.array_equal(a, b) for a, b in zip(again, expected)), f"{entry.name}: two draws are equal"
        for name, face in _random_faces(entry, sample, compiled=index == 0):  # one compile per entry
            ms.set_seed(11)
            _start_kernels_afresh()
            actual = [_numpy(output) for output in _outputs(face(*_random_arguments(sample)))]
            for one, reference in zip(actual, expected):
                assert one.dtype == reference.dtype, f"{name} gave {one.dtype}, the op {reference.dtype}"
                if name == "compiled" and one.dtype.kind == "f":
                    # one key, one draw; XLA may fuse the scaling after it (``sample * std + mean``) into
                    # another rounding than the eager ops
                    np.testing.assert_allclose(one, reference, rtol=1e-5, atol=1e-5, err_msg=f"{name} ops.{entry.name}")
                else:
                    np.testing.assert_array_equal(one, reference, err_msg=f"{name} differs from ops.{entry.name}")
        key = jax.random.key(3)
        first, second = (entry.sample(key, *_random_arguments(sample), **sample.kwargs) for _ in range(2))
        for one, other in zip(_outputs(first), _outputs(second)):
            np.testing.assert_array_equal(_numpy(one), _numpy(other), err_msg=f"{entry.name}.sample with one key")


def _check_draws(draws, distribution, what):
    assert draws.shape == tuple(distribution.shape), f"{what}: shape {draws.shape}, expected {distribution.shape}"
    assert draws.dtype.name == distribution.dtype, f"{what}: dtype {draws.dtype}, expected {distribution.dtype}"
    values = draws.astype(np.float64)
    if distribution.low is not None:  # a bound may differ per element (broadcast)
        assert np.all(values >= distribution.low), f"{what}: {values.min()} below {distribution.low}"
    if distribution.high is not None:
        assert np.all(values <= distribution.high), f"{what}: {values.max()} above {distribution.high}"
    if distribution.values is not None:
        np.testing.assert_array_equal(np.sort(values, axis=0), np.sort(distribution.values, axis=0), err_msg=what)
    if distribution.mean is not None:
        # Standardised draws: mean 0 and deviation 1 over all elements (5 standard errors of slack).
        scores = (values - np.asarray(distribution.mean, np.float64)) / np.asarray(distribution.std, np.float64)
        assert abs(scores.mean()) < 5 / np.sqrt(scores.size), f"{what}: standardised mean {scores.mean()}"
        assert abs(scores.std() - 1) < 0.1, f"{what}: standardised deviation {scores.std()}"


@pytest.mark.parametrize("entry", RANDOM_ENTRIES, ids=_ids)
def test_random_draws_follow_their_distribution(entry):
    ms.set_seed(5)
    for sample in entry.samples("float32"):
        expected = _outputs(entry.reference(*sample.arrays, **sample.kwargs))
        drawn = _outputs(entry.function(*_random_arguments(sample), **sample.kwargs))
        for draws, distribution in zip(drawn, expected):
            _check_draws(_numpy(draws), distribution, f"{entry.name}, settings {sample.kwargs}")


def test_every_entry_has_samples():
    """An entry without samples would be left out of every check above without a word."""
    assert [entry.name for entry in op_table.entries() if not callable(entry.samples)] == []


@pytest.mark.parametrize("entry", [entry for entry in ENTRIES + RANDOM_ENTRIES if entry.spellings], ids=_ids)
def test_every_spelling_takes_a_sample(entry):
    """Each PyTorch spelling of the entry is one of the faces some sample runs through (the checks above)."""
    spelled_call = _random_spelled_call if entry.random is not None else _spelled_call
    for row in entry.spellings:
        assert any(spelled_call(entry, row, sample) is not None for sample in entry.samples("float32")), (
            f"no sample of ops.{entry.name} can be spelled as {row.namespaces[0]}.{row.name}: add one whose "
            "settings the spelling passes on")
